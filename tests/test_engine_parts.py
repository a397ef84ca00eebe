"""Each part of the CP-SAT model on its own: small models that must be feasible or infeasible.

A part is built on a fresh model with made-up piece bounds, a few constraints pin what the test
asks, and the solver's status (and the part's ``extract``) must say what the part promises.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from meldsat.cards import ALL_CARDS, Card, parse_card
from meldsat.engine.cpsat import CpModel, Expr, Values, cp_model
from meldsat.engine.inventory import Inventory, MeldContents, count_inventory, take_inventory
from meldsat.engine.model import RearrangementModel
from meldsat.engine.parts.groups import GroupShape, GroupShapes, group_shapes
from meldsat.engine.parts.initial import InitialMeld
from meldsat.engine.parts.jokers import JokerLocking
from meldsat.engine.parts.kept import KeptMelds
from meldsat.engine.parts.marked_groups import MarkedGroups
from meldsat.engine.parts.marked_runs import MarkedRunFlow
from meldsat.engine.parts.objective import LexicographicObjective
from meldsat.engine.parts.origin import HandOrigin
from meldsat.engine.parts.runs import RunFlow
from meldsat.engine.parts.supply import PieceBounds, PieceSupply, joker_candidates
from meldsat.engine.search import best_play
from meldsat.engine.trace import Origin
from meldsat.moves import check_move
from meldsat.play import Objective, Status
from meldsat.position import read_position
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules

MANIPULATION = get_rules("manipulation")
RUMMIKUB = get_rules("rummikub")
RUMMY500 = get_rules("rummy500")


def cards(text: str) -> list[Card]:
    return [parse_card(token) for token in text.split()]


def bounds(text: str, copies: int = 1) -> PieceBounds:
    """Bounds for the meld parts: ``copies`` pieces of each card named, none of the others."""
    return PieceBounds(Counter(dict.fromkeys(cards(text), copies)))


def solve(model: CpModel) -> tuple[str, Values | None]:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    code = solver.solve(model)
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return solver.status_name(code), Values(solver) if found else None


def require(model: CpModel, pieces: dict[Card, Expr], text: str) -> None:
    """Exactly one piece of each card named, and none of the others, in ``pieces``."""
    wanted = Counter(cards(text))
    for card in ALL_CARDS:
        model.add(pieces.get(card, 0) == wanted[card])


def inventory(hand: str, jokers: int = 0, table: str = "") -> Inventory:
    melds = [] if not table else [MeldContents(Counter(cards(table)), Counter())]
    real: Counter[Card] = Counter()
    for meld in melds:
        real.update(meld.real)
    return Inventory(real, Counter(), Counter(cards(hand)), jokers, tuple(melds))


# --- piece supply -------------------------------------------------------------------------------


def test_supply_plays_at_least_one_piece() -> None:
    model = CpModel()
    PieceSupply(model, inventory(""), MANIPULATION)
    assert solve(model)[0] == "INFEASIBLE"
    model = CpModel()
    supply = PieceSupply(model, inventory("5H"), MANIPULATION)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert supply.extract(values).hand_played == Counter(cards("5H"))


def test_supply_play_all_plays_the_whole_hand() -> None:
    model = CpModel()
    supply = PieceSupply(model, inventory("5H 6H", jokers=1), MANIPULATION, play_all=True)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    played = supply.extract(values)
    assert played.hand_played == Counter(cards("5H 6H")) and played.hand_jokers_played == 1
    assert played.jokers_at.total() == 1  # the joker stands for exactly one card


def test_supply_least_played_sets_the_pieces_a_solution_plays() -> None:
    model = CpModel()
    PieceSupply(model, inventory(""), MANIPULATION, least_played=0)
    assert solve(model)[0] == "OPTIMAL"  # nothing to play is fine when nothing is required
    model = CpModel()
    supply = PieceSupply(model, inventory("5H 6H"), MANIPULATION, least_played=2)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert supply.extract(values).hand_played == Counter(cards("5H 6H"))
    model = CpModel()
    PieceSupply(model, inventory("5H"), MANIPULATION, least_played=2)
    assert solve(model)[0] == "INFEASIBLE"


def test_supply_makes_hand_variables_in_the_inventory_order() -> None:
    position = read_position("hand: 9S 2H 5D 2H\n")
    assert list(take_inventory(position).hand_real) == cards("2H 5D 9S")  # card order
    counted = count_inventory([], cards("9S 2H 5D 2H"))
    assert list(counted.hand_real) == cards("9S 2H 5D")  # the order the hand gives
    supply = PieceSupply(CpModel(), counted, MANIPULATION)
    assert list(supply.hand_played) == cards("9S 2H 5D")


def test_supply_without_pruning_gives_the_plain_bounds_and_the_same_answers() -> None:
    plain = PieceSupply(CpModel(), inventory("5S 5H", jokers=1), MANIPULATION, prune=False)
    assert all(not isinstance(plain.jokers_at[card], int) for card in ALL_CARDS)
    assert plain.bounds.melds_of(cards("5S 5D 5C")) == 1  # the least bound: needs two jokers
    pruned = PieceSupply(CpModel(), inventory("5S 5H", jokers=1), MANIPULATION)
    assert pruned.bounds.melds_of(cards("5S 5D 5C")) == 0
    for prune in (True, False):
        model = CpModel()
        supply = PieceSupply(model, inventory("5S 5H", jokers=1), MANIPULATION, prune=prune)
        groups = GroupShapes(model, MANIPULATION, supply.bounds)
        for card in ALL_CARDS:
            model.add(supply.shown(card) == groups.pieces.get(card, 0))
        model.add(supply.played_count == 3)
        status, values = solve(model)
        assert status == "OPTIMAL" and values is not None
        assert sum(groups.extract(values).values()) == 1  # 5S 5H and the joker


def test_no_shape_needs_more_jokers_than_there_are() -> None:
    fives = cards("5S 5H 5D 5C")
    one_joker = PieceBounds(Counter(cards("5S 5H")), jokers=1, joker_cards=frozenset(fives))
    assert one_joker.melds_of(cards("5S 5H 5D")) == 1  # 5S 5H and a joker
    assert one_joker.melds_of(fives) == 0  # would need two jokers
    two_copies = PieceBounds(Counter(cards("5S 5S 5H 5H")), jokers=2, joker_cards=frozenset(fives))
    assert two_copies.melds_of(cards("5S 5H 5D")) == 2  # a joker for each 5D
    assert two_copies.melds_of(cards("5D 5C 5S")) == 1


def test_jokers_stand_only_where_a_meld_could_use_them() -> None:
    candidates = joker_candidates(set(cards("5H 6H")), set(), 1, MANIPULATION)
    assert set(cards("4H 7H")) <= candidates
    assert parse_card("KS") not in candidates
    assert joker_candidates(set(), set(), 3, MANIPULATION) == set(ALL_CARDS)


# --- kept melds and joker locking ---------------------------------------------------------------


def test_kept_meld_holds_its_cards() -> None:
    model = CpModel()
    kept = KeptMelds(model, [MeldContents(Counter(cards("7S 8S 9S")), Counter())])
    model.add(kept.keep[0] == 1)
    model.add(kept.holds(parse_card("8S")) == 0)
    assert solve(model)[0] == "INFEASIBLE"
    model = CpModel()
    kept = KeptMelds(model, [MeldContents(Counter(cards("7S 8S 9S")), Counter())])
    model.add(kept.holds(parse_card("8S")) == 1)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None and kept.extract(values) == (0,)


@pytest.mark.parametrize(("hand", "expected"), [("KD", "INFEASIBLE"), ("7S", "OPTIMAL")])
def test_table_joker_is_freed_only_by_its_real_card(hand: str, expected: str) -> None:
    position = read_position(f"table: 5S 6S *=7S\nhand: {hand}\n")
    model = CpModel()
    supply = PieceSupply(model, take_inventory(position), position.rules)
    JokerLocking(model, supply)
    model.add(supply.jokers_at[parse_card("7S")] == 0)  # the joker leaves the 7S
    model.add(sum(supply.hand_played.values()) == 1)
    assert solve(model)[0] == expected


# --- groups -------------------------------------------------------------------------------------


def test_group_shapes_of_the_presets() -> None:
    assert len(group_shapes(MANIPULATION)) == 13 * 5  # four shapes of three suits, one of four


def test_groups_take_three_suits_of_a_rank() -> None:
    model = CpModel()
    groups = GroupShapes(model, MANIPULATION, bounds("5S 5H 5D"))
    require(model, groups.pieces, "5S 5H 5D")
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert groups.extract(values) == {GroupShape(5, (0, 1, 2)): 1}


def test_groups_need_three_suits() -> None:
    model = CpModel()
    groups = GroupShapes(model, MANIPULATION, bounds("5S 5H", copies=2))
    require(model, groups.pieces, "5S 5H")
    assert solve(model)[0] == "INFEASIBLE"


@pytest.mark.parametrize(("hand_pieces", "expected"), [(0, "INFEASIBLE"), (1, "OPTIMAL")])
def test_marked_groups_need_a_hand_piece_each(hand_pieces: int, expected: str) -> None:
    model = CpModel()
    every = bounds("5S 5H 5D")
    marked = MarkedGroups(model, RUMMY500, every, every)
    require(model, marked.pieces, "5S 5H 5D")
    model.add(marked.hand_pieces[parse_card("5H")] == hand_pieces)
    model.add(marked.hand_pieces[parse_card("5S")] + marked.hand_pieces[parse_card("5D")] == 0)
    status, values = solve(model)
    assert status == expected
    if values is not None:
        origins = [origin for _, origin in marked.slots(values)[0]]
        assert origins == [Origin.TABLE, Origin.HAND, Origin.TABLE]


# --- runs ---------------------------------------------------------------------------------------


def test_run_flow_lays_a_run() -> None:
    model = CpModel()
    runs = RunFlow(model, MANIPULATION, bounds("3H 4H 5H"))
    require(model, {card: runs.pieces(card) for card in ALL_CARDS}, "3H 4H 5H")
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert runs.extract(values) == [cards("3H 4H 5H")]


def test_run_flow_needs_run_min_cards() -> None:
    model = CpModel()
    runs = RunFlow(model, MANIPULATION, bounds("3H 4H 6H"))
    require(model, {card: runs.pieces(card) for card in ALL_CARDS}, "3H 4H")
    assert solve(model)[0] == "INFEASIBLE"


@pytest.mark.parametrize(
    ("rules", "expected"), [(MANIPULATION, "OPTIMAL"), (RUMMIKUB, "INFEASIBLE")]
)
def test_ace_above_the_king_only_where_the_rules_allow(rules: RuleSet, expected: str) -> None:
    model = CpModel()
    runs = RunFlow(model, rules, bounds("QS KS AS"))
    require(model, {card: runs.pieces(card) for card in ALL_CARDS}, "QS KS AS")
    status, values = solve(model)
    assert status == expected
    if values is not None:
        assert runs.extract(values) == [cards("QS KS AS")]
        assert values(runs.low_aces()) == 0


def test_low_ace_starts_a_run() -> None:
    model = CpModel()
    runs = RunFlow(model, MANIPULATION, bounds("AS 2S 3S"))
    require(model, {card: runs.pieces(card) for card in ALL_CARDS}, "AS 2S 3S")
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None and values(runs.low_aces()) == 1


@pytest.mark.parametrize(("hand_card", "expected"), [(None, "INFEASIBLE"), ("4H", "OPTIMAL")])
def test_marked_run_ends_only_with_a_hand_piece(hand_card: str | None, expected: str) -> None:
    model = CpModel()
    every = bounds("3H 4H 5H")
    runs = MarkedRunFlow(model, RUMMY500, every, every, every)
    require(model, {card: runs.pieces(card) for card in ALL_CARDS}, "3H 4H 5H")
    from_hand = Counter(cards(hand_card or ""))
    for card in cards("3H 4H 5H"):
        model.add(runs.hand_pieces(card) == from_hand[card])
    status, values = solve(model)
    assert status == expected
    if values is not None:
        assert runs.slots(values) == [
            [
                (parse_card("3H"), Origin.TABLE),
                (parse_card("4H"), Origin.HAND),
                (parse_card("5H"), Origin.TABLE),
            ]
        ]


# --- hand origin, initial meld, objective -----------------------------------------------------


def test_hand_jokers_are_some_of_the_jokers() -> None:
    position = read_position("rules: rummy500\ntable: 5S 6S *=7S\nhand: * KD\n")
    model = CpModel()
    supply = PieceSupply(model, take_inventory(position), position.rules)
    kept = KeptMelds(model, take_inventory(position).melds)
    origin = HandOrigin(model, supply, kept)
    model.add(kept.keep[0] == 1)  # the meld stays as it was: its joker stays a table joker
    model.add(origin.hand_jokers_at[parse_card("7S")] == 1)
    model.add(supply.jokers_at[parse_card("7S")] == 1)
    assert solve(model)[0] == "INFEASIBLE"
    model = CpModel()
    supply = PieceSupply(model, take_inventory(position), position.rules)
    origin = HandOrigin(model, supply, KeptMelds(model, take_inventory(position).melds))
    model.add(supply.hand_jokers == 1)
    model.add(origin.hand_jokers_at[parse_card("8S")] == 1)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert origin.extract(values) == Counter(cards("8S"))


@pytest.mark.parametrize(("low_aces", "expected"), [(0, "OPTIMAL"), (1, "INFEASIBLE")])
def test_initial_meld_counts_a_low_ace_as_the_rules_say(low_aces: int, expected: str) -> None:
    model = CpModel()
    free = {parse_card("AH"): 1, parse_card("2H"): 1, parse_card("3H"): 1}
    InitialMeld(model, RUMMY500, 20, free, low_aces)  # 15 + 2 + 3, or 1 + 2 + 3 for a low ace
    assert solve(model)[0] == expected


def test_objective_puts_value_before_melds_kept() -> None:
    position = read_position("table: 7H 8H 9H | 10S JS QS\nhand: 10H 2C\n")
    model = CpModel()
    inventory = take_inventory(position)
    supply = PieceSupply(model, inventory, position.rules)
    kept = KeptMelds(model, inventory.melds)
    objective = LexicographicObjective(model, Objective.POINTS, position.rules, supply, kept)
    # Playing the 10H here costs both kept melds; playing the 2C alone costs none.
    model.add(2 * supply.hand_played[parse_card("10H")] + sum(kept.keep) <= 2)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert objective.extract(values) == 12 and kept.extract(values) == ()
    model.add(supply.hand_played[parse_card("10H")] == 0)
    status, values = solve(model)
    assert status == "OPTIMAL" and values is not None
    assert objective.extract(values) == 2 and kept.extract(values) == (0, 1)


# --- the composed model -------------------------------------------------------------------------

HOUSE_500 = "rules: rummy500\ninitial: true\ntable: 9C 10C JC\nhand: {hand}\n"


@pytest.mark.parametrize(
    ("hand", "expected", "points"),
    [
        # A-2-3 of hearts is worth 1 + 2 + 3 in an initial meld (the ace melded low counts 1).
        ("AH 2H 3H 5S 5D 5C", Status.NO_MOVE, 0),
        # Q-K-A: the ace melded high counts 15.
        ("QH KH AH 5S", Status.OPTIMAL, 35),
    ],
)
def test_500_rummy_with_an_initial_meld_keeps_the_requirement(
    hand: str, expected: Status, points: int
) -> None:
    house_rules = replace(RUMMY500, initial_meld_points=30)
    position = read_position(HOUSE_500.format(hand=hand))
    position = replace(position, rules=house_rules)
    play = best_play(position, Objective.POINTS)
    assert play.status is expected
    assert play.points_played == points
    if play.found:
        verdict = check_move(position.table, position.hand, play.table, house_rules, initial=True)
        assert verdict.legal, verdict.reasons


def test_solve_can_show_the_search_log(capfd: pytest.CaptureFixture[str]) -> None:
    position = read_position("table: 4S 5S 6S\nhand: 7S 8S\n")
    outcome = RearrangementModel(position).solve(log_search_progress=True, num_workers=2)
    assert outcome.status == "OPTIMAL"
    assert outcome.solution is not None and outcome.solution.value == 15
    assert "CP-SAT" in capfd.readouterr().out

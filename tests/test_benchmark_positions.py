"""The benchmarks' position makers and file formats: bucket positions have the stated sizes, the
worst-case hunter's steps (swap a hand card, move a joker, add a meld) keep positions legal, and
what one script writes the next reads back. No timing here."""

from __future__ import annotations

import hashlib
import json
import math
import random
import statistics
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.common.buckets import RACKS, TABLES, Bucket, bucket_position
from benchmarks.common.units import percentile
from benchmarks.compare.cold import import_times
from benchmarks.investigate.hunt_worst import HUNTED, random_position, rules_for
from benchmarks.investigate.mutations import (
    MUTATIONS,
    add_meld,
    free_cards,
    move_joker,
    mutate,
    swap_hand_card,
)
from benchmarks.investigate.solve_floor import SETTINGS, solve_with
from benchmarks.investigate.solve_floor import Cell as FloorCell
from benchmarks.investigate.solve_floor import report as floor_report
from benchmarks.investigate.tiebreak_variants import Tally, position_row, rule_set_table
from benchmarks.investigate.timing import Timing, recorded
from benchmarks.positions import (
    Shape,
    build_position,
    fitting_cards,
    generate,
    generate_position,
    position_record,
)
from meldsat.cards import Card, Joker, Piece
from meldsat.engine.search import build_model
from meldsat.play import Objective
from meldsat.position import Position
from meldsat.rulesets import get_rules
from meldsat.table import copy_problems, judge_table


def _assert_legal(position: Position) -> None:
    """Every table meld legal, no card or joker more often than the game holds it."""
    rules = position.rules
    assert judge_table(position.table, rules).legal
    pieces = [*position.hand, *(piece for meld in position.table for piece in meld)]
    assert copy_problems(pieces, rules) == []


def _table_size(position: Position) -> int:
    return sum(len(meld) for meld in position.table)


def _jokers(pieces: Iterable[Piece]) -> int:
    return sum(1 for piece in pieces if isinstance(piece, Joker))


@pytest.mark.parametrize("jokers", [0, 1])
@pytest.mark.parametrize("table", TABLES)
def test_bucket_positions_have_the_stated_table_rack_and_jokers(table: str, jokers: int) -> None:
    for rack in RACKS:
        bucket = Bucket(table, rack, jokers)
        low, high = bucket.table_range(106)
        for index in range(2):
            position = bucket_position(bucket, 7, index)
            _assert_legal(position)
            assert len(position.hand) == rack
            assert _jokers(position.hand) == jokers
            assert low <= _table_size(position) <= high
            assert position.rules.name == "rummikub"


def test_the_largest_bucket_stays_within_the_tiles_of_the_game() -> None:
    assert Bucket("80-100", 25, 1).table_range(106) == (80, 81)
    assert Bucket("80-100", 5, 0).table_range(106) == (80, 100)
    assert Bucket("40", 10, 0).table_range(106) == (40, 40)


def test_bucket_positions_are_reproducible_from_the_seed() -> None:
    bucket = Bucket("20", 10, 1)
    assert bucket_position(bucket, 3, 4) == bucket_position(bucket, 3, 4)
    assert bucket_position(bucket, 3, 4) != bucket_position(bucket, 3, 5)


def test_a_shape_fixes_sizes_and_jokers() -> None:
    rules = get_rules("rummy500")
    shape = Shape(table_size=30, hand_size=12, table_jokers=1, hand_jokers=1, group_share=1.0)
    position = build_position(rules, random.Random(5), shape)
    _assert_legal(position)
    assert _table_size(position) == 30
    assert len(position.hand) == 12
    assert _jokers(position.hand) == 1
    assert sum(_jokers(meld) for meld in position.table) == 1


def test_a_fully_related_hand_holds_only_cards_that_fit_the_table() -> None:
    rules = get_rules("rummikub")
    shape = Shape(table_size=40, hand_size=8, hand_jokers=0, related=1.0)
    position = build_position(rules, random.Random(11), shape)
    fits = fitting_cards(rules, position.table)
    assert all(card in fits for card in position.hand)


def test_a_shape_the_decks_cannot_hold_is_refused() -> None:
    rules = get_rules("manipulation", 2)  # one deck and one joker: 53 cards
    with pytest.raises(ValueError, match="53"):
        build_position(rules, random.Random(0), Shape(table_size=45, hand_size=10))
    with pytest.raises(ValueError, match="jokers"):
        build_position(rules, random.Random(0), Shape(20, 10, table_jokers=1, hand_jokers=1))


def test_the_default_generator_still_gives_its_former_positions() -> None:
    # rummikub-1-16 of the engine benchmark's seed 1 (python -m benchmarks engine --seed 1), as
    # the generator made it before shapes existed
    # (benchmarks/RESULTS.md quotes it).
    assert generate_position("rummikub", 1, 16).to_text().splitlines()[2:] == [
        "table: r10 r11 r12 | b10 b11 b12 b13 | k4 b4 o4 | b3 b4 b5 b6 b7 | r8 r9 r10 r11 r12 r13"
        " | o10 o11 o12 o13 | k10 b10 o10 | k2 j=k3 k4 | r2 r3 r4 r5 r6 j=r7 | o5 o6 o7"
        " | o2 o3 o4 o5 | k9 k10 k11 | k13 o13 r13",
        "hand: o1 r1 k2 o3 k6 b6 r6 b7 b8 o8 b9 o9 k11 o12",
    ]


def test_the_generator_makes_the_same_positions_for_a_seed_as_before_its_speed_up() -> None:
    # The digest of these 120 positions as the generator made them at 3bb1c3a, before it listed
    # its meld candidates once: a faster generator must draw the same positions.
    digest = hashlib.sha256()
    for game in ("rummikub", "manipulation"):
        for pair in generate(game, 60, 7):
            digest.update(json.dumps(position_record(*pair)).encode())
    assert digest.hexdigest() == "a7d1ed63a32f1fc48da82f85d919d74f392476530fcaf1aee5a4cccc5827a163"


@pytest.mark.parametrize("label", HUNTED)
def test_every_hunter_step_keeps_positions_legal(label: str) -> None:
    rules = rules_for(label)
    rng = random.Random(f"steps/{label}")
    for _ in range(6):
        position = random_position(rules, rng)
        _assert_legal(position)
        for step in MUTATIONS:
            for _ in range(4):
                changed = step(position, rng)
                if changed is None:
                    continue
                _assert_legal(changed)
                assert changed.rules == position.rules
                assert changed.initial == position.initial
                position = changed


def test_swapping_a_hand_card_keeps_the_table_and_the_hand_size() -> None:
    rules = get_rules("rummikub")
    position = build_position(rules, random.Random(2), Shape(30, 10, hand_jokers=1))
    changed = swap_hand_card(position, random.Random(3))
    assert changed is not None
    assert changed.table == position.table
    assert len(changed.hand) == len(position.hand)
    assert Counter(changed.hand) != Counter(position.hand)
    assert _jokers(changed.hand) == 1


def test_moving_a_joker_keeps_every_piece_count() -> None:
    rules = get_rules("rummikub")
    position = build_position(rules, random.Random(4), Shape(30, 10, 1, 1))
    before = _table_size(position) + len(position.hand)
    moved = 0
    rng = random.Random(5)
    for _ in range(20):
        changed = move_joker(position, rng)
        if changed is None:
            continue
        moved += 1
        _assert_legal(changed)
        assert len(changed.hand) == len(position.hand)
        assert _table_size(changed) + len(changed.hand) == before
        jokers = _jokers(changed.hand) + sum(_jokers(meld) for meld in changed.table)
        assert jokers <= rules.jokers
    assert moved > 0


def test_a_joker_from_the_hand_swaps_with_the_card_it_replaces() -> None:
    rules = get_rules("rummikub")
    position = Position.build(
        rules,
        [[Card(5, 0), Card(6, 0), Card(7, 0)]],
        [Joker(), Card(1, 1)],
    )
    changed = move_joker(position, random.Random(0))
    assert changed is not None
    assert _jokers(changed.table[0]) == 1
    assert _jokers(changed.hand) == 0
    assert len(changed.hand) == 2


def test_adding_a_meld_takes_its_cards_from_the_deck() -> None:
    rules = get_rules("manipulation", 2)
    position = build_position(rules, random.Random(6), Shape(20, 8))
    changed = add_meld(position, random.Random(7))
    assert changed is not None
    assert changed.hand == position.hand
    assert len(changed.table) == len(position.table) + 1
    assert changed.table[: len(position.table)] == position.table
    added = Counter(piece for piece in changed.table[-1] if isinstance(piece, Card))
    assert len(added) == len(changed.table[-1])
    assert not added - free_cards(position)


def test_a_step_on_a_position_with_nothing_to_change_gives_none() -> None:
    rules = get_rules("manipulation", 2)
    cards = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]
    groups = [cards[index : index + 4] for index in range(0, 52, 4)]
    full = Position.build(rules, groups, [Joker()])  # every card on the table, a joker in hand
    assert swap_hand_card(full, random.Random(0)) is None
    assert add_meld(full, random.Random(0)) is None
    assert mutate(full, random.Random(0)) is not None  # the joker can still go to the table


def test_the_replay_reads_back_the_times_the_hunter_writes() -> None:
    timing = Timing({Objective.CARDS: 0.2137, Objective.POINTS: 0.0644})
    assert recorded(timing.comment("rummy500-killer")) == (
        "rummy500-killer",
        {Objective.CARDS: 0.2137, Objective.POINTS: 0.0644},
    )
    assert recorded("a comment of another kind") is None


def test_import_times_sum_each_package_once() -> None:
    stderr = "\n".join(
        [
            "import time: self [us] | cumulative | imported package",
            "import time:       200 |        200 |     numpy.core",
            "import time:       100 |        300 |   numpy",
            "import time:        50 |        350 | meldsat.engine.cpsat",
            "import time:        10 |         10 | re",
        ]
    )
    found = import_times(stderr)
    assert found.by_package == Counter({"numpy": 300, "meldsat": 50, "re": 10})
    assert found.total == 360
    assert found.meldsat == {"meldsat.engine.cpsat": 350}


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1, max_size=40))
def test_the_benchmarks_percentile_is_the_median_at_50_and_within_the_data(
    values: list[float],
) -> None:
    assert math.isclose(percentile(values, 50), statistics.median(values), abs_tol=1e-6)
    p90 = percentile(values, 90)
    assert min(values) <= p90 <= max(values)
    assert sum(value <= p90 for value in values) >= 0.9 * (len(values) - 1)


def test_every_solver_setting_the_floor_compares_proves_the_same_optimum() -> None:
    position = bucket_position(Bucket("20", 10, 1), seed=1, index=0)
    model = build_model(position, Objective.CARDS)
    answers = {name: solve_with(model, overrides) for name, overrides in SETTINGS.items()}
    assert set(answers.values()) == {answers["engine"]}
    assert answers["engine"][0] == "OPTIMAL"


def _floor_cell(peer: float, meldsat: float, engine: float, best: float) -> FloorCell:
    cell = FloorCell()
    for side, value in [("peer", peer), ("meldsat", meldsat), ("engine", engine)]:
        cell.times[side] = [value, value]
    cell.times["best setting"] = [best, best]
    cell.times["linearization 0"] = cell.times["linearization 1"] = [engine, engine]
    return cell


def test_the_floor_report_says_which_buckets_no_setting_can_bring_under_half_the_peer() -> None:
    cells = {
        Bucket("10", 5, 0): _floor_cell(peer=4.0, meldsat=1.9, engine=1.0, best=1.0),
        Bucket("10", 10, 0): _floor_cell(peer=4.0, meldsat=3.0, engine=2.5, best=2.1),
        Bucket("10", 15, 0): _floor_cell(peer=4.0, meldsat=3.0, engine=2.5, best=1.5),
    }
    text = floor_report(cells, floor=0.0001)
    rows = [line for line in text.splitlines() if line.startswith("| 10 /")]
    assert rows[0].endswith("| target met |")
    assert rows[1].endswith("| solve alone over half the peer |")
    assert rows[2].endswith("| solve alone under, whole play over |")
    assert "Target met (meldsat's median and p90 at most half the peer's): 1 of 3." in text
    assert "over half the peer's median or p90: 1 of 3." in text


def test_seed_and_interleaved_variants_prove_the_engines_answer_and_least_is_the_fastest() -> None:
    position = bucket_position(Bucket("20", 10, 1), seed=1, index=0)
    variants = ["engine", "seed-1", "interleave-core", "linearization-0"]
    tally = Tally(dict.fromkeys(variants, 0.0), dict.fromkeys(variants, 0.0))
    row = position_row(position, "rummikub", variants, 1, tally)
    cells = [cell.split(" / ") for cell in row.split(" | ")]
    assert not any("!" in time for cell in cells for time in cell), row  # all OPTIMAL, same value
    for objective in range(2):
        times = [float(cell[objective]) for cell in cells[:-1]]
        assert float(cells[-1][objective]) == min(times)
    slowest = tally.by_rule_set["rummikub"]
    assert slowest.engine is not None
    assert 0 < slowest.least <= slowest.engine
    assert rule_set_table(tally.by_rule_set)[-1].startswith("| rummikub | ")

"""The move checker: every reason code, under every rule set where it applies."""

from __future__ import annotations

import pytest

from meldsat.cards import Card, Joker
from meldsat.errors import AmbiguousJokerError, NotationError, RulesError
from meldsat.moves import REASON_CODES, MoveVerdict, check_move
from meldsat.notation import parse_pieces, parse_table
from meldsat.rulesets import get_rules

GIN_FAMILY = ("gin", "oklahoma-gin", "hollywood-gin")
RUMMY500_FAMILY = ("rummy500", "rummy300", "rummy500-killer")


def move(
    before: str,
    hand: str,
    after: str,
    rules: str = "manipulation",
    players: int | None = None,
    *,
    initial: bool = False,
    draws: int | None = None,
) -> MoveVerdict:
    """Check a move written in the notation of its rule set."""
    rule_set = get_rules(rules, players)
    notation = rule_set.notation
    return check_move(
        parse_table(before, notation),
        parse_pieces(hand, notation),
        parse_table(after, notation),
        rule_set,
        initial=initial,
        draws=draws,
    )


def codes(verdict: MoveVerdict) -> list[str]:
    return [reason.code for reason in verdict.reasons]


def messages(verdict: MoveVerdict, code: str) -> list[str]:
    return [reason.message for reason in verdict.reasons if reason.code == code]


def played(verdict: MoveVerdict, rules: str = "manipulation") -> str:
    notation = get_rules(rules).notation
    return " ".join(piece.text(notation) for piece in verdict.played)


def test_every_design_code_is_known() -> None:
    design_codes = {
        "nothing_played",
        "card_removed",
        "card_not_in_hand",
        "illegal_meld",
        "joker_redeclared",
        "too_many_copies",
        "initial_meld",
        "meld_without_hand_card",
        "melded_after_third_draw",
    }
    assert design_codes | {"table_rearranged"} == set(REASON_CODES)


# --- Manipulation: joker locking --------------------- ---------------------------------------


def test_joker_freed_without_its_card_is_illegal() -> None:
    verdict = move("4S 5S 6S *=7S", "QH KH", "4S 5S 6S | QH KH *=AH")
    assert not verdict.legal
    assert codes(verdict) == ["joker_redeclared"]
    assert messages(verdict, "joker_redeclared") == [
        "the joker declared 7S was redeclared but 7S is not on the table"
    ]
    assert played(verdict) == "QH KH"


def test_joker_freed_by_its_card_from_the_hand_is_legal() -> None:
    verdict = move("4S 5S 6S *=7S", "7S QH KH", "4S 5S 6S 7S | QH KH *=AH")
    assert verdict.legal
    assert verdict.reasons == ()
    assert played(verdict) == "7S QH KH"
    # The table after is judged: every meld legal, the joker reads as declared.
    assert verdict.table.legal
    assert verdict.table.melds[1].pieces[2] == Joker(Card(1, 1))


def test_joker_freed_by_its_card_from_another_meld_is_legal() -> None:
    verdict = move("4S 5S 6S *=7S | 7S 7H 7D", "QH KH AH", "4S 5S 6S 7S | 7H 7D *=7C | QH KH AH")
    assert verdict.legal, verdict.reasons


def test_hand_joker_may_take_a_table_jokers_place() -> None:
    # Jokers are interchangeable: the table joker stays 7S, the hand's joker becomes AH.
    verdict = move("4S 5S 6S *=7S", "QH KH *", "4S 5S 6S *=7S | QH KH *=AH")
    assert verdict.legal
    assert played(verdict) == "QH KH *"
    assert verdict.played[-1] == Joker()


def test_joker_moved_to_another_meld_keeping_its_card_is_legal() -> None:
    verdict = move("*=7S 8S 9S 10S", "5S 6S", "5S 6S *=7S | 8S 9S 10S")
    assert verdict.legal, verdict.reasons


def test_two_jokers_freed_by_one_real_card() -> None:
    verdict = move(
        "4S 5S 6S *=7S | *=7S 8S 9S", "7S QH KH", "4S 5S 6S 7S | 8S 9S *=10S | QH KH *=AH"
    )
    assert codes(verdict) == ["joker_redeclared"]
    assert messages(verdict, "joker_redeclared") == [
        "2 jokers declared 7S were redeclared but 7S is on the table only once"
    ]


def test_one_of_two_jokers_freed_by_one_real_card_is_legal() -> None:
    verdict = move(
        "4S 5S 6S *=7S | *=7S 8S 9S", "7S QH KH", "4S 5S 6S 7S | *=7S 8S 9S | QH KH *=AH"
    )
    assert verdict.legal, verdict.reasons


def test_undeclared_forced_joker_on_the_table_counts_as_its_card() -> None:
    # '5C * 7C' declares the joker 6C; moving it to 6C elsewhere keeps the declaration.
    verdict = move("5C * 7C", "4C", "4C 5C * 7C")
    assert verdict.legal, verdict.reasons
    assert Joker(Card(6, 3)) in verdict.table.melds[0].pieces


# --- Manipulation: the other codes ---------------------------------------------------------------


def test_nothing_played() -> None:
    verdict = move("7H 8H 9H", "KS", "7H 8H 9H")
    assert codes(verdict) == ["nothing_played"]
    assert verdict.played == ()


def test_rearranging_without_playing_is_nothing_played() -> None:
    verdict = move("4S 5S 6S 7S 8S 9S", "KS", "4S 5S 6S | 7S 8S 9S")
    assert codes(verdict) == ["nothing_played"]


def test_card_removed_names_the_card() -> None:
    verdict = move("4S 5S 6S 7S", "QH KH AH", "4S 5S 6S | QH KH AH")
    assert codes(verdict) == ["card_removed"]
    assert "7S" in messages(verdict, "card_removed")[0]


def test_joker_taken_off_the_table_is_removed_not_redeclared() -> None:
    verdict = move("4S 5S 6S *=7S", "QH KH AH", "4S 5S 6S | QH KH AH")
    assert codes(verdict) == ["card_removed"]
    assert "a joker" in messages(verdict, "card_removed")[0]


def test_card_not_in_hand() -> None:
    verdict = move("", "QH KH", "QH KH AH")
    assert codes(verdict) == ["card_not_in_hand"]
    assert "AH" in messages(verdict, "card_not_in_hand")[0]
    assert played(verdict) == "QH KH"


def test_joker_not_in_hand() -> None:
    verdict = move("", "QH KH", "QH KH *=AH")
    assert codes(verdict) == ["card_not_in_hand"]
    assert "joker" in messages(verdict, "card_not_in_hand")[0]


def test_second_copy_not_in_hand() -> None:
    verdict = move("", "7S 8S 9S", "7S 8S 9S | 7S 7H 7D")
    assert set(codes(verdict)) == {"card_not_in_hand"}
    assert any("2 copies of 7S" in text for text in messages(verdict, "card_not_in_hand"))


def test_illegal_meld_names_meld_and_reason() -> None:
    verdict = move("4S 5S 6S", "QH KH", "4S 5S 6S | QH KH")
    assert codes(verdict) == ["illegal_meld"]
    message = messages(verdict, "illegal_meld")[0]
    assert "meld 2 'QH KH'" in message
    assert "at least 3" in message
    assert not verdict.table.legal


@pytest.mark.parametrize(("players", "legal"), [(2, False), (3, True), (4, True), (5, True)])
def test_too_many_copies_depends_on_the_decks(players: int, legal: bool) -> None:
    verdict = move("7S 8S 9S", "5S 6S 7S", "5S 6S 7S | 7S 8S 9S", players=players)
    assert verdict.legal is legal
    if not legal:
        assert codes(verdict) == ["too_many_copies"]
        assert "2 copies of 7S" in messages(verdict, "too_many_copies")[0]


@pytest.mark.parametrize(("players", "legal"), [(2, False), (4, True)])
def test_too_many_jokers(players: int, legal: bool) -> None:
    verdict = move("", "5S * *", "*=4S 5S *=6S", players=players)
    assert verdict.legal is legal
    if not legal:
        assert codes(verdict) == ["too_many_copies"]
        assert "2 jokers" in messages(verdict, "too_many_copies")[0]


def test_every_reason_listed_at_once() -> None:
    verdict = move(
        "4S 5S 6S *=7S | 9D 10D JD QD",
        "QH KH",
        "4S 5S 6S | QH KH *=AH | 9D 10D JD | AC AC AC",
        players=2,
    )
    assert codes(verdict) == [
        "card_removed",
        "card_not_in_hand",
        "illegal_meld",
        "joker_redeclared",
        "too_many_copies",
    ]


@pytest.mark.parametrize("players", [2, 4])
def test_melded_after_third_draw(players: int) -> None:
    after_three = move("7S 8S 9S", "10S", "7S 8S 9S 10S", players=players, draws=3)
    assert codes(after_three) == ["melded_after_third_draw"]
    assert move("7S 8S 9S", "10S", "7S 8S 9S 10S", players=players, draws=2).legal
    assert move("7S 8S 9S", "10S", "7S 8S 9S 10S", players=players).legal


def test_third_draw_without_playing_is_only_nothing_played() -> None:
    verdict = move("7S 8S 9S", "10S", "7S 8S 9S", draws=3)
    assert codes(verdict) == ["nothing_played"]


def test_third_draw_rule_only_where_the_rules_have_it() -> None:
    assert move("r7 r8 r9", "r10", "r7 r8 r9 r10", "rummikub", draws=3).legal


def test_negative_draws_is_an_error() -> None:
    with pytest.raises(RulesError):
        move("7S 8S 9S", "10S", "7S 8S 9S 10S", draws=-1)


def test_initial_flag_in_manipulation_keeps_the_table_untouched() -> None:
    assert move("7S 8S 9S", "QH KH AH", "7S 8S 9S | QH KH AH", initial=True).legal
    verdict = move("7S 8S 9S", "10S JS QS", "7S 8S 9S 10S | JS QS *=KS", initial=True)
    assert "initial_meld" in codes(verdict)


def test_ambiguous_joker_after_is_an_error() -> None:
    with pytest.raises(AmbiguousJokerError, match="ambiguous joker"):
        move("", "8S 8H *", "8S 8H *")


def test_declared_joker_in_hand_is_an_error() -> None:
    with pytest.raises(NotationError):
        move("", "QH KH *=AH", "QH KH *=AH")


# --- Rummikub ------------------------------------------------------------------------------------


def test_rummikub_joker_redeclared() -> None:
    verdict = move("r4 r5 r6 j=r7", "b1 b2", "r4 r5 r6 | b1 b2 j=b3", "rummikub")
    assert messages(verdict, "joker_redeclared") == [
        "the joker declared r7 was redeclared but r7 is not on the table"
    ]
    freed = move("r4 r5 r6 j=r7", "r7 b1 b2", "r4 r5 r6 r7 | b1 b2 j=b3", "rummikub")
    assert freed.legal
    assert played(freed, "rummikub") == "b1 b2 r7"


def test_rummikub_illegal_meld_one_after_thirteen() -> None:
    verdict = move("", "r12 r13 r1", "r12 r13 r1", "rummikub")
    assert codes(verdict) == ["illegal_meld"]


@pytest.mark.parametrize(
    ("hand", "after"),
    [
        ("r10 r11 r12", "r10 r11 r12"),  # 33
        ("r9 r10 j", "r9 r10 j=r11"),  # 30: the joker counts as r11
        ("r1 r2 r3 k10 b10 o10", "r1 r2 r3 | k10 b10 o10"),  # 6 + 30 over two melds
    ],
)
def test_rummikub_initial_meld_of_thirty(hand: str, after: str) -> None:
    verdict = move("k1 k2 k3", hand, f"k1 k2 k3 | {after}", "rummikub", initial=True)
    assert verdict.legal, verdict.reasons


def test_rummikub_initial_joker_counts_its_card_not_thirty() -> None:
    verdict = move("", "r5 r6 j", "r5 r6 j=r7", "rummikub", initial=True)
    assert codes(verdict) == ["initial_meld"]
    assert messages(verdict, "initial_meld") == [
        "the initial meld is worth 18 points; at least 30 are needed"
    ]
    assert move("", "r5 r6 j", "r5 r6 j=r7", "rummikub").legal


def test_rummikub_initial_meld_may_not_use_the_table() -> None:
    before = "k1 k2 k3 k4"
    hand = "b4 o4 r10 r11 r12"
    after = "k1 k2 k3 | k4 b4 o4 | r10 r11 r12"
    verdict = move(before, hand, after, "rummikub", initial=True)
    assert codes(verdict) == ["initial_meld"]
    assert "k1 k2 k3 k4" in messages(verdict, "initial_meld")[0]
    assert move(before, hand, after, "rummikub").legal


def test_rummikub_initial_meld_too_small_and_table_used() -> None:
    verdict = move("k1 k2 k3 k4", "b4 o4", "k1 k2 k3 | k4 b4 o4", "rummikub", initial=True)
    assert codes(verdict) == ["initial_meld", "initial_meld"]
    assert "worth 8 points" in messages(verdict, "initial_meld")[1]


# --- The gin family: no rearranging --------------------------------------------------------------


@pytest.mark.parametrize("rules", GIN_FAMILY)
def test_gin_table_rearranged(rules: str) -> None:
    verdict = move("7S 8S 9S", "10S JS QS KS", "7S 8S 9S 10S | JS QS KS", rules)
    assert codes(verdict) == ["table_rearranged"]
    assert "'7S 8S 9S'" in messages(verdict, "table_rearranged")[0]
    assert move("7S 8S 9S", "10S JS QS KS", "7S 8S 9S | 10S JS QS KS", rules).legal


def test_manipulation_allows_the_same_rearrangement() -> None:
    assert move("7S 8S 9S", "10S JS QS KS", "7S 8S 9S 10S | JS QS KS").legal


# --- Rummy 500: every new or changed meld needs a hand card --------------------------------------


@pytest.mark.parametrize("rules", RUMMY500_FAMILY)
def test_split_melds_need_a_hand_card(rules: str) -> None:
    verdict = move("4S 5S 6S 7S 8S 9S", "QH KH AH", "4S 5S 6S | 7S 8S 9S | QH KH AH", rules)
    assert codes(verdict) == ["meld_without_hand_card", "meld_without_hand_card"]
    assert "meld 1 '4S 5S 6S'" in verdict.reasons[0].message
    assert "meld 2 '7S 8S 9S'" in verdict.reasons[1].message


def test_manipulation_allows_splitting_melds() -> None:
    assert move("4S 5S 6S 7S 8S 9S", "QH KH AH", "4S 5S 6S | 7S 8S 9S | QH KH AH").legal


@pytest.mark.parametrize("rules", RUMMY500_FAMILY)
def test_one_played_copy_cannot_serve_two_melds(rules: str) -> None:
    # Each changed meld holds a 7S or the played JS, but only one 7S came from the hand: a matching
    # gives the played 7S to one of the two melds holding a 7S, and the other has no hand card.
    before = "4S 5S 6S | 7S 8S 9S 10S | 7H 7D 7C"
    after = "4S 5S 6S 7S | 8S 9S 10S JS | 7S 7H 7D 7C"
    verdict = move(before, "7S JS", after, rules)
    assert codes(verdict) == ["meld_without_hand_card"]
    assert move(before, "7S JS", after).legal  # manipulation allows it
    legal = move(before, "3S 7S JS", after.replace("4S 5S 6S 7S", "3S 4S 5S 6S 7S"), rules)
    assert legal.legal, legal.reasons


def test_identical_melds_match_one_to_one() -> None:
    # Two equal runs on the table; one stays, the other grows with a hand card.
    verdict = move("7S 8S 9S | 7S 8S 9S", "10S", "7S 8S 9S | 7S 8S 9S 10S", "rummy500")
    assert verdict.legal, verdict.reasons
    # One run on the table, two equal runs after: only one of them is the old run unchanged, the
    # other was cut from a longer run and holds no hand card.
    verdict = move(
        "7S 8S 9S | 7S 8S 9S 10S JS QS", "KS", "7S 8S 9S | 7S 8S 9S | 10S JS QS KS", "rummy500"
    )
    assert codes(verdict) == ["meld_without_hand_card"]
    assert "meld 2 '7S 8S 9S'" in verdict.reasons[0].message


def test_rummy500_joker_from_the_hand_counts_as_hand_card() -> None:
    verdict = move("4S 5S 6S 7S 8S 9S", "*", "4S 5S 6S | 7S 8S 9S *=10S", "rummy500")
    assert codes(verdict) == ["meld_without_hand_card"]
    assert "meld 1" in verdict.reasons[0].message
    both = move("4S 5S 6S 7S 8S 9S", "* 3S", "3S 4S 5S 6S | 7S 8S 9S *=10S", "rummy500")
    assert both.legal, both.reasons

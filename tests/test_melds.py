"""The meld checker: every rule of every preset, jokers, reasons, canonical order, copy counts.

The property tests at the end compare the checker with a brute-force definition of a meld written
here from the rules alone (sort the ranks, try the ace low and high, look for a gap).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from meldsat import (
    AmbiguousJokerError,
    Card,
    Joker,
    MeldKind,
    MeldVerdict,
    NotationError,
    RuleSet,
    copy_problems,
    format_pieces,
    get_rules,
    is_legal_meld,
    judge_meld,
    judge_table,
    parse_pieces,
    parse_table,
)
from meldsat.cards import Piece, represented_card
from tests.strategies_notation import RANKS, SUITS, cards, legal_cards, legal_melds, rule_sets

MANIPULATION = get_rules("manipulation")  # four players: two decks, two jokers
MANIPULATION_2 = get_rules("manipulation", 2)  # one deck, one joker
RUMMIKUB = get_rules("rummikub")
GIN = get_rules("gin")
CARD_GAMES = (
    "manipulation",
    "gin",
    "oklahoma-gin",
    "hollywood-gin",
    "rummy500",
    "rummy300",
    "rummy500-killer",
)
ACE_HIGH_GAMES = ("manipulation", "rummy500", "rummy300", "rummy500-killer")
ACE_LOW_ONLY_GAMES = ("gin", "oklahoma-gin", "hollywood-gin")

FULL_SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
ALL_CARDS = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]


def judge(text: str, rules: RuleSet = MANIPULATION) -> MeldVerdict:
    return judge_meld(parse_pieces(text, rules.notation), rules)


def canonical(text: str, rules: RuleSet = MANIPULATION) -> str:
    return format_pieces(judge(text, rules).pieces, rules.notation)


# --- Legal and illegal melds, preset by preset -------------------------------------------------

LEGAL_IN_EVERY_CARD_GAME = [
    "8S 8H 8D",
    "8S 8H 8D 8C",
    "QS QH QC",
    "AS AH AD AC",
    "5H 6H 7H",
    "5H 6H 7H 8H 9H 10H JH",
    "AH 2H 3H",
    "JC QC KC",
    "9D 10D JD QD KD",
    FULL_SPADES,  # A-K: the ace low
    "7H *=8H 9H",
    "*=8S 8H 8D",
    "*=5C *=6C *=7C",
]

ILLEGAL_IN_EVERY_CARD_GAME = [
    "8S 8H",  # too short
    "5H 6H",
    "8S",
    "8S 8S 8H",  # a group needs distinct suits, even with two decks
    "8S 8H 8D 8C 8S",  # at most four in a group
    "8S 8H 8D 8C *=8H",
    "5H 6H 8H",  # a gap
    "5H 6S 7H",  # mixed suits
    "8S 9H 10D",
    "5H 5H 6H 7H",  # a sequence holds no card twice
    "KH AH 2H",  # turning the corner
    "QH KH AH 2H",
    "KS AS 2S 3S",
    "5C *=6H 7C",  # a declared joker must fit the meld
    "5C *=8C 7C",
    "8S 8H *=8H",
    "AH 2H 3H AH",  # a second ace only in the 14-card A..K..A
]


@pytest.mark.parametrize("name", CARD_GAMES)
@pytest.mark.parametrize("meld", LEGAL_IN_EVERY_CARD_GAME)
def test_legal_in_every_card_game(name: str, meld: str) -> None:
    verdict = judge(meld, get_rules(name))
    assert verdict.legal, verdict.reason
    assert verdict.reason is None


@pytest.mark.parametrize("name", CARD_GAMES)
@pytest.mark.parametrize("meld", ILLEGAL_IN_EVERY_CARD_GAME)
def test_illegal_in_every_card_game(name: str, meld: str) -> None:
    verdict = judge(meld, get_rules(name))
    assert not verdict.legal
    assert verdict.kind is None
    assert verdict.reason


@pytest.mark.parametrize("name", CARD_GAMES)
def test_ace_high(name: str) -> None:
    rules = get_rules(name)
    ace_high = name in ACE_HIGH_GAMES
    assert judge("QH KH AH", rules).legal == ace_high
    assert judge("10S JS QS KS AS", rules).legal == ace_high
    # The 14-card A..K..A sequence does not turn a corner: it needs the ace both low and high.
    assert judge(f"{FULL_SPADES} AS", rules).legal == ace_high
    assert judge(f"AS {FULL_SPADES}", rules).legal == ace_high


def test_ace_low_only_reason() -> None:
    reason = judge("QH KH AH", GIN).reason
    assert reason is not None
    assert "low" in reason and "king" in reason


def test_fourteen_cards_need_two_aces() -> None:
    assert not judge(f"{FULL_SPADES} KS").legal
    assert not judge(f"{FULL_SPADES} 2S").legal
    assert not judge(f"{FULL_SPADES} AS AS").legal
    assert not judge(f"{FULL_SPADES} AH").legal
    assert judge(f"{FULL_SPADES} *=AS").legal
    # The meld checker judges shapes; the number of copies is checked on the whole position.
    assert judge(f"{FULL_SPADES} AS", MANIPULATION_2).legal
    assert copy_problems(parse_pieces(f"{FULL_SPADES} AS"), MANIPULATION_2) == [
        "2 copies of AS, but manipulation with 2 players has 1"
    ]


@pytest.mark.parametrize(
    ("meld", "legal"),
    [
        ("k5 b5 o5 r5", True),
        ("k5 b5 o5", True),
        ("r5 b5 k5", True),
        ("k5 b5", False),
        ("k5 k5 b5", False),
        ("k5 b5 o5 r5 k5", False),
        ("r1 r2 r3", True),
        ("r11 r12 r13", True),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", True),
        ("r12 r13 r1", False),  # 1 is low only
        ("r13 r1 r2", False),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r1", False),
        ("b7 j=b8 b9", True),
        ("b7 j=r8 b9", False),
        ("k9 k10 k12", False),
    ],
)
def test_rummikub_melds(meld: str, legal: bool) -> None:
    assert judge(meld, RUMMIKUB).legal == legal


def test_rummikub_low_only_reason() -> None:
    reason = judge("r12 r13 r1", RUMMIKUB).reason
    assert reason is not None
    assert "low" in reason and "13" in reason


def test_is_legal_meld_takes_plain_cards() -> None:
    assert is_legal_meld(parse_pieces("7H 8H 9H"), MANIPULATION)  # type: ignore[arg-type]
    assert not is_legal_meld([Card(7, 1), Card(8, 1)], MANIPULATION)
    assert is_legal_meld([Card(12, 1), Card(13, 1), Card(1, 1)], MANIPULATION)
    assert not is_legal_meld([Card(12, 1), Card(13, 1), Card(1, 1)], RUMMIKUB)


def test_kind() -> None:
    assert judge("8S 8H 8D").kind is MeldKind.GROUP
    assert judge("5H 6H 7H").kind is MeldKind.SEQUENCE
    assert judge("5H 6H 8H").kind is None


def test_house_rule_wrap_around() -> None:
    wrapping = dataclasses.replace(MANIPULATION, wrap_around=True)
    assert judge("KH AH 2H", wrapping).legal
    assert judge("QH KH AH 2H 3H", wrapping).legal
    assert not judge("KH AH 2H", MANIPULATION).legal


def test_house_rule_longer_minimum_run() -> None:
    four = dataclasses.replace(MANIPULATION, run_min=4)
    assert not judge("5H 6H 7H", four).legal
    assert judge("5H 6H 7H 8H", four).legal
    assert judge("5S 5H 5D", four).legal  # groups keep their own minimum
    reason = judge("5H 6H 7H", four).reason
    assert reason is not None and "at least 4" in reason


# --- Jokers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "rules", "expected"),
    [
        ("5C * 7C", MANIPULATION, "5C *=6C 7C"),
        ("* 5C 7C", MANIPULATION, "5C *=6C 7C"),
        ("8S 8H 8D *", MANIPULATION, "8S 8H 8D *=8C"),
        ("AH 2H *", MANIPULATION, "AH 2H *=3H"),  # K-A-2 would turn the corner
        ("*=5C * 7C", MANIPULATION, "*=5C *=6C 7C"),
        ("5C * * 8C", MANIPULATION, "5C *=6C *=7C 8C"),
        ("QH KH *", GIN, "*=JH QH KH"),  # the ace is low only in gin
        (f"{FULL_SPADES} *", MANIPULATION, f"{FULL_SPADES} *=AS"),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS *", MANIPULATION, f"*=AS {FULL_SPADES[3:]}"),
        ("r12 r13 j", RUMMIKUB, "j=r11 r12 r13"),
        ("k5 b5 o5 j", RUMMIKUB, "k5 b5 o5 j=r5"),
        ("j r7 r9", RUMMIKUB, "r7 j=r8 r9"),
    ],
)
def test_forced_joker_is_declared(meld: str, rules: RuleSet, expected: str) -> None:
    verdict = judge(meld, rules)
    assert verdict.legal
    assert format_pieces(verdict.pieces, rules.notation) == expected


@pytest.mark.parametrize(
    ("meld", "rules", "options"),
    [
        ("8S 8H *", MANIPULATION, ["*=8D", "*=8C"]),
        ("7H 8H *", MANIPULATION, ["*=6H", "*=9H"]),
        ("QH KH *", MANIPULATION, ["*=JH", "*=AH"]),
        ("8S * *", MANIPULATION, ["*=8H *=8D", "*=6S *=7S"]),
        ("r5 b5 j", RUMMIKUB, ["j=k5", "j=o5"]),
    ],
)
def test_ambiguous_joker_names_the_declarations(
    meld: str, rules: RuleSet, options: list[str]
) -> None:
    with pytest.raises(AmbiguousJokerError) as error:
        judge(meld, rules)
    message = str(error.value)
    assert "ambiguous" in message
    assert f"'{meld}'" in message
    for option in options:
        assert option in message


def test_ambiguous_joker_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        judge("8S 8H *")


def test_many_options_are_cut_short() -> None:
    with pytest.raises(AmbiguousJokerError, match=r"and \d+ more"):
        judge("* * *")


def test_illegal_meld_with_wild_joker() -> None:
    verdict = judge("5H 6H 9H *")
    assert not verdict.legal
    assert verdict.reason is not None and "joker" in verdict.reason
    assert not judge("5H 6S *").legal
    assert not judge("8S 8H 8D 8C *").legal


# --- Reasons -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "rules", "words"),
    [
        ("8S 8H", MANIPULATION, ["at least 3", "2"]),
        ("", MANIPULATION, ["at least 3"]),
        ("8S 8S 8H", MANIPULATION, ["8S twice", "suits"]),
        ("8S 8S 8S", MANIPULATION, ["8S twice", "suits"]),
        ("8S 8H 8D 8C 8S", MANIPULATION, ["8S twice"]),
        ("8S 8H 8D 8C *", MANIPULATION, ["at most 4", "5"]),
        ("5H 6H 8H", MANIPULATION, ["not consecutive", "7H"]),
        ("5H 6H 9H 10H", MANIPULATION, ["not consecutive", "7H, 8H"]),
        ("QH KH AH 3H", MANIPULATION, ["not consecutive", "4H", "JH"]),
        ("KH AH 2H", MANIPULATION, ["corner"]),
        ("KH AH 2H", get_rules("rummy500"), ["corner"]),
        ("QH KH AH", GIN, ["low only", "king"]),
        ("r12 r13 r1", RUMMIKUB, ["low only", "13"]),
        ("5H 6S 7H", MANIPULATION, ["mixes", "one rank", "one suit"]),
        ("5H 5H 6H 7H", MANIPULATION, ["5H twice"]),
        ("AH 2H 3H AH", MANIPULATION, ["AH twice"]),
        (f"{FULL_SPADES} KS", MANIPULATION, ["KS twice"]),
        ("5H 6H 9H *", MANIPULATION, ["jokers", "consecutive"]),
        ("5H " + "* " * 14, MANIPULATION, ["at most 14", "15"]),
        (f"{FULL_SPADES} AS", GIN, ["at most 13", "14"]),
        ("k5 k5 b5", RUMMIKUB, ["k5 twice"]),
        ("k9 k10 k12", RUMMIKUB, ["not consecutive", "k11"]),
    ],
)
def test_reasons_a_person_understands(meld: str, rules: RuleSet, words: list[str]) -> None:
    verdict = judge(meld, rules)
    assert not verdict.legal
    assert verdict.reason is not None
    for word in words:
        assert word in verdict.reason
    assert "\n" not in verdict.reason


# --- Canonical order ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "rules", "expected"),
    [
        ("9H 7H 8H", MANIPULATION, "7H 8H 9H"),
        ("QD QC QS QH", MANIPULATION, "QS QH QD QC"),  # groups by suit: S H D C
        ("AH KH QH", MANIPULATION, "QH KH AH"),  # the ace high after the king
        ("3H AH 2H", MANIPULATION, "AH 2H 3H"),  # the ace low before the two
        ("7C *=5C 6C", MANIPULATION, "*=5C 6C 7C"),
        ("8D *=8S 8H", MANIPULATION, "*=8S 8H 8D"),
        ("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS", MANIPULATION, f"{FULL_SPADES} AS"),
        ("*=AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS", MANIPULATION, f"{FULL_SPADES} *=AS"),
        ("r3 r1 r2", RUMMIKUB, "r1 r2 r3"),
        ("r5 k5 o5 b5", RUMMIKUB, "k5 b5 o5 r5"),
        ("o9 j=o8 o7", RUMMIKUB, "o7 j=o8 o9"),
        ("9H 5S * 7H", MANIPULATION, "5S 7H 9H *"),  # an illegal meld: sorted, wild jokers last
    ],
)
def test_canonical_order(meld: str, rules: RuleSet, expected: str) -> None:
    assert canonical(meld, rules) == expected


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_canonical_order_ignores_input_order(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    meld = data.draw(legal_melds(rules))
    verdict = judge_meld(meld, rules)
    assert verdict.legal, (format_pieces(meld), verdict.reason)
    shuffled = data.draw(st.permutations(meld))
    again = judge_meld(shuffled, rules)
    assert again == verdict
    assert judge_meld(verdict.pieces, rules) == verdict  # canonical order is a fixed point


# --- Tables and copies -------------------------------------------------------------------------


def test_judge_table() -> None:
    table = parse_table("9H 7H 8H | 8S 8H | 5C * 7C")
    verdict = judge_table(table, MANIPULATION)
    assert not verdict.legal
    assert [meld.legal for meld in verdict.melds] == [True, False, True]
    assert format_pieces(verdict.melds[0].pieces) == "7H 8H 9H"
    assert format_pieces(verdict.melds[2].pieces) == "5C *=6C 7C"
    assert judge_table([], MANIPULATION).legal
    assert judge_table(parse_table("7H 8H 9H | QS QH QD"), MANIPULATION).legal


def test_judge_table_ambiguous_joker() -> None:
    with pytest.raises(AmbiguousJokerError, match="8S 8H"):
        judge_table(parse_table("7H 8H 9H | 8S 8H *"), MANIPULATION)


def test_too_many_copies_two_decks() -> None:
    problems = copy_problems(parse_pieces("7H 7H 7H 8H"), MANIPULATION)
    assert problems == ["3 copies of 7H, but manipulation with 4 players has 2"]
    assert copy_problems(parse_pieces("7H 7H 8H 8H"), MANIPULATION) == []


def test_too_many_copies_one_deck() -> None:
    problems = copy_problems(parse_pieces("7H 7H 8H"), MANIPULATION_2)
    assert problems == ["2 copies of 7H, but manipulation with 2 players has 1"]
    problems = copy_problems(parse_pieces("7H 7H 8H"), GIN)
    assert problems == ["2 copies of 7H, but gin with 2 players has 1"]


def test_every_problem_is_named() -> None:
    problems = copy_problems(parse_pieces("7H 7H 7H KS KS KS * * *"), MANIPULATION)
    assert len(problems) == 3
    assert "7H" in problems[0] and "KS" in problems[1]
    assert "3 jokers" in problems[2] and "has 2" in problems[2]


def test_joker_counts() -> None:
    assert copy_problems(parse_pieces("* *=5H"), MANIPULATION) == []
    assert copy_problems(parse_pieces("* *=5H"), MANIPULATION_2) == [
        "2 jokers, but manipulation with 2 players has 1"
    ]
    assert copy_problems(parse_pieces("*"), GIN) == ["1 joker, but gin with 2 players has 0"]


def test_declared_jokers_are_not_copies_of_their_card() -> None:
    # The real 6C may lie elsewhere while a joker still stands for it.
    assert copy_problems(parse_pieces("5C *=6C 7C 6C 6H 6D"), MANIPULATION_2) == []


def test_copies_in_tile_notation() -> None:
    problems = copy_problems(parse_pieces("r7 r7 r7", RUMMIKUB.notation), RUMMIKUB)
    assert problems == ["3 copies of r7, but rummikub with 4 players has 2"]


# --- Cross-check against a brute-force definition ---------------------------------------------


def oracle_is_group(cards_: Sequence[Card], rules: RuleSet) -> bool:
    """Same rank, every suit different, size within the group limits."""
    return (
        rules.group_min <= len(cards_) <= rules.group_max
        and len({card.rank for card in cards_}) == 1
        and len({card.suit for card in cards_}) == len(cards_)
    )


def oracle_is_sequence(cards_: Sequence[Card], rules: RuleSet) -> bool:
    """One suit, and the ranks (each ace tried low and high) sort into a gap-free run."""
    if len(cards_) < rules.run_min or len({card.suit for card in cards_}) != 1:
        return False
    ace_values = [value for value, allowed in ((1, rules.ace_low), (14, rules.ace_high)) if allowed]
    choices = [ace_values if card.rank == 1 else [card.rank] for card in cards_]
    for values in itertools.product(*choices):
        ordered = sorted(values)
        if all(high == low + 1 for low, high in itertools.pairwise(ordered)):
            return True
    if rules.wrap_around and len(cards_) <= 13:
        ranks = {card.rank for card in cards_}
        if len(ranks) == len(cards_):
            return any(
                ranks == {(start + step) % 13 + 1 for step in range(len(cards_))}
                for start in range(13)
            )
    return False


def oracle_is_meld(cards_: Sequence[Card], rules: RuleSet) -> bool:
    return oracle_is_group(cards_, rules) or oracle_is_sequence(cards_, rules)


def oracle_declarations(known: Sequence[Card], wild: int, rules: RuleSet) -> set[tuple[Card, ...]]:
    """Every multiset of cards the wild jokers could stand for in a legal meld."""
    return {
        tuple(sorted(chosen))
        for chosen in itertools.combinations_with_replacement(ALL_CARDS, wild)
        if oracle_is_meld([*known, *chosen], rules)
    }


VARIANTS = [
    *(get_rules(name) for name in ("manipulation", "rummikub", "gin", "rummy500")),
    dataclasses.replace(MANIPULATION, wrap_around=True),
    dataclasses.replace(GIN, wrap_around=True),
    dataclasses.replace(MANIPULATION, ace_low=False),
    dataclasses.replace(MANIPULATION, run_min=4, group_max=3),
]


@st.composite
def near_melds(draw: st.DrawFn, rules: RuleSet, max_size: int = 6) -> list[Card]:
    """Card lists (3 to ``max_size`` cards) that are melds, nearly melds, or anything.

    A third are legal melds, a third are legal melds with one card changed, a third are random
    cards of one suit, of one rank, or of anything. Random cards alone are almost never melds.
    """
    style = draw(st.sampled_from(["meld", "tweaked", "random"]))
    if style == "random":
        size = draw(st.integers(3, max_size))
        one_suit, one_rank = draw(SUITS), draw(RANKS)
        card = draw(
            st.sampled_from(
                [
                    st.builds(Card, RANKS, st.just(one_suit)),
                    st.builds(Card, st.just(one_rank), SUITS),
                    cards(),
                ]
            )
        )
        return draw(st.lists(card, min_size=size, max_size=size))
    meld = list(draw(legal_cards(rules)))
    size = draw(st.integers(3, min(max_size, len(meld))))
    start = draw(st.integers(0, len(meld) - size))
    result = meld[start : start + size]  # a part of a run is a run, of a group a group
    if style == "tweaked":
        index = draw(st.integers(0, size - 1))
        old = result[index]
        result[index] = draw(
            st.one_of(
                st.builds(
                    Card,
                    st.sampled_from([(old.rank + 11) % 13 + 1, old.rank % 13 + 1]),
                    st.just(old.suit),
                ),
                st.builds(Card, st.just(old.rank), SUITS),
                cards(),
            )
        )
    return result


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS), st.data())
def test_checker_agrees_with_brute_force(rules: RuleSet, data: st.DataObject) -> None:
    meld_cards = data.draw(near_melds(rules))
    expected = oracle_is_meld(meld_cards, rules)
    event("legal" if expected else "illegal")
    assert is_legal_meld(meld_cards, rules) == expected
    # The same cards with some of them played as declared jokers.
    as_jokers = data.draw(
        st.lists(st.booleans(), min_size=len(meld_cards), max_size=len(meld_cards))
    )
    pieces: list[Piece] = [
        Joker(card) if joker else card for card, joker in zip(meld_cards, as_jokers, strict=True)
    ]
    verdict = judge_meld(pieces, rules)
    assert verdict.legal == expected, (format_pieces(pieces), verdict.reason)
    # Nothing added, lost or redeclared.
    assert sorted(verdict.pieces, key=repr) == sorted(pieces, key=repr)
    if expected:
        represented = [represented_card(piece) for piece in verdict.pieces]
        if oracle_is_group(meld_cards, rules):
            assert verdict.kind is MeldKind.GROUP
            assert [card.suit for card in represented if card] == sorted(
                card.suit for card in meld_cards
            )
        else:
            assert verdict.kind is MeldKind.SEQUENCE
            ranks = [card.rank for card in represented if card]
            steps = [(high - low) % 13 for low, high in itertools.pairwise(ranks)]
            assert steps == [1] * (len(ranks) - 1)  # laid out low to high
    else:
        assert verdict.kind is None
        assert verdict.reason


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VARIANTS), st.data())
def test_undeclared_jokers_agree_with_brute_force(rules: RuleSet, data: st.DataObject) -> None:
    meld_cards = data.draw(near_melds(rules))
    # One or two of the cards become wild jokers; the checker must find what they stand for.
    wild = data.draw(st.integers(1, 2))
    positions = data.draw(
        st.sets(st.integers(0, len(meld_cards) - 1), min_size=wild, max_size=wild)
    )
    known = [card for index, card in enumerate(meld_cards) if index not in positions]
    # Some of the other cards are played as declared jokers: they count as their card.
    declared = data.draw(st.lists(st.booleans(), min_size=len(known), max_size=len(known)))
    known_pieces: list[Piece] = [
        Joker(card) if joker else card for card, joker in zip(known, declared, strict=True)
    ]
    options = oracle_declarations(known, wild, rules)
    event(f"{min(len(options), 2)} declarations")
    pieces: list[Piece] = [*known_pieces, *(Joker() for _ in range(wild))]
    if len(options) > 1:
        with pytest.raises(AmbiguousJokerError) as error:
            judge_meld(pieces, rules)
        mark = Joker().text(rules.notation)
        first = sorted(options)[0]
        listed = " ".join(f"{mark}={card.text(rules.notation)}" for card in first)
        assert listed in str(error.value)
        return
    verdict = judge_meld(pieces, rules)
    if not options:
        assert not verdict.legal
        assert verdict.reason
        return
    (only_option,) = options
    assert verdict.legal
    wild_cards = Counter(
        piece.declared for piece in verdict.pieces if isinstance(piece, Joker) and piece.declared
    )
    wild_cards.subtract(known[index] for index, joker in enumerate(declared) if joker)
    assert tuple(sorted(wild_cards.elements())) == only_option

"""The move checker: is turning one table into another, with a given hand, a legal turn.

Manipulation semantics: the pieces the table gains must come from the hand, nothing leaves the
table, every meld afterwards is legal, and a table joker changes its declaration only when the real
card it stood for is on the table. Rule-set options add the initial meld (Rummikub), a hand card in
every new or changed meld (Rummy 500), the ban on melding after the third draw (Manipulation) and
the untouchable table of the gin family. No solver is used: the engine is re-checked with this.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import (
    WILD_JOKER,
    Card,
    Joker,
    Piece,
    count_pieces,
    piece_identity,
    piece_sort_key,
    represented_card,
    require_melds,
    require_pieces,
)
from meldsat.errors import RulesError, quote
from meldsat.group_jokers import table_joker_pairs, won_back_by_other
from meldsat.matching import max_weight_matching
from meldsat.melds import MeldKind, MeldVerdict
from meldsat.notation import Pieces, check_hand_jokers, format_pieces, sort_pieces
from meldsat.rules import RuleSet, require_rules
from meldsat.table import TableVerdict, copy_problems, judge_table
from meldsat.wording import counted


class ReasonCode(enum.StrEnum):
    """Why a move is illegal, as a stable code (the value is what JSON output carries)."""

    NOTHING_PLAYED = "nothing_played"
    CARD_REMOVED = "card_removed"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_MELD = "illegal_meld"
    JOKER_REDECLARED = "joker_redeclared"
    TOO_MANY_COPIES = "too_many_copies"
    INITIAL_MELD = "initial_meld"
    MELD_WITHOUT_HAND_CARD = "meld_without_hand_card"
    MELDED_AFTER_THIRD_DRAW = "melded_after_third_draw"
    TABLE_REARRANGED = "table_rearranged"


REASON_CODES: tuple[str, ...] = tuple(ReasonCode)


@dataclass(frozen=True)
class Reason:
    """One reason a move is illegal: a stable ``code`` and a message in words."""

    code: ReasonCode
    message: str


@dataclass(frozen=True)
class MoveVerdict:
    """The checker's answer for one move.

    ``played`` are the pieces that went from the hand to the table (sorted, jokers undeclared);
    ``reasons`` lists every rule the move breaks; ``table`` judges each meld of the table after.
    """

    played: Pieces
    reasons: tuple[Reason, ...]
    table: TableVerdict

    @property
    def legal(self) -> bool:
        """True when the move breaks no rule."""
        return not self.reasons


@dataclass(frozen=True)
class _Move:
    """The facts about a move that the rules are checked against, computed once."""

    rules: RuleSet
    before: TableVerdict
    after: TableVerdict
    gained: Counter[Piece]  # pieces the table holds more of afterwards (jokers undeclared)
    lost: Counter[Piece]  # pieces the table holds fewer of afterwards
    played: Counter[Piece]  # the part of ``gained`` the hand can account for
    changed_before: tuple[int, ...]  # indexes of before-melds not found unchanged afterwards
    new_after: tuple[int, ...]  # indexes of after-melds that are not an unchanged before-meld

    def after_text(self, index: int) -> str:
        """``meld 2 'QH KH *=AH'``: an after-meld named by its 1-based place and its cards."""
        pieces = self.after.melds[index].pieces
        return f"meld {index + 1} '{format_pieces(pieces, self.rules.notation)}'"

    def before_text(self, index: int) -> str:
        """``'4S 5S 6S *=7S'``: a before-meld named by its cards."""
        return f"'{format_pieces(self.before.melds[index].pieces, self.rules.notation)}'"


def check_move(
    before: Sequence[Sequence[Piece]],
    hand: Sequence[Piece],
    after: Sequence[Sequence[Piece]],
    rules: RuleSet,
    *,
    initial: bool = False,
    draws: int | None = None,
) -> MoveVerdict:
    """Judge the turn that changes the table ``before`` into ``after`` with ``hand``.

    Every broken rule is listed at once. ``initial`` marks a player who has not made the initial
    meld (the old melds must stay as they were; new melds come from the hand alone and total at
    least ``rules.initial_meld_points``). ``draws`` is the number of cards drawn this turn.
    Raises :class:`AmbiguousJokerError` for an undeclared joker that could stand for several cards,
    and :class:`NotationError` for a declared joker in the hand.
    """
    before = require_melds(before, "before")
    hand = require_pieces(hand, "hand")
    after = require_melds(after, "after")
    require_rules(rules)
    if not isinstance(initial, bool):
        raise TypeError(f"initial must be a bool, not {type(initial).__name__}")
    if draws is not None and (isinstance(draws, bool) or not isinstance(draws, int)):
        raise TypeError(f"draws must be an int or None, not {type(draws).__name__}")
    if draws is not None and draws < 0:
        raise RulesError(f"bad draw count {quote(draws)} (expected 0 or more)")
    check_hand_jokers(hand, rules.notation)
    move = _analyse(judge_table(before, rules), hand, judge_table(after, rules), rules)
    reasons = [
        *_nothing_played(move),
        *_removed(move),
        *_not_in_hand(move),
        *_illegal_melds(move),
        *_redeclared_jokers(move),
        *_too_many_copies(move),
    ]
    if initial:
        reasons.extend(_initial_meld(move))
    if rules.new_meld_needs_hand_card:
        reasons.extend(_melds_without_hand_card(move))
    limit = rules.draws_before_meld_forbidden
    if draws is not None and limit is not None and draws >= limit and move.gained:
        reasons.append(
            Reason(
                ReasonCode.MELDED_AFTER_THIRD_DRAW,
                f"{counted(draws, 'card')} drawn this turn: a player who draws "
                f"{_ordinal(limit)} card may not meld",
            )
        )
    if not rules.table_rearrangement:
        reasons.extend(_rearranged(move))
    played = sort_pieces(move.played.elements())
    return MoveVerdict(played, tuple(reasons), move.after)


def _table_pieces(table: TableVerdict) -> list[Piece]:
    return [piece for meld in table.melds for piece in meld.pieces]


def _analyse(
    before: TableVerdict, hand: Sequence[Piece], after: TableVerdict, rules: RuleSet
) -> _Move:
    before_counts = count_pieces(_table_pieces(before))
    after_counts = count_pieces(_table_pieces(after))
    gained = after_counts - before_counts
    changed_before, new_after = _unchanged_split(before, after)
    return _Move(
        rules=rules,
        before=before,
        after=after,
        gained=gained,
        lost=before_counts - after_counts,
        played=gained & count_pieces(hand),
        changed_before=changed_before,
        new_after=new_after,
    )


def _unchanged_split(
    before: TableVerdict, after: TableVerdict
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Match before-melds to identical after-melds one to one; return the two unmatched sides.

    Melds compare as multisets with each joker's declaration, so a redeclared joker changes its
    meld. Equal melds are interchangeable, so counting them is a maximum matching.
    """
    before_keys = [sort_pieces(meld.pieces) for meld in before.melds]
    after_keys = [sort_pieces(meld.pieces) for meld in after.melds]
    kept = Counter(after_keys) & Counter(before_keys)
    return _unmatched(before_keys, kept), _unmatched(after_keys, kept)


def _unmatched(keys: list[Pieces], kept: Counter[Pieces]) -> tuple[int, ...]:
    """Indexes of ``keys`` left once ``kept`` copies of each key are taken, first come first."""
    remaining = Counter(kept)
    left = []
    for index, key in enumerate(keys):
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            left.append(index)
    return tuple(left)


def _piece_name(piece: Piece, rules: RuleSet) -> str:
    return "a joker" if isinstance(piece, Joker) else piece.text(rules.notation)


def _counted(piece: Piece, count: int, rules: RuleSet) -> str:
    """``7S``, ``2 copies of 7S``, ``a joker`` or ``2 jokers``."""
    if count == 1:
        return _piece_name(piece, rules)
    if isinstance(piece, Joker):
        return counted(count, "joker")
    return f"{counted(count, 'copy')} of {piece.text(rules.notation)}"


def _sorted_counts(counts: Counter[Piece]) -> list[tuple[Piece, int]]:
    return sorted(counts.items(), key=lambda item: piece_sort_key(item[0]))


def _nothing_played(move: _Move) -> list[Reason]:
    if move.gained:
        return []
    return [Reason(ReasonCode.NOTHING_PLAYED, "no card went from the hand to the table")]


def _removed(move: _Move) -> list[Reason]:
    return [
        Reason(
            ReasonCode.CARD_REMOVED,
            f"{_counted(piece, count, move.rules)} left the table: no card may go back to a hand",
        )
        for piece, count in _sorted_counts(move.lost)
    ]


def _not_in_hand(move: _Move) -> list[Reason]:
    reasons = []
    for piece, count in _sorted_counts(move.gained - move.played):
        held = move.played[piece]
        have = "the hand holds none" if held == 0 else f"the hand holds only {held}"
        reasons.append(
            Reason(
                ReasonCode.CARD_NOT_IN_HAND,
                f"{_counted(piece, count + held, move.rules)} came to the table but {have}",
            )
        )
    return reasons


def _illegal_melds(move: _Move) -> list[Reason]:
    return [
        Reason(ReasonCode.ILLEGAL_MELD, f"{move.after_text(index)} is illegal: {verdict.reason}")
        for index, verdict in enumerate(move.after.melds)
        if not verdict.legal
    ]


def _declared(table: TableVerdict) -> Counter[Card]:
    return Counter(
        piece.declared
        for piece in _table_pieces(table)
        if isinstance(piece, Joker) and piece.declared is not None
    )


def _redeclared_jokers(move: _Move) -> list[Reason]:
    """Jokers freed without their real card on the table (the reading in docs/RULES.md).

    Jokers are interchangeable, so for each card only the drop in the number of jokers declared as
    it counts: it must not exceed the real copies of that card on the table afterwards. Where a
    joker in a group of three may be freed by either missing suit (Rummikub), the jokers that the
    other missing card frees are taken off first, and those cards with them.
    """
    declared_before = _declared(move.before)
    declared_after = _declared(move.after)
    real_after = Counter(piece for piece in _table_pieces(move.after) if isinstance(piece, Card))
    won: Counter[Card] = Counter()
    if move.rules.group_joker_either_missing:
        pairs = table_joker_pairs(meld.pieces for meld in move.before.melds)
        for (card, other), count in won_back_by_other(
            declared_before, declared_after, real_after, pairs
        ).items():
            won[card] += count
            real_after[other] -= count
    # A joker that left the table is reported as card_removed; it is not also "redeclared".
    removed_jokers = move.lost[WILD_JOKER]
    reasons = []
    for card in sorted(declared_before):
        freed = max(0, declared_before[card] - declared_after[card])
        excess = freed - won[card] - real_after[card]
        absorbed = min(max(excess, 0), removed_jokers)
        removed_jokers -= absorbed
        if excess - absorbed > 0:
            reasons.append(
                Reason(ReasonCode.JOKER_REDECLARED, _redeclared_message(card, freed, move))
            )
    return reasons


def _redeclared_message(card: Card, freed: int, move: _Move) -> str:
    name = card.text(move.rules.notation)
    real = sum(1 for piece in _table_pieces(move.after) if piece == card)
    subject = (
        f"the joker declared {name} was" if freed == 1 else f"{freed} jokers declared {name} were"
    )
    where = (
        f"{name} is not on the table"
        if real == 0
        else f"{name} is on the table only {_times(real)}"
    )
    return f"{subject} redeclared but {where}"


def _ordinal(number: int) -> str:
    """``a 3rd``, ``an 8th``: the article agrees with how the number is spoken."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10 if number % 100 not in (11, 12, 13) else 0)
    article = "an" if number in (8, 11, 18) or 80 <= number <= 89 else "a"
    return f"{article} {number}{suffix or 'th'}"


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _too_many_copies(move: _Move) -> list[Reason]:
    return [
        Reason(ReasonCode.TOO_MANY_COPIES, f"the table holds {problem}")
        for problem in copy_problems(_table_pieces(move.after), move.rules)
    ]


def meld_points(verdict: MeldVerdict, rules: RuleSet) -> int:
    """What a meld on the table is worth: each joker counts as the card it declares.

    An ace melded low counts ``rules.ace_low_meld_value`` where the rules give one (Rummy 500).
    """
    total = 0
    for place, piece in enumerate(verdict.pieces):
        card = represented_card(piece)
        if card is None:
            continue
        low_ace = card.rank == 1 and place == 0 and verdict.kind is MeldKind.SEQUENCE
        if low_ace and rules.ace_low_meld_value is not None:
            total += rules.ace_low_meld_value
        else:
            total += rules.card_value(card)
    return total


def _initial_meld(move: _Move) -> list[Reason]:
    reasons = [
        Reason(
            ReasonCode.INITIAL_MELD,
            f"the table meld {move.before_text(index)} was changed: "
            "the initial meld must come from the hand alone",
        )
        for index in move.changed_before
    ]
    needed = move.rules.initial_meld_points
    if needed > 0 and move.gained:
        # With the old melds kept, the new melds hold exactly the pieces played. If old melds were
        # broken up (reported above), their value is taken off so table cards do not count.
        laid = sum(meld_points(move.after.melds[index], move.rules) for index in move.new_after)
        taken = sum(
            meld_points(move.before.melds[index], move.rules) for index in move.changed_before
        )
        points = max(0, laid - taken)
        if points < needed:
            reasons.append(
                Reason(
                    ReasonCode.INITIAL_MELD,
                    f"the initial meld is worth {counted(points, 'point')}; "
                    f"at least {needed} are needed",
                )
            )
    return reasons


def _melds_without_hand_card(move: _Move) -> list[Reason]:
    """Every new or changed meld needs its own piece from the hand (Rummy 500).

    Copies of a card are interchangeable, so which meld a played piece went into is a choice: a
    maximum bipartite matching between those melds and the played pieces finds the best one.
    """
    copies = [piece for piece, count in _sorted_counts(move.played) for _ in range(count)]
    holds = {
        (index, copy): 1
        for index in move.new_after
        for copy, piece in enumerate(copies)
        if any(piece_identity(held) == piece for held in move.after.melds[index].pieces)
    }
    # With every edge of weight 1 the heaviest matching is a largest one.
    matched = max_weight_matching(holds)
    return [
        Reason(
            ReasonCode.MELD_WITHOUT_HAND_CARD,
            f"{move.after_text(index)} is new or changed but holds no card from the hand",
        )
        for index in move.new_after
        if index not in matched
    ]


def _rearranged(move: _Move) -> list[Reason]:
    return [
        Reason(
            ReasonCode.TABLE_REARRANGED,
            f"the table meld {move.before_text(index)} was changed: "
            f"{move.rules.name} does not allow rearranging the table",
        )
        for index in move.changed_before
    ]

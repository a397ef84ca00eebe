"""The canonical form of a final table: what makes two tables the same solution of a puzzle.

Two final tables are the same solution when they differ only in the order of their melds and of the
cards in a meld, or in where a sequence of one suit is cut (``3H-8H`` against ``3H-5H`` +
``6H-8H``). So a table is read as three counts:

* groups: how many groups of each shape (a rank and its set of suits);
* sequences: for each suit and each place in the ranks (the ace low is place 1, the ace above the
  king place 14), how many sequence cards stand there; cutting or joining runs leaves this alone;
* jokers: how many jokers stand for each card (a joker declared ``7S`` and one declared ``7H`` are
  different solutions).

A meld is read as the cards it shows, so a real ``7S`` and a joker declared ``7S`` trading places
between two melds give the same table. Plain Python, no solver: ``check`` and the tests use it to
re-check what the CP-SAT proofs say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meldsat.cards import Card, Joker, Piece, represented_card
from meldsat.melds import MeldKind, judge_meld
from meldsat.rules import RuleSet

GroupShape = tuple[int, tuple[int, ...]]  # rank, suits in order
RunPlace = tuple[int, int]  # suit, place 1..14


@dataclass(frozen=True)
class Canonical:
    """The counts that identify a solution (each a sorted tuple of (key, count), counts > 0)."""

    groups: tuple[tuple[GroupShape, int], ...]
    runs: tuple[tuple[RunPlace, int], ...]
    jokers: tuple[tuple[Card, int], ...]

    @classmethod
    def from_counts(
        cls, groups: Counter[GroupShape], runs: Counter[RunPlace], jokers: Counter[Card]
    ) -> Canonical:
        """Build from counters, dropping zero counts so equal tables compare equal."""
        return cls(
            tuple(sorted((key, n) for key, n in groups.items() if n)),
            tuple(sorted((key, n) for key, n in runs.items() if n)),
            tuple(sorted((key, n) for key, n in jokers.items() if n)),
        )


def sequence_places(pieces: Sequence[Piece]) -> list[int]:
    """The places (1-14) of a legal sequence's pieces, given in order low to high."""
    cards = [represented_card(piece) for piece in pieces]
    first = cards[0]
    if first is None:  # a legal, judged meld has every joker declared
        raise ValueError("undeclared joker in a judged sequence")
    return [first.rank + offset for offset in range(len(cards))]


def canonical_form(table: Sequence[Sequence[Piece]], rules: RuleSet) -> Canonical:
    """The canonical counts of a legal table (raises ``ValueError`` on an illegal meld)."""
    groups: Counter[GroupShape] = Counter()
    runs: Counter[RunPlace] = Counter()
    jokers: Counter[Card] = Counter()
    for meld in table:
        verdict = judge_meld(meld, rules)
        if not verdict.legal:
            raise ValueError(f"illegal meld: {verdict.reason}")
        cards = [represented_card(piece) for piece in verdict.pieces]
        shown = [card for card in cards if card is not None]
        for piece in verdict.pieces:
            if isinstance(piece, Joker) and piece.declared is not None:
                jokers[piece.declared] += 1
        if verdict.kind is MeldKind.GROUP:
            groups[shown[0].rank, tuple(sorted(card.suit for card in shown))] += 1
        else:
            for card, place in zip(shown, sequence_places(verdict.pieces), strict=True):
                runs[card.suit, place] += 1
    return Canonical.from_counts(groups, runs, jokers)

"""Checks on a whole table: every meld at once, and the number of copies of each card."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from meldsat.cards import (
    WILD_JOKER,
    Piece,
    count_pieces,
    piece_sort_key,
    require_melds,
    require_pieces,
)
from meldsat.melds import MeldVerdict, judge_meld
from meldsat.rules import RuleSet, require_rules
from meldsat.wording import counted


@dataclass(frozen=True)
class TableVerdict:
    """The checker's answer for every meld of a table, in table order."""

    melds: tuple[MeldVerdict, ...]

    @property
    def legal(self) -> bool:
        """True when every meld is legal."""
        return all(meld.legal for meld in self.melds)


def judge_table(melds: Sequence[Sequence[Piece]], rules: RuleSet) -> TableVerdict:
    """Judge every meld of a table (raises on an ambiguous undeclared joker)."""
    melds = require_melds(melds, "melds")
    return TableVerdict(tuple(judge_meld(meld, rules) for meld in melds))


def copy_problems(pieces: Iterable[Piece], rules: RuleSet) -> list[str]:
    """One message for each card (and for jokers) present more often than the game holds it."""
    pieces = require_pieces(pieces, "pieces")
    require_rules(rules)
    counts = count_pieces(pieces)
    jokers = counts.pop(WILD_JOKER, 0)
    problems = [
        f"{counted(count, 'copy')} of {card.text(rules.notation)}, but {rules.name} "
        f"with {rules.players} players has {rules.copies}"
        for card, count in sorted(counts.items(), key=lambda item: piece_sort_key(item[0]))
        if count > rules.copies
    ]
    if jokers > rules.jokers:
        problems.append(
            f"{counted(jokers, 'joker')}, but {rules.name} with {rules.players} players "
            f"has {rules.jokers}"
        )
    return problems

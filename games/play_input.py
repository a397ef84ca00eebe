"""A person's turn at a shared table, typed as short commands: read here, applied to a table here.

A line is either one word (``t`` takes the hint, ``h`` shows it, ``d`` draws, an empty line plays
the changes made so far, ``u`` undoes one, ``r`` resets, ``help``, ``q``) or changes to the table,
meld by meld, separated by commas, each applied to the table the previous one left:

- ``3+ 8D 9D`` adds the 8D and 9D to meld 3 (``3: 8D`` is the same);
- ``3- 7D`` takes the 7D from meld 3 (to put it in another meld);
- ``3= 4S 5S 6S`` makes meld 3 exactly these cards (with ``n 7S 8S 9S``: a split);
- ``n QH KH *=AH`` (or ``new ...``, or the cards alone) lays a new meld;
- ``table: 4S 5S 6S 7S | 7H 7D 7C`` gives the whole new table.

Melds are numbered as the screen numbers them, from 1. A meld emptied by ``-`` leaves the table
at the end of its line (so numbers stay put within one line). Only notation and meld numbers are
checked here; the rule checker judges the play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from meldsat.cards import Joker, Piece
from meldsat.errors import NotationError
from meldsat.notation import Meld, Table, parse_pieces, parse_table
from meldsat.rules import RuleSet


class Word(Enum):
    """The one-word commands."""

    TAKE = "take"
    HINT = "hint"
    DRAW = "draw"
    PLAY = "play"
    UNDO = "undo"
    RESET = "reset"
    HELP = "help"
    QUIT = "quit"


WORDS = {
    "t": Word.TAKE,
    "take": Word.TAKE,
    "h": Word.HINT,
    "hint": Word.HINT,
    "d": Word.DRAW,
    "draw": Word.DRAW,
    "pass": Word.DRAW,
    "": Word.PLAY,
    "p": Word.PLAY,
    "play": Word.PLAY,
    "ok": Word.PLAY,
    "u": Word.UNDO,
    "undo": Word.UNDO,
    "r": Word.RESET,
    "reset": Word.RESET,
    "help": Word.HELP,
    "?": Word.HELP,
    "q": Word.QUIT,
    "quit": Word.QUIT,
}


@dataclass(frozen=True)
class Change:
    """One change to the table: ``kind`` is ``add``, ``take``, ``set``, ``new`` or ``table``.

    ``meld`` is the meld's number on the screen (1-based; 0 for ``new`` and ``table``),
    ``pieces`` the cards named, ``table`` the whole table for ``table``.
    """

    kind: str
    meld: int
    pieces: Meld
    table: Table = ()


PLAY_HELP = """\
After each draw, change the table meld by meld (the melds are numbered on screen):
  3+ 8D 9D      add 8D 9D to meld 3
  3- 7D         take 7D from meld 3 (then put it in another meld)
  3= 4S 5S 6S   make meld 3 exactly these cards (a split: 3= 4S 5S 6S, n 7S 8S 9S)
  n QH KH *=AH  lay a new meld (the cards alone do too; a joker its meld forces may stay *)
  table: ...    the whole new table, melds separated by |
  several changes on one line: separate them with commas
Then:
  Enter         play your changes (with no changes: draw)
  u / r         undo the last change / reset the table
  t             take the hint: play the engine's best play now
  h             show the hint (the best play and the table after it)
  d             draw (or stop) without melding, dropping your changes
  q             quit
Knocking (Manipulation): after your turn, a hand worth the knock limit (5) or less may knock
(you are asked y/n), which ends the round: the lowest hand wins it; a knocker undercut or tied by
another player loses it. The 500 games have no knocking: there you discard a card instead."""

_NUMBERED = re.compile(r"^\s*(\d+)\s*([+:=-])\s*(.*)$", re.DOTALL)
_NEW = re.compile(r"^\s*(?:n|new)\b\s*:?\s*(.*)$", re.DOTALL | re.IGNORECASE)
_WHOLE = re.compile(r"^\s*table\s*:?\s*(.*)$", re.DOTALL | re.IGNORECASE)
_KINDS = {"+": "add", ":": "add", "-": "take", "=": "set"}


def read_word(text: str) -> Word | None:
    """The one-word command ``text`` is, or ``None`` for changes to the table."""
    return WORDS.get(text.strip().lower())


def read_changes(text: str, rules: RuleSet) -> tuple[Change, ...]:
    """The changes a line names (see the module docstring); raises on bad notation."""
    whole = _WHOLE.match(text)
    if whole:
        return (Change("table", 0, (), tuple(parse_table(whole.group(1), rules.notation))),)
    changes = []
    for part in re.split(r"[,;]", text):
        if not part.strip():
            raise NotationError(f"an empty change in '{text.strip()}' (two commas?)")
        numbered = _NUMBERED.match(part)
        if numbered:
            number, sign, cards = int(numbered.group(1)), numbered.group(2), numbered.group(3)
            changes.append(Change(_KINDS[sign], number, _cards(cards, rules, part)))
            continue
        new = _NEW.match(part)
        changes.append(Change("new", 0, _cards(new.group(1) if new else part, rules, part)))
    return tuple(changes)


def _cards(text: str, rules: RuleSet, part: str) -> Meld:
    pieces = parse_pieces(text, rules.notation)
    if not pieces:
        raise NotationError(f"the change '{part.strip()}' names no card")
    return pieces


def apply_changes(table: Table, changes: tuple[Change, ...]) -> Table:
    """The table after ``changes``, in order; melds emptied on the way leave it at the end."""
    melds: list[Meld] = list(table)
    for change in changes:
        if change.kind == "table":
            melds = list(change.table)
        elif change.kind == "new":
            melds.append(change.pieces)
        else:
            if not 1 <= change.meld <= len(melds):
                shown = f"melds 1-{len(melds)}" if melds else "the table is empty"
                raise NotationError(f"no meld {change.meld} on the table ({shown})")
            index = change.meld - 1
            if change.kind == "add":
                melds[index] = (*melds[index], *change.pieces)
            elif change.kind == "set":
                melds[index] = change.pieces
            else:
                melds[index] = _taken(melds[index], change.pieces, change.meld)
    return tuple(meld for meld in melds if meld)


def _taken(meld: Meld, pieces: Meld, number: int) -> Meld:
    """``meld`` without ``pieces``; a ``*`` takes any joker, ``*=7H`` the joker standing for 7H."""
    left = list(meld)
    for piece in pieces:
        at = next((i for i, held in enumerate(left) if _same(held, piece)), None)
        if at is None:
            raise NotationError(f"meld {number} holds no {piece.text()}")
        del left[at]
    return tuple(left)


def _same(held: Piece, named: Piece) -> bool:
    if isinstance(named, Joker) and named.declared is None:
        return isinstance(held, Joker)
    return held == named


def table_after_play(text: str, table: Table, rules: RuleSet) -> Table:
    """The table after the changes typed in ``text``; raises on bad notation or meld numbers."""
    return apply_changes(table, read_changes(text, rules))

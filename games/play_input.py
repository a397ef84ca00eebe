"""A person's play, typed as briefly as the rules allow, turned into the table after the turn.

``3: 8D`` adds the 8♦ to meld 3; ``QH KH *=AH`` (or ``new QH KH *=AH``) lays a new meld; parts
are joined with ``+`` (``3: 8D + QH KH *=AH``). Rearranging the table needs the whole new table:
``table: 4S 5S 6S 7S | 7H 7D 7C | *=JH QH KH``. Jokers forced by their meld may stay undeclared.
"""

from __future__ import annotations

import re

from meldsat.errors import NotationError
from meldsat.notation import Meld, Table, parse_pieces, parse_table
from meldsat.rules import RuleSet

_ADD = re.compile(r"^\s*(\d+)\s*:\s*(.*)$", re.DOTALL)
_NEW = re.compile(r"^\s*new\s*:?\s*(.*)$", re.DOTALL | re.IGNORECASE)
_WHOLE = re.compile(r"^\s*table\s*:?\s*(.*)$", re.DOTALL | re.IGNORECASE)

PLAY_HELP = (
    "3: 8D adds 8D to meld 3; QH KH *=AH lays a new meld; join parts with +, "
    "as in 3: 8D + QH KH *; table: ... gives the whole new table (to rearrange)"
)


def table_after_play(text: str, table: Table, rules: RuleSet) -> Table:
    """The table after the play ``text`` (see the module docstring); raises on bad notation."""
    whole = _WHOLE.match(text)
    if whole:
        return tuple(parse_table(whole.group(1), rules.notation))
    melds: list[Meld] = list(table)
    for part in text.split("+"):
        if not part.strip():
            raise NotationError(f"empty part in the play '{text.strip()}'")
        added = _ADD.match(part)
        if added:
            number = int(added.group(1))
            if not 1 <= number <= len(table):
                raise NotationError(f"no meld {number} on the table (melds 1-{len(table)})")
            melds[number - 1] = (*melds[number - 1], *_cards(added.group(2), rules))
            continue
        new = _NEW.match(part)
        melds.append(_cards(new.group(1) if new else part, rules))
    return tuple(melds)


def _cards(text: str, rules: RuleSet) -> Meld:
    pieces = parse_pieces(text, rules.notation)
    if not pieces:
        raise NotationError("a part of the play names no card")
    return pieces

"""Human output shared by every command: cards with suit symbols, tiles in their colours.

Everything goes through a ``rich`` console on stdout. Rich drops colour codes by itself when stdout
is not a terminal; ``--json`` output never comes through here. What is drawn reads back as input
(the notation accepts ``♠ ♥ ♦ ♣``), so a printed meld can be pasted into the next command.
Where stdout cannot encode the suit symbols (``PYTHONIOENCODING=ascii``, a C locale), cards are
written in plain notation (``QH``) and the marks as ``ok``/``x`` instead of crashing.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence

from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from meldsat.cards import RANK_NAMES, SUIT_SYMBOLS, Card, Joker, Notation, Piece
from meldsat.errors import escape_controls
from meldsat.house_rules import HOUSE_RULES, house_rules_of
from meldsat.rules import RuleSet
from meldsat.wording import counted

# Hearts and diamonds are red; spades and clubs keep the terminal's own colour so that they stay
# readable on dark and light backgrounds alike (the same goes for black tiles).
_SUIT_STYLES = ("", "red", "red", "")
_TILE_STYLES = ("bold", "bold blue", "bold dark_orange", "bold red")
_JOKER_STYLE = "bold magenta"
_GOOD_STYLE = "green"
_BAD_STYLE = "bold red"
MELD_SEPARATOR = " | "


def console() -> Console:
    """A console on the current stdout (made afresh so redirected or captured stdout is honoured).

    Soft wrapping keeps a long table on one line instead of breaking it at the terminal width.
    """
    return _Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


class _Console(Console):
    """A rich console that shows control characters escaped and reports a closed stdout as
    ``BrokenPipeError``.

    Every text it prints may have come from a file or a request (a player's name on a score
    sheet, a field of a log): an ESC or BEL in it is printed as ``\\x1b``, ``\\x07``, never sent
    to the terminal, which it could retitle or clear. Rich's own colour codes are added after
    that, so they still work. Rich's broken-pipe handling exits with code 1, which here means
    "illegal"; the command line's one handler turns the broken pipe into the shell's quiet exit.
    """

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        # Each segment's own text is escaped; its style (and rich's control segments) is not.
        return super()._render_buffer(
            segment if segment.control else Segment(escape_text(segment.text), segment.style)
            for segment in buffer
        )

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError("stdout closed")


def escape_text(text: str) -> str:
    """``text`` with every control character but the end of a line escaped (``\\x1b``)."""
    if text.isprintable():
        return text
    return "\n".join(escape_controls(line) for line in text.split("\n"))


def symbols_fit(stream: object = None) -> bool:
    """True when ``stream`` (default: the current stdout) can encode the suit symbols and marks."""
    encoding = getattr(sys.stdout if stream is None else stream, "encoding", None) or "utf-8"
    try:
        (SUIT_SYMBOLS + "✓✗").encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def card_text(card: Card, notation: Notation = Notation.CARDS) -> Text:
    """One real card or tile: ``10♥`` in red, ``Q♠``, or ``r7`` in the tile's colour."""
    if notation is Notation.TILES:
        return Text(card.text(notation), style=_TILE_STYLES[card.suit])
    if not symbols_fit():
        return Text(card.text(notation), style=_SUIT_STYLES[card.suit])
    label = f"{RANK_NAMES[card.rank - 1]}{SUIT_SYMBOLS[card.suit]}"
    return Text(label, style=_SUIT_STYLES[card.suit])


def piece_text(piece: Piece, notation: Notation = Notation.CARDS) -> Text:
    """A card, tile or joker: a joker is ``*`` (``j`` for tiles), then ``=`` and its card."""
    if isinstance(piece, Card):
        return card_text(piece, notation)
    text = Text(Joker().text(notation), style=_JOKER_STYLE)
    if piece.declared is not None:
        text.append("=", style=_JOKER_STYLE)
        text.append_text(card_text(piece.declared, notation))
    return text


def render_meld(pieces: Iterable[Piece], notation: Notation = Notation.CARDS) -> Text:
    """The pieces in the order given, separated by spaces."""
    return Text(" ").join(piece_text(piece, notation) for piece in pieces)


def render_table(melds: Iterable[Sequence[Piece]], notation: Notation = Notation.CARDS) -> Text:
    """A whole table on one line, melds separated by `` | `` (``(empty)`` for no melds)."""
    rendered = [render_meld(meld, notation) for meld in melds]
    if not rendered:
        return Text("(empty)", style="dim")
    return Text(MELD_SEPARATOR).join(rendered)


def rules_title(rules: RuleSet) -> str:
    """``manipulation, 4 players``, then any house rules: ``; house rules: jokers=4``."""
    return f"{rules.name}, {counted(rules.players, 'player')}" + house_rules_text(
        house_rules_of(rules)
    )


def house_rules_text(house: Mapping[str, object]) -> str:
    """``; house rules: jokers=4, gin_bonus=20``, or nothing when there are none."""
    if not house:
        return ""
    settings = ", ".join(f"{name}={HOUSE_RULES[name].text(value)}" for name, value in house.items())
    return f"; house rules: {settings}"


def verdict_mark(legal: bool) -> Text:
    """``✓`` in green or ``✗`` in red."""
    plain = not symbols_fit()
    if legal:
        return Text("ok" if plain else "✓", style=_GOOD_STYLE)
    return Text("x" if plain else "✗", style=_BAD_STYLE)


def status_text(label: str, good: bool) -> Text:
    """A one-word verdict such as ``legal`` or ``illegal``, green when good and red when not."""
    return Text(label, style=_GOOD_STYLE if good else _BAD_STYLE)


def print_table(
    melds: Sequence[Sequence[Piece]],
    notation: Notation = Notation.CARDS,
    *,
    title: str | None = None,
    notes: Sequence[str | Text | None] | None = None,
    out: Console | None = None,
) -> None:
    """Print a table one numbered meld a line, with an optional title and a note after each meld."""
    out = out or console()
    if title is not None:
        out.print(Text(title, style="bold"))
    if not melds:
        out.print(Text("  (empty)", style="dim"))
    for number, meld in enumerate(melds, start=1):
        line = Text(f"  {number:>2}. ")
        line.append_text(render_meld(meld, notation))
        note = notes[number - 1] if notes is not None and number <= len(notes) else None
        if note:
            line.append("  ")
            line.append_text(note if isinstance(note, Text) else Text(note, style="dim"))
        out.print(line)


def print_line(*parts: str | Text, out: Console | None = None) -> None:
    """Print plain strings and styled texts side by side on one line."""
    line = Text()
    for part in parts:
        line.append_text(part if isinstance(part, Text) else Text(part))
    (out or console()).print(line)

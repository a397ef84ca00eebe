"""Exceptions raised by the library, one per failure stage, and the quoting of bad input.

Every exception is a ``ValueError`` whose message is one line that quotes the offending input, so a
front end can print ``str(error)`` as it is. Input is quoted through :func:`quote`, which escapes
control characters (an echoed token must never drive the terminal) and cuts long tokens short (an
error message must not repeat a megabyte of input). Each class has a ``code``: the stable name a
JSON error object carries.
"""

from __future__ import annotations

from typing import ClassVar

QUOTE_LIMIT = 80  # characters of a quoted token before it is cut short


class MeldsatError(ValueError):
    """Base class of every error the library raises on bad or impossible input."""

    code: ClassVar[str] = "bad_input"


class NotationError(MeldsatError):
    """A card, joker, meld or position could not be read (bad syntax or unknown token)."""

    code: ClassVar[str] = "notation"


class AmbiguousJokerError(NotationError):
    """An undeclared joker could stand for more than one card; the message names the options."""

    code: ClassVar[str] = "ambiguous_joker"


class InputTooLargeError(NotationError):
    """Input beyond a documented size limit, refused before it is read any further."""

    code: ClassVar[str] = "too_large"


class RulesError(MeldsatError):
    """An unknown rule set, or an option outside what the rule set allows (e.g. player count)."""

    code: ClassVar[str] = "rules"


class ConflictError(MeldsatError):
    """Two sources of the same setting disagree (a batch option and the line's own field)."""

    code: ClassVar[str] = "conflict"


class ImpossiblePositionError(MeldsatError):
    """A position that cannot occur: more copies of a card than the decks hold, an illegal table."""

    code: ClassVar[str] = "impossible_position"


class UnsupportedError(MeldsatError):
    """A request the engine cannot answer exactly for this rule set; the message says which part."""

    code: ClassVar[str] = "unsupported"


class TimeLimitError(MeldsatError):
    """An answer that exists but was not found within the time it was given (a puzzle the
    server could not make within its limit); the message says how to get it."""

    code: ClassVar[str] = "time_limit"


def escape_controls(text: str) -> str:
    """``text`` with every non-printable character (ESC, newline, a lone surrogate) escaped."""
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` quoted for an error message: in quotes, control characters escaped, cut short.

    >>> quote("Q\\x1b[2J")
    "'Q\\\\x1b[2J'"
    >>> quote("x" * 90, limit=8)
    "'xxxxxxxx...' (90 characters)"
    """
    text = value if isinstance(value, str) else _short_str(value, limit)
    if len(text) <= limit:
        return f"'{escape_controls(text)}'"
    return f"'{escape_controls(text[:limit])}...' ({len(text)} characters)"


def _short_str(value: object, limit: int) -> str:
    # A huge integer has no str() beyond Python's digit limit; say how big it is instead.
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"{'-' if value < 0 else ''}a number of about {value.bit_length() * 3 // 10} digits"
    return str(value)


def require_text(value: object, argument: str) -> str:
    """``value`` if it is a ``str``; otherwise a ``TypeError`` naming ``argument``."""
    if not isinstance(value, str):
        raise TypeError(f"{argument} must be a str, not {type(value).__name__}")
    return value

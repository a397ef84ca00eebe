"""Counts in words: ``1 card``, ``2 cards``, ``1 copy``, ``3 copies``, for every human message."""

from __future__ import annotations

# Nouns whose plural is not the singular plus "s".
_IRREGULAR = {"copy": "copies"}


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun plural unless the count is exactly one.

    >>> counted(1, "card"), counted(0, "point"), counted(2, "copy")
    ('1 card', '0 points', '2 copies')
    """
    return f"{count} {noun if count == 1 else _IRREGULAR.get(noun, noun + 's')}"

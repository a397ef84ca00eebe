"""The one strict JSON reader: every JSON document meldsat reads goes through :func:`loads`.

Game logs, puzzle files, score sheets, batch lines, position files and the server's request
bodies all refuse the same things: a key given twice (JSON leaves it to the reader which value
wins, so a tampered copy could hide behind the first), ``NaN`` and ``Infinity`` (not JSON), a
number of more than :data:`MAX_NUMBER_CHARS` characters (no count, score or seed is that long, and
Python's ``int`` spends quadratic time on thousands of digits), and nesting deeper than
:data:`MAX_JSON_DEPTH` (which would otherwise end in a ``RecursionError``). Each failure is a
:class:`JsonError`, one line, never a traceback. :func:`refuse_unknown_keys` closes an object's
keys where its schema is closed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any

from meldsat.errors import NotationError, quote

MAX_JSON_DEPTH = 32
MAX_NUMBER_CHARS = 40

# A JSON string, escapes included: what the nesting count skips over.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class JsonError(NotationError):
    """A document that is not strict JSON; ``detail`` says why without the "bad JSON" lead."""

    def __init__(self, detail: str, line: int | None = None) -> None:
        where = "" if line is None else f" at line {line}"
        super().__init__(f"bad JSON{where}: {detail}")
        self.detail = detail

    def __reduce__(self) -> tuple[type[JsonError], tuple[str]]:
        return (JsonError, (self.detail,))


def loads(text: str) -> Any:
    """``text`` parsed strictly (see the module's docstring); raises :class:`JsonError`."""
    if nesting_depth(text) > MAX_JSON_DEPTH:
        raise JsonError(f"nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
            object_pairs_hook=_unique_keys,
        )
    except json.JSONDecodeError as error:
        raise JsonError(error.msg, error.lineno) from None
    except RecursionError:  # the count below is of brackets; this only guards the parser
        raise JsonError(f"nested more than {MAX_JSON_DEPTH} levels deep") from None


def load_object(text: str, what: str = "the JSON") -> dict[str, Any]:
    """``text`` parsed strictly, which must be one JSON object (``what`` names it otherwise)."""
    data = loads(text)
    if not isinstance(data, dict):
        raise NotationError(f"{what} must be a JSON object")
    return data


def json_lines(
    lines: Iterable[tuple[int, str]], source: str, *, comments: bool = False
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(number, object)`` for each ``(number, text)`` line of a JSON-lines file that is not
    blank (nor, with ``comments``, a ``#`` comment); each must be one strict JSON object, or the
    error names ``source`` and the line."""
    for number, line in lines:
        if not line.strip() or (comments and line.lstrip().startswith("#")):
            continue
        try:
            data = loads(line)
        except JsonError as error:
            detail = error.detail
            raise NotationError(f"bad JSON in {quote(source)} line {number}: {detail}") from None
        if not isinstance(data, dict):
            raise NotationError(f"line {number} of {quote(source)} is not a JSON object")
        yield number, data


def refuse_unknown_keys(data: Mapping[str, Any], known: Collection[str], what: str) -> None:
    """Refuse the first key of ``data`` (in sorted order) that is not in ``known``."""
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise NotationError(f"unknown key {quote(unknown[0])} in {what}")


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (no recursion, and cheap when shallow)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0 if "[" not in text and "{" not in text else 1  # at most that many, anyway
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _check_length(text: str) -> None:
    if len(text) > MAX_NUMBER_CHARS:
        raise JsonError(f"a number of {len(text)} characters (the most is {MAX_NUMBER_CHARS})")


def _bounded_int(text: str) -> int:
    _check_length(text)
    return int(text)


def _finite_float(text: str) -> float:
    _check_length(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonError(f"the number {quote(text)} is too large")
    return value


def _refuse_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise JsonError(f"key {quote(key)} given twice")
        data[key] = value
    return data

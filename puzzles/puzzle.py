"""A puzzle: a rule set, a legal table, a hand, a goal, and (once made) its solution and grade.

Two written forms, both read back to the same puzzle: a text form like a position file, with one
``key: value`` a line and puzzles separated by a line ``---``, and a JSON form
(``{"schema_version": 1, "puzzles": [{"rules", "players", "table", "hand", "goal", "solution",
"level", "grade", "seed"}]}``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from meldsat.errors import ImpossiblePositionError, NotationError, quote
from meldsat.jsonload import MAX_NUMBER_CHARS, refuse_unknown_keys
from meldsat.notation import Meld, Pieces, Table, format_pieces, format_table
from meldsat.position import (
    Position,
    pieces_field,
    position_fields,
    rules_from_fields,
    table_field,
)
from meldsat.puzzles.goal import Goal, parse_goal
from meldsat.rules import RuleSet
from meldsat.schema import SCHEMA_VERSION

LEVELS = ("easy", "medium", "hard", "expert")
_KEYS = ("rules", "players", "table", "hand", "goal", "solution", "level", "grade", "seed")
SEPARATOR = "---"


@dataclass(frozen=True)
class Grade:
    """What the solution asks of a solver (docs/PUZZLES.md defines each feature).

    ``changed_melds`` is proven by CP-SAT: the fewest original melds any solution must change (0
    means the lay-and-extend solver succeeds). The others are read off the solution.
    """

    changed_melds: int
    moves: int
    cards_moved: int
    jokers_redeclared: int
    longest_chain: int
    decoys: int

    def to_json(self) -> dict[str, int]:
        """The features as a JSON object, in a fixed order."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def text(self) -> str:
        """``changed_melds=3 moves=7 ...``: the text form."""
        return " ".join(f"{name}={value}" for name, value in self.to_json().items())

    @classmethod
    def from_json(cls, data: Any) -> Grade:
        """Read the JSON object written by :meth:`to_json`."""
        names = [field.name for field in fields(cls)]
        if not isinstance(data, Mapping) or sorted(data) != sorted(names):
            raise NotationError(f"bad grade {json.dumps(data)} (expected the keys {names})")
        values = [data[name] for name in names]
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
            raise NotationError(f"bad grade {json.dumps(data)} (values are whole numbers >= 0)")
        return cls(*values)

    @classmethod
    def from_text(cls, text: str) -> Grade:
        """Read the text form written by :meth:`text`."""
        data: dict[str, int] = {}
        for word in text.split():
            name, equals, value = word.partition("=")
            if not equals or not value.isdigit():
                raise NotationError(f"bad grade feature '{word}' (expected name=number)")
            data[name] = int(value)
        return cls.from_json(data)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``solution`` and ``grade`` are ``None`` until it is solved and graded."""

    rules: RuleSet
    table: Table
    hand: Meld
    goal: Goal = field(default_factory=Goal)
    solution: Table | None = None
    level: str | None = None
    grade: Grade | None = None
    seed: int | None = None

    @property
    def position(self) -> Position:
        """The position the player starts from."""
        return Position(self.rules, self.table, Pieces(self.hand))

    def to_json(self) -> dict[str, Any]:
        """The puzzle as a JSON-ready object (solver/schema/puzzles.schema.json)."""
        notation = self.rules.notation
        return {
            "rules": self.rules.name,
            "players": self.rules.players,
            "table": [[piece.text(notation) for piece in meld] for meld in self.table],
            "hand": [piece.text(notation) for piece in self.hand],
            "goal": self.goal.text(),
            "solution": None
            if self.solution is None
            else [[piece.text(notation) for piece in meld] for meld in self.solution],
            "level": self.level,
            "grade": None if self.grade is None else self.grade.to_json(),
            "seed": self.seed,
        }

    def to_text(self) -> str:
        """The text form (reads back with :func:`read_puzzles`)."""
        notation = self.rules.notation
        lines = [
            f"rules: {self.rules.name}",
            f"players: {self.rules.players}",
            f"table: {format_table(self.table, notation)}",
            f"hand: {format_pieces(self.hand, notation)}",
            f"goal: {self.goal.text()}",
        ]
        if self.solution is not None:
            lines.append(f"solution: {format_table(self.solution, notation)}")
        if self.level is not None:
            lines.append(f"level: {self.level}")
        if self.grade is not None:
            lines.append(f"grade: {self.grade.text()}")
        if self.seed is not None:
            lines.append(f"seed: {self.seed}")
        return "\n".join(lines) + "\n"


def puzzles_json(puzzles: Sequence[Puzzle]) -> dict[str, Any]:
    """The JSON document of a list of puzzles."""
    return {"schema_version": SCHEMA_VERSION, "puzzles": [p.to_json() for p in puzzles]}


def puzzles_text(puzzles: Sequence[Puzzle]) -> str:
    """The text form of a list of puzzles, separated by ``---`` lines."""
    return "".join(puzzle_texts(puzzles))


def puzzle_texts(puzzles: Iterable[Puzzle]) -> Iterator[str]:
    """:func:`puzzles_text` a puzzle at a time: each one's text, after the first led by the
    ``---`` line, as soon as the puzzle comes (so a stream can be written as it is made)."""
    for number, puzzle in enumerate(puzzles):
        yield puzzle.to_text() if number == 0 else f"{SEPARATOR}\n{puzzle.to_text()}"


def load_puzzle(data: Mapping[str, Any]) -> Puzzle:
    """A puzzle from its JSON object; the table must be legal and the cards must exist."""
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise NotationError(f"unknown key '{unknown[0]}' in puzzle")
    rules = rules_from_fields(data)
    # The families registry says which rule sets have puzzles; it loads the game modules, so only
    # when a puzzle is read.
    from meldsat.games.registry import puzzle_rule_sets

    allowed = puzzle_rule_sets()
    if rules.name not in allowed:
        raise NotationError(f"puzzles use the rules {' or '.join(allowed)}, not '{rules.name}'")
    hand = pieces_field(data.get("hand", []), "hand", rules)
    if not hand:  # with nothing to play there is no puzzle (and no turn for the checker to check)
        raise NotationError("a puzzle's hand holds at least one card")
    position = Position.build(rules, table_field(data.get("table"), "table", rules), hand)
    goal = data.get("goal", "all")
    if not isinstance(goal, str):
        raise NotationError(f"bad goal {json.dumps(goal)} (expected 'all' or 'points N')")
    level = data.get("level")
    if level is not None and level not in LEVELS:
        raise NotationError(f"unknown level '{level}' (choose from {', '.join(LEVELS)})")
    grade = data.get("grade")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise NotationError(f"bad seed '{seed}' (expected a whole number)")
    raw_solution = data.get("solution")
    solution = None
    if raw_solution is not None:
        solution = legal_table(table_field(raw_solution, "solution", rules), rules, "solution")
    return Puzzle(
        rules=rules,
        table=position.table,
        hand=position.hand,
        goal=parse_goal(goal),
        solution=solution,
        level=level,
        grade=None if grade is None else Grade.from_json(grade),
        seed=seed,
    )


def legal_table(melds: Sequence[Meld], rules: RuleSet, what: str) -> Table:
    """The melds in canonical order with jokers declared; an illegal meld is an error."""
    try:
        return Position.build(rules, melds, ()).table
    except ImpossiblePositionError as error:
        raise ImpossiblePositionError(f"in the {what}: {error}") from None


def read_puzzles(text: str) -> list[Puzzle]:
    """Puzzles from a JSON document (one puzzle or ``{"schema_version": 1, "puzzles": [...]}``)
    or the text form; a file without any puzzle is an error."""
    if text.strip().startswith("{"):
        data = position_fields(text)  # the position reader's strict JSON parsing and its errors
        if "puzzles" not in data:
            return [load_puzzle(data)]
        refuse_unknown_keys(data, ("schema_version", "puzzles"), "the puzzle file")
        version = data.get("schema_version", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            raise NotationError(
                f"schema_version {quote(version)}: this meldsat reads version {SCHEMA_VERSION}"
            )
        items = data["puzzles"]
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise NotationError("'puzzles' must be a list of puzzle objects")
        if not items:
            raise NotationError("no puzzle in the input: 'puzzles' is empty")
        return [load_puzzle(item) for item in items]
    chunks = _text_chunks(text)
    if not chunks:
        raise NotationError("no puzzle in the input")
    return [load_puzzle(chunk) for chunk in chunks]


def _text_chunks(text: str) -> list[dict[str, Any]]:
    chunks: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in [*text.splitlines(), SEPARATOR]:
        content = line.split("#", 1)[0].strip()
        if content == SEPARATOR:
            if current:
                chunks.append(current)
            current = {}
            continue
        if not content:
            continue
        key, colon, value = content.partition(":")
        key = key.strip().lower()
        if not colon or key not in _KEYS:
            raise NotationError(f"unknown line {quote(content)} in puzzle (expected key: value)")
        if key in current:
            raise NotationError(f"'{key}:' given twice in one puzzle (puzzles are split by ---)")
        value = value.strip()
        if key in {"players", "seed"}:
            # Only ASCII digits ("²" passes isdigit but not int), and not endless ones.
            if not (value.isascii() and value.isdigit()) or len(value) > MAX_NUMBER_CHARS:
                raise NotationError(f"bad {key} {quote(value)} (expected a whole number)")
            current[key] = int(value)
        elif key == "grade":
            current[key] = Grade.from_text(value).to_json()
        else:
            current[key] = value
    return chunks

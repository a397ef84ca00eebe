"""The API's answers, built by the same functions as the commands' ``--json`` output.

A request body is a position's JSON form (``rules``, ``players``, ``table``, ``hand``, ...) plus the
command's options under the names of its JSON keys. Nothing here knows about HTTP: the app turns a
:class:`~meldsat.errors.MeldsatError` into a 422 answer with the error object below.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from meldsat.answers import cards, check, gin, hint, rules, validate
from meldsat.errors import NotationError
from meldsat.play import Objective
from meldsat.web import drawing

# The options of ``meldsat hint`` a request may carry besides the position.
HINT_OPTIONS = ("objective", "time_limit", "all")


def validate_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat validate --json`` for a position's fields."""
    answer = validate.validate(dict(data))
    content = answer.to_json()
    if draw:
        content["drawing"] = drawing.validate_drawing(answer.rules, answer.verdict, answer.hand)
    return content


def check_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat check --json``: the fields hold the turn's ``after`` table."""
    answer = check.check(dict(data))
    content = answer.to_json()
    if draw:
        content["drawing"] = drawing.check_drawing(answer.rules, answer.verdict)
    return content


def hint_answer(data: Mapping[str, Any], time_cap: float, *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat hint --json``, the solver's time capped at ``time_cap`` seconds."""
    fields = dict(data)
    options = {key: fields.pop(key) for key in HINT_OPTIONS if key in fields}
    objective = _objective(options.get("objective", Objective.POINTS.value))
    time_limit = min(_seconds(options.get("time_limit", time_cap)), time_cap)
    play_all = options.get("all", False)
    if not isinstance(play_all, bool):
        raise NotationError(f"'all' must be true or false, not '{play_all}'")
    answer = hint.hint(fields, objective, play_all=play_all, time_limit=time_limit)
    content = answer.to_json()
    if draw:
        content["drawing"] = drawing.hint_drawing(answer.position, answer.play)
    return content


def rules_answer() -> dict[str, Any]:
    """The rule sets and their player ranges (``meldsat rules --json``)."""
    return rules.rules_listing().to_json()


def rule_set_answer(name: str, players: int | None = None) -> dict[str, Any]:
    """One rule set's fields and values (``meldsat rules NAME [--players N] --json``)."""
    return rules.rule_set(name, players).to_json()


def cards_answer(rules_name: str) -> dict[str, Any]:
    """Every piece of a rule set drawn once, for the page's card picker."""
    return cards.cards(rules_name).to_json()


def _objective(value: Any) -> Objective:
    choices = [objective.value for objective in Objective]
    if value not in choices:
        raise NotationError(f"bad objective '{value}' (choose from {', '.join(choices)})")
    return Objective(value)


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise NotationError(f"bad time_limit '{value}' (expected a number of seconds)")
    if value <= 0:
        raise NotationError(f"bad time_limit '{value}' (expected more than 0 seconds)")
    return float(value)


# --- the gin and puzzle commands ------------------------------------------------------------------

# Each gin request key and the command option it stands for (errors name the option).
DEADWOOD_KEYS = ("rules", "hand", "upcard", "first_upcard", "seen")
LAYOFF_KEYS = ("rules", "melds", "hand", "knocker_deadwood", "upcard", "first_upcard")


def deadwood_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat deadwood --json``: ``hand`` (10 or 11 cards), ``upcard``, ..."""
    texts = _option_texts(data, DEADWOOD_KEYS, required=("hand",))
    answer = gin.deadwood(
        texts.get("rules", "gin"),
        texts["hand"],
        texts.get("upcard"),
        texts.get("first_upcard"),
        texts.get("seen"),
    )
    return answer.to_json()


def layoff_answer(data: Mapping[str, Any], *, draw: bool = False) -> dict[str, Any]:
    """The answer of ``meldsat layoff --json``: the knocker's ``melds``, the defender's ``hand``."""
    texts = _option_texts(data, LAYOFF_KEYS, required=("melds", "hand"))
    answer = gin.layoff(
        texts.get("rules", "gin"),
        texts["melds"],
        texts["hand"],
        texts.get("knocker_deadwood"),
        texts.get("upcard"),
        texts.get("first_upcard"),
    )
    return answer.to_json()


# The keys of a generate request: the options of ``meldsat puzzle generate`` that pick its puzzles.
GENERATE_KEYS = ("level", "seed", "goal", "rules", "players", "time_limit")


def puzzle_generate_answer(
    data: Mapping[str, Any], time_cap: float, *, draw: bool = False
) -> dict[str, Any]:
    """The first puzzle of ``meldsat puzzle generate --format json`` with the same ``level``,
    ``seed``, ``goal`` (and ``rules``, ``players``): one puzzle, made within ``time_cap`` seconds
    (a request's ``time_limit`` may lower it), else the error ``time_limit``."""
    from meldsat.answers.puzzles import generate, generate_request
    from meldsat.puzzles.generate import GenerationTimeoutError

    unknown = sorted(set(data) - set(GENERATE_KEYS))
    if unknown:
        raise NotationError(f"unknown key '{unknown[0]}' (expected {', '.join(GENERATE_KEYS)})")
    level = _text_field(data, "level", "medium")
    goal = _text_field(data, "goal", "all")
    rules_name = _text_field(data, "rules", "manipulation")
    seed, players = data.get("seed", 1), data.get("players")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NotationError(f"bad seed '{seed}' (expected a whole number)")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise NotationError(f"bad player count '{players}' (expected a whole number)")
    seconds = min(_seconds(data.get("time_limit", time_cap)), time_cap)
    request = generate_request(level, 1, seed, rules=rules_name, players=players, goal=goal)
    try:
        made = generate(request, deadline=time.monotonic() + seconds)
    except GenerationTimeoutError:
        raise GenerationTimeoutError(
            f"no {level} puzzle made within {seconds:g} s (the server's time limit): "
            f"try another seed, or run meldsat puzzle generate --level {level} --seed {seed}"
        ) from None
    return made.to_json()


def _text_field(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise NotationError(f"'{key}' must be text, not '{value}'")
    return value


def puzzle_solve_answer(
    data: Mapping[str, Any], time_cap: float, *, draw: bool = False
) -> dict[str, Any]:
    """The answer of ``meldsat puzzle solve --format json`` for one puzzle object."""
    from meldsat.answers.puzzles import solve

    puzzle, time_limit = _puzzle_and_time(data, time_cap)
    return solve([puzzle], time_limit).to_json()


def puzzle_grade_answer(
    data: Mapping[str, Any], time_cap: float, *, draw: bool = False
) -> dict[str, Any]:
    """The answer of ``meldsat puzzle grade --format json`` for one puzzle object."""
    from meldsat.answers.puzzles import grade

    puzzle, time_limit = _puzzle_and_time(data, time_cap)
    return grade([puzzle], time_limit).to_json()


def puzzle_check_answer(
    data: Mapping[str, Any], time_cap: float, *, draw: bool = False
) -> dict[str, Any]:
    """The answer of ``meldsat puzzle check --format json``: the puzzle's fields and ``answer``."""
    from meldsat.answers.puzzles import check

    fields = dict(data)
    if "answer" not in fields:
        raise NotationError("'answer' is missing: the final table to check")
    answer = _table_text(fields.pop("answer"), "answer")
    puzzle, time_limit = _puzzle_and_time(fields, time_cap)
    return check(puzzle, answer, time_limit).to_json()


def _puzzle_and_time(data: Mapping[str, Any], time_cap: float) -> tuple[Any, float]:
    """The puzzle of a request (its JSON object) and the seconds a solve may take."""
    from meldsat.puzzles.puzzle import load_puzzle

    fields = dict(data)
    time_limit = min(_seconds(fields.pop("time_limit", time_cap)), time_cap)
    return load_puzzle(fields), time_limit


def _option_texts(
    data: Mapping[str, Any], keys: tuple[str, ...], required: tuple[str, ...]
) -> dict[str, str]:
    """The request's values as the command's option texts; an unknown or missing key is refused."""
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise NotationError(f"unknown key '{unknown[0]}' (expected {', '.join(keys)})")
    texts = {key: _table_text(value, key) for key, value in data.items() if value is not None}
    for key in required:
        if key not in texts:
            raise NotationError(f"'{key}' is missing")
    if "rules" in texts and not isinstance(data["rules"], str):
        raise NotationError("'rules' must be the name of a rule set")
    return texts


def _table_text(value: Any, key: str) -> str:
    """Text as given; a list of cards, or a list of melds (lists of cards), written as text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        if all(isinstance(item, str) for item in value):
            return " ".join(value)
        if all(
            isinstance(meld, list) and all(isinstance(card, str) for card in meld) for meld in value
        ):
            return " | ".join(" ".join(meld) for meld in value)
    raise NotationError(f"'{key}' must be text, a list of cards or a list of melds")

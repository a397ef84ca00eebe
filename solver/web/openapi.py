"""The API described as OpenAPI 3.1 (served at ``/api/openapi.json``).

Written out by hand from the answers' builders in ``meldsat.cli``; the tests check every answer the
API gives against these schemas' required keys, so the description cannot drift unnoticed.
"""

from __future__ import annotations

from typing import Any

from meldsat import __version__
from meldsat.moves import REASON_CODES
from meldsat.rulesets import RULE_SET_NAMES

GIN_FAMILY = ("gin", "oklahoma-gin", "hollywood-gin")

_CARDS = {"type": "array", "items": {"type": "string"}}
_MELDS = {"type": "array", "items": _CARDS}
_TABLE = {
    "description": 'Melds as text ("7H 8H 9H | QS QH QD") or as lists of cards.',
    "oneOf": [{"type": "string"}, _MELDS],
}
_HAND = {
    "description": 'Text ("5H 6H KS *") or a list of cards.',
    "oneOf": [{"type": "string"}, _CARDS],
}
_RULE_NAME = {"type": "string", "enum": list(RULE_SET_NAMES)}
_HEADER = {
    "schema_version": {"type": "integer", "const": 1},
    "rules": _RULE_NAME,
    "players": {"type": "integer"},
}
_POSITION_PROPERTIES: dict[str, Any] = {
    "rules": {"type": "string", "enum": list(RULE_SET_NAMES), "default": "manipulation"},
    "players": {"type": "integer"},
    "table": _TABLE,
    "hand": _HAND,
    "initial": {"type": "boolean", "default": False},
}


_HOUSE_RULES = {
    "type": "object",
    "description": "Only when house rules apply: the preset fields they change, by name.",
}


def _answer(
    required: dict[str, Any], optional: dict[str, Any] | None = None, *, drawn: bool = True
) -> dict[str, Any]:
    properties = {**_HEADER, **required, **(optional or {}), "house_rules": _HOUSE_RULES}
    if drawn:  # the endpoints that take ?draw=1
        properties["drawing"] = {"type": "object", "description": _DRAWING}
    return {
        "type": "object",
        "required": [*_HEADER, *required],
        "properties": properties,
    }


def _versioned(required: dict[str, Any]) -> dict[str, Any]:
    """An answer object: ``schema_version`` and these keys, all required."""
    properties = {"schema_version": _HEADER["schema_version"], **required}
    return {"type": "object", "required": [*properties], "properties": properties}


_DRAWING = "Only with ?draw=1: the answer drawn as SVG cards, for the page."
_ARRANGEMENT = {"deadwood": {"type": "integer"}, "melds": _MELDS, "deadwood_cards": _CARDS}
_TIME_LIMIT = {"type": "number", "exclusiveMinimum": 0}
_PUZZLE_PROPERTIES: dict[str, Any] = {
    "rules": {"type": "string", "enum": ["manipulation", "rummikub"], "default": "manipulation"},
    "players": {"type": "integer"},
    "table": _TABLE,
    "hand": _HAND,
    "goal": {"type": "string", "description": "all, or points N", "default": "all"},
    "solution": {**_TABLE, "description": "Optional: the stated solution, checked too."},
    "level": {"type": "string"},
    "grade": {"type": "object"},
    "seed": {"type": "integer"},
}


def _reasons(*codes: str) -> dict[str, Any]:
    """A list of ``{code, message}`` objects, each code one of these."""
    item = {
        "type": "object",
        "required": ["code", "message"],
        "properties": {
            "code": {"type": "string", "enum": list(codes)},
            "message": {"type": "string"},
        },
    }
    return {"type": "array", "items": item}


def _results(*required: str) -> dict[str, Any]:
    """A list of one report a puzzle, each with these keys."""
    return {"type": "array", "items": {"type": "object", "required": list(required)}}


SCHEMAS: dict[str, Any] = {
    "Position": {"type": "object", "properties": _POSITION_PROPERTIES},
    "CheckRequest": {
        "type": "object",
        "required": ["after"],
        "properties": {
            **_POSITION_PROPERTIES,
            "after": _TABLE,
            "draws": {"type": "integer", "minimum": 0},
        },
    },
    "HintRequest": {
        "type": "object",
        "properties": {
            **_POSITION_PROPERTIES,
            "objective": {"type": "string", "enum": ["points", "cards"], "default": "points"},
            "time_limit": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": "Seconds; capped by the server's --time-limit.",
            },
            "all": {"type": "boolean", "default": False},
        },
    },
    "ValidateAnswer": _answer(
        {
            "legal": {"type": "boolean"},
            "melds": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["cards", "legal", "kind", "reason"],
                    "properties": {
                        "cards": _CARDS,
                        "legal": {"type": "boolean"},
                        "kind": {"enum": ["group", "sequence", None]},
                        "reason": {"type": ["string", "null"]},
                    },
                },
            },
            "problems": {"type": "array", "items": {"type": "string"}},
        }
    ),
    "CheckAnswer": _answer(
        {
            "legal": {"type": "boolean"},
            "played": _CARDS,
            "reasons": _reasons(*REASON_CODES),
            "table": _MELDS,
        }
    ),
    "HintAnswer": _answer(
        {
            "status": {"type": "string", "enum": ["optimal", "feasible", "no_move", "unknown"]},
            "objective": {"type": "string", "enum": ["points", "cards"]},
            "play": _CARDS,
            "played": {**_CARDS, "description": "The same as play (the name check uses)."},
            "cards_played": {"type": "integer"},
            "points_played": {"type": "integer"},
            "bound": {"type": ["integer", "null"]},
            "hand_left": _CARDS,
            "hand_points_left": {"type": "integer"},
            "table": _MELDS,
            "changed_melds": {"type": "array", "items": {"type": "integer"}},
            "new_melds": {"type": "array", "items": {"type": "integer"}},
            "changes": {"type": "array", "items": {"type": "string"}},
            "can_knock": {"type": "boolean"},
            "tie_break": {
                "enum": ["proven", "unproven"],
                "description": "Whether keeping the most original melds intact was proven too.",
            },
        },
        {
            "best_partial": {
                "type": "object",
                "description": "With all: when no play empties the hand, the best partial play.",
            }
        },
    ),
    "RulesAnswer": _versioned(
        {
            "rule_sets": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "notation", "min_players", "max_players"],
                    "properties": {
                        "name": {"type": "string", "enum": list(RULE_SET_NAMES)},
                        "notation": {"enum": ["cards", "tiles"]},
                        "min_players": {"type": "integer"},
                        "max_players": {"type": "integer"},
                    },
                },
            },
        }
    ),
    "RuleSetAnswer": {
        "type": "object",
        "required": [*_HEADER, "fields", "house_rule_names"],
        "properties": {
            **_HEADER,
            "fields": {
                "type": "object",
                "description": "Every field of the rule set (docs/RULES.md names them).",
                "required": ["name", "notation", "decks", "jokers", "players"],
            },
            "house_rule_names": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The fields a house rule may change (--rule NAME=VALUE).",
            },
        },
    },
    "DeadwoodRequest": {
        "type": "object",
        "required": ["hand"],
        "properties": {
            "rules": {"type": "string", "enum": list(GIN_FAMILY), "default": "gin"},
            "hand": {**_HAND, "description": "10 cards (least deadwood) or 11 (best discard)."},
            "upcard": {"type": "string", "description": "Draw advice (with 10 cards)."},
            "first_upcard": {"type": "string", "description": "Oklahoma: sets the knock limit."},
            "seen": {**_HAND, "description": "Cards known not to be in the stock."},
        },
    },
    "LayoffRequest": {
        "type": "object",
        "required": ["melds", "hand"],
        "properties": {
            "rules": {"type": "string", "enum": list(GIN_FAMILY), "default": "gin"},
            "melds": {**_TABLE, "description": "The knocker's melds."},
            "knocker_deadwood": {**_HAND, "description": "The knocker's unmelded cards."},
            "hand": {**_HAND, "description": "The defender's 10 cards."},
            "upcard": {"type": "string"},
            "first_upcard": {"type": "string", "description": "Oklahoma: sets the knock limit."},
        },
    },
    "PuzzleRequest": {
        "type": "object",
        "description": "One puzzle object, as in the puzzles of puzzle generate --format json.",
        "required": ["table", "hand"],
        "properties": {
            **_PUZZLE_PROPERTIES,
            "time_limit": {**_TIME_LIMIT, "description": "Seconds per solve; capped."},
        },
    },
    "PuzzleCheckRequest": {
        "type": "object",
        "required": ["table", "hand", "answer"],
        "properties": {
            **_PUZZLE_PROPERTIES,
            "answer": {**_TABLE, "description": "The final table to check."},
            "time_limit": {**_TIME_LIMIT, "description": "Seconds per solve; capped."},
        },
    },
    "DeadwoodAnswer": _answer(
        {
            "hand": _CARDS,
            **_ARRANGEMENT,
            "discard": {"type": ["string", "null"]},
            "discards": {"type": "array", "items": {"type": "object"}},
            "knock_limit": {"type": ["integer", "null"]},
            "can_knock": {"type": "boolean"},
            "gin": {"type": "boolean"},
            "big_gin": {"type": "boolean"},
        },
        {"draw": {"type": "object", "description": "With an upcard and 10 cards: the advice."}},
        drawn=False,
    ),
    "LayoffAnswer": _answer(
        {
            **_ARRANGEMENT,
            "laid_off": {"type": "array", "items": {"type": "object"}},
            "knocker_melds": _MELDS,
            "knocker_deadwood": {"type": "integer"},
            "knocker_deadwood_cards": _CARDS,
            "score": {"type": "object", "required": ["kind", "winner", "points", "doubled"]},
        },
        drawn=False,
    ),
    "PuzzleSolveAnswer": _versioned(
        {"results": _results("verdict", "solution", "other_solution", "moves", "steps")}
    ),
    "PuzzleGradeAnswer": _versioned(
        {"results": _results("verdict", "level", "grade", "stated_level", "confirmed")}
    ),
    "PuzzleCheckAnswer": _versioned(
        {
            "solution": {"type": "boolean"},
            "reasons": _reasons(*REASON_CODES, "goal", "not_the_solution"),
        }
    ),
    "Error": _versioned(
        {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
            },
        }
    ),
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _errors(*statuses: int) -> dict[str, Any]:
    words = {
        400: "The body is not a JSON object.",
        413: "The body is larger than the server's limit.",
        422: "Bad input: the message names the bad token.",
        503: "Every worker is busy and the queue is full.",
    }
    return {
        str(status): {
            "description": words[status],
            "content": {"application/json": {"schema": _ref("Error")}},
        }
        for status in statuses
    }


def _post(summary: str, request: str, answer: str, *, draw: bool = True) -> dict[str, Any]:
    draw_parameter = {
        "name": "draw",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "enum": ["1"]},
        "description": _DRAWING,
    }
    return {
        "post": {
            "summary": summary,
            "parameters": [draw_parameter] if draw else [],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {
                "200": {
                    "description": "The same object as the command's --json output.",
                    "content": {"application/json": {"schema": _ref(answer)}},
                },
                **_errors(400, 413, 422, 503),
            },
        }
    }


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the API."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "meldsat",
            "version": __version__,
            "description": (
                "Exact rummy meld analysis: the commands validate, check, hint, deadwood, "
                "layoff and puzzle solve, grade and check."
            ),
        },
        "paths": {
            "/api/validate": _post(
                "Is every meld legal (meldsat validate)", "Position", "ValidateAnswer"
            ),
            "/api/check": _post("Is the turn legal (meldsat check)", "CheckRequest", "CheckAnswer"),
            "/api/hint": _post("The best play (meldsat hint)", "HintRequest", "HintAnswer"),
            "/api/deadwood": _post(
                "Least deadwood, best discard, draw advice (meldsat deadwood)",
                "DeadwoodRequest",
                "DeadwoodAnswer",
                draw=False,
            ),
            "/api/layoff": _post(
                "The defender's best layoffs and the score (meldsat layoff)",
                "LayoffRequest",
                "LayoffAnswer",
                draw=False,
            ),
            "/api/puzzle/solve": _post(
                "Solve a puzzle: unique, none or several (meldsat puzzle solve)",
                "PuzzleRequest",
                "PuzzleSolveAnswer",
                draw=False,
            ),
            "/api/puzzle/grade": _post(
                "Grade a puzzle (meldsat puzzle grade)",
                "PuzzleRequest",
                "PuzzleGradeAnswer",
                draw=False,
            ),
            "/api/puzzle/check": _post(
                "Is an answer the puzzle's solution (meldsat puzzle check)",
                "PuzzleCheckRequest",
                "PuzzleCheckAnswer",
                draw=False,
            ),
            "/api/rules": {
                "get": {
                    "summary": "The rule sets and their player ranges (meldsat rules)",
                    "responses": {
                        "200": {
                            "description": "The rule sets.",
                            "content": {"application/json": {"schema": _ref("RulesAnswer")}},
                        }
                    },
                }
            },
            "/api/rules/{name}": {
                "get": {
                    "summary": "One rule set's fields and values (meldsat rules NAME)",
                    "parameters": [
                        {"name": "name", "in": "path", "required": True, "schema": _RULE_NAME},
                        {
                            "name": "players",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer"},
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "The rule set.",
                            "content": {"application/json": {"schema": _ref("RuleSetAnswer")}},
                        },
                        **_errors(422),
                    },
                }
            },
            "/api/cards": {
                "get": {
                    "summary": "Every piece of a rule set drawn as SVG (the page's card picker)",
                    "parameters": [
                        {
                            "name": "rules",
                            "in": "query",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {
                        "200": {"description": "The pieces: text, label and svg."},
                        **_errors(422),
                    },
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }

"""The API described as OpenAPI 3.1 (served at ``/api/openapi.json``; ``python -m
meldsat.web.openapi`` prints it).

No request body or answer is described here: each of them, and the error object, is a file of
``meldsat.schema`` or one of its ``$defs`` (the files the commands' ``--json`` output is tested
against), turned into components by ``meldsat.web.components``. This module names them, adds the
``drawing`` key that ``?draw=1`` puts in an answer, and lays out the paths.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from meldsat import __version__
from meldsat.web.components import PREFIX, Location, build_components, component_name
from meldsat.web.games_openapi import GAME_SCHEMAS, game_paths

# Each schema of the API, and where it is in meldsat.schema's files.
NAMED_SCHEMAS: dict[str, Location] = {
    "Position": ("api", "Position"),
    "CheckRequest": ("api", "CheckRequest"),
    "HintRequest": ("api", "HintRequest"),
    "ValidateAnswer": ("validate", None),
    "CheckAnswer": ("check", None),
    "HintAnswer": ("hint", "answer"),
    "RulesAnswer": ("rules", "rule_sets"),
    "RuleSetAnswer": ("rules", "rule_set"),
    "DeadwoodRequest": ("api", "DeadwoodRequest"),
    "LayoffRequest": ("api", "LayoffRequest"),
    "PuzzleRequest": ("api", "PuzzleRequest"),
    "PuzzleGenerateRequest": ("api", "PuzzleGenerateRequest"),
    "PuzzleCheckRequest": ("api", "PuzzleCheckRequest"),
    "DeadwoodAnswer": ("deadwood", None),
    "LayoffAnswer": ("layoff", None),
    "PuzzlesAnswer": ("puzzles", None),
    "PuzzleSolveAnswer": ("puzzle-solve", None),
    "PuzzleGradeAnswer": ("puzzle-grade", None),
    "PuzzleCheckAnswer": ("puzzle-check", None),
    "Error": ("api", "Error"),
    "Drawing": ("api", "Drawing"),
    **GAME_SCHEMAS,
}


class Post(NamedTuple):
    """A ``POST`` endpoint: its path, what it does, its body's and its answer's schemas."""

    path: str
    summary: str
    request: str
    answer: str
    drawn: bool = False  # whether it takes ?draw=1


POSTS = (
    Post(
        "/api/validate",
        "Is every meld legal (meldsat validate)",
        "Position",
        "ValidateAnswer",
        drawn=True,
    ),
    Post(
        "/api/check", "Is the turn legal (meldsat check)", "CheckRequest", "CheckAnswer", drawn=True
    ),
    Post("/api/hint", "The best play (meldsat hint)", "HintRequest", "HintAnswer", drawn=True),
    Post(
        "/api/deadwood",
        "Least deadwood, best discard, draw advice (meldsat deadwood)",
        "DeadwoodRequest",
        "DeadwoodAnswer",
    ),
    Post(
        "/api/layoff",
        "The defender's best layoffs and the score (meldsat layoff)",
        "LayoffRequest",
        "LayoffAnswer",
    ),
    Post(
        "/api/puzzle/generate",
        "Make one puzzle of a level (meldsat puzzle generate)",
        "PuzzleGenerateRequest",
        "PuzzlesAnswer",
    ),
    Post(
        "/api/puzzle/solve",
        "Solve a puzzle: unique, none or several (meldsat puzzle solve)",
        "PuzzleRequest",
        "PuzzleSolveAnswer",
    ),
    Post(
        "/api/puzzle/grade",
        "Grade a puzzle (meldsat puzzle grade)",
        "PuzzleRequest",
        "PuzzleGradeAnswer",
    ),
    Post(
        "/api/puzzle/check",
        "Is an answer the puzzle's solution (meldsat puzzle check)",
        "PuzzleCheckRequest",
        "PuzzleCheckAnswer",
    ),
)


def _schemas() -> dict[str, Any]:
    schemas = build_components(NAMED_SCHEMAS)
    for post in POSTS:
        if post.drawn:  # the command's answer, and the one key ?draw=1 adds to it
            schemas[post.answer]["properties"]["drawing"] = _ref("Drawing")
    return schemas


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": PREFIX + name}


SCHEMAS = _schemas()
"""``components.schemas``: the named schemas, then the shared parts they refer to."""


def _errors(*statuses: int) -> dict[str, Any]:
    words = {
        400: "The body is not a JSON object, or a query parameter is unknown or malformed.",
        413: "The body or the answer is larger than the server's limits.",
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


def _post(post: Post) -> dict[str, Any]:
    draw_parameter = {
        "name": "draw",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "enum": ["1", "true", "0", "false"]},
        "description": SCHEMAS["Drawing"]["description"],
    }
    return {
        "post": {
            "summary": post.summary,
            "parameters": [draw_parameter] if post.drawn else [],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(post.request)}},
            },
            "responses": {
                "200": {
                    "description": "The same object as the command's --json output.",
                    "content": {"application/json": {"schema": _ref(post.answer)}},
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
            **{post.path: _post(post) for post in POSTS},
            **game_paths(_ref),
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
                        {
                            "name": "name",
                            "in": "path",
                            "required": True,
                            "schema": _ref(component_name(("common", "rules"))),
                        },
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
                        **_errors(400, 422),
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
                        **_errors(400, 422),
                    },
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }


if __name__ == "__main__":  # python -m meldsat.web.openapi > openapi.json
    print(json.dumps(openapi_document(), indent=2))

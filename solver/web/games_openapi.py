"""The game sessions' part of the OpenAPI document: their schemas (``games.schema.json``'s
``$defs``) and their paths (:mod:`meldsat.web.games_api` serves them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meldsat.web.components import Location

GAME_SCHEMAS: dict[str, Location] = {
    "GameCatalogue": ("games", "Catalogue"),
    "GameRequest": ("games", "GameRequest"),
    "GameTurnRequest": ("games", "TurnRequest"),
    "GameAnswer": ("games", "GameAnswer"),
    "GameHintAnswer": ("games", "HintAnswer"),
    "GameError": ("games", "GameError"),
}

_WORDS = {
    400: "The body is not a JSON object.",
    404: "No such game: unknown, or forgotten after its idle time.",
    409: "The game is over, not over yet (its log), or answering another request.",
    413: "The body is larger than the server's limit.",
    422: "Bad input, or an illegal decision: every reason, with its code; nothing changed.",
    503: "Every worker is busy, or every game slot is taken.",
}


def game_paths(ref: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """The paths of the game endpoints; ``ref`` names a component."""

    def answer(description: str, schema: str) -> dict[str, Any]:
        return {
            "description": description,
            "content": {"application/json": {"schema": ref(schema)}},
        }

    def errors(*statuses: int) -> dict[str, Any]:
        return {str(status): answer(_WORDS[status], "GameError") for status in statuses}

    def body(schema: str) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": ref(schema)}}}

    game_id = [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
    return {
        "/api/games": {
            "post": {
                "summary": "Start a game against bots (the person is seat 0)",
                "requestBody": body("GameRequest"),
                "responses": {
                    "201": answer(
                        "The game, the person's view, the bots' first turns.", "GameAnswer"
                    ),
                    **errors(400, 413, 422, 503),
                },
            },
            "get": {
                "summary": "The rule sets a game is played under, their players and bots",
                "responses": {"200": answer("The games.", "GameCatalogue")},
            },
        },
        "/api/games/{id}": {
            "get": {
                "summary": "The person's view of a game",
                "parameters": game_id,
                "responses": {"200": answer("The view.", "GameAnswer"), **errors(404)},
            }
        },
        "/api/games/{id}/turn": {
            "post": {
                "summary": "Play the person's decision for this step (or the hint), then the bots",
                "parameters": game_id,
                "requestBody": body("GameTurnRequest"),
                "responses": {
                    "200": answer("The new view and the events since.", "GameAnswer"),
                    **errors(400, 404, 409, 413, 422, 503),
                },
            }
        },
        "/api/games/{id}/hint": {
            "get": {
                "summary": "The engine's advice for this step (what {hint: true} plays)",
                "parameters": game_id,
                "responses": {
                    "200": answer("The hint.", "GameHintAnswer"),
                    **errors(404, 409, 503),
                },
            }
        },
        "/api/games/{id}/log": {
            "get": {
                "summary": "The finished game's log (JSONL, as meldsat replay reads)",
                "parameters": game_id,
                "responses": {
                    "200": {
                        "description": "One JSON object a line.",
                        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                    },
                    **errors(404, 409),
                },
            }
        },
    }

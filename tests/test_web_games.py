"""Game sessions over the API: whole games of every family played by taking the hint at every
step, their logs replayed, and what a person may and may not send."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.games.registry import FAMILIES
from meldsat.games.replay import replay_events
from meldsat.games.session import GameSession
from meldsat.games.session_steps import STEP_REASON_CODES
from meldsat.games.session_store import SessionStore
from meldsat.web.app import create_app
from meldsat.web.openapi import SCHEMAS, openapi_document
from tests.test_contract import _validator

# One short game per family with a game: two players, a low target (a house rule).
GAMES = {"manipulation": "manipulation", "gin": "gin", "rummy500": "rummy300"}
SHORT = {"game_target": 60}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


def test_every_family_with_a_game_is_played_here() -> None:
    assert set(GAMES) == {family.name for family in FAMILIES if family.game}


@pytest.mark.parametrize("family", sorted(GAMES))
def test_a_whole_game_taking_every_hint_replays_to_the_sessions_totals(
    client: TestClient, family: str
) -> None:
    body = {"rules": GAMES[family], "players": 2, "seed": 3, "house": SHORT}
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game_id, view = created.json()["id"], created.json()["view"]
    assert client.get(f"/api/games/{game_id}/log").status_code == 409  # the decks stay hidden
    steps = 0
    while not view["over"]:
        hint = client.get(f"/api/games/{game_id}/hint").json()["hint"]
        answer = client.post(f"/api/games/{game_id}/turn", json={"hint": True})
        assert answer.status_code == 200, answer.text
        events = answer.json()["events"]
        assert all("deck" not in event for event in events)
        for event in events:  # a bot's turn never shows the cards it drew and kept
            if event["event"] == "turn" and event["seat"] != 0:
                assert "hand" not in event
                assert event.get("drawn") is None or event.get("source") == "upcard"
        mine = [event for event in events if event["event"] == "turn" and event["seat"] == 0]
        if mine and hint["decision"].get("discard"):
            assert mine[0]["discard"] == hint["decision"]["discard"]  # the hint is what it plays
        view = answer.json()["view"]
        steps += 1
    assert steps > 5
    log = client.get(f"/api/games/{game_id}/log")
    assert log.status_code == 200
    events = [json.loads(line) for line in log.text.splitlines()]
    assert events[0]["house_rules"] == SHORT  # the log plays by the game's own rules
    report = replay_events(enumerate(events, start=1))
    assert report.games == 1
    assert report.rounds == len(view["rounds"])
    assert events[-1]["totals"] == view["result"]["totals"]
    assert events[-1]["totals"][:2] != [0, 0]
    assert client.post(f"/api/games/{game_id}/turn", json={"hint": True}).status_code == 409


def test_an_illegal_meld_gives_every_reason_and_changes_nothing(client: TestClient) -> None:
    created = client.post("/api/games", json={"rules": "manipulation", "players": 2, "seed": 1})
    game_id, view = created.json()["id"], created.json()["view"]
    assert view["step"] == "meld" and view["draws"] == 1 and len(view["drawn"]) == 1
    hand = view["hand"]
    # Two cards of the hand laid as a meld: too short, and a table card taken back besides.
    table = [*view["table"][1:], hand[:2]] if view["table"] else [hand[:2]]
    refused = client.post(f"/api/games/{game_id}/turn", json={"table": table})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "illegal_move"
    codes = {reason["code"] for reason in error["reasons"]}
    assert "illegal_meld" in codes
    assert client.get(f"/api/games/{game_id}").json()["view"] == view
    bad = client.post(f"/api/games/{game_id}/turn", json={"table": [["QX"]]})
    assert bad.status_code == 422 and "QX" in bad.json()["error"]["message"]
    drew = client.post(f"/api/games/{game_id}/turn", json={"table": None})
    assert drew.status_code == 200
    assert drew.json()["view"]["hand"] != view["hand"] or drew.json()["events"]


def test_a_gin_discard_not_held_is_refused_with_its_code(client: TestClient) -> None:
    created = client.post("/api/games", json={"rules": "gin", "seed": 2, "bots": "knocker"})
    game_id, view = created.json()["id"], created.json()["view"]
    assert view["step"] == "draw" and view["upcard"] and len(view["hand"]) == 10
    drawn = client.post(f"/api/games/{game_id}/turn", json={"source": "upcard"}).json()["view"]
    assert drawn["step"] == "finish" and drawn["took_upcard"]
    upcard = drawn["drawn"][0]
    refused = client.post(f"/api/games/{game_id}/turn", json={"discard": upcard, "knock": False})
    assert refused.status_code == 422
    assert [r["code"] for r in refused.json()["error"]["reasons"]] == ["upcard_discarded"]
    missing = next(card for card in ("2C", "3C", "4C", "5C") if card not in drawn["hand"])
    refused = client.post(f"/api/games/{game_id}/turn", json={"discard": missing, "knock": False})
    assert [r["code"] for r in refused.json()["error"]["reasons"]] == ["card_not_in_hand"]


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"rules": "rummikub"}, "no game"),
        ({"rules": "gin", "players": 3}, "players"),
        ({"rules": "gin", "bots": "nobody"}, "nobody"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_a_game_that_cannot_be_played_is_refused(
    client: TestClient, body: dict[str, Any], word: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422
    assert word in answer.json()["error"]["message"]


def test_an_unknown_game_is_404(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/log", "/api/games/nope/hint"):
        assert client.get(path).status_code == 404
    assert client.post("/api/games/nope/turn", json={"hint": True}).status_code == 404


def test_sessions_are_bounded_and_forgotten_when_idle() -> None:
    now = [0.0]
    store = SessionStore(max_sessions=2, idle_seconds=60, clock=lambda: now[0])

    def make() -> GameSession:
        return GameSession("gin", 2, ["knocker"], 1)

    first, _ = store.add(make)
    store.add(make)
    with pytest.raises(Exception, match="2 games"):
        store.add(make)
    now[0] = 30.0
    assert store.entry(first) is not None  # used: its idle time starts again
    now[0] = 70.0
    assert len(store) == 1  # the other one idled past 60 s
    store.add(make)
    now[0] = 200.0
    assert store.entry(first) is None


def test_the_game_answers_match_the_documents_schemas(client: TestClient) -> None:
    document = openapi_document()
    reason = SCHEMAS["GameError"]["properties"]["error"]["properties"]["reasons"]["items"]
    assert reason["properties"]["code"]["enum"] == list(STEP_REASON_CODES)

    def matches(path: str, method: str, status: int, answer: dict[str, Any]) -> None:
        described = document["paths"][path][method]["responses"][str(status)]
        schema = described["content"]["application/json"]["schema"]
        errors = [error.message for error in _validator(document, schema).iter_errors(answer)]
        assert not errors, errors

    matches("/api/games", "get", 200, client.get("/api/games").json())
    created = client.post("/api/games", json={"rules": "rummy300", "players": 2, "seed": 5})
    matches("/api/games", "post", 201, created.json())
    game_id = created.json()["id"]
    matches("/api/games/{id}", "get", 200, client.get(f"/api/games/{game_id}").json())
    matches("/api/games/{id}/hint", "get", 200, client.get(f"/api/games/{game_id}/hint").json())
    refused = client.post(f"/api/games/{game_id}/turn", json={"table": [["2C", "3C"]]})
    matches("/api/games/{id}/turn", "post", 422, refused.json())
    for _ in range(3):
        answer = client.post(f"/api/games/{game_id}/turn", json={"hint": True})
        matches("/api/games/{id}/turn", "post", 200, answer.json())
    matches("/api/games/{id}", "get", 404, client.get("/api/games/none").json())
    gin = client.post("/api/games", json={"rules": "gin", "seed": 5}).json()
    matches("/api/games", "post", 201, gin)
    answer = client.post(f"/api/games/{gin['id']}/turn", json={"source": "stock"})
    matches("/api/games/{id}/turn", "post", 200, answer.json())

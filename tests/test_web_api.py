"""The web API (``meldsat serve``): the commands' JSON objects over HTTP, and its safety limits."""

from __future__ import annotations

import importlib.util
import json
import socket
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

with warnings.catch_warnings():
    # Starlette recommends the httpx2 fork for its test client; httpx itself still works and is the
    # client the load test uses, so the suite keeps one HTTP client.
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.errors import MeldsatError
from meldsat.position import position_fields
from meldsat.web import answers
from meldsat.web.app import create_app
from meldsat.web.limits import Limits
from meldsat.web.openapi import SCHEMAS
from tests.conftest import CliRunner

EXAMPLE = Path(__file__).parent.parent / "examples" / "manipulation.txt"
TURN = {"table": "4S 5S 6S *=7S", "hand": "QH KH", "after": "4S 5S 6S | QH KH *=AH"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


def example_fields() -> dict[str, Any]:
    return position_fields(EXAMPLE.read_text(encoding="utf-8"))


def post_ok(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def library_codes() -> set[str]:
    """The codes of the library's errors: ``bad_input``, and any code a subclass names."""
    classes: list[type] = [MeldsatError]
    for cls in classes:
        classes.extend(cls.__subclasses__())
    return {str(getattr(cls, "code", "bad_input")) for cls in classes}


def assert_error(response: httpx.Response, status: int, code: str, *fragments: str) -> None:
    """An error object with this status and code (``bad_input``: any library error's code)."""
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    data = response.json()
    assert set(data) == {"schema_version", "error"}
    if code == "bad_input":
        assert data["error"]["code"] in library_codes()
    else:
        assert data["error"]["code"] == code
    assert "Traceback" not in response.text
    for fragment in fragments:
        assert fragment in data["error"]["message"]


def cli_json(run_cli: CliRunner, *args: str) -> dict[str, Any]:
    result = run_cli(*args, "--json")
    data = json.loads(result.out)
    assert isinstance(data, dict)
    return data


# --- the same objects as the command line --------------------------------------------------------


def test_hint_answer_is_the_hint_command_json(client: TestClient, run_cli: CliRunner) -> None:
    answer = post_ok(client, "/api/hint", example_fields())
    assert answer == cli_json(run_cli, "hint", "--position", str(EXAMPLE))
    assert answer["status"] == "optimal"
    assert answer["play"] == ["8D", "QH", "KH"]


def test_hint_all_answer_carries_the_best_partial_play_as_the_command_does(
    client: TestClient, run_cli: CliRunner
) -> None:
    answer = post_ok(client, "/api/hint", {"table": "7H 8H 9H", "hand": "10H KS", "all": True})
    assert answer == cli_json(run_cli, "hint", "--table", "7H 8H 9H", "--hand", "10H KS", "--all")
    assert answer["status"] == "no_move"
    assert answer["best_partial"]["cards_played"] == 1


def test_check_answer_is_the_check_command_json(client: TestClient, run_cli: CliRunner) -> None:
    answer = post_ok(client, "/api/check", TURN)
    expected = cli_json(
        run_cli, "check", "--table", TURN["table"], "--hand", TURN["hand"], "--after", TURN["after"]
    )
    assert answer == expected
    assert answer["legal"] is False
    assert [reason["code"] for reason in answer["reasons"]] == ["joker_redeclared"]


def test_validate_answer_is_the_validate_command_json(
    client: TestClient, run_cli: CliRunner
) -> None:
    body = {"rules": "rummikub", "table": "r12 r13 r1 | k5 b5 o5"}
    answer = post_ok(client, "/api/validate", body)
    assert answer == cli_json(run_cli, "validate", "--rules", "rummikub", "--table", body["table"])
    assert [meld["legal"] for meld in answer["melds"]] == [False, True]


def test_hint_table_is_a_legal_turn_for_the_rule_checker(client: TestClient) -> None:
    fields = example_fields()
    hint = post_ok(client, "/api/hint", fields)
    verdict = post_ok(client, "/api/check", {**fields, "after": hint["table"]})
    assert verdict["legal"] is True
    assert sorted(verdict["played"]) == sorted(hint["play"])


def test_hint_options_are_the_command_options(client: TestClient) -> None:
    body = {"rules": "rummikub", "hand": "k1 b1 o1 o2 o3"}
    assert post_ok(client, "/api/hint", body)["play"] == ["o1", "o2", "o3"]
    by_cards = post_ok(client, "/api/hint", {**body, "objective": "cards", "time_limit": 2})
    assert by_cards["objective"] == "cards"
    everything = post_ok(client, "/api/hint", {**body, "all": True})
    assert everything["status"] == "no_move"


def test_rules_lists_every_rule_set_with_its_player_range(client: TestClient) -> None:
    data = client.get("/api/rules").json()
    assert data["rule_sets"][0] == {
        "name": "manipulation",
        "notation": "cards",
        "min_players": 2,
        "max_players": 5,
    }
    assert "rummikub" in [rule_set["name"] for rule_set in data["rule_sets"]]


def test_one_rule_set_has_every_field_for_its_player_count(client: TestClient) -> None:
    two = client.get("/api/rules/manipulation?players=2").json()
    assert (two["rules"], two["players"]) == ("manipulation", 2)
    assert (two["fields"]["decks"], two["fields"]["jokers"]) == (1, 1)
    assert client.get("/api/rules/rummikub").json()["fields"]["initial_meld_points"] == 30
    assert_error(client.get("/api/rules/poker"), 422, "bad_input", "poker")
    assert_error(client.get("/api/rules/gin?players=5"), 422, "bad_input", "5")
    assert_error(client.get("/api/rules/gin?players=two"), 400, "bad_parameter", "players", "two")


# --- drawings for the page ------------------------------------------------------------------------


def test_hint_drawing_marks_the_cards_each_step_moves(client: TestClient) -> None:
    answer = post_ok(client, "/api/hint?draw=1", example_fields())
    drawing = answer.pop("drawing")
    assert len(drawing["before"]) == 3
    assert len(drawing["after"]) == len(answer["table"])
    assert 'data-card="2C"' in drawing["hand_left"][0]
    assert drawing["jokers"] == [{"meld": 3, "index": 0, "label": "joker = J♥"}]
    steps = drawing["steps"]
    assert [step["text"] for step in steps] == answer["changes"]
    # 7S leaves the sevens (meld 1, first card) for the end of 4S 5S 6S (meld 0, fourth card).
    assert steps[0]["before"] == [[1, 0]] and steps[0]["after"] == [[0, 3]]
    # QH KH come from the hand (-1; sorted hand 2C 8D QH KH) to the new meld.
    assert steps[3]["before"] == [[-1, 2], [-1, 3]] and steps[3]["after"] == [[3, 1], [3, 2]]
    for step in steps:
        for meld, index in step["after"]:
            assert 'class="card"' in drawing["after"][meld][index]


def test_check_drawing_says_which_melds_are_legal(client: TestClient) -> None:
    answer = post_ok(client, "/api/check?draw=1", TURN)
    assert answer["drawing"]["legal"] == [True, True]
    assert len(answer["drawing"]["table"]) == 2


def test_cards_draws_the_whole_deck_for_the_picker(client: TestClient) -> None:
    cards = client.get("/api/cards?rules=manipulation").json()["cards"]
    assert len(cards) == 53
    assert cards[-1]["text"] == "*"
    assert {"text": "10H", "label": "10♥"}.items() <= cards[22].items()
    gin = client.get("/api/cards?rules=gin").json()["cards"]
    assert len(gin) == 52  # no jokers in gin
    assert_error(client.get("/api/cards?rules=poker"), 422, "bad_input", "poker")


# --- bad input: the error object, never a traceback -----------------------------------------------


def test_bad_card_is_422_naming_the_token(client: TestClient) -> None:
    response = client.post("/api/hint", json={"table": "4S 5S 6S", "hand": "QX"})
    assert_error(response, 422, "bad_input", "QX")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"hand": "QH", "objective": "luck"}, "luck"),
        ({"hand": "QH", "time_limit": -1}, "time_limit"),
        ({"hand": "QH", "time_limit": "soon"}, "soon"),
        ({"hand": "QH", "all": "yes"}, "all"),
        ({"hand": "QH", "tabel": "QS"}, "tabel"),
        ({"hand": "QH", "rules": "poker"}, "poker"),
        ({"table": "8S 8H *"}, "joker"),
    ],
)
def test_bad_options_are_422(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    assert_error(client.post("/api/hint", json=body), 422, "bad_input", fragment)


def test_check_without_after_is_422(client: TestClient) -> None:
    assert_error(client.post("/api/check", json={"table": "QH KH AH"}), 422, "bad_input", "after")


@pytest.mark.parametrize(
    "body",
    [
        b"[1",
        b"[1, 2]",
        b'"QH"',
        b"\xff\xfe",
        b'{"hand": NaN}',
        b"[" * 60_000,
        b'{"hand": "QH", "hand": "KH"}',
        b'{"table": "QH KH AH", "hand": 1e999}',
    ],
)
def test_malformed_bodies_are_400(client: TestClient, body: bytes) -> None:
    assert_error(client.post("/api/validate", content=body), 400, "bad_json")


def test_body_over_the_limit_is_413() -> None:
    with TestClient(create_app(Limits(max_body_bytes=100))) as small:
        body = {"table": "QH KH AH " * 20}
        assert_error(small.post("/api/validate", json=body), 413, "too_large", "100 bytes")


def test_unknown_path_and_wrong_method_are_error_objects(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.get("/api/hint"), 405, "method_not_allowed")
    assert_error(client.get("/static/../pyproject.toml"), 404, "not_found")


def test_unexpected_failure_is_500_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: dict[str, Any], *, draw: bool) -> dict[str, Any]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(answers, "validate_answer", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        response = test_client.post("/api/validate", json={})
    assert_error(response, 500, "internal")
    assert "secret" not in response.text


# --- the bounded pool ----------------------------------------------------------------------------


def test_a_blocked_solve_stalls_nothing_and_a_full_queue_is_503(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    release = threading.Event()

    def slow(data: dict[str, Any], time_cap: float, *, draw: bool) -> dict[str, Any]:
        release.wait(10)
        return {"schema_version": 1}

    monkeypatch.setattr(answers, "hint_answer", slow)
    app = create_app(Limits(workers=1, queue=1))
    statuses: list[int] = []

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:

            async def post() -> None:
                statuses.append((await http.post("/api/hint", json={})).status_code)

            async with anyio.create_task_group() as group:
                group.start_soon(post)  # runs in the one solving worker
                group.start_soon(post)  # waits in the queue
                with anyio.fail_after(10):
                    while app.state.api.solve_lane.admitted < 2:
                        await anyio.sleep(0.01)
                # The event loop and the quick lane still answer while the solver is blocked.
                assert (await http.get("/api/rules")).status_code == 200
                quick = await http.post("/api/validate", json={"table": "QH KH AH"})
                assert quick.status_code == 200
                third = await http.post("/api/hint", json={})
                assert_error(third, 503, "busy")
                release.set()

    anyio.run(scenario)
    assert statuses == [200, 200]


# --- the description and the command ----------------------------------------------------------


def test_answers_carry_every_key_the_openapi_schemas_require(client: TestClient) -> None:
    document = client.get("/api/openapi.json").json()
    assert set(document["paths"]) >= {"/api/validate", "/api/check", "/api/hint", "/api/rules"}
    assert "/api/rules/{name}" in document["paths"]
    answers_by_schema = {
        "HintAnswer": post_ok(client, "/api/hint", example_fields()),
        "CheckAnswer": post_ok(client, "/api/check", TURN),
        "ValidateAnswer": post_ok(client, "/api/validate", {"table": "QH KH AH"}),
        "RulesAnswer": client.get("/api/rules").json(),
        "RuleSetAnswer": client.get("/api/rules/gin").json(),
        "Error": client.post("/api/hint", json={"hand": "QX"}).json(),
    }
    for name, answer in answers_by_schema.items():
        schema = SCHEMAS[name]
        assert set(schema["required"]) <= set(answer), name
        assert set(answer) <= set(schema["properties"]), name


def test_serve_listens_on_loopback_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from meldsat.cli import serve
    from meldsat.web import server

    calls: list[tuple[Limits, str, int]] = []
    monkeypatch.setattr(
        server, "serve", lambda limits, host, port: calls.append((limits, host, port))
    )
    monkeypatch.setattr(serve, "_check_address", lambda host, port: None)  # 8000 may be taken
    from meldsat.cli.main import main

    assert main(["serve"]) == 0
    assert calls == [(Limits(), "127.0.0.1", 8000)]


def test_serve_without_the_web_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, run_cli: CliRunner
) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *rest: None if name == "starlette" else real_find_spec(name, *rest),
    )
    result = run_cli("serve")
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert "meldsat[web]" in result.err


def test_page_is_served_with_a_strict_content_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "svg.card" in client.get("/cards.css").text


def test_solver_time_is_capped_by_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from meldsat.engine import search

    asked: list[float | None] = []
    real_best_play = search.best_play

    def spy(*args: Any, time_limit: float | None = None, **options: Any) -> Any:
        asked.append(time_limit)
        return real_best_play(*args, time_limit=time_limit, **options)

    monkeypatch.setattr(search, "best_play", spy)
    body = {"hand": "QH KH AH"}
    answers.hint_answer({**body, "time_limit": 600}, time_cap=2.5)
    answers.hint_answer({**body, "time_limit": 0.5}, time_cap=2.5)
    answers.hint_answer(body, time_cap=2.5)
    assert asked == [2.5, 0.5, 2.5]


def test_serve_on_a_taken_port_is_a_one_line_error(run_cli: CliRunner) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", "--port", str(port))
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert f"port {port}" in result.err
    bad_host = run_cli("serve", "--host", "no such host!")
    assert bad_host.code == 2
    assert "no such host!" in bad_host.err


def test_every_step_of_generated_positions_points_at_the_cards_it_moves() -> None:
    from benchmarks.positions import generate
    from meldsat.cards import Joker
    from meldsat.notation import parse_pieces

    for game in ("manipulation", "rummikub"):
        for _, position in generate(game, 8, seed=3):
            answer = answers.hint_answer(position.to_json(), time_cap=5.0, draw=True)
            drawing = answer["drawing"]
            notation = position.rules.notation
            for step in drawing["steps"]:
                assert step["after"], step["text"]
                assert len(step["before"]) == len(step["after"])
                for meld, index in step["after"]:
                    text = answer["table"][meld][index]
                    assert f'data-card="{text}"' in drawing["after"][meld][index]
                for (meld, index), (new_meld, new_index) in zip(
                    step["before"], step["after"], strict=True
                ):
                    old = position.hand[index] if meld == -1 else position.table[meld][index]
                    (new,) = parse_pieces(answer["table"][new_meld][new_index], notation)
                    # The same physical piece: the same card, or a joker on both sides.
                    assert old == new or (isinstance(old, Joker) and isinstance(new, Joker))


DOCUMENTED = Path(__file__).resolve().parent.parent / "solver" / "schema"


def _documented_keys(name: str) -> set[str]:
    schema = json.loads((DOCUMENTED / f"{name}.schema.json").read_text())
    answer = schema.get("$defs", {}).get("answer", schema)
    return set(answer["properties"])


@pytest.mark.parametrize(
    ("openapi_name", "documented_name"),
    [("HintAnswer", "hint"), ("CheckAnswer", "check"), ("ValidateAnswer", "validate")],
)
def test_the_api_describes_the_same_keys_as_the_command_line_schemas(
    openapi_name: str, documented_name: str
) -> None:
    """OpenAPI and solver/schema/ describe one vocabulary: a key in one is a key of the other."""
    described = set(SCHEMAS[openapi_name]["properties"]) - {"drawing"}
    assert described == _documented_keys(documented_name)

"""The JSON contract has one source, the schema files in solver/schema/: they agree with the code's
own constants, and the OpenAPI document built from them is valid and describes what the server
answers, drawings and errors included."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi
from referencing import Registry
from referencing.jsonschema import DRAFT202012

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from meldsat.games.registry import family_named, puzzle_rule_sets
from meldsat.house_rules import HOUSE_RULES
from meldsat.moves import REASON_CODES
from meldsat.rulesets import RULE_SET_NAMES
from meldsat.schema import SCHEMA_VERSION
from meldsat.schema.load import load_schema, schema_names
from meldsat.web.app import create_app
from meldsat.web.components import PREFIX, Location, component_name, reference_location
from meldsat.web.openapi import NAMED_SCHEMAS, POSTS, SCHEMAS, openapi_document
from tests.test_web_api import TURN, example_fields, library_codes
from tests.test_web_gin_puzzle_api import HAND, KNOCK, PUZZLE, SOLUTION

COMMON = load_schema("common")["$defs"]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every object in a JSON value, itself included."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


# --- the files and the code ----------------------------------------------------------------------


def test_the_schema_version_is_written_once_and_is_the_constant() -> None:
    assert COMMON["schema_version"] == {"const": SCHEMA_VERSION}
    seen = 0
    for name in schema_names():
        for node in _nodes(load_schema(name)):
            version = node.get("properties", {}).get("schema_version")
            if version is not None:
                seen += 1
                assert version == {"$ref": "urn:meldsat:common#/$defs/schema_version"}, name
    assert seen >= len(schema_names()) - 1  # every file but common.schema.json itself


def test_the_enumerations_are_the_codes_own() -> None:
    assert COMMON["rules"]["enum"] == list(RULE_SET_NAMES)
    assert COMMON["house_rules"]["propertyNames"]["enum"] == list(HOUSE_RULES)
    # The library's error codes, and the command line's own for a bad command line.
    assert set(COMMON["error"]["properties"]["code"]["enum"]) == library_codes() | {"usage"}
    check = load_schema("check")["properties"]["reasons"]["items"]["properties"]["code"]
    assert check["enum"] == list(REASON_CODES)
    puzzle = load_schema("puzzle-check")["properties"]["reasons"]["items"]["properties"]["code"]
    assert puzzle["enum"] == [*REASON_CODES, "goal", "not_the_solution"]
    assert load_schema("api")["$defs"]["GinRules"]["enum"] == list(family_named("gin").rule_sets)
    assert load_schema("puzzles")["$defs"]["rules"]["enum"] == list(puzzle_rule_sets())


def test_the_gin_endpoints_take_the_rule_sets_their_schema_names(client: TestClient) -> None:
    named = set(load_schema("api")["$defs"]["GinRules"]["enum"])
    for rules in RULE_SET_NAMES:
        answer = client.post("/api/deadwood", json={"hand": HAND, "upcard": "6H", "rules": rules})
        assert (answer.status_code == 200) is (rules in named), (rules, answer.text)


# --- the OpenAPI document built from them --------------------------------------------------------


def test_the_openapi_document_is_valid_and_every_reference_resolves() -> None:
    document = openapi_document()
    validate_openapi(document)
    references = [node["$ref"] for node in _nodes(document) if "$ref" in node]
    assert references
    for reference in references:
        assert reference.startswith(PREFIX)
        assert reference.removeprefix(PREFIX) in SCHEMAS, reference
    for schema in SCHEMAS.values():
        Draft202012Validator.check_schema(schema)


def _locations(node: Any, where: Callable[[str], Location]) -> Any:
    """``node`` with each ``$ref`` replaced by the location ``where`` gives it."""
    if isinstance(node, list):
        return [_locations(item, where) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: where(value) if key == "$ref" else _locations(value, where)
        for key, value in node.items()
    }


def _location_of(name: str) -> Location:
    """Where the component ``name`` comes from: its entry in the table, or its name read back."""
    if name in NAMED_SCHEMAS:
        return NAMED_SCHEMAS[name]
    file, _, key = name.partition(".")
    assert component_name((file, key or None)) == name
    return file, key or None


def _written(location: Location) -> dict[str, Any]:
    """The schema at ``location`` as the file has it, its references read as locations."""
    file, key = location
    source = load_schema(file)
    text = (
        source["$defs"][key]
        if key
        else {
            field: value
            for field, value in source.items()
            if field not in ("$schema", "$id", "$defs")
        }
    )
    read: dict[str, Any] = _locations(text, lambda reference: reference_location(reference, file))
    return read


def test_every_component_is_its_files_text_but_for_the_references_and_the_drawing() -> None:
    drawn = {post.answer for post in POSTS if post.drawn}
    assert drawn == {"ValidateAnswer", "CheckAnswer", "HintAnswer"}
    for name, component in SCHEMAS.items():
        built = _locations(
            component, lambda reference: _location_of(reference.removeprefix(PREFIX))
        )
        if name in drawn:
            assert built["properties"].pop("drawing") == {"$ref": _location_of("Drawing")}
        assert built == _written(_location_of(name)), name


@pytest.mark.parametrize(
    ("reference", "location"),
    [
        ("urn:meldsat:common#/$defs/piece", ("common", "piece")),
        ("#/$defs/rules", ("puzzles", "rules")),
        ("urn:meldsat:hint#", ("hint", None)),
        ("#", ("puzzles", None)),
    ],
)
def test_a_reference_is_a_file_or_one_of_its_defs(reference: str, location: Location) -> None:
    assert reference_location(reference, "puzzles") == location


@pytest.mark.parametrize(
    "reference", ["urn:meldsat:hint#/properties/play", "https://example.org/a.json", "#/$defs/"]
)
def test_a_reference_no_component_can_be_is_refused(reference: str) -> None:
    with pytest.raises(ValueError, match="no component"):
        reference_location(reference, "hint")


def _validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` whose ``#/components/...`` references resolve in ``document``."""
    registry: Registry[Any] = Registry().with_resource(
        "urn:openapi", DRAFT202012.create_resource(document)
    )
    reference = schema["$ref"].replace("#", "urn:openapi#", 1)
    return Draft202012Validator({"$ref": reference}, registry=registry)


CALLS = [
    ("/api/validate?draw=1", {"table": "QH KH AH | 7S 8S"}),
    ("/api/validate", {"table": "QH KH AH"}),
    ("/api/check?draw=1", TURN),
    ("/api/check", TURN),
    ("/api/hint?draw=1", None),  # the example position
    ("/api/hint", {"rules": "rummikub", "hand": "k1 b1 o1 o2 o3", "objective": "cards"}),
    ("/api/deadwood", {"hand": HAND, "upcard": "6H"}),
    ("/api/layoff", KNOCK),
    ("/api/puzzle/generate", {"level": "easy", "seed": 3}),
    ("/api/puzzle/solve", PUZZLE),
    ("/api/puzzle/grade", PUZZLE),
    ("/api/puzzle/check", {**PUZZLE, "answer": SOLUTION}),
    ("/api/hint", {"hand": "QX"}),  # 422
    ("/api/check", {"table": "QH KH AH"}),  # 422: no after
]


@pytest.mark.parametrize(("url", "body"), CALLS)
def test_each_request_and_answer_match_the_documents_schemas(
    client: TestClient, url: str, body: dict[str, Any] | None
) -> None:
    document = openapi_document()
    body = example_fields() if body is None else body
    path = url.partition("?")[0]
    operation = document["paths"][path]["post"]
    response = client.post(url, json=body)
    if response.status_code == 200:  # a request the server refuses may break its schema
        request = operation["requestBody"]["content"]["application/json"]["schema"]
        assert not list(_validator(document, request).iter_errors(body))
    answer = response.json()
    assert ("drawing" in answer) is url.endswith("draw=1")
    described = operation["responses"][str(response.status_code)]
    schema = described["content"]["application/json"]["schema"]
    errors = [error.message for error in _validator(document, schema).iter_errors(answer)]
    assert not errors, errors


@pytest.mark.parametrize(
    ("url", "status"),
    [("/api/rules", 200), ("/api/rules/gin?players=2", 200), ("/api/rules/poker", 422)],
)
def test_the_rules_answers_match_the_documents_schemas(
    client: TestClient, url: str, status: int
) -> None:
    document = openapi_document()
    template = "/api/rules/{name}" if url.count("/") == 3 else "/api/rules"
    response = client.get(url)
    assert response.status_code == status
    described = document["paths"][template]["get"]["responses"][str(status)]
    schema = described["content"]["application/json"]["schema"]
    assert not list(_validator(document, schema).iter_errors(response.json()))


def test_a_body_that_is_not_json_is_the_documents_400(client: TestClient) -> None:
    document = openapi_document()
    response = client.post("/api/validate", content=b"{not json")
    assert response.status_code == 400
    described = document["paths"]["/api/validate"]["post"]["responses"]["400"]
    schema = described["content"]["application/json"]["schema"]
    assert not list(_validator(document, schema).iter_errors(response.json()))


def test_python_dash_m_prints_the_document_the_server_serves(client: TestClient) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "meldsat.web.openapi"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(printed.stdout) == client.get("/api/openapi.json").json()

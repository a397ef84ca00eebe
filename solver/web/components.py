"""The OpenAPI document's ``components.schemas``, taken from the JSON Schema files of
``meldsat.schema``.

The API names each of its schemas (a request body, an answer, the error) after a file or one of a
file's ``$defs``. A ``$ref`` in them (``urn:meldsat:common#/$defs/piece``, or ``#/$defs/rules``
within the file) becomes a reference to one more component, named after where it is
(``common.piece``), so the document holds each shared part once, as the files do, and the files
stay the only place a schema is written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from meldsat.schema.load import load_schema

Location = tuple[str, str | None]
"""Where a schema is: a file's name (``hint``), one of its ``$defs`` (``None``: the whole file)."""

PREFIX = "#/components/schemas/"

# The only references the files make: to a file's $defs entry, or to a whole file, by its $id.
_REFERENCE = re.compile(
    r"(?:urn:meldsat:(?P<file>[a-z0-9-]+))?#(?:/\$defs/(?P<key>[A-Za-z0-9_]+))?"
)
# A file's own keys that mean nothing once it is a component among others.
_FILE_KEYS = ("$schema", "$id", "$defs")


def build_components(named: Mapping[str, Location]) -> dict[str, Any]:
    """Each named schema under its name, then every part they refer to under its location's name
    (a ``$ref`` to a named location points at that name)."""
    names = {location: name for name, location in named.items()}
    components: dict[str, Any] = {}
    pending = list(named.items())
    while pending:
        name, location = pending.pop(0)
        if name not in components:
            components[name] = _pointing_at_components(_read(location), location[0], names, pending)
    return components


def component_name(location: Location) -> str:
    """The name of a part no one named: ``common.piece``, or a whole file's own name."""
    file, key = location
    return file if key is None else f"{file}.{key}"


def reference_location(reference: str, file: str) -> Location:
    """Where a ``$ref`` written in ``<file>.schema.json`` points.

    Only a file's ``$defs`` entry or a whole file can be a component: any other reference (a JSON
    pointer into ``properties``, another document) is a ``ValueError``.
    """
    target = _REFERENCE.fullmatch(reference)
    if target is None:
        raise ValueError(f"{file}.schema.json: a $ref no component can be: {reference}")
    return target["file"] or file, target["key"]


def _read(location: Location) -> dict[str, Any]:
    file, key = location
    schema = load_schema(file)
    if key is not None:
        part: dict[str, Any] = schema["$defs"][key]
        return part
    return {name: value for name, value in schema.items() if name not in _FILE_KEYS}


def _pointing_at_components(
    node: Any, file: str, names: Mapping[Location, str], pending: list[tuple[str, Location]]
) -> Any:
    """``node`` with each ``$ref`` pointing at a component; the parts it names join ``pending``."""
    if isinstance(node, list):
        return [_pointing_at_components(item, file, names, pending) for item in node]
    if not isinstance(node, dict):
        return node
    result = {
        key: _pointing_at_components(value, file, names, pending) for key, value in node.items()
    }
    if "$ref" in node:
        location = reference_location(node["$ref"], file)
        name = names.get(location) or component_name(location)
        pending.append((name, location))
        result["$ref"] = PREFIX + name
    return result

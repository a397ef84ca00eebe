"""The JSON Schema files shipped in ``meldsat.schema``, read by name."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

SUFFIX = ".schema.json"


def schema_names() -> tuple[str, ...]:
    """The name of every schema file, sorted: ``hint`` for ``hint.schema.json``."""
    names = (entry.name for entry in files("meldsat.schema").iterdir())
    return tuple(sorted(name.removesuffix(SUFFIX) for name in names if name.endswith(SUFFIX)))


def load_schema(name: str) -> dict[str, Any]:
    """The schema in ``<name>.schema.json``, a new object at each call (callers may change it).

    A name no file has is a ``KeyError`` naming the files there are.
    """
    if name not in schema_names():
        raise KeyError(f"no schema {name!r} (schemas: {', '.join(schema_names())})")
    text = (files("meldsat.schema") / f"{name}{SUFFIX}").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema

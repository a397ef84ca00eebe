"""The version of every JSON form meldsat reads and writes: command answers, game logs, puzzle
files and the API. It changes only when a form changes in a way an old reader would misread.
Each form's JSON Schema is a file beside this module (``meldsat.schema.load`` reads them)."""

from __future__ import annotations

SCHEMA_VERSION = 1

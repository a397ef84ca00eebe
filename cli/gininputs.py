"""Options shared by the gin commands (``deadwood``, ``layoff``); their texts are read as cards by
``meldsat.answers.gin``."""

from __future__ import annotations

from typing import Annotated

import typer

GinRulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="gin, oklahoma-gin or hollywood-gin (default gin).")
]
UpcardOption = Annotated[
    str | None,
    typer.Option("--upcard", help="The face-up card on the discard pile, e.g. 7S."),
]
FirstUpcardOption = Annotated[
    str | None,
    typer.Option(
        "--first-upcard",
        help="Oklahoma: the hand's first upcard (sets the knock limit; default: --upcard).",
    ),
]

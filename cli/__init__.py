"""The ``meldsat`` command: a thin Typer layer over the ``meldsat`` library."""

"""``python -m meldsat``: the same command as ``meldsat``."""

from meldsat.cli.entry import run

if __name__ == "__main__":
    run()

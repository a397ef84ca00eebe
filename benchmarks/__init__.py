"""Benchmarks of the meldsat engine against the peer solver ``rummikub-solver`` (not shipped)."""

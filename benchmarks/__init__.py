"""meldsat's benchmarks (not installed): ``python -m benchmarks`` from the repository root lists
them, ``python -m benchmarks NAME`` runs one (``benchmarks/registry.py``)."""

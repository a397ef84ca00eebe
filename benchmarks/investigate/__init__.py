"""The worst-case investigations: hunting the slowest positions, timing them again, and finding out
why they are slow and what would make them faster (``python -m benchmarks`` lists them)."""

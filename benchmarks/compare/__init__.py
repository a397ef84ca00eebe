"""The standing comparisons: meldsat against its peers, or against its own targets, on the same
inputs in one run (``python -m benchmarks`` lists them)."""

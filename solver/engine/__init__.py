"""The exact engine: a CP-SAT model of a rearrangement, solved and turned back into melds."""

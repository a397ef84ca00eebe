"""The parts a rearrangement model is composed of, each a small class over one shared CP-SAT model.

A part adds its own variables and constraints when it is built, exposes the terms other parts link
to (pieces per card, melds kept, hand pieces), and reads its share of a solution back into plain
numbers with ``extract``. ``meldsat.engine.model`` chooses the parts a rule set needs.
"""

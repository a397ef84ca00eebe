"""Playable games on the meldsat library: dealing, turns, bots, game logs, replay and simulation.

One game-agnostic engine (:mod:`meldsat.games.engine`) runs every game: a seeded deal, the turn
loop, the game log written as it goes, and a replay that re-checks every turn with the rule checker
and recomputes every score. Each game (Manipulation Rummy, the 500 family, the gin family) is one
module that fills in the :class:`~meldsat.games.engine.Game` class, and each game family is one
record in :mod:`meldsat.games.registry`, where the commands look it up.
"""

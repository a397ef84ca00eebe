"""Bots head to head: meldsat's gin bots against OpenSpiel's and RLCard's; table bots too.

Run from the repository root, with the peers installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks bots openspiel --bots racer,knocker --hands 1000 --seed 1
    python -m benchmarks bots rlcard --bots racer,knocker --hands 1000 --seed 1
    python -m benchmarks bots table --rules manipulation --bot expert --against hoarder --games 40

- ``openspiel``: each hand is one game of OpenSpiel's ``gin_rummy`` (its deal, its rules checking
  every action, its scoring: knock, gin and undercut bonuses of 25) between the meldsat bot
  (:mod:`benchmarks.common.openspiel_gin`) and ``SimpleGinRummyBot``.
- ``rlcard``: each hand is one hand of meldsat's gin game (dealt from ``seeded_rng(seed, hand,
  "deal")``, scored by meldsat's gin scoring) between the meldsat bot and RLCard's novice rule
  agent deciding through its own code (:mod:`benchmarks.common.rlcard_gin`); RLCard's own game
  scores hands for learning, not by the rules of gin.
- ``table``: ``meldsat simulate``'s games of a shared-table rule set, one ``--bot`` against
  ``players - 1`` copies of ``--against``, the bot's seat moving round the table game by game.

Hand ``i`` (from 1) puts the meldsat bot in seat ``i % 2``, so each side starts half the hands.
A hand is decided when someone scores (a dead hand is not); the win share is of decided hands
with its Wilson 95 % interval, and points a hand are the bot's points less the other side's, over
every hand. CPU seconds are this process's (``time.process_time``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.common.peer import missing_peer
from benchmarks.common.units import command_line, program
from meldsat.games.agents import GinAgent
from meldsat.games.deck import seeded_rng, shuffled_deck
from meldsat.games.gin import GinGame
from meldsat.games.gin_bots import make_gin_bot
from meldsat.games.log import NullLog
from meldsat.games.registry import new_game
from meldsat.games.simulate import simulate, wilson_interval
from meldsat.rulesets import get_rules

COMMAND = program("bots")


@dataclass
class Tally:
    """One pairing's hands (or games): won, lost, dead, the bot's net points, CPU seconds."""

    bot: str
    opponent: str
    played: int = 0
    won: float = 0.0
    lost: float = 0.0
    points: float = 0.0
    seconds: float = 0.0

    def add(self, net: float) -> None:
        """Count one hand whose net points for the bot are ``net``."""
        self.played += 1
        self.points += net
        self.won += net > 0
        self.lost += net < 0

    def to_json(self) -> dict[str, Any]:
        """The tally with its share and interval."""
        decided = self.won + self.lost
        low, high = wilson_interval(self.won, int(decided))
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "played": self.played,
            "decided": decided,
            "won": self.won,
            "share": self.won / decided if decided else 0.0,
            "share_95": [round(low, 4), round(high, 4)],
            "points_per_hand": self.points / self.played if self.played else 0.0,
            "cpu_s_per_hand": self.seconds / self.played if self.played else 0.0,
        }


def gin_bot(name: str, rng: random.Random) -> GinAgent:
    """The meldsat gin bot ``name``, or one of the benchmark's oracles
    (:mod:`benchmarks.common.oracle_gin`)."""
    from benchmarks.common.oracle_gin import make_oracle

    return make_oracle(name, rng) or make_gin_bot(name, rng)


def openspiel_hand(bot: str, seed: int, number: int) -> float:
    """Hand ``number``: the bot's returns in OpenSpiel's gin_rummy against SimpleGinRummyBot."""
    try:
        import pyspiel
    except ImportError:
        missing_peer("open-spiel")
    from benchmarks.common.openspiel_gin import play_hand

    player = number % 2
    game = pyspiel.load_game("gin_rummy")
    peer = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - player)
    agent = gin_bot(bot, seeded_rng(seed, number, "bot"))
    return play_hand(agent, get_rules("gin"), player, peer, seeded_rng(seed, number, "deal"))


def rlcard_hand(bot: str, seed: int, number: int) -> float:
    """Hand ``number``: the bot's net points in meldsat's gin game against RLCard's novice agent."""
    try:
        import rlcard  # noqa: F401 (only whether it is installed)
    except ImportError:
        missing_peer("rlcard")
    from benchmarks.common.oracle_gin import tell_oracle
    from benchmarks.common.rlcard_gin import NoviceSeat

    seat = number % 2
    game = new_game("gin", 2)
    assert isinstance(game, GinGame)
    agents: list[GinAgent] = [
        gin_bot(bot, seeded_rng(seed, number, "bot")),
        NoviceSeat("rlcard-novice", seeded_rng(seed, number, "peer")),
    ]
    if seat == 1:
        agents.reverse()
    # Dealer 0: seat 1 plays first, so the bot starts every other hand.
    game.start_round(1, 0, shuffled_deck(game.rules, seeded_rng(seed, number, "deal")))
    while not game.round_over:
        agent = agents[game.to_move]
        tell_oracle(agent, game, agents[1 - game.to_move])
        game.play_turn(game.choose_turn(agent))
    scores = game.end_round()["scores"]
    return float(scores[seat] - scores[1 - seat])


def gin_pairing(
    bot: str, opponent: str, play: Callable[[str, int, int], float], hands: int, seed: int
) -> Tally:
    """``hands`` hands of ``bot`` against ``opponent``."""
    tally = Tally(bot, opponent)
    start = time.process_time()
    for number in range(1, hands + 1):
        tally.add(play(bot, seed, number))
    tally.seconds = time.process_time() - start
    return tally


def table_pairing(
    rules: str, bot: str, against: str, *, players: int, games: int, seed: int, time_limit: float
) -> Tally:
    """``games`` games of ``rules``: ``bot`` in one seat, ``against`` in the others; the bot's
    seat moves one to the left each game (each seat's games are a ``simulate`` run)."""
    tally = Tally(bot, f"{players - 1} x {against}")
    start = time.process_time()
    for seat in range(players):
        count = len(range(seat, games, players))
        if not count:
            continue
        bots = [against] * players
        bots[seat] = bot
        result = simulate(rules, bots, count, seed * 100 + seat, NullLog(), time_limit=time_limit)
        stats = result.seats[seat]
        tally.played += count
        tally.won += stats.wins
        tally.lost += count - stats.wins
        others = [s for index, s in enumerate(result.seats) if index != seat]
        mine = sum(stats.final_scores)
        theirs = sum(sum(s.final_scores) for s in others) / len(others)
        tally.points += mine - theirs
    tally.seconds = time.process_time() - start
    return tally


def report(tallies: Sequence[Tally], unit: str) -> str:
    """The tallies as a table."""
    lines = [
        f"| bot | against | {unit}s | decided | won | win share (95 % CI) | net points a {unit} "
        f"| CPU s a {unit} |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for tally in tallies:
        row = tally.to_json()
        low, high = row["share_95"]
        lines.append(
            f"| {tally.bot} | {tally.opponent} | {row['played']} | {row['decided']:g} "
            f"| {row['won']:g} | {100 * row['share']:.1f} % ({100 * low:.1f}-{100 * high:.1f}) "
            f"| {row['points_per_hand']:+.2f} | {row['cpu_s_per_hand']:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Parse the options, play the pairings, print the table (or JSON)."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.partition("\n")[0])
    parser.add_argument("peer", choices=("openspiel", "rlcard", "table"))
    parser.add_argument("--bots", default="racer,knocker", help="meldsat gin bots")
    parser.add_argument("--hands", type=int, default=200, help="gin hands a pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="manipulation", help="table: the rule set")
    parser.add_argument("--bot", default="expert", help="table: the bot measured")
    parser.add_argument("--against", default="hoarder", help="table: the other seats' bot")
    parser.add_argument("--players", type=int, default=4, help="table: seats")
    parser.add_argument("--games", type=int, default=40, help="table: games")
    parser.add_argument("--time-limit", type=float, default=5.0, help="table: hint seconds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.peer == "table":
        tallies = [
            table_pairing(
                args.rules,
                args.bot,
                args.against,
                players=args.players,
                games=args.games,
                seed=args.seed,
                time_limit=args.time_limit,
            )
        ]
        unit = "game"
    else:
        play = openspiel_hand if args.peer == "openspiel" else rlcard_hand
        opponent = "SimpleGinRummyBot" if args.peer == "openspiel" else "RLCard novice"
        tallies = [
            gin_pairing(bot.strip(), opponent, play, args.hands, args.seed)
            for bot in args.bots.split(",")
        ]
        unit = "hand"
    if args.json:
        print(json.dumps([tally.to_json() for tally in tallies]))
    else:
        print(f"command: {command_line(COMMAND, argv)}")
        print(report(tallies, unit))
    return 0

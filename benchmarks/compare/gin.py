"""Gin deadwood side by side: meldsat against RLCard and OpenSpiel on the same random hands.

Run from the repository root, with the peers installed (``pip install -r
benchmarks/requirements.txt``)::

    python -m benchmarks gin --hands 20000 --seed 1

For every random 10-card hand (drawn with ``random.Random(seed)``) the least deadwood is computed by

- meldsat: ``meldsat.gin.least_deadwood(cards)`` (the value) and ``analyse_hand(cards, gin)``
  (checks, the best arrangement, knock and gin flags);
- RLCard (pure Python): ``get_best_meld_clusters(hand)`` then ``get_deadwood_count`` on the first
  best cluster (the hand's total value when it holds no meld);
- OpenSpiel (C++ through pybind11): ``GinRummyUtils(13, 4, 10).min_deadwood(hand)``.

Only the call is timed, with the process CPU clock (``time.process_time_ns``) around each hand; the
clock's own cost (the median of empty timed calls) is subtracted. Each side's input is built before
timing. The answers of the three are compared on every 10-card hand.

Then the same number of random 11-card hands: meldsat's least deadwood after the best discard
(every discard weighed) against OpenSpiel's ``min_deadwood`` of the 11 cards (RLCard has no 11-card
answer). Every hand where OpenSpiel's answer is higher is written to ``--too-high FILE`` (JSON
lines), with meldsat's discard and melds; those melds pass the rule checker
(``meldsat.melds.is_legal_meld``), so the lower deadwood is achievable and OpenSpiel's is too high.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks.common.peer import missing_peer
from benchmarks.common.units import percentile, program
from meldsat.cards import ALL_CARDS, Card
from meldsat.files import write_text_atomic
from meldsat.gin import analyse_hand, least_deadwood
from meldsat.melds import is_legal_meld
from meldsat.rulesets import get_rules

COMMAND = program("gin")
GIN = get_rules("gin")
_RLCARD_RANKS = "A23456789TJQK"
_SUITS = "SHDC"
TIED_GROUPS = "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H"


def random_hands(count: int, size: int, rng: random.Random) -> list[list[Card]]:
    """``count`` hands of ``size`` distinct cards."""
    return [rng.sample(ALL_CARDS, size) for _ in range(count)]


def dense_hands(count: int, size: int, rng: random.Random) -> list[list[Card]]:
    """Hands from five neighbouring ranks (20 cards), where melds overlap and tie often."""
    hands = []
    for _ in range(count):
        low = rng.randint(1, 9)
        pool = [card for card in ALL_CARDS if low <= card.rank < low + 5]
        hands.append(rng.sample(pool, size))
    return hands


def clock_overhead(samples: int = 20000) -> int:
    """The median cost of one empty timed call, in nanoseconds."""
    clock = time.process_time_ns
    costs = []
    for _ in range(samples):
        start = clock()
        costs.append(clock() - start)
    return int(statistics.median(costs))


def time_each(
    function: Callable[[Any], int], inputs: Sequence[Any], overhead: int
) -> tuple[list[int], list[float]]:
    """Every answer, and every call's CPU time in microseconds (clock cost subtracted)."""
    clock = time.process_time_ns
    answers: list[int] = []
    times: list[float] = []
    function(inputs[0])  # warm-up, untimed
    for item in inputs:
        start = clock()
        answer = function(item)
        elapsed = clock() - start
        answers.append(answer)
        times.append(max(elapsed - overhead, 0) / 1000)
    return answers, times


def rlcard_function() -> tuple[Callable[[Any], int], Callable[[list[Card]], Any]]:
    """RLCard's least deadwood of 10 cards, and the converter to its cards."""
    try:
        from rlcard.games.gin_rummy.utils import utils
        from rlcard.games.gin_rummy.utils.melding import get_best_meld_clusters
    except ImportError:
        missing_peer("rlcard")

    def deadwood(hand: Any) -> int:
        clusters = get_best_meld_clusters(hand)
        if not clusters:
            return sum(utils.get_deadwood_value(card) for card in hand)
        return int(utils.get_deadwood_count(hand, clusters[0]))

    def convert(cards: list[Card]) -> Any:
        return [
            utils.card_from_text(_RLCARD_RANKS[card.rank - 1] + _SUITS[card.suit]) for card in cards
        ]

    return deadwood, convert


def openspiel_function() -> tuple[Callable[[Any], int], Callable[[list[Card]], Any]]:
    """OpenSpiel's ``min_deadwood``, and the converter to its card numbers."""
    try:
        import pyspiel
    except ImportError:
        missing_peer("open-spiel")

    openspiel_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    min_deadwood = openspiel_utils.min_deadwood

    def convert(cards: list[Card]) -> Any:
        texts = [_RLCARD_RANKS[card.rank - 1] + _SUITS[card.suit].lower() for card in cards]
        return openspiel_utils.card_strings_to_card_ints(texts)

    return (lambda hand: int(min_deadwood(hand))), convert


def summary(times: Sequence[float]) -> str:
    """Median, p90 and mean in microseconds."""
    ordered = sorted(times)
    p90 = percentile(ordered, 90)
    return f"{statistics.median(ordered):.2f} / {p90:.2f} / {statistics.fmean(ordered):.2f}"


def main(argv: Sequence[str]) -> int:
    """Run the comparison and print a Markdown report."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--too-high", default=None, help="JSON lines of OpenSpiel's too-high hands")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tens = random_hands(args.hands, 10, rng)
    elevens = random_hands(args.hands, 11, rng)
    dense = dense_hands(args.hands, 11, rng)
    overhead = clock_overhead()

    rlcard_deadwood, to_rlcard = rlcard_function()
    spiel_deadwood, to_spiel = openspiel_function()
    results: dict[str, tuple[list[int], list[float]]] = {}
    results["meldsat least_deadwood"] = time_each(least_deadwood, tens, overhead)
    results["meldsat analyse_hand"] = time_each(
        lambda hand: analyse_hand(hand, GIN).arrangement.deadwood, tens, overhead
    )
    results["RLCard"] = time_each(rlcard_deadwood, [to_rlcard(hand) for hand in tens], overhead)
    results["OpenSpiel"] = time_each(spiel_deadwood, [to_spiel(hand) for hand in tens], overhead)

    reference = results["meldsat least_deadwood"][0]
    print(f"# Gin deadwood: {args.hands} random hands, seed {args.seed}\n")
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs "
        f"(shared); rlcard {metadata.version('rlcard')}, open-spiel "
        f"{metadata.version('open-spiel')}; clock cost subtracted {overhead} ns.\n"
    )
    print("10 cards, CPU time per hand in µs (median / p90 / mean), agreement with meldsat:\n")
    print("| solver | median / p90 / mean µs | same answer as meldsat |")
    print("| --- | --- | --- |")
    for name, (answers, times) in results.items():
        same = sum(a == b for a, b in zip(answers, reference, strict=True))
        print(f"| {name} | {summary(times)} | {same} of {len(answers)} |")
    medians = {name: statistics.median(times) for name, (_, times) in results.items()}
    fast = medians["meldsat least_deadwood"]
    print(
        f"\nMedian ratios: RLCard / meldsat least_deadwood {medians['RLCard'] / fast:.2f}; "
        f"OpenSpiel / meldsat least_deadwood {medians['OpenSpiel'] / fast:.2f}; RLCard / meldsat "
        f"analyse_hand {medians['RLCard'] / medians['meldsat analyse_hand']:.2f}.\n"
    )
    tied = [card for card in ALL_CARDS if str(card) in TIED_GROUPS.split()]
    spiel_deadwood, to_spiel = openspiel_function()
    print(
        f"The tied-groups hand `{TIED_GROUPS}`: OpenSpiel {spiel_deadwood(to_spiel(tied))}, "
        f"meldsat {analyse_hand(tied, GIN).arrangement.deadwood} (discard "
        f"{analyse_hand(tied, GIN).discard}).\n"
    )
    too_high = _eleven_cards("random 11-card hands", elevens, overhead)
    too_high += _eleven_cards("dense 11-card hands (five neighbouring ranks)", dense, overhead)
    if args.too_high:
        _write_lines(Path(args.too_high), too_high)
        print(f"\nAll {len(too_high)} written to `{args.too_high}`.")
    return 0


def _eleven_cards(title: str, hands: list[list[Card]], overhead: int) -> list[dict[str, Any]]:
    spiel_deadwood, to_spiel = openspiel_function()
    analyses = [analyse_hand(hand, GIN) for hand in hands]
    _, meldsat_times = time_each(
        lambda hand: analyse_hand(hand, GIN).arrangement.deadwood, hands, overhead
    )
    spiel_answers, spiel_times = time_each(
        spiel_deadwood, [to_spiel(hand) for hand in hands], overhead
    )
    too_high = []
    too_low = 0
    for hand, analysis, spiel in zip(hands, analyses, spiel_answers, strict=True):
        best = analysis.arrangement
        assert all(is_legal_meld(meld, GIN) for meld in best.melds)
        assert best.deadwood == sum(GIN.card_value(card) for card in best.deadwood_cards)
        if spiel > best.deadwood:
            too_high.append((hand, analysis, spiel))
        too_low += spiel < best.deadwood
    print(
        f"{title}: least deadwood after the best discard, CPU µs median / p90 / mean: meldsat "
        f"analyse_hand {summary(meldsat_times)}, OpenSpiel min_deadwood {summary(spiel_times)}.\n"
    )
    print(
        f"OpenSpiel's answer is too high on {len(too_high)} of {len(hands)} hands and lower than "
        f"meldsat's on {too_low}."
    )
    if too_high:
        print("The first ones (hand: OpenSpiel, meldsat with its discard and melds):\n")
    for _, analysis, spiel in too_high[:5]:
        melds = " | ".join(" ".join(map(str, meld)) for meld in analysis.arrangement.melds)
        print(
            f"- `{' '.join(map(str, analysis.hand))}`: OpenSpiel {spiel}, meldsat "
            f"{analysis.arrangement.deadwood} discarding {analysis.discard} ({melds})"
        )
    print()
    return [
        {
            "hand": [str(card) for card in analysis.hand],
            "openspiel": spiel,
            "meldsat": analysis.arrangement.deadwood,
            "discard": str(analysis.discard),
            "melds": [[str(card) for card in meld] for meld in analysis.arrangement.melds],
        }
        for _, analysis, spiel in too_high
    ]


def _write_lines(path: Path, items: list[dict[str, Any]]) -> None:
    """JSON lines, written atomically."""
    write_text_atomic(path, "".join(json.dumps(item) + "\n" for item in items))

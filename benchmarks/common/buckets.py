"""Rummikub positions by bucket: a table size (or range) by a rack size, with a number of jokers
in the rack; the engine's speed by position size is compared on them, and the CP-SAT floor is
measured on the same ones (``python -m benchmarks buckets``, ``python -m benchmarks solve-floor``).

Position ``i`` of a bucket depends only on the seed, the bucket and ``i``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from dataclasses import dataclass

from benchmarks.positions import Shape, build_position
from meldsat.position import Position
from meldsat.rulesets import get_rules

TABLES = ("10", "20", "40", "60", "80-100")
RACKS = (5, 10, 15, 25)
RACK_JOKERS = (0, 1)
PEER_BACKEND = "GLPK_MI"  # the peer's backend in both, its model compiled once and reused


@dataclass(frozen=True)
class Bucket:
    """One cell of the table: a table size (or range), a rack size and the jokers in the rack."""

    table: str
    rack: int
    jokers: int

    def table_range(self, total: int) -> tuple[int, int]:
        """The table sizes this bucket draws from, for a game of ``total`` pieces."""
        low, _, high = self.table.partition("-")
        top = min(int(high or low), total - self.rack)
        return int(low), top

    @property
    def name(self) -> str:
        return f"table {self.table}, rack {self.rack}, {self.jokers} rack joker(s)"


def bucket_position(bucket: Bucket, seed: int, index: int) -> Position:
    """Position ``index`` of a bucket: a Rummikub table and rack of the bucket's sizes."""
    rules = get_rules("rummikub")
    rng = random.Random(
        f"meldsat-buckets/{seed}/{bucket.table}/{bucket.rack}/{bucket.jokers}/{index}"
    )
    low, high = bucket.table_range(52 * rules.decks + rules.jokers)
    shape = Shape(rng.randint(low, high), bucket.rack, hand_jokers=bucket.jokers)
    return build_position(rules, rng, shape)


def bucket_positions(bucket: Bucket, seed: int, count: int) -> Iterator[tuple[str, Position]]:
    """``count`` positions of a bucket with their ids (``b-1-t40-r10-j1-7``)."""
    for index in range(count):
        ident = f"b-{seed}-t{bucket.table}-r{bucket.rack}-j{bucket.jokers}-{index}"
        yield ident, bucket_position(bucket, seed, index)


def add_bucket_options(parser: argparse.ArgumentParser) -> None:
    """The options choosing the positions: how many a bucket, the seed, and the buckets."""
    parser.add_argument("--positions", type=int, default=30, help="positions a bucket")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", default=",".join(TABLES), help="table sizes or ranges")
    parser.add_argument("--racks", default=",".join(map(str, RACKS)), help="rack sizes")
    parser.add_argument("--rack-jokers", default=",".join(map(str, RACK_JOKERS)))


def chosen_buckets(args: argparse.Namespace) -> list[Bucket]:
    """The buckets the options of :func:`add_bucket_options` name, rack jokers outermost."""
    tables = [text.strip() for text in args.tables.split(",") if text.strip()]
    racks = [int(text) for text in args.racks.split(",") if text.strip()]
    jokers = [int(text) for text in args.rack_jokers.split(",") if text.strip()]
    return [Bucket(t, r, j) for j in jokers for t in tables for r in racks]

"""The maximum-weight bipartite matching against a brute-force search over all matchings."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from meldsat.matching import max_weight_matching

edges = st.dictionaries(
    st.tuples(st.integers(0, 4), st.integers(0, 4)), st.integers(1, 6), max_size=14
)


def brute_force_best(weights: dict[tuple[int, int], int]) -> int:
    """The heaviest total over every set of edges that shares no node."""
    best = 0
    pairs = list(weights)
    for size in range(1, min(5, len(pairs)) + 1):
        for chosen in itertools.combinations(pairs, size):
            lefts = {left for left, _ in chosen}
            rights = {right for _, right in chosen}
            if len(lefts) == len(rights) == size:
                best = max(best, sum(weights[pair] for pair in chosen))
    return best


@settings(max_examples=150, deadline=None)
@given(edges)
def test_matching_is_a_heaviest_matching(weights: dict[tuple[int, int], int]) -> None:
    matching = max_weight_matching(weights)
    assert len(set(matching.values())) == len(matching)  # no right node twice
    assert all((left, right) in weights for left, right in matching.items())
    assert sum(weights[pair] for pair in matching.items()) == brute_force_best(weights)
    assert max_weight_matching(weights) == matching  # the same edges, the same matching


def test_no_edges_no_matching() -> None:
    assert max_weight_matching({}) == {}

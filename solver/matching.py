"""Maximum-weight matching in a small bipartite graph, exactly (the Hungarian method).

Used to pair the melds of a table before and after a turn by the cards they share, and to give
each new meld of a 500 rummy turn its own hand card. The graphs have a few dozen nodes at most, so
an O(n³) assignment in plain Python takes microseconds, where loading a graph library would take
a tenth of a second.
"""

from __future__ import annotations

from collections.abc import Mapping


def max_weight_matching(weights: Mapping[tuple[int, int], int]) -> dict[int, int]:
    """A matching of left to right nodes of greatest total weight (left -> right).

    ``weights[left, right]`` > 0 are the edges; a node without edges stays unmatched, and so does
    any node whose best partner is none. The same edges always give the same matching.
    """
    lefts = sorted({left for left, _ in weights})
    rights = sorted({right for _, right in weights})
    if not lefts:
        return {}
    size = max(len(lefts), len(rights))
    # Square cost matrix (rows: left nodes, columns: right nodes), padded with zero-weight pairs;
    # minimising the negated weights maximises the weight.
    cost = [
        [
            -weights.get((lefts[row], rights[col]), 0)
            if row < len(lefts) and col < len(rights)
            else 0
            for col in range(size)
        ]
        for row in range(size)
    ]
    column_of = _assignment(cost)
    return {
        lefts[row]: rights[col]
        for row, col in enumerate(column_of)
        if row < len(lefts) and col < len(rights) and weights.get((lefts[row], rights[col]), 0) > 0
    }


def _assignment(cost: list[list[int]]) -> list[int]:
    """The column assigned to each row in a least-cost assignment of a square matrix.

    The shortest augmenting path form of the Hungarian method, with row and column potentials.
    """
    size = len(cost)
    infinity = float("inf")
    row_potential = [0.0] * (size + 1)
    column_potential = [0.0] * (size + 1)
    row_of_column = [0] * (size + 1)  # 1-based rows; column 0 is the augmenting path's root
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        row_of_column[0] = row
        column = 0
        least = [infinity] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[column] = True
            current_row = row_of_column[column]
            delta = infinity
            next_column = 0
            for candidate in range(1, size + 1):
                if used[candidate]:
                    continue
                reduced = (
                    cost[current_row - 1][candidate - 1]
                    - row_potential[current_row]
                    - column_potential[candidate]
                )
                if reduced < least[candidate]:
                    least[candidate] = reduced
                    way[candidate] = column
                if least[candidate] < delta:
                    delta = least[candidate]
                    next_column = candidate
            for candidate in range(size + 1):
                if used[candidate]:
                    row_potential[row_of_column[candidate]] += delta
                    column_potential[candidate] -= delta
                else:
                    least[candidate] -= delta
            column = next_column
            if row_of_column[column] == 0:
                break
        while column:
            previous = way[column]
            row_of_column[column] = row_of_column[previous]
            column = previous
    column_of = [0] * size
    for column in range(1, size + 1):
        column_of[row_of_column[column] - 1] = column - 1
    return column_of

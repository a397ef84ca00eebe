"""The uniqueness proof against brute force: every final table of a small puzzle, enumerated.

Hypothesis draws small positions (at most ten pieces, jokers on the table and in the hand); the
brute force splits every piece (the table's and the whole hand) into legal melds in every possible
way, declaring each joker every way the meld checker allows, keeps the splits that respect joker
locking, and collects their canonical forms. No CP-SAT: it must agree with ``solve_puzzle`` on
none / unique / several, and on the solution itself when it is unique.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from meldsat.cards import Card, Joker, Piece, piece_sort_key
from meldsat.melds import judge_meld, meld_shapes
from meldsat.position import Position
from meldsat.puzzles import Canonical, Puzzle, canonical_form
from meldsat.puzzles.grade import grade_puzzle
from meldsat.puzzles.solve import Verdict, solve_puzzle
from tests.oracle import group_pairs, locking_needs
from tests.strategies import GAMES, positions, table_melds


def final_tables(puzzle: Puzzle) -> Iterator[list[tuple[Piece, ...]]]:
    """Every final table (melds with jokers declared) that plays the whole hand legally."""
    rules = puzzle.rules
    table_pieces = [piece for meld in puzzle.table for piece in meld]
    before = Counter(p.declared for p in table_pieces if isinstance(p, Joker) and p.declared)
    wild = [Joker() if isinstance(p, Joker) else p for p in [*table_pieces, *puzzle.hand]]
    real_end = Counter(p for p in wild if isinstance(p, Card))
    # Joker locking, with Rummikub's group jokers freed by either missing colour (tests/oracle.py).
    pairs = group_pairs(puzzle.table) if rules.group_joker_either_missing else Counter()
    needs = locking_needs(_keys(before), _keys(real_end), pairs)

    def search(
        remaining: tuple[Piece, ...], melds: list[tuple[Piece, ...]]
    ) -> Iterator[list[tuple[Piece, ...]]]:
        if not remaining:
            after = Counter(p.declared for meld in melds for p in meld if isinstance(p, Joker))
            if any(all(after[Card(*card)] >= n for card, n in need) for need in needs):
                yield melds
            return
        first, rest = remaining[0], remaining[1:]
        tried: set[tuple[Piece, ...]] = set()
        for extra in range(2, len(rest) + 1):
            for chosen in itertools.combinations(range(len(rest)), extra):
                others = tuple(rest[i] for i in chosen)
                if others in tried:
                    continue
                tried.add(others)
                meld = (first, *others)
                known = [p for p in meld if isinstance(p, Card)]
                jokers = len(meld) - len(known)
                left = tuple(p for i, p in enumerate(rest) if i not in chosen)
                for _, cards in meld_shapes(known, jokers, rules):
                    declared: tuple[Piece, ...] = (*known, *(Joker(card) for card in cards))
                    yield from search(left, [*melds, declared])

    yield from search(tuple(sorted(wild, key=piece_sort_key)), [])


def _keys(counts: Counter[Card]) -> Counter[tuple[int, int]]:
    return Counter({(card.rank, card.suit): count for card, count in counts.items()})


def brute_force_solutions(puzzle: Puzzle, limit: int = 2) -> set[Canonical]:
    """Up to ``limit`` distinct canonical forms of final tables that play the whole hand."""
    found: set[Canonical] = set()
    for melds in final_tables(puzzle):
        found.add(canonical_form(melds, puzzle.rules))
        if len(found) >= limit:
            break
    return found


def _shown(meld: Sequence[Piece]) -> Counter[Card]:
    return Counter(p.declared if isinstance(p, Joker) else p for p in meld)  # type: ignore[misc]


def _hosts(original: tuple[Piece, ...], final: tuple[Piece, ...], puzzle: Puzzle) -> bool:
    """Is ``final`` the ``original`` kept whole (same cards, its jokers in place), maybe grown?"""
    rules = puzzle.rules
    kind_before = judge_meld(original, rules).kind
    kind_after = judge_meld(final, rules).kind
    jokers_before = Counter(p for p in original if isinstance(p, Joker))
    jokers_after = Counter(p for p in final if isinstance(p, Joker))
    return (
        kind_before is kind_after
        and not (_shown(original) - _shown(final))
        and not (jokers_before - jokers_after)
    )


def fewest_changed(puzzle: Puzzle) -> int | None:
    """The fewest starting melds any final table must change (brute force over every table)."""
    best: int | None = None
    originals = list(puzzle.table)
    for melds in final_tables(puzzle):
        kept = 0
        # The most starting melds kept: try every assignment of starting melds to final melds.
        for hosts in itertools.product([None, *range(len(melds))], repeat=len(originals)):
            used = [h for h in hosts if h is not None]
            if len(used) != len(set(used)):
                continue
            if all(
                h is None or _hosts(originals[i], melds[h], puzzle) for i, h in enumerate(hosts)
            ):
                kept = max(kept, len(used))
        changed = len(originals) - kept
        best = changed if best is None else min(best, changed)
    return best


@st.composite
def solvable_positions(draw: st.DrawFn) -> Position:
    """A position built backwards from a final table, so that its goal is reachable.

    Each final meld stays on the table, gives its end card to the hand (when what is left is still
    a meld), or goes to the hand whole (its jokers wild again).
    """
    rules = draw(st.sampled_from(GAMES[:3])).rules
    final = draw(table_melds(rules, 9))
    table: list[tuple[Piece, ...]] = []
    hand: list[Piece] = []
    for meld in final:
        ordered = judge_meld(meld, rules).pieces
        choice = draw(st.integers(0, 2))
        end = draw(st.sampled_from([0, len(ordered) - 1]))
        rest = ordered[:end] + ordered[end + 1 :]
        if choice == 1 and isinstance(ordered[end], Card) and judge_meld(rest, rules).legal:
            table.append(rest)
            hand.append(ordered[end])
        elif choice == 2:
            hand.extend(Joker() if isinstance(p, Joker) else p for p in ordered)
        else:
            table.append(ordered)
    assume(hand)
    return Position.build(rules, table, hand)


def _verdict(solutions: Sequence[Canonical]) -> Verdict:
    return {0: Verdict.NONE, 1: Verdict.UNIQUE}.get(len(solutions), Verdict.SEVERAL)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(positions(games=GAMES[:3], max_pieces=10, max_hand=4), solvable_positions()))
def test_uniqueness_proof_agrees_with_brute_force(position: Position) -> None:
    puzzle = Puzzle(position.rules, position.table, position.hand)
    solutions = sorted(brute_force_solutions(puzzle), key=repr)
    report = solve_puzzle(puzzle)
    assert report.verdict is _verdict(solutions)
    if report.verdict is Verdict.UNIQUE:
        assert report.solution is not None
        assert canonical_form(report.solution, puzzle.rules) == solutions[0]
        # the grader's proven fewest changed melds (the ladder) agrees with brute force
        graded = grade_puzzle(replace(puzzle, solution=report.solution))
        assert graded.grade.changed_melds == fewest_changed(puzzle)


def test_brute_force_counts_joker_declarations_and_placements_apart() -> None:
    from meldsat.puzzles import read_puzzles

    puzzle = read_puzzles("table: 4S 5S 6S *=7S | 7H 7D 7C\nhand: 7S QH KH")[0]
    # 7S in the run or in the group of sevens, times the joker as JH or AH beside QH KH
    assert len(brute_force_solutions(puzzle, limit=10)) == 4

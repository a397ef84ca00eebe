"""Generate puzzles aimed at a level, keeping only those the grader confirms.

The generator works backwards from the answer, but never by cutting the answer's melds apart (that
leaves fragments that show where each card goes):

1. lay a **final table**: random runs and groups packed into a narrow window of ranks, so that they
   share ranks and suits, and keep it only if its cards can be arranged into melds in exactly one
   way (canonical counts, proven with CP-SAT);
2. take a **hand** out of it: a few of its cards, chosen so that the rest can still be laid out in
   legal melds, no subset of them a meld on its own;
3. lay the rest out as a **starting table** from scratch: CP-SAT arranges those cards into legal
   melds under a random objective, so the starting melds are an independent arrangement, not the
   answer with holes;
4. prove the puzzle's solution unique, re-check it with the rule checker, grade it, and keep it
   only if its grade is the level asked for (the Tatham loop: the level's solver must succeed and
   the one below must fail).

Everything random comes from ``random.Random`` seeded by the puzzle's seed and number, so the same
arguments give the same puzzles, and puzzle ``i`` is the same whether it is made alone, after the
others, or by another worker process or Dask worker (``workers=`` / ``scheduler=``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from meldsat.cards import WILD_JOKER, Card, Joker, Piece, card_of, card_pool
from meldsat.errors import MeldsatError, TimeLimitError
from meldsat.executor import ordered_map
from meldsat.melds import is_legal_meld, meld_shapes
from meldsat.notation import Meld, sort_pieces
from meldsat.position import Position
from meldsat.puzzles.goal import Goal
from meldsat.puzzles.grade import grade_puzzle, level_of
from meldsat.puzzles.model import PuzzleModel
from meldsat.puzzles.puzzle import LEVELS, Puzzle
from meldsat.puzzles.solve import Verdict, solve_puzzle
from meldsat.puzzles.verify import answer_problems
from meldsat.rules import RuleSet, rank_at


@dataclass(frozen=True)
class Recipe:
    """How big a level's puzzles are: melds in the answer, hand size, width of the rank window."""

    melds: tuple[int, int]
    hand: tuple[int, int]
    window: tuple[int, int]
    joker_chance: float
    layouts: int  # starting tables tried per final table and hand
    # When the answer holds a joker: the chance that the hand, not the starting table, holds it.
    hand_joker_chance: float = 0.0


RECIPES = {
    "easy": Recipe(melds=(3, 4), hand=(2, 3), window=(5, 7), joker_chance=0.0, layouts=2),
    "medium": Recipe((4, 5), (3, 4), (4, 6), joker_chance=0.2, layouts=3, hand_joker_chance=0.3),
    "hard": Recipe((5, 7), (3, 5), (4, 6), joker_chance=0.3, layouts=4, hand_joker_chance=0.4),
    "expert": Recipe((6, 9), (4, 7), (5, 7), joker_chance=0.6, layouts=5, hand_joker_chance=0.5),
}
MAX_ATTEMPTS = 1500
HAND_TRIES = 8
GOAL_KINDS = ("all", "points")


class GenerationError(MeldsatError):
    """No puzzle of the level was found within the attempts allowed."""


class GenerationTimeoutError(GenerationError, TimeLimitError):
    """The puzzle was not made by the deadline it was given (the server's time limit)."""


@dataclass
class Stats:
    """Counts and CPU time of one generation run (read by the benchmark).

    ``uniqueness_seconds`` is the CPU time of every uniqueness proof: the answer's own (step 1)
    and the puzzle's (step 4).
    """

    attempts: int = 0
    uniqueness_seconds: float = 0.0


def generate_puzzles(
    rules: RuleSet,
    level: str,
    count: int,
    seed: int,
    *,
    goal: str = "all",
    progress: Callable[[int], None] | None = None,
    stats: Stats | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> list[Puzzle]:
    """``count`` puzzles of ``level``; puzzle ``i`` depends only on (rules, level, seed, i, goal).

    ``goal`` is ``all`` (play every hand card) or ``points`` (the hand also holds a spare card or
    two, and the goal is the points of the cards the one solution plays: see
    :func:`generate_one`).

    By default they are made here, one after the other; with ``workers`` (local processes) or
    ``scheduler`` (a Dask cluster) they are spread over workers by :mod:`meldsat.executor`, with
    the same result. ``stats`` can only be counted here. ``progress`` is told how many are made
    after each one.
    """
    found = []
    series = puzzle_series(
        rules, level, count, seed, goal=goal, stats=stats, workers=workers, scheduler=scheduler
    )
    for puzzle in series:
        found.append(puzzle)
        if progress is not None:
            progress(len(found))
    return found


def puzzle_series(
    rules: RuleSet,
    level: str,
    count: int,
    seed: int,
    *,
    goal: str = "all",
    stats: Stats | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    deadline: float | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of :func:`generate_puzzles`, each as soon as it and those before it are made.

    The arguments are checked at once, before the first puzzle is asked for. ``deadline`` (a
    ``time.monotonic()`` value, only where the puzzles are made here) stops the search with
    :class:`GenerationTimeoutError` once it has passed: see :func:`generate_one`.
    """
    if level not in LEVELS:
        raise MeldsatError(f"unknown level '{level}' (choose from {', '.join(LEVELS)})")
    if goal not in GOAL_KINDS:
        raise MeldsatError(f"unknown goal '{goal}' (choose from {', '.join(GOAL_KINDS)})")
    if workers is None and scheduler is None:
        return (
            generate_one(rules, level, seed, number, goal=goal, stats=stats, deadline=deadline)
            for number in range(count)
        )
    if stats is not None or deadline is not None:
        raise ValueError("stats and deadlines only apply where the puzzles are made here")
    jobs = ((rules, level, seed, number, goal) for number in range(count))
    return ordered_map(generate_job, jobs, workers=workers or 1, scheduler=scheduler)


def generate_job(job: tuple[RuleSet, str, int, int, str]) -> Puzzle:
    """``generate_one`` on one (rules, level, seed, number, goal): what a worker runs."""
    rules, level, seed, number, goal = job
    return generate_one(rules, level, seed, number, goal=goal)


def generate_one(
    rules: RuleSet,
    level: str,
    seed: int,
    number: int,
    *,
    goal: str = "all",
    stats: Stats | None = None,
    deadline: float | None = None,
) -> Puzzle:
    """Puzzle ``number`` of the series (rules, level, seed, goal).

    A ``points`` puzzle is made like an ``all`` one, then the hand gets one or two spare cards
    (cards the decks still hold that make no meld within the hand) and the goal becomes the points
    of the hand without them: the puzzle is kept only if exactly one final table plays that much.

    ``deadline`` (``time.monotonic()``) is looked at before each attempt and each candidate is
    proven: once it has passed, :class:`GenerationTimeoutError`, never another puzzle, so a puzzle
    made under a deadline is the one made without (a candidate already being proven finishes).
    """
    name = f"meldsat-puzzle/{rules.name}/{rules.players}/{level}/{seed}/{number}"
    # The series of "all" puzzles keeps the random stream it always had.
    rng = random.Random(name if goal == "all" else f"{name}/{goal}")
    recipe = RECIPES[level]
    for _ in range(MAX_ATTEMPTS):
        _check_deadline(deadline, level, seed)
        if stats is not None:
            stats.attempts += 1
        answer = _final_table(rng, rules, recipe)
        if answer is None or not _arranged_one_way(rules, answer, stats):
            continue
        for hand in _hands(rng, rules, answer, recipe):
            target, given = Goal(), hand
            if goal == "points":
                spared = _with_spares(rng, rules, answer, hand)
                if spared is None:
                    continue
                target, given = Goal(sum(rules.value(piece) for piece in hand)), spared
            for table in _layouts(rng, rules, answer, hand, recipe.layouts):
                _check_deadline(deadline, level, seed)
                puzzle = _confirmed(
                    rules, table, given, target, level=level, seed=seed, stats=stats
                )
                if puzzle is not None:
                    return puzzle
    raise GenerationError(
        f"no {level} puzzle found for seed {seed}, number {number} in {MAX_ATTEMPTS} attempts"
    )


def _check_deadline(deadline: float | None, level: str, seed: int) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise GenerationTimeoutError(f"the {level} puzzle of seed {seed} was not made in time")


# --- 1. the final table ---------------------------------------------------------------------------


def _final_table(rng: random.Random, rules: RuleSet, recipe: Recipe) -> list[list[Piece]] | None:
    """Random runs and groups in a narrow window of ranks, within the copies the decks hold."""
    places = rules.sequence_positions
    # With one deck every card exists once: the same melds need a wider window of ranks.
    width = rng.randint(*recipe.window) + (3 if rules.copies == 1 else 0)
    low = rng.randint(places.start, places.stop - width)
    window = range(low, low + width)
    target = rng.randint(*recipe.melds)
    pool = card_pool(rules.copies)
    melds: list[list[Card]] = []
    for _ in range(target * 6):
        if len(melds) == target:
            break
        meld = _random_meld(rng, rules, window)
        if all(pool[card] >= n for card, n in Counter(meld).items()):
            pool.subtract(meld)
            melds.append(meld)
    if len(melds) < target:
        return None
    table: list[list[Piece]] = [list(meld) for meld in melds]
    if rules.jokers and rng.random() < recipe.joker_chance:
        # One joker in the middle of a run or in a group of four: a place it can be freed from.
        spots = [
            (m, i)
            for m, meld in enumerate(melds)
            for i in range(len(meld))
            if (len({c.suit for c in meld}) == 1 and 0 < i < len(meld) - 1) or len(meld) == 4
        ]
        if spots:
            m, i = rng.choice(spots)
            table[m][i] = Joker(melds[m][i])
    return table


def _random_meld(rng: random.Random, rules: RuleSet, window: range) -> list[Card]:
    if rng.random() < 0.55:
        length = rng.choice((3, 3, 4, 4, 5))
        length = min(length, len(window))
        start = rng.randint(window.start, window.stop - length)
        suit = rng.randrange(4)
        return [card_of(rank_at(p), suit) for p in range(start, start + length)]
    rank = rank_at(rng.choice(window))
    size = rng.choice((3, 3, 4))
    suits = sorted(rng.sample(range(4), size))
    return [card_of(rank, suit) for suit in suits]


def _arranged_one_way(rules: RuleSet, answer: list[list[Piece]], stats: Stats | None) -> bool:
    """True when the answer's pieces make legal melds in exactly one canonical way."""
    started = time.process_time()
    try:
        return _one_arrangement(rules, answer)
    finally:
        if stats is not None:
            stats.uniqueness_seconds += time.process_time() - started


def _one_arrangement(rules: RuleSet, answer: list[list[Piece]]) -> bool:
    real = [piece for meld in answer for piece in meld if isinstance(piece, Card)]
    jokers = [Joker() for meld in answer for piece in meld if isinstance(piece, Joker)]
    model = PuzzleModel(rules, [tuple(real)], jokers, Goal())
    first = model.solve()
    if first.canonical is None:
        return False
    model.forbid(first.canonical)
    return model.solve().status == "INFEASIBLE"


# --- 2. the hand ----------------------------------------------------------------------------------


def _hands(
    rng: random.Random, rules: RuleSet, answer: list[list[Piece]], recipe: Recipe
) -> Iterator[Meld]:
    """Hands taken out of the answer such that the rest can still be laid out in legal melds.

    CP-SAT picks which of the answer's real cards stay on the table (under random weights, so
    each try leaves other cards out); a hand holding a meld of its own is skipped. When the
    answer holds a joker, the hand takes it with the recipe's ``hand_joker_chance``.
    """
    real = [piece for meld in answer for piece in meld if isinstance(piece, Card)]
    jokers = [Joker() for meld in answer for piece in meld if isinstance(piece, Joker)]
    # Drawn only when there is a joker, so puzzles without one are the same as before for a seed.
    in_hand = 1 if jokers and rng.random() < recipe.hand_joker_chance else 0
    seen: set[Meld] = set()
    for _ in range(HAND_TRIES):
        size = rng.randint(*recipe.hand)
        model = PuzzleModel(rules, [], [*real, *jokers], Goal(points=1))
        played = sum(model.hand_played.values())
        model.model.add(played == len(real) - size)
        model.model.add(model.hand_jokers == len(jokers) - in_hand)
        model.model.maximize(
            sum(
                rng.randint(0, 20) * var
                for var in model.hand_played.values()
                if not isinstance(var, int)
            )
        )
        result = model.solve()
        if result.table is None:
            return
        left: Counter[Piece] = Counter(real)
        left.subtract(piece for meld in result.table for piece in meld if isinstance(piece, Card))
        left[WILD_JOKER] += in_hand
        hand = sort_pieces(left.elements())
        if hand not in seen and not hand_holds_meld(hand, rules):
            seen.add(hand)
            yield hand


def hand_holds_meld(hand: Meld, rules: RuleSet) -> bool:
    """True when some of the hand's pieces make a legal meld on their own (jokers as any card)."""
    smallest = min(rules.group_min, rules.run_min)
    for size in range(smallest, len(hand) + 1):
        for subset in itertools.combinations(hand, size):
            known = [piece for piece in subset if isinstance(piece, Card)]
            wild = len(subset) - len(known)
            if wild == 0 and is_legal_meld(known, rules):
                return True
            if wild and meld_shapes(known, wild, rules):
                return True
    return False


def _with_spares(
    rng: random.Random, rules: RuleSet, answer: list[list[Piece]], hand: Meld
) -> Meld | None:
    """``hand`` with one or two spare cards: cards the decks still hold, no meld in the hand."""
    left = card_pool(rules.copies)
    left.subtract(piece for meld in answer for piece in meld if isinstance(piece, Card))
    pool = sorted(card for card, count in left.items() if count > 0)
    if len(pool) < 2:
        return None
    given = sort_pieces([*hand, *rng.sample(pool, rng.randint(1, 2))])
    return None if hand_holds_meld(given, rules) else given


# --- 3. the starting table ------------------------------------------------------------------------


def _layouts(
    rng: random.Random, rules: RuleSet, answer: list[list[Piece]], hand: Meld, tries: int
) -> Iterator[tuple[Meld, ...]]:
    """Starting tables: the answer less the hand, arranged afresh under random objectives."""
    left = Counter(piece for meld in answer for piece in meld if isinstance(piece, Card))
    left.subtract(piece for piece in hand if isinstance(piece, Card))
    in_hand = sum(isinstance(piece, Joker) for piece in hand)
    jokers = [Joker() for meld in answer for piece in meld if isinstance(piece, Joker)][in_hand:]
    real = tuple(sorted(left.elements()))
    seen: set[tuple[Meld, ...]] = set()
    for _ in range(tries):
        model = PuzzleModel(rules, [real], jokers, Goal())
        weights = {key: rng.randint(0, 9) for key in model.group_shapes}
        starts = {key: rng.randint(0, 9) for key in model.starts}
        model.model.maximize(
            sum(w * model.group_shapes[key] for key, w in weights.items())
            + sum(w * model.starts[key] for key, w in starts.items())
        )
        result = model.solve()
        if result.table is None:
            return
        table = tuple(sorted((sort_pieces(meld) for meld in result.table), key=str))
        if table not in seen:
            seen.add(table)
            yield result.table


# --- 4. confirm -----------------------------------------------------------------------------------


def _confirmed(
    rules: RuleSet,
    table: tuple[Meld, ...],
    hand: Meld,
    goal: Goal,
    *,
    level: str,
    seed: int,
    stats: Stats | None,
) -> Puzzle | None:
    """The puzzle if its solution is unique, checks out, and grades at ``level``."""
    position = Position.build(rules, table, hand)
    puzzle = Puzzle(rules, position.table, position.hand, goal, seed=seed)
    started = time.process_time()
    report = solve_puzzle(puzzle)
    if stats is not None:
        stats.uniqueness_seconds += time.process_time() - started
    if report.verdict is not Verdict.UNIQUE or report.solution is None:
        return None
    graded = grade_puzzle(puzzle)
    if level_of(graded.grade) != level:
        return None
    solved = Puzzle(
        rules,
        puzzle.table,
        puzzle.hand,
        puzzle.goal,
        solution=graded.solution,
        level=level,
        grade=graded.grade,
        seed=seed,
    )
    problems = answer_problems(solved, graded.solution)
    if problems:  # the rule checker disagrees with the model: never ship such a puzzle
        raise AssertionError(f"generated solution fails the rule checker: {problems}")
    return solved

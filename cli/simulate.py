"""``meldsat simulate``: whole games between bots, with a result table per seat."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from meldsat.answers.fields import house_options
from meldsat.answers.jsonform import to_json
from meldsat.cli.batchrun import BatchSettings, SchedulerOption, WorkersOption
from meldsat.cli.inputs import JsonOption, RuleOption, finite_seconds
from meldsat.cli.interrupts import InterruptGuard
from meldsat.cli.render import console, house_rules_text
from meldsat.errors import MeldsatError, quote
from meldsat.games.bots import DEFAULT_TIME_LIMIT
from meldsat.games.log import GameLog, JsonlLog, NullLog
from meldsat.games.registry import bot_names, new_game
from meldsat.games.simulate import SimulationResult, simulate
from meldsat.rulesets import get_rules
from meldsat.schema import SCHEMA_VERSION
from meldsat.wording import counted

BotsOption = Annotated[
    str,
    typer.Option(
        "--bots",
        help=f"Bots, one a seat, comma-separated ({', '.join(bot_names())}); docs/BOTS.md "
        "gives their measured strength (the strongest: racer in gin, patient in 500, shedder "
        "in Manipulation).",
    ),
]
GameRulesOption = Annotated[
    str, typer.Option("--rules", "-r", help="Rule set of the game (default: manipulation).")
]
GamePlayersOption = Annotated[
    int | None,
    typer.Option(
        "--players", help="Number of players (default: one a bot; one bot fills every seat)."
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", help="Seed: the same seed plays the same games.")
]
HintTimeOption = Annotated[
    float,
    typer.Option(
        "--time-limit", min=0.001, callback=finite_seconds, help="Seconds a bot's hint may take."
    ),
]


def bot_seats(bots: str, players: int | None, rules: str) -> list[str]:
    """One bot name a seat: the list given, or one bot repeated for ``--players`` seats.

    One bot and no ``--players`` fills the rule set's usual number of seats (4).
    """
    # Bot names are checked by the family's roster (games/registry.py) when the first game starts.
    # A bot spec (MODULE:NAME, FILE.py:NAME) keeps its case: it names a file and a class.
    names = [name.strip() if ":" in name else name.strip().lower() for name in bots.split(",")]
    if not any(names):
        raise MeldsatError("--bots names no bot")
    if not all(names):
        raise MeldsatError(
            f"--bots {quote(bots)}: bot {names.index('') + 1} has no name (one name a seat)"
        )
    if players is None:
        return names if len(names) > 1 else names * get_rules(rules).players
    get_rules(rules, players)  # a count the rule set cannot seat fails before a list that size
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise MeldsatError(f"--bots '{bots}' names {len(names)} bots for {players} players")
    return names


def simulate_command(  # noqa: PLR0917 (one argument per command-line option)
    bots: BotsOption = "greedy-points",
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 10,
    seed: SeedOption = 1,
    players: GamePlayersOption = None,
    rules: GameRulesOption = "manipulation",
    log: Annotated[
        str | None, typer.Option("--log", help="Write every event to this JSONL game log.")
    ] = None,
    time_limit: HintTimeOption = DEFAULT_TIME_LIMIT,
    as_json: JsonOption = False,
    workers: WorkersOption = None,
    scheduler: SchedulerOption = None,
    house: RuleOption = None,
) -> int:
    """Play whole games between bots and print each seat's results."""
    seats = bot_seats(bots, players, rules)
    overrides = house_options(house)
    # An unplayable rule set, player count or house rule fails before any game.
    new_game(rules, len(seats), house=overrides)
    processes, address = BatchSettings(workers, scheduler).where()
    sink: GameLog = NullLog() if log is None else JsonlLog(log)
    errors = Console(stderr=True)
    # A Ctrl-C waits until the game being written is whole: the log keeps every finished game.
    from meldsat.engine.solving import stoppable_solves  # the bots' solves load OR-Tools anyway

    try:
        with (
            stoppable_solves(),  # a Ctrl-C stops a bot's search here at once
            InterruptGuard() as guard,
            Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=errors,
                transient=True,
                disable=not errors.is_terminal,
            ) as bar,
        ):
            task = bar.add_task("games", total=games)
            result = simulate(
                rules,
                seats,
                games,
                seed,
                sink,
                time_limit=time_limit,
                house=overrides,
                progress=lambda done: bar.update(task, completed=done),
                workers=processes,
                scheduler=address,
                guard=guard.deferred,
            )
    finally:
        if isinstance(sink, JsonlLog):
            sink.close()
    if as_json:
        print(to_json({"schema_version": SCHEMA_VERSION, **result.to_json()}))
    else:
        print_result(result)
    return 0


_COLUMNS = (
    ("seat", ">"),
    ("bot", "<"),
    ("wins", ">"),
    ("win % (95% CI)", ">"),
    ("mean final", ">"),
    ("pts/round", ">"),
    ("rounds won", ">"),
    ("knocks", ">"),
    ("undercuts", ">"),
    ("out", ">"),
)


def result_rows(result: SimulationResult) -> list[list[str]]:
    """The table's cells, one row a seat (``pts/round`` is the mean over every round played)."""
    rows = []
    for seat in result.to_json()["seats"]:
        low, high = seat["win_rate_95"]
        rows.append(
            [
                str(seat["seat"]),
                seat["bot"],
                f"{seat['wins']:g}",
                f"{100 * seat['win_rate']:.0f} ({100 * low:.0f}-{100 * high:.0f})",
                f"{seat['mean_final_score']:.1f}",
                f"{seat['mean_points_per_round']:.1f}",
                str(seat["rounds_won"]),
                str(seat["knocks"]),
                str(seat["undercuts"]),
                str(seat["went_out"]),
            ]
        )
    return rows


def print_result(result: SimulationResult) -> None:
    """The result table (plain text, so it never wraps) and a summary line.

    Games without knocking (the 500 family) leave out the knock and undercut columns, and call
    their rounds deals.
    """
    data = result.to_json()
    knocking = get_rules(result.rules).knock_limit is not None
    keep = [
        index
        for index, (heading, _) in enumerate(_COLUMNS)
        if knocking or heading not in ("knocks", "undercuts")
    ]
    noun = "round" if knocking else "deal"
    headings = [heading.replace("round", noun) for heading, _ in _COLUMNS]
    rows = [[row[index] for index in keep] for row in [headings, *result_rows(result)]]
    aligns = [_COLUMNS[index][1] for index in keep]
    widths = [max(len(row[column]) for row in rows) for column in range(len(keep))]
    out = console()
    out.print(
        f"{data['rules']}, {data['players']} players, {counted(data['games'], 'game')},"
        f" seed {data['seed']}" + house_rules_text(result.house_rules)
    )
    for row in rows:
        cells = [
            f"{cell:{align}{width}}" for cell, align, width in zip(row, aligns, widths, strict=True)
        ]
        out.print("  ".join(cells).rstrip())
    out.print(
        f"{counted(data['rounds'], noun)} ({data['rounds_per_game']:.1f} a game),"
        f" {counted(data['turns'], 'turn')}, {counted(data['hints'], 'hint')}"
        f" ({data['hints_unproven']} not proven optimal)"
    )

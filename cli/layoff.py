"""``meldsat layoff``: the defender's best layoffs after a knock, and the hand's score."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from meldsat.answers.gin import LayoffAnswer, layoff
from meldsat.answers.jsonform import to_json
from meldsat.cards import Card
from meldsat.cli.gininputs import FirstUpcardOption, GinRulesOption, UpcardOption
from meldsat.cli.inputs import JsonOption
from meldsat.cli.render import console, print_line, render_meld, render_table

KnockerMeldsOption = Annotated[
    str, typer.Option("--melds", help='The knocker\'s melds, e.g. "5H 6H 7H | 9S 9D 9C".')
]
KnockerDeadwoodOption = Annotated[
    str | None,
    typer.Option("--knocker-deadwood", help="The knocker's unmelded cards (none after gin)."),
]
DefenderHandOption = Annotated[str, typer.Option("--hand", help="The defender's 10 cards.")]


def layoff_command(
    *,
    melds: KnockerMeldsOption,
    hand: DefenderHandOption,
    knocker_deadwood: KnockerDeadwoodOption = None,
    rules: GinRulesOption = "gin",
    upcard: UpcardOption = None,
    first_upcard: FirstUpcardOption = None,
    json_output: JsonOption = False,
) -> int:
    """Settle a knock: the defender melds and lays off for the least deadwood; then the score."""
    answer = layoff(rules, melds, hand, knocker_deadwood, upcard, first_upcard)
    if json_output:
        print(to_json(answer.to_json()))
    else:
        _print_human(answer)
    return 0


def _cards(cards: tuple[Card, ...]) -> Any:
    return render_meld(cards) if cards else "none"


def _print_human(answer: LayoffAnswer) -> None:
    rules, result = answer.rules, answer.result
    out = console()
    defender = result.defender
    print_line(
        f"{rules.name}: knocker's deadwood {result.knocker_deadwood} (",
        _cards(result.knocker_deadwood_cards),
        ")",
        out=out,
    )
    for item in defender.laid_off:
        print_line("lay off ", render_meld([item.card]), f" on meld {item.meld + 1}", out=out)
    if not defender.laid_off:
        print_line("lay off: nothing", out=out)
    print_line("knocker's melds after: ", render_table(result.knocker_melds), out=out)
    print_line("defender's melds: ", render_table(defender.arrangement.melds), out=out)
    print_line(
        "defender's deadwood: ",
        _cards(defender.arrangement.deadwood_cards),
        f"  ({defender.arrangement.deadwood} points)",
        out=out,
    )
    score = result.score
    doubled = " (doubled: spade upcard)" if score.doubled else ""
    print_line(
        f"result: {score.kind.value.replace('_', ' ')}, the {score.winner} scores "
        f"{score.points}{doubled}",
        out=out,
    )

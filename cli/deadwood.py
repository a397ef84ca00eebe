"""``meldsat deadwood``: least deadwood, best discard, knock and draw advice for a gin hand."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from meldsat.answers.gin import DeadwoodAnswer, SeenWithoutDrawError, deadwood
from meldsat.answers.jsonform import to_json
from meldsat.cards import Card
from meldsat.cli.gininputs import FirstUpcardOption, GinRulesOption, UpcardOption
from meldsat.cli.inputs import JsonOption
from meldsat.cli.render import card_text, console, print_line, render_meld, render_table
from meldsat.gin.draw import DrawAdvice

GinHandOption = Annotated[
    str, typer.Option("--hand", help='10 or 11 cards, e.g. "4S 5S 6S 3C 4C 5C 3D 4D 5D 6D 6H".')
]
SeenOption = Annotated[
    str | None,
    typer.Option("--seen", help="Draw advice: cards known not to be in the stock (discards)."),
]


def deadwood_command(
    *,
    hand: GinHandOption,
    rules: GinRulesOption = "gin",
    upcard: UpcardOption = None,
    first_upcard: FirstUpcardOption = None,
    seen: SeenOption = None,
    json_output: JsonOption = False,
) -> int:
    """Least deadwood (10 cards) or best discard (11 cards); draw advice with --upcard."""
    try:
        answer = deadwood(rules, hand, upcard, first_upcard, seen)
    except SeenWithoutDrawError as error:
        raise typer.BadParameter(str(error), param_hint="--seen") from None
    if json_output:
        print(to_json(answer.to_json()))
    else:
        _print_human(answer)
    return 0


def _cards_text(cards: tuple[Card, ...]) -> Any:
    return render_meld(cards) if cards else "none"


def _print_human(answer: DeadwoodAnswer) -> None:
    rules, analysis, advice = answer.rules, answer.analysis, answer.advice
    out = console()
    best = analysis.arrangement
    print_line(
        f"{rules.name}: ", render_meld(analysis.hand), f"  ({len(analysis.hand)} cards)", out=out
    )
    if analysis.discard is not None:
        print_line(
            "discard: ", render_meld([analysis.discard]), f"  (deadwood {best.deadwood})", out=out
        )
    print_line("melds: ", render_table(best.melds), out=out)
    print_line(
        "deadwood: ", _cards_text(best.deadwood_cards), f"  ({best.deadwood} points)", out=out
    )
    verdict = (
        "big gin"
        if analysis.big_gin
        else "gin"
        if analysis.gin
        else ("can knock" if analysis.can_knock else "cannot knock")
    )
    print_line(f"knock limit {analysis.knock_limit}: {verdict}", out=out)
    if len(analysis.discards) > 1:
        others: list[str | Text] = ["other discards (deadwood after): "]
        for number, option in enumerate(analysis.discards[1:]):
            others += [", " if number else "", card_text(option.discard), f" {option.deadwood}"]
        print_line(*others, out=out)
    if advice is not None:
        _print_advice(advice, out)


def _print_advice(advice: DrawAdvice, out: Any) -> None:
    taken = advice.upcard
    print_line(
        f"take the upcard: deadwood {taken.arrangement.deadwood} after discarding ",
        render_meld([taken.discard]) if taken.discard else "",
        out=out,
    )
    spread = ", ".join(f"{deadwood}: {count}" for deadwood, count in advice.stock_distribution)
    print_line(
        f"draw from the stock: expected deadwood {float(advice.stock_expected):.4f} "
        f"over {len(advice.unseen)} unseen cards (deadwood: cards {spread})",
        out=out,
    )
    print_line(
        "advice: ", "take the upcard" if advice.take_upcard else "draw from the stock", out=out
    )

"""``meldsat layoff``: the defender's best layoffs after a knock, and the hand's score."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from meldsat.cards import Card, Notation
from meldsat.cli.deadwood import arrangement_json
from meldsat.cli.gininputs import (
    FirstUpcardOption,
    GinRulesOption,
    UpcardOption,
    gin_card,
    gin_cards,
    gin_rules,
)
from meldsat.cli.inputs import JsonOption
from meldsat.cli.jsonout import json_header, piece_texts, to_json
from meldsat.cli.render import console, print_line, render_meld, render_table
from meldsat.gin.layoff import KnockResult, settle_knock
from meldsat.gin.scoring import HandScore
from meldsat.notation import parse_table
from meldsat.rules import RuleSet

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
    rule_set, result = settle_options(rules, melds, hand, knocker_deadwood, upcard, first_upcard)
    if json_output:
        print(to_json(layoff_json(rule_set, result)))
    else:
        _print_human(rule_set, result)
    return 0


def settle_options(  # noqa: PLR0917 (one argument per option of the command)
    rules: str,
    melds: str,
    hand: str,
    knocker_deadwood: str | None = None,
    upcard: str | None = None,
    first_upcard: str | None = None,
) -> tuple[RuleSet, KnockResult]:
    """The rule set and the settled knock, from the options' texts; shared by the command and the
    web API."""
    rule_set = gin_rules(rules)
    knocker_melds = [gin_cards(" ".join(map(str, meld)), "--melds") for meld in parse_table(melds)]
    deadwood_cards = gin_cards(knocker_deadwood, "--knocker-deadwood") if knocker_deadwood else []
    first = gin_card(first_upcard, "--first-upcard") or gin_card(upcard, "--upcard")
    result = settle_knock(
        rule_set, knocker_melds, deadwood_cards, gin_cards(hand, "--hand"), first_upcard=first
    )
    return rule_set, result


def score_json(score: HandScore) -> dict[str, Any]:
    """A hand's score: ``kind``, ``winner`` (knocker or defender), ``points``, ``doubled``."""
    return {
        "kind": score.kind.value,
        "winner": score.winner,
        "points": score.points,
        "doubled": score.doubled,
    }


def layoff_json(rules: RuleSet, result: KnockResult) -> dict[str, Any]:
    """The JSON object of ``layoff --json`` (schema version 1)."""
    defender = result.defender
    return {
        **json_header(rules),
        **arrangement_json(defender.arrangement),
        "laid_off": [{"card": str(item.card), "meld": item.meld + 1} for item in defender.laid_off],
        "knocker_melds": [piece_texts(meld, Notation.CARDS) for meld in result.knocker_melds],
        "knocker_deadwood": result.knocker_deadwood,
        "knocker_deadwood_cards": piece_texts(result.knocker_deadwood_cards, Notation.CARDS),
        "score": score_json(result.score),
    }


def _cards(cards: tuple[Card, ...]) -> Any:
    return render_meld(cards) if cards else "none"


def _print_human(rules: RuleSet, result: KnockResult) -> None:
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

"""``meldsat deadwood``: least deadwood, best discard, knock and draw advice for a gin hand."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from meldsat.cards import Card, Notation
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
from meldsat.cli.render import card_text, console, print_line, render_meld, render_table
from meldsat.errors import MeldsatError
from meldsat.gin.deadwood import Arrangement, HandAnalysis, analyse_hand
from meldsat.gin.draw import DrawAdvice, draw_advice
from meldsat.rules import RuleSet

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
        rule_set, analysis, advice = analyse_options(rules, hand, upcard, first_upcard, seen)
    except SeenWithoutDrawError as error:
        raise typer.BadParameter(str(error), param_hint="--seen") from None
    if json_output:
        print(to_json(deadwood_json(rule_set, analysis, advice)))
    else:
        _print_human(rule_set, analysis, advice)
    return 0


class SeenWithoutDrawError(MeldsatError):
    """``--seen`` was given where there is no draw to advise on."""


def analyse_options(
    rules: str,
    hand: str,
    upcard: str | None = None,
    first_upcard: str | None = None,
    seen: str | None = None,
) -> tuple[RuleSet, HandAnalysis, DrawAdvice | None]:
    """The rule set, the hand's analysis and (with an upcard and 10 cards) the draw advice, from
    the options' texts; shared by the command and the web API."""
    rule_set = gin_rules(rules)
    cards = gin_cards(hand, "--hand")
    up = gin_card(upcard, "--upcard")
    first = gin_card(first_upcard, "--first-upcard") or up
    analysis = analyse_hand(cards, rule_set, first_upcard=first)
    advice = None
    if up is not None and len(cards) == 10:
        seen_cards = gin_cards(seen, "--seen") if seen else []
        advice = draw_advice(cards, up, rule_set, seen=seen_cards, first_upcard=first)
    elif seen is not None:
        raise SeenWithoutDrawError("--seen needs --upcard and a 10-card hand")
    return rule_set, analysis, advice


def arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    """``deadwood``, ``melds`` and ``deadwood_cards`` of an arrangement."""
    return {
        "deadwood": arrangement.deadwood,
        "melds": [piece_texts(meld, Notation.CARDS) for meld in arrangement.melds],
        "deadwood_cards": piece_texts(arrangement.deadwood_cards, Notation.CARDS),
    }


def deadwood_json(
    rules: RuleSet, analysis: HandAnalysis, advice: DrawAdvice | None
) -> dict[str, Any]:
    """The JSON object of ``deadwood --json`` (schema version 1)."""
    answer: dict[str, Any] = {
        **json_header(rules),
        "hand": piece_texts(analysis.hand, Notation.CARDS),
        **arrangement_json(analysis.arrangement),
        "discard": str(analysis.discard) if analysis.discard is not None else None,
        "discards": [
            {"card": str(option.discard), "deadwood": option.deadwood}
            for option in analysis.discards
        ],
        "knock_limit": analysis.knock_limit,
        "can_knock": analysis.can_knock,
        "gin": analysis.gin,
        "big_gin": analysis.big_gin,
    }
    if advice is not None:
        answer["draw"] = draw_json(advice)
    return answer


def draw_json(advice: DrawAdvice) -> dict[str, Any]:
    """The ``draw`` object: the upcard's outcome, the stock's exact expectation and distribution."""
    taken = advice.upcard
    return {
        "advice": "upcard" if advice.take_upcard else "stock",
        "upcard": {
            "deadwood": taken.arrangement.deadwood,
            "discard": str(taken.discard),
            "melds": [[str(card) for card in meld] for meld in taken.arrangement.melds],
            "can_knock": taken.can_knock,
            "gin": taken.gin or taken.big_gin,
        },
        "stock": {
            "unseen": len(advice.unseen),
            "expected_deadwood": round(float(advice.stock_expected), 4),
            "expected_deadwood_exact": str(advice.stock_expected),
            "distribution": [
                {"deadwood": deadwood, "cards": count}
                for deadwood, count in advice.stock_distribution
            ],
            "gin_chance": round(float(advice.stock_gin_chance), 4),
            "knock_chance": round(float(advice.stock_knock_chance), 4),
        },
    }


def _cards_text(cards: tuple[Card, ...]) -> Any:
    return render_meld(cards) if cards else "none"


def _print_human(rules: RuleSet, analysis: HandAnalysis, advice: DrawAdvice | None) -> None:
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

"""The gin family's answers: ``deadwood`` (least deadwood, best discard, knock and draw advice)
and ``layoff`` (the defender's best layoffs after a knock, and the hand's score), from the texts
of the commands' options, read here as real cards (gin has no jokers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldsat.answers.jsonform import json_header, piece_texts
from meldsat.cards import Card, Notation
from meldsat.errors import MeldsatError, NotationError
from meldsat.gin.bits import check_gin_rules
from meldsat.gin.deadwood import Arrangement, HandAnalysis, analyse_hand
from meldsat.gin.draw import DrawAdvice, draw_advice
from meldsat.gin.layoff import KnockResult, settle_knock
from meldsat.notation import parse_pieces, parse_table
from meldsat.rules import RuleSet
from meldsat.rulesets import get_rules

# --- reading the options -------------------------------------------------------------------------


def gin_rules(name: str) -> RuleSet:
    """The named rule set, refused unless it is one of the gin family."""
    rules = get_rules(name)
    check_gin_rules(rules)
    return rules


def gin_cards(text: str, option: str) -> list[Card]:
    """Real cards read from an option's text (gin has no jokers); errors name ``option``."""
    cards: list[Card] = []
    for piece in parse_pieces(text):
        if not isinstance(piece, Card):
            raise NotationError(f"{option}: '{piece}' is a joker, and gin has no jokers")
        cards.append(piece)
    if not cards:
        raise MeldsatError(f"{option}: no cards given")
    return cards


def gin_card(text: str | None, option: str) -> Card | None:
    """One real card from an option, or ``None`` when the option is not given."""
    if text is None:
        return None
    cards = gin_cards(text, option)
    if len(cards) != 1:
        raise MeldsatError(f"{option}: expected one card, got '{text}'")
    return cards[0]


# --- deadwood ------------------------------------------------------------------------------------


class SeenWithoutDrawError(MeldsatError):
    """``--seen`` was given where there is no draw to advise on."""


@dataclass(frozen=True)
class DeadwoodAnswer:
    """A gin hand's analysis and, with an upcard and 10 cards, the draw advice."""

    rules: RuleSet
    analysis: HandAnalysis
    advice: DrawAdvice | None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``deadwood --json`` (schema version 1)."""
        analysis = self.analysis
        answer: dict[str, Any] = {
            **json_header(self.rules),
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
        if self.advice is not None:
            answer["draw"] = draw_json(self.advice)
        return answer


def deadwood(
    rules: str,
    hand: str,
    upcard: str | None = None,
    first_upcard: str | None = None,
    seen: str | None = None,
) -> DeadwoodAnswer:
    """Least deadwood (10 cards) or best discard (11 cards) of ``hand``; with ``upcard`` and 10
    cards, whether to take it or draw from the stock (``seen``: cards known not to be there).

    Every argument is the text of the command option of the same name.
    """
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
    return DeadwoodAnswer(rule_set, analysis, advice)


def arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    """``deadwood``, ``melds`` and ``deadwood_cards`` of an arrangement."""
    return {
        "deadwood": arrangement.deadwood,
        "melds": [piece_texts(meld, Notation.CARDS) for meld in arrangement.melds],
        "deadwood_cards": piece_texts(arrangement.deadwood_cards, Notation.CARDS),
    }


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


# --- layoff --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LayoffAnswer:
    """A knock settled: the defender's melds and layoffs, and the hand's score."""

    rules: RuleSet
    result: KnockResult

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``layoff --json`` (schema version 1)."""
        result = self.result
        defender = result.defender
        return {
            **json_header(self.rules),
            **arrangement_json(defender.arrangement),
            "laid_off": [
                {"card": str(item.card), "meld": item.meld + 1} for item in defender.laid_off
            ],
            "knocker_melds": [piece_texts(meld, Notation.CARDS) for meld in result.knocker_melds],
            "knocker_deadwood": result.knocker_deadwood,
            "knocker_deadwood_cards": piece_texts(result.knocker_deadwood_cards, Notation.CARDS),
            "score": result.score.to_json(),
        }


def layoff(  # noqa: PLR0917 (one argument per option of the command)
    rules: str,
    melds: str,
    hand: str,
    knocker_deadwood: str | None = None,
    upcard: str | None = None,
    first_upcard: str | None = None,
) -> LayoffAnswer:
    """Settle a knock: the knocker's ``melds`` and ``knocker_deadwood``, the defender's ``hand``
    melded and laid off for the least deadwood, then the score.

    Every argument is the text of the command option of the same name.
    """
    rule_set = gin_rules(rules)
    knocker_melds = [gin_cards(" ".join(map(str, meld)), "--melds") for meld in parse_table(melds)]
    deadwood_cards = gin_cards(knocker_deadwood, "--knocker-deadwood") if knocker_deadwood else []
    first = gin_card(first_upcard, "--first-upcard") or gin_card(upcard, "--upcard")
    result = settle_knock(
        rule_set, knocker_melds, deadwood_cards, gin_cards(hand, "--hand"), first_upcard=first
    )
    return LayoffAnswer(rule_set, result)

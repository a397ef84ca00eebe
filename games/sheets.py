"""Score sheets: round (deal) results in, every round's scores and the game's end out.

``meldsat score --rules R FILE`` reads one JSON object a line, a round (deal) each, and scores
them with the game's own scoring functions, the same ones the games use. Seats are numbered from
0, as in game logs. A round gives each seat's hand left, as cards (``"hands"``) or as points and
card counts (``"points"``, ``"cards"``), plus:

- Manipulation: ``"knocker"`` (a seat, or null).
- 500 family: ``"laid"`` (the points each seat laid this deal) and ``"went_out"`` (a seat, or null).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from meldsat.errors import MeldsatError
from meldsat.games.manipulation_score import game_reached_target, score_game, score_round
from meldsat.games.records import read_pieces
from meldsat.games.rummy500_score import game_winners, score_deal
from meldsat.house_rules import apply_house_rules, house_rules_of
from meldsat.rules import RuleSet, get_rules

Entry = dict[str, Any]
Sheet = dict[str, Any]


def _numbers(entry: Entry, key: str, players: int, number: int) -> list[int]:
    value = entry.get(key)
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)
    ):
        raise MeldsatError(f"round {number}: '{key}' must list {players} whole numbers")
    return value


def _seat(entry: Entry, key: str, players: int, number: int) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise MeldsatError(f"round {number}: bad {key} '{value}' (a seat 0-{players - 1} or null)")
    return value


def _sheet_rules(entries: Sequence[Entry], rules_name: str, house: Mapping[str, object]) -> RuleSet:
    """The rule set for as many players as the first round lists, with the house rules."""
    return apply_house_rules(get_rules(rules_name, _players(entries)), house)


def _header(rules: RuleSet) -> Sheet:
    """The sheet's first keys: the rule set, the players and, if any, the house rules."""
    sheet: Sheet = {"rules": rules.name, "players": rules.players}
    house = house_rules_of(rules)
    if house:
        sheet["house_rules"] = house
    return sheet


def _players(entries: Sequence[Entry]) -> int:
    if not entries:
        raise MeldsatError("no rounds to score")
    first = entries[0]
    held = first.get("hands", first.get("points"))
    if not isinstance(held, list):
        raise MeldsatError("round 1: give 'hands' (cards) or 'points' for every seat")
    return len(held)


def _hands(entry: Entry, rules: RuleSet, number: int) -> tuple[list[int], list[int]]:
    """Points and cards left in each hand, from ``hands`` or from ``points`` and ``cards``."""
    players = rules.players
    if "hands" in entry:
        hands = entry["hands"]
        if not isinstance(hands, list) or len(hands) != players:
            raise MeldsatError(f"round {number}: 'hands' must list {players} hands")
        pieces = [read_pieces(hand, rules, f"round {number} hands") for hand in hands]
        return [sum(rules.value(piece) for piece in hand) for hand in pieces], [
            len(hand) for hand in pieces
        ]
    points = _numbers(entry, "points", players, number)
    cards = _numbers(entry, "cards", players, number) if "cards" in entry else None
    if cards is None:
        # Without card counts, a hand of 0 points is an empty hand (every card counts 1 or more).
        cards = [0 if value == 0 else 1 for value in points]
    return points, cards


def manipulation_sheet(
    entries: Sequence[Entry], rules_name: str, house: Mapping[str, object] | None = None
) -> Sheet:
    """Score Manipulation Rummy rounds up to the end of the game (150), under ``house`` rules."""
    rules = _sheet_rules(entries, rules_name, house or {})
    totals, won = [0] * rules.players, [0] * rules.players
    rounds: list[Entry] = []
    for number, entry in enumerate(entries, start=1):
        if rounds and game_reached_target(totals, rules.scoring):
            raise MeldsatError(f"round {number}: the game ended after round {number - 1}")
        points, cards = _hands(entry, rules, number)
        knocker = _seat(entry, "knocker", rules.players, number)
        result = score_round(points, cards, knocker, rules.scoring)
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
        for seat in result.winners:
            won[seat] += 1
        rounds.append(
            {
                "round": number,
                "hand_points": points,
                "knocker": knocker,
                "scores": list(result.scores),
                "winners": list(result.winners),
                "undercut": list(result.undercut),
                "totals": totals,
            }
        )
    sheet: Sheet = {**_header(rules), "rounds": rounds}
    sheet["game_over"] = game_reached_target(totals, rules.scoring)
    if sheet["game_over"]:
        end = score_game(totals, won, rules.scoring)
        sheet.update(bonuses=list(end.bonuses), totals=list(end.totals), winners=list(end.winners))
    else:
        sheet.update(totals=totals, winners=[])
    return sheet


def rummy500_sheet(
    entries: Sequence[Entry], rules_name: str, house: Mapping[str, object] | None = None
) -> Sheet:
    """Score 500 (300, killer) deals up to the end of the game, the pool carried between them,
    under ``house`` rules (``deal_pool``, ``game_target``)."""
    rules = _sheet_rules(entries, rules_name, house or {})
    totals, pool = [0] * rules.players, 0
    deals: list[Entry] = []
    for number, entry in enumerate(entries, start=1):
        if deals and game_winners(totals, rules.scoring):
            raise MeldsatError(f"deal {number}: the game ended after deal {number - 1}")
        points, _ = _hands(entry, rules, number)
        laid = (
            _numbers(entry, "laid", rules.players, number)
            if "laid" in entry or not rules.scoring.only_deal_winner_scores
            else [0] * rules.players
        )
        went_out = _seat(entry, "went_out", rules.players, number)
        pool += rules.scoring.deal_pool
        result = score_deal(laid, points, went_out, pool, rules.scoring)
        pool = result.pool_carried
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
        deals.append(
            {
                "round": number,
                "hand_points": points,
                "laid": laid,
                "went_out": went_out,
                "pool_won": result.pool_won,
                "pool_carried": result.pool_carried,
                "scores": list(result.scores),
                "winners": list(result.winners),
                "totals": totals,
            }
        )
    winners = list(game_winners(totals, rules.scoring))
    return {
        **_header(rules),
        "rounds": deals,
        "game_over": bool(winners),
        "totals": totals,
        "winners": winners,
    }


# (round entries, rule set name, house rules) -> the sheet
SHEETS: dict[str, Callable[[Sequence[Entry], str, Mapping[str, object] | None], Sheet]] = {
    "manipulation": manipulation_sheet,
    "rummy500": rummy500_sheet,
    "rummy300": rummy500_sheet,
    "rummy500-killer": rummy500_sheet,
}

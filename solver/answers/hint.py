"""``hint``: the best legal play for a position (the exact engine), and for one line of a batch.

OR-Tools loads with the first solve, not with this module, so the answers that do not solve start
fast.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from meldsat.answers.fields import house_options
from meldsat.answers.jsonform import error_json, json_header, piece_texts
from meldsat.errors import ConflictError, MeldsatError, quote
from meldsat.house_rules import HOUSE_RULES, parse_house_rules
from meldsat.play import Objective, Play, Status
from meldsat.position import Position, check_size, load_position, position_fields, rules_spec
from meldsat.rulesets import get_rules


@dataclass(frozen=True)
class HintAnswer:
    """The best play for ``position``; ``partial`` only with ``play_all`` when no play empties the
    hand: the best play that does not."""

    position: Position
    play: Play
    partial: Play | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``hint --json`` (schema version 1).

        ``best_partial`` is there only with ``--all`` when no play empties the hand: the status and
        value of the best play that does not.
        """
        play = self.play
        notation = self.position.rules.notation
        answer = {
            **json_header(self.position.rules),
            "status": play.status.value,
            "objective": play.objective.value,
            # "played" is the name every command uses; "play" is kept for the first schema's
            # readers.
            "play": piece_texts(play.played, notation),
            "played": piece_texts(play.played, notation),
            "cards_played": play.cards_played,
            "points_played": play.points_played,
            "bound": play.bound,
            "hand_left": piece_texts(play.hand_left, notation),
            "hand_points_left": play.hand_points_left,
            "table": [piece_texts(meld, notation) for meld in play.table],
            "changed_melds": list(play.changed_melds),
            "new_melds": list(play.new_melds),
            "changes": list(play.changes),
            "can_knock": play.can_knock,
            "tie_break": "proven" if play.tie_break_proven else "unproven",
        }
        if play.status is Status.NO_MOVE and self.partial is not None:
            answer["best_partial"] = {
                "status": self.partial.status.value,
                "cards_played": self.partial.cards_played,
                "points_played": self.partial.points_played,
            }
        return answer


def hint(
    fields: dict[str, Any],
    objective: Objective = Objective.POINTS,
    *,
    play_all: bool = False,
    time_limit: float = 10.0,
    rules: str | None = None,
    players: int | None = None,
    house: list[str] | None = None,
) -> HintAnswer:
    """The best play for the position of ``fields`` (its JSON form), found in ``time_limit``
    seconds; with ``play_all`` only a play that empties the whole hand.

    ``rules``, ``players`` and ``house`` (``NAME=VALUE`` texts) apply where the fields do not say.
    """
    position = load_position(fields, rules, players, house_options(house))
    return hint_position(position, objective, play_all=play_all, time_limit=time_limit)


def hint_position(
    position: Position, objective: Objective, *, play_all: bool, time_limit: float
) -> HintAnswer:
    """The best play for a position already read, as :func:`hint` answers it."""
    play = _solve(position, objective, play_all, time_limit)
    return HintAnswer(position, play, best_partial(position, play, play_all, time_limit))


def best_partial(position: Position, play: Play, play_all: bool, time_limit: float) -> Play | None:
    """With ``play_all`` and no play that empties the hand: the best play that does not."""
    if not play_all or play.status is not Status.NO_MOVE:
        return None
    return _solve(position, play.objective, False, time_limit)


def _solve(position: Position, objective: Objective, play_all: bool, time_limit: float) -> Play:
    # The engine (and OR-Tools) loads only when an answer solves, so the others start fast.
    from meldsat.engine.search import best_play

    return best_play(position, objective, play_all=play_all, time_limit=time_limit)


# --- one line of a batch -------------------------------------------------------------------------


def hint_line(
    number: int,
    line: str,
    objective: Objective,
    *,
    play_all: bool,
    time_limit: float,
    rules: str | None = None,
    players: int | None = None,
    house: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The answer to line ``number`` of a ``hint --jsonl`` batch: the hint's JSON object with
    ``line``, or for bad input the error object with ``line`` and ``"status": "error"``; either
    way with the line's own ``id`` when it has one.

    ``rules``, ``players`` and ``house`` are the batch's defaults for the lines that do not say; a
    line that names a different rule set, player count or house rule value is an error of that
    line (code ``conflict``), so nothing is silently overridden. A line longer than the position
    limit is refused before it is parsed.
    """
    house = house or {}
    fields: dict[str, Any] = {}
    try:
        check_size(line, f"line {number}")
        fields = position_fields(line)
        check_batch_defaults(fields, rules, players, house)
        position = load_position(fields, rules, players, house)
        hinted = hint_position(position, objective, play_all=play_all, time_limit=time_limit)
    except MeldsatError as error:
        failure = error_json(error.code, str(error))
        failure.update({"line": number, "status": "error"})
        _echo_id(failure, fields)
        return failure
    answer = hinted.to_json()
    answer["line"] = number
    _echo_id(answer, fields)
    return answer


def check_batch_defaults(
    fields: dict[str, Any],
    rules: str | None,
    players: int | None,
    house: dict[str, str] | None = None,
) -> None:
    """Refuse a line whose own ``rules``, ``players`` or house rules disagree with the batch's
    options."""
    own_rules, own_house = rules_spec(fields.get("rules"))
    if (
        rules is not None
        and isinstance(own_rules, str)
        and own_rules.strip()
        and get_rules(own_rules).name != get_rules(rules).name
    ):
        raise ConflictError(
            f"the line says rules {quote(own_rules)} but --rules says {quote(rules)}"
        )
    own_players = fields.get("players")
    if players is not None and own_players is not None and own_players != players:
        raise ConflictError(
            f"the line says players {quote(json.dumps(own_players))} but --players says {players}"
        )
    if house and own_house:
        line_values, batch_values = parse_house_rules(own_house), parse_house_rules(house)
        for name, value in batch_values.items():
            if name in line_values and line_values[name] != value:
                shown = HOUSE_RULES[name].text
                raise ConflictError(
                    f"the line says {name} {quote(shown(line_values[name]))} but --rule says "
                    f"{name}={shown(value)}"
                )


def _echo_id(answer: dict[str, Any], fields: dict[str, Any]) -> None:
    """Copy the line's ``id`` (any JSON value; it was read strictly, so it writes back as JSON)."""
    if "id" in fields:
        answer["id"] = fields["id"]

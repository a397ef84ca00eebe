"""What the output claims is what was proven: statuses, the tie-break, batch defaults, plurals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meldsat import Objective, Status, read_position
from meldsat.engine.direct import DirectModel
from meldsat.engine.model import ModelOutcome, RearrangementModel
from meldsat.engine.search import build_model, play_from_outcome
from tests.conftest import CliRunner

# The 7S moves to free the joker: two optimal plays of equal value differ in melds kept intact.
POSITION = "table: 4S 5S 6S *=7S | 7S 7H 7D 7C | 9D 10D JD\nhand: 8D QH KH 2C"


def solved_with(bound_offset: int) -> tuple[Any, Any]:
    """The real optimal solution, reported as if the time limit had stopped CP-SAT first.

    A fake solver outcome (status ``FEASIBLE``, a bound ``bound_offset`` above the value) stands in
    for a wall-clock limit that may or may not fire.
    """
    position = read_position(POSITION)
    model = build_model(position, Objective.POINTS)
    outcome = model.solve(None)
    assert outcome.status == "OPTIMAL" and outcome.solution is not None
    value = outcome.solution.value
    cut_short = ModelOutcome("FEASIBLE", outcome.solution, value + bound_offset)
    return play_from_outcome(position, Objective.POINTS, model, cut_short), value


def test_value_at_the_bound_is_optimal_with_the_tie_break_unproven() -> None:
    play, value = solved_with(0)
    assert play.status is Status.OPTIMAL
    assert play.points_played == value == play.bound
    assert not play.tie_break_proven


def test_value_below_the_bound_stays_feasible() -> None:
    play, value = solved_with(1)
    assert play.status is Status.FEASIBLE
    assert play.bound == value + 1
    assert not play.tie_break_proven


def test_a_finished_solve_proves_the_tie_break() -> None:
    from meldsat import best_play

    play = best_play(read_position(POSITION))
    assert play.status is Status.OPTIMAL
    assert play.tie_break_proven


@pytest.fixture
def tie_break_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every solve reports FEASIBLE with its bound at the value found (a fake clock ran out),
    whichever build of the model ``best_play`` solves (``meldsat.engine.direct`` or the parts)."""
    for built in (RearrangementModel, DirectModel):
        real_solve = built.solve

        def solve(
            model: Any, time_limit: float | None = None, *, real: Any = real_solve
        ) -> ModelOutcome:
            outcome: ModelOutcome = real(model, time_limit)
            if outcome.solution is None:
                return outcome
            return ModelOutcome("FEASIBLE", outcome.solution, outcome.solution.value)

        monkeypatch.setattr(built, "solve", solve)


@pytest.mark.usefixtures("tie_break_cut_short")
def test_hint_says_the_value_is_proven_and_the_tie_break_is_not(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "position.txt"
    path.write_text(POSITION)
    answer = json.loads(run_cli("hint", "--position", str(path), "--json").out)
    assert answer["status"] == "optimal"
    assert answer["tie_break"] == "unproven"
    human = run_cli("hint", "--position", str(path))
    assert human.code == 0  # the value is proven: exit 0, not 3
    assert "tie-break" in human.out


def test_hint_json_says_the_tie_break_is_proven(run_cli: CliRunner) -> None:
    answer = json.loads(run_cli("hint", "--hand", "QH KH AH", "--json").out)
    assert answer["tie_break"] == "proven"


# --- batch options against the line's own fields -------------------------------------------------


def batch(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "batch.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_batch_options_are_defaults_and_a_conflicting_line_is_an_error(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = batch(
        tmp_path,
        {"id": "own", "rules": "manipulation", "players": 2, "hand": "QH KH AH"},
        {"id": "default", "hand": "QH KH AH"},
        {"id": "same", "rules": "RUMMY500", "hand": "QH KH AH"},
        {"id": "players", "players": 2, "hand": "QH KH AH"},
    )
    result = run_cli("hint", "--jsonl", str(path), "--rules", "rummy500", "--players", "3")
    answers = {answer["id"]: answer for answer in map(json.loads, result.out.splitlines())}
    assert answers["own"]["error"]["code"] == "conflict"
    assert "'manipulation'" in answers["own"]["error"]["message"]
    assert (answers["default"]["rules"], answers["default"]["players"]) == ("rummy500", 3)
    assert answers["same"]["rules"] == "rummy500"
    assert answers["players"]["error"]["code"] == "conflict"
    assert result.code == 2


def test_batch_line_keeps_its_own_rules_without_options(run_cli: CliRunner, tmp_path: Path) -> None:
    path = batch(tmp_path, {"rules": "rummy500", "players": 2, "hand": "QH KH AH"})
    answer = json.loads(run_cli("hint", "--jsonl", str(path)).out)
    assert (answer["rules"], answer["players"]) == ("rummy500", 2)


# --- plurals and 500 rummy's ace ------------------------------------------------------------------


def test_counts_of_one_are_singular(run_cli: CliRunner) -> None:
    out = run_cli("hint", "--table", "5H 6H 7H", "--hand", "AH 8H").out
    assert "(1 card, 8 points)" in out
    assert "(1 point; can knock)" in out
    check = run_cli("check", "--table", "5H 6H 7H", "--hand", "8H", "--after", "5H 6H 7H")
    assert "illegal (1 reason)" in check.out


def test_rummy500_credits_a_low_ace_at_its_hand_value() -> None:
    from meldsat import best_play

    play = best_play(read_position("rules: rummy500\nhand: AH 2H 3H"))
    assert play.status is Status.OPTIMAL
    assert play.points_played == 15 + 2 + 3  # the ace leaves the hand, where it counts 15


def test_counted_words() -> None:
    from meldsat.wording import counted

    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert counted(1, "copy") == "1 copy"
    assert counted(3, "copy") == "3 copies"


def test_check_messages_count_in_the_singular(run_cli: CliRunner) -> None:
    turn = ("check", "--table", "5H 6H 7H", "--hand", "8H", "--after", "5H 6H 7H 8H")
    out = run_cli(*turn, "--draws", "1", "--rule", "draws_before_meld_forbidden=1").out
    assert "1 card drawn this turn" in out
    initial = ("check", "--rules", "rummikub", "--initial", "--hand", "k1 b1 o1", "--after")
    assert "worth 3 points" in run_cli(*initial, "k1 b1 o1").out

"""``meldsat puzzle``: generate (byte-identical per seed, atomic -o), solve, grade and check."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import CliRunner

TWO_SOLUTIONS = "rules: manipulation\ntable: 4S 5S 6S *=7S | 7H 7D 7C\nhand: 7S QH KH\n"


def test_generate_hard_json_is_confirmed_by_solve_and_grade(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    result = run_cli(
        "puzzle", "generate", "--count", "2", "--level", "hard", "--seed", "7", "--format", "json"
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["schema_version"] == 1
    assert [p["level"] for p in data["puzzles"]] == ["hard", "hard"]
    assert set(data["puzzles"][0]) == {
        "rules",
        "players",
        "table",
        "hand",
        "goal",
        "solution",
        "level",
        "grade",
        "seed",
    }
    again = run_cli(
        "puzzle", "generate", "--count", "2", "--level", "hard", "--seed", "7", "--format", "json"
    )
    assert again.out == result.out  # byte-identical for the same seed
    path = tmp_path / "hard.json"
    path.write_text(result.out, encoding="utf-8")
    solved = run_cli("puzzle", "solve", str(path), "--format", "json")
    assert solved.code == 0
    verdicts = json.loads(solved.out)["results"]
    assert [r["verdict"] for r in verdicts] == ["unique", "unique"]
    assert all(r["matches_file"] for r in verdicts)
    assert all(r["moves"] == len(r["steps"]) > 0 for r in verdicts)
    graded = run_cli("puzzle", "grade", str(path))
    assert graded.code == 0
    assert graded.out.count("hard (file says hard), confirmed") == 2


def test_generate_writes_the_output_file_atomically(run_cli: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "easy.txt"
    result = run_cli("puzzle", "generate", "--level", "easy", "--seed", "2", "-o", str(target))
    assert result.code == 0 and result.out == ""
    assert target.read_text(encoding="utf-8").startswith("rules: manipulation\n")
    assert [p.name for p in tmp_path.iterdir()] == ["easy.txt"]  # no temporary file left


def test_solve_reports_several_solutions_with_exit_code_1(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO_SOLUTIONS, encoding="utf-8")
    result = run_cli("puzzle", "solve", str(path))
    assert result.code == 1
    assert "several solutions" in result.out
    assert "another solution:" in result.out


def test_check_accepts_the_solution_and_lists_every_reason_otherwise(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "p.txt"
    path.write_text("table: 2H 3H 4H 5H 6H 7H 8H\nhand: 5S 5D\n", encoding="utf-8")
    good = run_cli("puzzle", "check", str(path), "--answer", "2H 3H 4H | 5S 5H 5D | 6H 7H 8H")
    assert good.code == 0
    assert good.out.startswith("a solution")
    bad = run_cli(
        "puzzle", "check", str(path), "--answer", "2H 3H 4H 5H 6H 7H 8H | 5S 5D", "--format", "json"
    )
    assert bad.code == 1
    reasons = json.loads(bad.out)["reasons"]
    assert "illegal_meld" in [reason["code"] for reason in reasons]
    one = run_cli("puzzle", "check", str(path), "--answer", "2H 3H 4H 5H 6H 7H 8H | 5S 5D")
    assert one.out.startswith("not a solution (1 reason)\n")


def test_bad_input_is_one_line_and_exit_code_2(run_cli: CliRunner, tmp_path: Path) -> None:
    result = run_cli("puzzle", "generate", "--level", "impossible")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "impossible" in result.err
    path = tmp_path / "bad.txt"
    path.write_text("table: 2H 3H 5H\nhand: 5S\n", encoding="utf-8")
    result = run_cli("puzzle", "solve", str(path))
    assert result.code == 2
    assert "Traceback" not in result.err and "2H 3H 5H" in result.err


EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "puzzles-hard.json")


def test_a_time_limit_before_the_proof_exits_3(run_cli: CliRunner) -> None:
    result = run_cli("puzzle", "solve", EXAMPLE, "--time-limit", "0.000001")
    assert result.code == 3
    assert "unknown: the time limit ran out" in result.out
    graded = run_cli("puzzle", "grade", EXAMPLE, "--time-limit", "0.000001")
    assert graded.code == 3


def test_the_example_file_is_confirmed(run_cli: CliRunner) -> None:
    result = run_cli("puzzle", "grade", EXAMPLE)
    assert result.code == 0
    assert result.out.count("confirmed") == 4

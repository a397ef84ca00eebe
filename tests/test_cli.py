"""The ``meldsat`` command line: ``validate``, ``check``, errors, and the shared human rendering."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from meldsat import __version__
from meldsat.cards import Card, Joker, Notation
from meldsat.cli.render import piece_text, print_table, render_meld, render_table
from meldsat.notation import parse_pieces
from tests.conftest import CliResult, CliRunner

ESCAPE = "\x1b"


def as_json(result: CliResult) -> dict[str, Any]:
    """The one JSON object a ``--json`` run printed (and nothing on stderr)."""
    assert result.err == ""
    lines = result.out.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert isinstance(data, dict)
    assert data["schema_version"] == 1
    return data


def text_stdin(text: str) -> io.TextIOWrapper:
    """A stand-in for stdin holding ``text``, with the byte buffer a real stdin has."""
    return io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")


def assert_one_line_error(result: CliResult, *fragments: str) -> None:
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("meldsat: error: ")
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in result.err


# --- validate ------------------------------------------------------------------------------------


def test_validate_queen_king_ace_is_a_legal_sequence(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--table", "QH KH AH")
    assert result.code == 0
    assert result.err == ""
    assert "Q♥ K♥ A♥" in result.out
    assert "sequence" in result.out


def test_validate_rummikub_thirteen_then_one_is_illegal(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--rules", "rummikub", "--table", "r12 r13 r1")
    assert result.code == 1
    assert result.err == ""
    assert "illegal" in result.out
    assert "cannot follow 13" in result.out


def test_validate_json_schema(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--json", "--table", "5C * 7C | QS QH | 8D 8H 8C")
    assert result.code == 1
    data = as_json(result)
    assert data["rules"] == "manipulation"
    assert data["legal"] is False
    assert data["problems"] == []
    first, second, third = data["melds"]
    assert first == {
        "cards": ["5C", "*=6C", "7C"],
        "legal": True,
        "kind": "sequence",
        "reason": None,
    }
    assert second["legal"] is False
    assert second["kind"] is None
    assert "at least 3" in second["reason"]
    assert third["kind"] == "group"
    assert set(first) == {"cards", "legal", "kind", "reason"}


def test_validate_json_rummikub_legal(run_cli: CliRunner) -> None:
    data = as_json(run_cli("validate", "--json", "--rules", "rummikub", "--table", "k5 b5 o5 j"))
    assert data["legal"] is True
    assert data["rules"] == "rummikub"
    assert data["melds"][0]["cards"][-1].startswith("j=")


def test_validate_ambiguous_joker_is_bad_input(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("validate", "--table", "8S 8H *"), "8S 8H *", "*=8D")


@pytest.mark.parametrize(("players", "code"), [(2, 1), (4, 0)])
def test_validate_reports_too_many_copies(run_cli: CliRunner, players: int, code: int) -> None:
    result = run_cli(
        "validate", "--json", "--players", str(players), "--table", "7S 8S 9S | 7S 7H 7D"
    )
    assert result.code == code
    data = as_json(result)
    assert all(meld["legal"] for meld in data["melds"])
    if code:
        assert data["legal"] is False
        assert data["problems"] == ["2 copies of 7S, but manipulation with 2 players has 1"]
    else:
        assert data["problems"] == []


def test_validate_counts_the_hand_copies_too(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--players", "2", "--table", "7S 8S 9S", "--hand", "7S")
    assert result.code == 1
    assert "2 copies of 7S" in result.out


def test_validate_empty_table_is_legal(run_cli: CliRunner) -> None:
    data = as_json(run_cli("validate", "--json", "--table", ""))
    assert data["legal"] is True
    assert data["melds"] == []


def test_validate_needs_a_table(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("validate"), "--table")


def test_validate_position_file(run_cli: CliRunner, tmp_path: Path) -> None:
    text_file = tmp_path / "position.txt"
    text_file.write_text("rules: rummikub\nplayers: 2\ntable: r1 r2 r3 | k7 k7 b7\n")
    result = run_cli("validate", "--json", "--position", str(text_file))
    assert result.code == 1
    data = as_json(result)
    assert data["players"] == 2
    assert [meld["legal"] for meld in data["melds"]] == [True, False]
    json_file = tmp_path / "position.json"
    json_file.write_text(json.dumps({"rules": "manipulation", "table": [["7H", "8H", "9H"]]}))
    assert run_cli("validate", "--position", str(json_file)).code == 0


def test_validate_position_from_stdin(run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", text_stdin('{"table": "QH KH AH"}'))
    assert run_cli("validate", "--position", "-").code == 0


def test_validate_refuses_unknown_key(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "typo.json"
    path.write_text(json.dumps({"tabel": "7H 8H 9H"}))
    assert_one_line_error(run_cli("validate", "--position", str(path)), "tabel")


# --- check ---------------------------------------------------------------------------------------

ISSUE_TABLE = "4S 5S 6S *=7S"


def test_check_reports_a_joker_redeclared_without_its_card(run_cli: CliRunner) -> None:
    args = ("check", "--table", ISSUE_TABLE, "--hand", "QH KH", "--after", "4S 5S 6S | QH KH *=AH")
    result = run_cli(*args)
    assert result.code == 1
    assert result.err == ""
    assert "joker_redeclared" in result.out
    data = as_json(run_cli(*args, "--json"))
    assert data["legal"] is False
    assert data["reasons"] == [
        {
            "code": "joker_redeclared",
            "message": "the joker declared 7S was redeclared but 7S is not on the table",
        }
    ]
    assert data["played"] == ["QH", "KH"]


def test_check_accepts_a_joker_freed_by_its_real_card(run_cli: CliRunner) -> None:
    args = (
        "check",
        "--table",
        ISSUE_TABLE,
        "--hand",
        "7S QH KH",
        "--after",
        "4S 5S 6S 7S | QH KH *=AH",
    )
    result = run_cli(*args)
    assert result.code == 0
    assert result.err == ""
    assert result.out.startswith("legal")
    data = as_json(run_cli(*args, "--json"))
    assert data == {
        "schema_version": 1,
        "rules": "manipulation",
        "players": 4,
        "legal": True,
        "played": ["7S", "QH", "KH"],
        "reasons": [],
        "table": [["4S", "5S", "6S", "7S"], ["QH", "KH", "*=AH"]],
    }


def test_check_lists_every_reason(run_cli: CliRunner) -> None:
    result = run_cli(
        "check",
        "--json",
        "--table",
        "4S 5S 6S *=7S | 9D 10D JD QD",
        "--hand",
        "QH KH",
        "--after",
        "4S 5S 6S | QH KH *=AH | 9D 10D JD | AC AC",
    )
    assert result.code == 1
    codes = [reason["code"] for reason in as_json(result)["reasons"]]
    assert codes == ["card_removed", "card_not_in_hand", "illegal_meld", "joker_redeclared"]


def test_check_empty_table_means_empty(run_cli: CliRunner) -> None:
    result = run_cli("check", "--table", "", "--hand", "QH KH AH", "--after", "QH KH AH")
    assert result.code == 0
    nothing = run_cli("check", "--table", "", "--hand", "QH", "--after", "")
    assert nothing.code == 1
    assert "nothing_played" in nothing.out


def test_check_rummikub_initial_meld(run_cli: CliRunner) -> None:
    base = ("check", "--rules", "rummikub", "--table", "k1 k2 k3", "--hand", "r5 r6 j b9")
    after = ("--after", "k1 k2 k3 | r5 r6 j=r7")
    assert run_cli(*base, *after).code == 0
    data = as_json(run_cli(*base, *after, "--initial", "--json"))
    assert [reason["code"] for reason in data["reasons"]] == ["initial_meld"]
    assert "18 points" in data["reasons"][0]["message"]


def test_check_gin_table_rearranged(run_cli: CliRunner) -> None:
    args = ("check", "--rules", "gin", "--table", "7S 8S 9S", "--hand", "10S JS QS KS", "--json")
    data = as_json(run_cli(*args, "--after", "7S 8S 9S 10S | JS QS KS"))
    assert [reason["code"] for reason in data["reasons"]] == ["table_rearranged"]
    assert run_cli(*args, "--after", "7S 8S 9S | 10S JS QS KS").code == 0


def test_check_rummy500_meld_without_hand_card(run_cli: CliRunner) -> None:
    result = run_cli(
        "check",
        "--rules",
        "rummy500",
        "--table",
        "4S 5S 6S | 7S 8S 9S 10S | 7H 7D 7C",
        "--hand",
        "7S JS",
        "--after",
        "4S 5S 6S 7S | 8S 9S 10S JS | 7S 7H 7D 7C",
    )
    assert result.code == 1
    assert "meld_without_hand_card" in result.out


def test_check_draws(run_cli: CliRunner) -> None:
    args = ("check", "--table", "7S 8S 9S", "--hand", "10S", "--after", "7S 8S 9S 10S")
    assert run_cli(*args, "--draws", "2").code == 0
    third = run_cli(*args, "--draws", "3")
    assert third.code == 1
    assert "melded_after_third_draw" in third.out
    assert run_cli(*args, "--draws", "-1").code == 2


def test_check_too_many_copies_two_players(run_cli: CliRunner) -> None:
    args = ("check", "--table", "7S 8S 9S", "--hand", "5S 6S", "--after", "5S 6S 7S | 7S 8S 9S")
    data = as_json(run_cli(*args, "--players", "2", "--json"))
    assert [reason["code"] for reason in data["reasons"]] == [
        "card_not_in_hand",
        "too_many_copies",
    ]


def test_check_position_file_with_after_and_draws(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "turn.txt"
    path.write_text(
        "rules: manipulation\nplayers: 3\ntable: 4S 5S 6S *=7S\nhand: 7S QH KH\n"
        "after: 4S 5S 6S 7S | QH KH *=AH\ndraws: 1\n"
    )
    assert run_cli("check", "--position", str(path)).code == 0
    assert run_cli("check", "--position", str(path), "--draws", "3").code == 1
    # Options on the command line win over the file.
    assert run_cli("check", "--position", str(path), "--hand", "QH KH").code == 1


def test_check_json_position_with_draws(run_cli: CliRunner, tmp_path: Path) -> None:
    position = {
        "rules": "manipulation",
        "table": [["7S", "8S", "9S"]],
        "hand": ["10S"],
        "after": [["7S", "8S", "9S", "10S"]],
        "draws": 3,
    }
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(position))
    data = as_json(run_cli("check", "--json", "--position", str(path)))
    assert [reason["code"] for reason in data["reasons"]] == ["melded_after_third_draw"]
    path.write_text(json.dumps({**position, "draws": "three"}))
    assert_one_line_error(run_cli("check", "--position", str(path)), "three")


def test_check_position_from_stdin(run_cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "table: 4S 5S 6S *=7S\nhand: QH KH\nafter: 4S 5S 6S | QH KH *=AH\n"
    monkeypatch.setattr("sys.stdin", text_stdin(text))
    data = as_json(run_cli("check", "--json", "--position", "-"))
    assert [reason["code"] for reason in data["reasons"]] == ["joker_redeclared"]


def test_check_illegal_before_table_is_bad_input(run_cli: CliRunner) -> None:
    result = run_cli("check", "--table", "7S 8S", "--hand", "9S", "--after", "7S 8S 9S")
    assert_one_line_error(result, "7S 8S")


def test_check_needs_after(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("check", "--table", "7S 8S 9S", "--hand", "10S"), "--after")


def test_check_ambiguous_joker_after(run_cli: CliRunner) -> None:
    result = run_cli("check", "--table", "", "--hand", "8S 8H *", "--after", "8S 8H *")
    assert_one_line_error(result, "ambiguous joker")


# --- errors and --version ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("validate", "--table", "7H 8H ZZ"), "'ZZ'"),
        (("check", "--table", "", "--hand", "QQ", "--after", ""), "'QQ'"),
        (("validate", "--rules", "canasta", "--table", "7H 8H 9H"), "'canasta'"),
        (("validate", "--players", "9", "--table", "7H 8H 9H"), "'9'"),
        (("check", "--rules", "gin", "--players", "3", "--after", ""), "'3'"),
        (("validate", "--position", "/no/such/file.txt"), "/no/such/file.txt"),
        (("validate", "--rules", "rummikub", "--table", "r14 r1 r2"), "'r14'"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    run_cli: CliRunner, args: tuple[str, ...], fragment: str
) -> None:
    assert_one_line_error(run_cli(*args), fragment)


def test_bad_json_is_one_line_exit_2(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"table": [["7H", "8H", "9H"]')
    assert_one_line_error(run_cli("validate", "--position", str(path)), "bad JSON")
    assert_one_line_error(run_cli("check", "--position", str(path)), "bad JSON")


def test_unknown_option_is_usage_error(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--tabel", "7H 8H 9H")
    assert result.code == 2
    assert result.out == ""
    assert "--tabel" in result.err


def test_version(run_cli: CliRunner) -> None:
    result = run_cli("--version")
    assert result.code == 0
    assert result.out.strip() == f"meldsat {__version__}"
    assert result.err == ""


def test_no_colour_codes_when_not_a_terminal(run_cli: CliRunner) -> None:
    human = run_cli("validate", "--table", "QH KH AH | 7S 7H")
    assert human.code == 1
    assert ESCAPE not in human.out
    as_json(run_cli("check", "--json", "--table", "", "--hand", "QH KH AH", "--after", "QH KH AH"))


# --- rendering -----------------------------------------------------------------------------------


def test_cards_are_drawn_with_suit_symbols_and_red_hearts() -> None:
    hearts = piece_text(Card(10, 1))
    assert hearts.plain == "10♥"
    assert "red" in str(hearts.style)
    spades = piece_text(Card(12, 0))
    assert spades.plain == "Q♠"
    assert "red" not in str(spades.style)
    joker = render_meld([Joker(Card(7, 2)), Joker()])
    assert joker.plain == "*=7♦ *"


def test_tiles_are_drawn_in_their_colour() -> None:
    tiles = parse_pieces("r7 b7 k7 j=o7", Notation.TILES)
    text = render_meld(tiles, Notation.TILES)
    assert text.plain == "r7 b7 k7 j=o7"
    assert "red" in str(piece_text(tiles[0], Notation.TILES).style)
    assert "blue" in str(piece_text(tiles[1], Notation.TILES).style)


def test_render_table_joins_melds() -> None:
    melds = [parse_pieces("7H 8H 9H"), parse_pieces("QS QH QD")]
    assert render_table(melds).plain == "7♥ 8♥ 9♥ | Q♠ Q♥ Q♦"
    assert render_table([]).plain == "(empty)"


def test_terminal_output_is_coloured() -> None:
    buffer = io.StringIO()
    terminal = Console(file=buffer, force_terminal=True, color_system="standard", width=80)
    print_table([parse_pieces("7H 8H 9H")], title="table", out=terminal)
    output = buffer.getvalue()
    assert ESCAPE in output
    assert "7" in output
    assert "♥" in output

"""The command line at its edges: encodings, terminal injection, size limits, empty values, JSON
errors, help and completion, Ctrl-C and a closed output pipe."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meldsat import read_position
from meldsat.position import MAX_POSITION_CHARS
from tests.conftest import CliRunner
from tests.test_cli import assert_one_line_error
from tests.test_fuzz_inputs import strict_json

_ENCODING_VARIABLES = {"PYTHONIOENCODING", "PYTHONUTF8", "PYTHONCOERCECLOCALE", "LC_ALL", "LANG"}


def run_meldsat(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m meldsat`` in a child process (real streams, real encodings).

    The encoding settings of the test run itself are dropped, so ``env`` alone decides them.
    """
    inherited = {key: value for key, value in os.environ.items() if key not in _ENCODING_VARIABLES}
    return subprocess.run(
        [sys.executable, "-m", "meldsat", *args],
        input=stdin.encode(),
        capture_output=True,
        env={**inherited, **(env or {})},
        check=False,
        timeout=60,
    )


# --- encodings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env",
    [
        {"PYTHONIOENCODING": "ascii"},
        {"PYTHONIOENCODING": "latin-1"},
        {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
    ],
)
def test_plain_notation_where_stdout_cannot_encode_suit_symbols(env: dict[str, str]) -> None:
    result = run_meldsat("validate", "--table", "QH KH AH | 7S 8S", env=env)
    assert result.returncode == 1
    assert result.stderr == b""
    out = result.stdout.decode("ascii")
    assert "QH KH AH  ok sequence" in out
    assert "7S 8S  x illegal" in out


def test_byte_order_mark_at_the_start_of_a_position_file(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "position.txt"
    path.write_bytes("\ufefftable: QH KH AH\n".encode())
    assert run_cli("validate", "--position", str(path)).code == 0
    path.write_bytes('\ufeff{"table": "QH KH AH"}'.encode())
    assert run_cli("validate", "--position", str(path)).code == 0


def test_bytes_that_are_not_utf8_are_one_line(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "position.txt"
    path.write_bytes(b"table: Q\xffH\n")
    assert_one_line_error(run_cli("validate", "--position", str(path)), "not UTF-8")


# --- terminal injection and long tokens ----------------------------------------------------------


def test_control_characters_in_a_token_are_quoted_escaped(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--table", "\x1b[2J\x1b[31mQH")
    assert_one_line_error(result, "\\x1b[2J\\x1b[31mQH")
    assert "\x1b" not in result.err


def test_a_long_token_is_cut_short_in_the_message(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--table", "Q" * 1_000_000)
    assert_one_line_error(result, "(1000000 characters)")
    assert len(result.err) < 300


def test_a_usage_error_escapes_its_token_too(run_cli: CliRunner) -> None:
    result = run_cli("hint", "--hand", "QH", "--players", "\x1b[2J")
    assert result.code == 2
    assert "\x1b" not in result.err
    assert "Try 'meldsat hint -h' for help." in result.err


# --- size limits ---------------------------------------------------------------------------------


def test_endless_position_file_is_refused_at_once(run_cli: CliRunner) -> None:
    assert_one_line_error(run_cli("validate", "--position", "/dev/zero"), "too large")


def test_position_at_the_size_limit_is_read(run_cli: CliRunner, tmp_path: Path) -> None:
    text = "table: QH KH AH\n"
    path = tmp_path / "position.txt"
    path.write_text(text + "#" * (MAX_POSITION_CHARS - len(text)))
    assert run_cli("validate", "--position", str(path)).code == 0
    path.write_text(text + "#" * (MAX_POSITION_CHARS - len(text) + 1))
    assert_one_line_error(run_cli("validate", "--position", str(path)), "too large")


def test_batch_line_beyond_the_limit_is_an_error_object(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    big = json.dumps({"hand": "QH", "comment": "x" * MAX_POSITION_CHARS})
    path.write_text(big + "\n" + '{"hand": "QH KH AH"}\n')
    result = run_cli("hint", "--jsonl", str(path))
    first, second = (json.loads(line) for line in result.out.splitlines())
    assert first["error"]["code"] == "too_large"
    assert second["status"] == "optimal"


# --- empty and nonsense values -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("validate", "--table", "QH KH AH", "--rules", ""), "unknown rule set ''"),
        (("validate", "--position", ""), "cannot read ''"),
        (("hint", "--hand", "QH", "--time-limit", "0"), "--time-limit"),
    ],
)
def test_empty_values_are_refused_not_defaulted(
    run_cli: CliRunner, args: tuple[str, ...], fragment: str
) -> None:
    result = run_cli(*args)
    assert result.code == 2
    assert fragment in result.err


@pytest.mark.parametrize("value", ["0", "false", "[]", '""', '" "', "{}", '{"preset": ""}'])
def test_json_rules_that_are_not_a_name_are_refused(value: str) -> None:
    with pytest.raises(ValueError, match=r"unknown rule set|needs its"):
        read_position(f'{{"rules": {value}, "hand": "QH"}}')


@pytest.mark.parametrize(
    "text", ["table: QH KH AH\ntable: 2C 3C 4C", "rules: gin\n  jokers: 1\n  jokers: 2"]
)
def test_a_key_given_twice_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="twice"):
        read_position(text)


def test_an_empty_rules_line_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rule set ''"):
        read_position("rules:\nhand: QH")


def test_null_counts_as_an_absent_key() -> None:
    position = read_position('{"rules": null, "players": null, "table": null, "hand": null}')
    assert position.rules.name == "manipulation"
    assert position.hand == ()


# --- JSON errors ---------------------------------------------------------------------------------


def test_with_json_a_failure_is_also_a_json_object(run_cli: CliRunner) -> None:
    result = run_cli("hint", "--table", "4S 5S 6S", "--hand", "QX", "--json")
    assert result.code == 2
    answer = json.loads(result.out)
    assert answer == {
        "schema_version": 1,
        "error": {"code": "notation", "message": answer["error"]["message"]},
    }
    assert "'QX'" in answer["error"]["message"]
    assert result.err.startswith("meldsat: error: ")


def test_with_json_a_usage_error_is_a_json_object(run_cli: CliRunner) -> None:
    result = run_cli("validate", "--json", "--players", "many", "--table", "QH KH AH")
    assert result.code == 2
    assert json.loads(result.out)["error"]["code"] == "usage"


def test_batch_line_id_that_is_not_json_is_refused(run_cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text('{"id": NaN, "hand": "QH"}\n{"id": 1e999, "hand": "QH"}\n')
    result = run_cli("hint", "--jsonl", str(path))
    lines = result.out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert strict_json(line)["error"]["code"] == "notation"


# --- help and completion -------------------------------------------------------------------------


def test_no_arguments_prints_the_full_help(run_cli: CliRunner) -> None:
    result = run_cli()
    assert result.code == 0
    assert result.out.startswith("Usage: meldsat")
    assert result.out.count("\n") > 5
    assert "hint" in result.out


def test_short_help_option(run_cli: CliRunner) -> None:
    result = run_cli("hint", "-h")
    assert result.code == 0
    assert "--objective" in result.out
    assert "rummy500" in result.out  # the rule-set names are listed


def test_a_command_imports_only_its_own_module() -> None:
    code = (
        "import sys; from meldsat.cli.main import main; code = main(['rules']); "
        "print(code, sorted(m for m in sys.modules if m.startswith('meldsat.cli.')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    out = result.stdout.decode()
    assert out.splitlines()[-1].startswith("0 ")
    assert "'meldsat.cli.rules'" in out
    for other in ("play", "simulate", "puzzle", "hint", "check", "serve"):
        assert f"'meldsat.cli.{other}'" not in out


def test_shell_completion_script(run_cli: CliRunner) -> None:
    # ``--show-completion`` prints this script for the shell it detects among its parent
    # processes (a test run under ``timeout`` or a job runner may have none); the variable asks
    # for bash's script without detecting anything.
    result = run_meldsat(env={"_MELDSAT_COMPLETE": "source_bash"})
    assert result.returncode == 0
    assert b"complete -o default -F _meldsat_completion meldsat" in result.stdout


def test_shell_completion_completes_the_rule_set_names(run_cli: CliRunner) -> None:
    words = {"COMP_WORDS": "meldsat hint --rules rum", "COMP_CWORD": "3"}
    result = run_meldsat(env={"_MELDSAT_COMPLETE": "complete_bash", **words})
    assert result.returncode == 0
    assert result.stdout.decode().split() == ["rummikub", "rummy500", "rummy300", "rummy500-killer"]


# --- Ctrl-C and broken pipes ---------------------------------------------------------------------


def spawn_meldsat(*args: str) -> subprocess.Popen[bytes]:
    """``python -m meldsat`` in a child process with all three streams as pipes."""
    return subprocess.Popen(
        [sys.executable, "-m", "meldsat", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def wait_until_reading_stdin(child: subprocess.Popen[bytes], patience: float = 30.0) -> None:
    """Wait until ``child`` blocks reading its stdin pipe (started up, inside the command)."""
    wchan = Path(f"/proc/{child.pid}/wchan")
    if not wchan.exists():  # no /proc: give it a few seconds instead
        time.sleep(3)
        return
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if "pipe" in wchan.read_text(errors="replace"):
            return
        time.sleep(0.05)


def test_ctrl_c_exits_130_with_one_line() -> None:
    child = spawn_meldsat("validate", "--position", "-")
    wait_until_reading_stdin(child)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert out == b""
    assert err == b"meldsat: error: interrupted\n"


def test_ctrl_c_after_a_solve_still_raises_keyboard_interrupt() -> None:
    # CP-SAT's own handler would swallow SIGINT during a solve and leave SIGINT at its default
    # afterwards, so the next Ctrl-C would kill the process silently. Checked in a child process,
    # where that failure cannot take the test run down with it.
    script = (
        "import os, signal, time\n"
        "from meldsat import best_play, read_position\n"
        "best_play(read_position('table: 5H 6H 7H\\nhand: 8H'))\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(10)\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=False, timeout=60
    )
    assert (result.returncode, result.stdout) == (0, b"KeyboardInterrupt\n")


def test_closed_output_pipe_exits_quietly() -> None:
    child = spawn_meldsat("hint", "--position", "-")
    assert child.stdout is not None and child.stdin is not None
    child.stdout.close()  # the reader goes away before anything is written
    child.stdin.write(b"table: 5H 6H 7H\nhand: 8H 2C\n")
    child.stdin.close()
    assert child.wait(timeout=60) == 141
    assert child.stderr is not None
    assert child.stderr.read() == b""

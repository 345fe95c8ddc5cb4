"""``ligretto rule``: one line explaining the ruling; bad notation gives one error line and a non-zero exit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from referee.cli.main import main


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["r4", "r6"], "illegal: wrong_number (r5 expected)"),
        (["r4", "r5"], "legal: r5 goes on r4"),
        (["-", "g1"], "legal: g1 starts a new stack"),
        (["-", "g5"], "illegal: not_a_one (a new stack starts with a 1)"),
        (["r4", "y5"], "illegal: wrong_colour (r5 expected)"),
        (["r4", "b7"], "illegal: wrong_colour, wrong_number (r5 expected)"),
        (["b10", "b1"], "illegal: stack_full (the stack is full at b10)"),
        (["r4", "r5", "--stopped"], "illegal: after_stop (the round has stopped)"),
        (["r4", "y9", "--stopped"], "illegal: after_stop, wrong_colour, wrong_number (r5 expected)"),
        (["Red 4", "red5"], "legal: r5 goes on r4"),
    ],
)
def test_rule_explains_the_ruling_in_one_line(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", *argv]) == 0
    assert capsys.readouterr().out == line + "\n"


def test_rule_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "r4", "b7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "top": "r4",
        "card": "b7",
        "legal": False,
        "reason": "wrong_colour",
        "violations": ["wrong_colour", "wrong_number"],
        "expected": "r5",
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["r4", "x6"], "unknown card notation 'x6'"),
        (["r11", "r6"], "unknown card notation 'r11'"),
        (["", "r6"], "unknown card notation ''"),
    ],
)
def test_an_unknown_card_notation_is_one_clear_error_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rule", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"ligretto: error: {message}") and captured.err.count("\n") == 1


def test_the_installed_command_prints_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli.main", "rule", "r4", "q9"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "ligretto: error: unknown card notation 'q9': the colour must be r, y, g or b\n"

"""Malformed input through the installed ``ligretto`` command: one clear error line, a non-zero exit, no traceback.

One case per kind of malformed input, each through the real console script in a subprocess (as a user would
run it), so nothing of pytest's capture or of an in-process call can hide a traceback. The other cases of each
kind run in-process beside their commands (test_cli_rule, test_sim_cli, test_cli_backs, test_cli_sheet).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BROKEN_LOG = '{"t": 1.0, "type": "round_started", "backs": ["a", "b"]}\n{"t": 2.0, "type": "card_pl\n'


def ligretto_command() -> str:
    """The installed console script: beside this interpreter, else on the PATH."""
    beside = Path(sys.executable).with_name("ligretto")
    found = str(beside) if beside.exists() else shutil.which("ligretto")
    assert found, "the ligretto command is not installed: run pip install -e ."
    return found


@pytest.mark.parametrize(
    ("case", "argv", "message"),
    [
        ("unknown card notation", ["rule", "r4", "q9"], "unknown card notation 'q9'"),
        ("13 players", ["simulate", "--players", "13", "--out", "{tmp}/out"], "2 to 12 players, not 13"),
        (
            "duplicate backs at the table",
            ["simulate", "--backs", "red-red,blue-blue,red-red", "--out", "{tmp}/out"],
            "cannot use the same back 'red-red'",
        ),
        ("broken event line", ["sheet", "{tmp}/broken.jsonl"], "broken.jsonl line 2: not valid JSON"),
        ("unreadable catalogue", ["backs", "list", "--catalogue", "{tmp}/absent.json"], "cannot read catalogue"),
    ],
)
def test_malformed_input_is_one_clear_error_line_and_a_non_zero_exit(tmp_path, case, argv, message):
    (tmp_path / "broken.jsonl").write_text(BROKEN_LOG, encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    done = subprocess.run([ligretto_command(), *args], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode != 0, case
    assert done.stdout == ""
    assert done.stderr.startswith("ligretto: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()  # nothing half-written

"""``ligretto sheet``: the score sheet of a log; a broken log gives one error line naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.events import RoundScored, RoundStarted, write_events

BACKS = ("red-red", "blue-blue", "green-green")


def write_log(path: Path, *rounds: tuple[int, int, int]) -> Path:
    events = []
    for number, scores in enumerate(rounds, start=1):
        events.append(RoundStarted(t=100.0 * number, round=number, backs=BACKS))
        events.append(RoundScored(t=100.0 * number + 90, round=number, scores=dict(zip(BACKS, scores, strict=True))))
    with path.open("w", encoding="utf-8") as handle:
        write_events(events, handle)
    return path


def test_sheet_prints_rounds_totals_and_the_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "events.jsonl", (12, -4, 7), (3, 15, -20))
    assert main(["sheet", str(log)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "round  red-red  blue-blue  green-green",
        "1           12         -4            7",
        "2            3         15          -20",
        "total       15         11          -13",
        "winner: red-red (after 2 rounds)",
    ]


def test_sheet_reads_several_logs_as_one_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = write_log(tmp_path / "round-1.events.jsonl", (12, -4, 7))
    second = write_log(tmp_path / "round-2.events.jsonl", (0, 0, 0), (3, 15, -20))
    second.write_text(second.read_text().replace('"round": 1', '"round": 9'))  # rounds sort by number
    assert main(["sheet", str(first), str(second)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:4]] == ["1", "2", "9"]
    assert lines[-2:] == ["total       15         11          -13", "winner: red-red (after 3 rounds)"]


def test_sheet_names_every_winner_of_a_tie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "events.jsonl", (10, 10, 3))
    assert main(["sheet", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "winners (tie): red-red, blue-blue (after 1 round)"


def test_sheet_under_a_target_says_who_leads_until_it_is_reached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "events.jsonl", (20, 10, 3), (20, 30, 3))
    assert main(["sheet", str(log), "--target", "99"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "match not over; leading: red-red, blue-blue"
    assert main(["sheet", str(log), "--target", "40"]) == 0
    assert (
        capsys.readouterr().out.splitlines()[-1] == "winners (tie): red-red, blue-blue (target reached after 2 rounds)"
    )


def test_sheet_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = write_log(tmp_path / "events.jsonl", (12, -4, 7), (3, 15, -20))
    assert main(["sheet", str(log), "--json", "--rounds", "2"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["totals"] == {"red-red": 15, "blue-blue": 11, "green-green": -13}
    assert sheet["rounds"][1] == {"round": 2, "scores": {"red-red": 3, "blue-blue": 15, "green-green": -20}}
    assert (sheet["winners"], sheet["complete"], sheet["ended_by"]) == (["red-red"], True, "rounds")


def test_sheet_of_a_log_without_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text("")
    assert main(["sheet", str(log)]) == 0
    assert capsys.readouterr().out == "no round was scored in this log\n"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"t": 1, "type": "round_scored", "scores": {"a": 3}', "line 3: not valid JSON (Expecting"),
        ('{"t": 1, "type": "card_dealt"}', "line 3: unknown event type 'card_dealt'"),
        ('{"t": 1, "type": "card_played", "card": {"colour": "red", "number": 0}}', "line 3: card number 0"),
        (
            '{"t": 1, "type": "round_scored", "round": 1, "scores": {"red-red": 99}}',
            "event 2 (round_scored at t=1): round 1: back 'red-red' scores 99",
        ),
    ],
)
def test_a_broken_event_line_is_one_clear_error_line(
    tmp_path: Path, line: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "events.jsonl")
    log.write_text(RoundStarted(t=0.0, backs=BACKS).to_json_line() + "\n\n" + line + "\n", encoding="utf-8")
    assert main(["sheet", str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("ligretto: error: ") and message in captured.err


def test_a_missing_log_is_one_clear_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sheet", str(tmp_path / "nope.jsonl")]) == 2
    assert capsys.readouterr().err.startswith("ligretto: error: cannot read event log")


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--target", "-5"]])
def test_impossible_match_settings_are_one_clear_error_line(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    log = write_log(tmp_path / "events.jsonl", (1, 2, 3))
    assert main(["sheet", str(log), *argv]) == 2
    assert capsys.readouterr().err.startswith("ligretto: error: ")

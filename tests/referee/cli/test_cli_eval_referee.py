"""ligretto eval-referee: which round it renders for each setting (the rendering itself is the renderer's)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import referee.cli.eval_referee
import referee.cli.main
from referee.backs import default_boxes
from referee.cli.eval_referee import _rendered, drawn_backs
from referee.errors import InputFileError
from referee.referee_eval import Miss, score_round


def _args(tmp_path: Path, **settings: object) -> argparse.Namespace:
    defaults = {"mistakes": 0.05, "speed": 1.0, "size": "1280x720", "fast_bots": True, "look": "train"}
    defaults.update(backs="first", view="centre")
    return argparse.Namespace(out=tmp_path, **{**defaults, **settings})


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The ``ligretto`` command lines eval-referee renders its rounds with (none is run)."""
    calls: list[list[str]] = []

    def record(argv: list[str]) -> int:
        calls.append(list(argv))
        return 0

    monkeypatch.setattr(referee.cli.main, "main", record)
    return calls


def test_drawn_sets_are_rendered_and_named_apart_from_the_catalogues_first(tmp_path, rendered) -> None:
    first = _rendered(_args(tmp_path), 4, 103000)
    drawn = _rendered(_args(tmp_path, backs="drawn"), 4, 103000)
    assert "--backs" not in rendered[0]
    assert rendered[1][rendered[1].index("--backs") + 1] == ",".join(drawn_backs(4, 103000))
    assert first.name == "p4-s103000-m0.05-x1-1280x720-fast.mp4"
    assert drawn.name == "p4-s103000-m0.05-x1-1280x720-fast-drawn.mp4"


def test_the_whole_table_framed_is_rendered_and_named_apart_from_the_centre_framed(tmp_path, rendered) -> None:
    centre = _rendered(_args(tmp_path), 8, 107000)
    table = _rendered(_args(tmp_path, view="table"), 8, 107000)
    assert "--view" not in rendered[0]
    assert rendered[1][rendered[1].index("--view") + 1] == "table"
    assert (centre.name, table.name) == (
        "p8-s107000-m0.05-x1-1280x720-fast.mp4",
        "p8-s107000-m0.05-x1-1280x720-fast-table.mp4",
    )


def test_drawn_sets_fill_whole_boxes_before_opening_another() -> None:
    boxes = default_boxes()
    for seed in range(20):
        sets = drawn_backs(6, seed)
        assert len(set(sets)) == 6
        assert len({boxes[s] for s in sets[:4]}) == 1 and boxes[sets[4]] == boxes[sets[5]] != boxes[sets[0]]
    assert len({tuple(drawn_backs(4, seed)) for seed in range(20)}) > 3  # the seed draws them


def test_a_round_that_cannot_be_read_costs_that_round_not_those_scored(tmp_path, monkeypatch, capsys) -> None:
    """Seed 2's video is cut short: the rounds of seeds 1 and 3 are still scored, printed and written to the CSV,
    the broken one is named, and the exit code says not everything was scored."""

    def one(args: argparse.Namespace, players: int, seed: int) -> tuple[object, dict[str, object], list[Miss]]:
        if seed == 2:
            raise InputFileError(f"cannot read video p{players}-s{seed}.mp4: truncated")
        extra = {"players": players, "seed": seed, "video_s": 10.0, "wall_s": 2.0, "speed_x_realtime": 5.0}
        extra["exit_code"] = 0
        metrics = score_round([], [], extra=extra)
        return metrics, metrics.row(), [Miss("illegal", "missed", 4.0, "r5", 1, "wrong_number")] if seed == 1 else []

    monkeypatch.setattr(referee.cli.eval_referee, "_one", one)
    code = referee.cli.main.main(["eval-referee", "--seeds", "1-3", "--players", "4", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert "p4 s2: not scored: cannot read video p4-s2.mp4: truncated" in err
    assert "not scored:       1 rounds (p4 s2)" in out
    rows = (tmp_path / "rounds.csv").read_text().splitlines()
    assert [row.split(",")[1] for row in rows[1:]] == ["1", "3"]
    misses = [json.loads(line) for line in (tmp_path / "misses.jsonl").read_text().splitlines()]
    assert misses == [
        {
            "players": 4,
            "seed": 1,
            "kind": "illegal",
            "side": "missed",
            "t": 4.0,
            "card": "r5",
            "stack": 1,
            "detail": "wrong_number",
        }
    ]

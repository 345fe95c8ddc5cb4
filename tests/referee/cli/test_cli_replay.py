"""ligretto replay end to end on scripted clips (oracle mode): the outputs, and each kind of bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import av
import pytest

from referee.cli.main import main
from referee.events import read_events
from referee.scripted_clip import ScriptedRound, film, two_player_round
from referee.tracker.synthetic import ScriptedTable
from vision.sources import VideoSource


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("clips")
    round_clip = film(two_player_round(), folder / "round.mp4")["video"]
    truncated = folder / "truncated.mp4"
    data = round_clip.read_bytes()
    truncated.write_bytes(data[: len(data) * 6 // 10])
    shutil.copy(folder / "round.frames.jsonl", folder / "truncated.frames.jsonl")
    empty = film(ScriptedRound(ScriptedTable(fps=30.0), [], 3.0), folder / "empty.mp4")["video"]
    unfinished = film(two_player_round(stop=False), folder / "unfinished.mp4")["video"]
    corrupt = folder / "corrupt.mp4"
    damaged = bytearray(data)
    for k in range(200):  # scattered bad bytes in the middle third: packets the decoder cannot read
        damaged[len(data) // 3 + (k * 7919) % (len(data) // 3)] ^= 0x5A
    corrupt.write_bytes(bytes(damaged))
    shutil.copy(folder / "round.frames.jsonl", folder / "corrupt.frames.jsonl")
    garbage = folder / "garbage.mp4"
    garbage.write_text("this is not a video\n")
    return {
        "round": round_clip,
        "truncated": truncated,
        "corrupt": corrupt,
        "empty": empty,
        "unfinished": unfinished,
        "garbage": garbage,
    }


def _replay(video: Path, out: Path, *extra: str) -> int:
    return main(["replay", str(video), "--out", str(out), "--oracle", *extra])


def test_a_replay_writes_events_summary_annotated_video_and_report(clips, tmp_path, capsys):
    assert _replay(clips["round"], tmp_path) == 0
    assert "round scored: blue-blue +2, red-red -1" in capsys.readouterr().out
    events = list(read_events(tmp_path / "events.jsonl"))
    assert [e.type for e in events].count("card_played") == 3 and events[-1].type == "round_scored"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == "ok" and summary["exit_code"] == 0
    assert summary["scores"] == {"blue-blue": 2, "red-red": -1}
    assert summary["counts"]["leftover"] == {"blue-blue": 0, "red-red": 2}
    assert [s["cards"] for s in summary["stacks"]] == [["r1", "r2", "r3"], ["b1", "b2"]]
    assert [s["removed"] for s in summary["stacks"]] == [True, True]  # gathered at the end
    assert summary["warnings"] == [] and summary["video"]["unreadable_frames"] == 0
    with av.open(str(tmp_path / "annotated.mp4")) as video:
        stream = video.streams.video[0]
        assert stream.codec_context.name == "h264"
        assert sum(1 for _ in video.decode(stream)) == summary["video"]["frames_read"]
    report = (tmp_path / "report.html").read_text()
    assert '<table class="scores">' in report and "red-red" in report and "data:image/jpeg;base64," in report


def test_no_video_skips_the_annotated_video(clips, tmp_path):
    assert _replay(clips["round"], tmp_path, "--no-video") == 0
    assert not (tmp_path / "annotated.mp4").exists() and (tmp_path / "report.html").exists()


def test_unreadable_frames_are_skipped_counted_and_the_round_still_scored(clips, tmp_path, capsys):
    assert _replay(clips["corrupt"], tmp_path, "--no-video") == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    with VideoSource(clips["corrupt"]) as source:
        lost = sum(1 for frame in source.frames() if frame.image is None)
    assert summary["video"]["unreadable_frames"] == lost > 0  # each counted once
    assert summary["video"]["frames_read"] == 480  # every frame accounted for, read or not
    assert summary["scores"] == {"blue-blue": 2, "red-red": -1}
    assert "unreadable frames were skipped" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("clip", "code", "message", "status"),
    [
        ("truncated", 3, "the file is truncated", "video_broken"),
        ("empty", 4, "no cards found anywhere in the video", "no_table"),
        ("unfinished", 5, "the video ends during play", "no_round_end"),
    ],
)
def test_a_replay_that_cannot_finish_says_why_and_keeps_what_was_decided(
    clips, tmp_path, capsys, clip, code, message, status
):
    assert _replay(clips[clip], tmp_path) == code
    err = capsys.readouterr().err
    assert err.startswith("ligretto: error: ") and message in err and "Traceback" not in err
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == status and summary["exit_code"] == code
    events = list(read_events(tmp_path / "events.jsonl"))
    if clip != "empty":  # the first stack had been decided before the end
        assert events[0].type == "stack_started" and summary["stacks"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["garbage"], "cannot read video"),
        (["missing"], "no such file"),
        (["round", "--calibration", "nowhere.json"], "cannot read calibration file"),
        (["round", "--stride", "0"], "--stride must be at least 1"),
        (["round", "--players", "red-red,blue-blu"], "no back 'blue-blu' in the catalogue"),
        (["round", "--players", "red-red,red-red"], "--players names red-red twice"),
        (["round", "--players", "red-red"], "--players needs 2 to 12 backs"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(clips, tmp_path, capsys, args, message):
    video = clips.get(args[0], tmp_path / "missing.mp4")
    argv = ["replay", str(video), "--out", str(tmp_path / "out"), "--oracle", *args[1:]]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ligretto: error:") and message in err and len(err.splitlines()) == 1


def test_the_oracle_needs_the_ground_truth_frames(clips, tmp_path, capsys):
    lone = tmp_path / "lone.mp4"
    shutil.copy(clips["round"], lone)
    assert main(["replay", str(lone), "--out", str(tmp_path / "out"), "--oracle"]) == 2
    assert "--oracle needs the ground-truth frames" in capsys.readouterr().err


def test_the_players_told_are_each_scored_one_never_seen_at_the_table_included(clips, tmp_path, capsys):
    # a third player whose seat and cards the picture never shows: told, they are scored all the same (no card
    # of theirs in the centre, none left over that anyone saw), as a table that knows who plays would write them
    assert _replay(clips["round"], tmp_path, "--no-video", "--players", "red-red,blue-blue,green-green") == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["scores"] == {"blue-blue": 2, "green-green": 0, "red-red": -1}

"""``ligretto synth video`` end to end: a playable MP4 and, beside it, events, frames and trace that agree."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import av
import cv2
import pytest

from referee.cli.main import main
from referee.cli.synth_video import FAST_BOTS
from referee.events import read_events
from referee.simulator import MistakeRates, Round, RoundResult, SimSettings
from vision.render.video import (
    CHUNK_FRAMES,
    MIN_LABELLED_VISIBLE,
    VideoSettings,
    companion_paths,
    plan,
    render_round,
    rendered_frames,
)
from vision.render.video_timeline import RETRACT_S, frame_of

SETTINGS = VideoSettings(size=(320, 180), duration_limit=6.0, time_scale=1.5, seed=4, workers=2)
LANDINGS = ("stack_started", "card_played", "illegal_play")


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    settings = SimSettings(bots=FAST_BOTS, mistakes=MistakeRates.uniform(0.05))
    result = Round(("red-red", "blue-blue"), seed=4, settings=settings).play()
    out = tmp_path_factory.mktemp("video") / "round.mp4"
    summary = render_round(result, out, SETTINGS)
    assert summary.frames == plan(result, SETTINGS).frames
    return out, summary.frames


def _frames(video: Path) -> list[dict[str, Any]]:
    lines = companion_paths(video)["frames"].read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_the_mp4_is_h264_with_every_frame_at_the_asked_size(written: tuple[Path, int]) -> None:
    video, frames = written
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        assert stream.codec_context.pix_fmt == "yuv420p"
        decoded = [frame.to_ndarray(format="bgr24") for frame in container.decode(stream)]
    assert len(decoded) == frames == 180
    assert decoded[0].shape == (180, 320, 3)


def test_opencv_reads_the_mp4_too(written: tuple[Path, int]) -> None:
    video, frames = written
    capture = cv2.VideoCapture(str(video))
    count = 0
    while capture.read()[0]:
        count += 1
    capture.release()
    assert count == frames


def test_the_frame_labels_have_one_line_per_frame_in_order(written: tuple[Path, int]) -> None:
    video, frames = written
    records = _frames(video)
    assert [r["frame"] for r in records] == list(range(frames))
    assert all(len(r["homography"]) == 3 for r in records)
    assert all(len(card["corners"]) == 4 for r in records for card in r["cards"])


def test_the_frame_labels_leave_out_cards_no_camera_could_see(written: tuple[Path, int]) -> None:
    video, _ = written
    visible = [card["visible"] for r in _frames(video) for card in r["cards"]]
    assert visible and min(visible) >= MIN_LABELLED_VISIBLE


@pytest.fixture(scope="module")
def quick_round() -> RoundResult:
    return Round(("red-red", "blue-blue"), seed=4, settings=SimSettings(bots=FAST_BOTS)).play()


@pytest.mark.parametrize(("speed", "tail"), [(1.0, 6.0), (1.5, 6.0), (4.0, 6.0), (1.5, 2.0), (1.5, 10.0)])
def test_the_final_spreads_lie_still_for_the_tail_after_the_last_move_at_any_speed(
    quick_round: RoundResult, speed: float, tail: float
) -> None:
    p = plan(quick_round, VideoSettings(time_scale=speed, tail_s=tail))
    last_move = max(r["t_end"] for r in p.trace if r["kind"] == "move")
    held = p.frames / 30.0 - last_move
    # the tail starts once the last hand is back at rest (its retreat takes 0.3 s); the video ends on a frame
    assert held == pytest.approx(tail + RETRACT_S, abs=1 / 30)
    assert p.events[-1].type == "round_scored"


def test_a_tail_of_nothing_still_keeps_the_score_in_the_video(quick_round: RoundResult) -> None:
    p = plan(quick_round, VideoSettings(time_scale=1.5, tail_s=0.0))
    assert p.events[-1].type == "round_scored" and p.events[-1].frame < p.frames


def test_event_frames_are_the_first_frame_at_or_after_the_event_time(written: tuple[Path, int]) -> None:
    video, frames = written
    events = list(read_events(companion_paths(video)["events"]))
    assert events[0].type == "round_started" and len(events) > 5
    for event in events:
        assert event.frame == frame_of(event.t, SETTINGS.fps) < frames
        assert event.frame - 1 < event.t * SETTINGS.fps <= event.frame + 1e-6


def test_a_landed_card_lies_still_from_its_events_frame_and_was_in_flight_just_before(
    written: tuple[Path, int],
) -> None:
    video, _ = written
    records = _frames(video)
    landings = [e for e in read_events(companion_paths(video)["events"]) if e.type in LANDINGS]
    assert landings

    def still(frame: int, back: str | None, colour: str, number: int) -> bool:
        return any(
            c["owner"] == back and c["colour"] == colour and c["number"] == number and not c["moving"]
            for c in records[frame]["cards"]
        )

    for event in landings:
        assert event.card is not None
        card = (event.back, event.card.colour.value, event.card.number)
        assert still(event.frame, *card), f"{event.type} {event.card} not at rest in frame {event.frame}"
        assert not still(event.frame - 1, *card), f"{event.card} already at rest before frame {event.frame}"


def test_the_trace_is_in_video_time_and_names_the_video_settings(written: tuple[Path, int]) -> None:
    video, frames = written
    lines = companion_paths(video)["trace"].read_text(encoding="utf-8").splitlines()
    layout, first = json.loads(lines[0]), json.loads(lines[1])
    assert layout["kind"] == "layout"
    assert layout["video"] == {
        "fps": 30.0,
        "time_scale": 1.5,
        "size": [320, 180],
        "frames": frames,
        "seed": 4,
        "view": "centre",
        "tail_s": 6.0,
        "look": "train",
    }
    assert first["t"] < 2.0


def test_ligretto_synth_video_writes_the_four_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "clip.mp4"
    args = ["synth", "video", "--players", "2", "--seed", "1", "--size", "160x96", "--duration-limit", "0.5"]
    assert main([*args, "--workers", "1", "--quiet", "--out", str(out)]) == 0
    assert out.exists() and all(path.exists() for path in companion_paths(out).values())
    assert "15 frames" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "clip.avi"], "must name an .mp4 file"),
        (["--size", "161x96", "--out", "clip.mp4"], "even"),
        (["--speed", "0", "--out", "clip.mp4"], "time scale must be positive"),
        (["--surface", "lava", "--out", "clip.mp4"], "unknown surface"),
        (["--tail", "-1", "--out", "clip.mp4"], "the tail must be"),
        ([], "--out FILE.mp4 is required"),
    ],
)
def test_bad_options_give_one_line_naming_the_problem(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["synth", "video", "--players", "2", *extra]) != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_two_workers_film_the_same_frames_as_one_across_a_chunk_boundary() -> None:
    result = Round(("red-red", "blue-blue"), seed=2).play()
    settings = VideoSettings(size=(160, 96), duration_limit=(CHUNK_FRAMES + 10) / 30.0, seed=2)
    one = [frame.image.tobytes() for frame in rendered_frames(plan(result, replace(settings, workers=1)))]
    two = [frame.image.tobytes() for frame in rendered_frames(plan(result, replace(settings, workers=2)))]
    assert len(one) == CHUNK_FRAMES + 10
    assert one == two


def test_the_benchmark_prints_frames_per_second_and_cpu_time(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", "video", "--bench", "--frames", "12", "--size", "160x96"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["frames"] == 12 and figures["frames_per_s"] > 0
    assert figures["render_cpu_ms_per_frame"] > 0 and figures["encode_cpu_ms_per_frame"] > 0


def test_an_output_folder_that_is_a_file_gives_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    args = ["synth", "video", "--players", "2", "--size", "160x96", "--duration-limit", "0.2", "--quiet"]
    assert main([*args, "--out", str(blocker / "clip.mp4")]) != 0
    err = capsys.readouterr().err.strip()
    assert "cannot write" in err and len(err.splitlines()) == 1

"""Live frame sources: what a --source names, and how frames are timed against the wall clock."""

from __future__ import annotations

import itertools

import pytest

from referee.errors import InputFileError
from referee.service.feed import FeedSpec, describe, paced, wall_timed
from vision.sources import Frame


@pytest.mark.parametrize(
    ("source", "kind", "name"),
    [
        ("0", "camera", "0"),
        ("rtsp://admin:pw@10.0.0.5/live", "stream", "rtsp://10.0.0.5/live"),
        ("http://phone.local:8080/video", "stream", "http://phone.local:8080/video"),
        ("recordings/friday.mp4", "file", "friday.mp4"),
    ],
)
def test_a_source_is_a_camera_a_stream_or_a_file(source: str, kind: str, name: str) -> None:
    spec = FeedSpec(source)
    assert (spec.kind, describe(spec)["name"]) == (kind, name)


def test_the_oracle_needs_a_file_with_its_labels(tmp_path) -> None:
    with pytest.raises(InputFileError, match="give a video file"):
        FeedSpec("0", oracle=True).check()
    with pytest.raises(InputFileError, match="no such file"):
        FeedSpec(str(tmp_path / "missing.mp4"), oracle=True).check()


def test_camera_frames_are_timed_by_the_clock_from_the_first_one() -> None:
    clock = iter([100.0, 100.04, 100.1]).__next__
    frames = [Frame(i, i / 30, None) for i in range(3)]  # declared 30 fps, delivered slower
    assert [round(f.t, 3) for f in wall_timed(iter(frames), clock)] == [0.0, 0.04, 0.1]


def test_unpaced_frames_carry_the_epoch_of_their_first_frame() -> None:
    ticks = itertools.count(1000.0, 0.5)
    frames = [Frame(i, 2.0 + i / 30, None) for i in range(3)]
    out = list(paced(iter(frames), 0.0, clock=lambda: next(ticks)))
    assert [f.index for f, _ in out] == [0, 1, 2]
    assert {epoch for _, epoch in out} == {1000.0}

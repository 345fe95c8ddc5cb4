"""Live frame sources: what a --source names, and how frames are timed against the wall clock."""

from __future__ import annotations

import itertools
import threading
import time

import pytest

from referee.errors import InputFileError
from referee.service.feed import FeedSpec, NewestFrame, describe, paced, wall_timed
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


def _gated(items: list[int], *, wait_before: dict[int, threading.Event], said: dict[int, threading.Event]):
    """Yields ``items``; before item i waits for ``wait_before[i]``; after yielding i sets ``said[i]``."""
    for item in items:
        if item in wait_before:
            assert wait_before[item].wait(5.0)
        yield item
        if item in said:
            said[item].set()


def test_a_slow_pipeline_gets_the_newest_frame_and_the_stale_ones_are_dropped() -> None:
    release, produced = threading.Event(), threading.Event()
    newest = NewestFrame(_gated([0, 1, 2, 3], wait_before={3: release}, said={2: produced})).start()
    assert produced.wait(5.0)  # frames 0, 1 and 2 came while the pipeline was busy elsewhere
    taken = iter(newest)
    first = next(taken)
    release.set()
    assert ([first, *taken], newest.dropped) == ([2, 3], 2)


def test_a_pipeline_that_keeps_up_gets_every_frame() -> None:
    asked = [threading.Event() for _ in range(5)]

    def frames():
        for i in range(5):
            assert asked[i].wait(5.0)  # the next frame comes only once the pipeline has taken the last one
            yield i

    newest = NewestFrame(frames())
    taken = []
    asked[0].set()
    for item in newest:
        taken.append(item)
        if item + 1 < len(asked):
            asked[item + 1].set()
    assert (taken, newest.dropped) == ([0, 1, 2, 3, 4], 0)


def test_a_source_that_fails_fails_in_the_pipeline() -> None:
    def broken():
        yield 1
        raise InputFileError("the camera went away")

    with pytest.raises(InputFileError, match="went away"):
        list(NewestFrame(broken()))


def test_closing_stops_the_reader_and_closes_the_source() -> None:
    closed = threading.Event()

    def endless():
        try:
            while True:
                yield time.time()
                time.sleep(0.001)
        finally:
            closed.set()

    newest = NewestFrame(endless())
    for _ in zip(range(3), newest, strict=False):
        pass
    newest.close()
    assert closed.is_set() and not newest._reader.is_alive()


def test_stopping_ends_the_iteration_even_when_the_source_stalls() -> None:
    stalled = threading.Event()

    def stalls():
        yield 1
        stalled.wait(5.0)  # a camera that delivers nothing more
        yield 2

    newest = NewestFrame(stalls())
    taken = iter(newest)
    assert next(taken) == 1
    newest.stop()  # from the server's shutdown, say
    assert list(taken) == []
    stalled.set()
    newest.close()

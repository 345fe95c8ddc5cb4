"""The end-of-round count reads its frames thoroughly, one reading a second (two while the gathering is in doubt);
play is read in one pass."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from referee.events import RoundScored
from referee.scripted_clip import film, two_player_round
from referee.session import COUNT_EVERY_S, DOUBT_COUNT_EVERY_S, OracleVision, Session, SessionResult
from referee.tracker.referee_session import GATHER_DOUBT_S
from vision.sources import VideoSource


class RecordingVision(OracleVision):
    """The oracle, noting for every frame it reads whether it was asked to read thoroughly."""

    thorough = True  # a vision with a thorough mode (as DetectorVision loaded with one)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.asked: list[tuple[float, bool]] = []
        self.within: list[tuple[int, int, int, int] | None] = []

    def read(self, frame, keep=None, *, thorough=False, within=None):
        self.asked.append((frame.t, thorough))
        self.within.append(within)
        return super().read(frame, keep, thorough=thorough)


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")


def _replayed(clip: dict[str, Path]) -> tuple[RecordingVision, list, SessionResult]:
    """The clip refereed through a recording oracle: the vision, the table plane's sample frames, the result."""
    vision = RecordingVision(OracleVision.load(clip["frames"]).frames)
    samples = list(vision.label_frames())[::10]
    with VideoSource(clip["video"]) as source:
        return vision, samples, Session(vision).run(source, samples=samples)


def test_only_the_count_is_read_thoroughly_and_twice_a_second_while_the_gathering_is_in_doubt(clip):
    vision, samples, result = _replayed(clip)
    assert isinstance(result.scored, RoundScored) and result.scored.scores == {"blue-blue": 2, "red-red": -1}
    asked = vision.asked[len(samples) :]  # the frames of the round, after the table plane's sample reads
    flags = [thorough for _, thorough in asked]
    first, last = flags.index(True), len(flags) - 1 - flags[::-1].index(True)
    assert not any(flags[:first]) and all(flags[first : last + 1]) and not any(flags[last + 1 :])
    stopped = next(e for e in result.emitted if e.event.type == "round_stopped")
    assert stopped.event.t <= asked[first][0] and asked[last][0] <= result.scored.t
    times = [t for t, _ in asked[first : last + 1]]
    in_doubt = [b - a for a, b in pairwise(times) if b <= stopped.said_t]
    assert len(in_doubt) >= 3 and all(DOUBT_COUNT_EVERY_S - 1e-6 <= gap < COUNT_EVERY_S for gap in in_doubt)
    assert all(b - a >= COUNT_EVERY_S - 1e-6 for a, b in pairwise(times) if a >= stopped.said_t)


def test_the_count_is_read_from_when_the_centre_is_seen_gathered_before_that_is_said(clip):
    """The gathering is said only once no card has been played on for a while (GATHER_DOUBT_S); the spreads are
    read for the count, thoroughly, from the moment it was seen."""
    vision, samples, result = _replayed(clip)
    stopped = next(e for e in result.emitted if e.event.type == "round_stopped")
    first = next(t for t, thorough in vision.asked[len(samples) :] if thorough)
    assert stopped.said_t - first >= GATHER_DOUBT_S - COUNT_EVERY_S
    assert isinstance(result.scored, RoundScored) and result.scored.scores == {"blue-blue": 2, "red-red": -1}


def test_play_is_read_within_the_centre_zone_and_its_margin_and_the_count_in_the_whole_picture(clip):
    vision, samples, result = _replayed(clip)
    assert isinstance(result.scored, RoundScored)
    reads = list(zip(vision.asked, vision.within, strict=True))[len(samples) :]
    in_play = [within for (_, thorough), within in reads if not thorough]
    counting = [within for (_, thorough), within in reads if thorough]
    boxes = {box for box in in_play if box is not None}
    assert len(boxes) == 1 and counting and all(box is None for box in counting)
    (x0, y0, x1, y1), (width, height) = boxes.pop(), (result.info.width, result.info.height)
    assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height and (x1 - x0) * (y1 - y0) < width * height
    zone = result.geometry.to_image(result.geometry.zones.centre)
    assert (zone >= (x0, y0)).all() and (zone <= (x1, y1)).all()  # the zone lies inside what is read

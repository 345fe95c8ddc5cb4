"""The annotated video is written beside the frame loop: every frame in order, and a failing writer stops the
replay with its own error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from referee.scripted_clip import film, two_player_round
from referee.session import OracleVision, Session, SessionResult
from vision.annotate import OverlayState
from vision.sources import VideoSource


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return film(two_player_round(), tmp_path_factory.mktemp("clip") / "round.mp4")


class Writer:
    """Keeps each frame's time and mean grey level; fails at frame ``fail_at`` when given."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.frames: list[tuple[float, float]] = []
        self.fail_at = fail_at

    def write_annotated(self, image: np.ndarray, state: OverlayState) -> None:
        if len(self.frames) == self.fail_at:
            raise OSError("No space left on device")
        self.frames.append((state.t, float(image.mean())))


def _replay(clip: dict[str, Path], writer: Writer) -> SessionResult:
    session = Session(OracleVision.load(clip["frames"]))
    with VideoSource(clip["video"]) as source:
        return session.run(source, samples=list(OracleVision.load(clip["frames"]).label_frames()), video_out=writer)


def test_every_frame_reaches_the_annotated_video_in_order(clip):
    writer = Writer()
    result = _replay(clip, writer)
    with VideoSource(clip["video"]) as source:
        expected = [(frame.t, float(frame.image.mean())) for frame in source.frames() if frame.image is not None]
    assert result.frames_read == len(expected) and writer.frames == expected


def test_a_writer_that_fails_stops_the_replay_with_its_error(clip):
    with pytest.raises(OSError, match="No space left"):
        _replay(clip, Writer(fail_at=30))

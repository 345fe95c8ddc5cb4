"""Where live frames come from: a camera index, a stream URL, or a video file played at its own rate.

A file stands in for a camera: it starts playing when a round starts and its frames are released at the
times they carry (``speed`` 2 plays twice as fast; 0 as fast as the pipeline goes, for tests). A camera or a
stream paces itself. Nothing a web client sends reaches here: the source is fixed on the command line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import InputFileError
from referee.session import DetectorVision, OracleVision, Session, Vision
from vision.geometry import TableGeometry
from vision.oracle import truth_frames_path
from vision.sources import CameraSource, Frame, VideoSource


@dataclass(frozen=True)
class FeedSpec:
    """``source``: camera index, ``scheme://`` URL or video file; ``oracle``: read the cards from the file's
    ground-truth labels (``FILE.frames.jsonl``) instead of the detector."""

    source: str
    oracle: bool = False
    speed: float = 1.0
    calibration: TableGeometry | None = None
    catalogue: Any = None

    @property
    def is_file(self) -> bool:
        return not self.source.isdigit() and "://" not in self.source

    @property
    def kind(self) -> str:
        return "file" if self.is_file else "camera" if self.source.isdigit() else "stream"

    def check(self) -> None:
        """Fails early, with a clear message, on a source or oracle file that cannot be used."""
        if self.oracle and not self.is_file:
            raise InputFileError("--oracle reads a rendered video's labels: give a video file as --source")
        if self.is_file:
            with VideoSource(self.source):
                pass
        else:
            self.open().close()  # a camera that is not there, or a stream that does not answer
        if self.oracle and not truth_frames_path(self.source).is_file():
            raise InputFileError(f"--oracle needs the ground-truth frames {truth_frames_path(self.source)}")

    def load_vision(self) -> Vision:
        if self.oracle:
            return OracleVision.load(truth_frames_path(self.source))
        return DetectorVision.load(catalogue=self.catalogue)

    def open(self) -> VideoSource | CameraSource:
        if self.is_file:
            return VideoSource(self.source)
        return CameraSource(int(self.source) if self.source.isdigit() else self.source)

    def geometry(self, session: Session, source: VideoSource | CameraSource) -> TableGeometry | None:
        """The table plane before play, from frames spread over a file (None for a camera: found live)."""
        if self.calibration is not None:
            return self.calibration
        vision = session.vision
        if isinstance(vision, OracleVision):
            labelled = list(vision.label_frames())
            step = max(1, len(labelled) // session.settings.sample_frames)
            samples: list[Frame] = [labelled[0], *labelled[step // 2 :: step]] if labelled else []
            return session.find_geometry(samples, source.info.size)
        if isinstance(source, VideoSource):
            samples = list(source.sample(session.sample_times(source.info)))
            return session.find_geometry(samples, source.info.size)
        return None


def paced(
    frames: Iterator[Frame], speed: float, clock: Callable[[], float] = time.time
) -> Iterator[tuple[Frame, float]]:
    """Each frame with the wall-clock time (epoch seconds) at which the source time 0 was shown; a file's frames
    are held back until their time comes (``speed`` 0: not held back)."""
    epoch: float | None = None
    for frame in frames:
        if epoch is None:
            epoch = clock() - frame.t / speed if speed > 0 else clock()
        if speed > 0:
            wait = epoch + frame.t / speed - clock()
            if wait > 0:
                time.sleep(wait)
        yield frame, epoch


def wall_timed(frames: Iterator[Frame], clock: Callable[[], float] = time.time) -> Iterator[Frame]:
    """A camera's frames timed by the clock from the first one (a camera's declared rate is often not its real
    one, and the referee's times must match the table's)."""
    start: float | None = None
    for frame in frames:
        now = clock()
        start = now if start is None else start
        yield Frame(frame.index, now - start, frame.image)


def describe(spec: FeedSpec) -> dict[str, Any]:
    name = Path(spec.source).name if spec.is_file else _without_password(spec.source)
    return {"kind": spec.kind, "name": name, "oracle": spec.oracle, "speed": spec.speed}


def _without_password(url: str) -> str:
    """A stream URL as shown to viewers: any ``user:password@`` left out.

    >>> _without_password("rtsp://admin:secret@10.0.0.5:554/live")
    'rtsp://10.0.0.5:554/live'
    """
    scheme, sep, rest = url.partition("://")
    return scheme + sep + rest.rpartition("@")[2] if sep else url

"""What the session runner reads cards with: the real detector + recogniser, or the oracle (ground truth).

Both answer :meth:`Vision.read` for one frame: detections in image pixels with identities, and the visible
fraction of each card when known (the oracle knows it; a detector does not).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from referee.errors import InputFileError
from vision.detections import CardDetections
from vision.oracle import DEFAULT_MIN_VISIBLE, TruthFrame, read_truth_frames
from vision.sources import Frame, VideoInfo


class Vision(Protocol):
    """Cards in one frame: detections (image pixels, identities filled) and visible fractions when known."""

    name: str

    def read(self, frame: Frame) -> tuple[CardDetections, np.ndarray | None]: ...


class DetectorVision:
    """The real pipeline: the detector and the recogniser (:class:`vision.detect.pipeline.CardReader`)."""

    name = "detector"

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.detect_ms = 0.0
        self.recognise_ms = 0.0
        self.calls = 0

    @classmethod
    def load(cls, catalogue: Any = None, model: str | Path | None = None) -> DetectorVision:
        from vision.detect.pipeline import CardReader

        try:
            return cls(CardReader.load(model=model, catalogue=catalogue))
        except FileNotFoundError as exc:
            raise InputFileError(f"{exc} (or replay a rendered video with --oracle)") from None

    @property
    def warning(self) -> str | None:
        return getattr(self.reader, "warning", None)

    def read(self, frame: Frame) -> tuple[CardDetections, np.ndarray | None]:
        if frame.image is None:
            return CardDetections.empty(), None
        reading = self.reader(frame.image)
        self.detect_ms += reading.detect_ms
        self.recognise_ms += reading.recognise_ms
        self.calls += 1
        return reading.detections, None


class OracleVision:
    """Ground truth in place of the detector: the rendered video's labels (see :mod:`vision.oracle`)."""

    name = "oracle"

    def __init__(self, frames: dict[int, TruthFrame]) -> None:
        self.frames = frames
        self.warning: str | None = None

    @classmethod
    def load(cls, path: str | Path, *, min_visible: float = DEFAULT_MIN_VISIBLE) -> OracleVision:
        return cls({f.frame: f for f in read_truth_frames(path, min_visible=min_visible)})

    def read(self, frame: Frame) -> tuple[CardDetections, np.ndarray | None]:
        truth = self.frames.get(frame.index)
        if truth is None:
            return CardDetections.empty(), None
        return truth.detections, truth.visible

    def label_frames(self, stop_at: float | None = None) -> Iterator[Frame]:
        """The labelled frames without their pictures (a replay that needs no video decoded)."""
        for index in sorted(self.frames):
            truth = self.frames[index]
            if stop_at is not None and truth.t > stop_at + 1e-9:
                return
            yield Frame(index, truth.t, None)


class Source(Protocol):
    info: VideoInfo
    unreadable: int
    broken: str | None

    def frames(self, *, stop_at: float | None = None) -> Iterator[Frame]: ...

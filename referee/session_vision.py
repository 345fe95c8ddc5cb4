"""What the session runner reads cards with: the real detector + recogniser, or the oracle (ground truth).

Both answer :meth:`Vision.read` for one frame: detections in image pixels with identities, and the visible
fraction of each card when known (the oracle knows it; a detector does not).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import numpy as np

from referee.errors import InputFileError
from vision.change import ClockReading
from vision.detections import CardDetections
from vision.oracle import DEFAULT_MIN_VISIBLE, TruthFrame, read_truth_frames
from vision.recognise.memo import ReadingMemo
from vision.sources import Frame, VideoInfo

OPENING = "opening"
"""``thorough=OPENING``: the frame is one of the opening's, which the seats are learnt from (see
:data:`vision.detect.thorough.OPENING_PLAN`)."""

Keep = Callable[[CardDetections], np.ndarray]
SPOT_REACH = 2.0
"""How far around a spot looked at closer the detector reads, in card widths: the card there, turned any way,
with a margin (a card is 1.54 widths long)."""
Box = tuple[int, int, int, int]


class Vision(Protocol):
    """Cards in one frame: detections (image pixels, identities filled) and visible fractions when known."""

    name: str

    def read(
        self, frame: Frame, keep: Keep | None = None, *, thorough: bool | str = False, within: Box | None = None
    ) -> tuple[CardDetections, np.ndarray | None]:
        """``keep``: which found cards matter (a mask over the detections), decided before they are
        recognised, so cards nobody needs (the players' rows during play) cost no recognition.
        ``thorough``: a frame that can afford several detector passes (the end-of-round count); :data:`OPENING`:
        one of the opening frames the seats are learnt from (passes planned for small cards lying apart).
        ``within``: the part of the picture (``x0, y0, x1, y1`` pixels) every card ``keep`` keeps lies in: a
        detector may look there only."""
        ...


class DetectorVision:
    """The real pipeline: the detector and the recogniser (:class:`vision.detect.pipeline.CardReader`)."""

    name = "detector"

    def __init__(self, reader: Any, thorough: Any = None, opening: Any = None) -> None:
        self.reader = reader
        self.thorough = thorough  # the detector for thorough reads (vision.detect.thorough); None: one pass always
        self.opening = opening  # the one for the opening frames' reads (None: the thorough one)
        self.detect_ms = 0.0
        self.recognise_ms = 0.0
        self.calls = 0

    @classmethod
    def load(
        cls, catalogue: Any = None, model: str | Path | None = None, thorough: bool = True, overlap: bool = False
    ) -> DetectorVision:
        """``thorough``: frames read with ``thorough=True`` go through several passes (else one, like the rest).
        ``overlap``: the session runs :meth:`find` in a thread beside :meth:`recognise` (``SessionSettings.
        overlap``): the detector then runs on one thread, since the other core is busy recognising (an eight-player
        round, alternating runs on the idle machine: 1.65-1.73x real time against 1.45-1.54x with a detector on
        both cores, 1.54-1.61x one frame at a time; CPU seconds 37-40 against 45-48)."""
        from vision.detect.pipeline import CardReader
        from vision.detect.thorough import COUNTING_PLAN, OPENING_PLAN, ThoroughDetector

        try:
            plan = COUNTING_PLAN if thorough else None
            careful = plan and CardReader.load(model=model, conf=plan.conf, recognise=False, thorough=plan)
            reader = CardReader.load(model=model, catalogue=catalogue, threads=1 if overlap else None)
            if not careful or not isinstance(careful.detector, ThoroughDetector):
                return cls(reader)
            # the opening's plan runs the counting plan's own detector (one network loaded)
            opening = ThoroughDetector(
                careful.detector.detector, OPENING_PLAN, conf=OPENING_PLAN.conf, workers=careful.detector.workers
            )
            return cls(reader, careful.detector, opening)
        except FileNotFoundError as exc:
            raise InputFileError(f"{exc} (or replay a rendered video with --oracle)") from None

    @property
    def warning(self) -> str | None:
        return getattr(self.reader, "warning", None)

    def fit_to_cards(self, card_px: float, size: tuple[int, int]) -> tuple[int, int] | None:
        """Magnifies the detector of play's frames where the table's cards, ``card_px`` wide in pictures of
        ``size`` (width, height), are small in its input (:func:`vision.detect.onnx_detector.magnification`: a
        camera farther off); its new input size (height, width), or None when it reads as it was. The thorough
        reads (the opening, the count) zoom in anyway."""
        from vision.detect.onnx_detector import magnification

        detector: Any = getattr(self.reader, "detector", None)
        in_input = getattr(detector, "card_width_in_input", None)
        if in_input is None:
            return None
        factor = magnification(in_input(card_px, size[1], size[0]))
        if factor == 1.0 or not detector.magnify(factor):
            return None
        return cast(tuple[int, int], detector.input_size)

    def read(
        self, frame: Frame, keep: Keep | None = None, *, thorough: bool | str = False, within: Box | None = None
    ) -> tuple[CardDetections, np.ndarray | None]:
        if frame.image is None:
            return CardDetections.empty(), None
        if not self.splits:  # a reader that does both at once
            self.calls += 1
            detections = self.reader(frame.image).detections
            return (detections[keep(detections)] if keep is not None else detections), None
        return self.recognise(frame, self.find(frame, keep, thorough=thorough, within=within))

    @property
    def splits(self) -> bool:
        """Whether a frame can be read in two steps, :meth:`find` then :meth:`recognise` (a reader with a
        detector of its own), so that the session can overlap one frame's finding with another's recognition."""
        return getattr(self.reader, "detector", None) is not None

    @property
    def recogniser(self) -> Any:
        return getattr(self.reader, "recogniser", None)

    def find(
        self, frame: Frame, keep: Keep | None = None, *, thorough: bool | str = False, within: Box | None = None
    ) -> Found:
        """The first step of :meth:`read`, which needs only the picture: the detector's cards that ``keep`` keeps.
        Safe to run in a thread of its own beside :meth:`recognise` of an earlier frame (the session overlaps
        them). The faces' colour fits (the recogniser's first look) are left to :meth:`recognise`, which makes
        them for the cards it reads afresh only: made here for every card, they cost the detector's thread 4 of
        its 16 s on a four-player round, while the memo spares a third to a half of the cards (the sample, a
        two-, four- and eight-player round, alternating runs: 3.20 -> 3.27x, 3.33 -> 3.65x, 2.14 -> 2.26x,
        1.92 -> 2.07x real time, the same events)."""
        detector = getattr(self.reader, "detector", None)
        if frame.image is None or detector is None:
            return Found(CardDetections.empty())
        if thorough == OPENING and self.opening is not None:
            detector = self.opening
        elif thorough and self.thorough is not None:
            detector = self.thorough
        start = time.perf_counter()
        if within is not None and getattr(detector, "any_size", False):
            detections = detector(frame.image, within=within)
        else:
            detections = detector(frame.image)
        if keep is not None:
            detections = detections[keep(detections)]
        self.detect_ms += (time.perf_counter() - start) * 1000
        return Found(detections)

    def look_closer(
        self, frame: Frame, spots: Sequence[tuple[float, float]], keep: Keep | None, card_px: float
    ) -> list[CardDetections]:
        """The cards found at each of ``spots`` (image pixels where a card may lie unfound, see
        :mod:`vision.look_again`), each read alone in a window :data:`vision.look_again.ZOOM` times closer than
        the frame's reading: those ``keep`` keeps whose middle lies within a card's width (``card_px``) of the
        spot. A detector of fixed input, or none, looks no closer (nothing found)."""
        from vision.detect.onnx_detector import Letterbox
        from vision.look_again import window_around, zoomed_window

        detector: Any = getattr(self.reader, "detector", None)
        input_size = getattr(detector, "input_size", None)
        if frame.image is None or input_size is None or not getattr(detector, "any_size", False):
            return [CardDetections.empty() for _ in spots]
        start = time.perf_counter()
        height, width = frame.image.shape[:2]
        size = zoomed_window(input_size, Letterbox.fit(height, width, input_size).scale)
        out = []
        for spot in spots:
            x0, y0, x1, y1 = window_around(spot, size, (width, height))
            # only the part of the window round the spot is read (the network's input cut on its grid, as a look
            # at the centre cuts the frame's): a card a few card-lengths across, a fraction of the whole window
            reach = SPOT_REACH * card_px
            part = (
                max(0, round(spot[0] - x0 - reach)),
                max(0, round(spot[1] - y0 - reach)),
                min(x1 - x0, round(spot[0] - x0 + reach)),
                min(y1 - y0, round(spot[1] - y0 + reach)),
            )
            closer = detector(np.ascontiguousarray(frame.image[y0:y1, x0:x1]), within=part)
            if len(closer):
                closer = closer.with_corners(closer.corners + np.asarray([x0, y0], np.float32))
                closer = closer[keep(closer)] if keep is not None else closer
                near = np.hypot(*(closer.corners.mean(axis=1) - np.asarray(spot)).T) <= card_px
                closer = closer[near]
            out.append(closer)
        self.detect_ms += (time.perf_counter() - start) * 1000
        return out

    def recognise(
        self, frame: Frame, found: Found, memo: ReadingMemo | None = None, clock: ClockReading | None = None
    ) -> tuple[CardDetections, np.ndarray | None]:
        """The cards :meth:`find` found, their identities read. ``memo`` and ``clock`` (the frame's change clock):
        a card found where it was read before, the picture unchanged there since, keeps that reading
        (:mod:`vision.recognise.memo`); the memo learns this frame's readings."""
        self.calls += 1
        detections = found.detections
        if self.recogniser is None or frame.image is None or not len(detections):
            return detections, None
        start = time.perf_counter()
        fresh = np.ones(len(detections), bool)
        remembered = CardDetections.empty()
        since = np.full(len(detections), np.nan)
        if memo is not None and clock is not None:
            since = clock.since(detections.corners)
            known, remembered = memo.recall(detections, since, frame.t)
            fresh = ~known
        # it reads each rough box through a few quads (vision.recognise.quads)
        read = detections[fresh]
        if len(read):
            read = self.recogniser(frame.image, read)
        if memo is not None and clock is not None:
            memo.remember(detections.corners[fresh], read, since[fresh], frame.t)
        order = np.argsort(np.r_[np.flatnonzero(fresh), np.flatnonzero(~fresh)], kind="stable")
        self.recognise_ms += (time.perf_counter() - start) * 1000
        return CardDetections.concatenate([read, remembered])[order], None


@dataclass(frozen=True)
class Found:
    """The cards found in a frame before they are recognised (see :meth:`DetectorVision.find`): the detector's
    boxes."""

    detections: CardDetections


class OracleVision:
    """Ground truth in place of the detector: the rendered video's labels (see :mod:`vision.oracle`)."""

    name = "oracle"

    def __init__(self, frames: dict[int, TruthFrame], recogniser: Any = None) -> None:
        self.frames = frames
        self.recogniser = recogniser
        self.warning: str | None = None
        if recogniser is not None:
            self.name = "oracle-boxes"

    @classmethod
    def load(
        cls,
        path: str | Path,
        *,
        min_visible: float = DEFAULT_MIN_VISIBLE,
        recognise: bool = False,
        catalogue: Any = None,
    ) -> OracleVision:
        """``recognise``: only the boxes are true; the recogniser reads each card from the picture (ORACLE BOXES:
        the referee with real recognition but perfect detection)."""
        recogniser = None
        if recognise:
            from vision.recognise.recogniser import Recogniser

            try:
                recogniser = Recogniser(catalogue=catalogue, search=False)  # true outlines need no search
            except (FileNotFoundError, OSError) as exc:
                raise InputFileError(f"--oracle-boxes needs the recogniser: {exc}") from None
        return cls({f.frame: f for f in read_truth_frames(path, min_visible=min_visible)}, recogniser)

    def read(
        self, frame: Frame, keep: Keep | None = None, *, thorough: bool | str = False, within: Box | None = None
    ) -> tuple[CardDetections, np.ndarray | None]:
        truth = self.frames.get(frame.index)
        if truth is None:
            return CardDetections.empty(), None
        detections, visible = truth.detections, truth.visible
        if keep is not None:
            mask = keep(detections)
            detections, visible = detections[mask], visible[mask]
        if self.recogniser is None or frame.image is None:  # without a picture: the labels (finding the plane)
            return detections, visible
        boxes = CardDetections.from_quads(detections.corners, detections.kind, detections.confidence)
        return self.recogniser(frame.image, boxes), visible

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

"""The session runner (a shell): source -> vision -> table plane -> referee -> sinks, with progress callbacks.

    vision = DetectorVision.load(catalogue=None)            # or OracleVision.load("round.frames.jsonl")
    with open_source("round.mp4") as source:
        result = Session(vision).run(source, video_out=Path("out/annotated.mp4"), progress=bar.update)
    result.events, result.summary(), result.exit_code

The table plane is found first (:meth:`Session.find_geometry`): frames sampled over the video go through the
detector and the homography that makes every card a 59 x 91 mm rectangle is fitted; the cards lying there at
the very start (players' rows and piles) mark where the centre zone ends. A manual calibration replaces that.
Then every frame (every ``stride``-th for the detector; the others only annotated) is read, mapped to the table
plane and given to the :class:`~referee.tracker.Referee`.

Bad input loses nothing: an unreadable frame is passed on as ``None`` (time passes, nothing seen) and counted;
a video that breaks off ends the replay with what was decided so far (``exit_code`` 3); a video without
cards (4) or without a round end (5) says so, with everything else still written out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from referee.errors import InputFileError, LigrettoError
from referee.events import Event, IllegalPlay, RoundScored, RoundStopped
from referee.sightings import card_quad
from referee.tracker import Referee, RefereeSettings
from vision.annotate import IllegalMark, OverlayState, StackMark, annotate
from vision.detections import CardDetections
from vision.geometry import NoTableError, TableGeometry, centre_zone_from_seats, fit_from_cards
from vision.oracle import DEFAULT_MIN_VISIBLE, TruthFrame, read_truth_frames
from vision.sightings_adapter import to_sightings
from vision.sources import Frame, VideoInfo

Image = np.ndarray
Progress = Callable[[int], None]

ILLEGAL_SHOWN_S = 3.0
THUMB_WIDTH = 240
MAX_THUMBS = 400


class ExitCode(IntEnum):
    """What ``ligretto replay`` returns; also in ``summary.json`` as ``exit_code``."""

    OK = 0
    BAD_INPUT = 2
    VIDEO_BROKEN = 3
    NO_TABLE = 4
    NO_ROUND_END = 5


# ------------------------------------------------------------------------------------------------- vision


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


# ------------------------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class Emitted:
    """An event and the moment the referee could say it (the frame being read when it came out)."""

    event: Event
    said_t: float
    said_frame: int


@dataclass
class SessionResult:
    """What a replay decided, and how it went."""

    info: VideoInfo
    vision: str
    geometry: TableGeometry | None
    emitted: list[Emitted] = field(default_factory=list)
    frames_read: int = 0
    frames_seen: int = 0
    unreadable: int = 0
    broken: str | None = None
    wall_s: float = 0.0
    last_t: float = 0.0
    warnings: list[str] = field(default_factory=list)
    stacks: list[dict[str, Any]] = field(default_factory=list)
    thumbs: dict[int, bytes] = field(default_factory=dict)
    """Index in :attr:`emitted` -> a JPEG of the frame around the event."""
    heights: list[tuple[float, dict[int, int]]] = field(default_factory=list)
    """(t, {stack: height}) whenever a stack changed, for the report's plot."""
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return [e.event for e in self.emitted]

    @property
    def scored(self) -> RoundScored | None:
        return next((e for e in reversed(self.events) if isinstance(e, RoundScored)), None)

    @property
    def stopped(self) -> RoundStopped | None:
        return next((e for e in self.events if isinstance(e, RoundStopped)), None)

    @property
    def exit_code(self) -> ExitCode:
        if self.broken is not None:
            return ExitCode.VIDEO_BROKEN
        if self.geometry is None:
            return ExitCode.NO_TABLE
        if self.scored is None:
            return ExitCode.NO_ROUND_END
        return ExitCode.OK

    @property
    def message(self) -> str:
        """One line for the user: what happened."""
        code = self.exit_code
        if code is ExitCode.VIDEO_BROKEN:
            return f"{self.broken}; what was decided up to {self.last_t:.1f} s is written out"
        if code is ExitCode.NO_TABLE:
            return "no cards found anywhere in the video: is the camera looking at a Ligretto table?"
        if code is ExitCode.NO_ROUND_END:
            if self.stopped is None:
                return (
                    f"the video ends during play at {self.last_t:.1f} s (no stop, no gathered centre): "
                    "the stacks so far are written out, no scores (use --stop-at SECONDS to stop the round)"
                )
            return "the round stopped but its spreads were never counted: no scores"
        scored = self.scored
        assert scored is not None
        return "round scored: " + ", ".join(f"{b} {s:+d}" for b, s in scored.scores.items())

    @property
    def speed(self) -> float:
        """Video seconds replayed per wall-clock second."""
        return self.last_t / self.wall_s if self.wall_s > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        scored = self.scored
        counts: dict[str, Any] = {}
        if scored is not None:
            counts = {"centre": scored.centre, "leftover": scored.leftover}
        by_type: dict[str, int] = {}
        for event in self.events:
            by_type[event.type] = by_type.get(event.type, 0) + 1
        return {
            "status": self.exit_code.name.lower(),
            "exit_code": int(self.exit_code),
            "message": self.message,
            "vision": self.vision,
            "video": {
                "width": self.info.width,
                "height": self.info.height,
                "fps": round(self.info.fps, 3),
                "frames_declared": self.info.frames,
                "frames_read": self.frames_read,
                "frames_seen": self.frames_seen,
                "unreadable_frames": self.unreadable,
                "broken": self.broken,
                "replayed_s": round(self.last_t, 3),
            },
            "geometry": self.geometry.to_json() if self.geometry is not None else None,
            "stacks": self.stacks,
            "counts": counts,
            "scores": scored.scores if scored is not None else {},
            "events": by_type,
            "warnings": self.warnings,
            "replay": {
                "wall_s": round(self.wall_s, 3),
                "speed_x_realtime": round(self.speed, 3),
                **{k: round(v, 3) for k, v in self.timings.items()},
            },
        }


# ------------------------------------------------------------------------------------------------ session


@dataclass(frozen=True)
class SessionSettings:
    """``stride``: read every k-th frame (the others are only annotated); ``stop_at``: the round's stop signal
    (seconds); ``geometry``: a manual calibration (None: found from the cards); ``sample_frames``: frames
    sampled to find the table plane."""

    stride: int = 1
    stop_at: float | None = None
    geometry: TableGeometry | None = None
    sample_frames: int = 16
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    thumbnails: bool = True


class Session:
    """Runs one source through vision and the referee (see the module docstring)."""

    def __init__(self, vision: Vision, settings: SessionSettings | None = None) -> None:
        self.vision = vision
        self.settings = settings or SessionSettings()

    # ---- geometry

    def find_geometry(self, samples: Iterable[Frame], size: tuple[int, int]) -> TableGeometry | None:
        """The table plane from the cards in ``samples`` (None: no card in any of them)."""
        if self.settings.geometry is not None:
            return self.settings.geometry
        quads: list[np.ndarray] = []
        first: np.ndarray | None = None
        for frame in samples:
            detections, visible = self.vision.read(frame)
            keep = detections.confidence >= 0.5
            if visible is not None:
                keep &= visible >= 0.9  # whole cards only: a half-covered quad is not a rectangle
            if first is None:
                first = detections.corners[keep]
            quads.extend(detections.corners[keep])
        if not quads:
            return None
        try:
            geometry = fit_from_cards(np.asarray(quads), size)
        except NoTableError:
            return None
        zones = centre_zone_from_seats(geometry, first if first is not None else np.zeros((0, 4, 2)))
        return geometry.with_zones(zones)

    def sample_times(self, info: VideoInfo) -> list[float]:
        """When to look for the table plane: the first frame (what lies there before play) and spread over the
        video."""
        duration = info.duration or 60.0
        n = max(2, self.settings.sample_frames)
        return [0.0, *[duration * (i + 0.5) / n for i in range(n)]]

    # ---- the frame loop

    def run(
        self,
        source: Source,
        *,
        frames: Iterable[Frame] | None = None,
        samples: Iterable[Frame] | None = None,
        video_out: Any = None,
        progress: Progress | None = None,
        pictures: bool = True,
    ) -> SessionResult:
        """Replays ``source`` (or the given ``frames`` of it); ``video_out`` is an open writer with ``write``.

        ``pictures=False``: the frames carry no images by design (the oracle's labels alone), so a frame without
        one is not unreadable."""
        start = time.perf_counter()
        info = source.info
        geometry = self.find_geometry(samples or (), info.size)
        found_s = time.perf_counter() - start
        result = SessionResult(info, self.vision.name, geometry)
        warning = getattr(self.vision, "warning", None)
        if warning:
            result.warnings.append(warning)
        if geometry is None:
            result.wall_s = time.perf_counter() - start
            return result
        result.timings["geometry_s"] = found_s
        _Loop(self, result, geometry, video_out, progress, pictures).run(frames or source.frames())
        result.unreadable += source.unreadable
        result.broken = source.broken
        result.wall_s = time.perf_counter() - start
        return result


class _Loop:
    """One pass over the frames; holds the referee and the bookkeeping for sinks and the report."""

    def __init__(
        self,
        session: Session,
        result: SessionResult,
        geometry: TableGeometry,
        video_out: Any,
        progress: Any,
        pictures: bool = True,
    ) -> None:
        self.pictures = pictures
        self.session = session
        self.settings = session.settings
        self.result = result
        self.geometry = geometry
        self.video_out = video_out
        self.progress = progress
        self.referee = Referee(session.settings.referee)
        self.stopped = False
        self._heights: dict[int, int] = {}

    def run(self, frames: Iterable[Frame]) -> None:
        result = self.result
        vision_s = referee_s = sink_s = 0.0
        for frame in frames:
            result.frames_read += 1
            result.last_t = frame.t
            tick = time.perf_counter()
            events = self._stop_signal(frame)
            sightings = self._sightings(frame)
            tock = time.perf_counter()
            if sightings is not False:
                events += self.referee.update(sightings)
            tack = time.perf_counter()
            self._record(events, frame)
            if self.video_out is not None and frame.image is not None:
                self._write_video(frame.image, self._overlay(frame.t))
            vision_s += tock - tick
            referee_s += tack - tock
            sink_s += time.perf_counter() - tack
            if self.progress is not None:
                self.progress(1)
        self._record(self.referee.finish(), None)
        result.warnings.extend(str(w) for w in self.referee.warnings)
        result.stacks = self._stacks()
        result.timings.update(vision_s=vision_s, referee_s=referee_s, sinks_s=sink_s)

    def _write_video(self, image: Image, state: OverlayState) -> None:
        if hasattr(self.video_out, "write_annotated"):
            self.video_out.write_annotated(image, state)
        else:
            self.video_out.write(annotate(image, state))

    def _stop_signal(self, frame: Frame) -> list[Event]:
        stop_at = self.settings.stop_at
        if stop_at is None or self.stopped or frame.t < stop_at:
            return []
        self.stopped = True
        return self.referee.stop(t=stop_at, frame=frame.index)

    def _sightings(self, frame: Frame) -> Any:
        """The frame's sightings, None for an unreadable frame, False for a frame left out by the stride."""
        if frame.image is None and self.pictures:
            self.result.unreadable += 1
            return None
        if frame.index % max(1, self.settings.stride):
            return False
        detections, visible = self.session.vision.read(frame)
        self.result.frames_seen += 1
        return to_sightings(detections, self.geometry, t=frame.t, frame=frame.index, visible=visible)

    def _record(self, events: list[Event], frame: Frame | None) -> None:
        said_t = frame.t if frame is not None else self.result.last_t
        said_frame = frame.index if frame is not None else self.result.frames_read - 1
        for event in events:
            self.result.emitted.append(Emitted(event, said_t, said_frame))
            if frame is not None and frame.image is not None and self.settings.thumbnails:
                self._thumb(len(self.result.emitted) - 1, event, frame.image)
        if events:
            heights = {s.id: s.height for s in self.referee.centre.stacks}
            if heights != self._heights:
                self._heights = heights
                self.result.heights.append((said_t, dict(heights)))

    def _thumb(self, index: int, event: Event, image: Image) -> None:
        if len(self.result.thumbs) >= MAX_THUMBS:
            return
        h, w = image.shape[:2]
        at = self._image_point(event)
        if at is None:
            crop = image
        else:
            half = max(60, int(0.14 * w))
            x0, y0 = (
                int(np.clip(at[0] - half, 0, max(0, w - 2 * half))),
                int(np.clip(at[1] - half, 0, max(0, h - 2 * half))),
            )
            crop = image[y0 : y0 + 2 * half, x0 : x0 + 2 * half]
        scale = THUMB_WIDTH / max(1, crop.shape[1])
        small = cv2.resize(crop, (THUMB_WIDTH, max(1, round(crop.shape[0] * scale))), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 70])
        if ok:
            self.result.thumbs[index] = data.tobytes()

    def _image_point(self, event: Event) -> tuple[float, float] | None:
        placement = getattr(event, "placement", None)
        if placement is not None:
            x, y = self.geometry.to_image([[placement.x, placement.y]])[0]
            return (float(x), float(y))
        for pile in self.referee.tracker.stacks:
            if self.referee.judge.stack_of(pile.id) == event.stack:
                x, y = self.geometry.to_image([pile.position])[0]
                return (float(x), float(y))
        return None

    def _overlay(self, t: float) -> OverlayState:
        centre = {s.id: s for s in self.referee.centre.stacks}
        marks = []
        for pile in self.referee.tracker.stacks:
            stack_id = self.referee.judge.stack_of(pile.id)
            if stack_id is None or stack_id not in centre:
                continue
            stack = centre[stack_id]
            quad = self.geometry.to_image(np.asarray(card_quad(pile.position, pile.angle)))
            marks.append(StackMark(stack_id, str(stack.top), stack.height, tuple(map(tuple, quad.tolist()))))
        illegal = []
        for emitted in reversed(self.result.emitted):
            if t - emitted.said_t > ILLEGAL_SHOWN_S:
                break
            if isinstance(emitted.event, IllegalPlay):
                at = self._image_point(emitted.event)
                if at is not None:
                    illegal.append(IllegalMark(str(emitted.event.card), emitted.event.reason, at))
        scored = self.referee.scored
        scores: tuple[tuple[str, int, int, int], ...] = ()
        if scored is not None:
            scores = tuple((b, scored.centre.get(b, 0), scored.leftover.get(b, 0), s) for b, s in scored.scores.items())
        return OverlayState(t, tuple(marks), tuple(illegal), str(self.referee.phase), scores)

    def _stacks(self) -> list[dict[str, Any]]:
        out = []
        for stack in self.referee.centre.stacks:
            out.append(
                {
                    "id": stack.id,
                    "top": str(stack.top),
                    "height": stack.height,
                    "cards": [str(c.card) for c in stack.cards],
                }
            )
        return out


def check_readable(result: SessionResult) -> None:
    """Raises for a source that gave not a single readable frame (nothing to replay at all)."""
    if result.frames_read and result.unreadable >= result.frames_read:
        raise LigrettoError("not a single frame of the video could be decoded")

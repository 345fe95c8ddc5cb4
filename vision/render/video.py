"""Videos of simulated rounds with exact per-frame ground truth.

``render_round(result, out)`` films a :class:`~referee.simulator.RoundResult` and writes, beside
``FILE.mp4`` (1280x720, 30 fps, H.264):

- ``FILE.events.jsonl``: the round's ground-truth event log (DESIGN.md's format) in video time: ``t`` in
  video seconds and ``frame`` the first frame that shows it (a played card lies still on its stack);
- ``FILE.frames.jsonl``: per frame, the table-to-pixel homography and every card showing at least
  :data:`MIN_LABELLED_VISIBLE` of itself: its corners in frame pixels (own top-left first, clockwise, to
  0.1 px), kind, identity, back, owner, visible fraction;
- ``FILE.trace.jsonl``: the simulator's trace in video seconds, its layout record carrying the video's
  settings (fps, time scale, size, seed), so the round can be filmed again.

Frames are rendered in chunks by worker processes (each keeps its own background cache and card art) and
encoded in order by the main process.

>>> from referee.simulator import Round
>>> from vision.render.art import FlatArt
>>> result = Round(("red-red", "blue-blue"), seed=3).play()
>>> settings = VideoSettings(size=(160, 96), duration_limit=0.2, workers=1)
>>> frames = list(film(result, settings, art=FlatArt()))
>>> len(frames), frames[0].image.shape
(6, (96, 160, 3))
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from queue import Empty
from typing import Any

import cv2
import numpy as np

from referee.errors import InputFileError, SetupError
from referee.events import Event, write_events
from referee.simulator.result import RoundResult
from vision.render.art import ArtSource, PrintedArt
from vision.render.video_frames import Frame, FrameRenderer
from vision.render.video_look import LOOKS, VIEWS, VideoLook
from vision.render.video_timeline import Timeline, frame_of
from vision.render.video_writer import DEFAULT_CRF, Mp4Writer

CHUNK_FRAMES = 120
"""Frames per worker chunk: each chunk starts with a full render of the table, so not too few."""
QUEUE_FRAMES = 6
"""Frames a worker may render ahead of the encoder (bounds memory: a 720p frame is 2.7 MB)."""
TAIL_S = 6.0
"""Video seconds the final spreads lie still after the last move (its hand back at rest): a referee needs
about 1.5 s to see the centre gathered and about 3 s more for its counts to settle."""
SCORE_MARGIN_S = 0.5
"""Video seconds kept after the last event (the score) however short the tail, so the log is whole."""
MIN_LABELLED_VISIBLE = 0.02
"""Cards showing less than this of their area are left out of ``FILE.frames.jsonl`` (the cards under a
pile's top, the deep end of a stack): no detector sees them, no reader keeps them, and they made up
two fifths of the file."""


@dataclass(frozen=True)
class VideoSettings:
    """How to film a round. ``time_scale`` 2.0 plays it twice as fast; ``tail_s`` holds the final spreads
    that many video seconds after the last move (at any time scale); ``duration_limit`` cuts the video."""

    size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    time_scale: float = 1.0
    view: str = "centre"
    duration_limit: float | None = None
    seed: int = 0
    workers: int = 2
    crf: int = DEFAULT_CRF
    shake_deg: float = 0.12
    tilt_deg: float | None = None
    surface: str | None = None
    light: str | None = None
    tail_s: float = TAIL_S
    look: str = "train"
    """The pools the surface, light and face print style are drawn from (:data:`vision.render.video_look.LOOKS`)."""

    def check(self) -> None:
        """Raises a :class:`SetupError` naming the first setting out of range."""
        if self.view not in VIEWS:
            raise SetupError(f"unknown view {self.view!r}: expected one of {', '.join(VIEWS)}")
        if self.look not in LOOKS:
            raise SetupError(f"unknown look {self.look!r}: expected one of {', '.join(LOOKS)}")
        if not 1.0 <= self.fps <= 120.0:
            raise SetupError(f"fps must be 1..120, not {self.fps}")
        if self.time_scale <= 0:
            raise SetupError(f"the time scale must be positive, not {self.time_scale}")
        if not 0.0 <= self.tail_s <= 600.0:
            raise SetupError(f"the tail must be 0..600 seconds, not {self.tail_s}")
        if self.duration_limit is not None and self.duration_limit <= 0:
            raise SetupError(f"the duration limit must be positive, not {self.duration_limit}")
        if self.workers < 1:
            raise SetupError(f"workers must be at least 1, not {self.workers}")
        if self.size[0] % 2 or self.size[1] % 2:
            raise SetupError(f"the video size must be even (H.264), not {self.size[0]}x{self.size[1]}")


@dataclass(frozen=True)
class Plan:
    """What to film: the timeline, its look, the frame count, the events and trace in video time."""

    timeline: Timeline
    look: VideoLook
    settings: VideoSettings
    frames: int
    events: tuple[Event, ...]
    trace: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class VideoSummary:
    """What ``render_round`` wrote and how fast."""

    video: Path
    frames: int
    seconds: float
    wall_s: float
    bytes: int

    @property
    def fps(self) -> float:
        return self.frames / self.wall_s if self.wall_s > 0 else 0.0


def plan(result: RoundResult, settings: VideoSettings) -> Plan:
    """The timeline and look of a round, and its event log and trace rescaled to video time."""
    settings.check()
    scale = settings.time_scale
    timeline = Timeline.from_trace(result.trace_json(), scale, settings.seed)
    look = VideoLook.for_timeline(
        timeline,
        settings.seed,
        settings.size,
        settings.view,
        settings.tilt_deg,
        settings.surface,
        settings.light,
        settings.shake_deg,
        settings.look,
    )
    last_event = max((e.t for e in result.events), default=0.0) / scale
    seconds = max(timeline.settled + settings.tail_s, last_event + SCORE_MARGIN_S)
    if settings.duration_limit is not None:
        seconds = min(seconds, settings.duration_limit)
    frames = max(1, math.floor(seconds * settings.fps + 1e-6))
    events = tuple(
        replace(e, t=e.t / scale, frame=frame_of(e.t / scale, settings.fps))
        for e in result.events
        if frame_of(e.t / scale, settings.fps) < frames
    )
    return Plan(timeline, look, settings, frames, events, tuple(_video_trace(result, settings, frames)))


def _video_trace(result: RoundResult, settings: VideoSettings, frames: int) -> Iterator[dict[str, Any]]:
    scale = settings.time_scale
    layout, *records = result.trace_json()
    yield {
        **layout,
        "video": {
            "fps": settings.fps,
            "time_scale": scale,
            "size": list(settings.size),
            "frames": frames,
            "seed": settings.seed,
            "view": settings.view,
            "tail_s": settings.tail_s,
            "look": settings.look,
        },
    }
    for record in records:
        scaled = {**record, "t": round(record["t"] / scale, 4)}
        if "t_end" in record:
            scaled["t_end"] = round(record["t_end"] / scale, 4)
        yield scaled


def film(result: RoundResult, settings: VideoSettings, art: ArtSource | None = None) -> Iterator[Frame]:
    """The frames of a round in order, rendered in this process (for tests and small clips)."""
    p = plan(result, settings)
    renderer = FrameRenderer(p.timeline, p.look, art or PrintedArt(), settings.fps)
    for index in range(p.frames):
        yield renderer.render(index)


def render_round(
    result: RoundResult,
    out: Path,
    settings: VideoSettings,
    progress: Callable[[int], None] | None = None,
) -> VideoSummary:
    """Films ``result`` into ``out`` (an ``.mp4``) with its events, frames and trace beside it."""
    p = plan(result, settings)
    paths = companion_paths(out)
    start = time.perf_counter()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with paths["events"].open("w", encoding="utf-8") as handle:
            write_events(p.events, handle)
        with paths["trace"].open("w", encoding="utf-8") as handle:
            for record in p.trace:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        with (
            Mp4Writer(out, settings.size, settings.fps, settings.crf) as writer,
            paths["frames"].open("w", encoding="utf-8") as labels,
        ):
            for frame in rendered_frames(p):
                writer.write(frame.image)
                labels.write(json.dumps(_label_record(frame, settings.fps), separators=(",", ":")) + "\n")
                if progress is not None:
                    progress(1)
    except OSError as exc:  # a folder that is a file, no permission, a full disk: one clear line
        raise InputFileError(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    wall = time.perf_counter() - start
    return VideoSummary(out, p.frames, p.frames / settings.fps, wall, out.stat().st_size)


def _label_record(frame: Frame, fps: float) -> dict[str, Any]:
    """A frame's line of ``FILE.frames.jsonl``: the cards a camera could see at all."""
    record = frame.to_json(fps)
    record["cards"] = [card for card in record["cards"] if card["visible"] >= MIN_LABELLED_VISIBLE]
    return record


def companion_paths(video: Path) -> dict[str, Path]:
    """``FILE.events.jsonl``, ``FILE.frames.jsonl`` and ``FILE.trace.jsonl`` beside ``FILE.mp4``."""
    stem = video.with_suffix("")
    return {kind: stem.with_name(f"{stem.name}.{kind}.jsonl") for kind in ("events", "frames", "trace")}


# ---------------------------------------------------------------------------------------------- workers


def chunks(frames: int, workers: int) -> list[list[range]]:
    """Round-robin chunks of frames per worker: worker w renders chunks w, w + workers, ...

    >>> [[(r.start, r.stop) for r in rs] for rs in chunks(300, 2)]
    [[(0, 120), (240, 300)], [(120, 240)]]
    """
    ranges = [range(s, min(s + CHUNK_FRAMES, frames)) for s in range(0, frames, CHUNK_FRAMES)]
    return [ranges[w::workers] for w in range(workers)]


def rendered_frames(p: Plan) -> Iterator[Frame]:
    """Frames of the plan in order; ``settings.workers`` processes render them when more than one."""
    workers = min(p.settings.workers, max(1, math.ceil(p.frames / CHUNK_FRAMES)))
    if workers <= 1:
        renderer = FrameRenderer(p.timeline, p.look, PrintedArt(), p.settings.fps)
        for index in range(p.frames):
            yield renderer.render(index)
        return
    # spawn, not fork: the encoder's and OpenCV's threads are running, and a forked child can inherit a
    # lock one of them held (it then hangs at its first OpenCV call)
    context: Any = multiprocessing.get_context("spawn")
    queues = [context.Queue(maxsize=QUEUE_FRAMES) for _ in range(workers)]
    plan_of = chunks(p.frames, workers)
    processes = [context.Process(target=_worker, args=(p, plan_of[w], queues[w]), daemon=True) for w in range(workers)]
    for process in processes:
        process.start()
    try:
        for index in range(p.frames):
            worker = (index // CHUNK_FRAMES) % workers
            item = _next_item(queues[worker], processes[worker])
            if isinstance(item, str):
                raise RuntimeError(f"video worker {worker} failed: {item}")
            yield _unpack(item)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()


def _next_item(queue: Any, process: Any) -> Any:
    """The worker's next frame; a worker that died without a word is an error, not a hang."""
    while True:
        try:
            return queue.get(timeout=2.0)
        except Empty:
            if not process.is_alive():
                raise RuntimeError(f"video worker {process.pid} ended (exit code {process.exitcode})") from None


def _worker(p: Plan, ranges: Sequence[range], queue: Any) -> None:
    cv2.setNumThreads(1)
    try:
        renderer = FrameRenderer(p.timeline, p.look, PrintedArt(), p.settings.fps)
        for frames in ranges:
            for index in frames:
                queue.put(_pack(renderer.render(index)))
    except Exception as exc:  # the main process reports it; a worker has no terminal of its own
        queue.put(f"{type(exc).__name__}: {exc}")


def _pack(frame: Frame) -> tuple[int, bytes, tuple[int, int], Any, tuple[dict[str, Any], ...]]:
    """A frame as plain data for the queue; the id mask stays behind (the labels carry what it gave)."""
    h, w = frame.image.shape[:2]
    return frame.index, frame.image.tobytes(), (h, w), frame.homography, frame.labels


def _unpack(item: tuple[int, bytes, tuple[int, int], Any, tuple[dict[str, Any], ...]]) -> Frame:
    index, data, (h, w), homography, labels = item
    image = np.frombuffer(data, np.uint8).reshape(h, w, 3)
    return Frame(index, image, np.zeros((0, 0), np.uint16), homography, labels)

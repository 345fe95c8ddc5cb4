"""A video file replayed into a folder: the glue behind ``ligretto replay`` and ``ligretto eval-referee``.

    result = replay_video(Path("round.mp4"), Path("out"), ReplayOptions(oracle=True))

writes ``out/events.jsonl``, ``out/summary.json``, ``out/annotated.mp4`` (unless ``video=False``) and
``out/report.html`` (each even when the replay ended early, with what was decided so far).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.backs import in_play
from referee.errors import InputFileError
from referee.events import write_events
from referee.report import render_report
from referee.session import OracleVision, Session, SessionResult, SessionSettings, Vision
from referee.tracker import RefereeSettings
from vision.annotate import OverlayState, annotate, scaled
from vision.geometry import TableGeometry
from vision.oracle import DEFAULT_MIN_VISIBLE, truth_frames_path
from vision.sources import VideoSource, prefetched

OUTPUTS = ("events.jsonl", "summary.json", "annotated.mp4", "report.html")


@dataclass(frozen=True)
class ReplayOptions:
    """How to replay: the stop signal, a manual calibration, the back catalogue, the oracle instead of the
    detector (reading ``FILE.frames.jsonl`` or ``truth``), every ``stride``-th frame read, the annotated video."""

    stop_at: float | None = None
    geometry: TableGeometry | None = None
    catalogue: Any = None
    model: str | Path | None = None
    oracle: bool = False
    oracle_boxes: bool = False
    """The oracle's boxes with the real recogniser reading them (implies pictures)."""
    truth: Path | None = None
    min_visible: float = DEFAULT_MIN_VISIBLE
    stride: int = 1
    skip_still: bool = False
    remember: bool = True
    """Still cards keep their readings (see :class:`referee.session.SessionSettings`)."""
    overlap: bool = True
    """The next frame's detector runs beside this frame's recognition (see :class:`SessionSettings`)."""
    look_again: bool = True
    """Spots where a card came to rest unfound are read closer (see :class:`SessionSettings`)."""
    video: bool = True
    report: bool = True
    annotated_scale: float = 0.5
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    players: tuple[str, ...] = ()
    """The players' backs, when told: the recogniser reads only these backs, and the referee scores each of them
    (see :class:`referee.session.SessionSettings`)."""


def load_vision(video: Path, options: ReplayOptions) -> Vision:
    if options.oracle or options.oracle_boxes:
        truth = options.truth or truth_frames_path(video)
        if not truth.is_file():
            raise InputFileError(f"--oracle needs the ground-truth frames {truth} (written by ligretto synth video)")
        return OracleVision.load(
            truth,
            min_visible=options.min_visible,
            recognise=options.oracle_boxes,
            catalogue=in_play(options.catalogue, options.players),
        )
    from referee.session import DetectorVision

    return DetectorVision.load(
        catalogue=in_play(options.catalogue, options.players), model=options.model, overlap=options.overlap
    )


def replay_video(
    video: Path,
    out: Path,
    options: ReplayOptions,
    *,
    progress: Callable[[int], None] | None = None,
    vision: Vision | None = None,
    on_start: Callable[[int | None], None] | None = None,
) -> SessionResult:
    """Replays ``video`` into the folder ``out``; returns the session's result (see its ``exit_code``)."""
    VideoSource(video).close()  # a file that is no video is the first thing to say
    vision = vision or load_vision(video, options)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputFileError(f"cannot create folder {out}: {exc.strerror or exc}") from None
    settings = SessionSettings(
        stride=options.stride,
        stop_at=options.stop_at,
        geometry=options.geometry,
        referee=options.referee,
        skip_still=options.skip_still,
        remember=options.remember,
        overlap=options.overlap,
        look_again=options.look_again,
        players=options.players,
    )
    session = Session(vision, settings)
    with VideoSource(video) as source:
        if on_start is not None:
            on_start(source.info.frames)
        pictures = options.video or options.report or options.oracle_boxes or not isinstance(vision, OracleVision)
        if isinstance(vision, OracleVision):
            labelled = list(vision.label_frames())
            step = max(1, len(labelled) // session.settings.sample_frames)
            samples = [labelled[0], *labelled[step // 2 :: step]] if labelled else []
            frames = prefetched(source.frames(), halve=True) if pictures else vision.label_frames()
        else:
            samples = list(source.sample(session.sample_times(source.info)))
            stride = max(1, options.stride)
            wanted = None if options.video else (lambda index: index % stride == 0)
            frames = prefetched(source.frames(need_picture=wanted), halve=True)
        writer = _annotated_writer(out, source, options) if options.video else None
        try:
            result = session.run(
                source, frames=frames, samples=samples, video_out=writer, progress=progress, pictures=pictures
            )
        finally:
            if writer is not None:
                writer.close()
    write_outputs(result, out, title=f"Ligretto replay of {video.name}", report=options.report)
    return result


class _Scaled:
    """The annotated-video sink: shrinks each frame to ``size``, then draws the overlay and encodes it (H.264 at
    720p costs about four times what it costs at half size, and the overlay reads as well)."""

    def __init__(self, writer: Any, size: tuple[int, int]) -> None:
        self.writer = writer
        self.size = size

    def write_annotated(self, image: Any, state: OverlayState) -> None:
        import cv2

        factor = self.size[0] / image.shape[1]
        if (image.shape[1], image.shape[0]) != self.size:
            image = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
            state = scaled(state, factor)
        self.writer.write(annotate(image, state))

    def close(self) -> None:
        self.writer.close()


def _annotated_writer(out: Path, source: VideoSource, options: ReplayOptions) -> _Scaled:
    from vision.render.video_writer import Mp4Writer

    width = max(2, int(source.info.width * options.annotated_scale) // 2 * 2)
    height = max(2, int(source.info.height * options.annotated_scale) // 2 * 2)
    writer = Mp4Writer(out / "annotated.mp4", (width, height), source.info.fps, crf=26, preset="ultrafast")
    return _Scaled(writer, (width, height))


def write_outputs(result: SessionResult, out: Path, *, title: str, report: bool = True) -> None:
    """``events.jsonl``, ``summary.json`` and (if ``report``) ``report.html`` in ``out``."""
    with (out / "events.jsonl").open("w", encoding="utf-8") as handle:
        write_events(result.events, handle)
    (out / "summary.json").write_text(json.dumps(result.summary(), indent=2) + "\n", encoding="utf-8")
    if report:
        timeline = [(e.event, result.thumbs.get(i)) for i, e in enumerate(result.emitted)]
        page = render_report(result.summary(), timeline, heights=result.heights, title=title)
        (out / "report.html").write_text(page, encoding="utf-8")

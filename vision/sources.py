"""Frame sources: video files, still images, a camera or a stream, all as one generator of :class:`Frame`.

    source = open_source("round.mp4")
    print(source.info)                       # VideoInfo(width=1280, height=720, fps=30.0, frames=900, ...)
    for frame in source.frames():            # Frame(index, t, image) with image None when unreadable
        ...
    source.problems                          # unreadable frames skipped, and whether the file broke off

Bad input is reported, not raised mid-way: a file that cannot be opened at all raises
:class:`~referee.errors.InputFileError` at :func:`open_source`; a frame that cannot be decoded comes out with
``image=None`` (skipped and counted); a file that breaks off ends the generator early and says so in
:attr:`VideoSource.broken`.
"""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.errors import InputFileError

Image = npt.NDArray[np.uint8]

VIDEO_SUFFIXES = (".mp4", ".mov", ".mkv", ".avi", ".webm", ".m4v")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
DECODE_ON_S = 4.0
"""A frame wanted this soon after the last one sampled is reached by decoding on, not by seeking: a seek decodes
from the keyframe before it, on average half a keyframe interval (libx264 puts them 250 frames, 8 s, apart)."""


@dataclass(frozen=True)
class VideoInfo:
    """What a source declares: size in pixels, frames per second, frame count and duration (None if unknown).

    >>> VideoInfo(1280, 720, 30.0, 900).duration
    30.0
    """

    width: int
    height: int
    fps: float
    frames: int | None = None

    @property
    def duration(self) -> float | None:
        return self.frames / self.fps if self.frames is not None and self.fps > 0 else None

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True)
class Frame:
    """One frame: its number, its time in seconds from the start, and the BGR image (None: unreadable).

    ``skipped``: decoded but its picture not made, because nobody asked for it (not an unreadable frame).
    """

    index: int
    t: float
    image: Image | None
    skipped: bool = False
    half: Image | None = field(default=None, repr=False, compare=False)
    """The picture at half its width and height (linear interpolation), when made ahead: :func:`prefetched`
    makes it in the decoder's thread, beside the reading of the frames before, for the change clock's pictures,
    which start from it (:meth:`vision.change.ChangeClock.tick`)."""

    def halved(self) -> Frame:
        """The same frame with :attr:`half` made."""
        if self.image is None or self.half is not None:
            return self
        size = (self.image.shape[1] // 2, self.image.shape[0] // 2)
        return replace(self, half=np.asarray(cv2.resize(self.image, size, interpolation=cv2.INTER_LINEAR), np.uint8))


class VideoSource:
    """A video file decoded with PyAV (any container and codec FFmpeg reads)."""

    def __init__(self, path: str | Path) -> None:
        import av

        self.path = Path(path)
        if not self.path.is_file():
            raise InputFileError(f"cannot read video {self.path}: no such file")
        try:
            self._container = av.open(str(self.path))
            stream = self._container.streams.video[0]
        except IndexError:
            raise InputFileError(f"cannot read video {self.path}: it holds no video stream") from None
        except (av.error.FFmpegError, OSError, UnicodeDecodeError) as exc:
            raise InputFileError(f"cannot read video {self.path}: {_reason(exc)} (truncated or not a video?)") from None
        stream.thread_type = "AUTO"
        self._stream = stream
        fps = float(stream.average_rate or stream.guessed_rate or 30.0)
        frames = stream.frames or None
        if frames is None and stream.duration is not None and stream.time_base is not None:
            frames = round(float(stream.duration * stream.time_base) * fps) or None
        self.info = VideoInfo(int(stream.codec_context.width), int(stream.codec_context.height), fps, frames)
        self.unreadable = 0
        self.broken: str | None = None
        self.decoded = 0

    def frames(
        self, *, stop_at: float | None = None, need_picture: Callable[[int], bool] | None = None
    ) -> Iterator[Frame]:
        """Every frame in order; ends early (setting :attr:`broken`) when the file breaks off.

        ``need_picture(index)`` False: the frame is decoded (the next ones depend on it) but its BGR picture,
        a third of the cost, is not made; it comes out ``skipped``.

        Frames are numbered by their timestamps, so a frame the decoder lost (a corrupt packet) leaves a gap:
        each missing number comes out as an unreadable frame (``image=None``), and every later frame keeps its
        true number and time.
        """
        import av

        fps = self.info.fps
        self._next = 0
        self._last_packet_t: float | None = None
        errors_in_a_row = 0
        try:
            packets = self._container.demux(self._stream)
            while True:
                try:
                    packet = next(packets)
                except StopIteration:
                    break
                except (av.error.FFmpegError, OSError) as exc:
                    self.broken = f"the video breaks off after frame {self._next}: {_reason(exc)}"
                    return
                if packet.pts is not None and packet.time_base is not None:
                    self._last_packet_t = float(packet.pts * packet.time_base)
                try:
                    decoded = packet.decode()
                except (av.error.FFmpegError, ValueError) as exc:
                    errors_in_a_row += 1
                    if errors_in_a_row > 30:
                        self.broken = f"the video breaks off after frame {self._next}: {_reason(exc)}"
                        return
                    continue
                for frame in decoded:
                    errors_in_a_row = 0
                    t = _time_of(frame, self._next, fps)
                    if stop_at is not None and t > stop_at + 1e-9:
                        return
                    index = max(self._next, round(t * fps))
                    yield from self._gap(index)
                    if need_picture is not None and not need_picture(index):
                        yield Frame(index, t, None, skipped=True)
                    else:
                        yield Frame(index, t, _bgr(frame))
                    self.decoded += 1
                    self._next = index + 1
            if stop_at is None and self._reached_the_end():
                yield from self._gap(self.info.frames or self._next)
        finally:
            self._finish(stop_at)

    def _gap(self, until: int) -> Iterator[Frame]:
        """Frames ``_next .. until - 1``, lost by the decoder: unreadable, counted."""
        for missing in range(self._next, until):
            self.unreadable += 1
            yield Frame(missing, missing / self.info.fps, None)
        self._next = max(self._next, until)

    def _reached_the_end(self) -> bool:
        """The last packet is (nearly) where the stream says it ends: frames missing there were lost, not cut."""
        expected = self.info.frames
        if not expected or self._last_packet_t is None:
            return False
        return self._last_packet_t >= (expected - 3) / self.info.fps

    def _finish(self, stop_at: float | None) -> None:
        expected = self.info.frames
        index = self._next
        if self.broken is None and stop_at is None and expected and index < expected - max(2, expected // 100):
            self.broken = f"the video ends at frame {index} of the {expected} it declares: the file is truncated"

    def sample(self, times: Sequence[float]) -> Iterator[Frame]:
        """Frames at (or just after) each of ``times``; unreadable ones are left out.

        A seek lands on the keyframe before the time wanted and decodes on from there, so a time within
        :data:`DECODE_ON_S` of the last frame sampled is reached by decoding on instead (no picture made on the
        way). Sample round, 16 times 2 s apart, keyframes 8 s apart: 3.9 s seeking each, 1.8 s decoding on."""
        import av

        fps = self.info.fps
        decoding: Iterator[Any] | None = None
        here = -math.inf
        for wanted in sorted(times):
            try:
                if decoding is None or not here < wanted <= here + DECODE_ON_S:
                    self._container.seek(
                        int(wanted / float(self._stream.time_base or Fraction(1, 1000))),
                        stream=self._stream,
                        backward=True,
                    )
                    decoding = self._container.decode(self._stream)
                for frame in decoding:
                    here = _time_of(frame, 0, fps)
                    if here + 0.5 / fps >= wanted:
                        yield Frame(round(here * fps), here, _bgr(frame))
                        break
                else:
                    decoding = None
            except (av.error.FFmpegError, OSError, ValueError):
                decoding = None
                continue
        try:
            self._container.seek(0, stream=self._stream)
        except (av.error.FFmpegError, OSError) as exc:
            raise InputFileError(f"cannot read video {self.path}: {_reason(exc)}") from None

    def close(self) -> None:
        self._container.close()

    def __enter__(self) -> VideoSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BT601_SPACES = (2, 5, 6)
"""FFmpeg's colour spaces (``AVColorSpace``) OpenCV's YUV conversion matches: unspecified (what libx264 writes by
default, converted as BT.601), BT.470BG and SMPTE 170M (both BT.601)."""
LIMITED_RANGES = (0, 1)
"""FFmpeg's colour ranges OpenCV's YUV conversion matches: unspecified and MPEG (limited, 16-235)."""


def _bgr(frame: Any) -> Image:
    """A decoded frame as a BGR picture. An 8-bit 4:2:0 frame in BT.601 at limited range (what libx264 writes
    unless told otherwise, and the renderer's videos) goes through OpenCV's YUV conversion: 0.48 ms against PyAV's
    1.30 ms a 720p frame (the sample round, 200 frames), within 3 levels of it; anything else through PyAV, which
    honours every colour space and range (phones tag their HD video BT.709: converted as BT.601 it would be off by
    up to 24 levels)."""
    fast = (
        frame.format.name == "yuv420p"
        and frame.width % 2 == 0
        and frame.height % 2 == 0
        and frame.colorspace in BT601_SPACES
        and frame.color_range in LIMITED_RANGES
    )
    if fast:
        return np.asarray(cv2.cvtColor(frame.to_ndarray(), cv2.COLOR_YUV2BGR_I420), np.uint8)
    return np.asarray(frame.to_ndarray(format="bgr24"), np.uint8)


def _time_of(frame: object, index: int, fps: float) -> float:
    pts = getattr(frame, "pts", None)
    base = getattr(frame, "time_base", None)
    if pts is None or base is None:
        return index / fps
    return float(Fraction(pts) * base)


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return str(text).split(": '")[0].strip()


class ImageSource:
    """Still images as frames, one second apart (a photo per frame)."""

    def __init__(self, paths: Sequence[str | Path], fps: float = 1.0) -> None:
        self.paths = [Path(p) for p in paths]
        if not self.paths:
            raise InputFileError("no images given")
        first = read_image(self.paths[0])
        self.info = VideoInfo(first.shape[1], first.shape[0], fps, len(self.paths))
        self.unreadable = 0
        self.broken: str | None = None

    def frames(self, *, stop_at: float | None = None) -> Iterator[Frame]:
        for index, path in enumerate(self.paths):
            t = index / self.info.fps
            if stop_at is not None and t > stop_at:
                return
            try:
                yield Frame(index, t, read_image(path))
            except InputFileError:
                self.unreadable += 1
                yield Frame(index, t, None)

    def close(self) -> None:
        pass


class CameraSource:
    """A camera (its index) or a stream URL through OpenCV; frames are timed from the first one."""

    def __init__(self, device: int | str) -> None:
        self.capture = cv2.VideoCapture(device)
        if not self.capture.isOpened():
            raise InputFileError(f"cannot open camera or stream {device!r}")
        fps = float(self.capture.get(cv2.CAP_PROP_FPS)) or 30.0
        width = int(self.capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(self.capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self.info = VideoInfo(width, height, fps if math.isfinite(fps) and fps > 0 else 30.0, None)
        self.unreadable = 0
        self.broken: str | None = None

    def frames(self, *, stop_at: float | None = None) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self.capture.read()
            if not ok:
                return
            t = index / self.info.fps
            if stop_at is not None and t > stop_at:
                return
            yield Frame(index, t, np.asarray(image, np.uint8))
            index += 1

    def close(self) -> None:
        self.capture.release()


def prefetched(frames: Iterator[Frame], depth: int = 8, *, halve: bool = False) -> Iterator[Frame]:
    """The same frames, decoded ahead in a thread (FFmpeg and OpenCV release the GIL, so decoding the next
    frames overlaps with reading the current one); an error in the decoder is raised here, in order.
    ``halve``: each picture is also halved there (:attr:`Frame.half`).

    >>> [f.index for f in prefetched(iter([Frame(0, 0.0, None), Frame(1, 0.1, None)]))]
    [0, 1]
    """
    box: queue.Queue[Frame | BaseException | None] = queue.Queue(depth)

    def decode() -> None:
        try:
            for frame in frames:
                box.put(frame.halved() if halve else frame)
        except BaseException as exc:  # handed to the reader, who raises it
            box.put(exc)
        box.put(None)

    threading.Thread(target=decode, name="decode", daemon=True).start()
    while (item := box.get()) is not None:
        if isinstance(item, BaseException):
            raise item
        yield item


def read_image(path: str | Path) -> Image:
    """A BGR image from a file; a clear :class:`InputFileError` when it cannot be read."""
    file = Path(path)
    if not file.is_file():
        raise InputFileError(f"cannot read image {file}: no such file")
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None:
        raise InputFileError(f"cannot read image {file}: not an image OpenCV can decode")
    return np.asarray(image, np.uint8)


def open_source(spec: str | Path) -> VideoSource | ImageSource | CameraSource:
    """A source from a command-line argument: a video file, an image file, a camera index or a stream URL."""
    text = str(spec)
    if text.isdigit():
        return CameraSource(int(text))
    if "://" in text:
        return CameraSource(text)
    path = Path(text)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource([path])
    return VideoSource(path)

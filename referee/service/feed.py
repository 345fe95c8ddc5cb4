"""Where live frames come from: a camera index, a stream URL, or a video file played at its own rate.

A file stands in for a camera: it starts playing when a round starts and its frames are released at the
times they carry (``speed`` 2 plays twice as fast; 0 as fast as the pipeline goes, for tests). A camera or a
stream paces itself. Nothing a web client sends reaches here: the source is fixed on the command line.

A live source is read by :class:`NewestFrame`: a thread takes frames as they come and the pipeline always
gets the newest one, so a pipeline slower than the camera drops frames instead of queueing them (a queued
frame is an alert that comes later and later).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from referee.errors import InputFileError
from referee.session import DetectorVision, OracleVision, Session, Vision
from vision.geometry import TableGeometry
from vision.oracle import truth_frames_path
from vision.sources import CameraSource, Frame, VideoSource

T = TypeVar("T")


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


class NewestFrame(Generic[T]):
    """Iterates over the newest of ``items``: a reader thread pulls them as fast as they come, and each step of
    the iteration takes the latest one. Items the consumer had no time for are dropped (counted in
    :attr:`dropped`), never queued: behind a slow pipeline a live source stays live. An error in ``items`` is
    raised in the consumer; :meth:`close` stops the reader (``items`` is closed in the reader's own thread, so
    a decoder is never touched by two threads).

    >>> newest = NewestFrame(iter(["only frame"]))
    >>> list(newest), newest.dropped
    (['only frame'], 0)
    """

    def __init__(self, items: Iterator[T]) -> None:
        self._items = items
        self._ready = threading.Condition()
        self._slot: list[T] = []  # the newest item not yet taken (at most one)
        self._ended = False
        self._error: BaseException | None = None
        self._closing = threading.Event()
        self._reader = threading.Thread(target=self._read, name="ligretto-frames", daemon=True)
        self.dropped = 0

    def _read(self) -> None:
        try:
            for item in self._items:
                with self._ready:
                    self.dropped += len(self._slot)
                    self._slot[:] = [item]
                    self._ready.notify()
                if self._closing.is_set():
                    break
        except Exception as exc:  # handed to the consumer, which raises it
            self._error = exc
        finally:
            close = getattr(self._items, "close", None)
            if close is not None:
                close()
            with self._ready:
                self._ended = True
                self._ready.notify()

    def start(self) -> NewestFrame[T]:
        """Starts reading (iterating starts it too): frames come from now on, whether taken or not."""
        if self._reader.ident is None:
            self._reader.start()
        return self

    def __iter__(self) -> Iterator[T]:
        self.start()
        while True:
            with self._ready:
                self._ready.wait_for(lambda: bool(self._slot) or self._ended or self._closing.is_set())
                if not self._slot:
                    break
                item = self._slot.pop()
            yield item
        if self._error is not None:
            raise self._error

    def stop(self) -> None:
        """Ends the iteration now, from any thread (a source that stalls does not hold up a server's shutdown)."""
        with self._ready:
            self._closing.set()
            self._ready.notify_all()

    def close(self, timeout: float = 5.0) -> None:
        """Stops, and waits for the reader to finish the item it is waiting for (a frame interval at most for a
        live source)."""
        self.stop()
        if self._reader.is_alive():
            self._reader.join(timeout)


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

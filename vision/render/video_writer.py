"""An MP4 writer that browsers play: H.264 (libx264) in yuv420p through PyAV, moov atom first.

OpenCV's ``VideoWriter`` in this environment only writes MPEG-4 Part 2 (``mp4v``), which browsers do not
play; PyAV links FFmpeg's libx264.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "grey.mp4"
>>> with Mp4Writer(path, (64, 48), fps=30) as writer:
...     for _ in range(3):
...         writer.write(np.full((48, 64, 3), 128, np.uint8))
>>> writer.frames, path.stat().st_size > 0
(3, True)
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

import av
import numpy as np
import numpy.typing as npt

from referee.errors import InputFileError

DEFAULT_CRF = 23
DEFAULT_PRESET = "veryfast"


class Mp4Writer:
    """Writes BGR frames (``h x w x 3`` uint8) to an H.264 MP4; use as a context manager."""

    def __init__(
        self,
        path: Path,
        size: tuple[int, int],
        fps: float = 30.0,
        crf: int = DEFAULT_CRF,
        preset: str = DEFAULT_PRESET,
        threads: int = 0,
    ) -> None:
        width, height = size
        if width % 2 or height % 2:
            raise ValueError(f"H.264 in yuv420p needs an even frame size, not {width}x{height}")
        self.path = Path(path)
        self.size = size
        self.frames = 0
        try:
            self._container: Any = av.open(str(self.path), mode="w", options={"movflags": "+faststart"})
        except (OSError, av.error.FFmpegError) as exc:
            raise InputFileError(f"cannot write video {self.path}: {exc}") from None
        stream: Any = self._container.add_stream("libx264", rate=round(fps))
        stream.width, stream.height = width, height
        stream.pix_fmt = "yuv420p"
        stream.options = {"crf": str(crf), "preset": preset, "threads": str(threads)}
        self._stream = stream

    def write(self, image: npt.NDArray[np.uint8]) -> None:
        if image.shape[:2] != (self.size[1], self.size[0]):
            raise ValueError(f"frame of {image.shape[1]}x{image.shape[0]}, writer is {self.size[0]}x{self.size[1]}")
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
        for packet in self._stream.encode(frame):
            self._container.mux(packet)
        self.frames += 1

    def close(self) -> None:
        if self._container is None:
            return
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()
        self._container = None

    def __enter__(self) -> Mp4Writer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

"""Uploaded videos replayed in the background, one at a time, with progress and the report.

Files go into ``DATA/replays/<random id>/`` under names chosen here: nothing a client sends becomes a path.
"""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import LigrettoError

VIDEO_SUFFIXES = (".mp4", ".mov", ".m4v", ".mkv", ".webm", ".avi")


def looks_like_video(head: bytes) -> bool:
    """The first bytes of an MP4/MOV (``ftyp``), Matroska/WebM (EBML) or AVI (``RIFF....AVI``) file.

    >>> looks_like_video(b"\\x00\\x00\\x00\\x20ftypisom"), looks_like_video(b"<html>")
    (True, False)
    """
    return head[4:8] == b"ftyp" or head[:4] == b"\x1a\x45\xdf\xa3" or (head[:4] == b"RIFF" and head[8:12] == b"AVI ")


@dataclass
class ReplayJob:
    id: str
    name: str
    folder: Path
    oracle: bool
    status: str = "queued"
    frames_done: int = 0
    frames_total: int | None = None
    message: str = ""
    summary: dict[str, Any] | None = None
    created: float = field(default_factory=time.time)

    @property
    def report(self) -> Path:
        return self.folder / "out" / "report.html"

    def to_json(self) -> dict[str, Any]:
        total = self.frames_total
        progress = 1.0 if self.status == "done" else min(1.0, self.frames_done / total) if total else 0.0
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "oracle": self.oracle,
            "frames_done": self.frames_done,
            "frames_total": total,
            "progress": round(progress, 4),
            "message": self.message,
            "summary": self.summary,
            "report": f"/api/replays/{self.id}/report" if self.report.is_file() else None,
            "created": self.created,
        }


class ReplayJobs:
    """The replay queue: ``new_folder`` for an upload, ``submit`` to run it, ``get`` to follow it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._jobs: dict[str, ReplayJob] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ligretto-replay")

    def new_folder(self) -> tuple[str, Path]:
        job_id = secrets.token_hex(8)
        folder = self.folder / "replays" / job_id
        folder.mkdir(parents=True, exist_ok=False)
        return job_id, folder

    def submit(self, job_id: str, folder: Path, video: Path, labels: Path | None, name: str) -> ReplayJob:
        job = ReplayJob(job_id, name, folder, oracle=labels is not None)
        with self._lock:
            self._jobs[job_id] = job
        self._pool.submit(self._run, job, video, labels)
        return job

    def get(self, job_id: str) -> ReplayJob:
        with self._lock:
            return self._jobs[job_id]

    def all(self) -> list[ReplayJob]:
        with self._lock:
            return sorted(self._jobs.values(), key=lambda j: -j.created)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, job: ReplayJob, video: Path, labels: Path | None) -> None:
        from referee.replay_files import ReplayOptions, replay_video

        job.status = "running"

        def progress(n: int) -> None:
            job.frames_done += n

        def on_start(total: int | None) -> None:
            job.frames_total = total

        options = ReplayOptions(oracle=labels is not None, truth=labels, video=False, report=True)
        try:
            result = replay_video(video, job.folder / "out", options, progress=progress, on_start=on_start)
        except LigrettoError as exc:
            job.status, job.message = "failed", str(exc)
            return
        except Exception as exc:  # a replay must never take the server down; say what broke
            job.status, job.message = "failed", f"the replay failed: {type(exc).__name__}: {exc}"
            return
        job.summary = result.summary()
        job.message = result.message
        job.status = "done"

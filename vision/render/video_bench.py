"""Video rendering speed: frames per second of a filmed round, end to end, and where the CPU time goes.

The end-to-end figure is what ``ligretto synth video`` achieves: worker processes render, the main
process encodes H.264 and writes the labels. On a shared machine the wall clock depends on what else runs,
so the CPU time per frame (all processes) is reported too, with the frame rate it allows on idle cores,
and the load average seen during the run.
"""

from __future__ import annotations

import os
import resource
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from referee.simulator import MistakeRates, Round, SimSettings
from vision.render.art import PrintedArt
from vision.render.video import VideoSettings, plan, render_round
from vision.render.video_frames import FrameRenderer
from vision.render.video_writer import Mp4Writer

BENCH_BACKS = ("red-red", "blue-blue", "green-green", "red-pink")
BENCH_SEED = 3
STAGE_FRAMES = 90


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bench_video(frames: int, settings: VideoSettings, folder: Path) -> dict[str, Any]:
    """Films ``frames`` frames of a 4-player round (seed 3, 2% mistakes) into ``folder``; returns the figures."""
    result = Round(BENCH_BACKS, seed=BENCH_SEED, settings=SimSettings(mistakes=MistakeRates.uniform(0.02))).play()
    clipped = replace(settings, duration_limit=frames / settings.fps)
    cpu0, load0 = _cpu_seconds(), os.getloadavg()[0]
    summary = render_round(result, folder / "bench.mp4", clipped)
    cpu = _cpu_seconds() - cpu0
    stages = _stages(result, settings)
    cpu_ms = 1000 * cpu / summary.frames
    return {
        "what": "a simulated 4-player round filmed: render (workers) + H.264 encode + labels (main)",
        "size": f"{settings.size[0]}x{settings.size[1]}",
        "workers": settings.workers,
        "frames": summary.frames,
        "seconds": round(summary.wall_s, 2),
        "frames_per_s": round(summary.fps, 1),
        "cpu_ms_per_frame": round(cpu_ms, 1),
        "frames_per_s_if_cores_idle": round(min(settings.workers, os.cpu_count() or 1) * 1000 / cpu_ms, 1),
        **stages,
        "load_average": round(max(load0, os.getloadavg()[0]), 1),
        "cpu_count": os.cpu_count(),
        "mb_per_minute": round(summary.bytes / 1e6 * 60 / max(summary.seconds, 1e-9), 1),
    }


def _stages(result: Any, settings: VideoSettings) -> dict[str, float]:
    """CPU milliseconds per frame of rendering (one process) and of encoding (one thread)."""
    cv2.setNumThreads(1)
    p = plan(result, settings)
    renderer = FrameRenderer(p.timeline, p.look, PrintedArt(), settings.fps)
    start = min(p.frames // 3, max(0, p.frames - STAGE_FRAMES))
    renderer.render(start)
    cpu = time.process_time()
    images = [renderer.render(i).image for i in range(start + 1, start + 1 + STAGE_FRAMES)]
    render_ms = 1000 * (time.process_time() - cpu) / len(images)
    cpu = time.process_time()
    path = Path(os.devnull if os.name != "posix" else "/tmp") / f"ligretto-bench-{os.getpid()}.mp4"
    with Mp4Writer(path, settings.size, settings.fps, settings.crf, threads=1) as writer:
        for image in images:
            writer.write(image)
    encode_ms = 1000 * (time.process_time() - cpu) / len(images)
    path.unlink(missing_ok=True)
    return {"render_cpu_ms_per_frame": round(render_ms, 1), "encode_cpu_ms_per_frame": round(encode_ms, 1)}

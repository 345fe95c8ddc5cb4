"""Rendering speed: images per second for training scenes, as the dataset writer produces them.

The figures include writing each example (JPEG, OBB and JSON labels, crops) into a temporary folder.
CPU time per image is measured too, because this machine is often shared: wall-clock images per second
then understates what the code does on idle cores.

Each worker first renders ``warmup`` scenes of its own (filling its card-art and surface caches, a one-off
cost that a long run amortises), then the timed run renders ``n`` scenes with JPEG encoding, split over
``workers`` processes. Scenes are the training split's, seeds 1_000_000 and up (no overlap with data).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2

from vision.render.dataset import pool_context, render_example
from vision.render.export import write_example

BENCH_SEED = 1_000_000


def _timed(seeds: list[int], size: int, out: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) to render and write ``seeds`` as dataset examples."""
    cv2.setNumThreads(1)
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in seeds:
        scene, rendered = render_example(seed, "train", (size, size))
        write_example(out, "train", seed, scene, rendered)
    return time.perf_counter() - wall, time.process_time() - cpu


def _worker(args: tuple[int, int, int, int, str]) -> tuple[float, float, float]:
    worker, n, size, warmup, out = args
    cold, _ = _timed([BENCH_SEED + 500_000 + worker * 10_000 + i for i in range(warmup)], size, Path(out))
    wall, cpu = _timed([BENCH_SEED + worker * 10_000 + i for i in range(n)], size, Path(out))
    return cold, wall, cpu


def bench_images(n: int = 200, size: int = 640, workers: int = 2, warmup: int = 60) -> dict[str, Any]:
    """Renders ``n`` scenes of ``size`` x ``size`` on ``workers`` processes; returns the figures.

    ``images_per_s`` is n over the wall time of the timed part (the slowest worker); ``warmup_images_per_s``
    is the rate of the cache-filling warm-up (what a short run sees).
    """
    per_worker = [n // workers + (1 if w < n % workers else 0) for w in range(workers)]
    with tempfile.TemporaryDirectory(prefix="ligretto-bench-") as tmp:
        jobs = [(w, per_worker[w], size, warmup, tmp) for w in range(workers)]
        if workers <= 1:
            results = [_worker(jobs[0])]
        else:
            with pool_context().Pool(workers) as pool:
                results = pool.map(_worker, jobs)
    cold = max(r[0] for r in results)
    wall = max(r[1] for r in results)
    cpu_per_image = sum(r[2] for r in results) / max(n, 1)
    return {
        "what": "random training scenes rendered and written (JPEG, OBB and JSON labels, crops)",
        "size": f"{size}x{size}",
        "workers": workers,
        "images": n,
        "seconds": round(wall, 2),
        "images_per_s": round(n / wall, 1) if wall > 0 else None,
        "cpu_ms_per_image": round(1000 * cpu_per_image, 1),
        # what the same work gives when every worker has a core to itself (the machine is often shared)
        "images_per_s_if_cores_idle": round(workers / cpu_per_image, 1) if cpu_per_image > 0 else None,
        "warmup_images_per_s": round(warmup * workers / cold, 1) if cold > 0 and warmup else None,
        "cpu_count": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }

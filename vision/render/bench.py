"""Rendering speed: images per second for training scenes, as the dataset writer produces them.

Each worker first renders ``warmup`` scenes of its own (filling its card-art and surface caches, a one-off
cost that a long run amortises), then the timed run renders ``n`` scenes with JPEG encoding, split over
``workers`` processes. Scenes are the training split's, seeds 1_000_000 and up (no overlap with data).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from typing import Any

import cv2

from vision.render.dataset import render_example

BENCH_SEED = 1_000_000


def _timed(seeds: list[int], size: int) -> float:
    cv2.setNumThreads(1)
    start = time.perf_counter()
    for seed in seeds:
        _, rendered = render_example(seed, "train", (size, size))
        cv2.imencode(".jpg", rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return time.perf_counter() - start


def _worker(args: tuple[int, int, int, int]) -> tuple[float, float]:
    worker, n, size, warmup = args
    cold = _timed([BENCH_SEED + 500_000 + worker * 10_000 + i for i in range(warmup)], size)
    seeds = [BENCH_SEED + worker * 10_000 + i for i in range(n)]
    return cold, _timed(seeds, size)


def bench_images(n: int = 200, size: int = 640, workers: int = 2, warmup: int = 60) -> dict[str, Any]:
    """Renders ``n`` scenes of ``size`` x ``size`` on ``workers`` processes; returns the figures.

    ``images_per_s`` is n over the wall time of the timed part (the slowest worker); ``warmup_images_per_s``
    is the rate of the cache-filling warm-up (what a short run sees).
    """
    per_worker = [n // workers + (1 if w < n % workers else 0) for w in range(workers)]
    jobs = [(w, per_worker[w], size, warmup) for w in range(workers)]
    if workers <= 1:
        results = [_worker(jobs[0])]
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
        with context.Pool(workers) as pool:
            results = pool.map(_worker, jobs)
    wall = max(r[1] for r in results)
    cold = max(r[0] for r in results)
    return {
        "what": "random training scenes rendered and JPEG-encoded",
        "size": f"{size}x{size}",
        "workers": workers,
        "images": n,
        "seconds": round(wall, 2),
        "images_per_s": round(n / wall, 1) if wall > 0 else None,
        "ms_per_image_per_worker": round(1000 * wall / max(per_worker), 1) if max(per_worker) else None,
        "warmup_images_per_s": round(warmup * workers / cold, 1) if cold > 0 and warmup else None,
        "cpu_count": os.cpu_count(),
    }

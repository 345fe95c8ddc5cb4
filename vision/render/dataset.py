"""Rendering many scenes in parallel into a dataset folder, deterministic per image seed.

Image ``i`` of a run with base seed ``S`` has the seed ``S + i`` and the name ``SPLIT_{S+i:08d}``: the
picture depends only on (seed, split, size), never on the worker or the order, so runs can be split,
resumed or merged.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as tmp:
...     summary = build_dataset(Path(tmp), n=2, seed=5, split="train", size=(160, 160), workers=1, progress=False)
...     sorted(p.name for p in (Path(tmp) / "images" / "train").iterdir())
['train_00000005.jpg', 'train_00000006.jpg']
>>> summary.images
2
"""

from __future__ import annotations

import csv
import multiprocessing
import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from vision.render.art import PrintedArt
from vision.render.export import CROP_FIELDS, MIN_VISIBLE, Written, dataset_yaml, write_example
from vision.render.generate import SPLITS, random_scene
from vision.render.scene import Rendered, Scene, render

_ART: PrintedArt | None = None


def worker_art() -> PrintedArt:
    """This process's art cache (one per worker, filled as scenes ask for cards)."""
    global _ART
    if _ART is None:
        _ART = PrintedArt()
    return _ART


def render_example(seed: int, split: str = "train", size: tuple[int, int] = (640, 640)) -> tuple[Scene, Rendered]:
    scene = random_scene(seed, split, size)
    return scene, render(scene, worker_art())


def _job(seed: int, out: Path, split: str, size: tuple[int, int], min_visible: float) -> Written:
    # One thread per worker: the pool provides the parallelism, OpenCV's own threads would only fight it.
    import cv2

    cv2.setNumThreads(1)
    scene, rendered = render_example(seed, split, size)
    return write_example(out, split, seed, scene, rendered, min_visible)


@dataclass(frozen=True)
class DatasetSummary:
    images: int
    boxes: int
    crops: int
    out: Path


def pool_context() -> multiprocessing.context.BaseContext:
    """Where worker processes come from: a fresh server process, never a fork of this one.

    Forking a process whose other threads (OpenCV's pool, BLAS, torch) hold a lock leaves the child
    waiting on that lock forever; a fork server is single-threaded when it forks.
    """
    return multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")


def _results(seeds: list[int], job: partial[Written], workers: int) -> Iterator[Written]:
    if workers <= 1:
        yield from map(job, seeds)
        return
    with pool_context().Pool(workers) as pool:
        yield from pool.imap(job, seeds, chunksize=4)


def build_dataset(
    out: Path,
    n: int,
    seed: int = 0,
    split: str = "train",
    size: tuple[int, int] = (640, 640),
    workers: int = 2,
    min_visible: float = MIN_VISIBLE,
    progress: bool = True,
) -> DatasetSummary:
    """Renders ``n`` scenes of ``split`` into ``out`` (images, OBB labels, JSON labels, crops + CSV, yaml)."""
    random_scene(seed, split, size)  # fail fast on a bad split or size, before starting workers
    seeds = list(range(seed, seed + n))
    job = partial(_job, out=out, split=split, size=size, min_visible=min_visible)
    results = _results(seeds, job, workers)
    if progress:
        from tqdm import tqdm

        results = tqdm(results, total=n, unit="img", desc=f"synth {split}")
    boxes = 0
    rows: list[tuple[str, ...]] = []
    for written in results:
        boxes += written.boxes
        rows.extend(written.crop_rows)
    _write_crop_csv(out / "crops" / f"{split}.csv", rows)
    present = [s for s in SPLITS if (out / "images" / s).is_dir()]
    (out / "dataset.yaml").write_text(dataset_yaml(out, present), encoding="utf-8")
    return DatasetSummary(n, boxes, len(rows), out)


def _write_crop_csv(path: Path, rows: list[tuple[str, ...]]) -> None:
    """Merges ``rows`` into the split's crop list (a rerun over the same seeds replaces their rows)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    merged: dict[str, tuple[str, ...]] = {}
    if path.exists():
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                merged[row["crop"]] = tuple(row[f] for f in CROP_FIELDS)
    merged.update((row[0], row) for row in rows)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CROP_FIELDS)
        writer.writerows(merged[key] for key in sorted(merged))
    os.replace(tmp, path)

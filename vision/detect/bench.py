"""Speed of detect + recognise on 1280x720 table frames, against ultralytics ``predict`` in the same run.

Frames are rendered table scenes (``vision.render``) with 30..60 findable cards each, chosen by seed, so
every run measures the same pictures. Each timed call is repeated over all frames after one warm-up pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.detect.pipeline import CardReader

Image = npt.NDArray[np.uint8]
FRAME_SIZE = (1280, 720)
FINDABLE_VISIBLE = 0.15  # cards showing less are not asked of the detector (as in the training labels)


@dataclass(frozen=True)
class Timing:
    """Milliseconds per frame over the frames of one run."""

    ms: tuple[float, ...]

    @property
    def median(self) -> float:
        return float(np.median(self.ms))

    @property
    def p90(self) -> float:
        return float(np.percentile(self.ms, 90))

    @property
    def fps(self) -> float:
        return 1000.0 / self.median

    def __str__(self) -> str:
        return f"median {self.median:6.1f} ms  p90 {self.p90:6.1f} ms  {self.fps:6.1f} fps"


@dataclass(frozen=True)
class Frames:
    images: list[Image]
    seeds: list[int]
    cards: list[int]


def table_frames(count: int, min_cards: int = 30, max_cards: int = 60, first_seed: int = 0) -> Frames:
    """``count`` rendered 1280x720 heldout scenes with ``min_cards..max_cards`` findable cards each."""
    from vision.render.dataset import render_example

    images: list[Image] = []
    seeds: list[int] = []
    cards: list[int] = []
    seed = first_seed
    while len(images) < count and seed < first_seed + 60 * count:
        _, rendered = render_example(seed, "heldout", FRAME_SIZE)
        findable = sum(label.visible >= FINDABLE_VISIBLE for label in rendered.labels)
        if min_cards <= findable <= max_cards:
            images.append(rendered.image)
            seeds.append(seed)
            cards.append(findable)
        seed += 1
    return Frames(images, seeds, cards)


def frames_from(data: Path, count: int, min_cards: int = 25) -> Frames:
    """The ``count`` labelled images under ``data`` with the most findable cards (at least ``min_cards``).

    Rendering busy scenes is slow (few random scenes hold 30+ visible cards), so a directory written by
    ``ligretto synth images`` is the quicker source of crowded frames.
    """
    import cv2

    from vision.evaluate.truth import iter_truth

    crowded = sorted(
        ((int((t.visible >= FINDABLE_VISIBLE).sum()), t.image) for t in iter_truth(data)), key=lambda c: -c[0]
    )
    chosen = [(n, image) for n, image in crowded[:count] if n >= min_cards]
    images = [np.asarray(cv2.imread(str(image)), np.uint8) for _, image in chosen]
    return Frames(images, [int(Path(image).stem.split("_")[-1]) for _, image in chosen], [n for n, _ in chosen])


def time_each(frames: list[Image], run: Callable[[Image], object]) -> Timing:
    """Runs ``run`` on every frame once to warm up, then once more timed."""
    for image in frames[:2]:
        run(image)
    ms = []
    for image in frames:
        start = time.perf_counter()
        run(image)
        ms.append((time.perf_counter() - start) * 1000)
    return Timing(tuple(ms))


@dataclass(frozen=True)
class BenchResult:
    detect: Timing
    recognise: Timing
    total: Timing
    cards_found: float
    baseline: Timing | None
    baseline_name: str


def bench(frames: Frames, reader: CardReader, baseline_model: Path | None) -> BenchResult:
    """Times the reader stage by stage and, if ``baseline_model`` is given, ultralytics ``predict`` on it."""
    for image in frames.images[:2]:
        reader(image)
    readings = [reader(image) for image in frames.images]
    detect = Timing(tuple(r.detect_ms for r in readings))
    recognise = Timing(tuple(r.recognise_ms for r in readings))
    total = Timing(tuple(r.total_ms for r in readings))
    found = float(np.mean([len(r.detections) for r in readings]))
    baseline = None
    if baseline_model is not None:
        from vision.detect import load_detector

        predict = load_detector("ultralytics", baseline_model, conf=0.4)
        baseline = time_each(frames.images, predict)
    return BenchResult(detect, recognise, total, found, baseline, str(baseline_model))

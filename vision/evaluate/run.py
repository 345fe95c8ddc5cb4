"""Running the detector and recogniser over a labelled directory and scoring every image."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.detect.pipeline import CardReader
from vision.evaluate.report import confusion_png, write_csv
from vision.evaluate.scoring import Scorer, Summary
from vision.evaluate.truth import iter_truth, label_files

CURVE_CONF = 0.01  # mAP needs the low-confidence tail of the precision-recall curve


def evaluate(
    data: Path,
    out: Path | None = None,
    limit: int | None = None,
    conf: float = 0.4,
    reader: CardReader | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Scores the cards read from every labelled image under ``data``; writes CSV and PNG into ``out``."""
    total = len(label_files(data))
    if total == 0:
        raise FileNotFoundError(f"no label files (JSON with a 'cards' list) under {data}")
    reader = reader or CardReader.load(conf=CURVE_CONF)
    scorer = Scorer(conf, _nameable_backs(reader))
    for done, truth in enumerate(iter_truth(data, limit), start=1):
        read = cv2.imread(str(truth.image), cv2.IMREAD_COLOR)
        if read is None:
            raise FileNotFoundError(f"cannot read image {truth.image}")
        image = np.asarray(read, dtype=np.uint8)
        start = time.perf_counter()
        candidates = reader.detector(image)
        operating = candidates[candidates.confidence >= conf]
        found = time.perf_counter()
        recognised = reader.recogniser(image, operating) if reader.recogniser is not None else operating
        finished = time.perf_counter()
        # the recogniser moves corners to the quads it read through; detection is scored on the detector's own
        recognised = recognised.with_corners(operating.corners)
        scorer.add(truth, candidates, recognised, (found - start) * 1000, (finished - found) * 1000)
        if progress:
            progress(done, min(total, limit or total))
    summary = scorer.summary()
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        write_csv(scorer.rows, out / "per_image.csv")
        confusion_png(summary, out / "confusion.png")
    return summary


def _nameable_backs(reader: CardReader) -> tuple[str, ...] | None:
    """The back ids the reader's recogniser can name (its catalogue's designs); None without a recogniser."""
    matcher = getattr(reader.recogniser, "backs", None)
    return getattr(matcher, "design_ids", None)

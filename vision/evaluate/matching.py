"""Matching detections to labelled cards by rotated IoU, and COCO-style average precision.

Polygon IoU does not depend on where a quad's corner list starts, so a face labelled one way up and
detected the other way up (a face is point-symmetric) still matches.

>>> ious = np.array([[0.9, 0.6], [0.7, 0.0]])
>>> greedy_match(ious, scores=np.array([0.8, 0.9]), threshold=0.5).tolist()
[1, 0]
>>> round(average_precision(np.array([True, True, False]), n_truth=2), 3)
1.0
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IOU_THRESHOLDS = np.round(np.arange(0.5, 0.951, 0.05), 2)
Bools = npt.NDArray[np.bool_]


def greedy_match(
    ious: npt.NDArray[np.float64],
    scores: npt.NDArray[np.float32],
    threshold: float,
    allowed: Bools | None = None,
) -> npt.NDArray[np.intp]:
    """For each prediction (row), the index of the truth (column) it matches, or -1.

    Predictions are taken best score first; each takes the unmatched truth it overlaps most, if that IoU
    reaches ``threshold`` and ``allowed`` (e.g. same class) permits the pair.
    """
    n_pred, n_truth = ious.shape
    matched = np.full(n_pred, -1, np.intp)
    taken = np.zeros(n_truth, bool)
    usable = ious >= threshold
    if allowed is not None:
        usable &= allowed
    for p in np.argsort(-scores, kind="stable"):
        candidates = np.flatnonzero(usable[p] & ~taken)
        if len(candidates):
            best = candidates[np.argmax(ious[p, candidates])]
            matched[p] = best
            taken[best] = True
    return matched


def average_precision(true_positive_by_score: Bools, n_truth: int) -> float:
    """AP with COCO's 101-point interpolation; ``true_positive_by_score`` lists predictions best first."""
    if n_truth == 0:
        return float("nan")
    if not len(true_positive_by_score):
        return 0.0
    tp = np.cumsum(true_positive_by_score)
    fp = np.cumsum(~true_positive_by_score)
    recall = tp / n_truth
    precision = tp / np.maximum(tp + fp, 1)
    # Precision envelope: the best precision at this recall or any higher one.
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    points = np.linspace(0, 1, 101)
    at = np.searchsorted(recall, points, side="left")
    values = np.where(at < len(envelope), envelope[np.minimum(at, len(envelope) - 1)], 0.0)
    return float(values.mean())

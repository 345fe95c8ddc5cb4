"""Identity accuracy: per-class accuracy and a confusion matrix, for faces (``r7``) and backs (ids).

``ligretto eval`` calls :func:`identity_report` with the true and recognised identities of matched cards;
the recogniser's own measurements (``python -m vision.recognise.measure``) use it too.

>>> report = identity_report(["r6", "r6", "b9", "b9"], ["r6", "r9", "b9", None])
>>> report.accuracy, report.per_class()["r6"], report.count
(0.5, 0.5, 4)
>>> report.six_nine_confusion()
0.25
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import COLOURS, FULL_SET

UNKNOWN = "unknown"


def face_label(colour: int, number: int) -> str | None:
    """A recognised face as card notation, None when either part is unknown.

    >>> face_label(1, 10), face_label(-1, 3)
    ('y10', None)
    """
    if not 0 <= colour < len(COLOURS) or not 1 <= number <= 10:
        return None
    return f"{COLOURS[colour].letter}{number}"


@dataclass(frozen=True)
class IdentityReport:
    """Rows are true classes, columns the predicted class, the last column "unknown" (no answer)."""

    labels: tuple[str, ...]
    confusion: npt.NDArray[np.int64]  # (K, K + 1)

    @property
    def count(self) -> int:
        return int(self.confusion.sum())

    @property
    def accuracy(self) -> float:
        return float(np.trace(self.confusion[:, : len(self.labels)])) / max(1, self.count)

    @property
    def unknown_rate(self) -> float:
        return float(self.confusion[:, -1].sum()) / max(1, self.count)

    def per_class(self) -> dict[str, float]:
        totals = self.confusion.sum(axis=1)
        return {
            label: float(self.confusion[i, i]) / float(totals[i]) for i, label in enumerate(self.labels) if totals[i]
        }

    def six_nine_confusion(self) -> float:
        """Share of true 6s and 9s read as the other number (any colour): the classic rotation error."""
        index = {label: i for i, label in enumerate(self.labels)}
        sixes_nines = [label for label in self.labels if label[1:] in ("6", "9")]
        wrong = sum(int(self.confusion[index[t], index[p]]) for t in sixes_nines for p in sixes_nines if t[1:] != p[1:])
        return wrong / max(1, self.count)

    def worst(self, n: int = 5) -> list[tuple[str, str, int]]:
        """The ``n`` most frequent confusions as (truth, predicted, count)."""
        predicted = (*self.labels, UNKNOWN)
        off = [
            (self.labels[t], predicted[p], int(self.confusion[t, p]))
            for t, p in zip(*np.nonzero(self.confusion), strict=True)
            if t != p
        ]
        return sorted(off, key=lambda row: -row[2])[:n]

    def summary(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "accuracy": round(self.accuracy, 5),
            "unknown_rate": round(self.unknown_rate, 5),
            "worst": self.worst(),
            "per_class": {k: round(v, 4) for k, v in self.per_class().items()},
        }

    def save_png(self, path: str | Path, cell: int = 14) -> None:
        """The confusion matrix as a heat map (row-normalised; brighter is more), class names on the axes."""
        rows = self.confusion / np.maximum(self.confusion.sum(axis=1, keepdims=True), 1)
        k = len(self.labels)
        margin = 60
        image = np.full((margin + k * cell, margin + (k + 1) * cell, 3), 255, np.uint8)
        heat = cv2.applyColorMap((rows * 255).astype(np.uint8), cv2.COLORMAP_VIRIDIS)
        image[margin:, margin:] = cv2.resize(heat, ((k + 1) * cell, k * cell), interpolation=cv2.INTER_NEAREST)
        for i, label in enumerate((*self.labels, "?")):
            cv2.putText(image, label[:8], (margin + i * cell, 12 + (i % 4) * 12), 0, 0.3, (0, 0, 0), 1)
            if i < k:
                cv2.putText(image, label[:8], (2, margin + i * cell + cell - 3), 0, 0.3, (0, 0, 0), 1)
        cv2.imwrite(str(path), image)


def identity_report(
    truth: Sequence[str], predicted: Sequence[str | None], labels: Sequence[str] | None = None
) -> IdentityReport:
    """Counts (truth, prediction) pairs; ``labels`` defaults to the 40 cards if every truth is a card."""
    if labels is None:
        cards = [str(card) for card in FULL_SET]
        labels = cards if set(truth) <= set(cards) else sorted(set(truth))
    index = {label: i for i, label in enumerate(labels)}
    confusion = np.zeros((len(labels), len(labels) + 1), np.int64)
    for t, p in zip(truth, predicted, strict=True):
        confusion[index[t], index.get(p, len(labels)) if p is not None else len(labels)] += 1
    return IdentityReport(tuple(labels), confusion)

"""Measuring the detector and recogniser on rendered scenes with ground truth.

    summary = evaluate(Path("datasets/generated/heldout"), out=Path("out/eval"))
    print(table(summary))

Predictions match labels by rotated IoU >= 0.5 and same kind (face/back); mAP50-95 follows COCO (101-point
interpolation, IoU 0.50:0.05:0.95). Recall is broken down by how much of each card shows and by its width.
"""

from __future__ import annotations

from vision.evaluate.report import table
from vision.evaluate.run import evaluate
from vision.evaluate.scoring import Summary

__all__ = ["Summary", "evaluate", "table"]

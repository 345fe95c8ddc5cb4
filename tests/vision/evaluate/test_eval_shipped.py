"""The shipped detector on the committed held-out scenes: fails when detection quality falls below the floor.

The floors sit a little under what ``ligretto eval --data datasets/samples/detector-heldout`` measured with the
committed ``models/detector.onnx`` (figures in models/README.md), so a retrained model that is worse fails CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.detect import DEFAULT_MODEL
from vision.detect.pipeline import CardReader
from vision.evaluate import evaluate
from vision.evaluate.run import CURVE_CONF

SAMPLES = Path(__file__).resolve().parents[3] / "datasets" / "samples" / "detector-heldout"
FLOORS = {"map50": 0.8, "recall_visible_50": 0.68, "precision": 0.75}
# measured on these 6 scenes: stage 7 0.878, 0.841, 0.840; stage 8 0.902, 0.841 (37 of 44), 0.857; stage 9 (shipped)
# 0.897, 0.727 (32 of 44), 0.856. Stage 9 finds 5 fewer of these 44 cards, but more on the first 100 held-out scenes
# (382 -> 384 of 454 at >= 50 % visible, 138 -> 150 of 273 at 25-50 %, mAP50-95 0.445 -> 0.465): the recall floor
# sits under stage 9's figure on this small set (models/README.md, "Stage 9").

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model yet")


def test_shipped_detector_on_the_committed_heldout_scenes(tmp_path: Path) -> None:
    reader = CardReader.load(conf=CURVE_CONF, recognise=False)
    summary = evaluate(SAMPLES, out=tmp_path, reader=reader)
    assert summary.images == 6
    measured = {
        "map50": summary.map50,
        "recall_visible_50": summary.recall_by_visibility[">=50%"].value,
        "precision": summary.precision.value,
    }
    below = {name: (round(measured[name], 4), floor) for name, floor in FLOORS.items() if measured[name] < floor}
    assert not below, f"below the recorded floor (measured, floor): {below}"

"""Quality floor of the shipped recogniser on a small held-out set (seeds training never used).

The full figures (thousands of crops) are in models/recogniser.md; these floors sit below them with room
for sampling noise on a few hundred crops, and fail the suite when a retrained model regresses.
"""

from __future__ import annotations

import pytest

from vision.recognise.backs import BackEmbedder
from vision.recognise.faces import FaceReader
from vision.recognise.measure import held_out_faces, measure_backs, measure_faces

FACE_FLOOR = 0.97
SIX_NINE_CEILING = 0.01
BACK_FLOOR = 0.95


def test_faces_at_least_60_percent_visible_are_read(shipped_models: None) -> None:
    result = measure_faces(FaceReader(), held_out_faces(400, seed=4242))
    assert result["visible>=0.6"]["accuracy"] >= FACE_FLOOR, result["visible>=0.6"]
    assert result["visible>=0.6"]["six_nine"] <= SIX_NINE_CEILING


@pytest.mark.parametrize("test", ["defaults", "enrolled_unseen"])
def test_backs_default_and_enrolled_are_told_apart(shipped_models: None, test: str) -> None:
    result = measure_backs(BackEmbedder(), 240, seed=4243)
    assert result[test]["visible>=0.6"]["accuracy"] >= BACK_FLOOR, result[test]

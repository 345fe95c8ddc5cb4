"""Batches of labelled crops: joined, they keep every crop's label, visible share and width."""

from __future__ import annotations

import numpy as np

from vision.recognise.data import Crops


def _crops(n: int, width: float | None) -> Crops:
    widths = None if width is None else np.full(n, width, np.float32)
    return Crops(np.zeros((n, 96, 64, 3), np.uint8), np.arange(n), np.full(n, 0.8, np.float32), widths)


def test_joined_crops_keep_their_widths_in_order() -> None:
    joined = Crops.join([_crops(2, 30.0), _crops(3, 55.0)])
    assert joined.width is not None
    assert joined.width.tolist() == [30.0, 30.0, 55.0, 55.0, 55.0]
    assert joined.label.tolist() == [0, 1, 0, 1, 2]


def test_a_part_without_widths_leaves_the_joined_crops_without_them() -> None:
    assert Crops.join([_crops(2, 30.0), _crops(1, None)]).width is None

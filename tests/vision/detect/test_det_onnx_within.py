"""Reading only part of a frame (``within``): the cards lying wholly inside it come out where the whole frame's
reading puts them, in the whole frame's pixels, from a smaller network input."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import DEFAULT_MODEL
from vision.detect.onnx_detector import OnnxDetector

SCENES = sorted(
    (Path(__file__).resolve().parents[3] / "datasets" / "samples" / "detector-heldout" / "images").glob("*.jpg")
)

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model yet")


def _wholly_inside(corners: np.ndarray, box: tuple[int, int, int, int], margin: float) -> np.ndarray:
    x0, y0, x1, y1 = box
    xs, ys = corners[..., 0], corners[..., 1]
    return (
        (xs.min(axis=1) > x0 + margin)
        & (xs.max(axis=1) < x1 - margin)
        & (ys.min(axis=1) > y0 + margin)
        & (ys.max(axis=1) < y1 - margin)
    )


def test_the_shipped_model_reads_any_input_size() -> None:
    assert OnnxDetector().any_size


def test_cards_inside_the_part_read_come_out_where_the_whole_frame_puts_them() -> None:
    detector = OnnxDetector(conf=0.4)
    compared = 0
    for path in SCENES:
        image = cv2.imread(str(path))
        height, width = image.shape[:2]
        box = (width // 4, height // 5, 3 * width // 4, 4 * height // 5)
        whole, part = detector(image), detector(image, within=box)
        inside = whole.corners[_wholly_inside(whole.corners, box, margin=30.0)]
        for corners in inside:
            nearest = np.linalg.norm(part.corners.mean(axis=1) - corners.mean(axis=0), axis=1).min()
            assert nearest < 5.0, f"{path.name}: a card at {corners.mean(axis=0)} moved {nearest:.1f} px"
        # the part read is ``within`` widened to the network's grid (32 input pixels: 64 of these frames)
        centres, grid = part.corners.mean(axis=1), 64
        inside = (centres >= np.asarray(box[:2]) - grid) & (centres < np.asarray(box[2:]) + grid)
        assert inside.all(), "a card found outside the part read"
        compared += len(inside)
    assert compared >= 15  # the committed scenes hold 25 such cards


def test_a_fixed_size_model_reads_the_whole_frame_whatever_within_says(tmp_path: Path) -> None:
    """A model exported without dynamic axes cannot take a smaller input: ``within`` changes nothing."""
    detector = OnnxDetector(conf=0.4)
    detector.any_size = False
    image = cv2.imread(str(SCENES[0]))
    whole = detector(image)
    assert np.array_equal(detector(image, within=(0, 0, 100, 100)).corners, whole.corners)

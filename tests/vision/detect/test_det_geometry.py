"""Oriented boxes to card quads, polygon IoU, rotated NMS, letterboxing and output decoding."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.detect.geometry import iou_matrix, obb_to_quads, polygon_iou, rotated_nms, turn_half
from vision.detect.onnx_detector import Letterbox, decode_end2end, decode_raw

ANGLES = [0.0, 0.3, math.pi / 4, 1.2, math.pi / 2, 2.0, math.pi - 0.01, -0.7]


def signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))


@pytest.mark.parametrize("angle", ANGLES)
@pytest.mark.parametrize(("w", "h"), [(59, 91), (91, 59)])
def test_quads_are_portrait_clockwise_and_top_up(angle: float, w: float, h: float) -> None:
    (quad,) = obb_to_quads([[200, 150, w, h, angle]])
    top = np.linalg.norm(quad[1] - quad[0])
    side = np.linalg.norm(quad[3] - quad[0])
    assert (top, side) == pytest.approx((59, 91), abs=1e-3)
    assert signed_area(quad) > 0  # clockwise on screen (y down)
    top_mid, bottom_mid = (quad[0] + quad[1]) / 2, (quad[2] + quad[3]) / 2
    assert top_mid[1] <= bottom_mid[1] + 1e-6  # the top edge faces up the image
    assert quad.mean(axis=0) == pytest.approx([200, 150], abs=1e-3)


@pytest.mark.parametrize("angle", ANGLES)
def test_the_same_card_at_w_h_swapped_and_a_quarter_turn_gives_the_same_quad(angle: float) -> None:
    a = obb_to_quads([[0, 0, 59, 91, angle]])[0]
    b = obb_to_quads([[0, 0, 91, 59, angle + math.pi / 2]])[0]
    assert polygon_iou(a, b) == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize(
    ("shift", "expected"),
    [
        ((0, 0), 1.0),
        ((30, 0), 1 / 3),  # half the width apart: overlap 30x91 of 60x91 each
        ((100, 0), 0.0),
    ],
)
def test_polygon_iou_table(shift: tuple[float, float], expected: float) -> None:
    quad = obb_to_quads([[0, 0, 60, 91, 0.0]])[0]
    assert polygon_iou(quad, quad + np.asarray(shift, np.float32)) == pytest.approx(expected, abs=1e-3)


def test_iou_ignores_where_the_corner_list_starts() -> None:
    quad = obb_to_quads([[0, 0, 60, 91, 0.4]])
    assert iou_matrix(quad, turn_half(quad))[0, 0] == pytest.approx(1.0)


def test_rotated_nms_keeps_the_best_of_overlapping_boxes_whatever_their_class() -> None:
    quads = obb_to_quads([[50, 50, 20, 40, 0.1], [52, 50, 20, 40, 0.1], [200, 50, 20, 40, 0.0], [201, 51, 20, 40, 0]])
    assert rotated_nms(quads, [0.5, 0.9, 0.4, 0.8]).tolist() == [1, 3]


@pytest.mark.parametrize(
    ("image", "target", "scale", "left", "top"),
    [
        ((720, 1280), (384, 640), 0.5, 0, 12),
        ((1080, 1920), (384, 640), 1 / 3, 0, 12),
        ((640, 640), (384, 640), 0.6, 128, 0),
    ],
)
def test_letterbox_fit_and_back(
    image: tuple[int, int], target: tuple[int, int], scale: float, left: int, top: int
) -> None:
    box = Letterbox.fit(image[0], image[1], target)
    assert (box.scale, box.left, box.top) == pytest.approx((scale, left, top))
    padded = box.apply(np.zeros((*image, 3), np.uint8), target)
    assert padded.shape == (*target, 3)
    mapped = box.to_image(np.array([[left + 10 * scale, top + 20 * scale, 30 * scale, 40 * scale, 0.5]], np.float32))
    assert mapped[0].tolist() == pytest.approx([10, 20, 30, 40, 0.5], abs=1e-3)


def test_raw_head_output_is_thresholded_and_deduplicated() -> None:
    # (4 box + 2 classes + 1 angle, 3 anchors): two overlapping faces and one weak back
    output = np.array(
        [
            [50, 51, 200],
            [50, 50, 50],
            [20, 20, 20],
            [40, 40, 40],
            [0.9, 0.7, 0.1],
            [0.1, 0.2, 0.2],
            [0.0, 0.0, 0.0],
        ],
        np.float32,
    )
    boxes, scores, classes = decode_raw(output, conf=0.25, iou=0.5)
    assert boxes[:, 0].tolist() == [50] and scores.tolist() == pytest.approx([0.9]) and classes.tolist() == [0]
    boxes, _, classes = decode_end2end(np.array([[1, 2, 3, 4, 0.5, 1, 0.2]], np.float32), conf=0.4)
    assert boxes[0].tolist() == pytest.approx([1, 2, 3, 4, 0.2]) and classes.tolist() == [1]

"""Fusing the boxes of several passes: one card seen twice is one card; fanned cards stay apart."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect.fuse import Pass, cluster_boxes, fuse_passes
from vision.detect.windows import Window
from vision.detections import BACK, FACE, CardDetections

CARD = np.asarray([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)


def moved(dx: float, dy: float) -> np.ndarray:
    """CARD shifted by (dx, dy) pixels."""
    return CARD + np.asarray([dx, dy], np.float32)  # 60 x 90 px, upright


FRAME = Window(0, 0, 1280, 720)


def seen(quads: list[np.ndarray], scores: list[float], kinds: list[int] | None = None, window: Window = FRAME) -> Pass:
    kinds = kinds if kinds is not None else [BACK] * len(quads)
    return Pass(CardDetections.from_quads(np.asarray(quads), kinds, scores), window)


def test_one_card_seen_by_two_tiles_becomes_one_card() -> None:
    left = Window(0, 0, 640, 384)
    middle = Window(320, 0, 640, 384)
    fused = fuse_passes([seen([CARD], [0.9], window=left), seen([CARD + 3], [0.6], window=middle)])
    assert len(fused) == 1
    # confidence-weighted mean of the corners: 0.9 * 0 + 0.6 * 3 over 1.5
    assert fused.corners[0][0].tolist() == pytest.approx([101.2, 101.2])


@pytest.mark.parametrize(
    ("offset", "cards"),
    [
        (15, 2),  # a fan: the second card 15 px along, the full quads overlapping by 60 %
        (8, 2),  # a tight fan (IoU 0.76): still two cards, the pass found two
        (40, 2),  # cards side by side
    ],
)
def test_distinct_cards_of_one_pass_in_a_spread_stay_apart(offset: int, cards: int) -> None:
    fan = seen([CARD, moved(offset, 0)], [0.9, 0.8])
    assert len(fuse_passes([fan])) == cards


def test_a_fan_seen_by_two_passes_keeps_both_cards() -> None:
    fan = [CARD, moved(15, 0), moved(30, 0)]
    again = [quad + 2 for quad in fan]
    fused = fuse_passes([seen(fan, [0.9, 0.8, 0.7]), seen(again, [0.85, 0.75, 0.65])])
    assert len(fused) == 3
    centres = sorted(float(x) for x in fused.corners.mean(axis=1)[:, 0])
    assert centres == pytest.approx([131, 146, 161], abs=1.5)


def test_each_box_joins_the_card_it_overlaps_most() -> None:
    # pass 0 sees two fanned cards; pass 1 sees only the second one, slightly moved, and more surely: it
    # overlaps the first card enough (IoU 0.61) but the second far more, so it joins the second
    assert cluster_boxes([CARD, moved(15, 0), moved(14, 1)], [0.9, 0.8, 0.95], [0, 0, 1]) == [[0], [2, 1]]


def test_the_vote_lowers_a_card_only_one_of_the_passes_that_covered_it_found() -> None:
    one_found = seen([CARD], [0.9])
    missed = seen([], [])
    assert fuse_passes([one_found, missed]).confidence.tolist() == pytest.approx([0.45])
    assert fuse_passes([one_found, missed], vote="best").confidence.tolist() == pytest.approx([0.9])


def test_a_pass_whose_window_missed_the_card_does_not_vote() -> None:
    elsewhere = Window(640, 336, 640, 384)
    assert fuse_passes([seen([CARD], [0.9]), seen([], [], window=elsewhere)]).confidence.tolist() == pytest.approx(
        [0.9]
    )


def test_the_fused_card_takes_the_best_box_kind_and_turned_corner_lists_average_right() -> None:
    turned = np.roll(CARD, 2, axis=0)  # the same card, its corner list starting at the opposite corner
    fused = fuse_passes([seen([CARD], [0.9], [FACE]), seen([turned], [0.5], [BACK])])
    assert fused.kind.tolist() == [FACE]
    np.testing.assert_allclose(fused.corners[0], CARD, atol=1e-4)


def test_no_boxes_anywhere() -> None:
    assert len(fuse_passes([seen([], []), seen([], [])])) == 0
    assert len(fuse_passes([])) == 0

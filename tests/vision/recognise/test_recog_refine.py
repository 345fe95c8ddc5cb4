"""Quad refinement: a rough detector quad re-fitted to the card's colour, or left alone when unsure."""

import cv2
import numpy as np
import pytest

from vision.recognise.refine import fit_face

TRUE = np.float32(cv2.boxPoints(((200.0, 150.0), (40.0, 62.0), 30.0)))


def _scene(colour: tuple[int, int, int]) -> np.ndarray:
    image = np.full((300, 400, 3), 90, np.uint8)
    cv2.fillConvexPoly(image, np.round(TRUE).astype(np.int32), colour)
    cv2.circle(image, (200, 150), 6, (255, 255, 255), -1)  # a white digit in the middle
    return image


def _error(quad: np.ndarray) -> float:
    return min(float(np.linalg.norm(np.roll(quad, k, 0) - TRUE, axis=1).mean()) for k in range(4))


ROUGH = np.float32(cv2.boxPoints(((204.0, 146.0), (50.0, 52.0), 5.0)))  # square-ish, 25 degrees off


@pytest.mark.parametrize(
    "colour", [(0, 0, 220), (0, 160, 0), (200, 60, 0), (0, 210, 230)], ids=["red", "green", "blue", "yellow"]
)
def test_a_rough_quad_is_fitted_to_the_coloured_card(colour: tuple[int, int, int]) -> None:
    refined = fit_face(_scene(colour), ROUGH)
    assert refined is not None
    assert _error(ROUGH) > 8
    assert _error(refined.quad) < 2.5
    assert refined.one_card


def test_without_a_coloured_card_there_is_no_fit() -> None:
    grey = np.full((300, 400, 3), 90, np.uint8)
    assert fit_face(grey, ROUGH) is None


def test_a_blob_far_larger_than_the_detection_is_not_taken() -> None:
    image = np.full((300, 400, 3), 90, np.uint8)
    image[60:240, 100:300] = (0, 0, 220)  # a red table, not a card
    small = np.float32([[190, 140], [210, 140], [210, 170], [190, 170]])
    assert fit_face(image, small) is None


def test_a_fit_that_takes_the_card_below_of_the_same_colour_says_it_holds_more_than_one_card() -> None:
    image = np.full((300, 400, 3), 90, np.uint8)
    below = np.float32(cv2.boxPoints(((209.0, 160.0), (40.0, 62.0), 0.0)))  # the same colour, a little off
    cv2.fillConvexPoly(image, np.round(below).astype(np.int32), (0, 0, 220))
    top = np.float32(cv2.boxPoints(((200.0, 150.0), (40.0, 62.0), 0.0)))
    cv2.fillConvexPoly(image, np.round(top).astype(np.int32), (0, 0, 220))
    fit = fit_face(image, top)
    assert fit is not None and not fit.one_card
    alone = fit_face(_scene((0, 0, 220)), TRUE)
    assert alone is not None and alone.one_card

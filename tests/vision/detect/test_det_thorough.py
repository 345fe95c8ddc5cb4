"""Thorough detection: cut cards are dropped at inner window borders, mirrored passes map back, and on the
committed held-out scenes the shipped model finds at least as many cards thoroughly as in one pass."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import DEFAULT_MODEL
from vision.detect.onnx_detector import OnnxDetector
from vision.detect.pipeline import CardReader
from vision.detect.thorough import STILLS_PLAN, ThoroughDetector, ThoroughPlan
from vision.detect.windows import Window
from vision.detections import BACK, CardDetections
from vision.evaluate import evaluate

SAMPLES = Path(__file__).resolve().parents[3] / "datasets" / "samples" / "detector-heldout"
CARD = np.asarray([[100, 100], [160, 100], [160, 190], [100, 190]], np.float32)


def moved(dx: float, dy: float) -> np.ndarray:
    """CARD shifted by (dx, dy) pixels."""
    return CARD + np.asarray([dx, dy], np.float32)


def white_cards_detector(crop: np.ndarray) -> CardDetections:
    """A stand-in detector: every white blob of the crop is a card (a piece cut by the crop's border too)."""
    mask = (crop[..., 0] > 127).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = [cv2.boxPoints(cv2.minAreaRect(c)) for c in contours]
    return CardDetections.from_quads(np.asarray(quads).reshape(-1, 4, 2), [BACK] * len(quads), [0.9] * len(quads))


class Recorder:
    """Calls the stand-in detector and keeps the size of every crop it was shown."""

    def __init__(self) -> None:
        self.crops: list[tuple[int, int]] = []

    def __call__(self, crop: np.ndarray) -> CardDetections:
        self.crops.append(crop.shape[:2])
        return white_cards_detector(crop)


def table_with(*cards: np.ndarray, width: int = 1280, height: int = 720) -> np.ndarray:
    image = np.zeros((height, width, 3), np.uint8)
    for card in cards:
        cv2.fillConvexPoly(image, np.round(card).astype(np.int32), (255, 255, 255))
    return image


def box_near(found: CardDetections, card: np.ndarray) -> bool:
    return any(np.abs(np.sort(q, axis=0) - np.sort(card, axis=0)).max() <= 2 for q in found.corners)


@pytest.mark.parametrize(
    ("where", "flip"),
    [
        ((100, 100), False),  # inside the top-left windows
        ((630, 340), False),  # across the inner borders of the zoomed windows
        ((1200, 600), True),  # bottom right, mirrored passes too
    ],
)
def test_a_card_comes_back_once_and_whole_from_every_pass(where: tuple[int, int], flip: bool) -> None:
    card = CARD - CARD[0] + np.asarray(where, np.float32)
    detector = Recorder()
    found = ThoroughDetector(detector, ThoroughPlan((1.0, 2.0), flip=flip))(table_with(card))
    assert len(found) == 1 and box_near(found, card)
    assert found.confidence[0] == pytest.approx(0.9)  # every pass that held it whole found it
    assert len(detector.crops) == 10 * (2 if flip else 1)


def test_pieces_of_a_card_cut_by_window_borders_are_not_cards() -> None:
    card = np.asarray([[610, 300], [670, 300], [670, 390], [610, 390]], np.float32)  # across x=640 and y=384
    found = ThoroughDetector(white_cards_detector, ThoroughPlan((2.0,)))(table_with(card))
    assert len(found) == 1 and box_near(found, card)  # a window holds it whole; the cut pieces are dropped


def test_a_fan_of_cards_stays_a_fan() -> None:
    fan = [moved(20 * i, 0) for i in range(4)]
    image = table_with(*fan)
    for i in range(1, 4):  # dark edges between the fanned cards, so the stand-in sees each card's strip
        cv2.line(image, (100 + 20 * i, 100), (100 + 20 * i, 190), (0, 0, 0), 2)
    found = ThoroughDetector(white_cards_detector, ThoroughPlan((1.0, 2.0), flip=True))(image)
    assert len(found) == 4


def test_the_plan_counts_its_passes() -> None:
    assert ThoroughPlan((1.0,), flip=False).passes(1280, 720) == 1
    assert STILLS_PLAN.passes(1280, 720) == 10


@pytest.mark.parametrize("zooms", ["", "1,x", "0.5", "9"])
def test_a_bad_zoom_list_is_refused(zooms: str) -> None:
    with pytest.raises(ValueError, match="zoom"):
        ThoroughPlan.parse(zooms)


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model")
def test_thorough_finds_at_least_as_many_cards_as_one_pass_on_the_committed_heldout_scenes(tmp_path: Path) -> None:
    one = evaluate(SAMPLES, reader=CardReader.load(recognise=False, conf=0.4), conf=0.4)
    thorough = evaluate(SAMPLES, reader=CardReader.load(recognise=False, conf=0.4, thorough=STILLS_PLAN), conf=0.4)
    assert thorough.recall.hits >= one.recall.hits, (str(thorough.recall), str(one.recall))
    # six scenes are few boxes (about 110: one box is a point): stage 7 measured 76.3 % against 84.0 % here, while
    # on the first 100 held-out scenes thorough reading is the more precise (85.0 % against 81.7 %)
    assert thorough.precision.value >= one.precision.value - 0.1, (str(thorough.precision), str(one.precision))


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model")
def test_passes_read_side_by_side_give_the_very_cards_read_one_after_another() -> None:
    image = cv2.imread(str(sorted((SAMPLES / "images").glob("*.jpg"))[0]))
    network = OnnxDetector(DEFAULT_MODEL, conf=0.1, threads=1)
    alone = ThoroughDetector(network, STILLS_PLAN, conf=0.35)(image)
    together = ThoroughDetector(network, STILLS_PLAN, conf=0.35, workers=3)(image)
    assert len(alone) > 0
    assert np.array_equal(alone.corners, together.corners) and np.array_equal(alone.kind, together.kind)
    assert np.array_equal(alone.confidence, together.confidence)


def test_the_passes_run_on_as_many_threads_as_asked() -> None:
    threads: set[str] = set()

    def slow_detector(crop: np.ndarray) -> CardDetections:
        threads.add(threading.current_thread().name)
        time.sleep(0.02)  # long enough for the pool's other threads to take the next passes
        return white_cards_detector(crop)

    found = ThoroughDetector(slow_detector, ThoroughPlan((1.0, 2.0)), workers=2)(table_with(CARD))
    assert len(found) == 1 and box_near(found, CARD)
    assert len(threads) == 2


def signed_area(quad: np.ndarray) -> float:
    """Positive for corners listed clockwise in image coordinates (y down)."""
    x, y = quad[:, 0], quad[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) / 2


@pytest.mark.parametrize("mirrored", [False, True])
def test_a_mirrored_pass_maps_back_with_corners_still_clockwise(mirrored: bool) -> None:
    card = np.asarray([[300, 200], [360, 210], [345, 300], [285, 290]], np.float32)  # turned a little
    detector = ThoroughDetector(white_cards_detector, ThoroughPlan((1.0,)))
    (found,) = [detector._read(table_with(card), Window(0, 0, 1280, 720), 1.0, mirrored=mirrored)]
    assert len(found.detections) == 1 and box_near(found.detections, card)
    assert signed_area(found.detections.corners[0]) > 0


def test_a_portrait_picture_is_cut_into_the_windows_of_its_landscape_turn_and_its_cards_come_back_in_place() -> None:
    recorder = Recorder()
    detector = ThoroughDetector(recorder, ThoroughPlan(zooms=(1.0, 2.0), flip=False))
    card = moved(300, 900)  # a card low down a 720 x 1280 picture
    found = detector(table_with(card, width=720, height=1280))
    # the same windows as a 1280 x 720 frame's: the whole picture, then 3 x 3 of 640 x 384
    assert recorder.crops[0] == (720, 1280)
    assert set(recorder.crops[1:]) == {(384, 640)}
    assert box_near(found, card)

"""A portrait picture (a phone held upright, a camera turned a quarter) is read turned, landscape like the network's
input: its cards come out as the landscape picture's, in the portrait picture's own pixels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import DEFAULT_MODEL
from vision.detect.onnx_detector import OnnxDetector, read_turned
from vision.detections import CardDetections

SCENES = sorted(
    (Path(__file__).resolve().parents[3] / "datasets" / "samples" / "detector-heldout" / "images").glob("*.jpg")
)


def test_cards_read_in_a_turned_picture_come_back_in_its_own_pixels() -> None:
    """A stand-in detector that finds one card in whatever it is given, at known pixels of the turned picture."""
    image = np.zeros((300, 200, 3), np.uint8)  # portrait: 200 wide, 300 high
    seen: list[tuple[tuple[int, ...], object]] = []

    def detect(picture: np.ndarray, within: object) -> CardDetections:
        seen.append((picture.shape, within))
        # in the turned picture (300 wide, 200 high): a card whose top-left corner is at (250, 20)
        corners = [[250.0, 20.0], [280.0, 20.0], [280.0, 60.0], [250.0, 60.0]]
        return CardDetections.from_quads([corners], kind=[0], confidence=[0.9])

    found = read_turned(detect, image, within=(10, 20, 110, 220))
    assert seen == [((200, 300, 3), (80, 10, 280, 110))]
    # turned clockwise (x, y) -> (300 - y, x), so (250, 20) was (20, 50) in the portrait picture
    assert found.corners[0].tolist() == [[20.0, 50.0], [20.0, 20.0], [60.0, 20.0], [60.0, 50.0]]


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no shipped detector model yet")
def test_a_portrait_picture_finds_the_cards_the_landscape_one_does_where_they_lie() -> None:
    detector = OnnxDetector(conf=0.4)
    compared = 0
    for path in SCENES[:4]:
        landscape = cv2.imread(str(path))
        portrait = cv2.rotate(landscape, cv2.ROTATE_90_COUNTERCLOCKWISE)
        upright, sideways = detector(landscape), detector(portrait)
        assert abs(len(sideways) - len(upright)) <= max(2, len(upright) // 10), path.name
        # the portrait picture is the landscape one turned back: (x, y) there is (y, width - x) here
        width = landscape.shape[1]
        centres = sideways.corners.mean(axis=1)
        expected = np.stack([width - centres[:, 1], centres[:, 0]], axis=1)
        for centre in upright.corners.mean(axis=1):
            assert np.linalg.norm(expected - centre, axis=1).min() < 3.0, f"{path.name}: card at {centre} not found"
            compared += 1
    assert compared >= 40

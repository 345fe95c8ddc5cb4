"""Batches of labelled crops: joined, they keep every crop's label, visible share and width."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognise import data
from vision.recognise.augment import CameraSample, CameraSettings
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


def _laid(monkeypatch: pytest.MonkeyPatch, settings: CameraSettings) -> list[tuple[int, int]]:
    """(face, card under it) for each crop ``photograph`` makes of the 40 faces of one print (-1: none); each
    picture stands for its label."""
    arts = [np.full((4, 4, 4), label, np.uint8) for label in range(40)]
    laid: list[tuple[int, int]] = []

    def fake_crop(art, rng, occluders, settings, beneath=None):  # type: ignore[no-untyped-def]
        laid.append((int(art[0, 0, 0]), -1 if beneath is None else int(beneath[0, 0, 0])))
        return CameraSample(np.zeros((96, 64, 3), np.uint8), 1.0, False, 50.0)

    monkeypatch.setattr(data, "camera_crop", fake_crop)
    data.photograph(list(enumerate(arts)), 400, np.random.default_rng(0), (), settings)
    return laid


def test_a_face_on_a_stack_lies_on_the_card_one_lower_of_its_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    laid = _laid(monkeypatch, CameraSettings(beneath_p=1.0))
    assert all(under == (face - 1 if face % 10 else face + 1) for face, under in laid)  # a 1 on its 2


def test_with_beneath_other_a_face_also_lies_on_other_cards_never_on_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    laid = _laid(monkeypatch, CameraSettings(beneath_p=1.0, beneath_other_p=0.5))
    other_colour = [(face, under) for face, under in laid if under // 10 != face // 10]
    assert 0.25 * len(laid) <= len(other_colour) <= 0.6 * len(laid)
    assert all(under != face and under >= 0 for face, under in laid)

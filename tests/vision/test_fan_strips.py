"""Each card's ink along a fan of backs, read from the rendered picture: the fan's whole card found among the boxes,
its strips' edges in the picture."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.cards import CARD_HEIGHT_MM
from vision.fan_strips import fan_strips
from vision.render.art import PrintedArt
from vision.render.camera import Camera
from vision.render.layouts import PlacedCard
from vision.render.scene import Scene, render

STEP_MM = 14.0
OWNERS = ("red-red", "red-light-blue", "red-black", "red-pink", "red-red", "red-pink", "red-light-blue", "red-black")
"""The fan's backs, each twice, its first card laid first (under all the others), the last whole."""


def _fanned(angle: float, surface: str = "grey-laminate") -> tuple[np.ndarray, list[np.ndarray], Camera]:
    """The fan rendered at about 720p's scale (a card some 45 px wide), each card laid over the last along its own
    length; its cards' outlines in the picture."""
    camera = Camera.looking_at((0.0, 0.0), 1000.0, 0.0, 800.0, (480, 360))
    along = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
    first = -(len(OWNERS) - 1) * STEP_MM / 2 - CARD_HEIGHT_MM / 4
    cards = [
        PlacedCard((along[0] * (first + i * STEP_MM), along[1] * (first + i * STEP_MM)), angle, None, back, 0.3 * i)
        for i, back in enumerate(OWNERS)
    ]
    rendered = render(Scene.plain(camera, cards, surface), PrintedArt())
    return rendered.image, [np.asarray(label.corners, np.float64) for label in rendered.labels], camera


def _card_px(camera: Camera) -> float:
    ends = camera.project([[0.0, 0.0], [0.0, CARD_HEIGHT_MM]])
    return float(np.linalg.norm(ends[1] - ends[0]))


def _alike(inks: tuple[tuple[float, float, float], ...]) -> list[bool]:
    """Per card: whether the card whose ink lies nearest its own has the same back."""
    colours = np.asarray(inks)
    out = []
    for i, ink in enumerate(colours):
        distances = np.linalg.norm(colours - ink, axis=1)
        distances[i] = np.inf
        out.append(OWNERS[::-1][int(np.argmin(distances))] == OWNERS[::-1][i])
    return out


@pytest.mark.parametrize(("angle", "surface"), [(0.0, "grey-laminate"), (120.0, "oak-wood"), (250.0, "dotted-cloth")])
def test_each_cards_ink_is_nearest_the_inks_of_its_own_backs_cards_from_the_whole_card_on(
    angle: float, surface: str
) -> None:
    image, outlines, camera = _fanned(angle, surface)
    # the detector's boxes: three of the cards under others, outlined whole, and the whole card
    fan = fan_strips(image, np.array([outlines[1], outlines[4], outlines[6], outlines[-1]]), 8, _card_px(camera))
    assert fan is not None
    assert fan.step_px == pytest.approx(STEP_MM * _card_px(camera) / CARD_HEIGHT_MM, abs=1.0)
    assert all(_alike(fan.inks))
    whole = np.asarray(outlines[-1]).mean(axis=0)
    assert np.linalg.norm(np.subtract(fan.whole_end, whole)) < np.linalg.norm(np.subtract(fan.strips_end, whole))


def test_the_whole_card_may_be_boxed_apart_from_the_fans_strips() -> None:
    image, outlines, camera = _fanned(30.0, "oak-wood")
    fan = fan_strips(image, np.array(outlines[1:5]), 8, _card_px(camera), others=np.array([outlines[-1]]))
    assert fan is not None
    assert all(_alike(fan.inks))


def test_a_fan_whose_whole_card_no_box_shows_is_not_read() -> None:
    # strips boxed alone (a third of a card long) say neither at which end the whole card lies nor where the
    # comb of the strips' edges begins
    image, outlines, camera = _fanned(30.0, "oak-wood")
    strips = np.array([[tl, tr, tr + 0.3 * (br - tr), tl + 0.3 * (bl - tl)] for tl, tr, br, bl in outlines[:-1]])
    assert fan_strips(image, strips, 8, _card_px(camera)) is None

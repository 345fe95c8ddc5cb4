"""Layouts as a real table has them, and random scenes within the stated ranges, per split."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, Colour
from vision.render.art import FlatArt
from vision.render.camera import Camera
from vision.render.generate import SPLITS, pools, random_scene
from vision.render.layouts import SLAP_OFFSET, SLAP_ROTATION_DEG, centre_stack, loose_heap, player_area, spread
from vision.render.lighting import HELDOUT_LIGHTS, TRAIN_LIGHTS
from vision.render.scene import Scene, render
from vision.render.table import HELDOUT_SURFACES, SURFACE_PRESETS, TRAIN_SURFACES


@pytest.mark.parametrize("seed", range(20))
def test_slapped_stack_cards_stay_within_the_offset_and_turn_a_hand_makes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    base = float(rng.uniform(-25, 25))
    stack = centre_stack(rng, (100.0, -50.0), base, Colour.GREEN, 10, ("a", "b"))
    assert [c.face.number for c in stack if c.face] == list(range(1, 11))
    for card in stack:
        a = math.radians(base)
        dx, dy = card.centre_mm[0] - 100.0, card.centre_mm[1] + 50.0
        along_x = dx * math.cos(a) + dy * math.sin(a)
        along_y = -dx * math.sin(a) + dy * math.cos(a)
        assert abs(along_x) <= SLAP_OFFSET * CARD_WIDTH_MM + 1e-9
        assert abs(along_y) <= SLAP_OFFSET * CARD_HEIGHT_MM + 1e-9
        turn = (card.angle_deg - base + 45.0) % 90.0 - 45.0  # the card may face any player: modulo 90
        assert abs(turn) <= SLAP_ROTATION_DEG + 1e-9
    assert [c.lift_mm for c in stack] == sorted(c.lift_mm for c in stack)


@pytest.mark.parametrize("fanned", [False, True])
def test_every_card_of_a_back_spread_shows_for_counting(fanned: bool) -> None:
    cards = spread(np.random.default_rng(4), (0.0, 0.0), 10.0, 12, "blue-orange", fanned)
    cam = Camera.looking_at((60.0, 0.0), 700.0, 0.0, 900.0, (640, 640))
    labels = render(Scene.plain(cam, cards), FlatArt()).labels
    assert len(labels) == 12
    assert all(label.visible > 0.05 for label in labels)
    assert labels[-1].visible == pytest.approx(1.0, abs=0.03)
    assert {label.kind for label in labels} == {"back"}


def test_a_stack_lifted_off_lengthwise_shows_a_band_of_every_back_it_holds() -> None:
    backs = ("red-red", "blue-blue", "green-green")
    cards = spread(np.random.default_rng(5), (0.0, 0.0), 0.0, 8, backs[0], False, lengthwise=True, mixed_backs=backs)
    # shingled along the card's long side: the centres march along y, not x
    assert max(abs(c.centre_mm[0]) for c in cards) < 5.0
    assert cards[-1].centre_mm[1] - cards[0].centre_mm[1] > 7 * 8.0
    assert {c.back for c in cards} <= set(backs) and len({c.back for c in cards}) > 1
    cam = Camera.looking_at((0.0, 60.0), 700.0, 0.0, 900.0, (640, 640))
    labels = render(Scene.plain(cam, cards), FlatArt()).labels
    assert len(labels) == 8 and all(label.visible > 0.05 for label in labels)


def test_a_player_area_has_a_ligretto_pile_with_its_top_card_up_and_a_row_of_faces() -> None:
    cards = player_area(np.random.default_rng(2), (0.0, 400.0), 0.0, "red-pink", 4)
    assert {c.back for c in cards} == {"red-pink"}
    assert sum(1 for c in cards if c.face is not None) >= 5  # pile top + 4 in the row
    assert any(c.face is None for c in cards)


def test_a_loose_heap_mixes_faces_and_backs_at_any_angle() -> None:
    cards = loose_heap(np.random.default_rng(0), (0.0, 0.0), 150.0, 40, ("a", "b", "c"), 0.5)
    kinds = {c.kind for c in cards}
    angles = np.array([c.angle_deg for c in cards])
    assert kinds == {"face", "back"}
    assert angles.max() - angles.min() > 180


def test_heldout_presets_never_appear_in_training() -> None:
    assert not set(HELDOUT_SURFACES) & set(TRAIN_SURFACES)
    assert not set(HELDOUT_LIGHTS) & set(TRAIN_LIGHTS)
    train, held = pools("train"), pools("heldout")
    assert not set(train.face_styles) & set(held.face_styles)
    assert not set(train.random_backs) & set(held.random_backs)
    assert set(TRAIN_SURFACES) | set(HELDOUT_SURFACES) == set(SURFACE_PRESETS)
    families = {SURFACE_PRESETS[name].family for name in TRAIN_SURFACES}
    assert {"wood", "felt", "cloth", "laminate", "photo"} <= families


def test_still_scenes_learn_check_cloths_in_the_cards_colours_that_the_round_videos_are_not_filmed_on() -> None:
    from vision.render.table import BUSY_CLOTHS, VIDEO_SURFACES

    assert set(BUSY_CLOTHS) <= set(TRAIN_SURFACES)
    assert not set(BUSY_CLOTHS) & set(VIDEO_SURFACES) and not set(BUSY_CLOTHS) & set(HELDOUT_SURFACES)
    assert all(SURFACE_PRESETS[name].family == "check" for name in BUSY_CLOTHS)
    drawn = {random_scene(seed, "train", (64, 64)).surface for seed in range(200)}
    assert set(BUSY_CLOTHS) <= drawn


@pytest.mark.parametrize("split", SPLITS)
def test_random_scenes_stay_within_the_stated_ranges(split: str) -> None:
    counts, widths, tilts = [], [], []
    for seed in range(40):
        scene = random_scene(seed, split)
        counts.append(len(scene.cards))
        tilts.append(scene.camera.tilt_deg)
        assert scene.surface in pools(split).surfaces
        assert scene.light.preset in pools(split).lights
        for card in scene.cards[-3:]:
            corners = scene.camera.project(card.corners_mm())
            widths.append(float(np.linalg.norm(corners[1] - corners[0])))
    assert max(counts) <= 60
    assert min(tilts) >= 0.0 and max(tilts) <= 45.0
    assert min(widths) < 40 and max(widths) > 100  # from far tables to close-ups

"""The simulated camera that makes the recogniser's training crops."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.recognise.augment import CameraSettings, camera_crop

STILL = CameraSettings(min_width=120, max_width=121, occlusion_p=0.0, corner_error=0.0, glare_p=0, blur_p=0, jpeg_p=0)


def two_tone_card() -> np.ndarray:
    """A card whose top half is red and bottom half blue, so a crop shows which way up it is."""
    card = np.zeros((182, 118, 4), np.uint8)
    card[:91, :, 2] = 230
    card[91:, :, 0] = 230
    card[..., 3] = 255
    return card


@pytest.mark.parametrize("seed", range(6))
def test_crop_is_portrait_and_turned_by_180_exactly_when_flipped(seed: int) -> None:
    sample = camera_crop(two_tone_card(), np.random.default_rng(seed), settings=STILL)
    top, bottom = sample.crop[10:40, 16:48].mean(axis=(0, 1)), sample.crop[56:86, 16:48].mean(axis=(0, 1))
    red_on_top = top[2] > top[0] and bottom[0] > bottom[2]
    assert sample.crop.shape == (96, 64, 3)
    assert red_on_top != sample.flipped


@pytest.mark.parametrize("min_visible", [0.45, 0.7])
def test_occlusion_keeps_at_least_the_asked_visible_share(min_visible: float) -> None:
    settings = CameraSettings(occlusion_p=1.0, min_visible=min_visible)
    occluder = np.full((182, 118, 4), 255, np.uint8)
    rng = np.random.default_rng(1)
    samples = [camera_crop(two_tone_card(), rng, [occluder], settings) for _ in range(30)]
    assert min(s.visible for s in samples) >= min_visible
    assert any(s.visible < 1.0 for s in samples)


def test_card_width_follows_the_settings() -> None:
    rng = np.random.default_rng(2)
    widths = [camera_crop(two_tone_card(), rng).width for _ in range(40)]
    assert min(widths) >= 20 and max(widths) <= 200


def test_low_light_grain_makes_a_flat_card_noisier() -> None:
    grey = np.full((182, 118, 4), 128, np.uint8)
    grey[..., 3] = 255
    plain = [camera_crop(grey, np.random.default_rng(s), settings=STILL).crop for s in range(8)]
    grainy_settings = CameraSettings(**{**STILL.__dict__, "grain_p": 1.0})
    grainy = [camera_crop(grey, np.random.default_rng(s), settings=grainy_settings).crop for s in range(8)]

    def spread(crops: list[np.ndarray]) -> float:
        return float(np.mean([c[20:76, 12:52].astype(np.float32).std() for c in crops]))

    assert spread(grainy) > 1.5 * spread(plain)


@pytest.mark.parametrize("seed", range(5))
def test_a_low_angle_shrinks_the_picture_vertically_by_at_most_half(seed: int) -> None:
    from vision.recognise.augment import _squash

    quad = np.array([[40, 20], [80, 20], [80, 100], [40, 100]], np.float32)
    squashed = _squash(quad, 120, np.random.default_rng(seed))
    width, height = np.ptp(squashed, axis=0)
    assert width == pytest.approx(40)
    assert 0.45 * 80 - 1e-3 <= height <= 80 + 1e-3
    assert squashed[:, 1].mean() == pytest.approx(60)  # about the canvas centre, so the card stays in view


def test_squashed_crops_still_come_out_portrait_and_the_right_way_round() -> None:
    settings = CameraSettings(**{**STILL.__dict__, "squash_p": 1.0})
    for seed in range(4):
        sample = camera_crop(two_tone_card(), np.random.default_rng(seed), settings=settings)
        top = sample.crop[10:40, 16:48].mean(axis=(0, 1))
        assert sample.crop.shape == (96, 64, 3)
        assert (top[2] > top[0]) != sample.flipped


def test_a_card_slapped_on_another_shows_the_one_below_at_its_edges_and_stays_whole() -> None:
    top = np.zeros((182, 118, 4), np.uint8)
    top[..., 2], top[..., 3] = 230, 255  # red
    below = np.zeros((182, 118, 4), np.uint8)
    below[..., 1], below[..., 3] = 230, 255  # green
    settings = replace(STILL, beneath_p=1.0, detector_p=1.0)
    green_at_edges = 0
    for seed in range(8):
        sample = camera_crop(top, np.random.default_rng(seed), settings=settings, beneath=below)
        assert sample.visible == 1.0  # the card below never covers the card on top
        edges = np.concatenate([sample.crop[:6].reshape(-1, 3), sample.crop[-6:].reshape(-1, 3)])
        green_at_edges += int((edges[:, 1].astype(int) > edges[:, 2].astype(int) + 30).any())
        centre = sample.crop[30:66, 20:44].reshape(-1, 3).astype(int)
        assert (centre[:, 2] > centre[:, 1] + 30).mean() > 0.95  # the top card, red, fills the middle
    assert green_at_edges >= 4


def test_a_card_in_a_fan_of_its_own_back_shows_a_strip_and_the_crop_is_its_back_all_the_same() -> None:
    card = np.zeros((182, 118, 4), np.uint8)
    card[..., 2], card[..., 3] = 230, 255  # red all over
    settings = replace(STILL, fanned_p=1.0)
    shown = []
    for seed in range(12):
        sample = camera_crop(card, np.random.default_rng(seed), settings=settings)
        shown.append(sample.visible)
        middle = sample.crop[20:76, 12:52].reshape(-1, 3).astype(int)
        assert (middle[:, 2] > middle[:, 1] + 40).mean() > 0.95  # the cards over it are the same red back
    assert all(0.05 < v < 0.6 for v in shown)  # one strip of 10-50 % of the card's width or height shows
    assert len({round(v, 2) for v in shown}) > 6  # strips of many widths


def test_without_fans_a_lone_card_stays_whole() -> None:
    card = np.zeros((182, 118, 4), np.uint8)
    card[..., 1], card[..., 3] = 230, 255
    assert all(camera_crop(card, np.random.default_rng(s), settings=STILL).visible == 1.0 for s in range(4))


def test_in_a_fan_of_mixed_backs_the_cards_over_the_strip_are_other_cards() -> None:
    red = np.zeros((182, 118, 4), np.uint8)
    red[..., 2], red[..., 3] = 230, 255
    green = np.zeros((182, 118, 4), np.uint8)
    green[..., 1], green[..., 3] = 230, 255
    settings = replace(STILL, fanned_p=1.0, fan_mixed_p=1.0)
    for seed in range(6):
        sample = camera_crop(red, np.random.default_rng(seed), [green], settings)
        pixels = sample.crop.reshape(-1, 3).astype(int)
        greenish = (pixels[:, 1] > pixels[:, 2] + 40).mean()
        reddish = (pixels[:, 2] > pixels[:, 1] + 40).mean()
        assert greenish > 0.3  # most of the crop is the other cards over the card
        assert reddish > 0.03  # and the card's own strip shows


def test_a_card_cut_by_the_pictures_edge_loses_10_to_55_percent_of_its_extent_to_it() -> None:
    settings = replace(STILL, edge_p=1.0)
    shown = [camera_crop(two_tone_card(), np.random.default_rng(s), settings=settings).visible for s in range(24)]
    assert all(0.3 < v < 1.0 for v in shown)  # a tenth of a turned card's extent may be a corner only
    assert max(shown) - min(shown) > 0.3  # cut anywhere in that range


def test_a_card_cut_by_the_pictures_edge_is_read_as_far_as_it_shows_so_its_halves_no_longer_share_the_crop() -> None:
    def red_share(settings: CameraSettings, seed: int) -> float:
        pixels = camera_crop(two_tone_card(), np.random.default_rng(seed), settings=settings).crop.reshape(-1, 3)
        red = (pixels[:, 2].astype(int) > pixels[:, 0].astype(int) + 30).mean()
        blue = (pixels[:, 0].astype(int) > pixels[:, 2].astype(int) + 30).mean()
        return float(red / (red + blue))

    whole = [red_share(STILL, seed) for seed in range(24)]
    cut = [red_share(replace(STILL, edge_p=1.0), seed) for seed in range(24)]
    assert all(abs(share - 0.5) < 0.05 for share in whole)
    # through the box around the part in the picture, or the whole card with the frame's last pixels smeared
    assert sum(abs(share - 0.5) > 0.1 for share in cut) >= 4

"""Card faces: shape and alpha, determinism, colour, white digits in both halves, 6 vs 9, ball layout."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from referee.cards import COLOURS, FULL_SET, Card, Colour
from vision.render.card_art import BALL_ARRANGEMENTS, SHADE_RANGES, FaceStyle, face_layout, render_face
from vision.render.fonts import available_fonts

# OpenCV hue (0..180) bands of the four colour classes, wider than the renderer's ranges on purpose.
HUE_BANDS: dict[Colour, tuple[tuple[int, int], ...]] = {
    Colour.RED: ((0, 9), (168, 180)),
    Colour.YELLOW: ((15, 36),),
    Colour.GREEN: ((45, 90),),
    Colour.BLUE: ((95, 128),),
}
STYLE_SEEDS = range(12)


def dominant_colour(card_image: np.ndarray) -> Colour | None:
    """The colour class covering most saturated pixels inside the card."""
    hsv = cv2.cvtColor(np.ascontiguousarray(card_image[:, :, :3]), cv2.COLOR_BGR2HSV)
    inside = (card_image[:, :, 3] == 255) & (hsv[:, :, 1] > 80) & (hsv[:, :, 2] > 60)
    hues = hsv[:, :, 0][inside]
    votes = {c: sum(int(((hues >= lo) & (hues <= hi)).sum()) for lo, hi in bands) for c, bands in HUE_BANDS.items()}
    best = max(votes, key=lambda c: votes[c])
    return best if votes[best] > 0.5 * hues.size else None


def white_fraction(card_image: np.ndarray, box: tuple[int, int, int, int]) -> float:
    x0, y0, x1, y1 = box
    region = card_image[max(y0, 0) : y1, max(x0, 0) : x1, :3].astype(np.int16)
    white = (region.min(axis=2) > 185) & (region.max(axis=2) - region.min(axis=2) < 45)
    return float(white.mean())


def styles() -> list[FaceStyle]:
    return [FaceStyle.canonical(), *(FaceStyle.random(np.random.default_rng(seed)) for seed in STYLE_SEEDS)]


@pytest.mark.parametrize("height", [16, 61, 120, 333])
@pytest.mark.parametrize("style_seed", [None, 0, 1])
def test_face_has_card_shape_and_rounded_alpha(height: int, style_seed: int | None) -> None:
    style = FaceStyle.canonical() if style_seed is None else FaceStyle.random(np.random.default_rng(style_seed))
    face = render_face(Card.parse("b7"), height, np.random.default_rng(5), style)
    assert face.shape == (height, round(height * style.aspect), 4)
    assert face.dtype == np.uint8
    corners = [face[0, 0, 3], face[-1, -1, 3], face[0, -1, 3], face[-1, 0, 3]]
    if style.corner_radius * face.shape[1] >= 1.0:
        assert all(a < 255 for a in corners), "rounded corners even when small"
    if height >= 120:
        assert all(a == 0 for a in corners)
    assert face[height // 2, face.shape[1] // 2, 3] == 255
    assert face[height // 2, 0, 3] > 0
    if height >= 61:
        assert np.any((face[:, :, 3] > 0) & (face[:, :, 3] < 255)), "the rounded edge is anti-aliased"


def test_face_default_style_is_canonical() -> None:
    card = Card.parse("g6")
    a = render_face(card, 90, np.random.default_rng(3))
    b = render_face(card, 90, np.random.default_rng(3), FaceStyle.canonical())
    assert np.array_equal(a, b)


@pytest.mark.parametrize("card", ["r1", "y10", "g6", "b9"])
def test_face_same_seed_same_pixels_other_seed_other_wear(card: str) -> None:
    style = FaceStyle.random(np.random.default_rng(11))
    first = render_face(Card.parse(card), 100, np.random.default_rng(42), style)
    again = render_face(Card.parse(card), 100, np.random.default_rng(42), style)
    other = render_face(Card.parse(card), 100, np.random.default_rng(43), style)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_random_styles_are_deterministic_and_varied() -> None:
    assert FaceStyle.random(np.random.default_rng(7)) == FaceStyle.random(np.random.default_rng(7))
    looks = {FaceStyle.random(np.random.default_rng(seed)) for seed in range(20)}
    assert len(looks) == 20
    assert len({style.font for style in looks}) >= 4


@pytest.mark.parametrize("style_index", range(len(STYLE_SEEDS) + 1))
def test_every_face_is_dominated_by_its_own_colour(style_index: int) -> None:
    style = styles()[style_index]
    rng = np.random.default_rng(style_index)
    for card in FULL_SET:
        face = render_face(card, 96, rng, style)
        assert dominant_colour(face) == card.colour, f"{card} in style {style_index}"


@pytest.mark.parametrize("colour", COLOURS)
def test_random_shades_stay_in_their_colour_class(colour: Colour) -> None:
    for seed in range(50):
        bgr = FaceStyle.random(np.random.default_rng(seed)).colour_of(colour)
        hue = int(cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0, 0])
        assert any(lo <= hue <= hi for lo, hi in HUE_BANDS[colour]), (seed, bgr, SHADE_RANGES[colour])


@pytest.mark.parametrize("card", ["r1", "y4", "g6", "b8", "r9", "g10"])
@pytest.mark.parametrize("style_index", range(0, len(STYLE_SEEDS) + 1, 3))
def test_white_digits_sit_upright_in_the_upper_half_and_turned_in_the_lower(card: str, style_index: int) -> None:
    style = styles()[style_index]
    face = render_face(Card.parse(card), 160, np.random.default_rng(1), style)
    height, width = face.shape[:2]
    layout = face_layout(Card.parse(card).number, style)
    upright = layout.upright_box(width, height)
    turned = layout.rotated_box(width, height)
    assert (upright[1] + upright[3]) / 2 < height / 2 < (turned[1] + turned[3]) / 2
    assert (upright[0] + upright[2]) / 2 > width / 2 > (turned[0] + turned[2]) / 2
    assert white_fraction(face, upright) > 0.12
    assert white_fraction(face, turned) > 0.12
    assert white_fraction(face, (0, 0, width, height)) < 0.4


def upright_digit_mask(style: FaceStyle, number: int) -> np.ndarray:
    """The white ink of the upright digit, cropped to its extent and scaled to 48 x 64."""
    face = render_face(Card(Colour.GREEN, number), 200, np.random.default_rng(0), style)
    height, width = face.shape[:2]
    x0, y0, x1, y1 = face_layout(number, style).upright_box(width, height)
    region = face[max(y0, 0) : y1, x0:x1, :3].astype(np.int16)
    white = (region.min(axis=2) > 185) & (region.max(axis=2) - region.min(axis=2) < 45)
    rows, cols = np.flatnonzero(white.any(axis=1)), np.flatnonzero(white.any(axis=0))
    glyph = white[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].astype(np.uint8)
    return cv2.resize(glyph, (48, 64), interpolation=cv2.INTER_NEAREST) > 0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max((a | b).sum(), 1))


@pytest.mark.parametrize("font", available_fonts())
def test_six_and_nine_differ_only_by_which_way_up_the_digit_reads(font: str) -> None:
    style = replace(FaceStyle.canonical(), font=font, wear=0.0, gloss=0.0)
    six, nine = upright_digit_mask(style, 6), upright_digit_mask(style, 9)
    assert iou(six, nine[::-1, ::-1]) > 0.8, "no underline or other mark: a 9 is a 6 turned round"
    assert iou(six, nine) < min(0.85, iou(six, nine[::-1, ::-1]) - 0.05), "upright, the two read differently"


@pytest.mark.parametrize("style_index", range(len(STYLE_SEEDS) + 1))
def test_balls_count_their_value_and_keep_clear_of_digits_and_each_other(style_index: int) -> None:
    style = styles()[style_index]
    for number in range(1, 11):
        layout = face_layout(number, style)
        assert len(layout.balls) == style.ball_counts[number - 1]
        yscale = 1 / style.aspect
        for i, (x, y, r, other) in enumerate(layout.balls):
            assert other in (0, 1, 2)
            assert r <= x <= 1 - r and r <= y * yscale <= yscale - r
            for x2, y2, r2, _ in layout.balls[i + 1 :]:
                assert math.hypot(x - x2, (y - y2) * yscale) >= r + r2


def test_canonical_ball_count_equals_value() -> None:
    assert FaceStyle.canonical().ball_counts == tuple(range(1, 11))
    counts = [FaceStyle.random(np.random.default_rng(s)).ball_counts == tuple(range(1, 11)) for s in range(40)]
    assert 0.5 < sum(counts) / len(counts) < 1.0, "equal to the value usually, not always"


@pytest.mark.parametrize("colour", COLOURS)
def test_balls_are_in_the_other_colours(colour: Colour) -> None:
    style = replace(FaceStyle.canonical(), wear=0.0, gloss=0.0, print_offset=0.0)
    card = Card(colour, 10)
    face = render_face(card, 300, np.random.default_rng(0), style)
    height, width = face.shape[:2]
    seen: set[Colour] = set()
    for x, y, r, _ in face_layout(10, style).balls:
        cx, cy, pr = round(x * width), round(y * height), max(1, round(r * width * 0.4))
        patch = face[cy - pr : cy + pr + 1, cx - pr : cx + pr + 1].copy()
        patch[:, :, 3] = 255
        found = dominant_colour(patch)
        assert found is not None and found != colour
        seen.add(found)
    assert len(seen) >= 2


def test_too_small_height_is_refused() -> None:
    with pytest.raises(ValueError, match="8 px"):
        render_face(Card.parse("r1"), 4, np.random.default_rng(0))


@pytest.mark.parametrize("arrangement", BALL_ARRANGEMENTS)
@pytest.mark.parametrize("radius", [0.065, 0.1])
def test_every_arrangement_fits_all_ten_balls(arrangement: str, radius: float) -> None:
    style = replace(FaceStyle.canonical(), ball_arrangement=arrangement, ball_radius=radius, ball_size_jitter=0.3)
    for number in range(1, 11):
        assert len(face_layout(number, style).balls) == number


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ball_arrangement": "spiral"}, "ball_arrangement"),
        ({"aspect": 1.5}, "aspect"),
        ({"ball_counts": (1,)}, "one count"),
    ],
)
def test_implausible_styles_are_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replace(FaceStyle.canonical(), **change)


def test_pixels_do_not_depend_on_what_was_cached_before() -> None:
    from vision.render import card_art

    style = FaceStyle.random(np.random.default_rng(21))
    first = render_face(Card.parse("y7"), 90, np.random.default_rng(4), style)
    card_art._face_print.cache_clear()
    card_art.face_layout.cache_clear()
    card_art._digit_sprite.cache_clear()
    assert np.array_equal(first, render_face(Card.parse("y7"), 90, np.random.default_rng(4), style))


@pytest.mark.parametrize("card", ["r3", "b10"])
def test_every_height_shows_the_same_card(card: str) -> None:
    style = replace(FaceStyle.random(np.random.default_rng(8)), wear=0.0, gloss=0.0, print_offset=0.0)
    small = render_face(Card.parse(card), 120, np.random.default_rng(0), style)
    large = render_face(Card.parse(card), 360, np.random.default_rng(0), style)
    shrunk = cv2.resize(large, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    inside = small[:, :, 3] == 255
    assert float(np.abs(shrunk[:, :, :3].astype(int) - small[:, :, :3].astype(int))[inside].mean()) < 10

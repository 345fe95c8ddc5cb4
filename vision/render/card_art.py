"""Card faces: one solid colour, the value twice as a white extruded digit, glossy balls in the other colours.

The look follows ``shared/reference/card-look.md``; everything the evidence leaves open is a field of
:class:`FaceStyle` (one printing of a deck), and ``rng`` adds what differs card by card (wear, print
offset, ink density, the sheen band). A style is meant to be shared by many cards (a deck, a scene): the
print of each card is cached per (card, style, height), so a warm render only crops, shades and wears it.

>>> from referee.cards import Card
>>> face = render_face(Card.parse("g6"), 120, np.random.default_rng(0))
>>> face.shape, face.dtype, int(face[60, 39, 3]), int(face[0, 0, 3])
((120, 78, 4), dtype('uint8'), 255, 0)
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, COLOURS, HIGHEST, Card, Colour
from vision.render.art_paint import (
    BGR,
    ByteImage,
    FloatImage,
    add_grain,
    paint_sphere,
    paste,
    per_card_finish,
    sphere_layers,
)
from vision.render.fonts import CANONICAL_FONT, available_fonts, glyph_mask

FACE_ASPECT = CARD_WIDTH_MM / CARD_HEIGHT_MM
"""Width over height of the real card (about 0.65)."""

# Plausible print shades per colour class as (hue degrees, saturation, value) ranges. Hue stays well
# inside the class so that a shade never reads as a neighbouring colour.
SHADE_RANGES: dict[Colour, tuple[tuple[float, float], tuple[float, float], tuple[float, float]]] = {
    Colour.RED: ((-6.0, 5.0), (0.78, 1.0), (0.72, 0.95)),
    Colour.YELLOW: ((44.0, 55.0), (0.85, 1.0), (0.90, 1.0)),
    Colour.GREEN: ((120.0, 155.0), (0.75, 1.0), (0.50, 0.75)),
    Colour.BLUE: ((204.0, 222.0), (0.80, 1.0), (0.55, 0.85)),
}
CANONICAL_HSV: dict[Colour, tuple[float, float, float]] = {
    Colour.RED: (356.0, 0.90, 0.88),
    Colour.YELLOW: (50.0, 0.97, 0.99),
    Colour.GREEN: (140.0, 1.00, 0.62),
    Colour.BLUE: (212.0, 0.98, 0.74),
}
# Evidence: white 2 with a red shadow on green, white 8 with a yellow shadow on blue; the rest is a guess.
CANONICAL_SHADOW: dict[Colour, Colour] = {
    Colour.RED: Colour.BLUE,
    Colour.YELLOW: Colour.RED,
    Colour.GREEN: Colour.RED,
    Colour.BLUE: Colour.YELLOW,
}
BALL_ARRANGEMENTS = ("scatter", "diagonal", "cluster")
_REFERENCE_HEIGHT = 240  # px; layouts are computed once at this size so every height shows the same card
_MARGIN = 0.05  # of the card width: print keeps this far from the cut


def hsv_to_bgr(hue_deg: float, saturation: float, value: float) -> BGR:
    """An HSV colour (hue in degrees, saturation and value 0..1) as a BGR triple.

    >>> hsv_to_bgr(0.0, 1.0, 1.0)
    (0, 0, 255)
    """
    r, g, b = colorsys.hsv_to_rgb((hue_deg % 360.0) / 360.0, saturation, value)
    return (round(b * 255), round(g * 255), round(r * 255))


def _darker(colour: BGR, factor: float) -> BGR:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


def _random_shade(colour: Colour, rng: np.random.Generator) -> BGR:
    hue, sat, val = SHADE_RANGES[colour]
    return hsv_to_bgr(rng.uniform(*hue), rng.uniform(*sat), rng.uniform(*val))


@dataclass(frozen=True)
class FaceStyle:
    """One printing of the 40 faces: every choice the evidence leaves open.

    Colours are per colour class in ``COLOURS`` order (red, yellow, green, blue). Lengths are fractions:
    of the card height for digit sizes and vertical positions, of the card width for ball radii, of the
    digit height for stroke weight, shadow depth and outline.
    """

    colours: tuple[BGR, BGR, BGR, BGR]
    shadow_colours: tuple[BGR, BGR, BGR, BGR]
    digit_white: BGR = (246, 248, 248)
    digit_shading: float = 0.0  # the white darkens by this much from the digit's top to its foot
    outline_colour: BGR = (40, 30, 30)
    font: str = CANONICAL_FONT
    weight: float = 0.05
    digit_height: float = 0.30
    digit_centre: tuple[float, float] = (0.62, 0.25)
    shadow_depth: float = 0.1
    shadow_angle: float = 35.0
    outline: float = 0.0
    ball_radius: float = 0.085
    ball_size_jitter: float = 0.12
    ball_counts: tuple[int, ...] = tuple(range(1, HIGHEST + 1))
    ball_seed: int = 6
    ball_highlight: float = 0.9
    ball_arrangement: str = "scatter"  # scatter, diagonal (upper left to lower right) or cluster
    ball_shadow: float = 0.0  # opacity of a printed drop shadow under each ball
    ball_outline: float = 0.0  # dark cartoon outline, fraction of the ball radius
    vignette: float = 0.0  # the printed colour darkens towards the edges by this much
    grain: float = 0.0  # print and paper mottle, a fraction of brightness
    gloss: float = 0.06
    gloss_angle: float = 60.0
    wear: float = 0.15
    print_offset: float = 0.01
    corner_radius: float = 0.06
    aspect: float = FACE_ASPECT
    ink_jitter: float = 0.02

    def __post_init__(self) -> None:
        if len(self.ball_counts) != HIGHEST:
            raise ValueError(f"ball_counts needs one count per value 1..{HIGHEST}, got {len(self.ball_counts)}")
        if self.ball_arrangement not in BALL_ARRANGEMENTS:
            raise ValueError(f"ball_arrangement {self.ball_arrangement!r} is not one of {BALL_ARRANGEMENTS}")
        if not 0.4 <= self.aspect <= 1.0:
            raise ValueError(f"aspect {self.aspect} is not a plausible card width/height")

    def colour_of(self, colour: Colour) -> BGR:
        return self.colours[COLOURS.index(colour)]

    def shadow_of(self, colour: Colour) -> BGR:
        return self.shadow_colours[COLOURS.index(colour)]

    def width_for(self, height: int) -> int:
        return max(2, round(height * self.aspect))

    @classmethod
    def canonical(cls) -> FaceStyle:
        """The best guess of the real print (classic edition, publisher's artwork)."""
        colours = tuple(hsv_to_bgr(*CANONICAL_HSV[c]) for c in COLOURS)
        shadows = tuple(hsv_to_bgr(*CANONICAL_HSV[CANONICAL_SHADOW[c]]) for c in COLOURS)
        return cls(colours=colours, shadow_colours=shadows)  # type: ignore[arg-type]

    @classmethod
    def random(cls, rng: np.random.Generator) -> FaceStyle:
        """A plausible other printing: shades, font, weight, shadow, layout, gloss, wear, shape."""
        colours = tuple(_random_shade(c, rng) for c in COLOURS)
        shadows = tuple(_random_shadow(c, colours, rng) for c in COLOURS)
        fonts = available_fonts()
        if rng.random() < 0.75:
            counts = tuple(range(1, HIGHEST + 1))
        else:
            counts = tuple(int(n) for n in rng.integers(1, 6, size=HIGHEST))
        return cls(
            colours=colours,  # type: ignore[arg-type]
            shadow_colours=shadows,  # type: ignore[arg-type]
            digit_white=hsv_to_bgr(rng.uniform(30, 60), rng.uniform(0.0, 0.06), rng.uniform(0.93, 1.0)),
            digit_shading=float(rng.choice([0.0, 0.0, 0.08, 0.15])),
            outline_colour=hsv_to_bgr(rng.uniform(0, 360), rng.uniform(0, 0.5), rng.uniform(0.05, 0.25)),
            font=str(fonts[int(rng.integers(len(fonts)))]),
            weight=float(rng.uniform(0.0, 0.07)),
            digit_height=float(rng.uniform(0.25, 0.34)),
            digit_centre=(float(rng.uniform(0.56, 0.68)), float(rng.uniform(0.2, 0.29))),
            shadow_depth=float(rng.uniform(0.03, 0.12)),
            shadow_angle=float(rng.choice([0.0, 35.0, 45.0, 60.0, 90.0, 135.0, 145.0, 180.0]) + rng.normal(0, 5)),
            outline=float(rng.choice([0.0, 0.0, 0.025, 0.04])),
            ball_radius=float(rng.uniform(0.065, 0.1)),
            ball_size_jitter=float(rng.uniform(0.0, 0.3)),
            ball_counts=counts,
            ball_seed=int(rng.integers(1 << 30)),
            ball_highlight=float(rng.uniform(0.5, 1.0)),
            ball_arrangement=str(rng.choice(BALL_ARRANGEMENTS, p=[0.6, 0.25, 0.15])),
            ball_shadow=float(rng.choice([0.0, 0.0, 0.25, 0.45])),
            ball_outline=float(rng.choice([0.0, 0.0, 0.0, 0.12])),
            vignette=float(rng.uniform(0.0, 0.12)),
            grain=float(rng.uniform(0.0, 0.025)),
            gloss=float(rng.uniform(0.0, 0.15)),
            gloss_angle=float(rng.uniform(0, 360)),
            wear=float(rng.uniform(0.0, 0.6) ** 1.5),
            print_offset=float(rng.uniform(0.0, 0.025)),
            corner_radius=float(rng.uniform(0.04, 0.09)),
            aspect=float(np.clip(rng.normal(FACE_ASPECT, 0.015), 0.6, 0.7)),
            ink_jitter=float(rng.uniform(0.0, 0.04)),
        )


def _random_shadow(colour: Colour, shades: tuple[BGR, ...], rng: np.random.Generator) -> BGR:
    """Another colour class (as in the evidence), a dark tone of the own colour, or near black."""
    pick = rng.random()
    others = [c for c in COLOURS if c is not colour]
    other = others[int(rng.integers(len(others)))]
    if pick < 0.6:
        return shades[COLOURS.index(other)]
    if pick < 0.85:
        return _darker(shades[COLOURS.index(colour)], float(rng.uniform(0.35, 0.6)))
    return hsv_to_bgr(rng.uniform(200, 260), rng.uniform(0.2, 0.7), rng.uniform(0.1, 0.25))


@dataclass(frozen=True)
class FaceLayout:
    """Where the print sits, in fractions: x of the card width, y of the card height.

    ``digit_size`` is the (width, height) of one digit sprite (white glyph, shadow and outline); the
    upright one is centred on ``upright_centre`` and the one turned by 180 degrees on ``rotated_centre``.
    ``balls`` are (x, y, radius as a fraction of the width, which of the three other colours: 0..2).
    """

    digit_height: float
    digit_size: tuple[float, float]
    upright_centre: tuple[float, float]
    rotated_centre: tuple[float, float]
    balls: tuple[tuple[float, float, float, int], ...]

    def upright_box(self, width: int, height: int) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) in pixels of the upright digit on a card of that size."""
        return _box(self.upright_centre, self.digit_size, width, height)

    def rotated_box(self, width: int, height: int) -> tuple[int, int, int, int]:
        return _box(self.rotated_centre, self.digit_size, width, height)


def _box(centre: tuple[float, float], size: tuple[float, float], width: int, height: int) -> tuple[int, int, int, int]:
    x0 = (centre[0] - size[0] / 2) * width
    y0 = (centre[1] - size[1] / 2) * height
    return (round(x0), round(y0), round(x0 + size[0] * width), round(y0 + size[1] * height))


def _digit_pixels(style: FaceStyle, digit_height: float, height: int) -> tuple[int, int, int, int]:
    """(glyph px, stroke px, shadow depth px, outline px) for a card ``height`` px tall."""
    glyph = max(4, round(digit_height * height))
    return (
        glyph,
        round(style.weight * glyph),
        max(1, round(style.shadow_depth * glyph)),
        round(style.outline * glyph),
    )


@lru_cache(maxsize=4096)
def face_layout(number: int, style: FaceStyle) -> FaceLayout:
    """The layout of the face of value ``number`` in ``style`` (identical at every rendering height)."""
    ref_h = _REFERENCE_HEIGHT
    ref_w = style.width_for(ref_h)
    digit_height = style.digit_height
    for _ in range(8):
        white, _, _, _ = _digit_sprite(
            style.font, str(number), *_digit_pixels(style, digit_height, ref_h), style.shadow_angle
        )
        size = (white.shape[1] / ref_w, white.shape[0] / ref_h)
        if size[0] <= 0.62:
            break
        digit_height *= 0.62 / size[0]
    half_w, half_h = size[0] / 2, size[1] / 2
    cx = float(np.clip(style.digit_centre[0], half_w + _MARGIN, 1 - half_w - _MARGIN))
    cy = float(np.clip(style.digit_centre[1], half_h + _MARGIN * style.aspect, 0.5 - 0.1 * half_h))
    upright, rotated = (cx, cy), (1 - cx, 1 - cy)
    balls = _ball_positions(number, style, size, upright, rotated)
    return FaceLayout(digit_height, size, upright, rotated, balls)


def _ball_positions(
    number: int,
    style: FaceStyle,
    digit_size: tuple[float, float],
    upright: tuple[float, float],
    rotated: tuple[float, float],
) -> tuple[tuple[float, float, float, int], ...]:
    """Balls scattered between the digits without touching them or each other (seeded by the style)."""
    count = style.ball_counts[number - 1]
    rng = np.random.default_rng((style.ball_seed, number, count))
    yscale = 1 / style.aspect  # work in card-width units in both directions
    boxes = [
        (c[0] - digit_size[0] / 2, c[1] * yscale - digit_size[1] * yscale / 2, digit_size[0], digit_size[1] * yscale)
        for c in (upright, rotated)
    ]
    radius = style.ball_radius * min(1.0, math.sqrt(5.0 / max(count, 1)))
    for _attempt in range(12):
        placed: list[tuple[float, float, float]] = []
        for _ in range(count):
            size = radius * (1 + style.ball_size_jitter * rng.uniform(-1, 1))
            spot = _place_ball(rng, size, yscale, boxes, placed, style.ball_arrangement)
            if spot is None:
                break
            placed.append(spot)
        if len(placed) == count:
            break
        radius *= 0.88
    first = int(rng.integers(3))
    return tuple((x, y / yscale, r, (first + i) % 3) for i, (x, y, r) in enumerate(placed))


def _place_ball(
    rng: np.random.Generator,
    r: float,
    yscale: float,
    boxes: list[tuple[float, float, float, float]],
    placed: list[tuple[float, float, float]],
    arrangement: str = "scatter",
) -> tuple[float, float, float] | None:
    """The first of 64 random candidates clear of the digits and other balls (x in widths, y in widths)."""
    if arrangement == "diagonal":  # along the free diagonal, upper left to lower right
        t = rng.uniform(0.1, 0.9, 64)
        xs, ys = t + rng.normal(0, 0.07, 64), (t + rng.normal(0, 0.07, 64)) * yscale
    elif arrangement == "cluster":
        xs, ys = rng.normal(0.5, 0.14, 64), rng.normal(0.5, 0.14, 64) * yscale
    else:
        xs, ys = rng.uniform(0, 1, 64), rng.normal(0.5, 0.22, 64) * yscale
    xs = np.clip(xs, _MARGIN + r, 1 - _MARGIN - r)
    ys = np.clip(ys, _MARGIN + r, yscale - _MARGIN - r)
    ok = np.ones(64, bool)
    for bx, by, bw, bh in boxes:
        gap_x = xs - np.clip(xs, bx, bx + bw)
        gap_y = ys - np.clip(ys, by, by + bh)
        ok &= np.hypot(gap_x, gap_y) >= r * 1.15
    for px, py, pr in placed:
        ok &= np.hypot(xs - px, ys - py) >= (r + pr) * 1.12
    hits = np.flatnonzero(ok)
    return None if hits.size == 0 else (float(xs[hits[0]]), float(ys[hits[0]]), r)


@lru_cache(maxsize=8192)
def _digit_sprite(
    font: str, text: str, glyph_px: int, stroke_px: int, depth_px: int, outline_px: int, angle_deg: float
) -> tuple[FloatImage, FloatImage, FloatImage, FloatImage]:
    """(white, shadow, shadow shade, outline) layers of one extruded digit, all the same shape.

    The shadow is the glyph swept ``depth_px`` pixels along ``angle_deg`` (image coordinates, 0 = right,
    90 = down), darker towards its far end, which reads as a 3-D block letter.
    """
    glyph = glyph_mask(font, text, glyph_px, stroke_px).astype(np.float32) / 255.0
    step = (math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg)))
    offsets = [(round(i * step[0]), round(i * step[1])) for i in range(1, depth_px + 1)]
    min_x = min(0, *(o[0] for o in offsets))
    min_y = min(0, *(o[1] for o in offsets))
    max_x = max(0, *(o[0] for o in offsets))
    max_y = max(0, *(o[1] for o in offsets))
    pad = outline_px + 1
    h, w = glyph.shape
    shape = (h + max_y - min_y + 2 * pad, w + max_x - min_x + 2 * pad)
    gx, gy = pad - min_x, pad - min_y
    white = np.zeros(shape, np.float32)
    white[gy : gy + h, gx : gx + w] = glyph
    shadow = np.zeros(shape, np.float32)
    nearness = np.zeros(shape, np.float32)  # 1 right behind the glyph, falling towards the far end
    solid = glyph > 0.5
    for i, (ox, oy) in enumerate(offsets, start=1):
        region = (slice(gy + oy, gy + oy + h), slice(gx + ox, gx + ox + w))
        np.maximum(shadow[region], glyph, out=shadow[region])
        np.maximum(nearness[region], solid * np.float32(1.0 - (i - 1) / depth_px), out=nearness[region])
    shade = np.where(nearness > 0, 0.7 + 0.3 * nearness, 1.0).astype(np.float32)
    if outline_px > 0:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * outline_px + 1, 2 * outline_px + 1))
        outline = np.asarray(cv2.dilate(np.maximum(white, shadow), kernel), np.float32)
    else:
        outline = np.zeros(shape, np.float32)
    layers = (white, shadow, shade, outline)
    for layer in layers:
        layer.setflags(write=False)
    return layers


def _paint_digit(
    canvas: FloatImage, card: Card, style: FaceStyle, layout: FaceLayout, height: int, margin: int
) -> None:
    width = style.width_for(height)
    layers = _digit_sprite(
        style.font, str(card.number), *_digit_pixels(style, layout.digit_height, height), style.shadow_angle
    )
    shadow_colour = np.asarray(style.shadow_of(card.colour), np.float32)
    # A glossy letter: full white at its top, a little greyer towards its foot (turned with the digit).
    ramp = 1.0 - style.digit_shading * np.linspace(0.0, 1.0, layers[0].shape[0], dtype=np.float32)
    white_paint = ramp[:, None, None] * np.asarray(style.digit_white, np.float32) * np.ones_like(layers[0])[:, :, None]
    for centre, turned in ((layout.upright_centre, False), (layout.rotated_centre, True)):
        white, shadow, shade, outline = (layer[::-1, ::-1] if turned else layer for layer in layers)
        paint = white_paint[::-1, ::-1] if turned else white_paint
        x = round(centre[0] * width - white.shape[1] / 2) + margin
        y = round(centre[1] * height - white.shape[0] / 2) + margin
        if style.outline > 0:
            paste(canvas, outline, style.outline_colour, x, y)
        paste(canvas, shadow, shade[:, :, None] * shadow_colour, x, y)
        paste(canvas, white, paint, x, y)


@lru_cache(maxsize=64)
def _edge_falloff(height: int, width: int) -> FloatImage:
    """0 in the middle of the card, 1 at its corners (squared elliptical distance)."""
    ys = (np.arange(height, dtype=np.float32) + 0.5) / height * 2 - 1
    xs = (np.arange(width, dtype=np.float32) + 0.5) / width * 2 - 1
    falloff = ((ys[:, None] ** 2 + xs[None, :] ** 2) / 2).astype(np.float32)
    falloff.setflags(write=False)
    return falloff


def _paint_disc(canvas: FloatImage, cx: float, cy: float, radius: float, colour: BGR, opacity: float) -> None:
    coverage, _, _ = sphere_layers(max(4, round(radius * 4)), 0.0)
    size = coverage.shape[0]
    paste(canvas, coverage * np.float32(opacity), colour, round(cx - size / 2), round(cy - size / 2))


@lru_cache(maxsize=512)
def _face_print(card: Card, style: FaceStyle, height: int) -> tuple[ByteImage, int]:
    """The printed sheet of one face with ``margin`` px of bleed on every side, before per-card effects."""
    width = style.width_for(height)
    margin = math.ceil(style.print_offset * width) + 1
    canvas = np.empty((height + 2 * margin, width + 2 * margin, 3), np.float32)
    base = style.colour_of(card.colour)
    canvas[:] = base
    if style.vignette > 0:
        canvas *= 1.0 - style.vignette * _edge_falloff(canvas.shape[0], canvas.shape[1])[:, :, None]
    layout = face_layout(card.number, style)
    others = [c for c in COLOURS if c is not card.colour]
    for x, y, r, other in layout.balls:
        cx, cy, radius = x * width + margin, y * height + margin, r * width
        if style.ball_shadow > 0:
            _paint_disc(
                canvas, cx + 0.18 * radius, cy + 0.22 * radius, radius * 1.05, _darker(base, 0.45), style.ball_shadow
            )
        if style.ball_outline > 0:
            _paint_disc(canvas, cx, cy, radius * (1 + style.ball_outline), style.outline_colour, 1.0)
        paint_sphere(canvas, cx, cy, radius, style.colour_of(others[other]), style.ball_highlight)
    _paint_digit(canvas, card, style, layout, height, margin)
    add_grain(canvas, style.grain, style.ball_seed + card.number + 10 * COLOURS.index(card.colour))
    sheet = np.round(np.clip(canvas, 0, 255)).astype(np.uint8)  # a quarter of the memory of float
    sheet.setflags(write=False)
    return sheet, margin


def render_face(card: Card, height: int, rng: np.random.Generator, style: FaceStyle | None = None) -> ByteImage:
    """BGRA uint8, shape (height, round(height*aspect), 4), portrait, the card's own top at the top;
    alpha 255 inside the rounded-corner card, 0 outside (anti-aliased edge).

    ``style`` defaults to :meth:`FaceStyle.canonical`; ``rng`` adds this card's wear, print offset,
    ink density and sheen, so the same seed gives the same pixels.
    """
    if height < 8:
        raise ValueError(f"a face needs at least 8 px of height, not {height}")
    style = style or FaceStyle.canonical()
    width = style.width_for(height)
    sheet, margin = _face_print(card, style, height)
    look = (style.ink_jitter, style.gloss, style.gloss_angle, style.wear, style.corner_radius * width)
    return per_card_finish(sheet, margin, (height, width), look, rng)


__all__ = ["FACE_ASPECT", "FaceLayout", "FaceStyle", "face_layout", "render_face"]

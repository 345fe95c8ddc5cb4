"""Card backs: one shared layout (frame, repeated symbol, a big "LIGRETTO" lengthwise on a panel), many looks.

What tells owners apart is the lettering colour, the symbol and the pattern (card-look.md). The 12
catalogue backs map deterministically to a :class:`BackLook`; :meth:`BackLook.random` draws from an
open-ended family of other plausible designs so that a back recogniser learns to compare designs, not to
memorise twelve pictures. The design of a look is cached per height; ``rng`` adds per-card wear, print
offset, ink density and sheen.

>>> from referee.backs import Catalogue
>>> look = BackLook.for_design(Catalogue.default()["blue-orange"])
>>> look.symbol, look.lettering == LETTERING_BGR["orange"]
('balls', True)
>>> render_back(look, 120, np.random.default_rng(0)).shape
(120, 78, 4)
"""

from __future__ import annotations

import colorsys
import math
import zlib
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from referee.backs import BackDesign
from vision.render.art_motifs import SYMBOLS, motif_layers
from vision.render.art_paint import (
    BGR,
    ByteImage,
    FloatImage,
    add_grain,
    card_distance,
    gradient_axis,
    paste,
    paste_mask,
    per_card_finish,
)
from vision.render.card_art import FACE_ASPECT
from vision.render.fonts import CANONICAL_FONT, LETTERING_FONT_CANDIDATES, available_fonts, glyph_mask

# Lettering colours of the catalogue (names from referee.backs), chosen to be far apart from each other.
LETTERING_BGR: dict[str, BGR] = {
    "red": (35, 30, 215),
    "light-blue": (235, 185, 70),
    "pink": (190, 130, 250),
    "black": (28, 26, 26),
    "blue": (175, 55, 15),
    "purple": (145, 35, 110),
    "orange": (10, 135, 250),
    "green": (45, 150, 25),
    "fuchsia": (150, 10, 225),
    "brown": (30, 70, 125),
}
PATTERNS: tuple[str, ...] = ("grid", "staggered", "diagonal", "scatter", "border", "rows")
# A guess: the sets of one box share the pattern, boxes differ (the older edition varies patterns per set).
_BOX_PATTERN = {"red": "staggered", "blue": "grid", "green": "diagonal"}
_PAPER: BGR = (246, 248, 248)
WORD = "LIGRETTO"


@dataclass(frozen=True)
class BackLook:
    """Everything that makes one back design; colours are BGR, lengths fractions of the card width."""

    lettering: BGR
    symbol: str
    pattern: str = "grid"
    base: BGR = _PAPER
    base_end: BGR = _PAPER
    gradient_angle: float = 90.0
    motif_colour: BGR | None = None  # None: the lettering colour
    motif_opacity: float = 0.6
    motif_size: float = 0.19
    motif_spacing: float = 1.6  # centre distance in motif sizes
    motif_angle: float = 0.0
    border: float = 0.07
    border_colour: BGR | None = None  # None: the lettering colour
    panel: str = "pill"  # behind the word: pill, ellipse, band, none
    panel_colour: BGR = _PAPER
    word_colour: BGR | None = None  # None: the lettering colour
    word_angle: int = 90  # 90: lengthwise, reading bottom to top; 0: across
    word_length: float = 0.74  # of the card height when lengthwise, of the width when across
    word_shadow: float = 0.018  # offset of a dark drop shadow under the word, 0 for none
    word_bounce: float = 0.08  # every other letter raised by this fraction of the letter height
    font: str = CANONICAL_FONT
    seed: int = 0
    wear: float = 0.15
    gloss: float = 0.06
    print_offset: float = 0.01
    corner_radius: float = 0.06
    aspect: float = FACE_ASPECT
    grain: float = 0.0  # print and paper mottle, a fraction of brightness

    def __post_init__(self) -> None:
        if self.symbol not in SYMBOLS:
            raise ValueError(f"unknown back symbol {self.symbol!r}; known: {', '.join(SYMBOLS)}")
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown back pattern {self.pattern!r}; known: {', '.join(PATTERNS)}")

    @property
    def motif(self) -> BGR:
        return self.motif_colour or self.lettering

    def width_for(self, height: int) -> int:
        return max(2, round(height * self.aspect))

    @classmethod
    def for_design(cls, design: BackDesign) -> BackLook:
        """The look of a catalogue back: lettering colour and symbol from the design, the rest fixed."""
        key = zlib.crc32(design.id.encode())
        lettering = LETTERING_BGR.get(design.lettering) or _colour_from_key(key)
        symbol = design.symbol if design.symbol in SYMBOLS else SYMBOLS[key % len(SYMBOLS)]
        pattern = _BOX_PATTERN.get(design.box, PATTERNS[(key >> 8) % len(PATTERNS)])
        return cls(
            lettering=lettering,
            symbol=symbol,
            pattern=pattern,
            base=_tint(_PAPER, lettering, 0.06),
            base_end=_tint(_PAPER, lettering, 0.16),
            seed=key % 10_000,
        )

    @classmethod
    def random(cls, rng: np.random.Generator) -> BackLook:
        """Another plausible design: same layout family, random colours, symbol, pattern and details."""
        lettering = _colour_from_key(int(rng.integers(1 << 30)))
        dark = rng.random() < 0.3
        base = _random_base(rng, dark, lettering)
        base_end = tuple(int(np.clip(v + rng.normal(0, 18), 0, 255)) for v in base)
        inverted = rng.random() < 0.2  # light word on a panel of the lettering colour
        readable_on_base = abs(_luma(lettering) - _luma(base)) > 70
        panel_colour = lettering if inverted else (base if dark and readable_on_base else _PAPER)
        word_colour = _PAPER if inverted else lettering
        fonts = available_fonts(LETTERING_FONT_CANDIDATES)
        word_angle = int(rng.choice([90, 90, 90, 270, 0, 60]))
        panel = "pill" if inverted else str(rng.choice(["pill", "pill", "ellipse", "band", "none"]))
        if word_angle % 90:  # a slanted word gets no panel: one fitted to its square bounding box looks wrong
            panel, word_colour = "none", lettering
        return cls(
            lettering=lettering,
            symbol=str(SYMBOLS[int(rng.integers(len(SYMBOLS)))]),
            pattern=str(PATTERNS[int(rng.integers(len(PATTERNS)))]),
            base=base,
            base_end=base_end,  # type: ignore[arg-type]
            gradient_angle=float(rng.uniform(0, 360)),
            motif_colour=None if rng.random() < 0.7 else _colour_from_key(int(rng.integers(1 << 30))),
            motif_opacity=float(rng.uniform(0.25, 0.9)),
            motif_size=float(rng.uniform(0.1, 0.22)),
            motif_spacing=float(rng.uniform(1.2, 2.0)),
            motif_angle=float(rng.choice([0.0, 0.0, 15.0, -20.0, 45.0, 90.0])),
            border=float(rng.choice([0.0, 0.03, 0.06, 0.09])),
            border_colour=None if rng.random() < 0.7 else _colour_from_key(int(rng.integers(1 << 30))),
            panel=panel,
            panel_colour=panel_colour,
            word_colour=word_colour,
            word_angle=word_angle,
            word_length=float(rng.uniform(0.6, 0.85)),
            word_shadow=float(rng.choice([0.0, 0.012, 0.02, 0.03])),
            word_bounce=float(rng.choice([0.0, 0.0, 0.06, 0.12])),
            font=str(fonts[int(rng.integers(len(fonts)))]),
            seed=int(rng.integers(1 << 30)),
            wear=float(rng.uniform(0.0, 0.6) ** 1.5),
            gloss=float(rng.uniform(0.0, 0.15)),
            print_offset=float(rng.uniform(0.0, 0.025)),
            corner_radius=float(rng.uniform(0.04, 0.09)),
            aspect=float(np.clip(rng.normal(FACE_ASPECT, 0.015), 0.6, 0.7)),
            grain=float(rng.uniform(0.0, 0.025)),
        )


def _luma(colour: BGR) -> float:
    return 0.114 * colour[0] + 0.587 * colour[1] + 0.299 * colour[2]


def _tint(paper: BGR, ink: BGR, amount: float) -> BGR:
    """``paper`` with ``amount`` of ``ink`` mixed in."""
    return (
        round(paper[0] + (ink[0] - paper[0]) * amount),
        round(paper[1] + (ink[1] - paper[1]) * amount),
        round(paper[2] + (ink[2] - paper[2]) * amount),
    )


def _colour_from_key(key: int) -> BGR:
    """A saturated or dark printing colour from an integer (stable across runs)."""
    hue = (key % 360) / 360.0
    saturation = 0.55 + ((key >> 9) % 45) / 100.0
    value = 0.35 + ((key >> 15) % 60) / 100.0
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return (round(b * 255), round(g * 255), round(r * 255))


def _random_base(rng: np.random.Generator, dark: bool, lettering: BGR) -> BGR:
    if dark:
        r, g, b = colorsys.hsv_to_rgb(rng.uniform(0, 1), rng.uniform(0.2, 0.9), rng.uniform(0.08, 0.3))
    else:
        r, g, b = colorsys.hsv_to_rgb(rng.uniform(0, 1), rng.uniform(0.0, 0.18), rng.uniform(0.88, 1.0))
    return (round(b * 255), round(g * 255), round(r * 255))


def _pattern_points(look: BackLook) -> list[tuple[float, float, int]]:
    """Motif centres (x in widths, y in heights) and turns in degrees, for the whole card."""
    step = look.motif_size * look.motif_spacing
    yscale = 1 / look.aspect
    points: list[tuple[float, float, int]] = []
    angle = round(look.motif_angle)
    if look.pattern == "scatter":
        rng = np.random.default_rng(look.seed)
        count = int(yscale / step**2 * 0.9)
        for x, y, turn in zip(
            rng.uniform(0, 1, count), rng.uniform(0, 1, count), rng.integers(0, 360, count), strict=True
        ):
            points.append((float(x), float(y), int(turn) // 15 * 15))
        return points
    if look.pattern == "border":
        inset = look.border + look.motif_size * 0.7
        n_x = max(2, round((1 - 2 * inset) / step) + 1)
        n_y = max(2, round((yscale - 2 * inset) / step) + 1)
        for i in range(n_x):
            x = inset + (1 - 2 * inset) * i / (n_x - 1)
            points += [(x, inset / yscale, angle), (x, 1 - inset / yscale, angle + 180)]
        for j in range(1, n_y - 1):
            y = (inset + (yscale - 2 * inset) * j / (n_y - 1)) / yscale
            points += [(inset, y, angle + 90), (1 - inset, y, angle - 90)]
        return points
    # Centred on the card and offset by half a step, so that columns flank the word in the middle.
    half_rows = int(yscale / step / 2) + 2
    half_cols = int(1 / step / 2) + 2
    for row in range(-half_rows, half_rows):
        for col in range(-half_cols - 1, half_cols + 1):
            shift = step / 2 if look.pattern == "staggered" and row % 2 else 0.0
            if look.pattern == "diagonal":
                shift = (row * step * 0.5) % step
            x = 0.5 + (col + 0.5) * step + shift
            y = yscale / 2 + (row + 0.5) * step
            turn = angle + (180 if look.pattern == "rows" and row % 2 else 0)
            points.append((x, y / yscale, turn))
    return points


def _paint_base(canvas: FloatImage, look: BackLook) -> None:
    height, width = canvas.shape[:2]
    levels = gradient_axis(height, width, round(look.gradient_angle) % 360)
    start, end = np.asarray(look.base, np.float32), np.asarray(look.base_end, np.float32)
    ramp = np.linspace(0.0, 1.0, 256, dtype=np.float32)[:, None] * (end - start) + start  # 256 x 3 colours
    canvas[:] = ramp[levels]


def _paint_motifs(canvas: FloatImage, look: BackLook, width: int, height: int, margin: int) -> None:
    size = max(3, round(look.motif_size * width))
    colour = np.asarray(look.motif, np.float32)
    for x, y, turn in _pattern_points(look):
        coverage, shade, highlight = motif_layers(look.symbol, size, turn % 360)
        paint = colour * shade[:, :, None]
        paint = paint + (255.0 - paint) * highlight[:, :, None]
        side = coverage.shape[0]
        paste(
            canvas,
            coverage * look.motif_opacity,
            paint,
            round(x * width - side / 2) + margin,
            round(y * height - side / 2) + margin,
        )


def _word_mask(look: BackLook, width: int, height: int) -> FloatImage:
    """The word, scaled to ``word_length`` (shorter inside an ellipse, which must contain it) and turned."""
    lengthwise = look.word_angle % 180 != 0
    length = min(look.word_length, 0.62) if look.panel == "ellipse" else look.word_length
    span = length * (height if lengthwise else width)
    glyph = _bouncy_word(look.font, max(4, round(span / 6.5)), max(0, round(span / 120)), look.word_bounce)
    scale = span / glyph.shape[1]
    resized = cv2.resize(glyph, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return _turn(np.asarray(resized, np.float32) / np.float32(255), look.word_angle)


@lru_cache(maxsize=256)
def _bouncy_word(font: str, letter_px: int, stroke: int, bounce: float) -> ByteImage:
    """The word set letter by letter, every other letter raised by ``bounce`` letter heights (a logo look)."""
    if bounce <= 0:
        return glyph_mask(font, WORD, letter_px, stroke)
    letters = [glyph_mask(font, letter, letter_px, stroke) for letter in WORD]
    lift = round(bounce * letter_px)
    gap = max(1, round(letter_px * 0.04))
    height = max(letter.shape[0] for letter in letters) + lift
    width = sum(letter.shape[1] for letter in letters) + gap * (len(letters) - 1)
    word = np.zeros((height, width), np.uint8)
    x = 0
    for index, letter in enumerate(letters):
        top = height - letter.shape[0] - (lift if index % 2 else 0)
        region = word[top : top + letter.shape[0], x : x + letter.shape[1]]
        np.maximum(region, letter, out=region)
        x += letter.shape[1] + gap
    return word


def _panel_mask(look: BackLook, word: FloatImage, shape: tuple[int, int], width: int) -> FloatImage:
    """Coverage of the panel behind the word: a pill (stadium), an ellipse or a band across the card."""
    panel = np.zeros(shape, np.float32)
    cy, cx = shape[0] / 2, shape[1] / 2
    half_h, half_w = word.shape[0] / 2, word.shape[1] / 2
    pad = width * 0.07
    if look.panel == "pill":
        radius = min(half_h, half_w) + pad
        reach = max(half_h, half_w) + pad - radius
        dx, dy = (0.0, reach) if half_h >= half_w else (reach, 0.0)
        ends = [(round((cx - dx) * 16), round((cy - dy) * 16)), (round((cx + dx) * 16), round((cy + dy) * 16))]
        cv2.line(panel, ends[0], ends[1], 1.0, max(1, round(2 * radius)), cv2.LINE_AA, 4)
    elif look.panel == "ellipse":
        axes = (round((half_w * 1.42 + pad) * 16), round((half_h * 1.42 + pad) * 16))
        cv2.ellipse(panel, (round(cx * 16), round(cy * 16)), axes, 0, 0, 360, 1.0, -1, cv2.LINE_AA, 4)
    elif look.panel == "band":
        lengthwise = half_h >= half_w
        half = (half_w + pad, float(shape[0])) if lengthwise else (float(shape[1]), half_h + pad)
        p0 = (round((cx - half[0]) * 16), round((cy - half[1]) * 16))
        p1 = (round((cx + half[0]) * 16), round((cy + half[1]) * 16))
        cv2.rectangle(panel, p0, p1, 1.0, -1, cv2.LINE_AA, 4)
    return panel


def _paint_panel_and_word(canvas: FloatImage, look: BackLook, width: int, height: int, margin: int) -> None:
    word = _word_mask(look, width, height)
    if look.panel != "none":
        panel = _panel_mask(look, word, canvas.shape[:2], width)
        ring = _grow(panel, max(1, round(width * 0.014)))
        paste_mask(canvas, ring, look.border_colour or look.lettering)
        paste_mask(canvas, panel, look.panel_colour)
    x0 = round(canvas.shape[1] / 2 - word.shape[1] / 2)
    y0 = round(canvas.shape[0] / 2 - word.shape[0] / 2)
    word_colour = look.word_colour or look.lettering
    halo_colour = look.panel_colour if look.panel != "none" else _PAPER
    if halo_colour == word_colour:
        halo_colour = look.lettering if word_colour != look.lettering else _PAPER
    paste(canvas, _grow(word, max(1, round(width * 0.01))), halo_colour, x0, y0)
    if look.word_shadow > 0:
        depth = max(1, round(look.word_shadow * width))
        shadow_colour = tuple(round(v * 0.45) for v in word_colour)
        paste(canvas, word, shadow_colour, x0 + depth, y0 + depth)  # type: ignore[arg-type]
    paste(canvas, word, word_colour, x0, y0)


def _grow(mask: FloatImage, pixels: int) -> FloatImage:
    return np.asarray(cv2.dilate(mask, np.ones((3, 3), np.uint8), iterations=pixels), np.float32)


def _turn(mask: FloatImage, angle: int) -> FloatImage:
    if angle % 90 == 0:
        return np.ascontiguousarray(np.rot90(mask, (angle // 90) % 4))
    h, w = mask.shape
    side = math.ceil(math.hypot(h, w))
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += ((side - w) / 2, (side - h) / 2)
    return np.asarray(cv2.warpAffine(mask, matrix, (side, side), flags=cv2.INTER_LINEAR), np.float32)


def _paint_border(canvas: FloatImage, look: BackLook, width: int, height: int, margin: int) -> None:
    if look.border <= 0:
        return
    outer = card_distance(height + 2 * margin, width + 2 * margin, look.corner_radius * width + margin)
    band = look.border * width + margin
    coverage = np.clip(band - outer + 0.5, 0, 1).astype(np.float32)
    paste(canvas, coverage, look.border_colour or look.lettering, 0, 0)
    line = np.clip(1.0 - np.abs(outer - band - width * 0.025), 0, 1).astype(np.float32)
    paste_mask(canvas, line, look.border_colour or look.lettering)


@lru_cache(maxsize=256)
def _back_print(look: BackLook, height: int) -> tuple[ByteImage, int]:
    """The printed design with ``margin`` px of bleed on every side, before per-card effects."""
    width = look.width_for(height)
    margin = math.ceil(look.print_offset * width) + 1
    canvas = np.empty((height + 2 * margin, width + 2 * margin, 3), np.float32)
    _paint_base(canvas, look)
    _paint_motifs(canvas, look, width, height, margin)
    _paint_panel_and_word(canvas, look, width, height, margin)
    _paint_border(canvas, look, width, height, margin)
    add_grain(canvas, look.grain, look.seed)
    sheet = np.round(np.clip(canvas, 0, 255)).astype(np.uint8)  # a quarter of the memory of float
    sheet.setflags(write=False)
    return sheet, margin


def render_back(look: BackLook, height: int, rng: np.random.Generator) -> ByteImage:
    """BGRA uint8, shape (height, round(height*aspect), 4), alpha 255 inside the rounded card, 0 outside."""
    if height < 8:
        raise ValueError(f"a back needs at least 8 px of height, not {height}")
    width = look.width_for(height)
    sheet, margin = _back_print(look, height)
    finish_look = (0.02, look.gloss, 60.0, look.wear, look.corner_radius * width)
    return per_card_finish(sheet, margin, (height, width), finish_look, rng)


__all__ = ["LETTERING_BGR", "PATTERNS", "BackLook", "render_back"]

"""Table surfaces: procedural wood, felt, cloth, laminate and patterns, plus tinted photo textures.

Each named preset draws a seamless tile (BGR, covering ``tile_mm`` millimetres of table) from a variant
number; tiles are cached, so a worker pays for each (preset, variant) once. A scene lays the tile over
the table plane through the camera homography (``cv2.BORDER_WRAP`` repeats it) and varies its colour.

Seamless tiles come from noise filtered in the frequency domain: an inverse FFT is periodic by
construction, so wrapping shows no seam.

>>> tile = surface_tile("oak-wood", 0)
>>> tile.image.shape[2], tile.image.dtype, tile.tile_mm > 0
(3, dtype('uint8'), True)
>>> sorted(set(SURFACE_PRESETS) & set(HELDOUT_SURFACES)) == sorted(HELDOUT_SURFACES)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Float = npt.NDArray[np.float32]
Bgr = tuple[float, float, float]

TILE_PX = 512
VARIANTS = 4  # tiles per preset; colour jitter at render time adds the rest of the variety


def periodic_noise(rng: np.random.Generator, size: int, scale_x: float, scale_y: float | None = None) -> Float:
    """Seamless smooth noise in [0, 1] with feature sizes ``scale_x`` x ``scale_y`` pixels.

    >>> n = periodic_noise(np.random.default_rng(0), 64, 8.0)
    >>> n.shape, float(n.min()) >= 0.0, float(n.max()) <= 1.0
    ((64, 64), True, True)
    """
    scale_y = scale_x if scale_y is None else scale_y
    white = rng.standard_normal((size, size))
    fy = np.fft.fftfreq(size)[:, None]
    fx = np.fft.fftfreq(size)[None, :]
    gain = np.exp(-((fx * scale_x) ** 2 + (fy * scale_y) ** 2) * 2.0)
    field = np.real(np.fft.ifft2(np.fft.fft2(white) * gain))
    field -= field.min()
    field /= max(float(field.max()), 1e-9)
    return field.astype(np.float32)


def _lerp_colours(t: Float, dark: Bgr, light: Bgr) -> Image:
    d = np.asarray(dark, np.float32)
    lt = np.asarray(light, np.float32)
    out = d + (lt - d) * t[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def _jitter(rng: np.random.Generator, colour: Bgr, amount: float) -> Bgr:
    c = np.asarray(colour, np.float64) * rng.uniform(1 - amount, 1 + amount) + rng.normal(0, amount * 40, 3)
    return (float(c[0]), float(c[1]), float(c[2]))


# --- families -------------------------------------------------------------------------------------------------


def _wood(rng: np.random.Generator, dark: Bgr, light: Bgr) -> Image:
    s = TILE_PX
    y = np.arange(s, dtype=np.float32)[:, None] * np.ones((1, s), np.float32)
    warp = periodic_noise(rng, s, 160.0, 40.0) * rng.uniform(25, 60) + periodic_noise(rng, s, 30.0, 8.0) * 6
    period = s / rng.integers(16, 40)
    rings = 0.5 + 0.5 * np.cos(2 * np.pi * (y + warp) / period)
    rings = rings ** rng.uniform(2.0, 5.0)  # thin dark late-wood lines on lighter early wood
    fibre = periodic_noise(rng, s, 60.0, 1.2)
    t = 0.3 * rings + 0.45 * fibre + 0.25 * periodic_noise(rng, s, 90.0, 20.0)
    image = _lerp_colours(1.0 - t, dark, light).astype(np.float32)
    boards = int(rng.integers(2, 5))
    edges = np.linspace(0, s, boards + 1)[:-1].astype(int)
    for top, bottom in zip(edges, [*edges[1:], s], strict=True):
        # each board its own cut of the log: shift its grain along the board (the tile stays seamless)
        image[top:bottom] = np.roll(image[top:bottom], int(rng.integers(s)), axis=1) * rng.uniform(0.85, 1.12)
        image[top : top + 2] *= 0.55  # the seam between two boards
    return np.clip(image, 0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator, colour: Bgr) -> Image:
    t = 0.6 * periodic_noise(rng, TILE_PX, 1.2) + 0.4 * periodic_noise(rng, TILE_PX, 60.0)
    base = np.asarray(colour, np.float32)
    return np.clip(base * (0.8 + 0.4 * t[..., None]), 0, 255).astype(np.uint8)


def _weave(rng: np.random.Generator, period: int) -> Float:
    s = TILE_PX
    idx = np.arange(s, dtype=np.float32)
    warp = 0.5 + 0.5 * np.cos(2 * np.pi * idx / period)
    over = ((np.arange(s)[:, None] // period + np.arange(s)[None, :] // period) % 2).astype(np.float32)
    threads = over * warp[None, :] + (1 - over) * warp[:, None]
    return (0.75 * threads + 0.25 * periodic_noise(rng, s, 2.0)).astype(np.float32)


def _cloth(rng: np.random.Generator, colour: Bgr) -> Image:
    t = _weave(rng, int(rng.integers(3, 6))) * 0.7 + 0.3 * periodic_noise(rng, TILE_PX, 50.0)
    base = np.asarray(colour, np.float32)
    return np.clip(base * (0.7 + 0.45 * t[..., None]), 0, 255).astype(np.uint8)


def _check(rng: np.random.Generator, background: Bgr, stripe: Bgr) -> Image:
    s = TILE_PX
    squares = int(rng.choice([8, 10, 16]))
    band = (np.arange(s) // (s // squares)) % 2
    stripes_x = band[None, :].astype(np.float32)
    stripes_y = band[:, None].astype(np.float32)
    amount = np.clip(0.5 * stripes_x + 0.5 * stripes_y, 0, 1)
    image = _lerp_colours(amount, background, stripe).astype(np.float32)
    weave = _weave(rng, 4)
    return np.clip(image * (0.8 + 0.3 * weave[..., None]), 0, 255).astype(np.uint8)


def _laminate(rng: np.random.Generator, colour: Bgr, grain: float) -> Image:
    s = TILE_PX
    t = (
        grain * periodic_noise(rng, s, 60.0, 2.0)
        + 0.08 * periodic_noise(rng, s, 1.0)
        + 0.1 * periodic_noise(rng, s, 90)
    )
    base = np.asarray(colour, np.float32)
    return np.clip(base * (0.85 + 0.3 * t[..., None]), 0, 255).astype(np.uint8)


def _stripes(rng: np.random.Generator, a: Bgr, b: Bgr) -> Image:
    s = TILE_PX
    count = int(rng.choice([4, 8, 16]))
    x = np.arange(s, dtype=np.float32)
    stripe = (0.5 + 0.5 * np.sign(np.sin(2 * np.pi * x * count / s)))[None, :] * np.ones((s, 1), np.float32)
    image = _lerp_colours(stripe.astype(np.float32), a, b).astype(np.float32)
    return np.clip(image * (0.85 + 0.25 * _weave(rng, 4)[..., None]), 0, 255).astype(np.uint8)


def _dots(rng: np.random.Generator, a: Bgr, b: Bgr) -> Image:
    s = TILE_PX
    count = int(rng.choice([8, 16]))
    cell = s // count
    yy, xx = np.mgrid[0:s, 0:s]
    dy = (yy % cell) - cell / 2
    dx = ((xx + (yy // cell) % 2 * cell // 2) % cell) - cell / 2
    dot = (np.hypot(dx, dy) < cell * rng.uniform(0.18, 0.32)).astype(np.float32)
    dot = cv2.GaussianBlur(dot, (0, 0), 0.8)
    return _lerp_colours(dot, a, b)


def _marble(rng: np.random.Generator, a: Bgr, b: Bgr) -> Image:
    s = TILE_PX
    x = np.arange(s, dtype=np.float32)[None, :]
    turbulence = periodic_noise(rng, s, 50.0) * 6 + periodic_noise(rng, s, 12.0) * 2
    veins = np.abs(np.sin(2 * np.pi * x / s * 3 + turbulence)) ** 0.3
    return _lerp_colours(veins.astype(np.float32), b, a)


@lru_cache(maxsize=4)
def _photo(name: str) -> Float:
    import skimage.data

    grey = np.asarray(getattr(skimage.data, name)(), np.float32)
    # Four mirrored copies tile without a seam (mirror symmetry), then shrink back to one tile.
    mirrored = np.block([[grey, grey[:, ::-1]], [grey[::-1, :], grey[::-1, ::-1]]])
    seamless = np.asarray(cv2.resize(mirrored, (TILE_PX, TILE_PX), interpolation=cv2.INTER_AREA), np.float32)
    seamless -= seamless.min()
    return (seamless / max(float(seamless.max()), 1.0)).astype(np.float32)


def _photo_tinted(name: str, dark: Bgr, light: Bgr) -> Image:
    return _lerp_colours(_photo(name), dark, light)


# --- presets --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SurfacePreset:
    """A named kind of table top: a family of texture, its size on the table and its colours (BGR).

    ``jitter`` is how much a variant's main colour may stray; ``param`` is family-specific (the
    grain of a laminate, the photo of a photo texture).
    """

    name: str
    family: str
    tile_mm: float
    colours: tuple[Bgr, ...]
    jitter: float = 0.1
    param: str | float = 0.0

    def draw(self, rng: np.random.Generator) -> Image:
        """One seamless BGR tile covering ``tile_mm`` millimetres."""
        first = _jitter(rng, self.colours[0], self.jitter)
        rest = self.colours[1:]
        return _FAMILIES[self.family](rng, first, rest, self.param)


_Family = Callable[[np.random.Generator, Bgr, tuple[Bgr, ...], "str | float"], Image]

_FAMILIES: dict[str, _Family] = {
    "wood": lambda r, dark, rest, _: _wood(r, dark, rest[0]),
    "felt": lambda r, colour, _rest, _p: _felt(r, colour),
    "cloth": lambda r, colour, _rest, _p: _cloth(r, colour),
    "check": lambda r, stripe, rest, _: _check(r, rest[0], stripe),
    "stripes": lambda r, a, rest, _: _stripes(r, a, _jitter(r, rest[0], 0.4)),
    "dots": lambda r, a, rest, _: _dots(r, a, rest[0]),
    "laminate": lambda r, colour, _rest, grain: _laminate(r, colour, float(grain)),
    "marble": lambda r, a, rest, _: _marble(r, a, rest[0]),
    "photo": lambda r, light, rest, name: _photo_tinted(str(name), rest[0], light),
}

# Colours are BGR. Families: wood, felt, cloth (weave), patterned (check, stripes, dots, marble), laminate, photo.
SURFACE_PRESETS: dict[str, SurfacePreset] = {
    p.name: p
    for p in (
        SurfacePreset("oak-wood", "wood", 700, ((40, 80, 120), (120, 175, 215))),
        SurfacePreset("walnut-wood", "wood", 700, ((20, 35, 55), (60, 90, 125))),
        SurfacePreset("pine-wood", "wood", 600, ((70, 140, 190), (150, 205, 235))),
        SurfacePreset("cherry-wood", "wood", 700, ((30, 45, 100), (80, 110, 175))),
        SurfacePreset("green-felt", "felt", 250, ((50, 110, 30),), 0.15),
        SurfacePreset("blue-felt", "felt", 250, ((120, 60, 20),), 0.15),
        SurfacePreset("burgundy-felt", "felt", 250, ((45, 30, 110),), 0.15),
        SurfacePreset("linen-cloth", "cloth", 150, ((170, 200, 215),)),
        SurfacePreset("grey-cloth", "cloth", 150, ((120, 120, 125),), 0.2),
        SurfacePreset("navy-cloth", "cloth", 150, ((90, 45, 30),), 0.15),
        SurfacePreset("red-check-cloth", "check", 300, ((50, 50, 200), (235, 235, 240))),
        SurfacePreset("blue-check-cloth", "check", 300, ((170, 90, 40), (235, 235, 235))),
        SurfacePreset("green-check-cloth", "check", 250, ((60, 140, 40), (230, 235, 235)), 0.15),
        SurfacePreset("yellow-check-cloth", "check", 350, ((40, 190, 220), (240, 240, 240)), 0.15),
        SurfacePreset("purple-check-cloth", "check", 200, ((130, 50, 110), (230, 230, 235)), 0.15),
        SurfacePreset("black-check-cloth", "check", 300, ((45, 40, 40), (225, 230, 230)), 0.15),
        SurfacePreset("orange-check-cloth", "check", 400, ((30, 120, 230), (235, 240, 240)), 0.15),
        SurfacePreset("striped-cloth", "stripes", 400, ((200, 200, 200), (90, 120, 60)), 0.2),
        SurfacePreset("dotted-cloth", "dots", 300, ((60, 40, 30), (220, 220, 220)), 0.3),
        SurfacePreset("white-laminate", "laminate", 500, ((225, 228, 230),), 0.05, 0.05),
        SurfacePreset("grey-laminate", "laminate", 500, ((140, 140, 140),), 0.1, 0.08),
        SurfacePreset("beige-laminate", "laminate", 500, ((160, 195, 210),), 0.08, 0.25),
        SurfacePreset("black-laminate", "laminate", 500, ((40, 40, 42),), 0.2, 0.05),
        SurfacePreset("marble", "marble", 500, ((225, 225, 225), (120, 120, 125)), 0.05),
        SurfacePreset("terrazzo-photo", "photo", 900, ((200, 215, 225), (90, 100, 110)), 0.1, "gravel"),
        SurfacePreset("gravel-photo", "photo", 300, ((200, 205, 210), (50, 55, 60)), 0.1, "gravel"),
        SurfacePreset("grass-photo", "photo", 400, ((110, 190, 160), (20, 45, 30)), 0.1, "grass"),
    )
}

# Presets that training never sees, so evaluation can measure generalisation to new tables.
HELDOUT_SURFACES: tuple[str, ...] = (
    "cherry-wood",
    "burgundy-felt",
    "navy-cloth",
    "blue-check-cloth",
    "marble",
    "grass-photo",
)
TRAIN_SURFACES: tuple[str, ...] = tuple(n for n in SURFACE_PRESETS if n not in HELDOUT_SURFACES)
BUSY_CLOTHS: tuple[str, ...] = (
    "green-check-cloth",
    "yellow-check-cloth",
    "purple-check-cloth",
    "black-check-cloth",
    "orange-check-cloth",
)
"""Check cloths in the colours of the cards, for the detector to learn a card from the squares round it: on a
blue check cloth (held out) the shipped detector read cards at 0.05-0.3 and never boxed a blue 1 (seeds 102000
and 102003, four players: 28 and 53 of 47 and 72 plays). Added to the still scenes' training pool after the
round videos' (:data:`VIDEO_SURFACES`)."""
VIDEO_SURFACES: tuple[str, ...] = tuple(n for n in TRAIN_SURFACES if n not in BUSY_CLOTHS)
"""The surfaces the round videos are filmed on: as they were before the busy cloths came, so that a seed films
the table it always did (the figures measured at a seed stay reproducible)."""


@dataclass(frozen=True, eq=False)
class SurfaceTile:
    """A drawn tile with its mip levels (each half the size of the previous) and its size on the table."""

    name: str
    image: Image
    tile_mm: float
    levels: tuple[Image, ...]

    def level_for(self, px_per_mm: float) -> tuple[Image, float]:
        """The coarsest level still at least as sharp as the canvas (no aliasing when zoomed out)."""
        chosen = self.levels[0]
        for level in self.levels:
            if level.shape[1] / self.tile_mm >= px_per_mm:
                chosen = level
        return chosen, chosen.shape[1] / self.tile_mm


@lru_cache(maxsize=72)
def surface_tile(name: str, variant: int) -> SurfaceTile:
    """The ``variant``-th tile of a preset (deterministic; cached per process)."""
    preset = SURFACE_PRESETS[name]
    image = preset.draw(np.random.default_rng([hash_name(name), variant]))
    levels = [image]
    while levels[-1].shape[0] > 32:
        levels.append(np.asarray(cv2.pyrDown(levels[-1]), np.uint8))
    return SurfaceTile(name, image, preset.tile_mm, tuple(levels))


def hash_name(name: str) -> int:
    """A stable (process-independent) integer for a name, for seeding.

    >>> hash_name("oak-wood") == hash_name("oak-wood")
    True
    """
    value = 2166136261
    for byte in name.encode():
        value = ((value ^ byte) * 16777619) & 0xFFFFFFFF
    return value


def draw_table(
    canvas_size: tuple[int, int],
    homography: npt.NDArray[np.float64],
    tile: SurfaceTile,
    px_per_mm: float,
    gains: Bgr,
    rotation_deg: float,
) -> Float:
    """The surface as the camera sees it (float BGR): the tile repeated over the table plane, scaled by ``gains``."""
    level, level_px_per_mm = tile.level_for(px_per_mm)
    a = np.deg2rad(rotation_deg)
    s = 1.0 / level_px_per_mm
    # tile pixels -> table millimetres (a rotation, so the wood grain is not always along x)
    tile_to_mm = np.array(
        [[s * np.cos(a), -s * np.sin(a), 0], [s * np.sin(a), s * np.cos(a), 0], [0, 0, 1]], dtype=np.float64
    )
    matrix = homography @ tile_to_mm
    surface = cv2.warpPerspective(level, matrix, canvas_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    return surface.astype(np.float32) * np.asarray(gains, np.float32)


FLOOR_DEPTH_MM = 720.0  # a table top stands about this high above the floor


def table_mask(
    canvas_size: tuple[int, int], homography: npt.NDArray[np.float64], half_mm: tuple[float, float], round_top: bool
) -> Float:
    """Per-pixel coverage (0..1) of a table top of half-size ``half_mm`` centred at the origin.

    Computed on a half-resolution grid (a table edge is a smooth curve) and scaled up, which also
    antialiases it. Rays that never meet the table plane (above the horizon) are off the table.
    """
    w, h = canvas_size
    gw, gh = max(2, w // 2), max(2, h // 2)
    u, v = np.meshgrid(np.linspace(0, w, gw), np.linspace(0, h, gh))
    inverse = np.linalg.inv(homography)
    px = inverse[0, 0] * u + inverse[0, 1] * v + inverse[0, 2]
    py = inverse[1, 0] * u + inverse[1, 1] * v + inverse[1, 2]
    pw = inverse[2, 0] * u + inverse[2, 1] * v + inverse[2, 2]
    in_front = pw > 1e-9
    x = np.where(in_front, px / np.where(in_front, pw, 1.0), np.inf) / half_mm[0]
    y = np.where(in_front, py / np.where(in_front, pw, 1.0), np.inf) / half_mm[1]
    inside = (x * x + y * y <= 1.0) if round_top else ((np.abs(x) <= 1.0) & (np.abs(y) <= 1.0))
    return np.asarray(cv2.resize(inside.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def add_floor(
    canvas: Float,
    floor_homography: npt.NDArray[np.float64],
    floor: SurfaceTile,
    px_per_mm: float,
    table: Float,
    gain: float = 0.6,
) -> Float:
    """Replaces what lies off the table by the floor far below it: smaller, out of focus, in the table's shadow."""
    if float(table.min()) >= 1.0:
        return canvas
    h, w = table.shape
    below = draw_table((w, h), floor_homography, floor, px_per_mm, (gain, gain, gain), 0.0)
    below = np.asarray(cv2.GaussianBlur(below, (0, 0), 2.5), np.float32)
    return np.asarray(below + (canvas - below) * table[..., None], np.float32)

"""Painting primitives shared by faces and backs: the card outline, pasting sprites, glossy spheres, wear.

Everything works on float32 BGR canvases (0..255) and caches what depends only on sizes, so that a warm
render is a handful of small numpy operations.

>>> alpha = card_alpha(91, 59, 5.0)
>>> alpha.shape, int(alpha[45, 29]), int(alpha[0, 0])
((91, 59), 255, 0)
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

FloatImage = npt.NDArray[np.float32]
ByteImage = npt.NDArray[np.uint8]
BGR = tuple[int, int, int]

# Card stock seen where the print is rubbed off the edges: a warm off-white.
STOCK_BGR: BGR = (226, 234, 238)


@lru_cache(maxsize=512)
def card_distance(height: int, width: int, radius: float) -> FloatImage:
    """Signed distance (px) of every pixel centre to the rounded-rectangle outline, positive inside."""
    radius = float(min(max(radius, 0.0), min(height, width) / 2))
    ys = np.arange(height, dtype=np.float32) + 0.5
    xs = np.arange(width, dtype=np.float32) + 0.5
    qy = np.abs(ys - height / 2)[:, None] - (height / 2 - radius)
    qx = np.abs(xs - width / 2)[None, :] - (width / 2 - radius)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    inside = np.minimum(np.maximum(qx, qy), 0)
    distance = -(outside + inside - radius)
    distance = distance.astype(np.float32)
    distance.setflags(write=False)
    return distance


@lru_cache(maxsize=512)
def card_alpha(height: int, width: int, radius: float) -> ByteImage:
    """Anti-aliased coverage (0..255) of the rounded card."""
    alpha = np.clip(card_distance(height, width, radius) + 0.5, 0, 1) * 255
    result = np.round(alpha).astype(np.uint8)
    result.setflags(write=False)
    return result


def paste(canvas: FloatImage, alpha: FloatImage, colour: FloatImage | BGR, x: int, y: int) -> None:
    """Blends ``colour`` (one BGR or an image the size of ``alpha``) into ``canvas`` at top-left (x, y)."""
    h, w = alpha.shape
    height, width = canvas.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
    if x0 >= x1 or y0 >= y1:
        return
    a = alpha[y0 - y : y1 - y, x0 - x : x1 - x, None]
    region = canvas[y0:y1, x0:x1]
    if isinstance(colour, tuple):
        paint: FloatImage | npt.NDArray[np.float32] = np.asarray(colour, dtype=np.float32)
    else:
        paint = colour[y0 - y : y1 - y, x0 - x : x1 - x]
    region += (paint - region) * a


def add_grain(canvas: FloatImage, amount: float, seed: int) -> None:
    """Print and paper grain: a fixed (seeded) mottle of +-``amount`` in brightness, finer than the print."""
    if amount <= 0:
        return
    height, width = canvas.shape[:2]
    rng = np.random.default_rng(seed)
    fine = rng.standard_normal((height, width), dtype=np.float32)
    coarse = cv2.resize(
        rng.standard_normal((max(2, height // 8), max(2, width // 8)), dtype=np.float32), (width, height)
    )
    canvas *= (1.0 + amount * (0.6 * fine + 0.5 * coarse))[:, :, None]


def paste_mask(canvas: FloatImage, alpha: FloatImage, colour: BGR) -> None:
    """Like :func:`paste` for a mask the size of the canvas, touching only its non-zero bounding box."""
    x, y, w, h = cv2.boundingRect((alpha > 0).astype(np.uint8))
    if w and h:
        paste(canvas, alpha[y : y + h, x : x + w], colour, x, y)


@lru_cache(maxsize=2048)
def sphere_layers(radius_quarters: int, highlight: float) -> tuple[FloatImage, FloatImage, FloatImage]:
    """A glossy sphere lit from the upper left: (coverage, diffuse shade, white highlight), each 0..1.

    ``radius_quarters`` is the radius in quarter pixels (a cache key that still allows sub-pixel sizes).
    """
    radius = max(radius_quarters / 4.0, 1.0)
    size = math.ceil(2 * radius + 2)
    centre = size / 2
    coords = (np.arange(size, dtype=np.float32) + 0.5 - centre) / radius
    x, y = coords[None, :], coords[:, None]
    d2 = x * x + y * y
    coverage = np.clip((1.0 - np.sqrt(d2)) * radius + 0.5, 0, 1).astype(np.float32)
    z = np.sqrt(np.clip(1.0 - d2, 0, 1))
    light = np.array([-0.45, -0.55, 0.70], dtype=np.float32)
    light /= np.linalg.norm(light)
    lambert = np.clip(x * light[0] + y * light[1] + z * light[2], 0, 1)
    shade = (0.45 + 0.62 * lambert).astype(np.float32)
    spot = np.exp(-((x + 0.36) ** 2 + (y + 0.40) ** 2) / (2 * 0.16**2))
    sheen = np.exp(-((x + 0.2) ** 2 + (y + 0.25) ** 2) / (2 * 0.45**2)) * 0.18
    spec = np.clip((spot + sheen) * highlight, 0, 1).astype(np.float32) * (d2 < 1)
    for layer in (coverage, shade, spec):
        layer.setflags(write=False)
    return coverage, shade, spec.astype(np.float32)


def paint_sphere(canvas: FloatImage, cx: float, cy: float, radius: float, colour: BGR, highlight: float) -> None:
    """A shaded ball of ``colour`` centred at (cx, cy) px."""
    coverage, shade, spec = sphere_layers(max(4, round(radius * 4)), round(highlight, 2))
    base = np.asarray(colour, dtype=np.float32) * shade[:, :, None]
    lit = base + (255.0 - base) * spec[:, :, None]
    size = coverage.shape[0]
    paste(canvas, coverage, np.minimum(lit, 255.0), round(cx - size / 2), round(cy - size / 2))


@lru_cache(maxsize=256)
def gradient_axis(height: int, width: int, angle_deg: int) -> npt.NDArray[np.uint8]:
    """Projection of each pixel on the direction ``angle_deg``, quantised to 0..255 across the card."""
    t = math.radians(angle_deg)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    proj = xs * math.cos(t) + ys * math.sin(t)
    proj -= proj.min()
    proj *= 255.0 / max(float(proj.max()), 1.0)
    levels = np.round(proj).astype(np.uint8)
    levels.setflags(write=False)
    return levels


_LEVELS = np.linspace(0.0, 1.0, 256, dtype=np.float32)


def sheen_map(shape: tuple[int, int], strength: float, angle_deg: float, rng: np.random.Generator) -> FloatImage | None:
    """A soft sheen band (the glossy coating, 0..1) at a random place along ``angle_deg``; None if too faint.

    Computed as a 256-entry profile looked up by a cached, quantised coordinate: one ``take`` per card.
    """
    centre = rng.uniform(-0.2, 1.2)
    band = rng.uniform(0.15, 0.35)
    if strength < 0.004:
        return None
    profile = (strength * np.exp(-(((_LEVELS - centre) / band) ** 2))).astype(np.float32)
    return np.take(profile, gradient_axis(shape[0], shape[1], round(angle_deg) % 360))


def shade_print(sheet: ByteImage, ink: npt.NDArray[np.float32], sheen: FloatImage | None) -> FloatImage:
    """The print seen through the coating: ink density per channel, then the sheen towards white."""
    canvas: FloatImage = sheet * ink
    if sheen is not None:
        np.multiply(canvas, (1.0 - sheen)[:, :, None], out=canvas)
        canvas += (255.0 * sheen)[:, :, None]
    return canvas


@lru_cache(maxsize=512)
def _rim(height: int, width: int, radius: float, rim: float) -> tuple[npt.NDArray[np.intp], FloatImage, tuple]:
    """Pixels near the edge (flat indices), their closeness to the edge (0..1), and bilinear taps into
    a 5 x 4 grid of random roughness values, so that wear touches only the rim of the card."""
    distance = card_distance(height, width, radius)
    closeness = np.exp(-np.maximum(distance, 0) / rim).astype(np.float32)
    index = np.flatnonzero((closeness > 0.02) & (distance > -1.0))
    ys, xs = np.divmod(index, width)
    gy = ys * (4 / max(height - 1, 1))
    gx = xs * (3 / max(width - 1, 1))
    y0, x0 = np.minimum(gy.astype(np.intp), 3), np.minimum(gx.astype(np.intp), 2)
    fy, fx = (gy - y0).astype(np.float32), (gx - x0).astype(np.float32)
    taps = (
        (y0 * 4 + x0, (1 - fy) * (1 - fx)),
        (y0 * 4 + x0 + 1, (1 - fy) * fx),
        ((y0 + 1) * 4 + x0, fy * (1 - fx)),
        ((y0 + 1) * 4 + x0 + 1, fy * fx),
    )
    return index, closeness.ravel()[index], taps


def add_wear(canvas: FloatImage, radius: float, wear: float, rng: np.random.Generator) -> None:
    """Edge whitening where the print is rubbed off, and a few light scratches; ``wear`` 0 (new) .. 1."""
    height, width = canvas.shape[:2]
    blotches = rng.random(20, dtype=np.float32)
    scratches = rng.poisson(3.0 * wear)
    ends = rng.random((max(scratches, 0), 4), dtype=np.float32)
    if wear <= 0.0:
        return
    rim = round(max(1.0, 0.012 * height) * (0.5 + 1.5 * wear), 1)
    index, closeness, taps = _rim(height, width, radius, rim)
    rough = sum(blotches[cells] * weights for cells, weights in taps)
    amount = closeness * np.clip(0.35 + rough, 0, 1) * min(1.0, 0.25 + wear)
    flat = canvas.reshape(-1, 3)
    flat[index] += (np.asarray(STOCK_BGR, np.float32) - flat[index]) * amount[:, None]
    if scratches:
        mask = np.zeros((height, width), np.float32)
        for x0, y0, dx, dy in ends:
            start = (int(x0 * width), int(y0 * height))
            end = (int(start[0] + (dx - 0.5) * width * 0.6), int(start[1] + (dy - 0.5) * height * 0.4))
            cv2.line(mask, start, end, 0.25 + 0.35 * wear, 1, cv2.LINE_AA)
        canvas += (255.0 - canvas) * mask[:, :, None]


def per_card_finish(
    sheet: ByteImage,
    margin: int,
    size: tuple[int, int],
    look: tuple[float, float, float, float, float],
    rng: np.random.Generator,
) -> ByteImage:
    """What differs card by card on one print: offset, ink, sheen, wear; then the rounded cut.

    ``look`` is (ink jitter, gloss strength, gloss angle, wear, corner radius in px).
    """
    height, width = size
    ink_jitter, gloss, gloss_angle, wear, radius = look
    dx, dy = (int(v) for v in rng.integers(-margin + 1, margin, size=2))
    ink = (1.0 + rng.normal(0.0, ink_jitter, size=3)).astype(np.float32)
    sheen = sheen_map(size, gloss, gloss_angle, rng)
    crop = sheet[margin + dy : margin + dy + height, margin + dx : margin + dx + width]
    canvas = shade_print(crop, ink, sheen)
    add_wear(canvas, radius, wear, rng)
    return finish(canvas, card_alpha(height, width, radius))


def finish(canvas: FloatImage, alpha: ByteImage) -> ByteImage:
    """BGRA uint8 from a float canvas (saturated to 0..255) and the card's coverage."""
    out = cv2.cvtColor(cv2.convertScaleAbs(canvas), cv2.COLOR_BGR2BGRA)
    out[:, :, 3] = alpha
    return np.asarray(out, np.uint8)

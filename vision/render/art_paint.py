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
def _gradient_axis(height: int, width: int, angle_deg: int) -> FloatImage:
    """Projection of each pixel on the direction ``angle_deg``, normalised to 0..1 across the card."""
    t = math.radians(angle_deg)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    proj = xs * math.cos(t) + ys * math.sin(t)
    proj -= proj.min()
    proj /= max(float(proj.max()), 1.0)
    proj.setflags(write=False)
    return proj


def add_gloss(canvas: FloatImage, strength: float, angle_deg: float, rng: np.random.Generator) -> None:
    """A soft diagonal sheen band (the glossy coating), at a random place along ``angle_deg``."""
    centre = rng.uniform(-0.2, 1.2)
    band = rng.uniform(0.15, 0.35)
    if strength <= 0.0:
        return
    axis = _gradient_axis(*canvas.shape[:2], round(angle_deg) % 360)
    sheen = strength * np.exp(-(((axis - centre) / band) ** 2))
    canvas += (255.0 - canvas) * sheen[:, :, None]


def add_wear(canvas: FloatImage, distance: FloatImage, wear: float, rng: np.random.Generator) -> None:
    """Edge whitening where the print is rubbed off, and a few light scratches; ``wear`` 0 (new) .. 1."""
    height, width = distance.shape
    blotches = rng.random((5, 4), dtype=np.float32)
    scratches = rng.poisson(3.0 * wear)
    ends = rng.random((max(scratches, 0), 4), dtype=np.float32)
    if wear <= 0.0:
        return
    rough = cv2.resize(blotches, (width, height), interpolation=cv2.INTER_CUBIC)
    rim = max(1.0, 0.012 * height) * (0.5 + 1.5 * wear)
    amount = np.exp(-np.maximum(distance, 0) / rim) * np.clip(0.35 + rough, 0, 1) * min(1.0, 0.25 + wear)
    canvas += (np.asarray(STOCK_BGR, np.float32) - canvas) * amount[:, :, None].astype(np.float32)
    if scratches:
        mask = np.zeros((height, width), np.float32)
        for x0, y0, dx, dy in ends:
            start = (int(x0 * width), int(y0 * height))
            end = (int(start[0] + (dx - 0.5) * width * 0.6), int(start[1] + (dy - 0.5) * height * 0.4))
            cv2.line(mask, start, end, 0.25 + 0.35 * wear, 1, cv2.LINE_AA)
        canvas += (255.0 - canvas) * mask[:, :, None]


def finish(canvas: FloatImage, alpha: ByteImage) -> ByteImage:
    """BGRA uint8 from a float canvas and the card's coverage."""
    height, width = alpha.shape
    out = np.empty((height, width, 4), np.uint8)
    np.clip(canvas, 0, 255, out=canvas)
    out[:, :, :3] = canvas
    out[:, :, 3] = alpha
    return out

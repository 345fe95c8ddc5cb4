"""Small symbols repeated on card backs (lightning, balls, stars, waves, pyramids, cubes, crystals...).

Each motif is drawn once per (symbol, size, angle) as layers: coverage (0..1), shade (a multiplier on the
motif colour, giving 3-D solids their lit and dark faces) and a white highlight (glossy balls).

>>> coverage, shade, highlight = motif_layers("lightning", 24, 0)
>>> coverage.shape, 0.1 < float(coverage.mean()) < 0.6
((24, 24), True)
>>> sorted(SYMBOLS)[:3]
['balls', 'crystals', 'cubes']
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import cv2
import numpy as np

from vision.render.art_paint import FloatImage, sphere_layers

_SUPER = 4  # supersampling factor: polygons are drawn 4x larger, then area-averaged (anti-aliasing)
Shape = list[tuple[list[tuple[float, float]], float]]  # polygons in [-1, 1]^2 with their shade


def _lightning() -> Shape:
    bolt = [(0.2, -1.0), (-0.7, 0.15), (-0.08, 0.15), (-0.35, 1.0), (0.72, -0.25), (0.1, -0.25), (0.55, -1.0)]
    return [(bolt, 1.0)]


def _star() -> Shape:
    points = []
    for i in range(10):
        radius = 1.0 if i % 2 == 0 else 0.42
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((radius * math.cos(angle), radius * math.sin(angle) + 0.08))
    return [(points, 1.0)]


def _pyramid() -> Shape:
    apex, left, right, front = (0.0, -0.9), (-1.0, 0.75), (1.0, 0.75), (0.25, 0.95)
    return [([apex, left, front], 1.0), ([apex, front, right], 0.62)]


def _cube() -> Shape:
    top, mid, bottom = -0.95, -0.45, 0.95
    c = (0.0, 0.05)
    w = 0.87
    top_face = [(0.0, top), (w, mid), (0.0, c[1]), (-w, mid)]
    left_face = [(-w, mid), (0.0, c[1]), (0.0, bottom), (-w, 0.45)]
    right_face = [(w, mid), (w, 0.45), (0.0, bottom), (0.0, c[1])]
    return [(top_face, 1.0), (left_face, 0.75), (right_face, 0.55)]


def _crystal() -> Shape:
    outline = [(0.0, -1.0), (0.5, -0.45), (0.5, 0.45), (0.0, 1.0), (-0.5, 0.45), (-0.5, -0.45)]
    facet_left = [(0.0, -1.0), (0.0, 1.0), (-0.5, 0.45), (-0.5, -0.45)]
    facet_top = [(0.0, -1.0), (0.5, -0.45), (0.0, -0.2), (-0.5, -0.45)]
    return [(outline, 0.7), (facet_left, 1.0), (facet_top, 0.85)]


def _heart() -> Shape:
    points = []
    for i in range(40):
        t = 2 * math.pi * i / 40
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x / 17.0, -y / 17.0 + 0.1))
    return [(points, 1.0)]


def _diamond() -> Shape:
    return [([(0.0, -1.0), (0.7, 0.0), (0.0, 1.0), (-0.7, 0.0)], 1.0), ([(0.0, -1.0), (0.7, 0.0), (0.0, 0.0)], 0.8)]


_POLYGON_SYMBOLS: dict[str, Callable[[], Shape]] = {
    "lightning": _lightning,
    "stars": _star,
    "pyramids": _pyramid,
    "cubes": _cube,
    "crystals": _crystal,
    "hearts": _heart,
    "diamonds": _diamond,
}
_STROKE_SYMBOLS = ("waves", "spirals", "rings")
SYMBOLS: tuple[str, ...] = ("lightning", "balls", *(s for s in _POLYGON_SYMBOLS if s != "lightning"), *_STROKE_SYMBOLS)


def _to_pixels(points: list[tuple[float, float]], big: int, angle_deg: int) -> np.ndarray:
    t = math.radians(angle_deg)
    cos, sin = math.cos(t), math.sin(t)
    half = big / 2
    scale = half * 0.92
    rotated = [(x * cos - y * sin, x * sin + y * cos) for x, y in points]
    return np.array([[round((half + x * scale) * 16), round((half + y * scale) * 16)] for x, y in rotated], np.int32)


def _stroke_points(symbol: str) -> list[tuple[float, float]]:
    if symbol == "waves":
        return [(-1.0 + 2.0 * i / 40, 0.45 * math.sin(i / 40 * 2 * math.pi * 1.5)) for i in range(41)]
    if symbol == "spirals":
        return [
            (0.95 * (i / 60) * math.cos(i / 60 * 5 * math.pi), 0.95 * (i / 60) * math.sin(i / 60 * 5 * math.pi))
            for i in range(61)
        ]
    return [(0.75 * math.cos(i / 48 * 2 * math.pi), 0.75 * math.sin(i / 48 * 2 * math.pi)) for i in range(49)]


@lru_cache(maxsize=4096)
def motif_layers(symbol: str, size: int, angle_deg: int) -> tuple[FloatImage, FloatImage, FloatImage]:
    """(coverage, shade, highlight) of one motif ``size`` px square, turned by ``angle_deg``."""
    size = max(size, 3)
    if symbol == "balls":
        coverage, shade, spec = sphere_layers(round(size * 0.42 * 4), 0.9)
        return coverage, shade, spec
    big = size * _SUPER
    cover = np.zeros((big, big), np.float32)
    shade = np.zeros((big, big), np.float32)
    if symbol in _POLYGON_SYMBOLS:
        for polygon, level in _POLYGON_SYMBOLS[symbol]():
            pts = _to_pixels(polygon, big, angle_deg)
            cv2.fillPoly(cover, [pts], 1.0, cv2.LINE_8, shift=4)
            cv2.fillPoly(shade, [pts], level, cv2.LINE_8, shift=4)
    else:
        pts = _to_pixels(_stroke_points(symbol), big, angle_deg)
        thickness = max(1, round(big * 0.14))
        cv2.polylines(cover, [pts], False, 1.0, thickness, cv2.LINE_8, shift=4)
        shade[:] = 1.0
    coverage = np.asarray(cv2.resize(cover, (size, size), interpolation=cv2.INTER_AREA), np.float32)
    weighted = np.asarray(cv2.resize(cover * shade, (size, size), interpolation=cv2.INTER_AREA), np.float32)
    tone = np.where(coverage > 1e-3, weighted / np.maximum(coverage, 1e-3), 1.0).astype(np.float32)
    highlight = np.zeros_like(coverage)
    layers = (coverage, tone, highlight)
    for layer in layers:
        layer.setflags(write=False)
    return layers

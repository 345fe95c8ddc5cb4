"""Flat things that lie on the table under the cards: score sheets, pens, coins (distractors for the detector).

A score sheet is a white rectangle with ruled lines and scribbles: exactly what a card detector must learn
not to call a back. Props are drawn after the table and before the cards, and are not labelled.

>>> from vision.render.camera import Camera
>>> cam = Camera.looking_at((0, 0), 600, 0, 600, (320, 320))
>>> sheet = random_prop(np.random.default_rng(1), (0.0, 0.0))
>>> layer = sheet.layer(cam)
>>> layer.bgr.shape[:2] == layer.alpha.shape
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera
from vision.render.layers import Layer

Bgr = tuple[float, float, float]
Float = npt.NDArray[np.float32]

_MAX_SIDE = 512  # props are drawn at most this large and warped onto the canvas


def _turn(points: npt.NDArray[np.float64], centre: tuple[float, float], angle_deg: float) -> npt.NDArray[np.float64]:
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(points @ rot.T + np.asarray(centre), dtype=np.float64)


def _warp_flat(picture: Float, alpha: Float, corners_mm: npt.NDArray[np.float64], camera: Camera) -> Layer:
    """A flat picture whose corners lie at ``corners_mm`` on the table, warped into the camera's canvas."""
    dst = camera.project_undistorted(np.column_stack([corners_mm, np.full(4, -0.2)]))
    w, h = camera.size
    x0, y0 = np.floor(dst.min(axis=0)).astype(int)
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x0 >= x1 or y0 >= y1:
        return Layer(0, 0, np.zeros((1, 1, 3), np.float32), np.zeros((1, 1), np.float32))
    ph, pw = alpha.shape
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    bgr = np.asarray(cv2.warpPerspective(picture, matrix, size, flags=cv2.INTER_LINEAR), np.float32)
    a = np.asarray(cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR), np.float32)
    return Layer(x0, y0, bgr, a)


@dataclass(frozen=True)
class ScoreSheet:
    """A sheet of paper with ruled lines and handwriting-like scribbles."""

    centre_mm: tuple[float, float]
    angle_deg: float
    size_mm: tuple[float, float]
    paper: Bgr
    ink: Bgr
    seed: int

    def picture(self) -> tuple[Float, Float]:
        rng = np.random.default_rng(self.seed)
        w_mm, h_mm = self.size_mm
        scale = min(_MAX_SIDE / w_mm, _MAX_SIDE / h_mm, 2.5)
        w, h = max(8, round(w_mm * scale)), max(8, round(h_mm * scale))
        image = np.empty((h, w, 3), np.float32)
        image[:] = self.paper
        spacing = max(4, round(8 * scale))
        for y in range(spacing * 2, h - spacing, spacing):
            cv2.line(image, (0, y), (w, y), (200, 170, 150), 1, cv2.LINE_AA)
        for row in range(2, h // spacing - 1):
            if rng.random() < 0.35:
                continue
            x = int(rng.integers(spacing, max(spacing + 1, w // 3)))
            end = int(rng.integers(x + spacing, max(x + spacing + 1, w - spacing)))
            xs = np.arange(x, end, max(1, spacing // 3))
            ys = row * spacing - spacing * 0.3 + rng.normal(0, spacing * 0.18, len(xs))
            pts = np.column_stack([xs, ys]).astype(np.int32)
            cv2.polylines(image, [pts], False, self.ink, max(1, round(scale * 0.5)), cv2.LINE_AA)
        return image, np.ones((h, w), np.float32)

    def layer(self, camera: Camera) -> Layer:
        picture, alpha = self.picture()
        w, h = self.size_mm
        corners = _turn(np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2, self.centre_mm, self.angle_deg)
        return _warp_flat(picture, alpha, corners, camera)


@dataclass(frozen=True)
class Pen:
    """A pen or pencil: a long thin body with a lighter tip."""

    centre_mm: tuple[float, float]
    angle_deg: float
    length_mm: float
    body: Bgr

    def layer(self, camera: Camera) -> Layer:
        w, h = 64, 8
        picture = np.empty((h, w, 3), np.float32)
        picture[:] = self.body
        picture[:, -8:] = (190, 190, 195)
        shade = (0.6 + 0.4 * np.sin(np.linspace(0, np.pi, h)))[:, None, None].astype(np.float32)
        alpha = np.ones((h, w), np.float32)
        alpha[:, -3:] = np.linspace(1, 0.2, 3)[None, :]
        half = np.array([self.length_mm, 9.0]) / 2
        corners = _turn(np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half, self.centre_mm, self.angle_deg)
        return _warp_flat(picture * shade, alpha, corners, camera)


@dataclass(frozen=True)
class Coin:
    """A coin: a metallic disc with a rim and a highlight."""

    centre_mm: tuple[float, float]
    radius_mm: float
    metal: Bgr

    def layer(self, camera: Camera) -> Layer:
        n = 64
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        r = np.hypot(xx - n / 2 + 0.5, yy - n / 2 + 0.5) / (n / 2)
        alpha = np.clip((1.0 - r) * n / 2, 0, 1).astype(np.float32)
        light = 0.75 + 0.35 * np.clip(1 - np.hypot(xx - n * 0.35, yy - n * 0.35) / n, 0, 1) - 0.2 * (r > 0.85)
        picture = (np.asarray(self.metal, np.float32) * light[..., None]).astype(np.float32)
        rr = self.radius_mm
        corners = np.array([[-rr, -rr], [rr, -rr], [rr, rr], [-rr, rr]]) + np.asarray(self.centre_mm)
        return _warp_flat(picture, alpha, corners, camera)


Prop = ScoreSheet | Pen | Coin


def random_prop(rng: np.random.Generator, centre_mm: tuple[float, float]) -> Prop:
    kind = rng.choice(["sheet", "pen", "coin"], p=[0.5, 0.25, 0.25])
    angle = float(rng.uniform(0, 360))
    if kind == "sheet":
        size = (148.0, 210.0) if rng.random() < 0.6 else (105.0, 148.0)
        paper = (float(rng.uniform(225, 250)), float(rng.uniform(230, 252)), float(rng.uniform(235, 255)))
        ink = ((120.0, 40.0, 20.0), (30.0, 30.0, 30.0), (40.0, 40.0, 160.0))[int(rng.integers(3))]
        return ScoreSheet(centre_mm, angle, size, paper, ink, int(rng.integers(2**31)))
    if kind == "pen":
        body = (float(rng.uniform(10, 230)), float(rng.uniform(10, 230)), float(rng.uniform(10, 230)))
        return Pen(centre_mm, angle, float(rng.uniform(120, 150)), body)
    metal = ((60.0, 150.0, 190.0), (170.0, 170.0, 175.0), (70.0, 110.0, 160.0))[int(rng.integers(3))]
    return Coin(centre_mm, float(rng.uniform(8, 13)), metal)

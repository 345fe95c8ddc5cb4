"""Simple synthetic photos of rendered cards on a plain table: enrolment photos and test pictures.

>>> photo = table(120, 160)
>>> place(photo, np.full((91, 59, 4), 255, np.uint8), card_quad((80, 60), 40, 0))
>>> photo.shape, int(photo[60, 80].min())
((120, 160, 3), 255)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

CARD_ASPECT = 59 / 91


def table(
    height: int = 480, width: int = 640, bgr: tuple[int, int, int] = (60, 90, 40), seed: int = 0
) -> npt.NDArray[np.uint8]:
    """A plain, slightly noisy table surface."""
    noise = np.random.default_rng(seed).normal(0, 4, (height, width, 3))
    return np.clip(np.array(bgr, np.float32) + noise, 0, 255).astype(np.uint8)


def card_quad(
    centre: tuple[float, float], width: float, angle_deg: float, aspect: float = CARD_ASPECT
) -> npt.NDArray[np.float32]:
    """Corners (top-left first, clockwise) of a card ``width`` px wide, turned by ``angle_deg`` about ``centre``."""
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * [width / 2, width / aspect / 2]
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (half @ rot.T + np.asarray(centre, np.float32)).astype(np.float32)


def place(canvas: npt.NDArray[np.uint8], card_bgra: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> None:
    """Alpha-pastes a BGRA card onto ``canvas`` in place, its corners on ``quad``."""
    h, w = card_bgra.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    colour = cv2.warpPerspective(card_bgra[..., :3], matrix, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(card_bgra[..., 3], matrix, size).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - alpha) + colour * alpha).astype(np.uint8)

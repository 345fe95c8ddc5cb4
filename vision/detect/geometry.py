"""Oriented boxes and card quads: conversion, polygon IoU and rotated non-maximum suppression.

A detector predicts a rotated rectangle (centre, width, height, angle). A card is a portrait rectangle
(59 x 91 mm), so the long side is its height; which short side is the card's top is unknown to the
detector (a face is point-symmetric), so :func:`obb_to_quads` picks the ordering whose top edge faces up
in the image and leaves the final 180 degree decision to the recogniser.

>>> quads = obb_to_quads(np.array([[50.0, 50.0, 20.0, 40.0, 0.0]]))
>>> quads[0].tolist()
[[40.0, 30.0], [60.0, 30.0], [60.0, 70.0], [40.0, 70.0]]
>>> round(polygon_iou(quads[0], quads[0] + [10, 0]), 3)
0.333
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


def obb_to_quads(boxes: npt.ArrayLike) -> FloatArray:
    """(N, 5) ``cx, cy, w, h, angle`` (radians, clockwise in image coordinates) -> (N, 4, 2) portrait quads.

    Corners come top-left first, then clockwise, with the top edge being a short side facing up the image.
    """
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 5)
    centre, w, h, angle = b[:, :2], b[:, 2], b[:, 3], b[:, 4]
    # The long side is the card's height: its direction is the card's "up" axis (up to sign).
    landscape = w > h
    short = np.where(landscape, h, w)
    long = np.where(landscape, w, h)
    # With angle a, the box's width axis is (cos a, sin a) and its height axis (-sin a, cos a).
    up = np.where(
        landscape[:, None],
        np.stack([np.cos(angle), np.sin(angle)], axis=1),
        np.stack([-np.sin(angle), np.cos(angle)], axis=1),
    )
    # Point "up" towards the top of the image (negative y); on an exact tie, towards the left.
    flip = (up[:, 1] > 1e-9) | ((np.abs(up[:, 1]) <= 1e-9) & (up[:, 0] > 0))
    up = np.where(flip[:, None], -up, up)
    right = np.stack([-up[:, 1], up[:, 0]], axis=1)  # clockwise of up in image coordinates (y down)
    half_up = up * (long / 2)[:, None]
    half_right = right * (short / 2)[:, None]
    quads = np.stack(
        [
            centre + half_up - half_right,
            centre + half_up + half_right,
            centre - half_up + half_right,
            centre - half_up - half_right,
        ],
        axis=1,
    )
    return quads.astype(np.float32)


def polygon_area(quad: npt.ArrayLike) -> float:
    """Area of a simple polygon (any corner order that goes round it).

    >>> polygon_area([[0, 0], [2, 0], [2, 3], [0, 3]])
    6.0
    """
    return float(abs(cv2.contourArea(np.asarray(quad, dtype=np.float32).reshape(-1, 1, 2))))


def polygon_iou(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Intersection over union of two convex quads; independent of where each quad's corner list starts.

    >>> polygon_iou([[0, 0], [1, 0], [1, 1], [0, 1]], [[2, 2], [3, 2], [3, 3], [2, 3]])
    0.0
    """
    pa = _convex(a)
    pb = _convex(b)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = polygon_area(pa) + polygon_area(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def _convex(quad: npt.ArrayLike) -> FloatArray:
    # intersectConvexConvex wants a consistent winding; the convex hull gives one whatever the input order.
    return np.asarray(cv2.convexHull(np.asarray(quad, dtype=np.float32).reshape(-1, 2)), dtype=np.float32)


def iou_matrix(a: npt.ArrayLike, b: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """(N, M) polygon IoU between two sets of quads; pairs whose bounding boxes miss each other cost nothing."""
    qa = np.asarray(a, dtype=np.float32).reshape(-1, 4, 2)
    qb = np.asarray(b, dtype=np.float32).reshape(-1, 4, 2)
    out = np.zeros((len(qa), len(qb)))
    if not len(qa) or not len(qb):
        return out
    lo_a, hi_a = qa.min(axis=1), qa.max(axis=1)
    lo_b, hi_b = qb.min(axis=1), qb.max(axis=1)
    overlap = (lo_a[:, None] < hi_b[None]).all(-1) & (lo_b[None] < hi_a[:, None]).all(-1)
    for i, j in zip(*np.nonzero(overlap), strict=True):
        out[i, j] = polygon_iou(qa[i], qb[j])
    return out


def rotated_nms(quads: npt.ArrayLike, scores: npt.ArrayLike, iou_threshold: float = 0.5) -> npt.NDArray[np.intp]:
    """Indices of the quads kept by greedy class-agnostic NMS, best score first.

    A card is either a face or a back, so two boxes on the same spot compete whatever their class.

    >>> q = obb_to_quads([[50, 50, 20, 40, 0], [51, 50, 20, 40, 0], [150, 50, 20, 40, 0]])
    >>> rotated_nms(q, [0.8, 0.9, 0.5]).tolist()
    [1, 2]
    """
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    order = np.argsort(-s, kind="stable")
    ious = iou_matrix(np.asarray(quads)[order], np.asarray(quads)[order])
    suppressed = np.zeros(len(order), dtype=bool)
    keep: list[int] = []
    for rank in range(len(order)):
        if suppressed[rank]:
            continue
        keep.append(int(order[rank]))
        suppressed |= ious[rank] > iou_threshold
    return np.asarray(keep, dtype=np.intp)


def turn_half(quads: npt.ArrayLike) -> FloatArray:
    """The same quads with the card's top-left moved to the opposite corner (a 180 degree turn of the label).

    >>> turn_half([[[0, 0], [1, 0], [1, 2], [0, 2]]])[0].tolist()
    [[1.0, 2.0], [0.0, 2.0], [0.0, 0.0], [1.0, 0.0]]
    """
    return np.roll(np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2), 2, axis=1)

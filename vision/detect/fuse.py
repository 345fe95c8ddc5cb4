"""Fusing the boxes of several detector passes over one image (weighted box fusion on oriented quads).

Each pass (a zoom, a window, a mirror image) finds cards on its own; one card seen by three passes gives
three boxes. Plain rotated NMS would also swallow the distinct cards of a fanned spread, whose full-card
quads overlap by 60 % and more; but within one pass the network's NMS-free head has already told such cards
apart. So a cluster takes **at most one box from each pass**: boxes of different passes that overlap by
more than ``iou`` are one card, boxes of one pass are always different cards.

A cluster's quad is the confidence-weighted mean of its members' corners (each member's corner list turned to
start at the corner nearest the best member's first one), its kind that of its best member, and its
confidence a vote (weighted box fusion's): the members' summed confidence over the number of passes that
could have seen the card whole, so a box only one of three passes found counts a third. (Alternatives,
measured worse on held-out scenes: the passes of each zoom voting apart, the card keeping its best zoom's
vote; or no vote, the best box's confidence.)

>>> card = [[0, 0], [60, 0], [60, 90], [0, 90]]
>>> one = Pass(CardDetections.from_quads([card], [1], [0.9]), Window(0, 0, 100, 100))
>>> two = Pass(CardDetections.from_quads([np.add(card, 2)], [1], [0.7]), Window(0, 0, 100, 100))
>>> fused = fuse_passes([one, two])
>>> len(fused), round(float(fused.confidence[0]), 2), fused.corners[0][0].tolist()
(1, 0.8, [0.875, 0.875])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from vision.detect.geometry import polygon_area, polygon_iou
from vision.detect.windows import Window
from vision.detections import TURNS, CardDetections


@dataclass(frozen=True)
class Pass:
    """The cards one detector run found (image pixels) and the window of the image it read."""

    detections: CardDetections
    window: Window
    zoom: float = 1.0


VOTES = ("zoom", "all", "best")


def fuse_passes(passes: list[Pass], iou: float = 0.55, vote: str = "all") -> CardDetections:
    """One box per card from the boxes of several passes (see the module docstring); best first.

    ``vote``: ``all`` passes that could see a card whole vote on it; ``zoom``: the passes of each zoom vote
    apart and the card takes its best zoom's vote; ``best``: its best box's confidence, no vote."""
    if vote not in VOTES:
        raise ValueError(f"unknown vote {vote!r}: expected one of {', '.join(VOTES)}")
    found = CardDetections.concatenate([p.detections for p in passes])
    if not len(found):
        return CardDetections.empty()
    source = np.concatenate([np.full(len(p.detections), i) for i, p in enumerate(passes)])
    clusters = cluster_boxes(found.corners, found.confidence, source, iou)
    corners = np.stack([_mean_quad(found.corners[c], found.confidence[c]) for c in clusters])
    confidence = np.asarray(
        [
            _voted(found.confidence[c], [passes[i] for i in source[c]], passes, corners[k], vote)
            for k, c in enumerate(clusters)
        ]
    )
    kinds = np.asarray([found.kind[c[0]] for c in clusters])
    order = np.argsort(-confidence, kind="stable")
    return CardDetections.from_quads(corners[order], kinds[order], confidence[order])


def cluster_boxes(
    quads: npt.ArrayLike, scores: npt.ArrayLike, source: npt.ArrayLike, iou: float = 0.55
) -> list[list[int]]:
    """Boxes grouped into cards, one source (pass) at a time: each pass's boxes are matched to the cards so far
    by an optimal assignment (pairs overlapping by more than ``iou``, weighed by IoU x both boxes' scores), so
    no card takes two boxes of one pass, a box of a fanned spread goes to the card it overlaps most rather than
    the first one it overlaps enough, and a sure box pairs with a sure box rather than with one of the faint
    near-copies around it (the network's low-scoring rows); the boxes left over start new cards. A card is
    compared through its best box so far.

    Returns each card's box indices, best first.

    >>> q = np.asarray([[[0, 0], [60, 0], [60, 90], [0, 90]]], np.float32)
    >>> fan = np.concatenate([q, q + [15, 0], q + [1, 1]])     # two fanned cards, the first seen again
    >>> cluster_boxes(fan, [0.9, 0.8, 0.7], [0, 0, 1])
    [[0, 2], [1]]
    """
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    s = np.asarray(scores, np.float64).reshape(-1)
    src = np.asarray(source).reshape(-1)
    clusters: list[list[int]] = []
    for pass_id in dict.fromkeys(src.tolist()):
        boxes = np.flatnonzero(src == pass_id)
        heads = np.asarray([max(c, key=lambda i: s[i]) for c in clusters], np.intp)
        matches = _assign(q[boxes], q[heads], iou, s[boxes][:, None] * s[heads][None])
        for b, k in matches.items():
            clusters[k].append(int(boxes[b]))
        clusters.extend([int(boxes[b])] for b in range(len(boxes)) if b not in matches)
    return [sorted(c, key=lambda i: -s[i]) for c in clusters]


def _assign(
    boxes: npt.NDArray[np.float32], heads: npt.NDArray[np.float32], iou: float, weight: npt.NDArray[np.float64]
) -> dict[int, int]:
    """Box index -> head index: the assignment with the most IoU x ``weight`` in all, each pair above ``iou``."""
    if not len(boxes) or not len(heads):
        return {}
    overlap = np.zeros((len(boxes), len(heads)))
    for b, h in zip(*np.nonzero(_iou_bound(boxes, heads) > iou), strict=True):
        overlap[b, h] = polygon_iou(boxes[b], heads[h])
    overlap[overlap <= iou] = 0.0
    rows, cols = linear_sum_assignment(overlap * weight, maximize=True)
    return {int(r): int(c) for r, c in zip(rows, cols, strict=True) if overlap[r, c] > 0}


def _iou_bound(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """An upper bound of the IoU of every pair, cheap: min(bounding boxes' overlap, either area) / larger area."""
    lo_a, hi_a, lo_b, hi_b = a.min(axis=1), a.max(axis=1), b.min(axis=1), b.max(axis=1)
    sides = np.minimum(hi_a[:, None], hi_b[None]) - np.maximum(lo_a[:, None], lo_b[None])
    overlap = np.prod(np.clip(sides, 0, None), axis=2)
    area_a = np.asarray([polygon_area(x) for x in a])[:, None]
    area_b = np.asarray([polygon_area(x) for x in b])[None]
    return np.asarray(np.minimum(overlap, np.minimum(area_a, area_b)) / np.maximum(np.maximum(area_a, area_b), 1e-9))


def _mean_quad(quads: npt.NDArray[np.float32], weights: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The weighted mean quad, every member's corners first turned to match the first member's order.

    >>> q = np.asarray([[0, 0], [2, 0], [2, 4], [0, 4]], np.float32)
    >>> _mean_quad(np.stack([q, np.roll(q, 2, axis=0)]), np.asarray([1.0, 1.0], np.float32)).tolist()
    [[0.0, 0.0], [2.0, 0.0], [2.0, 4.0], [0.0, 4.0]]
    """
    reference = quads[0]
    aligned = []
    for quad in quads:
        turns = quad[TURNS]
        aligned.append(turns[int(np.square(turns - reference).sum(axis=(1, 2)).argmin())])
    w = np.asarray(weights, np.float64)
    return np.asarray((np.stack(aligned) * w[:, None, None]).sum(axis=0) / w.sum(), np.float32)


def _voted(
    scores: npt.NDArray[np.float32], seen_by: list[Pass], passes: list[Pass], quad: npt.NDArray[np.float32], vote: str
) -> float:
    """One card's confidence from its boxes' ``scores`` (found by the passes ``seen_by``, best first)."""
    if vote == "best":
        return float(scores[0])
    groups = [None] if vote == "all" else sorted({p.zoom for p in seen_by})
    best = 0.0
    for zoom in groups:
        mine = [float(x) for x, p in zip(scores, seen_by, strict=True) if zoom is None or p.zoom == zoom]
        voters = _covering([p for p in passes if zoom is None or p.zoom == zoom], quad)
        best = max(best, sum(mine) / max(len(mine), voters))
    return best


def _covering(passes: list[Pass], quad: npt.NDArray[np.float32]) -> int:
    """How many passes' windows hold the whole quad (those that could have found the card whole)."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    count = 0
    for p in passes:
        w = p.window
        # a little slack: a box may reach a few pixels past the image or window edge
        if lo[0] >= w.x0 - 4 and lo[1] >= w.y0 - 4 and hi[0] <= w.x0 + w.width + 4 and hi[1] <= w.y0 + w.height + 4:
            count += 1
    return count

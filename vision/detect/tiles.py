"""Training tiles: crops of rendered scenes at their native scale, so small cards stay small but cheap.

A 640 x 640 rendered scene shows a 1280 x 720 table frame at the detector's inference scale (0.5). Training
on random ``tile x tile`` crops of it instead of the whole picture keeps every card at the size it will
have at inference time while costing a quarter of the compute per step, which is what a from-scratch
model on a shared 2-core CPU needs most.

Labels come from the per-image JSON (every card with corners and visible share), not from the OBB text
files, so a card cut by the tile border is boxed by the rotated rectangle around its part inside the tile.

    write_tiles(Path("datasets/generated/det640"), Path("datasets/generated/det640-tiles"), tile=320)
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.detections import KIND_NAMES

MIN_VISIBLE = 0.1  # cards showing less of their area...
MIN_VISIBLE_PX = 600.0  # ...and fewer pixels than this are not asked of the detector
MIN_INSIDE_PX = 300.0  # a card cut by the tile border is labelled if this much of it lies inside
ON_A_CARD = 0.85  # share of tiles centred near a card rather than anywhere (empty table teaches little)


def polygon_area(points: npt.ArrayLike) -> float:
    """Unsigned shoelace area.

    >>> polygon_area([[0, 0], [4, 0], [4, 2], [0, 2]])
    8.0
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    return float(abs(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))))


def box_in_window(quad: npt.ArrayLike, size: tuple[int, int]) -> tuple[npt.NDArray[np.float64], float]:
    """The quad's box within a ``size`` (width, height) window at the origin, and the share of it inside.

    Inside the window the card keeps its corners; cut by the border, it becomes the smallest rotated
    rectangle around its part inside (ultralytics needs coordinates within the image).

    >>> box, inside = box_in_window([[-10, 0], [10, 0], [10, 40], [-10, 40]], (100, 100))
    >>> inside, box.min(axis=0).tolist(), box.max(axis=0).tolist()
    (0.5, [0.0, 0.0], [10.0, 40.0])
    """
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    w, h = size
    if q[:, 0].min() >= 0 and q[:, 1].min() >= 0 and q[:, 0].max() <= w and q[:, 1].max() <= h:
        return q, 1.0
    window = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, part = cv2.intersectConvexConvex(cv2.convexHull(q.astype(np.float32)), window)
    full = polygon_area(q)
    if part is None or area <= 0 or full <= 0:
        return np.clip(q, 0, [w, h]), 0.0
    box = np.asarray(cv2.boxPoints(cv2.minAreaRect(part.reshape(-1, 2))), np.float64)
    return np.clip(box, 0, [w, h]), float(area / full)


def tile_lines(cards: list[dict[str, object]], x0: int, y0: int, tile: int) -> list[str]:
    """OBB label lines for the tile at (x0, y0) from a label file's ``cards``."""
    lines = []
    for card in cards:
        quad = np.asarray(card["corners"], np.float64).reshape(4, 2)
        visible = float(card["visible"])  # type: ignore[arg-type]
        if visible < MIN_VISIBLE and visible * polygon_area(quad) < MIN_VISIBLE_PX:
            continue
        box, inside = box_in_window(quad - [x0, y0], (tile, tile))
        # Every visible piece counts, however small its share: an unlabelled piece of card would teach the
        # detector that cards are background. The piece is boxed by the rotated rectangle around it.
        if inside * polygon_area(quad) < MIN_INSIDE_PX:
            continue
        values = " ".join(f"{v:.6f}" for v in (box / tile).ravel())
        lines.append(f"{KIND_NAMES.index(str(card['kind']))} {values}")
    return lines


def write_tiles(source: Path, out: Path, tile: int = 320, per_image: int = 1, seed: int = 0) -> int:
    """Writes ``per_image`` random tiles of every labelled image under ``source`` into an OBB dataset ``out``.

    Split folders are kept (``images/train`` -> ``images/train``); returns the number of tiles written.
    """
    rng = np.random.default_rng(seed)
    written = 0
    for label in sorted(source.rglob("*.json")):
        data = json.loads(label.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "cards" not in data:
            continue
        image = cv2.imread(str(source / data["image"]))
        if image is None:
            raise FileNotFoundError(f"cannot read image {source / data['image']} named by {label}")
        split = Path(data["image"]).parent.name
        for k in range(per_image):
            x0, y0 = _tile_origin(rng, data["cards"], image.shape[1], image.shape[0], tile)
            name = f"{label.stem}_{k}"
            for kind in ("images", "labels"):
                (out / kind / split).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), image[y0 : y0 + tile, x0 : x0 + tile])
            lines = tile_lines(data["cards"], x0, y0, tile)
            (out / "labels" / split / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
            written += 1
    names = "names:\n  0: face\n  1: back\n"
    (out / "dataset.yaml").write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\n{names}")
    return written


def _tile_origin(
    rng: np.random.Generator, cards: list[dict[str, object]], width: int, height: int, tile: int
) -> tuple[int, int]:
    """Top-left of a tile: mostly around a random card's centre (jittered), otherwise anywhere."""
    if cards and rng.random() < ON_A_CARD:
        centre = np.asarray(cards[int(rng.integers(len(cards)))]["corners"], np.float64).mean(axis=0)
        x, y = centre + rng.uniform(-0.4 * tile, 0.4 * tile, 2) - tile / 2
    else:
        x, y = rng.uniform(0, width - tile), rng.uniform(0, height - tile)
    return int(np.clip(x, 0, width - tile)), int(np.clip(y, 0, height - tile))

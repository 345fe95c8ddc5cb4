"""Writing rendered scenes as training data: an ultralytics OBB dataset, per-image JSON labels, card crops.

Layout under the output folder ``DIR`` (``SPLIT`` is train, val or heldout; ``NAME`` is ``SPLIT_SEED``):

- ``images/SPLIT/NAME.jpg``: the picture;
- ``labels/SPLIT/NAME.txt``: one line per card, ``class x1 y1 x2 y2 x3 y3 x4 y4`` normalised to 0..1,
  class 0 face, 1 back, corners from the card's own top-left clockwise. Cards showing less than
  ``min_visible`` (default 0.15) of their area are left out: too little of them shows to ask a detector
  for them. A card partly outside the frame is boxed by the smallest rotated rectangle around its part
  inside the frame (ultralytics needs coordinates within the image);
- ``scenes/SPLIT/NAME.json``: every card in the frame with corners, kind, identity and visible fraction,
  plus the scene's presets and camera, whatever its visibility;
- ``crops/SPLIT/NAME_INDEX.png``: the card rectified upright (``vision.rectify.rectify``, 64 x 96) for each
  card showing at least ``crop_min_visible``; ``crops/SPLIT.csv`` lists them with identity and visibility.

>>> obb_line(0, [(10, 10), (30, 10), (30, 40), (10, 40)], (100, 50))
'0 0.100000 0.200000 0.300000 0.200000 0.300000 0.800000 0.100000 0.800000'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.rectify import rectify
from vision.render.labels import KIND_CLASS, CardLabel
from vision.render.scene import Rendered, Scene

MIN_VISIBLE = 0.15
CROP_MIN_VISIBLE = 0.3
JPEG_QUALITY = 90
CROP_FIELDS: tuple[str, ...] = ("crop", "image", "index", "kind", "colour", "number", "back", "owner", "visible")


def obb_line(cls: int, corners: Sequence[tuple[float, float]] | npt.ArrayLike, size: tuple[int, int]) -> str:
    """One ultralytics OBB label line from pixel corners and the image size (width, height)."""
    pts = np.asarray(corners, dtype=np.float64).reshape(4, 2) / np.asarray(size, dtype=np.float64)
    pts = np.clip(pts, 0.0, 1.0)
    return f"{cls} " + " ".join(f"{v:.6f}" for v in pts.ravel())


def frame_box(corners: npt.ArrayLike, size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """The card's corners if it lies inside the frame, else the rotated rectangle around its part inside."""
    quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    w, h = size
    if quad[:, 0].min() >= 0 and quad[:, 1].min() >= 0 and quad[:, 0].max() <= w and quad[:, 1].max() <= h:
        return quad
    box = box_around_part(quad, np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32))
    return np.clip(quad if box is None else np.asarray(box, np.float64), 0, [w, h])


def box_around_part(quad: npt.ArrayLike, frame: npt.ArrayLike) -> npt.NDArray[np.float32] | None:
    """The smallest rotated rectangle around the part of the convex ``quad`` inside the convex polygon ``frame``
    (None if none of it is), unclipped: the box a detector learns for a card the picture's edge cuts."""
    points = np.asarray(quad, np.float32).reshape(-1, 2)
    area, inside = cv2.intersectConvexConvex(points, np.asarray(frame, np.float32).reshape(-1, 2))
    if inside is None or area <= 0:
        return None
    return np.asarray(cv2.boxPoints(cv2.minAreaRect(inside.reshape(-1, 2))), np.float32)


def obb_lines(labels: Sequence[CardLabel], size: tuple[int, int], min_visible: float = MIN_VISIBLE) -> list[str]:
    return [
        obb_line(KIND_CLASS[lb.kind], frame_box(lb.corners, size), size) for lb in labels if lb.visible >= min_visible
    ]


def scene_json(name: str, split: str, seed: int, scene: Scene, rendered: Rendered) -> dict[str, Any]:
    cam = scene.camera
    return {
        "image": f"images/{split}/{name}.jpg",
        "width": cam.size[0],
        "height": cam.size[1],
        "split": split,
        "seed": seed,
        "surface": scene.surface,
        "light": scene.light.preset,
        "face_style": scene.face_style,
        "camera": {"tilt_deg": round(cam.tilt_deg, 2), "focal_px": round(cam.fx, 1), "k1": round(cam.k1, 4)},
        "occluders": [type(o).__name__.lower() for o in scene.occluders],
        "cards": [label.to_json() for label in rendered.labels],
    }


@dataclass(frozen=True)
class Written:
    """What one example added: its name, the number of OBB boxes, and the crop rows for the CSV."""

    name: str
    boxes: int
    crop_rows: tuple[tuple[str, ...], ...]


def write_example(
    out: Path,
    split: str,
    seed: int,
    scene: Scene,
    rendered: Rendered,
    min_visible: float = MIN_VISIBLE,
    crop_min_visible: float = CROP_MIN_VISIBLE,
) -> Written:
    """Writes one rendered scene into the dataset folder ``out`` (see the module docstring)."""
    name = f"{split}_{seed:08d}"
    size = scene.camera.size
    dirs = {kind: out / kind / split for kind in ("images", "labels", "scenes", "crops")}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(dirs["images"] / f"{name}.jpg"), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    lines = obb_lines(rendered.labels, size, min_visible)
    (dirs["labels"] / f"{name}.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    record = scene_json(name, split, seed, scene, rendered)
    (dirs["scenes"] / f"{name}.json").write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
    rows = []
    for label in rendered.labels:
        if label.visible < crop_min_visible:
            continue
        crop_name = f"{name}_{label.index:02d}.png"
        cv2.imwrite(str(dirs["crops"] / crop_name), rectify(rendered.image, label.corners))
        data = label.to_json()
        rows.append(
            (
                f"{split}/{crop_name}",
                f"{split}/{name}.jpg",
                str(label.index),
                label.kind,
                data["colour"] or "",
                "" if data["number"] is None else str(data["number"]),
                data["back"] or "",
                label.owner,
                f"{label.visible:.4f}",
            )
        )
    return Written(name, len(lines), tuple(rows))


def dataset_yaml(root: Path, splits: Sequence[str]) -> str:
    """An ultralytics dataset config for ``root``: train on ``train``, validate on ``val`` (else ``heldout``)."""
    val = "val" if "val" in splits else ("heldout" if "heldout" in splits else "train")
    lines = [
        "# Ligretto cards as oriented boxes, written by `ligretto synth images`.",
        f"path: {root.resolve()}",
        "train: images/train",
        f"val: images/{val}",
    ]
    if "heldout" in splits:
        lines.append("test: images/heldout")
    lines += ["names:", "  0: face", "  1: back", ""]
    return "\n".join(lines)

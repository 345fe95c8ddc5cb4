"""Ground truth of a directory written by ``ligretto synth images``: per image, every card's quad and identity.

Each rendered image has a JSON label (``{"image": ..., "cards": [{"kind", "colour", "number", "back",
"corners", "visible", ...}]}``, see :mod:`vision.render.labels`); this module reads them into arrays shaped
like :class:`vision.detections.CardDetections`, so matching is array work.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import COLOURS, Colour
from vision.detections import KIND_NAMES

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")


@dataclass(frozen=True, eq=False)
class Truth:
    """The labelled cards of one image, as parallel arrays (M cards)."""

    image: Path
    corners: npt.NDArray[np.float32]  # (M, 4, 2)
    kind: npt.NDArray[np.int8]  # (M,) 0 face, 1 back
    colour: npt.NDArray[np.int8]  # (M,) index into COLOURS, -1 for backs
    number: npt.NDArray[np.int8]  # (M,) 1..10, 0 for backs
    back: npt.NDArray[np.object_]  # (M,) back id for backs, None for faces
    visible: npt.NDArray[np.float32]  # (M,) visible share of the card's area, 0..1

    def __len__(self) -> int:
        return len(self.kind)

    @property
    def width_px(self) -> npt.NDArray[np.float32]:
        """Each card's short side in pixels (the mean of its two short edges): the size that makes it hard."""
        edges = np.linalg.norm(self.corners - np.roll(self.corners, -1, axis=1), axis=2)
        return np.asarray(np.minimum(edges[:, 0] + edges[:, 2], edges[:, 1] + edges[:, 3]) / 2, np.float32)

    @classmethod
    def from_cards(cls, image: Path, cards: list[dict[str, Any]]) -> Truth:
        """From the ``cards`` list of a label file (the keys of ``vision.render.labels.CardLabel.to_json``)."""
        colours = [c.get("colour") for c in cards]
        return cls(
            image=image,
            corners=np.asarray([c["corners"] for c in cards], np.float32).reshape(-1, 4, 2),
            kind=np.asarray([KIND_NAMES.index(c["kind"]) for c in cards], np.int8),
            colour=np.asarray([COLOURS.index(Colour(c)) if c else -1 for c in colours], np.int8),
            number=np.asarray([c.get("number") or 0 for c in cards], np.int8),
            back=np.asarray([c.get("back") for c in cards] + [None], dtype=object)[:-1],
            visible=np.asarray([c.get("visible", 1.0) for c in cards], np.float32),
        )


def label_files(root: Path) -> list[Path]:
    """The JSON label files under ``root`` (any depth), in name order."""
    return sorted(p for p in root.rglob("*.json") if p.is_file() and _is_label(p))


def _is_label(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("cards"), list)


def read_truth(label: Path, root: Path) -> Truth:
    """One label file; its image is the file it names (relative to the label, then to ``root``) or its twin."""
    data = json.loads(label.read_text(encoding="utf-8"))
    return Truth.from_cards(_image_of(label, data, root), data["cards"])


def iter_truth(root: Path, limit: int | None = None) -> Iterator[Truth]:
    files = label_files(root)
    for label in files[:limit] if limit else files:
        yield read_truth(label, root)


def _image_of(label: Path, data: dict[str, Any], root: Path) -> Path:
    named = data.get("image") or data.get("file")
    if named:
        for base in (label.parent, root, root.parent):
            if (base / named).is_file():
                return base / named
    for suffix in IMAGE_SUFFIXES:
        matches = list(root.rglob(label.stem + suffix))
        if matches:
            return matches[0]
    raise FileNotFoundError(f"no image found for label {label}")

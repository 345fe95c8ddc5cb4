"""The oracle: a rendered video's ground-truth labels (``FILE.frames.jsonl``) read as if a perfect detector and
recogniser had produced them.

Replaying with the oracle instead of the detector isolates the tracker and the judge: whatever the referee
gets wrong then is not the camera's fault. A perfect detector still cannot see a card that is covered, so
faces showing less than ``min_visible`` of their area (backs: less than :data:`MIN_VISIBLE_BACK`, the strip a
fanned spread shows) are left out, as a real one would miss them.

Each line of ``frames.jsonl`` is ``{"frame": i, "t": s, "cards": [{"kind", "colour", "number", "back",
"corners", "visible"}, ...]}`` (corners in image pixels, the card's own top-left first, clockwise).

>>> line = ('{"frame": 3, "t": 0.1, "cards": [{"kind": "face", "colour": "red", "number": 5, "back": null,'
...         ' "corners": [[0,0],[59,0],[59,91],[0,91]], "visible": 0.9}]}')
>>> truth = parse_line(line)
>>> truth.frame, len(truth.detections), int(truth.detections.number[0]), [round(float(v), 3) for v in truth.visible]
(3, 1, 5, [0.9])
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.cards import COLOURS
from referee.errors import InputFileError
from vision.detections import BACK, FACE, UNKNOWN_COLOUR, CardDetections

COLOUR_INDEX = {c.value: i for i, c in enumerate(COLOURS)}
DEFAULT_MIN_VISIBLE = 0.5
MIN_VISIBLE_BACK = 0.1
"""A back in a fanned spread shows a strip of itself, about a sixth; counting the spread means seeing those."""


@dataclass(frozen=True, eq=False)
class TruthFrame:
    """One frame's labelled cards as detections, with the visible fraction of each."""

    frame: int
    t: float
    detections: CardDetections
    visible: np.ndarray


def parse_line(line: str, *, min_visible: float = 0.0) -> TruthFrame:
    data = json.loads(line)

    def seen(card: dict[str, Any]) -> bool:
        floor = min(min_visible, MIN_VISIBLE_BACK) if card.get("kind") == "back" else min_visible
        return float(card.get("visible", 1.0)) >= floor

    cards = [c for c in data.get("cards", []) if seen(c)]
    kind = [FACE if c.get("kind") == "face" else BACK for c in cards]
    detections = CardDetections.from_quads(
        np.asarray([c["corners"] for c in cards], np.float32).reshape(-1, 4, 2), kind, np.ones(len(cards))
    )
    detections = detections.with_identity(
        colour=[COLOUR_INDEX.get(c.get("colour") or "", UNKNOWN_COLOUR) for c in cards],
        number=[int(c.get("number") or 0) for c in cards],
        back=[c.get("back") for c in cards],
        identity_confidence=np.ones(len(cards)),
    )
    visible = np.asarray([float(c.get("visible", 1.0)) for c in cards], np.float32)
    return TruthFrame(int(data["frame"]), float(data["t"]), detections, visible)


def read_truth_frames(path: str | Path, *, min_visible: float = DEFAULT_MIN_VISIBLE) -> Iterator[TruthFrame]:
    """Every frame of a ``frames.jsonl`` file; a clear error naming the line that cannot be read."""
    file = Path(path)
    try:
        handle = file.open(encoding="utf-8")
    except OSError as exc:
        raise InputFileError(f"cannot read ground-truth frames {file}: {exc.strerror or exc}") from None
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield parse_line(line, min_visible=min_visible)
            except (ValueError, KeyError, TypeError) as exc:
                raise InputFileError(f"{file} line {number}: not a frame of card labels ({exc})") from None


def truth_frames_path(video: str | Path) -> Path:
    """``FILE.frames.jsonl`` beside ``FILE.mp4`` (where ``ligretto synth video`` writes it)."""
    stem = Path(video).with_suffix("")
    return stem.with_name(f"{stem.name}.frames.jsonl")


def first_line(path: str | Path) -> dict[str, Any]:
    with Path(path).open(encoding="utf-8") as handle:
        return dict(json.loads(handle.readline()))

"""The committed samples: still scenes with their labels, and a contact sheet for judging realism.

- ``stills/still_SEED.jpg`` with ``stills/still_SEED.json`` (the same JSON as a dataset's ``scenes/``);
- ``contact_sheet.png``: 16 random scenes in a 4 x 4 grid, tiles shrunk until the PNG stays under 2 MB.

Stills are camera frames (1280 x 720 by default) of the training split; the sheet mixes training and
held-out scenes (its last row is held out), so both can be judged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2

from vision.render.contact_sheet import contact_sheet
from vision.render.dataset import render_example
from vision.render.export import scene_json

SHEET_LIMIT_BYTES = 2_000_000
STILL_QUALITY = 80


def write_stills(
    out: Path, seeds: Sequence[int], size: tuple[int, int] = (1280, 720), split: str = "train"
) -> list[Path]:
    """Writes one JPEG and one JSON label file per seed into ``out``; returns the JPEG paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for seed in seeds:
        scene, rendered = render_example(seed, split, size)
        name = f"still_{seed:04d}"
        path = out / f"{name}.jpg"
        cv2.imwrite(str(path), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, STILL_QUALITY])
        record = scene_json(name, split, seed, scene, rendered)
        record["image"] = path.name
        (out / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    return written


def write_contact_sheet(path: Path, seeds: Sequence[int], heldout_seeds: Sequence[int] = ()) -> int:
    """Renders the scenes (640 x 640) into a 4-column sheet at ``path``; returns the file's size in bytes."""
    images = [render_example(s, "train")[1].image for s in seeds]
    images += [render_example(s, "heldout")[1].image for s in heldout_seeds]
    tile = 320
    while True:
        ok, data = cv2.imencode(".png", contact_sheet(images, 4, (tile, tile)), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            raise OSError(f"cannot encode the contact sheet for {path}")
        if len(data) <= SHEET_LIMIT_BYTES or tile <= 128:
            break
        tile -= 16
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.tobytes())
    return len(data)

"""A contact sheet of the card art: the 40 faces of one style, the 12 catalogue backs and 12 random backs.

Regenerate the committed sample with::

    python -m vision.render.art_sheet --out datasets/samples/card_art.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from referee.backs import Catalogue
from referee.cards import FULL_SET
from vision.render.art_paint import ByteImage
from vision.render.back_art import BackLook, render_back
from vision.render.card_art import FaceStyle, render_face

_TABLE_GREY = (96, 104, 100)


def _grid(cards: list[ByteImage], columns: int, gap: int) -> ByteImage:
    """Cards (BGRA) composited over a neutral grey in rows of ``columns``."""
    cell_h = max(card.shape[0] for card in cards) + gap
    cell_w = max(card.shape[1] for card in cards) + gap
    rows = -(-len(cards) // columns)
    sheet = np.empty((rows * cell_h + gap, columns * cell_w + gap, 3), np.float32)
    sheet[:] = _TABLE_GREY
    for index, card in enumerate(cards):
        y, x = gap + (index // columns) * cell_h, gap + (index % columns) * cell_w
        alpha = card[:, :, 3:4].astype(np.float32) / 255
        region = sheet[y : y + card.shape[0], x : x + card.shape[1]]
        region[:] = card[:, :, :3] * alpha + region * (1 - alpha)
    return sheet.astype(np.uint8)


def make_sheet(seed: int = 0, height: int = 180, style: FaceStyle | None = None) -> ByteImage:
    """BGR sheet: 4 rows of 10 faces (``style``, canonical by default), then 12 catalogue and 12 random backs."""
    rng = np.random.default_rng(seed)
    faces = [render_face(card, height, rng, style) for card in FULL_SET]
    catalogue = [render_back(BackLook.for_design(d), height, rng) for d in Catalogue.default()]
    randoms = [render_back(BackLook.random(rng), height, rng) for _ in range(12)]
    gap = max(4, height // 20)
    face_sheet = _grid(faces, 10, gap)
    back_sheet = _grid(catalogue + randoms, 12, gap)
    width = max(face_sheet.shape[1], back_sheet.shape[1])
    parts = [
        np.pad(p, ((0, 0), (0, width - p.shape[1]), (0, 0)), constant_values=_TABLE_GREY[0])
        for p in (face_sheet, back_sheet)
    ]
    return np.vstack(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("datasets/samples/card_art.png"), help="PNG to write")
    parser.add_argument("--seed", type=int, default=0, help="per-card variation and random backs (default 0)")
    parser.add_argument("--height", type=int, default=180, help="card height in pixels (default 180)")
    parser.add_argument("--style-seed", type=int, default=None, help="a random face style instead of the canonical")
    args = parser.parse_args(argv)
    style = None if args.style_seed is None else FaceStyle.random(np.random.default_rng(args.style_seed))
    sheet = make_sheet(args.seed, args.height, style)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Training tiles: cards cut by a tile border, hidden cards and the dataset written from JSON labels."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect.tiles import box_in_window, tile_lines, write_tiles

CARD = [[100.0, 100.0], [160.0, 100.0], [160.0, 192.0], [100.0, 192.0]]  # 60 x 92 px


def card(corners: list[list[float]], visible: float = 1.0, kind: str = "face") -> dict[str, object]:
    return {"kind": kind, "corners": corners, "visible": visible}


@pytest.mark.parametrize(
    ("x0", "y0", "expected_lines", "expected_inside"),
    [
        (0, 0, 1, 1.0),  # wholly inside the tile
        (130, 0, 1, 0.5),  # cut in half by the tile's left border
        (150, 0, 1, 1 / 6),  # a sixth of it, still a visible piece of card
        (158, 0, 0, 1 / 30),  # a sliver too thin to ask for
        (300, 300, 0, 0.0),  # elsewhere
    ],
)
def test_a_card_cut_by_the_tile_border(x0: int, y0: int, expected_lines: int, expected_inside: float) -> None:
    _, inside = box_in_window(np.asarray(CARD) - [x0, y0], (320, 320))
    assert inside == pytest.approx(expected_inside, abs=1e-3)
    assert len(tile_lines([card(CARD)], x0, y0, 320)) == expected_lines


@pytest.mark.parametrize(("visible", "kept"), [(1.0, True), (0.3, True), (0.05, False)])
def test_cards_hidden_under_others_are_not_asked_for(visible: float, kept: bool) -> None:
    assert bool(tile_lines([card(CARD, visible)], 0, 0, 320)) is kept


def test_lines_are_normalised_class_and_corners() -> None:
    (line,) = tile_lines([card(CARD, kind="back")], 0, 0, 320)
    values = [float(v) for v in line.split()]
    assert values[0] == 1
    assert values[1:3] == pytest.approx([100 / 320, 100 / 320], abs=1e-5)
    assert all(0 <= v <= 1 for v in values[1:])


def test_write_tiles_builds_an_obb_dataset(tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "images" / "train").mkdir(parents=True)
    (source / "scenes" / "train").mkdir(parents=True)
    cv2.imwrite(str(source / "images" / "train" / "a.jpg"), np.zeros((640, 640, 3), np.uint8))
    label = {"image": "images/train/a.jpg", "width": 640, "height": 640, "cards": [card(CARD)]}
    (source / "scenes" / "train" / "a.json").write_text(json.dumps(label))
    assert write_tiles(source, tmp_path / "out", tile=320, per_image=2) == 2
    assert cv2.imread(str(tmp_path / "out" / "images" / "train" / "a_1.jpg")).shape == (320, 320, 3)
    assert (tmp_path / "out" / "labels" / "train" / "a_0.txt").is_file()
    assert "train: images/train" in (tmp_path / "out" / "dataset.yaml").read_text()

"""ligretto score: counting backs in stills, scoring them, and the messages for bad stills."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from referee.cli.main import main
from referee.cli.score import count_backs, score_counts
from vision.detections import BACK, FACE, CardDetections

MODEL = Path("models/detector.onnx")
QUAD = [[0, 0], [59, 0], [59, 91], [0, 91]]


@pytest.mark.parametrize(
    ("backs", "kinds", "counts", "warnings"),
    [
        (["a", "a", "b"], [BACK] * 3, {"a": 2, "b": 1}, 0),
        (["a", None], [BACK, BACK], {"a": 1}, 1),
        ([None, None, "b"], [FACE, FACE, BACK], {"b": 1}, 1),
        ([], [], {}, 0),
    ],
)
def test_backs_are_counted_by_design(backs, kinds, counts, warnings):
    dets = CardDetections.from_quads([QUAD] * len(kinds), kinds, [0.9] * len(kinds))
    dets = dets.with_identity(back=backs) if backs else dets
    found, notes = count_backs(dets, what="centre")
    assert found == counts and len(notes) == warnings


@pytest.mark.parametrize(
    ("centre", "leftover", "scores"),
    [({"a": 10}, {}, {"a": 10}), ({"a": 3}, {"a": 2, "b": 1}, {"a": -1, "b": -2}), ({}, {}, {})],
)
def test_each_back_scores_centre_minus_twice_leftover(centre, leftover, scores):
    assert score_counts(centre, leftover) == scores


def test_an_unreadable_still_is_one_clear_line(tmp_path, capsys):
    bad = tmp_path / "centre.jpg"
    bad.write_text("not an image")
    assert main(["score", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"ligretto: error: cannot read image {bad}: not an image OpenCV can decode"


@pytest.mark.skipif(not MODEL.exists(), reason="needs the trained detector (models/detector.onnx)")
def test_a_still_of_something_that_is_not_a_table_is_exit_4(tmp_path, capsys):
    import cv2

    still = tmp_path / "wall.png"
    rng = np.random.default_rng(0)
    cv2.imwrite(str(still), cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (31, 31), 0))
    assert main(["score", str(still), "--json"]) == 4
    assert "no card found in" in capsys.readouterr().err


def test_each_player_told_is_scored_though_none_of_their_cards_was_seen():
    assert score_counts({"a": 3}, {"b": 1}, players=("c", "a", "b")) == {"c": 0, "a": 3, "b": -2}


def test_a_player_told_that_is_no_back_of_the_catalogue_is_one_clear_line(tmp_path, capsys):
    still = Path("datasets/samples/stills/still_0000.jpg")
    assert main(["score", str(still), "--players", "red-red,bleu-blue"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ligretto: error: no back 'bleu-blue' in the catalogue") and len(err.splitlines()) == 1


@pytest.mark.skipif(not MODEL.exists(), reason="needs the trained detector (models/detector.onnx)")
def test_a_still_scored_with_the_players_told_names_each_of_them_and_no_other_back(capsys):
    import json

    still = Path("datasets/samples/stills/still_0000.jpg")
    assert main(["score", str(still), "--fast", "--json", "--players", "red-black,blue-blue,green-brown"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["scores"]) == {"red-black", "blue-blue", "green-brown"}
    assert set(result["centre"]) | set(result["leftover"]) <= set(result["scores"])

"""Scoring detections against labels: matching, AP, recall buckets, identity and 6/9 confusions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.detect.geometry import obb_to_quads, turn_half
from vision.detections import BACK, FACE, CardDetections
from vision.evaluate.matching import average_precision, greedy_match
from vision.evaluate.report import confusion_png, table, write_csv
from vision.evaluate.scoring import Scorer
from vision.evaluate.truth import Truth, iter_truth

QUADS = obb_to_quads([[100, 100, 60, 92, 0.3], [300, 100, 60, 92, 1.2], [500, 300, 30, 46, 0.0]])


def truth(visible: tuple[float, ...] = (1.0, 0.4, 0.2)) -> Truth:
    cards = [
        {"kind": "face", "colour": "red", "number": 6, "back": None, "corners": QUADS[0].tolist()},
        {"kind": "face", "colour": "blue", "number": 9, "back": None, "corners": QUADS[1].tolist()},
        {"kind": "back", "colour": None, "number": None, "back": "red-red", "corners": QUADS[2].tolist()},
    ]
    for card, share in zip(cards, visible, strict=True):
        card["visible"] = share
    return Truth.from_cards(Path("scene.jpg"), cards)


def detections(quads: np.ndarray, kind: list[int], conf: list[float]) -> CardDetections:
    return CardDetections.from_quads(quads, kind, conf)


@pytest.mark.parametrize(
    ("ious", "scores", "expected"),
    [
        ([[0.9, 0.0], [0.0, 0.8]], [0.9, 0.8], [0, 1]),
        ([[0.9, 0.6], [0.8, 0.0]], [0.5, 0.9], [1, 0]),  # the better-scored prediction takes its best truth first
        ([[0.4]], [0.9], [-1]),  # below the IoU threshold
        ([[0.9], [0.95]], [0.9, 0.8], [0, -1]),  # a duplicate is a false positive
    ],
)
def test_greedy_match_table(ious: list[list[float]], scores: list[float], expected: list[int]) -> None:
    assert greedy_match(np.array(ious), np.array(scores), 0.5).tolist() == expected


@pytest.mark.parametrize(
    ("hits", "n_truth", "expected"),
    [
        ([True, True], 2, 1.0),
        ([True, False], 2, 0.5),
        ([False, True], 1, 0.5),
        ([], 3, 0.0),
    ],
)
def test_average_precision_table(hits: list[bool], n_truth: int, expected: float) -> None:
    assert average_precision(np.array(hits, bool), n_truth) == pytest.approx(expected, abs=0.01)


def test_perfect_detections_score_full_marks_even_turned_half_way() -> None:
    scorer = Scorer(conf=0.4)
    found = detections(turn_half(QUADS), [FACE, FACE, BACK], [0.9, 0.8, 0.7])
    found = found.with_identity(colour=[0, 3, -1], number=[6, 9, 0], back=[None, None, "red-red"])
    row = scorer.add(truth(), found, found, 5.0, 2.0)
    summary = scorer.summary()
    assert (row.true_positives, row.false_positives, row.missed, row.errors) == (3, 0, 0, "")
    assert summary.map50_95 == pytest.approx(1.0)
    assert summary.recall.value == summary.precision.value == 1.0
    assert summary.face_identity.value == summary.back_identity_partly.value == 1.0  # the back shows 20 %
    assert summary.back_identity.total == 0


@pytest.mark.parametrize(
    ("catalogue", "read", "right", "strangers_named", "error"),
    [
        (None, None, 0, (0, 0), "back red-red read as ?"),  # no catalogue: every back's id is the answer
        (("red-red",), None, 0, (0, 0), "back red-red read as ?"),
        (("red-red",), "red-red", 1, (0, 0), ""),
        (("blue-blue",), None, 0, (0, 1), ""),  # a design the recogniser cannot name is right as unknown
        (("blue-blue",), "blue-blue", 0, (1, 1), "back red-red (not in the catalogue) read as blue-blue"),
    ],
)
def test_backs_are_scored_against_the_catalogue_the_recogniser_names(
    catalogue: tuple[str, ...] | None, read: str | None, right: int, strangers_named: tuple[int, int], error: str
) -> None:
    scorer = Scorer(conf=0.4, catalogue=catalogue)
    found = detections(QUADS[2:], [BACK], [0.9]).with_identity(back=[read])
    row = scorer.add(truth(visible=(0.0, 0.0, 0.8)), found, found, 1.0, 1.0)
    summary = scorer.summary()
    known = 0 if catalogue is not None and "red-red" not in catalogue else 1
    assert (summary.back_identity.hits, summary.back_identity.total) == (right, known)
    assert (summary.strangers_named.hits, summary.strangers_named.total) == strangers_named
    assert row.errors == error


def test_misses_land_in_their_visibility_bucket_and_false_boxes_cost_precision() -> None:
    scorer = Scorer(conf=0.4)
    stray = obb_to_quads([[900, 500, 60, 92, 0.0]])
    found = detections(np.concatenate([QUADS[:1], stray]), [FACE, BACK], [0.9, 0.6])
    scorer.add(truth(), found, found, 5.0, 2.0)
    summary = scorer.summary()
    buckets = {name: (rate.hits, rate.total) for name, rate in summary.recall_by_visibility.items()}
    assert buckets == {">=50%": (1, 1), "25-50%": (0, 1), "15-25%": (0, 1), "<15% (not asked)": (0, 0)}
    assert (summary.precision.hits, summary.precision.total) == (1, 2)


def test_a_face_found_as_a_back_is_both_missed_and_false() -> None:
    scorer = Scorer(conf=0.4)
    found = detections(QUADS[:1], [BACK], [0.9])
    row = scorer.add(truth(), found, found, 1.0, 1.0)
    assert (row.true_positives, row.false_positives, row.kind_errors) == (0, 1, 1)


@pytest.mark.parametrize(
    ("read", "confusions", "face_hits"),
    [
        ((6, 9), 0, 2),
        ((9, 6), 2, 0),
        ((9, 9), 1, 1),
        ((0, 9), 0, 1),  # unknown is an error, not a 6/9 confusion
    ],
)
def test_six_nine_confusions(read: tuple[int, int], confusions: int, face_hits: int) -> None:
    scorer = Scorer(conf=0.4)
    found = detections(QUADS[:2], [FACE, FACE], [0.9, 0.9])
    colours = [0 if read[0] else -1, 3]
    found = found.with_identity(colour=colours, number=list(read), back=[None, None])
    scorer.add(truth(visible=(1.0, 0.9, 1.0)), found, found, 1.0, 1.0)
    summary = scorer.summary()
    assert summary.six_nine_confusion.hits == confusions
    assert summary.face_identity.hits == face_hits


def test_report_writes_csv_png_and_a_table(tmp_path: Path) -> None:
    scorer = Scorer(conf=0.4)
    found = detections(QUADS, [FACE, FACE, BACK], [0.9, 0.8, 0.7]).with_identity(
        colour=[0, 1, -1], number=[6, 2, 0], back=[None, None, "blue-blue"]
    )
    scorer.add(truth(), found, found, 3.0, 1.0)
    summary = scorer.summary()
    write_csv(scorer.rows, tmp_path / "rows.csv")
    confusion_png(summary, tmp_path / "confusion.png")
    lines = (tmp_path / "rows.csv").read_text().splitlines()
    assert lines[0].startswith("image,cards,detections")
    assert "face b9 read as y2" in lines[1] and "back red-red read as blue-blue" in lines[1]
    assert (tmp_path / "confusion.png").read_bytes()[:4] == b"\x89PNG"
    assert "mAP50-95" in table(summary)


def test_truth_is_read_from_label_json_and_finds_its_image(tmp_path: Path) -> None:
    (tmp_path / "images" / "heldout").mkdir(parents=True)
    (tmp_path / "scenes" / "heldout").mkdir(parents=True)
    (tmp_path / "images" / "heldout" / "a.jpg").write_bytes(b"")
    card = {"kind": "back", "colour": None, "number": None, "back": "x", "corners": QUADS[0].tolist(), "visible": 0.5}
    label = {"image": "images/heldout/a.jpg", "width": 640, "height": 640, "cards": [card]}
    (tmp_path / "scenes" / "heldout" / "a.json").write_text(json.dumps(label))
    (loaded,) = list(iter_truth(tmp_path))
    assert loaded.image == tmp_path / "images" / "heldout" / "a.jpg"
    assert loaded.kind.tolist() == [BACK] and loaded.back.tolist() == ["x"]
    assert loaded.width_px[0] == pytest.approx(60, abs=0.5)


def test_a_card_hidden_under_a_stack_is_not_asked_for_and_a_box_on_it_is_no_false_positive() -> None:
    scorer = Scorer(conf=0.4)
    hidden = obb_to_quads([[900, 500, 60, 92, 0.0]])
    cards = [
        {"kind": k, "colour": c, "number": n, "back": b, "corners": q.tolist(), "visible": v}
        for k, c, n, b, q, v in [
            ("face", "red", 6, None, QUADS[0], 1.0),
            ("face", "red", 5, None, QUADS[0] + 2, 0.02),  # the card under it, all but hidden
            ("face", "blue", 2, None, hidden[0], 0.05),
        ]
    ]
    labels = Truth.from_cards(Path("s.jpg"), cards)
    found = detections(np.concatenate([QUADS[:1], hidden]), [FACE, FACE], [0.9, 0.8])
    row = scorer.add(labels, found, found, 1.0, 1.0)
    summary = scorer.summary()
    assert (row.cards, row.true_positives, row.false_positives, row.missed) == (1, 1, 0, 0)
    assert summary.map50_95 == pytest.approx(1.0)
    assert summary.recall_by_visibility["<15% (not asked)"].total == 2


def test_a_box_of_a_kind_the_picture_does_not_have_is_a_false_positive() -> None:
    scorer = Scorer(conf=0.4)
    faces_only = Truth.from_cards(
        Path("s.jpg"), [{"kind": "face", "colour": "red", "number": 1, "corners": QUADS[0].tolist(), "visible": 1.0}]
    )
    found = detections(QUADS[1:2], [BACK], [0.9])
    row = scorer.add(faces_only, found, found, 1.0, 1.0)
    assert (row.true_positives, row.false_positives, row.missed) == (0, 1, 1)
    assert scorer.summary().map50_95 == 0.0

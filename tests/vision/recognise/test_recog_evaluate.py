"""Identity accuracy and confusion matrices for faces and backs."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision.recognise.evaluate import face_label, identity_report


@pytest.mark.parametrize(
    ("truth", "predicted", "accuracy", "six_nine"),
    [
        (["r6", "g9"], ["r6", "g9"], 1.0, 0.0),
        (["r6", "g9"], ["r9", "g6"], 0.0, 1.0),
        (["r6", "r6", "b1", "b1"], ["y6", "r6", None, "b1"], 0.5, 0.0),  # colour wrong is not a 6/9 swap
        (["y10", "y1"], ["y1", "y10"], 0.0, 0.0),
    ],
)
def test_face_report_counts_accuracy_and_six_nine_swaps(
    truth: list[str], predicted: list[str | None], accuracy: float, six_nine: float
) -> None:
    report = identity_report(truth, predicted)
    assert report.accuracy == pytest.approx(accuracy)
    assert report.six_nine_confusion() == pytest.approx(six_nine)
    assert report.confusion.shape == (40, 41)


def test_back_report_uses_given_labels_and_counts_no_answer_as_unknown() -> None:
    report = identity_report(["a", "a", "b"], ["a", None, "a"], labels=["a", "b"])
    assert report.per_class() == {"a": 0.5, "b": 0.0}
    assert report.unknown_rate == pytest.approx(1 / 3)
    assert report.worst(1) in ([("a", "unknown", 1)], [("b", "a", 1)])


@pytest.mark.parametrize(("colour", "number", "label"), [(0, 1, "r1"), (3, 10, "b10"), (-1, 5, None), (2, 0, None)])
def test_face_label_is_card_notation_or_none(colour: int, number: int, label: str | None) -> None:
    assert face_label(colour, number) == label


def test_confusion_matrix_picture_is_written(tmp_path: Path) -> None:
    path = tmp_path / "confusion.png"
    identity_report(["r1", "r2"], ["r1", "r1"]).save_png(path)
    image = cv2.imread(str(path))
    assert image is not None and image.shape[0] > 40 * 14

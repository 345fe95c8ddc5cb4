"""CardDetections: the shared array dataclass every vision stage speaks."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import BACK, FACE, CardDetections

QUAD = [[10.0, 10.0], [69.0, 10.0], [69.0, 101.0], [10.0, 101.0]]


def three_cards() -> CardDetections:
    return CardDetections.from_quads([QUAD, QUAD, QUAD], kind=[FACE, BACK, FACE], confidence=[0.9, 0.5, 0.2])


def test_empty_has_no_cards_and_well_typed_arrays() -> None:
    dets = CardDetections.empty()
    assert len(dets) == 0
    assert dets.corners.shape == (0, 4, 2)
    assert dets.cards_json() == []


@pytest.mark.parametrize(
    ("index", "expected_conf"),
    [
        (np.array([True, False, True]), [0.9, 0.2]),
        (np.array([2, 0]), [0.2, 0.9]),
        (slice(1, None), [0.5, 0.2]),
        (1, [0.5]),
    ],
)
def test_indexing_selects_parallel_rows(index: object, expected_conf: list[float]) -> None:
    picked = three_cards()[index]
    assert picked.confidence.tolist() == pytest.approx(expected_conf)
    assert len(picked.kind) == len(picked.back) == len(expected_conf)


def test_confidence_mask_filters_like_supervision() -> None:
    dets = three_cards()
    assert len(dets[dets.confidence > 0.4]) == 2


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("corners", np.zeros((3, 4), np.float32), "corners has shape"),
        ("kind", np.zeros(2, np.int8), "kind has shape"),
        ("confidence", np.zeros(3, np.float64), "confidence has dtype"),
        ("kind", np.full(3, 5, np.int8), "kind must hold only"),
        ("back", [None, None, None], "back must be a numpy array"),
        ("runner_up", np.zeros(3, np.int8), "runner_up has shape"),
    ],
)
def test_bad_arrays_are_rejected_with_the_field_named(field: str, value: object, message: str) -> None:
    good = three_cards()
    arrays = {name: getattr(good, name) for name in good.__dataclass_fields__}
    arrays[field] = value
    with pytest.raises(ValueError, match=message):
        CardDetections(**arrays)


def test_identity_fills_the_detect_json_contract() -> None:
    dets = three_cards().with_identity(
        colour=[3, -1, -1], number=[6, 0, 0], back=[None, "classic", None], identity_confidence=[0.99, 0.8, 0.1]
    )
    cards = dets.cards_json()
    assert cards[0] == {
        "kind": "face",
        "colour": "blue",
        "number": 6,
        "back": None,
        "corners": QUAD,
        "confidence": pytest.approx(0.9),
    }
    assert (cards[1]["kind"], cards[1]["back"], cards[1]["colour"]) == ("back", "classic", None)
    assert (cards[2]["colour"], cards[2]["number"]) == (None, None)


def test_concatenate_keeps_order() -> None:
    both = CardDetections.concatenate([three_cards()[0], three_cards()[2]])
    assert both.confidence.tolist() == pytest.approx([0.9, 0.2])

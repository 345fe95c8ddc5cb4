"""A card lying still where it was read keeps its reading; anything that moved, changed or aged is read again."""

from __future__ import annotations

import numpy as np

from vision.detections import BACK, FACE, CardDetections
from vision.recognise.memo import ReadingMemo

STACK = np.array([[100, 100], [140, 100], [140, 160], [100, 160]], np.float32)
OTHER = STACK + np.float32([300, 0])


def found(*quads: np.ndarray, kind: int = FACE) -> CardDetections:
    return CardDetections.from_quads(np.array(quads), [kind] * len(quads), [0.9] * len(quads))


def read_as(cards: CardDetections, *numbers: int) -> CardDetections:
    n = len(cards)
    return cards.with_identity(colour=[1] * n, number=list(numbers), identity_confidence=[0.95] * n)


def settled(n: int, t: float) -> np.ndarray:
    """Pictures still since well before ``t``."""
    return np.full(n, t - 1.0)


def memo_of(cards: CardDetections, *numbers: int, t: float = 1.0) -> ReadingMemo:
    memo = ReadingMemo()
    memo.remember(cards.corners, read_as(cards, *numbers), since=settled(len(cards), t), t=t)
    return memo


def test_a_still_card_found_in_the_same_box_keeps_its_reading() -> None:
    memo = memo_of(found(STACK, OTHER), 4, 9)
    known, reading = memo.recall(found(OTHER + 1.5, STACK - 1.0), since=np.array([0.2, 0.9]), t=1.5)
    assert known.tolist() == [True, True]
    assert reading.number.tolist() == [9, 4]


def test_a_card_whose_picture_changed_since_its_reading_is_read_again() -> None:
    memo = memo_of(found(STACK), 4)
    known, reading = memo.recall(found(STACK), since=np.array([1.1]), t=1.5)  # a card slapped on top at 1.1 s
    assert known.tolist() == [False]
    assert len(reading) == 0


def test_unknown_change_is_change() -> None:
    """The clock says NaN while the camera shakes: nothing is taken as still then."""
    memo = memo_of(found(STACK), 4)
    assert memo.recall(found(STACK), since=np.array([np.nan]), t=1.5)[0].tolist() == [False]


def test_a_card_in_another_box_or_of_another_kind_is_another_card() -> None:
    memo = memo_of(found(STACK), 4)
    nudged = memo.recall(found(STACK + 6.0), since=np.array([0.0]), t=1.5)[0]
    turned = memo.recall(found(STACK, kind=BACK), since=np.array([0.0]), t=1.5)[0]
    assert nudged.tolist() == [False]
    assert turned.tolist() == [False]


def test_a_reading_is_not_kept_past_its_age() -> None:
    memo = memo_of(found(STACK), 4, t=1.0)
    assert memo.recall(found(STACK), since=np.array([0.0]), t=1.0 + memo.max_age_s + 0.1)[0].tolist() == [False]


def test_two_boxes_on_one_remembered_card_are_both_read() -> None:
    memo = memo_of(found(STACK), 4)
    known, _ = memo.recall(found(STACK, STACK + 1.0), since=np.array([0.0, 0.0]), t=1.5)
    assert known.tolist() == [False, False]


def test_a_new_reading_replaces_the_old_one_of_its_box() -> None:
    memo = memo_of(found(STACK), 4, t=1.0)
    memo.remember(found(STACK + 1.0).corners, read_as(found(STACK + 1.0), 5), since=settled(1, 2.0), t=2.0)
    known, reading = memo.recall(found(STACK), since=np.array([1.5]), t=2.5)
    assert len(memo) == 1
    assert known.tolist() == [True]
    assert reading.number.tolist() == [5]


def test_a_kept_reading_takes_the_detectors_confidence_of_now() -> None:
    memo = memo_of(found(STACK), 4)
    now = CardDetections.from_quads(STACK[None], [FACE], [0.42])
    _, reading = memo.recall(now, since=np.array([0.0]), t=1.5)
    assert reading.confidence.tolist() == [np.float32(0.42)]
    assert reading.identity_confidence.tolist() == [np.float32(0.95)]


def test_a_reading_of_a_picture_that_just_changed_is_not_remembered() -> None:
    """Just after a card lands its box straddles the card under it and a hand may still be leaving."""
    memo = ReadingMemo()
    memo.remember(found(STACK).corners, read_as(found(STACK), 4), since=np.array([0.9]), t=1.0)
    assert len(memo) == 0
    assert memo.recall(found(STACK), since=np.array([0.9]), t=1.5)[0].tolist() == [False]


def test_only_sure_readings_are_remembered() -> None:
    cards = found(STACK, OTHER)
    unsure = read_as(cards, 4, 9).with_identity(identity_confidence=[0.95, 0.5])
    backs = found(STACK, OTHER, kind=BACK).with_identity(back=["red-red", None], identity_confidence=[0.6, 0.6])
    memo = ReadingMemo()
    memo.remember(cards.corners, unsure, since=settled(2, 1.0), t=1.0)
    assert memo.recall(cards, since=settled(2, 1.0), t=1.5)[0].tolist() == [True, False]
    memo = ReadingMemo()
    memo.remember(backs.corners, backs, since=settled(2, 1.0), t=1.0)
    assert memo.recall(found(STACK, OTHER, kind=BACK), since=settled(2, 1.0), t=1.5)[0].tolist() == [True, False]

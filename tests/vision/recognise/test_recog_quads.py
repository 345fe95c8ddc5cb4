"""Reading cards through a detector's rough boxes: candidate quads, the most confident reading, its quad."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.backs import Catalogue
from referee.cards import COLOURS, Card
from vision.detections import BACK, FACE, CardDetections
from vision.recognise.augment import detector_box
from vision.recognise.photos import card_quad, place, table
from vision.recognise.quads import CARD_ASPECT, card_shaped, labelled_like, past_the_edge, reading_candidates
from vision.recognise.recogniser import Recogniser
from vision.recognise.refine import fit_face
from vision.render.back_art import BackLook, render_back
from vision.render.card_art import FaceStyle, render_face


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance in the best cyclic labelling (a face's top is known only up to a turn)."""
    return min(float(np.linalg.norm(np.roll(quad, k, 0) - truth, axis=1).mean()) for k in range(4))


def _quarter_turned(quad: np.ndarray) -> np.ndarray:
    """The card's outline turned by 90 degrees about its centre: a box lying across the card."""
    centre = quad.mean(axis=0)
    return ((quad - centre) @ np.array([[0, 1], [-1, 0]], np.float32) + centre).astype(np.float32)


@pytest.mark.parametrize(
    ("centre", "size", "angle"),
    [((100.0, 80.0), (60.0, 60.0), 0.0), ((50.0, 50.0), (40.0, 90.0), 30.0), ((200.0, 90.0), (120.0, 50.0), -70.0)],
)
def test_card_shaped_boxes_keep_centre_area_and_angle_with_a_cards_aspect(
    centre: tuple[float, float], size: tuple[float, float], angle: float
) -> None:
    box = np.float32(cv2.boxPoints((centre, size, angle)))
    for long_first in (True, False):
        shaped = card_shaped(box, long_first)
        (cx, cy), (w, h), turned = cv2.minAreaRect(shaped)
        assert (cx, cy) == pytest.approx(centre, abs=0.5)
        assert w * h == pytest.approx(size[0] * size[1], rel=0.02)
        assert max(w, h) / min(w, h) == pytest.approx(CARD_ASPECT, rel=0.01)
        assert (turned - angle) % 90 == pytest.approx(0, abs=0.5) or (turned - angle) % 90 == pytest.approx(90, abs=0.5)


def test_one_card_shaped_candidate_of_a_quarter_turned_box_is_the_card() -> None:
    card = card_quad((150, 120), 60, 25)
    candidates = reading_candidates(_quarter_turned(card))
    assert min(_corner_error(c, card) for c in candidates) < 0.5
    assert _corner_error(candidates[0], card) > 5  # the box itself is not


def _turning(quad: np.ndarray) -> float:
    """Twice the signed area: its sign says which way round the corners run."""
    return float(np.sum(quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]))


@pytest.mark.parametrize("angle", [0.0, 35.0, 90.0, 160.0, 250.0])
def test_every_candidate_runs_the_same_way_round_as_the_box(angle: float) -> None:
    """A candidate labelled the other way round would be read mirrored (digits back to front)."""
    picture = table(300, 400)
    card = card_quad((200, 150), 70, angle)
    cv2.fillConvexPoly(picture, np.round(card).astype(np.int32), (0, 0, 220))  # a red face: the colour fit runs
    box = card_quad((204, 147), 74, angle + 12)
    fit = fit_face(picture, box)
    assert fit is not None
    candidates = reading_candidates(box, fit.quad)
    assert len(candidates) == 4  # the box, two card-shaped ones and the colour fit
    assert all(np.sign(_turning(c)) == np.sign(_turning(box)) for c in candidates)


def test_a_candidate_keeps_the_detections_own_labelling() -> None:
    card = card_quad((150, 120), 60, 25)
    assert np.allclose(labelled_like(np.roll(card, 1, axis=0), card), card)


@pytest.mark.parametrize("seed", range(3))
def test_detector_like_boxes_are_rough_but_labelled_like_the_card(seed: int) -> None:
    card = card_quad((200, 200), 59, 40)
    rng = np.random.default_rng(seed)
    boxes = np.array([detector_box(card, rng) for _ in range(400)])
    errors = np.linalg.norm(boxes - card, axis=2).mean(axis=1)  # no relabelling: the labelling must match
    assert 3 < float(np.median(errors)) < 12  # a few px off like the shipped detector, not exact, not lost
    assert np.linalg.norm(boxes.mean(axis=(0, 1)) - card.mean(axis=0)) < 2  # centred on the card on average


FACES = ["r10", "y6", "b8", "g9", "y3", "r1"]
BACKS = ["red-light-blue", "blue-purple", "green-brown"]


@pytest.fixture(scope="module")
def rough_table() -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray], list[str]]:
    """Faces and default backs on a table, with true outlines and rough boxes: faces' boxes turned a quarter
    about the card's centre (near-square cards leave a detector unsure which way is long), backs' boxes
    shifted by 12 % of the width and turned by 8 degrees."""
    rng = np.random.default_rng(11)
    style = FaceStyle.random(rng)
    picture = table(600, 1000, (50, 80, 110))
    truths, boxes, names = [], [], []
    for i, name in enumerate(FACES + BACKS):
        centre = (110 + (i % 5) * 190, 150 + (i // 5) * 300)
        width, angle = 64 + 8 * (i % 3), float(rng.uniform(0, 360))
        quad = card_quad(centre, width, angle)
        if name in FACES:
            place(picture, render_face(Card.parse(name), 240, rng, style=style), quad)
            box = _quarter_turned(quad)
        else:
            place(picture, render_back(BackLook.for_design(Catalogue.default()[name]), 240, rng), quad)
            box = card_quad((centre[0] + 0.12 * width, centre[1]), width, angle + 8)
        truths.append(quad)
        boxes.append(box)
        names.append(name)
    return picture, truths, boxes, names


def _read(picture: np.ndarray, boxes: list[np.ndarray], names: list[str], search: bool = True) -> CardDetections:
    kinds = [FACE if n in FACES else BACK for n in names]
    return Recogniser(search=search)(picture, CardDetections.from_quads(boxes, kinds, np.ones(len(boxes))))


def _names(found: CardDetections) -> list[str]:
    return [
        f"{COLOURS[c].letter}{n}" if k == FACE else str(b)
        for k, c, n, b in zip(found.kind, found.colour, found.number, found.back, strict=True)
    ]


def test_quarter_turned_faces_and_offset_backs_read_right(
    shipped_models: None, rough_table: tuple[np.ndarray, list[np.ndarray], list[np.ndarray], list[str]]
) -> None:
    picture, _, boxes, names = rough_table
    assert _names(_read(picture, boxes, names)) == names


def test_a_searched_face_is_read_through_the_cards_own_outline(
    shipped_models: None,
    rough_table: tuple[np.ndarray, list[np.ndarray], list[np.ndarray], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("vision.recognise.recogniser.SURE_FACE", 1.01)  # no reading is sure: every face searched
    picture, truths, boxes, names = rough_table
    found = _read(picture, boxes, names)
    faces = len(FACES)
    errors = [_corner_error(q, t) for q, t in zip(found.corners[:faces], truths[:faces], strict=True)]
    assert max(errors) < 4  # the box lying across each card gave way to the card's outline
    assert _names(found)[:faces] == FACES


def test_without_the_search_each_card_keeps_its_own_box(
    shipped_models: None, rough_table: tuple[np.ndarray, list[np.ndarray], list[np.ndarray], list[str]]
) -> None:
    picture, _, boxes, names = rough_table
    assert np.allclose(_read(picture, boxes, names, search=False).corners, np.array(boxes))


def test_a_box_along_the_pictures_edge_is_continued_past_it_to_a_card() -> None:
    # the lower 45 % of a card lying upright at the top edge, and a card's left part at the right edge lying across
    upright = np.float32([[100, -1], [159, -1], [159, 40], [100, 40]])
    (card,) = past_the_edge(upright, (640, 480))
    sides = np.linalg.norm(card - np.roll(card, 1, axis=0), axis=1)
    assert sorted(sides.round().tolist()) == [59, 59, 91, 91]
    assert card[:, 1].max() == pytest.approx(40) and card[:, 1].min() < -40  # continued upwards, beyond the top
    across = np.float32([[600, 200], [640, 200], [640, 259], [600, 259]])
    assert [c[:, 0].max() > 660 for c in past_the_edge(across, (640, 480))] == [True]


def test_a_box_inside_the_picture_or_already_a_whole_card_is_not_continued() -> None:
    inside = np.float32([[100, 10], [159, 10], [159, 101], [100, 101]])
    assert past_the_edge(inside, (640, 480)) == []
    whole_at_edge = np.float32([[100, 0], [159, 0], [159, 91], [100, 91]])  # its long side across the edge
    assert past_the_edge(whole_at_edge, (640, 480)) == []

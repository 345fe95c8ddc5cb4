"""The recogniser stage: detections in, identities filled, whichever way up the cards lie."""

from __future__ import annotations

import numpy as np
import pytest

from referee.backs import Catalogue
from referee.cards import COLOURS, Card
from vision.detections import BACK, FACE, CardDetections
from vision.recognise.photos import card_quad, place, table
from vision.recognise.recogniser import Recogniser, portrait
from vision.render.back_art import BackLook, render_back
from vision.render.card_art import FaceStyle, render_face


@pytest.mark.parametrize(
    ("quad", "expected_first"),
    [
        ([[0, 0], [60, 0], [60, 90], [0, 90]], [0, 0]),  # already portrait
        ([[0, 90], [0, 0], [60, 0], [60, 90]], [60, 90]),  # landscape labelling: relabelled a quarter turn on
        ([[60, 90], [0, 90], [0, 0], [60, 0]], [60, 90]),  # upside down stays upside down (a face can't tell)
    ],
)
def test_portrait_makes_the_first_edge_a_short_side(quad: list[list[float]], expected_first: list[float]) -> None:
    assert portrait(quad)[0].tolist() == expected_first


FACES = ["r6", "r9", "g6", "b9", "y10", "b1", "g7", "y3"]
BACKS = ["red-pink", "blue-purple", "green-purple", "green-brown"]


@pytest.fixture(scope="module")
def table_picture() -> tuple[np.ndarray, CardDetections, list[str]]:
    """A 1280x720 table with faces at many angles (a few upside down in their labels) and four default backs."""
    rng = np.random.default_rng(4)
    style = FaceStyle.random(rng)
    picture = table(720, 1280, (40, 70, 110))
    quads, kinds, truth = [], [], []
    for i, name in enumerate(FACES + BACKS):
        centre = (120 + (i % 6) * 200, 170 + (i // 6) * 330)
        quad = card_quad(centre, 70 + 15 * (i % 4), angle := float(rng.uniform(0, 360)))
        if i < len(FACES):
            place(picture, render_face(Card.parse(name), 240, rng, style=style), quad)
        else:
            place(picture, render_back(BackLook.for_design(Catalogue.default()[name]), 240, rng), quad)
        labelled = np.roll(quad, 2, axis=0) if angle > 180 else quad  # the detector can't tell a face's top
        quads.append(labelled)
        kinds.append(FACE if i < len(FACES) else BACK)
        truth.append(name)
    return picture, CardDetections.from_quads(quads, kinds, np.ones(len(quads))), truth


def test_faces_and_backs_are_recognised_in_a_table_picture(
    shipped_models: None, table_picture: tuple[np.ndarray, CardDetections, list[str]]
) -> None:
    picture, detections, _ = table_picture
    found = Recogniser()(picture, detections)
    faces = [
        f"{COLOURS[c].letter}{n}" for c, n in zip(found.colour[: len(FACES)], found.number[: len(FACES)], strict=True)
    ]
    assert faces == FACES
    assert list(found.back[len(FACES) :]) == BACKS
    assert (found.identity_confidence > 0).all()
    assert list(found.back[: len(FACES)]) == [None] * len(FACES) and (found.colour[len(FACES) :] == -1).all()


def test_no_detections_pass_through(shipped_models: None) -> None:
    empty = CardDetections.empty()
    assert len(Recogniser()(np.zeros((10, 10, 3), np.uint8), empty)) == 0

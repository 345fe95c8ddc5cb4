"""The sightings adapter: a sure read becomes a card, an unsure one a face of unknown identity."""

import numpy as np
import pytest

from referee.cards import Card
from vision.detections import FACE, CardDetections
from vision.geometry import TableGeometry
from vision.sightings_adapter import MIN_IDENTITY, to_sightings

QUAD = [[0, 0], [59, 0], [59, 91], [0, 91]]


@pytest.mark.parametrize(
    ("identity", "card"),
    [(0.99, Card.parse("r5")), (MIN_IDENTITY, Card.parse("r5")), (MIN_IDENTITY - 0.01, None), (0.2, None)],
)
def test_a_face_is_a_card_only_when_read_surely(identity: float, card: Card | None) -> None:
    dets = CardDetections.from_quads([QUAD], [FACE], [0.9]).with_identity(
        colour=[0], number=[5], identity_confidence=[identity]
    )
    (sighting,) = to_sightings(dets, TableGeometry(np.eye(3)), t=0.0, frame=0).sightings
    assert (sighting.kind, sighting.card) == ("face", card)


def test_each_sighting_carries_when_its_picture_last_changed_when_the_clock_tells() -> None:
    dets = CardDetections.from_quads([QUAD, QUAD], [FACE, FACE], [0.9, 0.9]).with_identity(
        colour=[0, 1], number=[5, 6], identity_confidence=[0.99, 0.99]
    )
    geometry = TableGeometry(np.eye(3))
    told = to_sightings(dets, geometry, t=3.0, frame=90, still_since=np.array([2.5, np.nan])).sightings
    assert [s.still_since for s in told] == [2.5, None]
    assert all(s.still_since is None for s in to_sightings(dets, geometry, t=3.0, frame=90).sightings)


def test_each_sighting_carries_when_its_picture_last_came_to_rest_changed_and_from_what() -> None:
    dets = CardDetections.from_quads([QUAD, QUAD], [FACE, FACE], [0.9, 0.9]).with_identity(
        colour=[0, 1], number=[5, 6], identity_confidence=[0.99, 0.99]
    )
    geometry = TableGeometry(np.eye(3))
    told = to_sightings(dets, geometry, t=3.0, frame=90, rearranged=np.array([[2.8, 1.9], [np.nan, np.nan]]))
    assert [(s.rearranged_at, s.rearranged_from) for s in told.sightings] == [(2.8, 1.9), (None, None)]


def test_a_read_face_carries_its_runner_up_and_an_unread_one_none() -> None:
    dets = CardDetections.from_quads([QUAD, QUAD], [FACE, FACE], [0.9, 0.9]).with_identity(
        colour=[0, 0],
        number=[3, 3],
        identity_confidence=[0.78, 0.4],
        runner_up=[[0, 5], [0, 5]],
        runner_up_confidence=[0.22, 0.3],
    )
    read, unread = to_sightings(dets, TableGeometry(np.eye(3)), t=0.0, frame=0).sightings
    assert (read.card, read.runner_up, read.runner_up_confidence) == (
        Card.parse("r3"),
        Card.parse("r5"),
        pytest.approx(0.22),
    )
    assert (unread.card, unread.runner_up, unread.runner_up_confidence) == (None, None, 0.0)


def test_a_face_without_a_runner_up_has_none() -> None:
    dets = CardDetections.from_quads([QUAD], [FACE], [0.9]).with_identity(
        colour=[0], number=[3], identity_confidence=[0.99]
    )
    (sighting,) = to_sightings(dets, TableGeometry(np.eye(3)), t=0.0, frame=0).sightings
    assert (sighting.runner_up, sighting.runner_up_confidence) == (None, 0.0)

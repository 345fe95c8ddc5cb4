"""Table geometry: the plane recovered from card quads alone, the manual override file, and its errors."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from referee.sightings import card_quad
from vision.geometry import (
    CalibrationError,
    NoTableError,
    TableGeometry,
    Zones,
    centre_zone_from_seats,
    fit_from_cards,
    load_calibration,
    save_calibration,
)
from vision.render.camera import Camera

SIZE = (1280, 720)


def _camera(tilt: float, yaw: float = 0.0) -> Camera:
    return Camera.looking_at((0.0, 0.0), distance_mm=900.0, tilt_deg=tilt, focal_px=1000.0, size=SIZE, yaw_deg=yaw)


def _cards(rng: np.random.Generator, count: int, spread: float) -> list[tuple[float, float, float]]:
    return [
        (rng.uniform(-spread, spread), rng.uniform(-spread * 0.6, spread * 0.6), rng.uniform(-180, 180))
        for _ in range(count)
    ]


def _image_quads(camera: Camera, poses: list[tuple[float, float, float]], noise_px: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quads = np.array([camera.project(np.array(card_quad((x, y), a))) for x, y, a in poses])
    return quads + rng.normal(0.0, noise_px, quads.shape)


def _pairwise(points: np.ndarray) -> np.ndarray:
    return np.linalg.norm(points[:, None] - points[None], axis=-1)


@pytest.mark.parametrize(
    ("tilt", "yaw", "count", "noise_px", "tolerance"),
    [
        (0.0, 0.0, 6, 0.0, 0.01),  # straight down, exact corners: distances exact
        (0.0, 30.0, 6, 0.5, 0.03),  # turned camera, detector-like corner noise
        (25.0, 0.0, 8, 0.0, 0.01),  # tilted phone: the perspective must be recovered
        (25.0, -15.0, 10, 0.7, 0.04),
        (35.0, 10.0, 12, 0.5, 0.04),
    ],
)
def test_distances_between_cards_are_recovered_on_the_table_plane(tilt, yaw, count, noise_px, tolerance):
    rng = np.random.default_rng(count)
    poses = _cards(rng, count, 300.0)
    camera = _camera(tilt, yaw)
    geometry = fit_from_cards(_image_quads(camera, poses, noise_px, seed=count), SIZE)
    truth = np.array([(x, y) for x, y, _ in poses])
    found = geometry.to_table(_image_quads(camera, poses, 0.0, 0).mean(axis=1))
    far = _pairwise(truth) > 100.0
    relative = np.abs(_pairwise(found) - _pairwise(truth))[far] / _pairwise(truth)[far]
    assert relative.max() < tolerance
    assert geometry.source == "cards" and geometry.cards_used == count


def test_a_single_card_gives_its_true_size():
    camera = _camera(0.0, 20.0)
    quad = _image_quads(camera, [(50.0, 20.0, 10.0)], 0.0, 0)
    geometry = fit_from_cards(quad, SIZE)
    corners = geometry.to_table(quad[0])
    sides = sorted(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1))
    assert sides == pytest.approx([59.0, 59.0, 91.0, 91.0], abs=0.5)


def test_the_image_centre_is_the_table_origin():
    geometry = fit_from_cards(_image_quads(_camera(20.0), _cards(np.random.default_rng(3), 8, 250.0), 0.0, 0), SIZE)
    assert geometry.to_table([[SIZE[0] / 2, SIZE[1] / 2]])[0] == pytest.approx([0.0, 0.0], abs=1e-6)


def test_no_cards_is_no_table():
    with pytest.raises(NoTableError, match="no cards"):
        fit_from_cards(np.zeros((0, 4, 2)), SIZE)


def test_manual_calibration_round_trips_through_its_file(tmp_path: Path):
    image = [(100.0, 100.0), (1100.0, 120.0), (1000.0, 650.0), (150.0, 600.0)]
    table = [(-300.0, -200.0), (300.0, -200.0), (300.0, 200.0), (-300.0, 200.0)]
    path = tmp_path / "calibration.json"
    save_calibration(path, image, table)
    geometry = load_calibration(path)
    assert geometry.source == "manual"
    assert geometry.to_table(image) == pytest.approx(np.array(table), abs=1e-6)
    assert geometry.to_image(table) == pytest.approx(np.array(image), abs=1e-6)


def test_a_calibration_file_can_set_the_centre_zone(tmp_path: Path):
    path = tmp_path / "c.json"
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    path.write_text(json.dumps({"image_points": square, "table_points": square, "centre_radius_mm": 250}))
    zones = load_calibration(path).zones
    assert zones.contains_centre((0.0, 240.0)) and not zones.contains_centre((0.0, 260.0))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        ("[1, 2]", "expected an object"),
        (
            '{"image_points": [[0, 0], [1, 0], [1, 1]], "table_points": [[0, 0], [1, 0], [1, 1], [0, 1]]}',
            "'image_points' must be 4 points",
        ),
        ('{"image_points": [[0, 0], [1, 0], [1, 1], [0, 1]]}', "'table_points' must be 4 points"),
        (
            '{"image_points": [[0, 0], [1, 0], [2, 0], [0, 1]], "table_points": [[0, 0], [1, 0], [1, 1], [0, 1]]}',
            "three on one line",
        ),
        (
            '{"image_points": [[0, 0], [1, 0], [1, 1], [0, 1]], "table_points": [[0, 0], [1, 0], [1, 1], [0, 1]],'
            ' "centre_radius_mm": -3}',
            "centre_radius_mm must be a positive",
        ),
    ],
)
def test_a_malformed_calibration_file_names_the_problem(tmp_path: Path, content: str, message: str):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        load_calibration(path)


def test_a_missing_calibration_file_is_a_clear_error(tmp_path: Path):
    with pytest.raises(CalibrationError, match="cannot read calibration file"):
        load_calibration(tmp_path / "nowhere.json")


def _rows(*rows: tuple[tuple[float, float], tuple[float, float], int]) -> list[Any]:
    """Seat cards laid in rows: (first card's centre, step between cards, number of cards)."""
    return [card_quad((x + k * dx, y + k * dy)) for (x, y), (dx, dy), n in rows for k in range(n)]


def test_the_centre_zone_lies_inside_four_players_places_a_card_away_from_them():
    seats = [card_quad((0.0, 400.0)), card_quad((0.0, -400.0)), card_quad((400.0, 0.0)), card_quad((-400.0, 0.0))]
    zones = centre_zone_from_seats(TableGeometry(np.eye(3)), seats)
    assert zones.contains_centre((0.0, 0.0)) and zones.contains_centre((0.0, 250.0))
    assert not zones.contains_centre((0.0, 340.0))  # within a card of a seat card
    assert not zones.contains_centre((260.0, 260.0))  # outside the ring of players


def test_a_stack_between_two_uneven_rows_of_three_players_is_in_the_centre():
    # the sample round's layout: two rows slanting down from the top corners, one along the bottom; the stacks
    # lie high, between the top rows (a disc round the cards' mean, reaching to the nearest card, left them out)
    seats = _rows(((-330, -280), (-30, 60), 7), ((330, -280), (30, 60), 7), ((-200, 300), (60, 0), 7))
    zones = centre_zone_from_seats(TableGeometry(np.eye(3)), seats)
    for stack in ((0.0, -190.0), (150.0, -170.0), (-150.0, -120.0), (0.0, 150.0)):
        assert zones.contains_centre(stack), stack
    for row_card in ((-330.0, -280.0), (-200.0, 300.0), (400.0, -100.0)):
        assert not zones.contains_centre(row_card), row_card


def test_players_huddled_together_leave_a_disc_of_the_least_size():
    seats = [card_quad((0.0, 180.0)), card_quad((0.0, -180.0)), card_quad((180.0, 0.0)), card_quad((-180.0, 0.0))]
    zones = centre_zone_from_seats(TableGeometry(np.eye(3)), seats)
    assert zones.centre is not None
    assert max(math.hypot(x, y) for x, y in zones.centre) == pytest.approx(150.0, abs=1.0)


def test_without_seat_cards_in_view_the_whole_view_is_the_centre():
    assert centre_zone_from_seats(TableGeometry(np.eye(3)), np.zeros((0, 4, 2))) == Zones()


def test_two_players_facing_each_other_stack_beside_their_rows_too() -> None:
    # a seeded two-player round: rows of five across the table, a stack 35 mm beside the hull of the rows
    seats = _rows(((-140, -420), (70, 0), 5), ((-140, 420), (70, 0), 5))
    zones = centre_zone_from_seats(TableGeometry(np.eye(3)), seats)
    assert zones.contains_centre((-235.0, -49.0)) and zones.contains_centre((0.0, 0.0))
    for row_card in ((-140.0, -420.0), (140.0, 420.0), (0.0, 360.0)):
        assert not zones.contains_centre(row_card), row_card

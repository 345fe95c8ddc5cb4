"""Camera geometry and corner order: straight down or tilted, turned any way, with or without lens distortion."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Card
from vision.render.art import FlatArt
from vision.render.camera import Camera, focal_px_from_35mm
from vision.render.labels import quad_area
from vision.render.layouts import PlacedCard
from vision.render.scene import Scene, render

VIEWS = [
    # tilt, yaw, card angle, k1
    (0.0, 0.0, 0.0, 0.0),
    (0.0, 90.0, 30.0, 0.0),
    (20.0, 200.0, -75.0, 0.05),
    (45.0, 10.0, 170.0, 0.1),
    (35.0, 300.0, 95.0, -0.03),
]


def test_straight_down_camera_maps_millimetres_to_pixels_by_focal_over_distance() -> None:
    cam = Camera.looking_at((0.0, 0.0), 1000.0, 0.0, 800.0, (640, 480))
    pts = cam.project([[0.0, 0.0], [50.0, 0.0], [0.0, -25.0]])
    assert pts == pytest.approx(np.array([[320.0, 240.0], [360.0, 240.0], [320.0, 220.0]]))


def test_a_28mm_lens_on_a_1280_sensor_sees_about_65_degrees() -> None:
    focal = focal_px_from_35mm(28.0, 1280)
    assert np.degrees(2 * np.arctan(640 / focal)) == pytest.approx(65.5, abs=0.5)


@pytest.mark.parametrize(("tilt", "yaw", "angle", "k1"), VIEWS)
def test_projected_card_corners_run_clockwise_from_its_own_top_left(
    tilt: float, yaw: float, angle: float, k1: float
) -> None:
    cam = Camera.looking_at((0.0, 0.0), 450.0, tilt, 600.0, (480, 480), yaw, 0.0, k1)
    card = PlacedCard((10.0, -5.0), angle, Card.parse("g5"), "green-green")
    out = render(Scene.plain(cam, [card]), FlatArt())
    label = out.labels[0]
    assert quad_area(label.corners) > 0  # clockwise on screen (y down)
    # FlatArt paints a white bar near the card's own top edge, left of its middle.
    white = np.argwhere((out.image.min(axis=2) > 200) & (out.ids == 1))[:, ::-1].astype(float)
    assert len(white) > 10
    bar = white.mean(axis=0)
    tl, tr, br, bl = label.corners_array
    assert np.linalg.norm(bar - (tl + tr) / 2) < np.linalg.norm(bar - (bl + br) / 2)
    assert np.linalg.norm(bar - tl) < np.linalg.norm(bar - tr)
    assert label.visible == pytest.approx(1.0, abs=0.03)


@pytest.mark.parametrize("k1", [-0.03, 0.05, 0.12])
def test_distortion_of_a_point_is_undone_by_the_remap_source(k1: float) -> None:
    cam = Camera.looking_at((0.0, 0.0), 500.0, 10.0, 400.0, (640, 360), k1=k1, k2=0.01)
    pixels = np.array([[0.0, 0.0], [639.0, 359.0], [320.0, 10.0], [100.0, 300.0]])
    undistorted = np.column_stack(cam._undistorted_source(pixels[:, 0], pixels[:, 1]))
    assert cam.distort_pixels(undistorted) == pytest.approx(pixels, abs=1e-3)


def test_cropped_camera_sees_what_cropping_and_resizing_the_picture_shows() -> None:
    cam = Camera.looking_at((20.0, 0.0), 700.0, 25.0, 900.0, (1280, 720), 40.0)
    crop = cam.cropped(300.0, 100.0, 600.0, 600.0, (320, 320))
    points = [[0.0, 0.0], [80.0, -40.0], [-60.0, 70.0]]
    expected = (cam.project(points) - [300.0, 100.0]) * (320 / 600)
    assert crop.project(points) == pytest.approx(expected, abs=1e-6)


def test_a_tilted_camera_sees_the_far_side_smaller() -> None:
    cam = Camera.looking_at((0.0, 0.0), 600.0, 40.0, 800.0, (640, 640))
    assert cam.scale_px_per_mm((0.0, -200.0)) < cam.scale_px_per_mm((0.0, 0.0)) < cam.scale_px_per_mm((0.0, 200.0))


@pytest.mark.parametrize("round_top", [False, True])
def test_the_table_top_ends_at_its_edge_and_the_floor_shows_beyond(round_top: bool) -> None:
    from vision.render.table import table_mask

    cam = Camera.looking_at((0.0, 0.0), 1500.0, 0.0, 500.0, (400, 400))  # 1 px = 3 mm
    mask = table_mask(cam.size, cam.homography(), (300.0, 300.0), round_top)
    assert mask[200, 200] == pytest.approx(1.0)
    assert mask[200, 5] == pytest.approx(0.0) and mask[5, 5] == pytest.approx(0.0)
    corner_inside = 300 * 0.9 / 3  # 90% of the half-size, along the diagonal: in a square, not in a circle
    assert mask[int(200 - corner_inside), int(200 - corner_inside)] == pytest.approx(0.0 if round_top else 1.0)


def test_props_lie_under_the_cards_and_are_not_labelled() -> None:
    from dataclasses import replace

    from vision.render.props import ScoreSheet

    cam = Camera.looking_at((0.0, 0.0), 500.0, 0.0, 500.0, (320, 320))
    card = PlacedCard((0.0, 0.0), 10.0, None, "blue-blue")
    sheet = ScoreSheet((20.0, 0.0), 0.0, (148.0, 210.0), (245.0, 245.0, 245.0), (120.0, 40.0, 20.0), 1)
    bare = render(Scene.plain(cam, [card]), FlatArt())
    with_sheet = render(replace(Scene.plain(cam, [card]), props=(sheet,)), FlatArt())
    assert [label.visible for label in with_sheet.labels] == [label.visible for label in bare.labels]
    assert np.array_equal(with_sheet.ids, bare.ids)
    assert not np.array_equal(with_sheet.image, bare.image)

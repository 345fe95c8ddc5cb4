"""How the round videos' camera frames the table: every place and leftover line in view, cards as large as can be."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import CARD_WIDTH_MM
from referee.simulator import Round
from vision.render.camera import Camera
from vision.render.video_look import MIN_CARD_PX, VideoLook, frame_camera
from vision.render.video_timeline import Timeline

BACKS = ("red-red", "red-light-blue", "red-pink", "red-black")


def _timeline(players: int) -> Timeline:
    return Timeline.from_trace(Round(BACKS[:players], seed=1).play().trace_json())


def _inside(camera: Camera, points: np.ndarray) -> np.ndarray:
    px = camera.project(points)
    width, height = camera.size
    return (px[:, 0] >= 0) & (px[:, 0] < width) & (px[:, 1] >= 0) & (px[:, 1] < height)


def _card_px(camera: Camera) -> float:
    ends = camera.project([[0.0, 0.0], [CARD_WIDTH_MM, 0.0]])
    return float(np.hypot(*(ends[1] - ends[0])))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_players_are_filmed_along_the_long_side_every_place_and_leftover_in_view(seed: int) -> None:
    timeline = _timeline(2)
    camera = VideoLook.for_timeline(timeline, seed=seed).camera
    landmarks = np.asarray(timeline.landmarks, np.float64)
    assert _inside(camera, landmarks).all()
    # facing each other across the picture's width, the players' cards are well above the smallest size
    assert _card_px(camera) > 1.3 * MIN_CARD_PX
    seats = np.array([seat_place for seat_place in landmarks[::2]])
    across = camera.project(seats)
    assert np.ptp(across[:, 0]) > np.ptp(across[:, 1])


def test_four_players_are_filmed_corner_on_leaving_few_of_their_places_out() -> None:
    # square to the table, a camera keeping cards >= MIN_CARD_PX cuts the top and bottom seats' places and
    # leftover lines (13 of their 48 ends); turned by about 45 degrees it leaves out 5
    timeline = _timeline(4)
    framed = frame_camera(timeline, (1280, 720), "centre", 8.0, 0.0)
    landmarks = np.asarray(timeline.landmarks, np.float64)
    assert _card_px(framed) >= MIN_CARD_PX - 1.0
    assert _inside(framed, landmarks).sum() >= 7 / 8 * len(landmarks)


def test_a_turned_camera_films_the_table_from_its_other_end_as_close() -> None:
    timeline = _timeline(2)
    one = frame_camera(timeline, (1280, 720), "centre", 8.0, 0.0, turned=False)
    other = frame_camera(timeline, (1280, 720), "centre", 8.0, 0.0, turned=True)
    assert _card_px(one) == pytest.approx(_card_px(other), rel=0.02)
    middle = np.array([[0.0, 0.0]])
    a, b = one.project(middle)[0], other.project(middle)[0]
    seat = np.asarray(timeline.landmarks[0], np.float64)[None]
    # the first player's place lies on opposite sides of the picture's middle
    assert np.sign(one.project(seat)[0][0] - a[0]) == -np.sign(other.project(seat)[0][0] - b[0])


def test_a_held_out_look_draws_surfaces_lights_and_face_styles_training_never_sees() -> None:
    from vision.render.generate import pools
    from vision.render.lighting import HELDOUT_LIGHTS
    from vision.render.table import HELDOUT_SURFACES, VIDEO_SURFACES

    TRAIN_FACE_STYLES = pools("heldout").face_styles.start  # the held-out styles follow the trained ones

    timeline = _timeline(2)
    held = [VideoLook.for_timeline(timeline, seed, look="heldout") for seed in range(12)]
    trained = [VideoLook.for_timeline(timeline, seed) for seed in range(12)]
    assert all(look.surface in HELDOUT_SURFACES for look in held)
    assert all(look.surface in VIDEO_SURFACES for look in trained)  # never a check cloth added for the stills
    assert all(look.face_style >= TRAIN_FACE_STYLES for look in held)
    assert all(look.face_style < TRAIN_FACE_STYLES for look in trained)
    assert all(look.light.preset in HELDOUT_LIGHTS for look in held)
    assert not any(look.light.preset in HELDOUT_LIGHTS for look in trained)
    assert len({look.surface for look in held}) > 1
    # the round's camera is the look's own draw either way: the same seed frames the table alike
    assert held[0].camera == trained[0].camera


def test_an_unknown_look_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown look 'dusk'"):
        VideoLook.for_timeline(_timeline(2), 1, look="dusk")


def test_video_settings_refuse_an_unknown_look_by_name() -> None:
    from referee.errors import SetupError
    from vision.render.video import VideoSettings

    with pytest.raises(SetupError, match="unknown look 'dusk'"):
        VideoSettings(look="dusk").check()

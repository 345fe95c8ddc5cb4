"""Labels match pixels: what the JSON says lies where the picture shows it, for random scenes of every split."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import Colour
from vision.rectify import rectify
from vision.render.dataset import render_example, worker_art
from vision.render.export import MIN_VISIBLE, obb_lines
from vision.render.labels import CardLabel
from vision.render.layers import OCCLUDER_ID
from vision.render.scene import Rendered, Scene

HUE_DEG = {Colour.RED: 0.0, Colour.YELLOW: 50.0, Colour.GREEN: 140.0, Colour.BLUE: 212.0}
SCENES = (
    [(seed, "train") for seed in range(10)] + [(seed, "val") for seed in range(2)] + [(s, "heldout") for s in range(4)]
)


@pytest.fixture(scope="module")
def rendered() -> list[tuple[Scene, Rendered]]:
    return [render_example(seed, split) for seed, split in SCENES]


def _quad_mask(label: CardLabel, shape: tuple[int, ...], shrink: float = 0.0) -> np.ndarray:
    quad = label.corners_array
    centre = quad.mean(axis=0)
    quad = centre + (quad - centre) * (1.0 - shrink)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(quad * 8).astype(np.int32)], 1, shift=3)
    return mask.astype(bool)


def dominant_colour(pixels_bgr: np.ndarray) -> Colour | None:
    """The face colour whose hue most saturated pixels are nearest to (None: too few saturated pixels)."""
    hsv = cv2.cvtColor(pixels_bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV_FULL).reshape(-1, 3).astype(float)
    saturated = hsv[(hsv[:, 1] > 90) & (hsv[:, 2] > 40)]
    if len(saturated) < 20:
        return None
    hue = saturated[:, 0] * 360.0 / 256.0
    colours = list(HUE_DEG)
    centres = np.array([HUE_DEG[c] for c in colours])
    distance = np.abs((hue[:, None] - centres[None, :] + 180.0) % 360.0 - 180.0)
    votes = np.bincount(distance.argmin(axis=1), minlength=len(colours))
    return colours[int(votes.argmax())]


def test_every_well_visible_face_shows_its_labelled_colour(rendered: list[tuple[Scene, Rendered]]) -> None:
    checked = 0
    for _, out in rendered:
        for label in out.labels:
            if label.kind != "face" or label.visible < 0.6 or label.card is None:
                continue
            own = _quad_mask(label, out.image.shape) & (out.ids == label.index + 1)
            found = dominant_colour(out.image[own])
            if found is None:
                continue  # a card too small or too dark to have saturated pixels says nothing
            assert found == label.card.colour, f"card {label.index} labelled {label.card} looks {found}"
            checked += 1
    assert checked >= 30


def test_fully_visible_faces_have_their_colour_inside_the_quad_without_the_mask(
    rendered: list[tuple[Scene, Rendered]],
) -> None:
    """Pure pixels: the middle of the labelled quad shows the labelled colour (no id mask involved)."""
    checked = 0
    for _, out in rendered:
        for label in out.labels:
            if label.kind != "face" or label.visible < 0.95 or label.card is None:
                continue
            found = dominant_colour(out.image[_quad_mask(label, out.image.shape, shrink=0.15)])
            if found is not None:
                assert found == label.card.colour
                checked += 1
    assert checked >= 15


def test_every_well_visible_back_quad_holds_its_back(rendered: list[tuple[Scene, Rendered]]) -> None:
    """The picture cut out along a back's labelled quad correlates with that back's own art."""
    art = worker_art()
    checked = 0
    for _, out in rendered:
        for label in out.labels:
            if label.kind != "back" or label.visible < 0.9 or label.back is None:
                continue
            tl, tr, _, bl = label.corners_array
            width, height = round(np.linalg.norm(tr - tl)), round(np.linalg.norm(bl - tl))
            if height < 40:
                continue  # a small back keeps too little of its pattern to compare with the art
            # compare at the size the back has in the picture, so both lose the same detail
            crop = cv2.cvtColor(rectify(out.image, label.corners, width, height), cv2.COLOR_BGR2GRAY).astype(float)
            if crop.std() < 8:
                continue  # a blurred back has no pattern left to compare
            own = cv2.resize(art.back(label.back, height)[..., :3], (width, height), interpolation=cv2.INTER_AREA)
            own_grey = cv2.cvtColor(own, cv2.COLOR_BGR2GRAY)
            score = _correlation(crop, own_grey.astype(float))
            turned = _correlation(crop, own_grey.astype(float)[::-1, ::-1])
            assert score > 0.5, f"back {label.back} at {label.corners} correlates {score:.2f} with its art"
            # the first corner is the back's own top-left: the art turned half round fits worse (or as well)
            assert score >= turned - 0.02
            checked += 1
    assert checked >= 5


def test_card_pixels_lie_inside_their_labelled_quad(rendered: list[tuple[Scene, Rendered]]) -> None:
    for _, out in rendered:
        for label in out.labels:
            own = out.ids == label.index + 1
            total = int(own.sum())
            if total < 50:
                continue
            # one pixel of tolerance all round: antialiased edges round either way
            quad = cv2.dilate(_quad_mask(label, out.image.shape).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            inside = int((own & quad).sum())
            assert inside >= 0.99 * total, f"card {label.index}: {total - inside} of {total} pixels outside its quad"


def test_no_card_in_the_picture_is_missing_from_the_labels(rendered: list[tuple[Scene, Rendered]]) -> None:
    for scene, out in rendered:
        shown = {int(i) - 1 for i in np.unique(out.ids) if 0 < i != OCCLUDER_ID}
        labelled = {label.index for label in out.labels}
        assert shown <= labelled
        assert len(labelled) <= len(scene.cards)


def test_obb_labels_hold_exactly_the_cards_above_the_visibility_threshold(
    rendered: list[tuple[Scene, Rendered]],
) -> None:
    for scene, out in rendered:
        lines = obb_lines(out.labels, scene.camera.size)
        expected = [label for label in out.labels if label.visible >= MIN_VISIBLE]
        assert len(lines) == len(expected)
        assert [int(line.split()[0]) for line in lines] == [0 if lb.kind == "face" else 1 for lb in expected]
        # a card below the threshold really is mostly hidden: its own pixels are few
        for label in out.labels:
            if label.visible < MIN_VISIBLE:
                assert int((out.ids == label.index + 1).sum()) < MIN_VISIBLE * abs(_area(label)) + 1


def test_visible_fraction_is_one_for_a_lone_card_and_drops_under_another() -> None:
    from referee.cards import Card
    from vision.render.art import FlatArt
    from vision.render.camera import Camera
    from vision.render.layouts import PlacedCard
    from vision.render.scene import render

    cam = Camera.looking_at((0, 0), 400, 0, 500, (320, 320))
    below = PlacedCard((0.0, 0.0), 0.0, Card.parse("r1"), "red-red")
    above = PlacedCard((29.5, 0.0), 0.0, Card.parse("r2"), "red-red", 0.3)
    alone = render(Scene.plain(cam, [below]), FlatArt()).labels[0].visible
    covered = render(Scene.plain(cam, [below, above]), FlatArt()).labels
    assert alone == pytest.approx(1.0, abs=0.02)
    assert covered[0].visible == pytest.approx(0.5, abs=0.03)
    assert covered[1].visible == pytest.approx(1.0, abs=0.02)


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    m = max(2, a.shape[0] // 12)  # leave out the rim, where the table shows past the rounded corners
    return float(np.corrcoef(a[m:-m, m:-m].ravel(), b[m:-m, m:-m].ravel())[0, 1])


def _area(label: CardLabel) -> float:
    from vision.render.labels import quad_area

    return quad_area(label.corners)

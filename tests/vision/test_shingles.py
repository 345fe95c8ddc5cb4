"""A line of shingled cards measured in the picture: its extent from end to end, and the step its edges repeat at."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.shingles import measure_shingles

CARD = (40, 62)  # a card's width and height in pixels


def _line(
    n: int,
    step: int,
    *,
    angle: float = 0.0,
    table: tuple[int, int, int] = (40, 70, 110),
    pattern: bool = False,
    stripes: tuple[int, int, int] | None = None,
    back: tuple[int, int, int] = (60, 60, 220),
) -> tuple[np.ndarray, np.ndarray]:
    """A picture of ``n`` cards laid left to right ``step`` px apart, each over the last, turned by ``angle``
    degrees about the picture's middle; and each card's whole outline (N, 4, 2), as a detector boxes it.
    ``stripes``: a cloth striped diagonally in ``table`` and this colour, 24 px each."""
    picture = np.full((400, 640, 3), table, np.uint8)
    if stripes is not None:
        rows, cols = np.mgrid[0:400, 0:640]
        picture[((rows + cols) // 24) % 2 == 1] = stripes
    rng = np.random.default_rng(n * 100 + step)
    picture = np.clip(picture + rng.normal(0, 4, picture.shape), 0, 255).astype(np.uint8)  # the cloth's grain
    w, h = CARD
    x0, y0 = 320 - (step * (n - 1) + w) // 2, 200 - h // 2
    boxes = []
    for i in range(n):
        x = x0 + step * i
        cv2.rectangle(picture, (x, y0), (x + w, y0 + h), back, -1)
        if pattern:  # a back printed with thin stripes a quarter card apart
            for k in range(4, w, w // 4):
                cv2.line(picture, (x + k, y0 + 6), (x + k, y0 + h - 6), (150, 150, 255), 1)
        cv2.rectangle(picture, (x, y0), (x + w, y0 + h), (250, 250, 250), 2)
        boxes.append([[x, y0], [x + w, y0], [x + w, y0 + h], [x, y0 + h]])
    turn = cv2.getRotationMatrix2D((320.0, 200.0), angle, 1.0)
    picture = cv2.warpAffine(picture, turn, (640, 400), borderMode=cv2.BORDER_REFLECT)
    quads = np.asarray(boxes, np.float64)
    quads = np.concatenate([quads, np.ones((*quads.shape[:2], 1))], axis=2) @ turn.T
    return picture, quads


def _count(n: int, step: int, **kwargs: object) -> tuple[float, float]:
    picture, quads = _line(n, step, **kwargs)  # type: ignore[arg-type]
    measured = measure_shingles(picture, quads, float(CARD[0]))
    assert measured is not None
    step_found = measured.strongest_step()
    assert step_found is not None
    return measured.extent_px, step_found


@pytest.mark.parametrize(("n", "step"), [(3, 20), (6, 20), (9, 12), (12, 9), (5, 28)])
def test_the_line_runs_from_its_first_cards_outer_edge_to_its_last_and_its_edges_repeat_at_the_step(
    n: int, step: int
) -> None:
    extent, found = _count(n, step)
    assert extent == pytest.approx(step * (n - 1) + CARD[0], abs=3)
    assert found == pytest.approx(step, abs=1)


def test_a_line_lying_askew_is_measured_along_its_own_direction() -> None:
    extent, found = _count(7, 18, angle=35.0)
    assert extent == pytest.approx(18 * 6 + CARD[0], abs=6)  # the turned picture blurs each end by a pixel or two
    assert found == pytest.approx(18, abs=1)


def test_a_printed_pattern_on_the_backs_repeats_too_but_the_step_stays_among_the_candidates() -> None:
    picture, quads = _line(8, 20, pattern=True)
    measured = measure_shingles(picture, quads, float(CARD[0]))
    assert measured is not None
    assert any(abs(step - 20) <= 1 for step, _ in measured.steps)


def test_a_pale_line_on_a_striped_cloth_runs_as_far_as_its_cards_differ_from_each_of_the_cloths_colours() -> None:
    """A pale pink back on grey and green stripes lies near the stripes' mean colour, yet far from each stripe."""
    extent, found = _count(8, 14, stripes=(40, 100, 40), table=(175, 175, 175), back=(225, 215, 240))
    assert extent == pytest.approx(14 * 7 + CARD[0], abs=4)
    assert found == pytest.approx(14, abs=1)


def test_a_card_of_the_lines_colour_reaching_into_the_bands_end_leaves_the_table_its_median_colour() -> None:
    """A neighbour of the line's own back lying over part of the band's end lends the table the line's colour; the
    columns' median there is still the cloth's, so the line is measured all the same."""
    picture, quads = _line(6, 20)
    right, top, middle = int(quads[-1][1][0]), int(quads[-1][0][1]), int(quads[-1][:, 1].mean())
    cv2.rectangle(picture, (right + 14, top - 40), (right + 60, middle - 3), (60, 60, 220), -1)
    measured = measure_shingles(picture, quads, float(CARD[0]))
    assert measured is not None
    assert measured.extent_px == pytest.approx(20 * 5 + CARD[0], abs=3)


def test_boxes_on_bare_table_are_only_the_boxes_extent_with_no_step() -> None:
    """The picture bounds no line there: the extent is the boxes' own, marked unseen, and no edge repeats."""
    picture = np.full((400, 640, 3), (40, 70, 110), np.uint8)
    quads = np.asarray([[[x, 170], [x + 40, 170], [x + 40, 232], [x, 232]] for x in (280, 300, 320)], np.float64)
    measured = measure_shingles(picture, quads, 40.0)
    assert measured is not None and not measured.seen
    assert measured.extent_px == pytest.approx(80.0) and measured.steps == ()


def test_a_line_whose_back_matches_the_cloths_colours_runs_as_far_as_its_own_colours() -> None:
    """White cards printed black on a cloth of white dots on dark blue: every colour of the cards is one of the
    cloth's, so no threshold bounds the line, but each pixel lies nearer the cards' own colours or the cloth's.
    The detector missed the line's first card; its own colours run over it, where the boxes' extent stops short."""
    picture = np.full((300, 640, 3), (90, 20, 30), np.uint8)
    for y in range(10, 300, 30):
        for x in range(10, 640, 30):
            cv2.circle(picture, (x, y), 9, (250, 250, 250), -1)
    for i in range(6):
        x = 200 + 20 * i
        cv2.rectangle(picture, (x, 100), (x + 40, 162), (250, 250, 250), -1)
        for y in range(104, 160, 6):
            cv2.line(picture, (x + 4, y), (x + 36, y), (20, 20, 20), 2)
        cv2.rectangle(picture, (x, 100), (x + 40, 162), (20, 20, 20), 2)
    quads = np.asarray([[[x, 100], [x + 40, 100], [x + 40, 162], [x, 162]] for x in range(220, 301, 20)], np.float64)
    measured = measure_shingles(picture, quads, 40.0)
    assert measured is not None and not measured.seen
    assert measured.extent_px == pytest.approx(20 * 5 + 40, abs=4)  # the boxes' own: 120
    assert any(step == pytest.approx(20.0, abs=1.0) and strength >= 0.3 for step, strength in measured.steps)


def test_one_box_gives_no_direction_unless_the_caller_knows_it() -> None:
    picture, quads = _line(1, 20)
    assert measure_shingles(picture, quads, 40.0) is None
    measured = measure_shingles(picture, quads, 40.0, axis=(1.0, 0.0))
    assert measured is not None and measured.extent_px == pytest.approx(CARD[0], abs=3)


def test_an_extent_far_from_the_boxes_own_is_not_believed() -> None:
    # the picture holds three cards where six boxes lie (the other three as pale as the cloth): the colours' 80 px
    # are not this line's, so the extent is the boxes' 140 px, marked as not seen
    picture, _ = _line(3, 20)
    _, boxes = _line(6, 20)
    measured = measure_shingles(picture, boxes, float(CARD[0]))
    assert measured is not None and not measured.seen
    assert measured.extent_px == pytest.approx(20 * 5 + CARD[0])


def _cut_at_the_top(picture: np.ndarray, quads: np.ndarray, out_px: float) -> tuple[np.ndarray, np.ndarray]:
    """The picture cropped from above so that the boxes reach ``out_px`` pixels out of its top edge."""
    rows = round(float(quads[..., 1].min()) + out_px)
    shifted = quads.copy()
    shifted[..., 1] -= rows
    return np.ascontiguousarray(picture[rows:]), shifted


def test_a_line_whose_last_card_the_pictures_edge_cuts_a_little_is_still_measured() -> None:
    # a leftover line before a seat at the picture's edge: its last card's corner out of the picture
    picture, quads = _cut_at_the_top(*_line(6, 20, angle=-45.0), out_px=18.0)
    measured = measure_shingles(picture, quads, float(CARD[0]))
    assert measured is not None
    assert measured.extent_px == pytest.approx(20 * 5 + CARD[0], abs=8)


def test_a_line_running_far_out_of_the_picture_is_not_measured() -> None:
    picture, quads = _cut_at_the_top(*_line(6, 20, angle=-45.0), out_px=60.0)
    assert measure_shingles(picture, quads, float(CARD[0])) is None

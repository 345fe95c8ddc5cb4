"""The change gate: which frames must go through the detector, and which may reuse the last reading."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.change import ChangeClock, ChangeGate, Region

CLOTH = 90
CENTRE = Region.box(400, 200, 880, 520)


def table(*cards: tuple[int, int]) -> np.ndarray:
    """A 1280 x 720 cloth with 40 x 60 px white cards at the given top-left corners."""
    image = np.full((720, 1280, 3), CLOTH, np.uint8)
    for x, y in cards:
        image[y : y + 60, x : x + 40] = 250
    return image


def gate_says(frames: list[np.ndarray], region: Region | None = CENTRE, **settings: int) -> list[bool]:
    gate = ChangeGate(**settings)
    return [gate.needs_reading(frame, region) for frame in frames]


@pytest.mark.parametrize(
    ("scenario", "second", "read"),
    [
        ("nothing moved", table((500, 300)), False),
        ("a card landed in the centre", table((500, 300), (700, 400)), True),
        ("the card in the centre was taken back", table(), True),
        ("a card moved in a player's row, outside the centre", table((500, 300), (100, 600)), False),
        ("a card landed on the region's edge", table((500, 300), (860, 300)), True),
    ],
)
def test_a_frame_is_read_when_the_centre_changed(scenario, second, read):
    assert gate_says([table((500, 300)), second]) == [True, read], scenario


def test_without_a_region_a_change_anywhere_wakes_the_detector():
    assert gate_says([table((500, 300)), table((500, 300), (100, 600))], region=None) == [True, True]


@pytest.mark.parametrize("max_age", [2, 4, 8])
def test_a_still_table_is_read_again_every_max_age_frames(max_age):
    said = gate_says([table((500, 300))] * (2 * max_age + 1), max_age=max_age)
    assert [i for i, read in enumerate(said) if read] == [0, max_age, 2 * max_age]


def test_a_new_region_starts_afresh():
    gate = ChangeGate()
    still = table((500, 300))
    assert gate.needs_reading(still, CENTRE) is True
    assert gate.needs_reading(still, None) is True  # counting: the whole table matters now
    assert gate.needs_reading(still, None) is False


def test_the_change_needed_is_a_share_of_the_whole_frame_not_of_the_region():
    """A card covers the same thumbnail pixels whether the region is small or large: a tiny region must not
    make the gate more or less sensitive to one card."""
    small = Region.box(480, 280, 600, 420)
    before, after = table(), table((520, 320))
    assert gate_says([before, after], region=small) == gate_says([before, after], region=None) == [True, True]
    speck = table()
    speck[330:334, 530:534] = 250  # 4 x 4 px: noise, not a card
    assert gate_says([before, speck], region=small) == [True, False]


def test_only_changes_inside_a_slanted_region_count():
    """The centre zone seen in perspective is a slanted quadrilateral: a player's row in the corner of its box
    lies outside it."""
    diamond = Region(((640.0, 100.0), (1000.0, 360.0), (640.0, 620.0), (280.0, 360.0)))
    before = table((620, 330))
    in_the_corner = table((620, 330), (330, 150))  # inside the diamond's box, outside the diamond
    in_the_diamond = table((620, 330), (800, 340))
    assert gate_says([before, in_the_corner], region=diamond) == [True, False]
    assert gate_says([before, in_the_diamond], region=diamond) == [True, True]


@pytest.mark.parametrize(
    ("points", "bounds"),
    [
        ([[100, 50], [300, 90], [120, 80]], (100, 50, 300, 90)),
        ([[-50, -10], [2000, 900], [0, 700]], (0, 0, 1280, 720)),  # clipped to the picture
    ],
)
def test_region_around_points_is_their_hull(points, bounds):
    region = Region.around(points)
    assert len(region.corners) == 3 and region.bounds((720, 1280, 3)) == bounds


# ----------------------------------------------------------------------------------- the change clock


def card_outline(x: int, y: int) -> np.ndarray:
    return np.array([[[x, y], [x + 40, y], [x + 40, y + 60], [x, y + 60]]], float)


def test_the_clock_stamps_a_card_with_the_time_it_landed_and_keeps_it_while_it_lies_still():
    clock = ChangeClock()
    for t, frame in [(0.0, table()), (1.0, table()), (2.0, table((500, 300))), (3.0, table((500, 300)))]:
        clock.tick(frame, t)
    assert clock.since(card_outline(500, 300)).tolist() == [2.0]
    assert clock.since(card_outline(100, 100)).tolist() == [0.0]  # nothing ever changed there


def test_a_copy_slapped_ten_pixels_off_a_card_of_the_same_look_moves_the_clock():
    # the finer thumbnail sees the edges shift where the gate's coarse one would blur them away
    clock = ChangeClock()
    clock.tick(table((500, 300)), 0.0)
    clock.tick(table((500, 300), (510, 306)), 1.0)
    assert clock.since(card_outline(510, 306)).tolist() == [1.0]


def test_camera_noise_does_not_move_the_clock():
    rng = np.random.default_rng(3)
    clock = ChangeClock()
    still = table((500, 300)).astype(np.int16)
    for t in range(5):
        noisy = np.clip(still + rng.normal(0, 6, still.shape), 0, 255).astype(np.uint8)
        clock.tick(noisy, float(t))
    assert clock.since(card_outline(500, 300)).tolist() == [0.0]


def test_before_any_frame_the_clock_cannot_tell():
    assert np.isnan(ChangeClock().since(card_outline(0, 0))).all()


def test_a_camera_that_moves_makes_the_clock_say_it_cannot_tell_for_a_second():
    clock = ChangeClock()
    clock.tick(table((500, 300)), 0.0)
    clock.tick(table((540, 330)) // 3, 1.0)  # the whole picture shifts and darkens
    assert np.isnan(clock.since(card_outline(540, 330))).all()
    for t in (1.5, 2.1):
        clock.tick(table((540, 330)) // 3, t)
    assert clock.since(card_outline(540, 330)).tolist() == [1.0]  # steady again: everything changed at 1.0


def hand_over(image: np.ndarray, x: int, y: int) -> np.ndarray:
    """A dark hand (80 x 100 px) over the point (x, y)."""
    covered = image.copy()
    covered[y - 50 : y + 50, x - 40 : x + 40] = 30
    return covered


def play(clock: ChangeClock, frames: list[tuple[float, np.ndarray]], watch: Region | None = CENTRE) -> None:
    for t, frame in frames:
        clock.tick(frame, t, watch)


def textured(*cards: tuple[int, int], dx: int = 0, grain: bool = True) -> np.ndarray:
    """A cloth with a fixed grain 16 px across (or plain) and cards with a dark digit in their middle, the whole
    picture moved ``dx`` pixels right (the camera drifting)."""
    spots = np.random.default_rng(7).integers(40, 160, (45, 81)).astype(np.uint8)
    cloth = cv2.resize(spots if grain else np.full_like(spots, CLOTH), (1280 + 16, 720), interpolation=cv2.INTER_LINEAR)
    image = np.repeat(cloth[:, :, None], 3, axis=2)
    for x, y in cards:
        image[y : y + 60, x : x + 40] = 250
        image[y + 20 : y + 40, x + 10 : x + 30] = 40  # a digit
    return np.ascontiguousarray(image[:, 8 - dx : 8 - dx + 1280])


def test_a_card_that_comes_to_rest_rearranges_its_outline_when_it_settles():
    clock = ChangeClock()
    play(clock, [(0.0, table()), (0.5, table()), (1.0, table((500, 300))), (1.5, table((500, 300)))])
    assert clock.reading().rearranged_at(card_outline(500, 300)).tolist() == [1.5]


def test_a_hand_passing_over_a_card_leaves_it_as_it_lay():
    clock = ChangeClock()
    down = table((500, 300))
    play(clock, [(0.0, table()), (0.5, table()), (1.0, down), (1.5, down)])
    play(clock, [(2.0, hand_over(down, 520, 330)), (2.1, hand_over(down, 540, 330)), (2.5, down), (3.0, down)])
    assert clock.reading().rearranged_at(card_outline(500, 300)).tolist() == [1.5]  # still its landing


@pytest.mark.parametrize("cloth", ["plain", "grained"])
def test_a_copy_lifted_off_its_twin_rearranges_the_outline_again(cloth):
    # two copies slapped 12 px apart; the loser's, on top, taken back under a hand: its twin shows where it lies,
    # its digit 12 px from where the top one's was (on a plain cloth the cards are all the drift could go by)
    clock = ChangeClock()
    grain = cloth == "grained"
    twins, under = textured((500, 300), (512, 306), grain=grain), textured((500, 300), grain=grain)
    play(clock, [(0.0, textured(grain=grain)), (0.5, textured(grain=grain)), (1.0, twins), (1.5, twins)])
    play(clock, [(2.0, hand_over(twins, 520, 330)), (2.5, under), (3.0, under)])
    assert clock.reading().rearranged_at(card_outline(500, 300)).tolist() == [3.0]


def test_a_clock_watching_nowhere_keeps_no_pictures_and_finds_nothing_rearranged():
    clock = ChangeClock()
    play(clock, [(0.0, table()), (0.5, table()), (1.0, table((500, 300))), (1.5, table((500, 300)))], watch=None)
    assert np.isnan(clock.reading().rearranged_at(card_outline(500, 300))).all()


def test_a_camera_that_moves_forgets_how_the_table_lay():
    clock = ChangeClock()
    play(clock, [(0.0, table((500, 300))), (0.5, table((500, 300)))])
    play(clock, [(1.0, table((540, 330)) // 3), (1.5, table((540, 330)) // 3), (2.1, table((540, 330)) // 3)])
    assert np.isnan(clock.reading().rearranged_at(card_outline(540, 330))).all()


def test_a_camera_that_drifted_while_a_hand_passed_does_not_rearrange_the_card():
    clock = ChangeClock()
    play(clock, [(0.0, textured()), (0.5, textured()), (1.0, textured((500, 300))), (1.5, textured((500, 300)))])
    passing = hand_over(textured((500, 300)), 520, 330)
    play(clock, [(2.0, passing), (2.5, textured((500, 300), dx=2)), (3.0, textured((500, 300), dx=2))])
    assert clock.reading().rearranged_at(card_outline(502, 300)).tolist() == [1.5]  # still its landing


@pytest.mark.parametrize("size", [(720, 1280), (1080, 1920), (240, 320)])
def test_a_picture_halved_ahead_gives_the_very_clock_the_whole_picture_gives(size):
    # the decoder's thread halves each frame (Frame.half) so the clock need not: the same clock at every size
    def scene(t: float) -> np.ndarray:
        image = cv2.resize(textured(*([(500, 300)] if t >= 1.0 else [])), size[::-1], interpolation=cv2.INTER_AREA)
        return hand_over(image, size[1] * 3 // 4, size[0] * 3 // 4) if t == 2.0 else image

    times = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    whole, ahead = ChangeClock(), ChangeClock()
    for t in times:
        image = scene(t)
        half = cv2.resize(image, (size[1] // 2, size[0] // 2), interpolation=cv2.INTER_LINEAR)
        watch = Region.around([(0, 0), (size[1], 0), (size[1], size[0]), (0, size[0])])
        whole.tick(image, t, watch)
        ahead.tick(image, t, watch, half=half)
    outline = card_outline(500, 300) * (size[1] / 1280)
    np.testing.assert_array_equal(whole.reading().changed, ahead.reading().changed)
    np.testing.assert_array_equal(whole.reading().picture, ahead.reading().picture)
    np.testing.assert_array_equal(whole.reading().rearranged, ahead.reading().rearranged)
    assert whole.reading().since(outline).tolist() == [1.0]  # the card's landing, seen alike
    assert not np.isnan(ahead.reading().rearranged).all()  # and its settling


def test_a_stretch_longer_than_the_pictures_kept_is_seen_by_the_oldest_kept_not_its_last_moments_alone():
    # a pile still for seconds; the clock keeps its last second only, and the latest pictures of the stretch hold
    # the blurred edge of the hand that ended it (seed 108004, two players: a y5 read "rearranged" once the hand
    # left, and a misread "y3" on it passed for a card laid)
    pile = np.full((180, 320), 90, np.uint8)
    pile[75:90, 125:135] = 250
    edged = pile.copy()
    edged[75:90, 125:130] = 30
    clock = ChangeClock(history=3)
    clock._pictures = {2.0: pile, 2.9: edged, 3.0: edged}
    still = np.zeros(pile.shape, bool)
    differs = clock._differs(pile, calm=0.5, last=3.0, drifts={}, box=None, hidden=still)
    assert differs is not None and not differs.any()
    laid = pile.copy()
    laid[75:90, 125:135] = 160  # a card laid on it: it differs from every picture of the stretch
    differs = clock._differs(laid, calm=0.5, last=3.0, drifts={}, box=None, hidden=still)
    assert differs is not None and differs[75:90, 125:135].all()

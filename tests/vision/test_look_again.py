"""Looking again, closer, where a card came to rest and the frame's reading found none (vision.look_again)."""

from __future__ import annotations

import numpy as np

from vision.change import ChangeClock, ClockReading, Region
from vision.detections import CardDetections
from vision.look_again import LookAgain, unexplained_rests

CLOTH = 90
CENTRE = Region.box(400, 200, 880, 520)
CARD_AT = (600, 300)  # a 40 x 60 px card's top-left corner
CARD = np.array([[[600, 300], [640, 300], [640, 360], [600, 360]]], np.float32)
NOTHING = CardDetections.empty()
A_CARD = CardDetections.from_quads(CARD, kind=np.zeros(1, np.int8), confidence=np.ones(1, np.float32))


def picture(card: bool = False, hand: bool = False) -> np.ndarray:
    image = np.full((720, 1280, 3), CLOTH, np.uint8)
    if card:
        image[300:360, 600:640] = 250
    if hand:
        image[260:400, 560:700] = 30
    return image


class Table:
    """A clock watching the centre, fed 30 frames a second, and a closer look that finds the card when it lies
    there; counts its looks."""

    def __init__(self) -> None:
        self.clock = ChangeClock()
        self.t = self.now = 0.0
        self.card = False
        self.looks = 0
        self.again = LookAgain(card_px=40.0)

    def show(self, until: float, *, card: bool, hand: bool = False) -> None:
        self.card = card and not hand
        while self.t < until - 1e-9:
            self.clock.tick(picture(card, hand), self.t, CENTRE)
            self.now = self.t  # the frame last seen
            self.t += 1 / 30

    def look(self, spots):
        self.looks += 1
        return [A_CARD if self.card else NOTHING for _ in spots]

    def read(self, found: CardDetections = NOTHING) -> int:
        """The cards the closer looks add to the frame's reading ``found``."""
        return len(self.again.cards(self.clock.reading(), found, self.now, self.look))


def card_landed() -> Table:
    """A table where a card came down at 1 s and has lain still since (0.6 s)."""
    table = Table()
    table.show(1.0, card=False)
    table.show(1.6, card=True)
    return table


def test_a_card_at_rest_that_the_reading_missed_is_found_by_looking_closer():
    table = card_landed()
    assert table.read() == 1
    assert table.looks == 1


def test_a_card_the_reading_found_is_not_looked_at_again():
    table = card_landed()
    assert table.read(A_CARD) == 0
    assert table.looks == 0


def test_while_the_picture_lies_still_the_last_look_stands_without_looking():
    table = card_landed()
    table.read()
    table.show(3.0, card=True)
    assert [table.read(), table.read()] == [1, 1]
    assert table.looks == 1


def test_a_hand_over_the_card_hides_it_and_it_is_looked_at_again_once_the_hand_has_gone():
    table = card_landed()
    table.read()
    table.show(1.8, card=True, hand=True)
    assert table.read() == 0, "a hand over it: the picture there is not still, nothing is said of it"
    table.show(2.6, card=True)
    assert table.read() == 1
    assert table.looks == 2


def test_a_card_taken_away_is_let_go_and_its_empty_place_looked_at_only_a_few_times():
    table = card_landed()
    table.read()
    table.show(3.0, card=False)
    said = []
    for k in range(8):
        table.show(3.0 + 0.2 * (k + 1), card=False)
        said.append(table.read())
    assert said == [0] * 8
    assert table.looks <= 5


def test_a_rest_long_ago_or_smaller_than_a_good_share_of_a_card_is_no_spot():
    clock = ChangeClock()
    t = 0.0
    for until, image in [(1.0, picture()), (1.6, picture(card=True))]:
        while t < until:
            clock.tick(image, t, CENTRE)
            t += 1 / 30
    reading = clock.reading()
    assert len(unexplained_rests(reading, np.zeros((0, 4, 2)), card_px=40.0, now=t)) == 1
    assert unexplained_rests(reading, np.zeros((0, 4, 2)), card_px=40.0, now=t + 10) == []
    assert unexplained_rests(reading, np.zeros((0, 4, 2)), card_px=80.0, now=t) == [], "a card twice as wide"


def test_a_card_kept_that_the_reading_finds_again_after_a_hand_passed_needs_no_look():
    table = card_landed()
    table.read()
    table.show(1.8, card=True, hand=True)
    table.show(2.6, card=True)
    assert table.read(A_CARD) == 0, "the reading has it: nothing added twice"
    assert table.looks == 1
    assert table.read() == 1, "the reading loses it again: the picture changed since the last look, so it looks"
    assert table.looks == 2


def test_a_card_kept_that_looks_lost_under_a_resting_hand_is_looked_at_again_once_the_hand_has_gone():
    table = card_landed()
    table.read()
    table.show(2.4, card=True, hand=True)  # the hand comes and rests there, still for longer than a settling
    assert [table.read(), table.read(), table.read()] == [0, 0, 0], "under the hand, nothing is said of it"
    assert table.looks == 3, "two empty looks let it go; while nothing changes there, no more"
    table.show(3.2, card=True)  # the hand gone: the picture is the card's as before, no new rest to look at
    assert table.read() == 1, "its place is looked at once more, and the card found"
    assert table.looks == 4


def test_the_place_of_a_card_let_go_is_looked_at_once_more_only():
    table = card_landed()
    table.read()
    table.show(2.4, card=False, hand=True)
    table.read(), table.read()
    table.show(3.2, card=False)  # the hand took the card away
    assert [table.read(), table.read(), table.read()] == [0, 0, 0]
    assert table.looks == 4


def _rest_marked_in_pieces(gap: int) -> np.ndarray:
    """The clock's thumbnail (4 px each) where a 56 px card came to rest at 5 s, marked only in 3 x 3 pieces
    ``gap`` pixels apart: its colours and the cloth's alike (a green card on a blue check)."""
    rearranged = np.full((180, 320), np.nan)
    step = 3 + gap
    for y in range(40, 40 + 6 * step, step):
        for x in range(100, 100 + 4 * step, step):
            rearranged[y : y + 3, x : x + 3] = 5.0
    return rearranged


def test_a_rest_marked_in_pieces_a_pixel_apart_is_one_card_not_specks():
    pieces = _rest_marked_in_pieces(gap=1)
    clock = ClockReading(None, 6.0, 0.0, 8, pieces, pieces, 4)
    assert 9 < 0.4 * 1.54 * (56 / 4) ** 2, "each piece alone is far less than a good share of a card"
    [(x, y, t)] = unexplained_rests(clock, np.zeros((0, 4, 2)), card_px=56.0, now=6.0)
    assert (abs(x - 4 * 107.5) <= 4, abs(y - 4 * 51.5) <= 4, t) == (True, True, 5.0)


def test_pieces_joined_are_a_spot_only_once_settled():
    """A hand still setting a card down marks pieces too: a look there now would find nothing and leave the place
    alone while the card's own rest comes."""
    pieces = _rest_marked_in_pieces(gap=1)
    settling = ClockReading(None, 5.1, 0.0, 8, pieces, pieces, 4)
    assert unexplained_rests(settling, np.zeros((0, 4, 2)), card_px=56.0, now=5.1) == []
    settled = ClockReading(None, 5.4, 0.0, 8, pieces, pieces, 4)
    assert len(unexplained_rests(settled, np.zeros((0, 4, 2)), card_px=56.0, now=5.4)) == 1


def test_specks_further_apart_than_a_pixel_stay_specks():
    specks = _rest_marked_in_pieces(gap=3)
    clock = ClockReading(None, 6.0, 0.0, 8, specks, specks, 4)
    assert unexplained_rests(clock, np.zeros((0, 4, 2)), card_px=56.0, now=6.0) == []

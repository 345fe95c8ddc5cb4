"""Which of one frame's boxes on a pile are one card boxed twice (``StackTracker._one_box_per_card``).

Whole scenes rarely reach this step with the boxes as the detector gave them (the pile's poses move with every
reading), so these cases hand it one frame's readings directly: the top where the pile knows it, and a second
box of the same face that lies where none of its copies lie (a new copy, as the tracker would take it).
"""

from __future__ import annotations

from referee.cards import Card
from referee.sightings import Sighting
from referee.tracker.stacks import Pile, StackTracker, TrackerSettings, _Reading
from referee.tracker.voting import Ballot

R1, R2, R3 = Card.parse("r1"), Card.parse("r2"), Card.parse("r3")


def boxes_kept(second_at: tuple[float, float], second_angle: float) -> int:
    settings = TrackerSettings()
    pile = Pile(1, 0.0, 0.0, 43.0, 0.0, Ballot(settings.voting))
    pile.cards, pile.removable, pile.legal_top = [R1, R2, R3], [False] * 3, R3
    pile.poses = [(15.0, -5.0, 47.0), (16.2, -6.6, 47.5), (0.0, 0.0, 43.3)]
    top = _Reading(Sighting.face_at(R3, (0.0, 0.0), angle=43.3), element=2)
    second = _Reading(Sighting.face_at(R3, second_at, angle=second_angle), element=-1, copy=True)
    return len(StackTracker(settings)._one_box_per_card(pile, [top, second]))


def test_the_top_near_45_degrees_boxed_again_a_little_off_and_turned_a_little_is_one_card():
    # seed 100500, eight players: an r3 lying at 43 degrees boxed where it lies and again about 17-22 mm off,
    # turned 2-5 degrees more, in the same frames; the pair was "an r3 slapped on the r3"
    assert boxes_kept((10.0, -13.2), 45.7) == 1
    assert boxes_kept((18.0, -12.0), 48.0) == 1


def test_a_second_copy_of_the_top_lying_well_apart_is_two_cards():
    assert boxes_kept((33.0, 4.0), 50.0) == 2  # 33 mm off: a copy slapped beside it
    assert boxes_kept((12.0, -12.0), 58.0) == 2  # turned 15 degrees: a copy slapped on it, turned as hands do


R4, R7 = Card.parse("r4"), Card.parse("r7")


def kept_cards(new: Card, new_confidence: float, top_confidence: float) -> list[str]:
    """The cards kept of one frame's two boxes 3 mm apart, alike turned: the r3 on top, and a new face."""
    settings = TrackerSettings()
    pile = Pile(1, 0.0, 0.0, 61.0, 0.0, Ballot(settings.voting))
    pile.cards, pile.removable, pile.legal_top = [R1, R2, R3], [False] * 3, R3
    pile.poses = [None, None, (0.0, 0.0, 61.0)]
    top = _Reading(Sighting.face_at(R3, (0.0, 0.0), angle=61.0, identity_confidence=top_confidence), element=2)
    other = _Reading(Sighting.face_at(new, (-3.0, -2.0), angle=61.0, identity_confidence=new_confidence), element=-1)
    return sorted(str(r.card) for r in StackTracker(settings)._one_box_per_card(pile, [top, other]))


def test_the_card_due_next_boxed_where_the_top_is_and_read_far_more_surely_lies_on_it():
    # seed 108002, two players: an r4 laid on the r3, read 0.86 beside the mostly covered r3's 0.41 for 3 s, was
    # taken for a second box of the r3 (the card it covers reads poorly)
    assert kept_cards(R4, 0.86, 0.41) == ["r3", "r4"]
    assert kept_cards(R4, 0.86, 0.8) == ["r3"]  # read about as surely: one card read two ways, the pile's prior
    assert kept_cards(R7, 0.86, 0.41) == ["r3"]  # a card the rules do not expect there: the top misread

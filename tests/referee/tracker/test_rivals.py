"""Two players' arms at one card as it lands: a conflict, unless something else explains the second arm."""

from __future__ import annotations

import math

from referee.cards import Card
from referee.events import CardPlayed, Conflict
from referee.sightings import FrameSightings, Sighting
from referee.tracker import Referee
from referee.tracker.referee_session import RefereeSettings
from referee.tracker.rivals import ArmEnd
from referee.tracker.seats import SeatSorter
from referee.tracker.synthetic import ScriptedTable

RED, BLUE, GREEN, YELLOW = (0.0, 400.0), (0.0, -400.0), (400.0, 0.0), (-400.0, 0.0)
FROM_RED, FROM_GREEN = ArmEnd((5.0, 380.0), False), ArmEnd((640.0, 0.0), True)
"""Where an arm from red-red's seat and one from green-green's (off the picture's edge) run back to."""
HAND_BEYOND = ArmEnd((150.0, 0.0), False)
"""The hand's side of an arm reaching over the card to another stack: it ends short of any seat."""


def _referee(plays: list[tuple[str, float, tuple[float, float]]], until: float, *, full: bool = False) -> Referee:
    """A referee that saw ``plays`` (card, time, place); the seats red, blue and green (a fourth seat's place left
    empty) or, ``full``, a yellow one there too: every seat in the picture."""
    hands = [("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN), *([("yellow-yellow", YELLOW)] * full)]
    seats = SeatSorter.from_opening([Sighting.back_at(b, at) for b, at in hands], middle=(0.0, 0.0))
    zone = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=tuple(b for b, _ in hands))
    table = ScriptedTable(30.0)
    for card, t, at in plays:
        table.put(t, card, at)
    for frame in table.frames(until):
        referee.update(frame)
    return referee


def _played(referee: Referee, card: str) -> CardPlayed:
    return next(e for e in referee.events if isinstance(e, CardPlayed) and str(e.card) == card)


def test_an_arm_from_each_of_two_seats_at_a_card_as_it_lands_is_a_conflict_over_it() -> None:
    referee = _referee([("r1", 0.0, (0.0, 0.0)), ("r2", 1.0, (0.0, 0.0))], until=2.0)
    landing = _played(referee, "r2")
    (conflict,) = referee.see_rivals(landing, [[], [FROM_RED], [FROM_RED, FROM_GREEN], [FROM_RED, FROM_GREEN]] * 2)
    assert isinstance(conflict, Conflict)
    assert (conflict.t, conflict.stack, str(conflict.card)) == (landing.t, landing.stack, "r2")
    assert sorted(conflict.backs) == ["green-green", "red-red"]
    assert conflict in referee.events
    # told again (the loser's card seen lifted), it is the same conflict: said once
    assert referee.update(None) == [] and referee.see_rivals(landing, [[FROM_RED, FROM_GREEN]] * 4) == []


def test_too_few_frames_with_two_arms_or_one_arms_two_sides_say_nothing() -> None:
    referee = _referee([("r1", 0.0, (0.0, 0.0)), ("r2", 1.0, (0.0, 0.0))], until=2.0)
    landing = _played(referee, "r2")
    assert referee.see_rivals(landing, [[FROM_RED, FROM_GREEN]] * 2 + [[FROM_RED]] * 6) == []
    assert referee.see_rivals(landing, [[FROM_RED, HAND_BEYOND]] * 8) == []
    assert not any(isinstance(e, Conflict) for e in referee.events)


def test_a_second_arm_on_its_way_to_a_card_landing_beside_it_at_once_is_no_conflict() -> None:
    plays = [("r1", 0.0, (0.0, 0.0)), ("b1", 0.0, (120.0, 0.0)), ("r2", 1.0, (0.0, 0.0)), ("b2", 1.1, (120.0, 0.0))]
    referee = _referee(plays, until=2.0)
    assert referee.see_rivals(_played(referee, "r2"), [[FROM_RED, FROM_GREEN]] * 6) == []


def test_the_loser_taking_their_copy_back_as_the_next_card_lands_is_no_second_conflict() -> None:
    plays = [("r1", 0.0, (0.0, 0.0)), ("r2", 1.0, (0.0, 0.0)), ("r3", 2.0, (0.0, 0.0))]
    referee = _referee(plays, until=3.0)
    assert len(referee.see_rivals(_played(referee, "r2"), [[FROM_RED, FROM_GREEN]] * 4)) == 1
    assert referee.see_rivals(_played(referee, "r3"), [[FROM_RED, FROM_GREEN]] * 4) == []


# ---- a conflict the judge told by the loser's copy lifted (referee.tracker.judge) and what the arms say of it


def _lifted(landing: CardPlayed) -> Conflict:
    return Conflict(t=landing.t, frame=landing.frame, stack=landing.stack, card=landing.card, cards=(landing.card,) * 2)


def _lift_told(arms: list[list[ArmEnd]], *, full: bool) -> tuple[Conflict, list[object]]:
    """A conflict told by a lift on r2, the arms seen at r2 as it landed, and every event said by the end."""
    referee = _referee([("r1", 0.0, (0.0, 0.0)), ("r2", 1.0, (0.0, 0.0))], until=2.0, full=full)
    landing = _played(referee, "r2")
    lifted = _lifted(landing)
    assert referee._lift_vetted([lifted]) == []  # held: the landing's arms not judged yet
    said = [*referee.see_rivals(landing, arms), *referee.finish()]
    return lifted, said


def test_a_conflict_told_by_a_lift_stands_where_arms_came_from_two_seats_together_or_one_after_the_other() -> None:
    for arms in ([[FROM_RED], [FROM_RED, FROM_GREEN], [FROM_GREEN]], [[FROM_RED]] * 3 + [[]] * 3 + [[FROM_GREEN]]):
        lifted, said = _lift_told(arms, full=True)
        assert said.count(lifted) == 1


def test_a_conflict_told_by_a_lift_where_the_arms_came_from_one_seat_only_is_dropped() -> None:
    _, said = _lift_told([[FROM_RED]] * 6 + [[FROM_RED, HAND_BEYOND]] * 3, full=True)
    assert not any(isinstance(e, Conflict) for e in said)


def test_one_seat_s_arms_do_not_drop_it_where_the_picture_leaves_a_seat_out() -> None:
    # the loser may sit where the picture does not reach: their arm is not seen coming from a seat
    lifted, said = _lift_told([[FROM_RED]] * 6, full=False)
    assert said.count(lifted) == 1


def test_a_conflict_told_by_a_lift_with_no_arms_seen_at_a_table_in_full_view_is_dropped() -> None:
    # a hand lying still over the stack a moment, then leaving, rearranges the picture as a lift does; a second
    # player's arm would have shown (seed 108005, two players: a false conflict on a b4 that one player laid)
    _, said = _lift_told([[]] * 8, full=True)
    assert not any(isinstance(e, Conflict) for e in said)
    lifted, said = _lift_told([[]] * 8, full=False)  # a seat the picture leaves out: its arm may not show
    assert said.count(lifted) == 1


def test_a_conflict_told_by_a_lift_whose_arms_were_never_watched_is_told_as_before() -> None:
    referee = _referee([("r1", 0.0, (0.0, 0.0)), ("r2", 1.0, (0.0, 0.0))], until=2.0, full=True)
    lifted = _lifted(_played(referee, "r2"))
    assert referee._lift_vetted([lifted]) == []
    assert lifted in referee.finish()  # the source ended with no arms told about that landing


def test_a_conflict_told_by_a_lift_and_by_two_seats_arms_is_said_once() -> None:
    lifted, said = _lift_told([[FROM_RED, FROM_GREEN]] * 6, full=True)
    assert [e for e in said if isinstance(e, Conflict)] == [lifted]


# ---- a rival's copy taken back to their seat (SeatWatch.raced_and_lost)

RED_ROW, GREEN_ROW = (150.0, 390.0), (390.0, 150.0)
"""A place in red-red's row and one in green-green's."""
ARMS_AT_R2 = [(5.0, 250.0), (5.0, 300.0), (5.0, 330.0), (300.0, 5.0), (350.0, 5.0)]
"""Points back along the arms reaching the r2 as it landed: three frames from red-red's side, two from
green-green's (never two at once: the arms alone tell no conflict)."""


def _race(green_r2: list[tuple[float, float]], arms: list[tuple[float, float]] = ARMS_AT_R2) -> list[object]:
    """Every event said when red-red's r2 lands on the r1 at 1 s, its copy vanishing from red-red's row as it lands,
    while green-green's r2 is shown in its row over each of ``green_r2`` (from, until); the seats glanced at every
    half second, ``arms`` reaching the r2."""
    hands = [("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN)]
    seats = SeatSorter.from_opening([Sighting.back_at(b, at) for b, at in hands], middle=(0.0, 0.0))
    zone = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=tuple(b for b, _ in hands))
    table = ScriptedTable(30.0)
    table.put(0.0, "r1", (0.0, 0.0))
    table.put(1.0, "r2", (0.0, 0.0))
    said: list[object] = []
    for frame in table.frames(6.0):
        assert frame is not None
        said += referee.update(frame)
        if frame.frame % 15 == 0:
            shown = [("r2", RED_ROW)] * (frame.t < 1.0) + [("r2", GREEN_ROW)] * any(
                a <= frame.t < b for a, b in green_r2
            )
            faces = tuple(Sighting.face_at(Card.parse(card), at) for card, at in shown)
            referee.see_seats(FrameSightings(frame.t, frame.frame, faces))
        if frame.frame == 45:
            referee.see_arms(Card.parse("r2"), _played(referee, "r2").t, (0.0, 0.0), arms)
    return said


def test_a_rival_whose_copy_went_back_to_their_seat_after_the_landing_raced_for_the_stack_and_lost() -> None:
    said = _race([(0.0, 1.0), (2.0, 6.0)])
    (conflict,) = [e for e in said if isinstance(e, Conflict)]
    landing = next(e for e in said if isinstance(e, CardPlayed) and str(e.card) == "r2")
    assert (conflict.t, conflict.stack, str(conflict.card)) == (landing.t, landing.stack, "r2")
    assert conflict.backs == ("red-red", "green-green")


def test_a_copy_that_stayed_never_left_or_whose_seat_sent_no_arm_tells_no_race() -> None:
    assert not any(isinstance(e, Conflict) for e in _race([(0.0, 6.0)]))  # in view throughout
    assert not any(isinstance(e, Conflict) for e in _race([(0.0, 1.0)]))  # played elsewhere, or still in a hand
    assert not any(isinstance(e, Conflict) for e in _race([(0.0, 1.0), (1.4, 6.0)]))  # a glance missed it
    only_red = ARMS_AT_R2[:3]  # a hand over green-green's own row hid the copy a moment
    assert not any(isinstance(e, Conflict) for e in _race([(0.0, 1.0), (2.0, 6.0)], only_red))

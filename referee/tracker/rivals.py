"""Two players' arms at one landing: the conflict a camera cannot see in the cards.

When two players slap the same card onto a stack at once, the two copies land within a card's width of each other
and the loser's lies under their hand until they take it back: neither the faces nor the stack's picture change
the way a play does (rendered rounds at seeds 101000-101006, four players: of 13 conflicts the stack's picture told
3). What does show is the two arms: in the frames round the landing, an arm from each of two seats reaches the
card. :func:`rival_hands` tells them from the arms that only look like two:

- an arm passing over the card on its way to another stack reaches out on both sides of it; the side with its
  hand ends short of any seat (:data:`SEAT_REACH`);
- an arm's own edge, shadow or fingers spread lie within :data:`vision.reach.APART_DEG` of it, and reach the same
  seat.

The caller (:meth:`referee.tracker.Referee.see_rivals`) leaves out the landings another landing explains (an
arm on its way to a card put down beside it at the same moment) and the loser's arm taking its card back as the
next card lands.

Those rounds replayed (``ligretto eval-referee --seeds 101000-101006 --players 4 --fast-bots``): 9 of the 13
conflicts said with the arms and the lift together, 14 said in all, against 3 and 7 with the lift alone; seeds
101007-101013, looked at only once the thresholds were chosen: 7 of 17 and 14 said, against 4 and 7.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from referee.sightings import Point
from referee.tracker.seats import Hand

RIVAL_FRAMES = 3
"""Frames with an arm from each of two seats at the card, at 30 frames a second: both hands are over the stack
from a few frames before the landing until the winner's lets go (a tenth of a second or so)."""
RIVAL_BEFORE_S = 0.15
RIVAL_AFTER_S = 0.4
"""The frames looked at round a landing's time."""
RIVAL_TOLD_S = 1.0
"""How long after a landing its arms are judged: the cards landing round it by then have been said (the referee
says a card a few tenths of a second after it lands), so that one of them can explain a second arm."""
SEAT_REACH = 0.85
"""An arm from a seat runs back at least this share of its hand stack's distance from the middle (or off the
picture); a hand's side of an arm passing over the card ends nearer the middle (the rounds above, hands 460-570 mm
from the middle: arms from a seat ran 490-680 mm back when not off the picture, hands' sides 100-435 mm)."""


class ArmEnd(NamedTuple):
    """Where an arm reaching the card runs back to on the table plane, and whether it ran off the picture."""

    end: Point
    off_picture: bool


class Reaches(Protocol):
    """What names an arm's seat: :class:`referee.tracker.seats.SeatSorter`."""

    middle: Point

    def seat_reaching(self, at: Point, toward: Point, turn: int | None) -> Hand | None: ...


def rival_hands(
    at: Point, frames: Sequence[Sequence[ArmEnd]], seats: Reaches, turn: int | None, *, min_frames: int = RIVAL_FRAMES
) -> tuple[Hand, Hand] | None:
    """The two hands whose arms reached the card landed at ``at`` together, from the arms seen reaching it in each
    frame round the landing (``frames``: longest first, as :func:`vision.reach.arm_ends` gives them), when at
    least ``min_frames`` frames show two arms each from a seat (see the module docstring), the same two seats
    most often; None otherwise.

    >>> from referee.tracker.seats import SeatSorter
    >>> from referee.sightings import Sighting
    >>> hands = [Sighting.back_at(b, p) for b, p in (("red-red", (0.0, 500.0)), ("blue-blue", (500.0, 0.0)))]
    >>> seats = SeatSorter.from_opening(hands, middle=(0.0, 0.0))
    >>> red, blue = ArmEnd((0.0, 480.0), False), ArmEnd((700.0, 10.0), True)
    >>> pair = rival_hands((10.0, 10.0), [[red, blue]] * 3, seats, turn=-1)
    >>> sorted(hand.owner for hand in pair)
    ['blue-blue', 'red-red']
    >>> rival_hands((10.0, 10.0), [[red, blue]] * 2 + [[red]] * 5, seats, turn=-1) is None  # two frames only
    True
    >>> hand_side = ArmEnd((200.0, 10.0), False)  # an arm to a card beyond: its hand ends short of the seat
    >>> rival_hands((10.0, 10.0), [[red, hand_side]] * 5, seats, turn=-1) is None
    True
    """
    pairs: dict[frozenset[Hand], list[tuple[Hand, Hand]]] = {}
    for arms in frames:
        if len(arms) < 2:
            continue
        hands = [_seat_of(at, arm, seats, turn) for arm in arms[:2]]
        first, second = hands
        if first is None or second is None or first == second:
            continue
        pairs.setdefault(frozenset((first, second)), []).append((first, second))
    if not pairs:
        return None
    seen = max(pairs.values(), key=len)
    return seen[0] if len(seen) >= min_frames else None


def arm_seats(at: Point, frames: Sequence[Sequence[ArmEnd]], seats: Reaches, turn: int | None) -> set[Hand]:
    """Every seat an arm reached the card at ``at`` from, in any of ``frames`` (together or one after the other).

    A conflict the judge tells by a copy lifted off the stack (:class:`referee.tracker.judge.Judge`) is dropped
    where the arms came from one seat only, or from none, and every seat is in the picture
    (:meth:`referee.tracker.Referee.see_rivals`): that player straightened or took back a card of their own, or a
    hand lay still over the stack a moment. On the 24 rounds of seeds 101000-101013 (four players), 101021-101027
    (two) and 101000-101002 (eight), 13 conflicts were told by a lift: of the 8 wrong ones, 5 showed one seat's
    arms at the card (1-9 frames), 2 none and 1 two seats; of the 5 right ones, 3 showed two seats (in the same
    frame or one after the other), 1 none, and 1 one seat: an eight-player round whose picture leaves the loser's
    seat out. Dropping those with no arms too, seeds 108000-108006 (21 rounds of 2/4/8 players): conflicts said
    24 -> 22, right 11 of 52 either way.

    >>> from referee.tracker.seats import SeatSorter
    >>> from referee.sightings import Sighting
    >>> hands = [Sighting.back_at(b, p) for b, p in (("red-red", (0.0, 500.0)), ("blue-blue", (500.0, 0.0)))]
    >>> seats = SeatSorter.from_opening(hands, middle=(0.0, 0.0))
    >>> red, blue = ArmEnd((0.0, 480.0), False), ArmEnd((700.0, 10.0), True)
    >>> sorted(hand.owner for hand in arm_seats((10.0, 10.0), [[red], [], [blue]], seats, turn=-1))
    ['blue-blue', 'red-red']
    >>> arm_seats((10.0, 10.0), [[ArmEnd((200.0, 10.0), False)]], seats, turn=-1)  # a hand's side: no seat
    set()
    """
    found = (_seat_of(at, arm, seats, turn) for arms in frames for arm in arms)
    return {hand for hand in found if hand is not None}


def _seat_of(at: Point, arm: ArmEnd, seats: Reaches, turn: int | None) -> Hand | None:
    """The hand of the seat ``arm`` comes from, if it runs back far enough to come from one."""
    hand = seats.seat_reaching(at, arm.end, turn)
    if hand is None:
        return None
    if not arm.off_picture and math.dist(arm.end, seats.middle) < SEAT_REACH * hand.radius:
        return None
    return hand

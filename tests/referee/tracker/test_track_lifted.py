"""A copy lifted off its twin: the same face shows, but the pile came to rest rearranged.

Two players slap the same card on a stack in the same instant; the loser takes theirs back a moment later. From
above, the same face shows before and after, a few millimetres and degrees off, which a detector's box does not
resolve. The vision side says when the picture inside a card's outline last came to rest other than it lay
before (``Sighting.rearranged_at``): a hand that only passed over the stack leaves it as it lay.

Each scenario films one stack at 30 fps: the cards land and are read, a hand hides the stack for a third of a
second, and the picture settles (0.3 s after it last changed) rearranged or as it lay.
"""

from __future__ import annotations

import dataclasses

from referee.cards import Card
from referee.events import CardTakenBack, Conflict, Event
from referee.sightings import FrameSightings, Sighting
from referee.tracker import Referee

FPS = 30
SETTLE_S = 0.3


def filmed(
    lands: list[tuple[float, str]], hand_at: float, rearranged: bool, until: float, landing_covered: bool = False
) -> list[Event]:
    """``lands``: (time, card) slapped on the stack, each read from then on; a hand over the stack from
    ``hand_at`` for 0.33 s, after which the picture settled ``rearranged`` or not. ``landing_covered``: the hand
    came before the last card's picture lay still, so that its landing settles only after the hand."""
    referee = Referee()
    events: list[Event] = []
    # (the disturbance's start, its end): the picture settles SETTLE_S after the end, differing from the frame
    # before the start
    changes = sorted([(t, t) for t, _ in lands] + ([(hand_at, hand_at + 0.33)] if rearranged else []))
    if landing_covered:
        changes = sorted([*changes, (lands[-1][0], hand_at + 0.33)])
    for i in range(int(until * FPS)):
        t = i / FPS
        if hand_at <= t < hand_at + 0.33:
            events += referee.update(FrameSightings(t, i, ()))
            continue
        on_top = [card for at, card in lands if at <= t]
        if not on_top:
            events += referee.update(FrameSightings(t, i, ()))
            continue
        still = max([end for _, end in changes if end <= t] + [hand_at + 0.33 if t >= hand_at + 0.33 else 0.0])
        settled = [(end + SETTLE_S, start - 1 / FPS) for start, end in changes if end + SETTLE_S <= t]
        at, since = max(settled) if settled else (None, None)
        seen = Sighting.face_at(Card.parse(on_top[-1]), (0.0, 0.0), confidence=0.6, identity_confidence=0.9)
        seen = dataclasses.replace(seen, still_since=still, rearranged_at=at, rearranged_from=since)
        events += referee.update(FrameSightings(t, i, (seen,)))
    return events


STACK = [(1.0, "g1"), (3.0, "g2"), (5.0, "g3")]


def test_the_same_face_showing_rearranged_soon_after_it_landed_was_a_conflict():
    events = filmed(STACK, hand_at=5.8, rearranged=True, until=8.0)
    conflicts = [e for e in events if isinstance(e, Conflict)]
    assert [(str(e.card), round(e.t, 1)) for e in conflicts] == [("g3", 5.0)]  # when the copies landed
    taken = [e for e in events if isinstance(e, CardTakenBack)]
    assert [str(e.card) for e in taken] == ["g3"] and 6.1 <= taken[0].t <= 6.6


def test_a_hand_passing_over_the_stack_is_no_conflict():
    events = filmed(STACK, hand_at=5.8, rearranged=False, until=8.0)
    assert not [e for e in events if isinstance(e, Conflict | CardTakenBack)]


def test_a_top_straightened_long_after_it_landed_is_no_conflict():
    events = filmed(STACK, hand_at=9.0, rearranged=True, until=11.0)
    assert not [e for e in events if isinstance(e, Conflict | CardTakenBack)]


def test_a_card_still_settling_when_a_hand_passed_over_it_is_no_conflict():
    # part of the g3's picture had not lain still when a hand came over it: it settles after the hand, differing
    # from the picture before the g3 landed, while the rest had settled with the g3 down before the hand
    events = filmed(STACK, hand_at=5.45, rearranged=False, until=8.0, landing_covered=True)
    assert not [e for e in events if isinstance(e, Conflict | CardTakenBack)]


def test_the_plays_stand_whatever_the_hand_did():
    for rearranged in (True, False):
        events = filmed(STACK, hand_at=5.8, rearranged=rearranged, until=8.0)
        assert [str(e.card) for e in events if e.type in ("stack_started", "card_played")] == ["g1", "g2", "g3"]

"""The card just under the top, read as the top settles, is no card played.

A slapped card rearranges the picture at its stack, and for half a second after, while the hand leaves and the
card settles, the card it covers shows at an edge or the new top is misread a box off as the one below it (seeds
101002 and 101013, four players: a g2 read 0.45 s after the g3 on it landed, an r2 0.47 s after the r3). The top's
own slap is a rearrangement, so the picture alone cannot tell these from the card under the top played again.

Each scenario films one stack at 30 fps: r1..r5 land a second apart and are read; the picture at the stack last
changes 0.6 s after the r5 lands (the hand leaving) and comes to rest 0.3 s later. ``after`` is read from ``from_t``
for ``after_s`` a box off the top's place, then the top again; ``slapped``: the picture changed as ``after``
showed (a card came down).
"""

from __future__ import annotations

import dataclasses
import math

from referee.cards import Card
from referee.events import Event, IllegalPlay
from referee.sightings import FrameSightings, Sighting
from referee.tracker import Referee

FPS = 30
SETTLE_S = 0.3
TOP_AT, HAND_LEAVES_S = 5.0, 0.6
LANDS = [(1.0, "r1"), (2.0, "r2"), (3.0, "r3"), (4.0, "r4"), (TOP_AT, "r5")]
BOX_OFF = (25.0, 10.0)


def filmed(after: str, *, from_t: float, slapped: bool, after_s: float = 1.0) -> list[Event]:
    referee = Referee()
    events: list[Event] = []
    # the picture changes as each card lands, and keeps changing while the hand leaves the r5
    leaving = [TOP_AT + k * 0.1 for k in range(int(HAND_LEAVES_S / 0.1) + 1)]
    changes = sorted([t for t, _ in LANDS[:-1]] + leaving + ([from_t] if slapped else []))
    rests = [
        c + SETTLE_S for c, following in zip(changes, [*changes[1:], math.inf], strict=True) if following > c + SETTLE_S
    ]
    end = max(from_t + after_s, TOP_AT + HAND_LEAVES_S) + 1.5
    for i in range(int(end * FPS)):
        t = i / FPS
        on_top = [card for at, card in LANDS if at <= t]
        if not on_top:
            events += referee.update(FrameSightings(t, i, ()))
            continue
        shown = from_t <= t < from_t + after_s
        card, place = (after, BOX_OFF) if shown else (on_top[-1], (0.0, 0.0))
        still = max(at for at in changes if at <= t)
        settled = [at for at in rests if at <= t]
        seen = dataclasses.replace(
            Sighting.face_at(Card.parse(card), place, confidence=0.6, identity_confidence=0.9),
            still_since=still,
            rearranged_at=max(settled) if settled else None,
            rearranged_from=None,
        )
        events += referee.update(FrameSightings(t, i, (seen,)))
    return events


def illegal(events: list[Event]) -> list[str]:
    return [str(e.card) for e in events if isinstance(e, IllegalPlay)]


def test_the_card_under_the_top_read_as_the_top_settles_is_no_card():
    assert illegal(filmed("r4", from_t=TOP_AT + 0.45, slapped=False)) == []


def test_the_card_under_the_top_slapped_seconds_later_is_ruled():
    assert illegal(filmed("r4", from_t=TOP_AT + 2.0, slapped=True)) == ["r4"]


def test_a_card_further_down_the_run_read_as_the_top_settles_is_ruled():
    # only the card just under the top shows at its edges: the true lower cards played (an r4 on an r10) are
    # three to six under the top
    assert illegal(filmed("r3", from_t=TOP_AT + 0.45, slapped=False)) == ["r3"]

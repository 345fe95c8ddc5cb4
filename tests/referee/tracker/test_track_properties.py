"""Property: from noisy sightings of any legal sequence of plays, the referee recovers exactly those plays."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st

from referee.cards import COLOURS, Card
from referee.tracker import Referee
from referee.tracker.synthetic import Noise, ScriptedTable

FPS = 30.0
SPOTS = ((0.0, 0.0), (160.0, 0.0), (0.0, 160.0), (160.0, 160.0), (-160.0, 80.0))


@dataclass(frozen=True)
class Play:
    t: float
    stack: int
    card: Card
    offset: tuple[float, float]
    angle: float


@st.composite
def legal_rounds(draw: st.DrawFn) -> list[Play]:
    """A random legal round: 1s start stacks on free spots, next cards go on stacks, with human gaps."""
    tops: list[Card] = []
    plays: list[Play] = []
    t = 0.0
    for _ in range(draw(st.integers(3, 25))):
        open_stacks = [i for i, top in enumerate(tops) if top.number < 10]
        start = len(tops) < len(SPOTS) and (not open_stacks or draw(st.booleans()))
        if start:
            tops.append(Card(draw(st.sampled_from(COLOURS)), 1))
            stack = len(tops) - 1
        else:
            stack = draw(st.sampled_from(open_stacks))
            tops[stack] = Card(tops[stack].colour, tops[stack].number + 1)
        offset = (draw(st.floats(-8.8, 8.8)), draw(st.floats(-13.6, 13.6)))
        plays.append(Play(t, stack + 1, tops[stack], offset, draw(st.floats(-20.0, 20.0))))
        t += draw(st.floats(0.4, 1.5))
    return plays


R = {n: Card.parse(f"r{n}") for n in range(1, 4)}


@given(plays=legal_rounds(), seed=st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
@example(  # the r3's first frame misread "g1": that new pile must not take the r3 due on the r2 beside it
    plays=[
        Play(0.0, 1, R[1], (0.0, 0.0), 0.0),
        Play(1.25, 1, R[2], (-8.75, 0.0), 0.0),
        Play(2.625, 1, R[3], (8.0, 10.0), 0.0),
    ],
    seed=0,
)
def test_noisy_sightings_of_legal_plays_give_back_exactly_those_plays(plays: list[Play], seed: int):
    table = ScriptedTable(FPS)
    for play in plays:
        x, y = SPOTS[play.stack - 1]
        table.put(play.t, play.card, (x + play.offset[0], y + play.offset[1]), play.angle)
    referee = Referee()
    for frame in table.frames(plays[-1].t + 1.5, Noise.typical(seed)):
        referee.update(frame)
    got = [(e.type, e.stack, e.card) for e in referee.events]
    want = [("stack_started" if p.card.number == 1 else "card_played", p.stack, p.card) for p in plays]
    assert got == want
    for event, play in zip(referee.events, plays, strict=True):
        assert abs(event.t - play.t) <= 0.5  # a misread of the coming card just before may start its run

"""When the judge dates plays the camera did not see land: each as near as the evidence allows, lower cards first."""

from __future__ import annotations

from referee.cards import Card
from referee.centre import Centre
from referee.tracker.judge import Judge
from referee.tracker.stacks import Landed

Y = {n: Card.parse(f"y{n}") for n in range(1, 7)}


def judged(*changes: Landed) -> list[tuple[str, str, float]]:
    judge = Judge(Centre())
    return [(e.type, str(e.card), round(e.t, 2)) for change in changes for e in judge.rule(change)]


def test_a_card_glimpsed_then_covered_is_dated_when_it_was_glimpsed():
    # seed 99302, eight players: a b9 glimpsed at 8.57 s was dated by the card seen on it 0.7 s later
    events = judged(
        Landed(1, Y[1], 0.0, 0),
        Landed(1, Y[2], 1.0, 30),
        Landed(1, Y[4], 3.0, 90, glimpsed=(Y[3],), glimpsed_at=((Y[3], 2.0, 60),)),
    )
    assert events[-2:] == [("card_played", "y3", 2.0), ("card_played", "y4", 3.0)]


def test_a_card_inferred_under_a_hand_comes_down_no_later_than_the_card_seen_on_it():
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 1.0, 30), Landed(1, Y[4], 3.0, 90, hidden_s=0.6))
    (_, _, t3), (_, _, t4) = events[-2:]
    assert [card for _, card, _ in events[-2:]] == ["y3", "y4"]
    assert t3 <= t4 < 3.0

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


def test_a_card_read_a_moment_before_the_next_covered_it_came_down_as_the_old_top_went_from_view():
    # seed 99001, eight players: r4 last read at 15.9 s, r5 first read at 17.1 s (truth 15.96), r6 seen at 17.3 s
    # (truth 17.21) after 1.4 s with the old top out of view
    events = judged(
        *(Landed(1, Y[n], float(n), 30 * n) for n in range(1, 5)),
        Landed(1, Y[6], 5.6, 168, hidden_s=1.4, glimpsed=(Y[5],), covered=((Y[5], 5.4, 162),)),
    )
    (_, c5, t5), (_, c6, t6) = events[-2:]
    assert (c5, c6) == ("y5", "y6")
    assert abs(t5 - 4.2) < 0.05  # as the old top went from view (something covered it: the hand with y5)
    assert 5.4 <= t6 <= 5.6  # not before y5 was seen lying there


def test_a_card_glimpsed_on_its_stack_with_the_change_before_is_played_when_the_next_card_needs_it():
    # seed 100203, four players: a g7 read on its g6 for 0.6 s never won a vote; the g8 on it was ruled "wrong
    # number, g7 expected"
    events = judged(
        Landed(1, Y[1], 0.0, 0),
        Landed(1, Y[2], 1.0, 30, glimpsed=(Y[3],), glimpsed_at=((Y[3], 1.3, 39),)),
        Landed(1, Y[4], 2.0, 60),
    )
    assert events[-2:] == [("card_played", "y3", 1.3), ("card_played", "y4", 2.0)]


def test_a_glimpse_long_before_is_no_evidence():
    events = judged(
        Landed(1, Y[1], 0.0, 0),
        Landed(1, Y[2], 1.0, 30, glimpsed=(Y[3],), glimpsed_at=((Y[3], 1.3, 39),)),
        Landed(1, Y[4], 6.0, 180),
    )
    assert events[-1][:2] == ("illegal_play", "y4")


def test_a_glimpse_on_another_pile_is_no_evidence():
    judge = Judge(Centre())
    judge.rule(Landed(1, Y[1], 0.0, 0))
    judge.rule(Landed(1, Y[2], 1.0, 30))
    judge.rule(Landed(2, Card.parse("r1"), 1.1, 33, glimpsed=(Y[3],), glimpsed_at=((Y[3], 1.3, 39),)))
    assert [e.type for e in judge.rule(Landed(1, Y[4], 2.0, 60))] == ["illegal_play"]


def test_a_card_read_after_a_long_unseen_stretch_came_down_as_it_began():
    # seed 100302, eight players: a g2 first read 1.33 s after its stack's top was last read (truth: 0.03 s
    # after): the hand slapped it and lingered over it
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 10.0, 300, hidden_s=1.33))
    assert events[-1][:2] == ("card_played", "y2") and abs(events[-1][2] - 8.67) < 0.05


def test_a_card_read_just_after_a_hand_hid_its_stack_came_with_that_hand():
    # seed 100306, two players: an r6 read 3.6 s after the top was last read surely, the stack out of view only
    # the 0.13 s before (truth: 0.07 s after it went from view)
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 10.0, 300, hidden_s=3.6, hidden_from=(9.87, 296)))
    assert events[-1] == ("card_played", "y2", 9.87)


def test_a_card_hidden_under_a_second_is_dated_halfway():
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 10.0, 300, hidden_s=0.8, hidden_from=(9.9, 297)))
    assert events[-1] == ("card_played", "y2", 9.6)


def test_a_card_seen_over_one_nobody_saw_came_down_after_it_in_the_hidden_time():
    # seed 110005, eight players: a b9 read at 12.4 s over a b8 nobody saw, the stack hidden 1.27 s; both were
    # dated as the hand came (11.13 s), the b9 a second early (truth: b8 11.48 s, b9 12.13 s)
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 1.0, 30), Landed(1, Y[4], 10.0, 300, hidden_s=1.4))
    assert events[-2:] == [("card_played", "y3", 8.6), ("card_played", "y4", 9.3)]


def test_cards_nobody_saw_and_the_one_seen_on_them_share_the_hidden_time_evenly():
    events = judged(Landed(1, Y[1], 0.0, 0), Landed(1, Y[2], 1.0, 30), Landed(1, Y[5], 10.0, 300, hidden_s=1.5))
    assert events[-3:] == [("card_played", "y3", 8.5), ("card_played", "y4", 9.0), ("card_played", "y5", 9.5)]


def test_a_card_nobody_saw_comes_down_after_the_card_below_it_was_last_read_on_top():
    # seed 125006, four players: b8 read on its stack from 42.57 to 42.90 s; b10 seen at 44.0 s after 2.4 s of cover:
    # the b9 between, never read, came down after 42.90 (truth 42.98), not at its share of the hidden time (42.4)
    B = {n: Card.parse(f"b{n}") for n in range(1, 11)}
    events = judged(
        *(Landed(1, B[n], float(n), 30 * n) for n in range(1, 8)),
        Landed(
            1,
            B[10],
            44.0,
            1320,
            hidden_s=2.4,
            glimpsed=(B[8],),
            glimpsed_at=((B[8], 42.57, 1277),),
            glimpsed_until=((B[8], 42.9, 1287),),
        ),
    )
    assert [(card, t) for _, card, t in events[-3:-1]] == [("b8", 41.6), ("b9", 42.9)]


def test_a_card_below_read_after_the_card_on_it_showed_does_not_hold_that_card_back():
    # the y3 read on till 2.8 s, but the y4 on it was first read at 2.5 s: the y3 peeked out from under the y4
    events = judged(
        Landed(1, Y[1], 0.0, 0),
        Landed(1, Y[2], 1.0, 30),
        Landed(
            1,
            Y[5],
            3.0,
            90,
            hidden_s=1.8,
            glimpsed=(Y[3], Y[4]),
            glimpsed_at=((Y[3], 1.5, 45), (Y[4], 2.5, 75)),
            glimpsed_until=((Y[3], 2.8, 84), (Y[4], 2.9, 87)),
        ),
    )
    assert [(card, t) for _, card, t in events[-3:-1]] == [("y3", 1.2), ("y4", 1.8)]

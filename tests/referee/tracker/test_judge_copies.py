"""Copies of the top read soon after it landed: the judge calls a conflict only on the loser's lift.

From above, a second copy read where the top lies, or beside it, moments after the top landed, cannot be told
from the top boxed anew as the hand leaves it (rendered rounds at seeds 100200-100206 and 100250-100262: said a
conflict, such readings were wrong 32 times of 33). The lift of the loser's copy (:class:`Lifted`) is the
evidence; a 1 starts a stack of its own, so no two 1s ever contend for one stack.
"""

from __future__ import annotations

from referee.cards import Card
from referee.centre import Centre
from referee.events import Placement
from referee.tracker.judge import Judge
from referee.tracker.stacks import Landed, Lifted, Uncovered, Vanished

R = {n: Card.parse(f"r{n}") for n in range(1, 11)}


def stack_to(judge: Judge, n: int) -> None:
    for k in range(1, n + 1):
        judge.rule(Landed(1, R[k], float(k), 30 * k, Placement(0.0, 0.0, 0.0)))


def said(events: list) -> list[tuple[str, str]]:
    return [(e.type, str(e.card)) for e in events]


def test_the_top_read_again_at_once_is_the_same_card():
    judge = Judge(Centre())
    stack_to(judge, 3)
    again = Landed(1, R[3], 3.3, 99, Placement(9.0, -10.0, 14.0), copy=True, beside=True)
    assert judge.rule(again) == []
    assert judge.holding(1) == (R[3], ())


def test_a_copy_of_the_top_revealed_within_seconds_is_no_conflict():
    judge = Judge(Centre())
    stack_to(judge, 3)
    assert judge.rule(Landed(1, R[3], 5.5, 165, Placement(15.0, 12.0, 18.0), copy=True)) == []


def test_the_top_lifted_a_second_after_it_landed_is_a_conflict_dated_at_the_landing():
    judge = Judge(Centre())
    stack_to(judge, 3)
    events = judge.rule(Lifted(1, R[3], 4.3, 129))
    assert said(events) == [("conflict", "r3"), ("card_taken_back", "r3")]
    assert events[0].t == 3.0 and events[1].t == 4.3
    assert judge.holding(1) == (R[3], ())


def test_a_one_lifted_is_no_conflict():
    judge = Judge(Centre())
    stack_to(judge, 1)
    assert judge.rule(Lifted(1, R[1], 2.3, 69)) == []


def test_an_illegal_card_boxed_anew_at_once_is_ruled_once_and_taken_back_once():
    # seed 100203, eight players: an r9 ruled on an r4 boxed turned by 60 degrees 0.3 s later was ruled again
    judge = Judge(Centre())
    stack_to(judge, 4)
    first = judge.rule(Landed(1, R[9], 5.0, 150, Placement(0.0, 0.0, 64.0)))
    again = judge.rule(Landed(1, R[9], 5.3, 159, Placement(3.0, -5.0, -57.0), copy=True))
    assert said(first) == [("illegal_play", "r9")] and again == []
    uncovered = judge.rule(Uncovered(1, R[4], (R[9], R[9]), 6.0, 180))
    assert said(uncovered) == [("card_taken_back", "r9")]
    assert judge.holding(1) == (R[4], ())


def test_an_illegal_card_boxed_anew_while_it_still_lies_there_is_ruled_once():
    # seed 110000, four players: a g5 ruled on a g3 at 30.90 s, boxed turned by 12 degrees 0.57 s later, was
    # ruled again; its player took it back at 32.14 s
    judge = Judge(Centre())
    stack_to(judge, 4)
    judge.rule(Landed(1, R[9], 5.0, 150, Placement(0.0, 0.0, 0.0)))
    again = judge.rule(Landed(1, R[9], 5.6, 168, Placement(4.0, -7.0, 12.0), copy=True))
    assert again == []


def test_a_second_illegal_copy_long_after_the_first_is_ruled_too():
    judge = Judge(Centre())
    stack_to(judge, 4)
    judge.rule(Landed(1, R[9], 5.0, 150, Placement(0.0, 0.0, 64.0)))
    later = judge.rule(Landed(1, R[9], 8.5, 255, Placement(20.0, 8.0, 10.0), copy=True))
    assert said(later) == [("illegal_play", "r9")]


def test_a_second_illegal_copy_after_the_first_was_taken_back_is_ruled_too():
    judge = Judge(Centre())
    stack_to(judge, 4)
    judge.rule(Landed(1, R[9], 5.0, 150, Placement(0.0, 0.0, 64.0)))
    judge.rule(Uncovered(1, R[4], (R[9],), 5.6, 168))
    again = judge.rule(Landed(1, R[9], 6.0, 180, Placement(20.0, 8.0, 10.0), copy=True))
    assert said(again) == [("illegal_play", "r9")]


def test_a_card_ruled_not_a_one_found_again_where_it_lay_is_not_ruled_again() -> None:
    # seed 102003, four players on a blue check cloth: a b8 lying alone, its pile lost and found again, was ruled
    # "not a one" each time the camera found it
    b8, y9 = Card.parse("b8"), Card.parse("y9")
    judge = Judge(Centre())
    first = judge.rule(Landed(1, b8, 12.3, 369, Placement(-125.0, 166.0, 30.0)))
    assert said(first) == [("illegal_play", "b8")]
    assert said(judge.rule(Vanished(1, 13.7, 411))) == [("card_taken_back", "b8")]
    assert judge.rule(Landed(2, b8, 16.9, 507, Placement(-126.0, 165.0, 28.0))) == []
    assert judge.rule(Vanished(2, 19.7, 591)) == []  # never announced again, so never taken back again
    # another card there (not one that builds on it), or the same card elsewhere or long after, is a play of its own
    assert said(judge.rule(Landed(3, y9, 20.0, 600, Placement(-125.0, 166.0, 0.0)))) == [("illegal_play", "y9")]
    assert said(judge.rule(Landed(4, b8, 21.0, 630, Placement(200.0, 0.0, 0.0)))) == [("illegal_play", "b8")]
    assert said(judge.rule(Landed(5, b8, 90.0, 2700, Placement(-125.0, 166.0, 30.0)))) == [("illegal_play", "b8")]

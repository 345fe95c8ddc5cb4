"""One misread of a landing card is one wrong ruling, not a wrong ruling for every card after it."""

from __future__ import annotations

from dataclasses import replace

from referee.cards import Card
from referee.centre import Centre
from referee.events import Placement, withdrawn_rulings
from referee.tracker import Referee
from referee.tracker.judge import Judge
from referee.tracker.stacks import Landed, Together, Vanished
from referee.tracker.synthetic import Noise, ScriptedTable
from referee.visitors import CentreBuilder, replay

Y = {n: Card.parse(f"y{n}") for n in range(1, 11)}


def judged(*changes: Landed | Vanished) -> list[tuple[str, str]]:
    judge = Judge(Centre())
    return [(e.type, str(e.card)) for change in changes for e in judge.rule(change)]


def _stack_to(n: int) -> list[Landed]:
    return [Landed(1, Y[k], float(k), 30 * k) for k in range(1, n + 1)]


def test_an_illegal_card_built_over_by_lower_cards_of_its_colour_lands_again_when_its_turn_comes():
    # seed 99403, two players: a y4 read "y7" on the y3, ruled illegal; y4, y5, y6 were built on it; then the real
    # y7 came, which the pile, still holding a "y7", took for the same card
    table = ScriptedTable(30.0)
    for n in (1, 2, 3):
        table.put(float(n), f"y{n}", (0.0, 0.0))
    table.put(4.0, "y7", (2.0, 1.0))
    for n in (4, 5, 6):
        table.put(n + 1.0, f"y{n}", (n % 2 * 3.0, -1.0), angle=n * 2.0)
    table.put(8.0, "y7", (2.0, 1.0))  # where the "y7" was read: a card lies where the hand slaps it
    referee = Referee()
    for frame in table.frames(9.5, Noise()):
        referee.update(frame)
    said = [(e.type, str(e.card)) for e in referee.events]
    assert said[3] == ("illegal_play", "y7")
    assert said[4:] == [("card_played", f"y{n}") for n in (4, 5, 6, 7)]


def test_the_tracker_is_told_the_pile_no_longer_holds_an_illegal_card_built_over_by_lower_cards_of_its_colour():
    # what hid the real y7 on seed 99403: the pile still held the "y7", so the y7's readings were that card
    judge = Judge(Centre())
    for change in (*_stack_to(3), Landed(1, Y[7], 4.0, 120)):
        judge.rule(change)
    assert judge.holding(1) == (Y[3], ((Y[7], 3),))
    for n in (4, 5):
        judge.rule(Landed(1, Y[n], n + 1.0, 30 * (n + 1)))
    assert judge.holding(1) == (Y[5], ())


def test_a_card_one_too_high_after_one_illegal_card_of_its_colour_makes_that_card_the_missing_one():
    # the y8 read "y10" on the y7, then the y9: the "y10" was the y8
    events = judged(*_stack_to(7), Landed(1, Y[10], 8.0, 240), Landed(1, Y[9], 9.0, 270))
    assert events[7:] == [("illegal_play", "y10"), ("card_played", "y8"), ("card_played", "y9")]


def test_the_same_card_in_full_view_with_no_illegal_card_before_it_is_still_a_wrong_number():
    events = judged(*_stack_to(7), Landed(1, Y[9], 9.0, 270))
    assert events[7:] == [("illegal_play", "y9")]


def test_two_copies_of_a_card_landing_at_once_vouch_for_the_card_below_them():
    # seeds 99502/99503: the y8 came down and was covered within 0.4 s by two players' y9s at once; two players do
    # not slap the same wrong card in the same instant, so the y8 was played and the y9s are a conflict
    judge = Judge(Centre())
    for change in _stack_to(7):
        judge.rule(change)
    said = [(e.type, str(e.card)) for e in judge.rule(Together(1, (Y[9], Y[9]), 8.0, 240))]
    assert ("card_played", "y8") in said and ("conflict", "y9") in said
    assert not any(kind == "illegal_play" for kind, _ in said)
    assert judge.holding(1)[0] == Y[9]


def test_copies_of_a_card_far_above_the_top_or_of_another_colour_are_still_illegal():
    for twins in ((Y[10], Y[10]), (Card.parse("r8"), Card.parse("r8"))):
        judge = Judge(Centre())
        for change in _stack_to(6):
            judge.rule(change)
        said = [(e.type, str(e.card)) for e in judge.rule(Together(1, twins, 8.0, 240))]
        assert ("illegal_play", str(twins[0])) in said and not any(kind == "card_played" for kind, _ in said)


def test_a_card_not_a_one_built_on_was_played_on_the_stack_of_its_colour_it_strayed_from():
    # seed 99606, eight players: the y6 and y7 landed unseen on the y5's stack, the y8 was slapped apart from it
    # ("not a one" where no stack was), then the y9 went on the y8: not a stack y1..y7 nobody saw
    said = judged(*_stack_to(5), Landed(2, Y[8], 7.0, 210), Landed(2, Y[9], 8.0, 240))
    assert said[5:] == [
        ("illegal_play", "y8"),
        ("card_played", "y6"),
        ("card_played", "y7"),
        ("card_played", "y8"),
        ("card_played", "y9"),
    ]


def test_a_card_not_a_one_built_on_far_from_the_one_stack_that_could_have_taken_it_lies_on_a_one_never_seen():
    # seed 103003, six players: a red 1 never boxed on a red check cloth, an r2 on it ruled "not a one" 300 mm from
    # the only red stack (an r1), then the r3 on the r2: a stack r1..r3 the camera missed, not the r2 and r3 played
    # onto the r1 across the table; a card slapped askew lies within a card's height of its stack
    r1 = Landed(1, Y[1], 1.0, 30, Placement(0.0, 0.0))
    far = judged(r1, Landed(2, Y[2], 2.0, 60, Placement(300.0, 0.0)), Landed(2, Y[3], 3.0, 90, Placement(301.0, 2.0)))
    assert far[1:] == [("illegal_play", "y2"), ("stack_started", "y1"), ("card_played", "y2"), ("card_played", "y3")]
    askew = judged(r1, Landed(2, Y[2], 2.0, 60, Placement(120.0, 0.0)), Landed(2, Y[3], 3.0, 90, Placement(121.0, 2.0)))
    assert askew[1:] == [("illegal_play", "y2"), ("card_played", "y2"), ("card_played", "y3")]


def test_a_stack_gone_on_as_a_card_strayed_from_it_stays_in_play_while_either_pile_is_seen() -> None:
    # seed 120006, two players, held out: a card slapped askew beside its stack went on as that stack; the first
    # pile then vanished (the camera took its cards for the new pile's), and the stack must stay in play
    r1 = Landed(1, Y[1], 1.0, 30, Placement(0.0, 0.0))
    askew = [Landed(2, Y[2], 2.0, 60, Placement(120.0, 0.0)), Landed(2, Y[3], 3.0, 90, Placement(121.0, 2.0))]
    said = judged(
        r1, *askew, Vanished(1, 4.0, 120), Landed(2, Y[4], 5.0, 150, Placement(121.0, 1.0)), Vanished(2, 6.0, 180)
    )
    assert said[1:] == [
        ("illegal_play", "y2"),
        ("card_played", "y2"),
        ("card_played", "y3"),
        ("card_played", "y4"),
        ("stack_removed", "y4"),  # the last pile of it gone: the centre is gathered
    ]


def test_a_wrong_card_read_on_a_stack_as_a_card_strayed_from_it_came_down_is_its_covered_top_misread() -> None:
    # seed 120006, two players, held out: a g3 slapped 40 mm off its g2, half over it; the g2's uncovered half read
    # "g6" from that frame on (ruled "wrong number"), the g3 "not a one" until the g4 landed on it
    stack = [Landed(1, Y[n], float(n), 30 * n, Placement(0.0, 0.0)) for n in (1, 2)]
    misread = Landed(1, Y[6], 3.0, 90, Placement(2.0, 9.0))
    stray = [Landed(2, Y[3], 3.1, 93, Placement(22.0, -33.0)), Landed(2, Y[4], 4.0, 120, Placement(15.0, -20.0))]
    judge = Judge(Centre())
    said = [e for change in (*stack, misread, *stray) for e in judge.rule(change)]
    assert [(e.type, str(e.card)) for e in said[2:]] == [
        ("illegal_play", "y6"),
        ("illegal_play", "y3"),  # its "not a one" the session withdraws (play explains it)
        ("ruling_withdrawn", "y6"),
        ("card_played", "y3"),
        ("card_played", "y4"),
    ]
    assert judge.holding(1) == (Y[4], ())  # the "y6" is off the first pile's book
    assert withdrawn_rulings(said)(said[2])
    # a wrong card ruled on the stack a second before the stray came down is no misread of its covered top
    early = replace(misread, t=2.1, frame=63)
    said = judged(*stack, early, *stray)
    assert said[2:] == [("illegal_play", "y6"), ("illegal_play", "y3"), ("card_played", "y3"), ("card_played", "y4")]


def test_a_card_landing_where_a_card_below_it_was_ruled_not_a_one_and_lost_since_builds_on_it() -> None:
    # seed 116004, four players, a blue check cloth: a g2 ruled "not a one" on a g1 never boxed, its pile lost; the
    # g3 on it found as a new pile 5 s later, 4 mm off: the stack g1, g2 nobody saw, the g2's ruling withdrawn
    judge = Judge(Centre())
    assert [(e.type, str(e.card)) for e in judge.rule(Landed(1, Y[2], 12.0, 360, Placement(-91.0, -298.0)))] == [
        ("illegal_play", "y2")
    ]
    assert [(e.type, str(e.card)) for e in judge.rule(Vanished(1, 15.7, 471))] == [("card_taken_back", "y2")]
    built = judge.rule(Landed(2, Y[3], 17.0, 510, Placement(-87.0, -295.0)))
    assert [(e.type, str(e.card), e.t) for e in built] == [
        ("ruling_withdrawn", "y2", 12.0),
        ("stack_started", "y1", 12.0),
        ("card_played", "y2", 12.0),
        ("card_played", "y3", 17.0),
    ]
    assert judge.inferred == {1: 1}
    # beside the one stack that could have taken it (a card slapped askew), it was played there
    r1, r2 = Landed(1, Y[1], 1.0, 30, Placement(0.0, 0.0)), Landed(2, Y[2], 2.0, 60, Placement(120.0, 0.0))
    askew = judged(r1, r2, Vanished(2, 2.5, 75), Landed(3, Y[3], 4.0, 120, Placement(121.0, 2.0)))
    assert askew[1:] == [
        ("illegal_play", "y2"),
        ("card_taken_back", "y2"),
        ("ruling_withdrawn", "y2"),
        ("card_played", "y2"),
        ("card_played", "y3"),
    ]


def test_a_card_built_on_a_card_ruled_not_a_one_lost_and_found_again_where_it_lay_withdraws_its_ruling() -> None:
    # seed 116004, four players, held out: a b3 ruled "not a one", said taken back as the camera lost its pile,
    # found again where it lay (not ruled again), then the b4 on it: the stack b1..b3 nobody saw, the ruling withdrawn
    judge = Judge(Centre())
    said = [
        (e.type, str(e.card), e.t)
        for change in (
            Landed(1, Y[3], 35.0, 1050, Placement(-228.0, 28.0)),
            Vanished(1, 37.0, 1110),
            Landed(2, Y[3], 39.0, 1170, Placement(-228.0, 31.0)),
            Landed(2, Y[4], 42.0, 1260, Placement(-228.0, 35.0)),
            Landed(3, Y[5], 43.0, 1290, Placement(-229.0, 36.0)),
        )
        for e in judge.rule(change)
    ]
    assert said == [
        ("illegal_play", "y3", 35.0),
        ("card_taken_back", "y3", 37.0),
        ("ruling_withdrawn", "y3", 35.0),
        ("stack_started", "y1", 35.0),
        ("card_played", "y2", 35.0),
        ("card_played", "y3", 35.0),
        ("card_played", "y4", 42.0),
        ("illegal_play", "y5", 43.0),  # a new pile where no card was ruled: still "not a one"
    ]


def test_only_a_card_a_little_above_one_ruled_not_a_one_near_it_lately_builds_on_it() -> None:
    ruled = Landed(1, Y[2], 12.0, 360, Placement(0.0, 0.0))
    for later in (
        Landed(2, Y[6], 13.0, 390, Placement(5.0, 0.0)),  # three numbers between: no stack so built unseen
        Landed(2, Y[3], 13.0, 390, Placement(200.0, 0.0)),  # two card lengths away
        Landed(2, Y[3], 90.0, 2700, Placement(5.0, 0.0)),  # long after
        Landed(2, Card.parse("g3"), 13.0, 390, Placement(5.0, 0.0)),  # another colour
    ):
        assert judged(ruled, Vanished(1, 12.5, 375), later)[-1] == ("illegal_play", str(later.card))
    gap = judged(ruled, Vanished(1, 12.5, 375), Landed(2, Y[4], 13.0, 390, Placement(5.0, 0.0)))
    assert gap[2:] == [
        ("ruling_withdrawn", "y2"),
        ("stack_started", "y1"),
        ("card_played", "y2"),
        ("card_played", "y3"),
        ("card_played", "y4"),
    ]


def test_a_card_not_a_one_built_on_far_above_any_stack_of_its_colour_started_a_stack_out_of_view():
    said = judged(*_stack_to(2), Landed(2, Y[7], 7.0, 210), Landed(2, Y[8], 8.0, 240))
    assert said[2:4] == [("illegal_play", "y7"), ("stack_started", "y1")]
    assert said[-1] == ("card_played", "y8")


def test_a_card_not_a_one_built_on_goes_to_the_stack_it_lies_on_when_several_could_have_taken_it():
    # seed 99901, eight players: a g9 found lying on its g6 stack (the g7, g8 misread) while another green stack
    # stood at g7 across the table: the g9 was played where it lay, not on a stack g1..g8 nobody saw
    near, far = Placement(0.0, 0.0), Placement(600.0, 0.0)
    here = [Landed(1, Y[k], float(k), 30 * k, near) for k in range(1, 7)]
    there = [Landed(3, Y[k], k + 0.5, 30 * k + 15, far) for k in range(1, 8)]
    landings = sorted([*here, *there], key=lambda c: c.t)
    said = judged(
        *landings, Landed(2, Y[9], 9.0, 270, Placement(30.0, 10.0)), Landed(2, Y[10], 10.0, 300, Placement(31.0, 9.0))
    )
    assert said[13:] == [
        ("illegal_play", "y9"),
        ("card_played", "y7"),
        ("card_played", "y8"),
        ("card_played", "y9"),
        ("card_played", "y10"),
    ]


def test_a_card_on_its_lower_neighbour_read_on_an_empty_spot_builds_on_a_one_the_camera_missed():
    # seed 100205, eight players: a y1 slapped at the picture's edge, mostly hidden; the y2 on it read 0.4 s, then
    # the y3 covered it: "not a one", and the y5 after the y4 too
    said = judged(Landed(2, Y[3], 2.0, 60, glimpsed=(Y[2],), covered=((Y[2], 1.5, 45),)))
    assert said == [("stack_started", "y1"), ("card_played", "y2"), ("card_played", "y3")]


def test_a_card_on_an_empty_spot_with_a_card_two_below_read_there_is_still_not_a_one():
    said = judged(Landed(2, Y[4], 2.0, 60, glimpsed=(Y[2],), covered=((Y[2], 1.5, 45),)))
    assert said == [("illegal_play", "y4")]


def test_a_card_on_an_empty_spot_read_alone_is_not_a_one():
    assert judged(Landed(2, Y[3], 2.0, 60)) == [("illegal_play", "y3")]


def test_a_ruling_that_play_explains_moments_later_is_withdrawn_before_the_play_is_said():
    # an r2 "not a one" 300 mm from the only red stack, then the r3 on it: it lay on a 1 the camera never saw; the
    # table hears the ruling withdrawn, and the log replays through the rules without a disagreement
    table = ScriptedTable(30.0)
    table.put(1.0, "y1", (0.0, 0.0))
    table.put(2.0, "y2", (300.0, 0.0))
    table.put(3.0, "y3", (301.0, 2.0))
    referee = Referee()
    for frame in table.frames(4.5, Noise()):
        referee.update(frame)
    said = [(e.type, str(e.card), e.t) for e in referee.events]
    assert said[1] == ("illegal_play", "y2", 2.0)
    assert said[3:5] == [("ruling_withdrawn", "y2", 2.0), ("card_played", "y2", 2.0)]
    assert replay(referee.events, CentreBuilder(strict=False)).stack(2).top == Y[3]


def test_a_card_lost_then_built_on_where_it_lay_has_its_ruling_withdrawn_once_and_the_log_replays():
    # the y2 "not a one" picked up off the camera's view a moment (its pile lost: said taken back), then the y3 laid
    # where it lay: the y2 lay on a 1 the camera never saw; the table hears the ruling withdrawn once, and the log
    # replays through the rules without a disagreement
    table = ScriptedTable(30.0)
    y2 = table.put(1.0, "y2", (300.0, 0.0))
    table.take(2.5, y2)
    table.put(5.0, "y3", (302.0, 3.0))
    referee = Referee()
    for frame in table.frames(6.5, Noise()):
        referee.update(frame)
    said = [(e.type, str(e.card)) for e in referee.events]
    assert said[:2] == [("illegal_play", "y2"), ("card_taken_back", "y2")]
    assert said[2:] == [
        ("ruling_withdrawn", "y2"),
        ("stack_started", "y1"),
        ("card_played", "y2"),
        ("card_played", "y3"),
    ]
    assert replay(referee.events, CentreBuilder(strict=False)).stack(1).top == Y[3]

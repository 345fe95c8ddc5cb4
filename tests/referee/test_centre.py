"""Scenarios for the centre board: stacks, rulings, illegal cards, conflicts, the stop, undo and the invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import FULL_SET, Card
from referee.centre import Centre, Landing, Removal, Stop, TakeBack, Together
from referee.errors import CentreError
from referee.events import Placement
from referee.rules import ConflictResolution, RuleSettings


def c(text: str) -> Card:
    return Card.parse(text)


def build(*plays: tuple[str, int | None], back: str = "red-red") -> Centre:
    """A centre after the given legal plays: (card, stack id or None for a new stack)."""
    centre = Centre()
    for card, stack in plays:
        assert centre.push(Landing(c(card), stack, back)).ruling.legal
    return centre


def run_to(colour: str, top: int, centre: Centre | None = None) -> Centre:
    """Builds one new stack of ``colour`` from 1 up to ``top``."""
    centre = centre or Centre()
    centre.push(Landing(c(f"{colour}1")))
    stack = len(centre.stacks)
    for n in range(2, top + 1):
        assert centre.push(Landing(c(f"{colour}{n}"), stack)).ruling.legal
    return centre


# --------------------------------------------------------------------------------------- starting stacks


@pytest.mark.parametrize("one", ["r1", "y1", "g1", "b1"])
def test_a_one_starts_a_stack_anywhere(one: str) -> None:
    centre = run_to("r", 4)
    play = centre.push(Landing(c(one), placement=Placement(120.0, -40.0, 15.0)))
    assert play.ruling.legal
    assert [e.type for e in play.events] == ["stack_started"]
    assert play.stack == 2 and play.events[0].stack == 2
    assert centre.stack(2).top == c(one)
    assert centre.stack(2).placement == Placement(120.0, -40.0, 15.0)


def test_stack_ids_count_from_one_in_the_order_stacks_start() -> None:
    centre = build(("g1", None), ("b1", None), ("g2", 1), ("r1", None))
    assert [(s.id, str(s.top)) for s in centre.stacks] == [(1, "g2"), (2, "b1"), (3, "r1")]


def test_several_stacks_of_one_colour_both_accept_the_next_card() -> None:
    centre = build(("r1", None), ("r1", None), ("r2", 1), ("r2", 2))
    assert centre.stacks_for(c("r3")) == (1, 2)
    assert centre.push(Landing(c("r3"), 2)).ruling.legal
    assert centre.stacks_for(c("r3")) == (1,)
    assert centre.stacks_for(c("r4")) == (2,)


@pytest.mark.parametrize("card", ["r2", "y5", "b10"])
def test_a_non_one_cannot_start_a_stack(card: str) -> None:
    centre = Centre()
    play = centre.push(Landing(c(card), back="blue-blue"))
    assert play.ruling.reason == "not_a_one"
    event = play.events[0]
    assert (event.type, event.stack, event.reason, event.expected) == ("illegal_play", None, "not_a_one", None)
    assert centre.stacks == () and centre.total_cards == 0
    assert [str(x.card) for x in centre.loose] == [card]


# ------------------------------------------------------------------------------------------ illegal plays


@pytest.mark.parametrize(
    ("top", "card", "reason", "expected"),
    [
        (4, "y5", "wrong_colour", "r5"),
        (4, "r6", "wrong_number", "r5"),
        (4, "r4", "wrong_number", "r5"),  # repeated
        (4, "r3", "wrong_number", "r5"),  # lower
        (4, "b9", "wrong_colour", "r5"),  # both wrong: colour is named first
        (10, "r1", "stack_full", None),
        (10, "y1", "stack_full", None),
    ],
)
def test_an_illegal_card_is_named_and_leaves_the_legal_top_unchanged(
    top: int, card: str, reason: str, expected: str | None
) -> None:
    centre = run_to("r", top)
    play = centre.push(Landing(c(card), 1, "green-green", t=12.5, frame=375))
    assert not play.ruling.legal and play.ruling.reason == reason
    (event,) = play.events
    assert event.type == "illegal_play" and event.reason == reason
    assert (event.t, event.frame, event.stack, event.back) == (12.5, 375, 1, "green-green")
    assert event.expected == (None if expected is None else c(expected))
    assert centre.stack(1).top == c(f"r{top}") and centre.stack(1).height == top
    assert centre.total_cards == top


def test_the_right_card_still_fits_while_an_illegal_one_lies_on_the_stack() -> None:
    centre = run_to("r", 4)
    centre.push(Landing(c("r6"), 1))
    assert centre.push(Landing(c("r5"), 1)).ruling.legal
    assert centre.stack(1).top == c("r5")
    assert [x.card for x in centre.loose] == [c("r6")]


def test_an_illegal_card_is_taken_back_by_its_player() -> None:
    centre = run_to("b", 2)
    centre.push(Landing(c("y3"), 1, back="red-pink"))
    event = centre.take_back(c("y3"), t=14.0, frame=420)
    assert (event.type, event.stack, event.card, event.back, event.t, event.frame) == (
        "card_taken_back",
        1,
        c("y3"),
        "red-pink",
        14.0,
        420,
    )
    assert centre.loose == ()
    assert isinstance(centre.move_stack[-1], TakeBack)


def test_taking_back_a_card_that_is_not_lying_loose_is_an_error() -> None:
    centre = run_to("b", 2)
    with pytest.raises(CentreError, match="no illegal b2"):
        centre.take_back(c("b2"))


def test_take_back_picks_the_card_on_the_named_stack() -> None:
    centre = build(("r1", None), ("g1", None))
    centre.push(Landing(c("y7"), 1))
    centre.push(Landing(c("y7"), 2))
    assert centre.take_back(c("y7"), stack=2).stack == 2
    assert [x.stack for x in centre.loose] == [1]


# -------------------------------------------------------------------------------------------- full stacks


def test_a_stack_is_full_at_ten_and_nothing_follows() -> None:
    centre = run_to("g", 10)
    assert centre.stack(1).full
    assert c("g1") in centre.legal_cards()  # a new green stack may start
    assert centre.stacks_for(c("g1")) == ()
    assert not centre.is_legal(c("g1"), 1)


def test_a_removed_stack_still_counts_but_takes_no_card() -> None:
    centre = run_to("y", 10)
    event = centre.remove(1, t=30.0, frame=900)
    assert (event.type, event.stack, event.card) == ("stack_removed", 1, c("y10"))
    assert centre.active_stacks == () and centre.total_cards == 10
    with pytest.raises(CentreError, match="removed"):
        centre.push(Landing(c("y1"), 1))
    assert centre.push(Landing(c("y1"))).stack == 2


@pytest.mark.parametrize("stack", [0, 3, -1])
def test_an_unknown_stack_is_an_error(stack: int) -> None:
    centre = run_to("r", 2)
    centre.push(Landing(c("b1")))
    with pytest.raises(CentreError, match=f"no stack {stack}"):
        centre.push(Landing(c("r3"), stack))


# ------------------------------------------------------------------------------------------------ queries


def test_legal_cards_are_the_next_of_each_stack_and_every_one() -> None:
    centre = build(("r1", None), ("r2", 1), ("b1", None))
    centre.push(Landing(c("r9"), 2))  # illegal: changes nothing
    assert sorted(map(str, centre.legal_cards())) == ["b1", "b2", "g1", "r1", "r3", "y1"]
    assert centre.is_legal(c("b2")) and not centre.is_legal(c("b3"))
    assert centre.is_legal(c("b2"), 2) and not centre.is_legal(c("b2"), 1)


def test_an_empty_centre_accepts_only_ones() -> None:
    assert sorted(map(str, Centre().legal_cards())) == ["b1", "g1", "r1", "y1"]


# --------------------------------------------------------------------------------------------------- stop


def test_every_landing_after_the_stop_is_after_stop() -> None:
    centre = run_to("r", 4)
    stop = centre.stop(back="blue-blue", t=60.0, frame=1800)
    assert (stop.type, stop.reason, stop.back) == ("round_stopped", "ligretto_stop", "blue-blue")
    assert centre.stopped and centre.legal_cards() == frozenset()
    for landing in (Landing(c("r5"), 1), Landing(c("g1"))):
        play = centre.push(landing)
        assert play.ruling.reason == "after_stop"
    assert centre.stack(1).top == c("r4") and centre.total_cards == 4
    assert len(centre.loose) == 2


def test_a_wrong_card_after_the_stop_carries_both_flags() -> None:
    centre = run_to("r", 4)
    centre.stop()
    ruling = centre.push(Landing(c("y9"), 1)).ruling
    assert ruling.reason == "after_stop"
    assert {v.value for v in ruling.violations} == {"after_stop", "wrong_colour", "wrong_number"}


def test_the_round_stops_only_once() -> None:
    centre = Centre()
    centre.stop(reason="deadlock")
    with pytest.raises(CentreError, match="already stopped"):
        centre.stop()


# ---------------------------------------------------------------------------------------------- conflicts


def test_two_identical_cards_together_lower_card_stays_by_default() -> None:
    centre = run_to("r", 4)
    play = centre.push_together(
        [Landing(c("r5"), 1, "red-red", t=5.0, frame=150), Landing(c("r5"), 1, "blue-blue", t=5.0, frame=150)]
    )
    assert play.kept == 0
    assert [e.type for e in play.events] == ["conflict", "card_played", "card_taken_back"]
    conflict = play.events[0]
    assert (conflict.card, conflict.cards, conflict.backs) == (c("r5"), (c("r5"), c("r5")), ("red-red", "blue-blue"))
    assert play.events[1].back == "red-red" and play.events[2].back == "blue-blue"
    assert centre.stack(1).top == c("r5") and centre.counts() == {"red-red": 1}
    assert centre.loose == ()
    assert isinstance(centre.move_stack[-1], Together)


def test_two_identical_cards_together_both_go_back_on_strict_tables() -> None:
    centre = run_to("r", 4)
    centre.settings = RuleSettings(conflict_resolution=ConflictResolution.BOTH_TAKEN_BACK)
    play = centre.push_together([Landing(c("r5"), 1, "red-red"), Landing(c("r5"), 1, "blue-blue")])
    assert play.kept is None
    assert [e.type for e in play.events] == ["conflict", "card_taken_back", "card_taken_back"]
    assert play.events[0].card is None
    assert centre.stack(1).top == c("r4")


def test_in_a_conflict_only_a_legal_card_can_stay() -> None:
    centre = run_to("b", 4)
    play = centre.push_together([Landing(c("b6"), 1, "red-red"), Landing(c("b5"), 1, "blue-blue")])
    assert play.kept == 1 and centre.stack(1).top == c("b5")
    assert [e.card for e in play.events if e.type == "card_taken_back"] == [c("b6")]


def test_two_ones_landing_together_start_one_stack() -> None:
    centre = Centre()
    play = centre.push_together([Landing(c("g1"), None, "red-red"), Landing(c("g1"), None, "blue-blue")])
    assert play.kept == 0 and play.stack == 1
    assert [e.type for e in play.events] == ["conflict", "stack_started", "card_taken_back"]
    assert len(centre.stacks) == 1


def test_a_conflict_after_the_stop_is_after_stop_for_every_card() -> None:
    centre = run_to("r", 4)
    centre.stop()
    play = centre.push_together([Landing(c("r5"), 1), Landing(c("r5"), 1)])
    assert play.kept is None and [e.reason for e in play.events] == ["after_stop", "after_stop"]
    centre.pop()
    assert centre.loose == () and centre.stopped


@pytest.mark.parametrize(
    "landings",
    [[Landing(Card.parse("r5"), 1)], [Landing(Card.parse("r5"), 1), Landing(Card.parse("r5"), None)]],
    ids=["one card", "different stacks"],
)
def test_a_conflict_needs_several_cards_on_one_stack(landings: list[Landing]) -> None:
    centre = run_to("r", 4)
    with pytest.raises(CentreError):
        centre.push_together(landings)


# ------------------------------------------------------------------------------------------------- undo


def test_pop_undoes_each_kind_of_action_in_reverse() -> None:
    centre = run_to("r", 10)
    centre.push(Landing(c("r2")))
    centre.push_together([Landing(c("g1")), Landing(c("g1"))])
    centre.remove(1)
    centre.stop()
    states = []
    probe = Centre()
    for action in centre.move_stack:
        states.append((probe.stacks, probe.loose, probe.stopped))
        apply(probe, action)
    kinds = []
    while centre.move_stack:
        expected = states.pop()
        kinds.append(type(centre.pop()).__name__)
        assert (centre.stacks, centre.loose, centre.stopped) == expected
    assert kinds[:4] == ["Stop", "Removal", "Together", "Landing"]
    with pytest.raises(CentreError, match="nothing to undo"):
        centre.pop()


def apply(centre: Centre, action: object) -> None:
    """Replays one action of a move stack (what a variant or a rebuilder would do)."""
    if isinstance(action, Landing):
        centre.push(action)
    elif isinstance(action, Together):
        centre.push_together(action.landings)
    elif isinstance(action, TakeBack):
        centre.take_back(action.card, stack=action.stack, back=action.back)
    elif isinstance(action, Removal):
        centre.remove(action.stack)
    elif isinstance(action, Stop):
        centre.stop(action.reason, back=action.back)


def test_a_copy_is_independent() -> None:
    centre = run_to("r", 3)
    twin = centre.copy()
    twin.push(Landing(c("r4"), 1))
    assert centre.stack(1).top == c("r3") and twin.stack(1).top == c("r4")
    assert len(twin.move_stack) == len(centre.move_stack) + 1


# ------------------------------------------------------------------------------------ counts and invariant


def test_counts_per_back_add_up_to_the_sum_of_the_tops() -> None:
    centre = Centre()
    owners = ["red-red", "blue-blue", None]
    for n in range(1, 8):
        stack = None if n == 1 else 1
        centre.push(Landing(c(f"y{n}"), stack, owners[n % 3]))
    centre.push(Landing(c("b1"), None, "red-red"))
    assert centre.counts() == {"blue-blue": 3, "red-red": 3}
    assert centre.unattributed() == 2
    assert centre.total_cards == 8 == sum(s.top.number for s in centre.stacks)
    centre.check()


def test_check_catches_a_broken_stack() -> None:
    centre = run_to("r", 3)
    from dataclasses import replace

    broken = replace(centre.stacks[0], cards=centre.stacks[0].cards[:1] + centre.stacks[0].cards[2:])
    centre._state = replace(centre._state, stacks=(broken,))
    with pytest.raises(CentreError, match="not a run from 1"):
        centre.check()


actions = st.lists(
    st.tuples(st.sampled_from(FULL_SET), st.integers(min_value=0, max_value=6), st.sampled_from(["a", "b", "c"])),
    max_size=120,
)


@settings(max_examples=150, deadline=None)
@given(actions, st.booleans())
def test_any_sequence_of_landings_keeps_the_centre_consistent(
    landings: list[tuple[Card, int, str]], favour_legal: bool
) -> None:
    """Whatever lands, in any order: stacks are runs from 1, the total is the sum of the tops, counts add up,
    illegal landings change nothing but the loose cards, and undoing everything gives an empty centre."""
    centre = Centre()
    for card, target, back in landings:
        if favour_legal and centre.stacks_for(card):
            stack: int | None = centre.stacks_for(card)[0]
        else:
            stack = target if 1 <= target <= len(centre.stacks) and not centre.stack(target).removed else None
        before = centre.stacks
        play = centre.push(Landing(card, stack, back))
        assert play.ruling.legal == (centre.stacks != before)
        assert play.ruling.legal == (card in Centre.legal_cards(_as_of(before)) and _fits(before, card, stack))
        centre.check()
    assert len(centre.loose) == sum(1 for a in centre.move_stack if isinstance(a, Landing)) - centre.total_cards
    while centre.move_stack:
        centre.pop()
    assert centre.stacks == () and centre.loose == ()


def _as_of(stacks: tuple) -> Centre:
    probe = Centre()
    probe._state = type(probe._state)(stacks=stacks)
    return probe


def _fits(stacks: tuple, card: Card, stack: int | None) -> bool:
    if stack is None:
        return card.number == 1
    top = stacks[stack - 1].top
    return top.colour == card.colour and top.number + 1 == card.number


def test_source_and_placements_flow_into_the_events() -> None:
    centre = run_to("r", 4)
    here, there = Placement(1.0, 2.0, 3.0), Placement(4.0, 5.0, 6.0)
    assert centre.push(Landing(c("r9"), 1, "a", here, source="row:2")).events[0].source == "row:2"
    assert centre.take_back(c("r9"), source="row:2").source == "row:2"
    play = centre.push_together([Landing(c("r5"), 1, "a", here, source="pile"), Landing(c("r5"), 1, "b", there)])
    conflict, played, returned = play.events
    assert conflict.placements == (here, there)
    assert (played.source, played.placement) == ("pile", here)
    assert returned.back == "b" and returned.source is None

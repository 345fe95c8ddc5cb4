"""The trace becomes cards at rest, cards in flight and hands: scenarios over small hand-made traces."""

from __future__ import annotations

import math
from typing import Any

import pytest

from referee.simulator import Round
from vision.render.video_timeline import CARD_THICKNESS_MM, Timeline, frame_of

FPS = 30.0


def _layout(pile: list[str], row: list[str], hand: list[str]) -> dict[str, Any]:
    places = {"hand": [-100.0, 300.0, 0.0], "discard": [-30.0, 300.0, 0.0], "row:0": [40.0, 300.0, 0.0]}
    places["pile"] = [110.0, 300.0, 0.0]
    seat = {
        "seat": 0,
        "back": "red-red",
        "anchor": [0.0, 300.0, 0.0],
        "places": places,
        "cards": {"row:0": row, "pile": pile, "hand": hand, "discard": []},
    }
    return {"kind": "layout", "t": 0.0, "table": {"radius": 500.0, "centre_radius": 250.0, "seats": [seat]}}


def _move(t: float, t_end: float, card: str, source: str, target: str, face: str = "up") -> dict[str, Any]:
    return {
        "kind": "move",
        "t": t,
        "t_end": t_end,
        "back": "red-red",
        "card": card,
        "from": source,
        "to": target,
        "placement": [0.0, 0.0, 10.0],
        "face": face,
    }


def _faces(timeline: Timeline, frame: int) -> dict[str, bool]:
    return {str(timeline.cards[c][1]): rest.face_up for c, rest in timeline.resting_at(frame, FPS).items()}


def test_the_ligretto_pile_shows_only_its_top_card_and_turns_the_next_one_up_when_it_leaves() -> None:
    timeline = Timeline.from_trace(
        [_layout(["r5", "b2", "g1"], ["y7"], ["r9"]), _move(1.0, 1.5, "g1", "pile", "centre:1")]
    )
    before, after = _faces(timeline, 29), _faces(timeline, 45)
    assert before == {"r5": False, "b2": False, "g1": True, "y7": True, "r9": False}
    assert after["b2"] is True and after["r5"] is False and after["g1"] is True


@pytest.mark.parametrize(
    ("frame", "resting", "flying"),
    [(29, True, False), (30, False, True), (44, False, True), (45, True, False)],
)
def test_a_card_leaves_its_place_when_the_move_starts_and_rests_from_the_frame_it_lands(
    frame: int, resting: bool, flying: bool
) -> None:
    timeline = Timeline.from_trace([_layout(["g1"], ["y7"], []), _move(1.0, 1.5, "y7", "row:0", "centre:1")])
    card = next(i for i, (_, c) in enumerate(timeline.cards) if str(c) == "y7")
    assert (card in timeline.resting_at(frame, FPS)) is resting
    assert any(f.card == card for f in timeline.flights_at(frame / FPS, FPS)) is flying


def test_a_flight_starts_where_the_card_lay_and_ends_on_its_placement() -> None:
    timeline = Timeline.from_trace([_layout(["g1"], ["y7"], []), _move(1.0, 1.5, "y7", "row:0", "centre:1")])
    flight = timeline.flights[0]
    start, _, _ = flight.at(1.0)
    end, _, _ = flight.at(1.5)
    assert (start.x, start.y) == pytest.approx((40.0, 300.0))
    assert (end.x, end.y, end.angle) == pytest.approx((0.0, 0.0, 10.0))
    assert flight.at(1.25)[0].lift > end.lift  # it rises on the way


def test_a_card_turned_over_narrows_to_its_edge_halfway_and_shows_the_other_side_after() -> None:
    trace = [_layout(["g1"], [], ["r9"]), _move(1.0, 2.0, "r9", "hand", "discard")]
    flight = Timeline.from_trace(trace).flights[0]
    assert flight.at(1.0)[1:] == (False, 1.0)
    assert flight.at(1.5)[2] < 0.1
    assert flight.at(2.0)[1] is True


def test_cards_landing_on_a_pile_lie_higher() -> None:
    trace = [_layout(["g1"], ["y7"], []), _move(1.0, 1.5, "y7", "row:0", "centre:1")]
    trace.append(_move(2.0, 2.5, "g1", "pile", "centre:1"))
    resting = Timeline.from_trace(trace).resting_at(90, FPS)
    lifts = sorted(rest.pose.lift for rest in resting.values())
    assert lifts == pytest.approx([CARD_THICKNESS_MM, 2 * CARD_THICKNESS_MM])


def test_the_hand_reaches_in_before_the_card_moves_carries_it_and_goes_back_to_rest() -> None:
    timeline = Timeline.from_trace([_layout(["g1"], ["y7"], []), _move(1.0, 1.5, "y7", "row:0", "centre:1")])
    hand = timeline.hands[0]
    assert hand.at(0.5) is None
    assert hand.at(0.9) is not None
    grip = hand.at(1.5 - 1e-6)
    assert grip is not None and grip[:2] == pytest.approx((0.0, 0.0), abs=0.1)
    assert hand.at(3.0) is None


def test_a_time_scale_of_two_plays_the_trace_twice_as_fast() -> None:
    trace = [_layout(["g1"], ["y7"], []), _move(1.0, 1.5, "y7", "row:0", "centre:1")]
    flight = Timeline.from_trace(trace, time_scale=2.0).flights[0]
    assert (flight.t0, flight.t1) == (0.5, 0.75)


@pytest.mark.parametrize(("t", "frame"), [(0.0, 0), (1.0, 30), (1.001, 31), (1 / 30 * 7, 7)])
def test_a_moment_belongs_to_the_first_frame_at_or_after_it(t: float, frame: int) -> None:
    assert frame_of(t, FPS) == frame


def test_every_card_of_a_simulated_round_is_somewhere_at_every_moment() -> None:
    result = Round(("red-red", "blue-blue", "green-green"), seed=5).play()
    timeline = Timeline.from_trace(result.trace_json())
    for frame in range(0, round(timeline.end * FPS), 97):
        resting = set(timeline.resting_at(frame, FPS))
        flying = {f.card for f in timeline.flights_at(frame / FPS, FPS)}
        assert not resting & flying
        assert len(resting | flying) == 3 * 40


def test_a_trace_without_its_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="layout"):
        Timeline.from_trace([_move(1.0, 1.5, "y7", "row:0", "centre:1")])


def test_with_a_seed_idle_hands_reach_over_the_stacks_now_and_then_and_never_after_the_stop() -> None:
    result = Round(("red-red", "blue-blue", "green-green"), seed=0).play()
    plain = Timeline.from_trace(result.trace_json())
    lively = Timeline.from_trace(result.trace_json(), seed=1)
    gathering = {s for hand in plain.hands for s in hand.segments if s.flight is None and s.a == s.b}
    hovers = [s for hand in lively.hands for s in hand.segments if s.flight is None and s.a == s.b]
    hovers = [s for s in hovers if s not in gathering]  # not the hands picking up their discard piles
    assert sum(len(h.segments) for h in lively.hands) > sum(len(h.segments) for h in plain.hands)
    assert hovers and all(math.hypot(*s.a) < lively.centre_radius + 60 for s in hovers)
    assert all(s.t1 <= result.outcome.t for s in hovers)
    assert Timeline.from_trace(result.trace_json(), seed=1) == lively

"""Visitors over event logs: the score sheet and the centre rebuilt from the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import FULL_SET, Card
from referee.centre import Centre, Landing
from referee.errors import CentreError, ScoringError
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    RoundScored,
    RoundStarted,
    RoundStopped,
    StackStarted,
)
from referee.rules import ConflictResolution, RuleSettings
from referee.visitors import CentreBuilder, EventVisitor, ScoreSheetBuilder, replay


def c(text: str) -> Card:
    return Card.parse(text)


def scored(round: int, **scores: int) -> RoundScored:
    return RoundScored(t=float(round * 100), round=round, scores={k.replace("_", "-"): v for k, v in scores.items()})


# ------------------------------------------------------------------------------------------- score sheet


def test_the_sheet_has_a_row_per_round_totals_and_the_winner() -> None:
    log = [
        RoundStarted(t=0.0, round=1, backs=("red-red", "blue-blue")),
        scored(1, red_red=12, blue_blue=-4),
        RoundStarted(t=100.5, round=2, backs=("red-red", "blue-blue")),
        scored(2, red_red=3, blue_blue=15),
    ]
    sheet = replay(log, ScoreSheetBuilder())
    assert sheet.backs == ("red-red", "blue-blue")
    assert [r.scores for r in sheet.rounds] == [{"red-red": 12, "blue-blue": -4}, {"red-red": 3, "blue-blue": 15}]
    assert sheet.totals == {"red-red": 15, "blue-blue": 11}
    assert sheet.winners == ("red-red",) and sheet.complete
    assert sheet.to_json()["winners"] == ["red-red"] and sheet.to_json()["ended_by"] == "rounds"


def test_a_tied_sheet_has_several_winners() -> None:
    sheet = replay([scored(1, a=5, b=5, c=-2)], ScoreSheetBuilder())
    assert sheet.winners == ("a", "b")


def test_a_player_at_the_table_without_a_score_line_scores_zero() -> None:
    log = [RoundStarted(t=0.0, backs=("a", "b", "c")), scored(1, a=-3, b=-1)]
    sheet = replay(log, ScoreSheetBuilder())
    assert sheet.totals == {"a": -3, "b": -1, "c": 0} and sheet.winners == ("c",)


def test_under_a_target_the_sheet_says_when_the_match_is_not_over() -> None:
    log = [scored(1, a=20, b=10), scored(2, a=20, b=10)]
    sheet = replay(log, ScoreSheetBuilder(RuleSettings(rounds=None, target_score=99)))
    assert not sheet.complete and sheet.winners == () and sheet.leaders == ("a",)


def test_under_a_target_the_match_ends_when_it_is_reached() -> None:
    sheet = replay(
        [scored(1, a=20, b=10), scored(2, a=20, b=30)], ScoreSheetBuilder(RuleSettings(rounds=None, target_score=40))
    )
    assert sheet.outcome is not None and sheet.outcome.reason == "target" and sheet.winners == ("a", "b")


def test_a_round_after_the_end_of_the_match_is_an_error() -> None:
    log = [scored(1, a=20, b=10), scored(2, a=1, b=1)]
    with pytest.raises(ScoringError, match="round 2: the match is over after 1 rounds"):
        replay(log, ScoreSheetBuilder(RuleSettings(rounds=1)))


def test_a_round_scored_twice_names_the_event() -> None:
    with pytest.raises(ScoringError, match=r"event 2 \(round_scored at t=100\): round 1 is scored twice"):
        replay([scored(1, a=1, b=2), scored(1, a=1, b=2)], ScoreSheetBuilder())


def test_scores_that_contradict_their_counts_name_the_event() -> None:
    bad = RoundScored(t=7.0, round=1, centre={"a": 3}, leftover={"a": 1}, scores={"a": 3, "b": 0})
    with pytest.raises(ScoringError, match=r"event 1 \(round_scored at t=7\): round 1: back 'a' scores 3"):
        replay([bad], ScoreSheetBuilder())


def test_a_log_without_scores_gives_an_empty_sheet() -> None:
    sheet = replay([RoundStarted(t=0.0, backs=("a", "b"))], ScoreSheetBuilder())
    assert sheet.rounds == () and sheet.totals == {"a": 0, "b": 0} and not sheet.complete


# ------------------------------------------------------------------------------------------------ centre


def test_the_centre_is_rebuilt_from_a_log() -> None:
    log = [
        RoundStarted(t=0.0, backs=("a", "b")),
        StackStarted(t=1.0, stack=1, card=c("g1"), back="a"),
        CardPlayed(t=2.0, stack=1, card=c("g2"), back="b"),
        IllegalPlay(t=3.0, stack=1, card=c("g4"), back="a", reason="wrong_number"),
        StackStarted(t=4.0, stack=2, card=c("y1"), back="b"),
        RoundStopped(t=5.0, back="a"),
        IllegalPlay(t=5.5, stack=2, card=c("y2"), back="a", reason="after_stop"),
    ]
    centre = replay(log, CentreBuilder())
    assert [str(s) for s in centre.stacks] == ["1:g2", "2:y1"]
    assert centre.counts() == {"a": 1, "b": 2} and centre.stopped
    assert [str(x.card) for x in centre.loose] == ["g4", "y2"]


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (CardPlayed(t=3.0, stack=1, card=c("g3")), "g3 on stack 1 is illegal: wrong_number"),
        (StackStarted(t=3.0, stack=2, card=c("g5")), "g5 cannot start a stack: not_a_one"),
        (StackStarted(t=3.0, stack=7, card=c("b1")), "the new stack is stack 2, the log says 7"),
        (IllegalPlay(t=3.0, stack=1, card=c("g2"), reason="wrong_colour"), "the judge says legal"),
        (IllegalPlay(t=3.0, stack=1, card=c("b5"), reason="stack_full"), "the judge says wrong_colour, wrong_number"),
        (CardPlayed(t=3.0, stack=9, card=c("g2")), "there is no stack 9"),
        (CardPlayed(t=3.0, card=c("g2")), "card_played event needs a stack"),
    ],
)
def test_a_log_that_contradicts_the_rules_is_refused_naming_the_event(event: Event, message: str) -> None:
    log = [StackStarted(t=1.0, stack=1, card=c("g1")), event]
    with pytest.raises(CentreError, match=rf"event 2 \({event.type} at t=3\): .*{message}"):
        replay(log, CentreBuilder())


def test_a_lenient_rebuild_collects_the_disagreements_and_follows_the_judge() -> None:
    log = [StackStarted(t=1.0, stack=1, card=c("g1")), CardPlayed(t=2.0, stack=1, card=c("g3"))]
    builder = CentreBuilder(strict=False)
    centre = replay(log, builder)
    assert builder.disagreements == ["g3 on stack 1 is illegal: wrong_number"]
    assert centre.stack(1).top == c("g1") and [x.card for x in centre.loose] == [c("g3")]


def test_each_round_gets_its_own_centre() -> None:
    log = [
        RoundStarted(t=0.0, round=1),
        StackStarted(t=1.0, stack=1, card=c("g1")),
        RoundStarted(t=50.0, round=2),
        StackStarted(t=51.0, stack=1, card=c("r1")),
        CardPlayed(t=52.0, stack=1, card=c("r2")),
    ]
    builder = CentreBuilder()
    assert replay(log, builder).stack(1).top == c("r2")
    assert [c.total_cards for c in builder.centres] == [1, 2]


@pytest.mark.parametrize("resolution", list(ConflictResolution))
def test_a_conflict_in_the_log_is_replayed_and_its_echoes_are_not_counted_twice(resolution: ConflictResolution) -> None:
    rules = RuleSettings(conflict_resolution=resolution)
    live = Centre(rules)
    log: list[Event] = list(live.push(Landing(c("b1"), back="a")).events)
    log += live.push_together([Landing(c("b2"), 1, "a", t=2.0), Landing(c("b2"), 1, "b", t=2.0)]).events
    centre = replay(log, CentreBuilder(rules))
    assert centre.stacks == live.stacks and centre.loose == ()


def test_an_illegal_card_like_a_conflicts_card_is_taken_back_by_its_own_player_first() -> None:
    # b2 and b2 collide on stack 1 (c keeps hers, a takes his back later); then b's b2 lands on the same
    # stack, a wrong number now, and b picks it up before a does: each take-back belongs to its owner.
    log: list[Event] = [
        StackStarted(t=1.0, stack=1, card=c("b1"), back="a"),
        Conflict(t=2.0, stack=1, card=c("b2"), cards=(c("b2"), c("b2")), backs=("c", "a")),
        CardPlayed(t=2.0, stack=1, card=c("b2"), back="c"),
        IllegalPlay(t=2.5, stack=1, card=c("b2"), back="b", reason="wrong_number"),
        CardTakenBack(t=3.0, stack=1, card=c("b2"), back="b"),
        CardTakenBack(t=3.4, stack=1, card=c("b2"), back="a"),
    ]
    centre = replay(log, CentreBuilder())
    assert centre.loose == ()
    assert centre.counts() == {"a": 1, "c": 1}
    assert [str(x) for x in centre.move_stack][-1] == "Take back b2 from stack 1"


class _TypeCounter(EventVisitor[dict[str, int]]):
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def visit(self, event: Event) -> None:
        self.counts[event.type] = self.counts.get(event.type, 0) + 1
        super().visit(event)

    def visit_other(self, event: Event) -> None:
        self.counts["other"] = self.counts.get("other", 0) + 1

    def result(self) -> dict[str, int]:
        return self.counts


@dataclass(frozen=True, kw_only=True)
class _Cheer(Event):
    type: ClassVar[str] = "test_cheer"


def test_a_visitor_sees_every_event_and_unknown_types_go_to_visit_other() -> None:
    log = [StackStarted(t=1.0, stack=1, card=c("g1")), _Cheer(t=2.0), scored(1, a=1, b=0)]
    assert replay(log, _TypeCounter()) == {"stack_started": 1, "test_cheer": 1, "other": 1, "round_scored": 1}


# -------------------------------------------------------------------------------------------- properties

table_actions = st.lists(
    st.one_of(
        st.tuples(st.just("land"), st.sampled_from(FULL_SET), st.integers(0, 5), st.sampled_from("ab")),
        st.tuples(st.just("together"), st.sampled_from(FULL_SET), st.integers(0, 5), st.sampled_from("ab")),
        st.tuples(st.just("take_back"), st.integers(0, 9)),
        st.tuples(st.just("remove"), st.integers(1, 5)),
        st.tuples(
            st.just("stop"),
        ),
    ),
    max_size=80,
)


@settings(max_examples=120, deadline=None)
@given(table_actions, st.sampled_from(list(ConflictResolution)))
def test_any_play_logged_by_the_centre_rebuilds_the_same_centre(
    actions: list[tuple], resolution: ConflictResolution
) -> None:
    """Whatever happens at the table, the log the centre writes replays to the same stacks and loose cards."""
    rules = RuleSettings(conflict_resolution=resolution)
    live = Centre(rules)
    log: list[Event] = []
    for t, action in enumerate(actions):
        log += _perform(live, action, float(t))
    rebuilt = replay(log, CentreBuilder(rules))
    assert rebuilt.stacks == live.stacks
    assert [(x.card, x.stack) for x in rebuilt.loose] == [(x.card, x.stack) for x in live.loose]
    assert rebuilt.stopped == live.stopped
    rebuilt.check()


def _perform(centre: Centre, action: tuple, t: float) -> list[Event]:
    kind = action[0]
    if kind in ("land", "together"):
        _, card, target, back = action
        open_ids = [s.id for s in centre.active_stacks]
        fitting = centre.stacks_for(card)
        stack = (
            fitting[0]
            if fitting and target % 2
            else (open_ids[target % len(open_ids)] if open_ids and target else None)
        )
        if kind == "land":
            return list(centre.push(Landing(card, stack, back, t=t)).events)
        other = "b" if back == "a" else "a"
        return list(centre.push_together([Landing(card, stack, back, t=t), Landing(card, stack, other, t=t)]).events)
    if kind == "take_back" and centre.loose:
        loose = centre.loose[action[1] % len(centre.loose)]
        return [centre.take_back(loose.card, stack=loose.stack, back=loose.back, t=t)]
    if kind == "remove" and centre.active_stacks:
        return [centre.remove(centre.active_stacks[action[1] % len(centre.active_stacks)].id, t=t)]
    if kind == "stop" and not centre.stopped:
        return [centre.stop(t=t)]
    return []

"""Round scores: +1 per own centre card, -2 per card left in the own Ligretto pile, nothing else counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import ScoringError
from referee.events import RoundScored
from referee.scoring import HIGHEST_ROUND_SCORE, LOWEST_ROUND_SCORE, RoundResult, round_score, score_round


@pytest.mark.parametrize(
    ("centre", "leftover", "score"),
    [
        (0, 0, 0),
        (12, 0, 12),  # the player who called "Ligretto stop"
        (12, 3, 6),
        (3, 5, -7),  # negative
        (0, 10, -20),  # never got a pile card out: the lowest score
        (30, 10, 10),  # a full set: all non-pile cards out, the whole pile left
        (40, 0, 40),  # every card of the set in the centre: the highest score
    ],
)
def test_a_round_score_is_centre_cards_minus_twice_the_pile(centre: int, leftover: int, score: int) -> None:
    assert round_score(centre, leftover) == score


@pytest.mark.parametrize(
    ("centre", "leftover", "message"),
    [(41, 0, "outside 0..40"), (-1, 0, "outside 0..40"), (0, 11, "outside 0..10"), (31, 10, "more than a set")],
)
def test_impossible_counts_are_refused(centre: int, leftover: int, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        round_score(centre, leftover)


@given(st.integers(0, 10).flatmap(lambda left: st.tuples(st.integers(0, 40 - left), st.just(left))))
def test_every_possible_round_score_lies_in_minus_twenty_to_forty(counts: tuple[int, int]) -> None:
    assert LOWEST_ROUND_SCORE <= round_score(*counts) <= HIGHEST_ROUND_SCORE


def test_a_player_with_no_cards_counted_scores_zero() -> None:
    scores = score_round({"red-red": 5}, {}, backs=["red-red", "blue-blue"])
    assert scores == {"red-red": 5, "blue-blue": 0}


def test_counts_for_a_back_not_at_the_table_are_refused() -> None:
    with pytest.raises(ScoringError, match="not in the round: green-green"):
        score_round({"green-green": 5}, {}, backs=["red-red", "blue-blue"])


def test_a_round_result_writes_and_reads_its_event() -> None:
    result = RoundResult.from_counts(3, {"red-red": 14, "blue-blue": 2}, {"blue-blue": 6})
    event = result.to_event(t=90.0, frame=2700)
    assert (event.type, event.round, event.scores) == ("round_scored", 3, {"red-red": 14, "blue-blue": -10})
    assert event.leftover == {"red-red": 0, "blue-blue": 6}
    assert RoundResult.from_event(event) == result


def test_a_scored_event_whose_scores_contradict_its_counts_is_refused() -> None:
    event = RoundScored(t=1.0, round=2, centre={"a": 10}, leftover={"a": 2}, scores={"a": 10})
    with pytest.raises(ScoringError, match="round 2: back 'a' scores 10 but its counts give 6"):
        RoundResult.from_event(event)


@pytest.mark.parametrize("score", [-21, 41])
def test_a_scored_event_outside_the_range_is_refused(score: int) -> None:
    with pytest.raises(ScoringError, match=r"outside -20\.\.40"):
        RoundResult.from_event(RoundScored(t=1.0, scores={"a": score}))


def test_a_scored_event_with_counts_only_is_scored_from_them() -> None:
    result = RoundResult.from_event(RoundScored(t=1.0, centre={"a": 4}, leftover={"b": 1}))
    assert result.scores == {"a": 4, "b": -2}


def test_a_scored_event_without_scores_or_counts_is_refused() -> None:
    with pytest.raises(ScoringError, match="without scores or counts"):
        RoundResult.from_event(RoundScored(t=1.0, round=4))

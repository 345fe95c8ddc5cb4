"""Matches: a number of rounds, a target score, or both (whichever comes first); ties give several winners."""

from __future__ import annotations

import pytest

from referee.errors import ScoringError, SetupError
from referee.match import Match, MatchOutcome
from referee.rules import RuleSettings

BACKS = ["red-red", "blue-blue", "green-green"]


def play(match: Match, *rounds: tuple[int, int, int]) -> None:
    for scores in rounds:
        match.record(dict(zip(BACKS, scores, strict=True)))


def test_one_round_is_the_default_match_and_the_highest_score_wins() -> None:
    match = Match(BACKS)
    play(match, (12, -4, 7))
    assert match.outcome() == MatchOutcome(
        ("red-red",), {"red-red": 12, "blue-blue": -4, "green-green": 7}, 1, "rounds"
    )


def test_a_match_of_three_rounds_ends_after_the_third() -> None:
    match = Match(BACKS, RuleSettings(rounds=3))
    play(match, (10, 0, 5), (-2, 20, 5))
    assert match.outcome() is None and not match.is_over()
    assert match.leaders() == ("blue-blue",)
    play(match, (13, 0, 5))
    outcome = match.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.rounds, outcome.reason) == (("red-red",), 3, "rounds")
    assert match.running_totals() == [
        {"red-red": 10, "blue-blue": 0, "green-green": 5},
        {"red-red": 8, "blue-blue": 20, "green-green": 10},
        {"red-red": 21, "blue-blue": 20, "green-green": 15},
    ]


def test_the_highest_total_wins_even_if_it_never_won_a_round() -> None:
    match = Match(BACKS, RuleSettings(rounds=2))
    play(match, (10, 9, 0), (0, 9, 10))
    assert match.outcome().winners == ("blue-blue",)  # type: ignore[union-attr]


def test_a_target_match_ends_when_a_total_reaches_the_target() -> None:
    match = Match(BACKS, RuleSettings(rounds=None, target_score=50))
    play(match, (20, 10, 0), (20, 10, 0))
    assert match.outcome() is None
    play(match, (10, 40, 0))
    outcome = match.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.totals["red-red"], outcome.reason) == (("blue-blue",), 50, "target")


def test_a_target_match_can_be_won_by_another_player_than_the_one_who_reached_it() -> None:
    match = Match(BACKS, RuleSettings(rounds=None, target_score=30))
    play(match, (25, 28, 0), (5, 4, 0))
    outcome = match.outcome()
    assert outcome is not None and outcome.totals["red-red"] == 30 and outcome.winners == ("blue-blue",)


@pytest.mark.parametrize(
    ("rounds", "target", "scores", "played", "reason"),
    [
        (5, 30, [(20, 0, 0), (15, 0, 0)], 2, "target"),  # the target comes first
        (2, 99, [(20, 0, 0), (15, 0, 0)], 2, "rounds"),  # the rounds run out first
        (2, 35, [(20, 0, 0), (15, 0, 0)], 2, "target"),  # both at once: the target says why
    ],
)
def test_with_rounds_and_a_target_the_match_ends_at_whichever_comes_first(
    rounds: int, target: int, scores: list[tuple[int, int, int]], played: int, reason: str
) -> None:
    match = Match(BACKS, RuleSettings(rounds=rounds, target_score=target))
    play(match, *scores)
    outcome = match.outcome()
    assert outcome is not None and (outcome.rounds, outcome.reason) == (played, reason)


@pytest.mark.parametrize(
    ("scores", "winners"),
    [
        ((10, 10, 3), ("red-red", "blue-blue")),
        ((4, 4, 4), ("red-red", "blue-blue", "green-green")),
        ((-6, -6, -8), ("red-red", "blue-blue")),
    ],
)
def test_a_tie_gives_several_winners(scores: tuple[int, int, int], winners: tuple[str, ...]) -> None:
    match = Match(BACKS)
    play(match, scores)
    assert match.outcome().winners == winners  # type: ignore[union-attr]


def test_no_round_can_be_scored_after_the_match_is_over() -> None:
    match = Match(BACKS, RuleSettings(rounds=1))
    play(match, (1, 2, 3))
    with pytest.raises(ScoringError, match="over after 1 rounds"):
        play(match, (1, 2, 3))


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ({"red-red": 1, "blue-blue": 2}, "no score for green-green"),
        ({"red-red": 1, "blue-blue": 2, "green-green": 3, "pink": 0}, "not in the match: pink"),
        ({"red-red": 41, "blue-blue": 2, "green-green": 3}, "outside -20..40"),
    ],
)
def test_a_round_must_score_every_back_of_the_match_and_only_them(scores: dict[str, int], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        Match(BACKS).record(scores)


@pytest.mark.parametrize("backs", [["red-red"], ["red-red", "red-red"], [f"b{i}" for i in range(13)]])
def test_a_match_needs_two_to_twelve_distinct_backs(backs: list[str]) -> None:
    with pytest.raises(SetupError):
        Match(backs)


def test_before_any_round_everyone_leads_and_nobody_has_won() -> None:
    match = Match(BACKS)
    assert match.leaders() == tuple(BACKS) and match.outcome() is None and match.totals() == dict.fromkeys(BACKS, 0)

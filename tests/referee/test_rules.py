"""The judge and the settings: every violation, the stop, conflicts under both settings, set-up checks."""

from __future__ import annotations

import pytest

from referee.cards import FULL_SET, Card
from referee.errors import SetupError
from referee.rules import (
    ConflictResolution,
    RuleSettings,
    ShortHand,
    Violation,
    check_setup,
    judge,
    playable_on,
    resolve_conflict,
    row_size,
)


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize(
    ("top", "card", "violations"),
    [
        (None, "r1", set()),
        (None, "b1", set()),
        (None, "r2", {"not_a_one"}),
        (None, "g10", {"not_a_one"}),
        ("r4", "r5", set()),
        ("r4", "y5", {"wrong_colour"}),
        ("r4", "r6", {"wrong_number"}),
        ("r4", "r4", {"wrong_number"}),
        ("r4", "r3", {"wrong_number"}),
        ("r4", "b7", {"wrong_colour", "wrong_number"}),
        ("r9", "r10", set()),
        ("r10", "r1", {"stack_full"}),
        ("r10", "b1", {"stack_full"}),
        ("g1", "g1", {"wrong_number"}),
    ],
)
def test_the_judge_names_every_violation(top: str | None, card: str, violations: set[str]) -> None:
    ruling = judge(None if top is None else c(top), c(card))
    assert {v.value for v in ruling.violations} == violations
    assert ruling.legal is (not violations) and bool(ruling) is (not violations)


@pytest.mark.parametrize(("top", "card"), [(None, "r1"), ("r4", "r5"), ("r4", "y9"), ("r10", "r1"), (None, "b3")])
def test_after_the_stop_every_card_is_after_stop_first(top: str | None, card: str) -> None:
    ruling = judge(None if top is None else c(top), c(card), stopped=True)
    assert ruling.reason == "after_stop"
    assert Violation.AFTER_STOP in ruling.violations


def test_the_reason_of_several_violations_is_the_most_decisive() -> None:
    assert judge(c("r4"), c("b7")).reason == "wrong_colour"
    assert judge(None, c("b7"), stopped=True).reason == "after_stop"
    assert judge(c("r4"), c("r5")).reason is None


@pytest.mark.parametrize("top", FULL_SET, ids=str)
def test_exactly_one_card_follows_each_top_and_none_follows_a_ten(top: Card) -> None:
    followers = [card for card in FULL_SET if judge(top, card).legal]
    assert followers == ([] if top.number == 10 else [playable_on(top)])


def test_playable_on_a_new_stack_is_not_a_single_card() -> None:
    assert playable_on(None) is None


# ------------------------------------------------------------------------------------------------ conflicts


@pytest.mark.parametrize(
    ("resolution", "top", "cards", "kept", "taken_back"),
    [
        (ConflictResolution.LOWER_CARD_STAYS, "r4", ["r5", "r5"], "r5", (1,)),
        (ConflictResolution.LOWER_CARD_STAYS, "r4", ["r6", "r5"], "r5", (0,)),
        (ConflictResolution.LOWER_CARD_STAYS, "r4", ["r6", "y5"], None, (0, 1)),
        (ConflictResolution.LOWER_CARD_STAYS, None, ["g1", "b1", "g1"], "g1", (1, 2)),
        (ConflictResolution.BOTH_TAKEN_BACK, "r4", ["r5", "r5"], None, (0, 1)),
        (ConflictResolution.BOTH_TAKEN_BACK, "r4", ["r6", "r5", "r5"], None, (0, 1, 2)),
    ],
)
def test_conflicts_are_resolved_by_the_setting(
    resolution: ConflictResolution, top: str | None, cards: list[str], kept: str | None, taken_back: tuple[int, ...]
) -> None:
    settings = RuleSettings(conflict_resolution=resolution)
    result = resolve_conflict(None if top is None else c(top), [c(x) for x in cards], settings)
    assert result == (None if kept is None else c(kept), taken_back)


# ------------------------------------------------------------------------------------------------- settings


def test_the_defaults_are_those_of_the_rules_summary() -> None:
    settings = RuleSettings()
    assert settings.conflict_resolution is ConflictResolution.LOWER_CARD_STAYS
    assert settings.short_hand is ShortHand.TURN_REMAINING
    assert (settings.rounds, settings.target_score) == (1, None)
    assert (settings.advanced_row, settings.one_hand, settings.turn_over) == (False, False, 3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": None, "target_score": None}, "rounds or a target score"),
        ({"rounds": 0}, "at least 1 round"),
        ({"rounds": None, "target_score": 0}, "target score must be positive"),
        ({"turn_over": 0}, "at least 1"),
    ],
)
def test_impossible_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        RuleSettings(**kwargs)  # type: ignore[arg-type]


def test_settings_take_every_open_point() -> None:
    settings = RuleSettings(
        conflict_resolution=ConflictResolution.BOTH_TAKEN_BACK,
        short_hand=ShortHand.RESHUFFLE_FIRST,
        rounds=None,
        target_score=99,
        advanced_row=True,
        one_hand=True,
    )
    assert settings.target_score == 99 and settings.advanced_row and settings.one_hand


# -------------------------------------------------------------------------------------------------- set-up


@pytest.mark.parametrize(("players", "row"), [(2, 5), (3, 4), *((n, 3) for n in range(4, 13))])
def test_row_size_by_player_count(players: int, row: int) -> None:
    assert row_size(players) == row


@pytest.mark.parametrize("players", [0, 1, 13, 20])
def test_row_size_refuses_an_impossible_table(players: int) -> None:
    with pytest.raises(SetupError, match=f"not {players}"):
        row_size(players)


@pytest.mark.parametrize("players", range(2, 13))
def test_two_to_twelve_players_with_distinct_backs_may_play(players: int) -> None:
    check_setup([f"back-{i}" for i in range(players)])


@pytest.mark.parametrize("players", [0, 1, 13])
def test_fewer_than_two_or_more_than_twelve_players_cannot(players: int) -> None:
    with pytest.raises(SetupError, match="2 to 12 players"):
        check_setup([f"back-{i}" for i in range(players)])


def test_two_players_cannot_share_a_back() -> None:
    with pytest.raises(SetupError, match="same back 'red-red'"):
        check_setup(["red-red", "blue-blue", "red-red"])

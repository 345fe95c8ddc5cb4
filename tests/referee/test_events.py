"""The event log: every type round-trips through JSON Lines; a broken line is named by its number."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from referee.cards import Card
from referee.errors import InputFileError, NotationError
from referee.events import (
    EVENT_TYPES,
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    Placement,
    RoundScored,
    RoundStarted,
    RoundStopped,
    RulingWithdrawn,
    StackRemoved,
    StackStarted,
    read_events,
    write_events,
)

R5 = Card.parse("r5")

SAMPLES: list[Event] = [
    RoundStarted(t=0.0, frame=0, round=2, backs=("red-red", "blue-blue"), seed=7),
    StackStarted(t=1.25, frame=37, stack=1, card=Card.parse("r1"), back="red-red", placement=Placement(10, -5, 12.5)),
    CardPlayed(t=2.5, frame=75, stack=1, card=Card.parse("r2"), back="blue-blue", placement=Placement(11.5, -4)),
    IllegalPlay(t=3.0, frame=90, stack=1, card=Card.parse("y3"), back="red-red", reason="wrong_colour", expected=R5),
    IllegalPlay(t=3.1, frame=93, card=Card.parse("g4"), reason="not_a_one"),
    CardTakenBack(t=4.0, frame=120, stack=1, card=Card.parse("y3"), back="red-red"),
    RulingWithdrawn(t=3.1, frame=93, card=Card.parse("g4"), ruled="not_a_one"),
    Conflict(t=5.0, frame=150, stack=1, card=R5, cards=(R5, R5), backs=("red-red", "blue-blue")),
    StackRemoved(t=6.0, frame=180, stack=1, card=Card.parse("r10")),
    RoundStopped(t=60.0, frame=1800, reason="ligretto_stop", back="blue-blue"),
    RoundScored(t=61.0, frame=1830, round=2, centre={"red-red": 12}, leftover={"red-red": 3}, scores={"red-red": 6}),
]


def test_the_samples_cover_every_event_type() -> None:
    assert {e.type for e in SAMPLES} >= set(EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_every_event_type_round_trips_through_a_json_line(event: Event) -> None:
    line = event.to_json_line()
    assert "\n" not in line
    assert Event.from_json_line(line) == event


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type)
def test_every_event_carries_time_frame_type_stack_and_card(event: Event) -> None:
    data = event.to_json()
    assert list(data)[:5] == ["t", "frame", "type", "stack", "card"]


def test_an_illegal_play_writes_its_reason() -> None:
    data = SAMPLES[3].to_json()
    assert data["reason"] == "wrong_colour" and data["expected"] == {"colour": "red", "number": 5}


def test_a_log_round_trips_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        assert write_events(SAMPLES, handle) == len(SAMPLES)
    assert list(read_events(path)) == SAMPLES
    assert list(read_events(io.StringIO(path.read_text()))) == SAMPLES


def test_blank_lines_are_skipped() -> None:
    text = "\n" + SAMPLES[0].to_json_line() + "\n\n  \n" + SAMPLES[1].to_json_line() + "\n"
    assert list(read_events(text.splitlines())) == SAMPLES[:2]


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ('{"t": 1.0, "type": "card_played", "card": {"colour": "red"', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"t": 1.0, "type": "card_flipped"}', "unknown event type 'card_flipped'"),
        ('{"type": "card_played"}', "needs a time t"),
        ('{"t": 1.0, "type": "card_played", "card": {"colour": "red", "number": 11}}', "outside 1..10"),
        ('{"t": 1.0, "type": "card_played", "card": {"colour": "mauve", "number": 1}}', "unknown colour"),
        ('{"t": 1.0, "type": "stack_started", "placement": [1]}', "placement"),
        ('{"t": 1.0, "type": "round_scored", "scores": [1, 2]}', "scores must be an object"),
        ('{"t": 1.0, "type": "round_scored", "scores": {"a": "many"}}', "scores is malformed"),
        ('{"t": 1.0, "type": "conflict", "cards": 5}', "cards is malformed"),
        ('{"t": 1.0, "type": "card_played", "stack": "two"}', "stack must be an integer"),
        ('{"t": 1.0, "frame": 2.5, "type": "card_played"}', "frame must be an integer"),
    ],
)
def test_a_broken_line_is_named_by_its_number(tmp_path: Path, broken: str, message: str) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join([SAMPLES[0].to_json_line(), SAMPLES[1].to_json_line(), broken]) + "\n")
    events = read_events(path)
    assert next(events) == SAMPLES[0] and next(events) == SAMPLES[1]
    with pytest.raises(NotationError, match=f"{path} line 3: .*{message}"):
        next(events)


def test_a_field_from_a_newer_writer_is_ignored() -> None:
    line = (
        '{"t": 1.0, "frame": 3, "type": "card_played", "stack": 2, "card": {"colour": "red", "number": 5}, "mood": 1}'
    )
    assert Event.from_json_line(line) == CardPlayed(t=1.0, frame=3, stack=2, card=R5)


def test_a_missing_log_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="cannot read event log"):
        list(read_events(tmp_path / "nope.jsonl"))

"""The embedded database: sessions, rounds, events and scores survive a reopen and a kill -9 mid-round."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from referee.cards import Card
from referee.events import CardPlayed, IllegalPlay, RoundScored, RoundStarted, RoundStopped, StackStarted
from referee.store import MIGRATIONS, SCHEMA_VERSION, NotFoundError, Store, StoreError


def _round_log() -> list:
    return [
        RoundStarted(t=0.0, round=1, backs=("red-red", "blue-blue")),
        StackStarted(t=1.0, frame=30, stack=1, card=Card.parse("g1"), back="red-red"),
        CardPlayed(t=2.0, frame=60, stack=1, card=Card.parse("g2"), back="blue-blue"),
        IllegalPlay(t=3.0, frame=90, stack=1, card=Card.parse("g4"), reason="wrong_number", expected=Card.parse("g3")),
        RoundStopped(t=4.0, frame=120, reason="signal"),
        RoundScored(
            t=9.0, frame=270, round=1, centre={"red-red": 1, "blue-blue": 1}, scores={"red-red": 1, "blue-blue": 1}
        ),
    ]


def test_a_round_reads_back_exactly_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    store = Store(path)
    session = store.create_session("Friday", rounds=2, source="round.mp4")
    rnd = store.start_round(session.id)
    for event in _round_log():
        store.add_event(rnd.id, event)
    store.close()

    again = Store(path)
    assert [e.event for e in again.events(session.id)] == _round_log()
    assert again.scores(session.id) == [
        {"round": 1, "back": "red-red", "centre": 1, "leftover": 0, "score": 1},
        {"round": 1, "back": "blue-blue", "centre": 1, "leftover": 0, "score": 1},
    ]
    stored = again.rounds(session.id)[0]
    assert stored.stopped is not None and stored.scored is not None
    assert again.session(session.id).rounds == 2


def test_rounds_number_from_one_per_session(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    first, second = store.create_session("a"), store.create_session("b")
    numbers = [
        store.start_round(first.id).number,
        store.start_round(first.id).number,
        store.start_round(second.id).number,
    ]
    assert numbers == [1, 2, 1]
    assert [s.name for s in store.sessions()] == ["b", "a"]


def test_events_after_a_sequence_number_are_the_newer_ones(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    session = store.create_session("a")
    rnd = store.start_round(session.id)
    seqs = [store.add_event(rnd.id, e) for e in _round_log()]
    assert [e.seq for e in store.events(session.id, after=seqs[2])] == seqs[3:]


def test_a_player_renamed_keeps_their_seat(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    session = store.create_session("a")
    store.set_player(session.id, "red-red", "Ada")
    store.set_player(session.id, "blue-blue", "Bob")
    store.set_player(session.id, "red-red", "Ada L.")
    assert store.players(session.id) == {"red-red": "Ada L.", "blue-blue": "Bob"}
    assert store.remove_player(session.id, "blue-blue")
    assert store.players(session.id) == {"red-red": "Ada L."}


@pytest.mark.parametrize("missing", ["session", "round"])
def test_unknown_ids_are_named(tmp_path: Path, missing: str) -> None:
    store = Store(tmp_path / "t.db")
    with pytest.raises(NotFoundError, match=f"no {missing} 42"):
        store.session(42) if missing == "session" else store.add_event(42, _round_log()[0])


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this program"):
        Store(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open database"):
        Store(path)


def test_a_fresh_file_is_at_the_latest_schema_with_wal(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.db")
    assert store.schema_version == SCHEMA_VERSION == len(MIGRATIONS)
    assert store._query("PRAGMA journal_mode")[0][0] == "wal"


CHILD = textwrap.dedent(
    """
    import sys, itertools
    from referee.cards import Card
    from referee.events import CardPlayed, RoundStarted
    from referee.store import Store

    store = Store(sys.argv[1])
    session = store.create_session("killed")
    rnd = store.start_round(session.id)
    print(store.add_event(rnd.id, RoundStarted(t=0.0, round=1, backs=("red-red",))), flush=True)
    for i in itertools.count(1):
        card = Card.parse(f"r{i % 10 + 1}")
        seq = store.add_event(rnd.id, CardPlayed(t=i / 30, frame=i, stack=1, card=card, back="red-red"))
        print(seq, flush=True)
    """
)


def test_kill_9_mid_round_loses_nothing_up_to_the_last_event(tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    acknowledged = [int(child.stdout.readline()) for _ in range(200)]
    child.send_signal(signal.SIGKILL)  # while it goes on writing events
    child.wait()
    assert child.returncode == -signal.SIGKILL

    store = Store(path)
    session = store.latest_session()
    assert session is not None and session.name == "killed"
    stored = store.events(session.id)
    assert [e.seq for e in stored[: len(acknowledged)]] == acknowledged
    assert stored[0].event.type == "round_started"
    assert all(e.event.type == "card_played" for e in stored[1:])
    assert store.rounds(session.id)[0].scored is None

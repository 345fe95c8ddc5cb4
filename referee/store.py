"""The embedded database: sessions, players, enrolled backs, rounds, events and scores in one SQLite file.

Every event is committed the moment it is added (one transaction each, WAL journal), so a process killed with
``kill -9`` mid-round loses nothing up to the last event it added; a ``round_scored`` event and its score rows
go in together, so the database is never left half-written. The schema carries its version in
``PRAGMA user_version`` and :data:`MIGRATIONS` brings an older file up to date when it is opened.

>>> from referee.cards import Card
>>> from referee.events import RoundStarted, StackStarted
>>> store = Store(":memory:")
>>> session = store.create_session("Friday", rounds=3)
>>> store.set_player(session.id, "red-red", "Ada")
>>> rnd = store.start_round(session.id)
>>> store.add_event(rnd.id, RoundStarted(t=0.0, round=rnd.number, backs=("red-red",)))
1
>>> store.add_event(rnd.id, StackStarted(t=1.0, frame=30, stack=1, card=Card.parse("g1"), back="red-red"))
2
>>> [(e.seq, e.round, e.event.type) for e in store.events(session.id)]
[(1, 1, 'round_started'), (2, 1, 'stack_started')]
>>> store.players(session.id)
{'red-red': 'Ada'}
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import LigrettoError
from referee.events import Event, RoundScored, RoundStopped

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created REAL NOT NULL,
        source TEXT NOT NULL DEFAULT '',
        rounds INTEGER,
        target INTEGER
    );
    CREATE TABLE players (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        back TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (session_id, back)
    );
    CREATE TABLE backs (
        id TEXT PRIMARY KEY,
        design TEXT NOT NULL,
        enrolled REAL NOT NULL
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        started REAL NOT NULL,
        stopped REAL,
        scored REAL,
        UNIQUE (session_id, number)
    );
    CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        t REAL NOT NULL,
        frame INTEGER NOT NULL,
        added REAL NOT NULL,
        body TEXT NOT NULL
    );
    CREATE INDEX events_by_session ON events (session_id, seq);
    CREATE TABLE scores (
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        back TEXT NOT NULL,
        centre INTEGER NOT NULL,
        leftover INTEGER NOT NULL,
        score INTEGER NOT NULL,
        PRIMARY KEY (round_id, back)
    );
    """,
)
"""Schema scripts in order; script ``i`` takes a file from ``user_version`` i to i + 1. Append, never edit."""

SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(LigrettoError):
    """The database file cannot be opened or is newer than this program."""


class NotFoundError(LigrettoError, LookupError):
    """A session or round that does not exist."""


@dataclass(frozen=True)
class SessionRow:
    """A sitting at the table: its match settings (``rounds`` and/or ``target``) and where frames came from."""

    id: int
    name: str
    created: float
    source: str
    rounds: int | None
    target: int | None


@dataclass(frozen=True)
class RoundRow:
    id: int
    session_id: int
    number: int
    started: float
    stopped: float | None
    scored: float | None


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its global sequence number, its round's number and when it was added (epoch s)."""

    seq: int
    round: int
    added: float
    event: Event

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "round": self.round, "added": round(self.added, 4), "event": self.event.to_json()}


class Store:
    """One SQLite file (or ``":memory:"``); safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10.0)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
            self._db.execute("PRAGMA foreign_keys=ON")
            self._lock = threading.RLock()
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open database {self.path}: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._db.execute(sql, params))

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(f"database {self.path} has schema {version}, newer than this program's {SCHEMA_VERSION}")
        for number in range(version, SCHEMA_VERSION):
            with self._transaction() as db:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    @property
    def schema_version(self) -> int:
        return int(self._query("PRAGMA user_version")[0][0])

    # ---- sessions

    def create_session(
        self, name: str, *, rounds: int | None = 1, target: int | None = None, source: str = ""
    ) -> SessionRow:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO sessions (name, created, source, rounds, target) VALUES (?, ?, ?, ?, ?)",
                (name, time.time(), source, rounds, target),
            )
        return self.session(int(cursor.lastrowid or 0))

    def session(self, session_id: int) -> SessionRow:
        rows = self._query("SELECT * FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            raise NotFoundError(f"no session {session_id}")
        return _session(rows[0])

    def sessions(self) -> list[SessionRow]:
        """Every session, newest first."""
        return [_session(r) for r in self._query("SELECT * FROM sessions ORDER BY id DESC")]

    def latest_session(self) -> SessionRow | None:
        rows = self._query("SELECT * FROM sessions ORDER BY id DESC LIMIT 1")
        return _session(rows[0]) if rows else None

    # ---- players and backs

    def set_player(self, session_id: int, back: str, name: str) -> None:
        self.session(session_id)
        with self._transaction() as db:
            db.execute(
                "INSERT INTO players (session_id, back, name) VALUES (?, ?, ?) "
                "ON CONFLICT (session_id, back) DO UPDATE SET name = excluded.name",
                (session_id, back, name),
            )

    def remove_player(self, session_id: int, back: str) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM players WHERE session_id = ? AND back = ?", (session_id, back)).rowcount > 0

    def players(self, session_id: int) -> dict[str, str]:
        """Back -> player name, in the order they sat down."""
        rows = self._query("SELECT back, name FROM players WHERE session_id = ? ORDER BY rowid", (session_id,))
        return {r["back"]: r["name"] for r in rows}

    def save_back(self, back_id: str, design: dict[str, Any]) -> None:
        """Keeps an enrolled back design (its catalogue JSON) so that it outlives the process."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO backs (id, design, enrolled) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET design = excluded.design, enrolled = excluded.enrolled",
                (back_id, json.dumps(design), time.time()),
            )

    def backs(self) -> dict[str, dict[str, Any]]:
        return {r["id"]: json.loads(r["design"]) for r in self._query("SELECT id, design FROM backs ORDER BY id")}

    # ---- rounds and events

    def start_round(self, session_id: int) -> RoundRow:
        """The session's next round (numbered from 1)."""
        self.session(session_id)
        with self._transaction() as db:
            number = db.execute(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE session_id = ?", (session_id,)
            ).fetchone()[0]
            cursor = db.execute(
                "INSERT INTO rounds (session_id, number, started) VALUES (?, ?, ?)", (session_id, number, time.time())
            )
        return self.round(int(cursor.lastrowid or 0))

    def round(self, round_id: int) -> RoundRow:
        rows = self._query("SELECT * FROM rounds WHERE id = ?", (round_id,))
        if not rows:
            raise NotFoundError(f"no round {round_id}")
        return _round(rows[0])

    def rounds(self, session_id: int) -> list[RoundRow]:
        return [
            _round(r) for r in self._query("SELECT * FROM rounds WHERE session_id = ? ORDER BY number", (session_id,))
        ]

    def add_event(self, round_id: int, event: Event) -> int:
        """Stores ``event`` and commits at once; returns its sequence number."""
        now = time.time()
        with self._transaction() as db:
            row = db.execute("SELECT session_id FROM rounds WHERE id = ?", (round_id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no round {round_id}")
            cursor = db.execute(
                "INSERT INTO events (session_id, round_id, type, t, frame, added, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (row[0], round_id, event.type, event.t, event.frame, now, event.to_json_line()),
            )
            if isinstance(event, RoundStopped):
                db.execute("UPDATE rounds SET stopped = COALESCE(stopped, ?) WHERE id = ?", (now, round_id))
            if isinstance(event, RoundScored):
                self._write_scores(db, round_id, event, now)
        return int(cursor.lastrowid or 0)

    @staticmethod
    def _write_scores(db: sqlite3.Connection, round_id: int, event: RoundScored, now: float) -> None:
        db.execute("DELETE FROM scores WHERE round_id = ?", (round_id,))
        db.executemany(
            "INSERT INTO scores (round_id, back, centre, leftover, score) VALUES (?, ?, ?, ?, ?)",
            [
                (round_id, back, event.centre.get(back, 0), event.leftover.get(back, 0), score)
                for back, score in event.scores.items()
            ],
        )
        db.execute("UPDATE rounds SET scored = ? WHERE id = ?", (now, round_id))

    def events(self, session_id: int, *, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The session's events in the order they were added, those after sequence number ``after``."""
        sql = (
            "SELECT e.seq, r.number, e.added, e.body FROM events e JOIN rounds r ON r.id = e.round_id "
            "WHERE e.session_id = ? AND e.seq > ? ORDER BY e.seq"
        )
        params: tuple[Any, ...] = (session_id, after)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        return [StoredEvent(r[0], r[1], r[2], Event.from_json_line(r[3])) for r in self._query(sql, params)]

    def scores(self, session_id: int) -> list[dict[str, Any]]:
        """One row per scored round and back: round, back, centre, leftover, score."""
        rows = self._query(
            "SELECT r.number AS round, s.back, s.centre, s.leftover, s.score FROM scores s "
            "JOIN rounds r ON r.id = s.round_id WHERE r.session_id = ? ORDER BY r.number, s.rowid",
            (session_id,),
        )
        return [dict(r) for r in rows]


def _session(row: sqlite3.Row) -> SessionRow:
    return SessionRow(row["id"], row["name"], row["created"], row["source"], row["rounds"], row["target"])


def _round(row: sqlite3.Row) -> RoundRow:
    return RoundRow(row["id"], row["session_id"], row["number"], row["started"], row["stopped"], row["scored"])

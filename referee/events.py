"""The event log: what happened at the table, one JSON object per line (what PGN is to chess).

The live referee, the replay tool, the simulator and the tests all write or read it. Every event has
``t`` (seconds from the start of the source), ``frame``, ``type``, ``stack`` and ``card``; an illegal play
has a ``reason``. Types add their own fields (the owner's ``back``, the ``placement`` on the table plane,
the counts and scores of a scored round).

>>> e = CardPlayed(t=1.5, frame=45, stack=2, card=Card.parse("r5"), back="red-red")
>>> e.to_json_line()
'{"t": 1.5, "frame": 45, "type": "card_played", "stack": 2, "card": {"colour": "red", "number": 5}, "back": "red-red"}'
>>> Event.from_json_line(e.to_json_line()) == e
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import IO, Any, ClassVar

from referee.cards import Card
from referee.errors import InputFileError, NotationError


@dataclass(frozen=True)
class Placement:
    """Where a card lies on the table plane: centre in millimetres from the table centre, angle in degrees."""

    x: float
    y: float
    angle: float = 0.0

    def to_json(self) -> list[float]:
        return [round(self.x, 2), round(self.y, 2), round(self.angle, 2)]

    @classmethod
    def from_json(cls, data: Any) -> Placement:
        if not isinstance(data, list | tuple) or len(data) not in (2, 3):
            raise NotationError(f"a placement must be [x, y] or [x, y, angle], not {data!r}")
        return cls(*(float(v) for v in data))


_REGISTRY: dict[str, type[Event]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of all events. Subclasses set ``type`` and may add fields."""

    type: ClassVar[str] = "event"
    t: float
    frame: int = 0
    stack: int | None = None
    card: Card | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "type" in cls.__dict__:  # only classes naming their own type; not shared bases like _Landing
            _REGISTRY[cls.type] = cls

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": round(self.t, 4), "frame": self.frame, "type": self.type}
        data["stack"] = self.stack
        data["card"] = self.card.to_json() if self.card is not None else None
        for f in fields(self):
            if f.name in ("t", "frame", "stack", "card"):
                continue
            value = getattr(self, f.name)
            if value is None or value == () or value == {}:
                continue
            data[f.name] = _encode(value)
        return data

    def to_json_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @staticmethod
    def from_json(data: Any) -> Event:
        if not isinstance(data, dict):
            raise NotationError(f"an event must be a JSON object, not {type(data).__name__}")
        kind = data.get("type")
        cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise NotationError(f"unknown event type {kind!r}")
        if not isinstance(data.get("t"), int | float):
            raise NotationError(f"{kind} event needs a time t in seconds")
        for name in ("frame", "stack"):
            value = data.get(name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise NotationError(f"{kind} event: {name} must be an integer, not {value!r}")
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in data:
                try:
                    kwargs[f.name] = _decode(f.name, data[f.name])
                except NotationError:
                    raise
                except (TypeError, ValueError, AttributeError):  # a list where a number belongs, and so on
                    raise NotationError(f"{kind} event: {f.name} is malformed: {data[f.name]!r:.60}") from None
        try:
            return cls(**kwargs)
        except TypeError as exc:
            raise NotationError(f"{kind} event is malformed: {exc}") from None

    @staticmethod
    def from_json_line(line: str) -> Event:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise NotationError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        return Event.from_json(data)


def _encode(value: Any) -> Any:
    if isinstance(value, Card | Placement):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def _decode(name: str, value: Any) -> Any:
    if value is None:
        return None
    if name in ("card", "expected"):
        return Card.from_json(value)
    if name == "cards":
        return tuple(Card.from_json(v) for v in value)
    if name == "placement":
        return Placement.from_json(value)
    if name == "placements":
        return tuple(Placement.from_json(v) for v in value)
    if name in ("backs",):
        return tuple(str(v) for v in value)
    if name in ("centre", "leftover", "scores"):
        if not isinstance(value, dict):
            raise NotationError(f"{name} must be an object of back: number")
        return {str(k): int(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int = 1
    backs: tuple[str, ...] = ()
    seed: int | None = None


@dataclass(frozen=True, kw_only=True)
class _Landing(Event):
    """A card that came down in the centre: whose it is (when known) and where it lies.

    ``source`` (optional, known to the simulator) is the owner's place it came from: ``row:i``, ``pile`` or
    ``discard``.
    """

    back: str | None = None
    placement: Placement | None = None
    source: str | None = None


@dataclass(frozen=True, kw_only=True)
class StackStarted(_Landing):
    type: ClassVar[str] = "stack_started"


@dataclass(frozen=True, kw_only=True)
class CardPlayed(_Landing):
    type: ClassVar[str] = "card_played"


@dataclass(frozen=True, kw_only=True)
class IllegalPlay(_Landing):
    """A card that landed against the rules. It does not change the stack's legal top."""

    type: ClassVar[str] = "illegal_play"
    reason: str = ""
    expected: Card | None = None


@dataclass(frozen=True, kw_only=True)
class RulingWithdrawn(Event):
    """An illegal play said earlier, taken back by the referee: what came after showed the card played legally
    (a "not a one" built on, lying on a 1 the camera never saw; a "wrong number" on cards played unseen under a
    hand). ``t``, ``card`` and ``stack`` are the withdrawn ruling's; ``ruled`` its reason; the play that explains
    the card follows in the log."""

    type: ClassVar[str] = "ruling_withdrawn"
    ruled: str = ""


def withdrawn_rulings(events: Iterable[Event]) -> Callable[[Event], bool]:
    """Whether an event of ``events`` is an illegal play that a later ``ruling_withdrawn`` took back (the same card
    at the same time).

    >>> r2 = Card.parse("r2")
    >>> ruled = IllegalPlay(t=4.0, card=r2, reason="not_a_one")
    >>> withdrawn_rulings([ruled, RulingWithdrawn(t=4.0, card=r2, ruled="not_a_one")])(ruled)
    True
    """
    taken = {(e.card, round(e.t, 4)) for e in events if isinstance(e, RulingWithdrawn)}
    return lambda event: isinstance(event, IllegalPlay) and (event.card, round(event.t, 4)) in taken


@dataclass(frozen=True, kw_only=True)
class CardTakenBack(Event):
    type: ClassVar[str] = "card_taken_back"
    back: str | None = None
    source: str | None = None
    """Optional: the owner's place the card goes back to (``row:i``, ``pile`` or ``discard``)."""


@dataclass(frozen=True, kw_only=True)
class Conflict(Event):
    """Two or more cards landed on one stack at the same moment; ``card`` is the one that stays.

    ``placements`` (optional) lists where each of ``cards`` lies, in the same order.
    """

    type: ClassVar[str] = "conflict"
    cards: tuple[Card, ...] = ()
    backs: tuple[str, ...] = ()
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True, kw_only=True)
class StackRemoved(Event):
    type: ClassVar[str] = "stack_removed"


@dataclass(frozen=True, kw_only=True)
class RoundStopped(Event):
    """``reason``: ``ligretto_stop`` (a pile ran out), ``deadlock``, ``signal`` (a button) or ``gathered``."""

    type: ClassVar[str] = "round_stopped"
    reason: str = "ligretto_stop"
    back: str | None = None


@dataclass(frozen=True, kw_only=True)
class RoundScored(Event):
    type: ClassVar[str] = "round_scored"
    round: int = 1
    centre: dict[str, int] = field(default_factory=dict)
    leftover: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)


EVENT_TYPES: tuple[str, ...] = tuple(_REGISTRY)


def read_events(source: str | os.PathLike[str] | IO[str] | Iterable[str]) -> Iterator[Event]:
    """Yields the events of a JSON Lines log; a broken line raises one error naming the line number."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            handle = path.open(encoding="utf-8")
        except OSError as exc:
            raise InputFileError(f"cannot read event log {path}: {exc.strerror or exc}") from None
        with handle:
            yield from _parse_lines(handle, str(path))
    else:
        yield from _parse_lines(source, "event log")


def _parse_lines(lines: Iterable[str], name: str) -> Iterator[Event]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield Event.from_json_line(line)
        except NotationError as exc:
            raise NotationError(f"{name} line {number}: {exc}") from None


def write_events(events: Iterable[Event], handle: IO[str]) -> int:
    """Writes events as JSON Lines; returns how many."""
    count = 0
    for event in events:
        handle.write(event.to_json_line() + "\n")
        count += 1
    return count

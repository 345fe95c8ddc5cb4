"""What a simulated round leaves behind: how it ended, the event log, the physical trace, the final state.

>>> Outcome("deadlock", None, 95.25).to_json()
{'reason': 'deadlock', 'back': None, 't': 95.25}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.events import CardPlayed, Conflict, Event, IllegalPlay, StackStarted
from referee.simulator.mistakes import InjectedMistake
from referee.simulator.trace import TraceRecord


@dataclass(frozen=True)
class Outcome:
    """How a round ended: ``ligretto_stop`` (``back`` emptied their pile) or ``deadlock``, at time ``t``."""

    reason: str
    back: str | None
    t: float

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "back": self.back, "t": round(self.t, 3)}


@dataclass(frozen=True)
class RoundResult:
    """A finished round. ``events`` is the ground-truth event log, ``trace`` every card move (the renderer's
    input, after ``layout``), ``final`` each player's places at the end (bottom first), ``stacks`` the centre
    stacks as (id, ((card, back), ...)), and ``mistakes`` the injected mistakes the judge must find."""

    number: int
    seed: int | str
    backs: tuple[str, ...]
    outcome: Outcome
    events: tuple[Event, ...]
    trace: tuple[TraceRecord, ...]
    layout: dict[str, Any]
    final: dict[str, dict[str, list[str]]]
    stacks: tuple[tuple[int, tuple[tuple[str, str], ...]], ...]
    centre: dict[str, int]
    leftover: dict[str, int]
    scores: dict[str, int]
    mistakes: tuple[InjectedMistake, ...]

    @property
    def reason(self) -> str:
        return self.outcome.reason

    @property
    def duration(self) -> float:
        """Seconds of play, from the start to the stop (the post-round protocol not included)."""
        return self.outcome.t

    @property
    def landings(self) -> int:
        """Cards that landed in the centre: legal ones, illegal ones and every card of a conflict (a kept
        card is counted once, by its ``card_played``)."""
        count = 0
        for event in self.events:
            if isinstance(event, StackStarted | CardPlayed | IllegalPlay):
                count += 1
            elif isinstance(event, Conflict):
                count += len(event.cards) - (event.card is not None)
        return count

    @property
    def mistake_share(self) -> float:
        """The share of the cards landing in the centre that were injected mistakes."""
        return len(self.mistakes) / self.landings if self.landings else 0.0

    def summary(self) -> dict[str, Any]:
        """The round's line in ``summary.json``."""
        return {
            "round": self.number,
            "seed": self.seed,
            "duration": round(self.duration, 2),
            "end": self.outcome.to_json(),
            "centre": self.centre,
            "leftover": self.leftover,
            "scores": self.scores,
            "stacks": len(self.stacks),
            "landings": self.landings,
            "mistakes": [m.to_json() for m in self.mistakes],
        }

    def trace_json(self) -> list[dict[str, Any]]:
        """The trace as JSON objects: the layout first, then every record in time order."""
        return [self.layout, *(record.to_json() for record in self.trace)]

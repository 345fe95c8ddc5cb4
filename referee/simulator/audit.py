"""Replays an event log through the judge, independently of the rulings written in it.

The simulator writes its own rulings into the log; the audit forgets them, rebuilds the centre stacks from
the landings alone, asks :func:`referee.rules.judge` about every card, and reports what the judge finds
(violations and conflicts) and wherever the log disagrees with it. It is how the tests check that every
injected mistake is caught and that a clean round has none.

>>> from referee.cards import Card
>>> from referee.events import StackStarted, IllegalPlay
>>> log = [StackStarted(t=1, stack=1, card=Card.parse("r1"), back="a"),
...        IllegalPlay(t=2, stack=1, card=Card.parse("r3"), back="b", reason="wrong_number")]
>>> report = audit(log)
>>> [(f.kind, f.back, str(f.card)) for f in report.findings], report.disagreements, report.centre
([('wrong_number', 'b', 'r3')], (), {'a': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from referee.cards import Card
from referee.events import CardPlayed, Conflict, Event, IllegalPlay, RoundStopped, StackStarted
from referee.rules import RuleSettings, judge, resolve_conflict
from referee.simulator.mistakes import CONFLICT


@dataclass(frozen=True)
class Finding:
    """Something the judge found: a violation (``kind`` is its reason) or a ``conflict`` (one per card that
    landed on top of another identical one)."""

    kind: str
    t: float
    back: str | None
    card: Card
    stack: int | None

    @property
    def key(self) -> tuple[str, str | None, str, int | None]:
        """What identifies it regardless of timing: kind, owner, card, stack."""
        return (self.kind, self.back, str(self.card), self.stack)


@dataclass(frozen=True)
class Audit:
    findings: tuple[Finding, ...]
    disagreements: tuple[str, ...]
    centre: dict[str, int]

    @property
    def violations(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind != CONFLICT)

    def counts(self) -> Counter[tuple[str, str | None, str, int | None]]:
        return Counter(f.key for f in self.findings)


def audit(events: Iterable[Event], settings: RuleSettings | None = None) -> Audit:
    """Rebuilds the centre from ``events`` and rules on every landing with the judge."""
    rules = settings or RuleSettings()
    stacks: dict[int, list[tuple[Card, str | None]]] = {}
    findings: list[Finding] = []
    disagreements: list[str] = []
    stopped = False
    for event in events:
        if isinstance(event, RoundStopped):
            stopped = True
        elif isinstance(event, StackStarted | CardPlayed | IllegalPlay):
            assert event.card is not None
            pile = stacks.get(event.stack) if event.stack is not None else None
            if isinstance(event, CardPlayed | IllegalPlay) and event.stack is not None and pile is None:
                disagreements.append(f"t={event.t}: {event.type} on stack {event.stack}, which was never started")
                continue
            top = pile[-1][0] if pile and not isinstance(event, StackStarted) else None
            ruling = judge(top, event.card, stopped=stopped)
            if not ruling.legal:
                findings.append(Finding(ruling.reason or "", event.t, event.back, event.card, event.stack))
            written = event.reason if isinstance(event, IllegalPlay) else None
            if written != ruling.reason:
                disagreements.append(f"t={event.t}: {event.type} {event.card} says {written}, judge {ruling.reason}")
            if ruling.legal and event.stack is not None:
                stacks.setdefault(event.stack, []).append((event.card, event.back))
        elif isinstance(event, Conflict) and event.stack in stacks:
            top = stacks[event.stack][-1][0]
            kept, _ = resolve_conflict(top, event.cards, rules)
            if kept != event.card:
                disagreements.append(f"t={event.t}: conflict on stack {event.stack} keeps {event.card}, judge {kept}")
            for card, back in zip(event.cards[1:], event.backs[1:], strict=False):
                findings.append(Finding(CONFLICT, event.t, back, card, event.stack))
    centre = Counter(back for pile in stacks.values() for _, back in pile if back is not None)
    return Audit(tuple(findings), tuple(disagreements), dict(sorted(centre.items())))

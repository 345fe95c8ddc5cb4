"""Visitors over an event log, the way python-chess replays a game record with ``read_game(handle, Visitor=...)``.

:func:`replay` drives one visitor over any iterable of events (a list, or :func:`referee.events.read_events`
over a file) and returns its :meth:`EventVisitor.result`. Visitors never touch files.

>>> from referee.cards import Card
>>> from referee.events import RoundScored, StackStarted, CardPlayed
>>> log = [
...     StackStarted(t=1.0, stack=1, card=Card.parse("g1"), back="red-red"),
...     CardPlayed(t=2.0, stack=1, card=Card.parse("g2"), back="blue-blue"),
...     RoundScored(t=9.0, round=1, scores={"red-red": 1, "blue-blue": -3}),
... ]
>>> replay(log, CentreBuilder()).stack(1).top
Card.parse('g2')
>>> sheet = replay(log, ScoreSheetBuilder())
>>> sheet.totals, sheet.winners
({'red-red': 1, 'blue-blue': -3}, ('red-red',))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from referee.cards import Card
from referee.centre import Centre, Landing
from referee.errors import CentreError, LigrettoError, ScoringError
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    RoundScored,
    RoundStarted,
    RoundStopped,
    RulingWithdrawn,
    StackRemoved,
    StackStarted,
)
from referee.match import Match, MatchOutcome
from referee.rules import RuleSettings
from referee.scoring import RoundResult

T = TypeVar("T")


class EventVisitor(Generic[T]):
    """Base visitor: one method per event type, each doing nothing; override the ones you need.

    An event type this class does not know (a newer log) goes to :meth:`visit_other`.
    """

    def begin(self) -> None:
        """Called once before the first event."""

    def visit(self, event: Event) -> None:
        """Dispatches ``event`` to ``visit_<type>``."""
        getattr(self, f"visit_{event.type}", self.visit_other)(event)

    def visit_round_started(self, event: RoundStarted) -> None: ...
    def visit_stack_started(self, event: StackStarted) -> None: ...
    def visit_card_played(self, event: CardPlayed) -> None: ...
    def visit_illegal_play(self, event: IllegalPlay) -> None: ...
    def visit_card_taken_back(self, event: CardTakenBack) -> None: ...
    def visit_ruling_withdrawn(self, event: RulingWithdrawn) -> None: ...
    def visit_conflict(self, event: Conflict) -> None: ...
    def visit_stack_removed(self, event: StackRemoved) -> None: ...
    def visit_round_stopped(self, event: RoundStopped) -> None: ...
    def visit_round_scored(self, event: RoundScored) -> None: ...
    def visit_other(self, event: Event) -> None: ...

    def end(self) -> None:
        """Called once after the last event."""

    def result(self) -> T:
        raise NotImplementedError


def replay(events: Iterable[Event], visitor: EventVisitor[T]) -> T:
    """Drives ``visitor`` over ``events`` and returns its result.

    An error a visitor raises is re-raised with the number of the event (1-based) and its type, so a user
    can find it in the log; errors reading the log itself already name their line.
    """
    visitor.begin()
    for number, event in enumerate(events, start=1):
        try:
            visitor.visit(event)
        except LigrettoError as exc:
            raise type(exc)(f"event {number} ({event.type} at t={event.t:g}): {exc}") from None
    visitor.end()
    return visitor.result()


# ------------------------------------------------------------------------------------------- score sheet


@dataclass(frozen=True)
class ScoreSheet:
    """Rounds x backs scores with totals. ``complete`` when the match is over under its settings;
    ``winners`` is empty until then (``leaders`` says who is ahead)."""

    backs: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    totals: dict[str, int]
    leaders: tuple[str, ...]
    outcome: MatchOutcome | None

    @property
    def complete(self) -> bool:
        return self.outcome is not None

    @property
    def winners(self) -> tuple[str, ...]:
        return self.outcome.winners if self.outcome is not None else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "backs": list(self.backs),
            "rounds": [{"round": r.round, "scores": r.scores} for r in self.rounds],
            "totals": self.totals,
            "winners": list(self.winners),
            "leaders": list(self.leaders),
            "complete": self.complete,
            "ended_by": self.outcome.reason if self.outcome is not None else None,
        }


class ScoreSheetBuilder(EventVisitor[ScoreSheet]):
    """Builds the score sheet from ``round_scored`` events (checking each against its counts).

    With no ``settings`` the match is taken to be every round in the log; with settings (rounds, target
    score) the winners follow them, and a round scored after the match ended is an error. The backs are
    those of ``round_started`` events and of the scores; a back missing from one round's scores scored 0
    (a round scored from counts lists only the backs that have cards to count). Rounds count in the order of
    their numbers, whatever the order of the log.
    """

    def __init__(self, settings: RuleSettings | None = None) -> None:
        self.settings = settings
        self._backs: dict[str, None] = {}
        self._rounds: list[RoundResult] = []

    def visit_round_started(self, event: RoundStarted) -> None:
        self._backs.update(dict.fromkeys(event.backs))

    def visit_round_scored(self, event: RoundScored) -> None:
        result = RoundResult.from_event(event)
        if any(r.round == result.round for r in self._rounds):
            raise ScoringError(f"round {result.round} is scored twice")
        self._backs.update(dict.fromkeys(result.scores))
        self._rounds.append(result)

    def result(self) -> ScoreSheet:
        backs = tuple(self._backs)
        if not self._rounds:
            return ScoreSheet(backs, (), dict.fromkeys(backs, 0), (), None)
        settings = self.settings or RuleSettings(rounds=len(self._rounds))
        match = Match(backs, settings)
        rounds = sorted(self._rounds, key=lambda r: r.round)  # logs may come in any order (round-10 before round-2)
        for result in rounds:
            try:
                match.record({b: result.scores.get(b, 0) for b in backs})  # absent from a round: 0
            except ScoringError as exc:
                raise ScoringError(f"round {result.round}: {exc}") from None
        return ScoreSheet(backs, tuple(rounds), match.totals(), match.leaders(), match.outcome())


# ------------------------------------------------------------------------------------------------ centre


@dataclass
class _Echo:
    """An event the log is expected to repeat because a conflict already caused it."""

    type: str
    card: Card | None
    stack: int | None
    back: str | None

    def matches(self, event: Event) -> bool:
        """Same type, card and stack, and the same owner when both know it: an illegal card and a
        conflict's card can share card and stack, and each player takes back their own."""
        if (self.type, self.card, self.stack) != (event.type, event.card, event.stack):
            return False
        back = getattr(event, "back", None)  # landings and take-backs know their owner; other events do not
        return self.back is None or back is None or self.back == back


class CentreBuilder(EventVisitor[Centre]):
    """Rebuilds the centre from a log by pushing every landing through :class:`~referee.centre.Centre`.

    The result is the centre of the last round (``centres`` holds one per round). The log must agree
    with the rules: a ``card_played`` the judge finds illegal, a ``stack_started`` with another id, an
    ``illegal_play`` whose reason is not among the judge's raise :class:`~referee.errors.CentreError`;
    with ``strict=False`` they are collected in ``disagreements`` instead, and the judge's ruling stands.
    Cards of a conflict are expected in the order :meth:`Centre.push_together` writes them: the
    ``conflict`` event, then the kept card's event and the ``card_taken_back`` events (at any later time).
    """

    def __init__(self, settings: RuleSettings | None = None, *, strict: bool = True) -> None:
        self.settings = settings or RuleSettings()
        self.strict = strict
        self.centres: list[Centre] = [Centre(self.settings)]
        self.disagreements: list[str] = []
        self._echoes: list[_Echo] = []

    @property
    def centre(self) -> Centre:
        return self.centres[-1]

    def visit_round_started(self, event: RoundStarted) -> None:
        if self.centre.move_stack:
            self.centres.append(Centre(self.settings))
        self._echoes.clear()

    def visit_stack_started(self, event: StackStarted) -> None:
        if self._consume_echo(event):
            return
        play = self.centre.push(Landing(_card(event), None, event.back, event.placement, event.t, event.frame))
        if not play.ruling.legal:
            self._disagree(f"{event.card} cannot start a stack: {play.ruling.reason}")
        elif play.stack != event.stack:
            self._disagree(f"the new stack is stack {play.stack}, the log says {event.stack}")

    def visit_card_played(self, event: CardPlayed) -> None:
        if self._consume_echo(event):
            return
        stack = self._stack_of(event)
        play = self.centre.push(Landing(_card(event), stack, event.back, event.placement, event.t, event.frame))
        if not play.ruling.legal:
            self._disagree(f"{event.card} on stack {stack} is illegal: {play.ruling.reason}")

    def visit_illegal_play(self, event: IllegalPlay) -> None:
        landing = Landing(_card(event), event.stack, event.back, event.placement, event.t, event.frame)
        play = self.centre.push(landing)
        found = {v.value for v in play.ruling.violations}
        if event.reason not in found:
            judged = ", ".join(sorted(found)) or "legal"
            self._disagree(f"the log says {event.card} is {event.reason or 'illegal'}, the judge says {judged}")

    def visit_card_taken_back(self, event: CardTakenBack) -> None:
        if self._consume_echo(event):
            return
        self.centre.take_back(_card(event), stack=event.stack, back=event.back, t=event.t, frame=event.frame)

    def visit_ruling_withdrawn(self, event: RulingWithdrawn) -> None:
        # the card was never an illegal one lying on the table: off the board, so the play that follows is judged;
        # a card said taken back before (the camera lost it, then found it built on) is off the board already
        if any(loose.card == _card(event) for loose in self.centre.loose):
            self.centre.take_back(_card(event), stack=event.stack, t=event.t, frame=event.frame)

    def visit_conflict(self, event: Conflict) -> None:
        if len(event.cards) < 2:
            raise CentreError("a conflict event needs the cards that landed together")
        target = None if event.stack is None or event.stack > len(self.centre.stacks) else event.stack
        backs = event.backs or ("",) * len(event.cards)
        landings = [
            Landing(card, target, back or None, None, event.t, event.frame)
            for card, back in zip(event.cards, backs, strict=False)
        ]
        play = self.centre.push_together(landings)
        kept = None if play.kept is None else event.cards[play.kept]
        if kept != event.card:
            self._disagree(f"the log keeps {event.card or 'no card'}, the rules keep {kept or 'no card'}")
        self._echoes.extend(_Echo(e.type, e.card, e.stack, getattr(e, "back", None) or None) for e in play.events[1:])

    def visit_stack_removed(self, event: StackRemoved) -> None:
        self.centre.remove(self._stack_of(event), t=event.t, frame=event.frame)

    def visit_round_stopped(self, event: RoundStopped) -> None:
        self.centre.stop(event.reason, back=event.back, t=event.t, frame=event.frame)

    def result(self) -> Centre:
        return self.centre

    def _stack_of(self, event: Event) -> int:
        if event.stack is None:
            raise CentreError(f"{event.type} event needs a stack")
        return event.stack

    def _consume_echo(self, event: Event) -> bool:
        for index, echo in enumerate(self._echoes):
            if echo.matches(event):
                del self._echoes[index]
                return True
        return False

    def _disagree(self, message: str) -> None:
        if self.strict:
            raise CentreError(message)
        self.disagreements.append(message)


def _card(event: Event) -> Card:
    if event.card is None:
        raise CentreError(f"{event.type} event needs a card")
    return event.card

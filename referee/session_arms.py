"""The arms that put the centre cards down, handed to the referee to name each card's player.

The frame loop (``referee.session``) gives every frame's change-clock reading to a :class:`~vision.reach.ArmWatch`
and every landing the referee rules on (a stack started, a card played) to :class:`LandingArms`; once the video
has run :data:`ARM_AFTER_S` past a landing, the arm seen reaching to the card in each frame from
:data:`ARM_BEFORE_S` before it to :data:`ARM_AFTER_S` after is put on the table plane and told to the referee
(:meth:`referee.tracker.Referee.see_arms`), which names the seat it comes from.

New rounds never looked at before (seeds 100800-100806, 21 rounds of 2, 4 and 8 players, 1300 plays), replayed
without and with the arms: centre cards named right 948 -> 1088, wrong 55 -> 60, unnamed 297 -> 152 (two players
237 -> 250 of 250, none unnamed); counts and scores exact for 20 -> 29 of 98 players (two players 9 -> 13 of 14,
four players 8 -> 12 of 28, eight players 3 -> 4 of 56).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from referee.cards import Card
from referee.events import CardPlayed, Event, Placement, StackStarted
from referee.tracker.rivals import RIVAL_AFTER_S, RIVAL_BEFORE_S, RIVAL_TOLD_S, ArmEnd
from vision.change import ClockReading
from vision.geometry import TableGeometry
from vision.reach import ArmWatch

ARM_BEFORE_S = 0.12
ARM_AFTER_S = 0.06
"""The frames round a landing (its event's time) whose arms tell who played it: the hand is over the card from
a few frames before the card lies still until it lets go (a player's arm is out again within a fifth of a
second), and the landing's time is the first frame the card was read down, a frame or two either way."""


class SeesArms(Protocol):
    """What is told the arms: :class:`referee.tracker.Referee`."""

    def see_arms(self, card: Card, t: float, at: tuple[float, float], towards: Sequence[tuple[float, float]]) -> None:
        """The arm that put ``card`` down at ``t`` at ``at``: points back along it (table plane)."""

    def see_rivals(self, landing: CardPlayed, frames: Sequence[Sequence[ArmEnd]]) -> list[Event]:
        """Every arm reaching the card ``landing`` put down, each frame round it; returns the events they show."""


@dataclass
class LandingArms:
    """Landings waiting for the frames after them, and the arms seen so far (see the module docstring)."""

    geometry: TableGeometry
    watch: ArmWatch = field(default_factory=ArmWatch)
    waiting: list[tuple[float, Card, Placement]] = field(default_factory=list)
    rivals_waiting: list[CardPlayed] = field(default_factory=list)

    def add(self, reading: ClockReading) -> None:
        """The change clock's reading of the next frame."""
        self.watch.add(reading)

    def note(self, events: Sequence[Event]) -> None:
        """The referee's events: each landing with its place waits for the frames after it."""
        for event in events:
            if isinstance(event, StackStarted | CardPlayed) and event.card is not None and event.placement:
                self.waiting.append((event.t, event.card, event.placement))
            if isinstance(event, CardPlayed) and event.card is not None and event.placement:
                self.rivals_waiting.append(event)

    def tell(self, referee: SeesArms, now: float | None = None) -> list[Event]:
        """Tells ``referee`` the arms of the landings the video has run :data:`ARM_AFTER_S` past by ``now`` (None:
        every landing still waiting, the video over), and every arm reaching each card played round its landing
        once the video has run :data:`~referee.tracker.rivals.RIVAL_TOLD_S` past it (two players' arms at once: a
        conflict); returns the events the referee made of them."""
        due = [w for w in self.waiting if now is None or w[0] + ARM_AFTER_S <= now]
        if due:
            self.waiting = [w for w in self.waiting if w not in due]
        for t, card, placement in due:
            at = (placement.x, placement.y)
            (x, y), *_ = self.geometry.to_image([at]).tolist()
            ends = self.watch.arms_to((x, y), t - ARM_BEFORE_S, t + ARM_AFTER_S)
            if ends:
                towards = [(float(p[0]), float(p[1])) for p in self.geometry.to_table(ends).tolist()]
                referee.see_arms(card, t, at, towards)
        events: list[Event] = []
        rivals = [e for e in self.rivals_waiting if now is None or e.t + RIVAL_TOLD_S <= now]
        if rivals:
            self.rivals_waiting = [e for e in self.rivals_waiting if e not in rivals]
        for landing in rivals:
            assert landing.placement is not None
            events += referee.see_rivals(landing, self._every_arm(landing.placement, landing.t))
        return events

    def _every_arm(self, placement: Placement, t: float) -> list[list[ArmEnd]]:
        """Every arm reaching ``placement`` in each frame round ``t``, on the table plane."""
        (x, y), *_ = self.geometry.to_image([(placement.x, placement.y)]).tolist()
        frames: list[list[ArmEnd]] = []
        for reaches in self.watch.every_arm_to((x, y), t - RIVAL_BEFORE_S, t + RIVAL_AFTER_S):
            if len(reaches) < 2:
                frames.append([])
                continue
            ends = self.geometry.to_table([r.end for r in reaches]).tolist()
            frames.append(
                [ArmEnd((float(e[0]), float(e[1])), r.off_picture) for e, r in zip(ends, reaches, strict=True)]
            )
        return frames

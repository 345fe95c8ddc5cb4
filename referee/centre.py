"""The centre of the table: the shared stacks, as one stateful board in the python-chess style.

:class:`Centre` takes actions (a card landing, cards landing together, a card taken back, a stack removed,
"Ligretto stop"), rules on them with :func:`referee.rules.judge`, and answers with the events they cause.
Every action goes on the public :attr:`Centre.move_stack`; :meth:`Centre.pop` undoes the last one by
restoring a snapshot (the state is immutable, so a snapshot is one reference).

>>> centre = Centre()
>>> centre.push(Landing(Card.parse("r1"), back="red-red")).events[0].type
'stack_started'
>>> centre.push(Landing(Card.parse("r2"), stack=1)).ruling.legal
True
>>> play = centre.push(Landing(Card.parse("r4"), stack=1, back="blue-blue"))
>>> play.ruling.reason, play.events[0].expected
('wrong_number', Card.parse('r3'))
>>> centre.stack(1).top                      # an illegal card leaves the legal top as it was
Card.parse('r2')
>>> centre.take_back(Card.parse("r4")).type
'card_taken_back'
>>> sorted(str(card) for card in centre.legal_cards())
['b1', 'g1', 'r1', 'r3', 'y1']
>>> centre.total_cards, centre.counts()
(2, {'red-red': 1})
>>> str(centre.pop()), str(centre.pop()), centre.stack(1).height
('Take back r4 from stack 1', 'Landing r4 on stack 1', 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import COLOURS, HIGHEST, LOWEST, Card
from referee.errors import CentreError
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    Placement,
    RoundStopped,
    StackRemoved,
    StackStarted,
)
from referee.rules import RuleSettings, Ruling, judge, playable_on, resolve_conflict

# ----------------------------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Landing:
    """A card coming down in the centre: onto ``stack`` (an id), or starting a new stack when None.

    ``back`` is the owner's back when known; ``t`` and ``frame`` are the caller's clock and go into events;
    ``source`` (optional, known to the simulator) is the owner's place it came from (``row:i``, ``pile``,
    ``discard``) and goes into events too.
    """

    card: Card
    stack: int | None = None
    back: str | None = None
    placement: Placement | None = None
    t: float = 0.0
    frame: int = 0
    source: str | None = None

    def __str__(self) -> str:
        where = "a new stack" if self.stack is None else f"stack {self.stack}"
        return f"Landing {self.card} on {where}"


@dataclass(frozen=True)
class Together:
    """Several cards landing on one stack at the same moment, listed bottom first (a conflict)."""

    landings: tuple[Landing, ...]

    def __str__(self) -> str:
        return f"Together {' '.join(str(landing.card) for landing in self.landings)}"


@dataclass(frozen=True)
class TakeBack:
    """A player picks an illegal card up again, as the rules prescribe."""

    card: Card
    stack: int | None = None
    back: str | None = None
    t: float = 0.0
    frame: int = 0
    source: str | None = None

    def __str__(self) -> str:
        where = "" if self.stack is None else f" from stack {self.stack}"
        return f"Take back {self.card}{where}"


@dataclass(frozen=True)
class Removal:
    """A stack is taken out of play (gathered, or set aside when full). Its cards still count."""

    stack: int
    t: float = 0.0
    frame: int = 0

    def __str__(self) -> str:
        return f"Remove stack {self.stack}"


@dataclass(frozen=True)
class Stop:
    """The round stops ("Ligretto stop", deadlock or a signal): every later landing is ``after_stop``."""

    reason: str = "ligretto_stop"
    back: str | None = None
    t: float = 0.0
    frame: int = 0

    def __str__(self) -> str:
        return f"Stop ({self.reason})"


Action = Landing | Together | TakeBack | Removal | Stop

# ------------------------------------------------------------------------------------------------ values


@dataclass(frozen=True)
class CentreCard:
    """A card lying in the centre: the face, its owner's back when known, and where it lies when known."""

    card: Card
    back: str | None = None
    placement: Placement | None = None


@dataclass(frozen=True)
class Stack:
    """One centre stack: its id and its legal cards, bottom first. Illegal cards are never part of it."""

    id: int
    cards: tuple[CentreCard, ...]
    removed: bool = False

    @property
    def top(self) -> Card:
        """The legal top: the card the next one must follow."""
        return self.cards[-1].card

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def full(self) -> bool:
        return self.top.number >= HIGHEST

    @property
    def placement(self) -> Placement | None:
        """Where the stack lies: the placement of its highest card whose placement is known."""
        for centre_card in reversed(self.cards):
            if centre_card.placement is not None:
                return centre_card.placement
        return None

    def __str__(self) -> str:
        return f"{self.id}:{self.top}" + (" (removed)" if self.removed else "")


@dataclass(frozen=True)
class LooseCard(CentreCard):
    """An illegal card waiting to be taken back; ``stack`` is where it landed (None: off any stack)."""

    stack: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class Play:
    """The answer to :meth:`Centre.push`: the ruling, the stack the card went to, the events it caused."""

    ruling: Ruling
    stack: int | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class ConflictPlay:
    """The answer to :meth:`Centre.push_together`: which landing stayed (an index, or None), and the events."""

    kept: int | None
    stack: int | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class _State:
    stacks: tuple[Stack, ...] = ()
    loose: tuple[LooseCard, ...] = ()
    stopped: bool = False


# ------------------------------------------------------------------------------------------------- board


@dataclass
class Centre:
    """The board of centre stacks. Stack ids are 1, 2, 3... in the order the stacks were started."""

    settings: RuleSettings = field(default_factory=RuleSettings)
    move_stack: list[Action] = field(default_factory=list, init=False)
    _state: _State = field(default_factory=_State, init=False, repr=False)
    _snapshots: list[_State] = field(default_factory=list, init=False, repr=False)

    # ---- queries

    @property
    def stacks(self) -> tuple[Stack, ...]:
        """Every stack ever started, by id, removed ones included (their cards still count)."""
        return self._state.stacks

    @property
    def active_stacks(self) -> tuple[Stack, ...]:
        """The stacks a card may still land on."""
        return tuple(s for s in self._state.stacks if not s.removed)

    @property
    def loose(self) -> tuple[LooseCard, ...]:
        """Illegal cards lying in the centre until their players take them back."""
        return self._state.loose

    @property
    def stopped(self) -> bool:
        return self._state.stopped

    def __str__(self) -> str:
        """The stacks as ``id:top``, then the loose illegal cards and whether the round stopped.

        >>> centre = Centre()
        >>> _ = centre.push(Landing(Card.parse("g1"))), centre.push(Landing(Card.parse("y3"), 1))
        >>> str(centre)
        'centre 1:g1; loose y3'
        """
        parts = [" ".join(str(s) for s in self.stacks) or "empty"]
        if self.loose:
            parts.append("loose " + " ".join(str(x.card) for x in self.loose))
        if self.stopped:
            parts.append("stopped")
        return "centre " + "; ".join(parts)

    def stack(self, stack_id: int) -> Stack:
        if not 1 <= stack_id <= len(self._state.stacks):
            raise CentreError(f"there is no stack {stack_id} (stacks: 1..{len(self._state.stacks)})")
        return self._state.stacks[stack_id - 1]

    def ruling(self, card: Card, stack: int | None = None) -> Ruling:
        """The judge's answer for ``card`` landing on ``stack`` (None: starting a new stack)."""
        top = None if stack is None else self._open_stack(stack).top
        return judge(top, card, stopped=self.stopped)

    def is_legal(self, card: Card, stack: int | None = None) -> bool:
        """Whether ``card`` may land on ``stack`` now; with no stack, whether it may land anywhere."""
        if stack is not None:
            return self.ruling(card, stack).legal
        return card in self.legal_cards()

    def legal_cards(self) -> frozenset[Card]:
        """The cards that may land now: the next card of each open stack, and any 1. None after the stop."""
        if self.stopped:
            return frozenset()
        nexts = (playable_on(s.top) for s in self.active_stacks)
        ones = (Card(colour, LOWEST) for colour in COLOURS)
        return frozenset(c for c in (*nexts, *ones) if c is not None)

    def stacks_for(self, card: Card) -> tuple[int, ...]:
        """The ids of the open stacks ``card`` may land on (several stacks of one colour may want it)."""
        if self.stopped:
            return ()
        return tuple(s.id for s in self.active_stacks if judge(s.top, card).legal)

    @property
    def total_cards(self) -> int:
        """Cards in the centre that count: the legal cards of every stack, removed stacks included."""
        return sum(s.height for s in self._state.stacks)

    def counts(self) -> dict[str, int]:
        """Centre cards per owner's back (cards of unknown owner are left out; see :meth:`unattributed`)."""
        counter = Counter(c.back for s in self._state.stacks for c in s.cards if c.back is not None)
        return dict(sorted(counter.items()))

    def unattributed(self) -> int:
        """Centre cards whose owner is not known."""
        return sum(1 for s in self._state.stacks for c in s.cards if c.back is None)

    def check(self) -> None:
        """Raises :class:`CentreError` unless the centre holds sum(top numbers) cards, every stack being a run
        from 1 of one colour, and the per-back counts add up to that total."""
        for s in self._state.stacks:
            expected = [Card(s.cards[0].card.colour, n) for n in range(LOWEST, s.height + 1)]
            if [c.card for c in s.cards] != expected:
                raise CentreError(f"stack {s.id} is not a run from 1: {' '.join(str(c.card) for c in s.cards)}")
        tops = sum(s.top.number for s in self._state.stacks)
        if self.total_cards != tops:
            raise CentreError(f"the centre holds {self.total_cards} cards but its tops add up to {tops}")
        if sum(self.counts().values()) + self.unattributed() != self.total_cards:
            raise CentreError("the per-back counts do not add up to the cards in the centre")

    # ---- actions

    def push(self, landing: Landing) -> Play:
        """One card lands. Legal: it starts a stack or goes on one. Illegal: it lies loose until taken back."""
        ruling = self.ruling(landing.card, landing.stack)
        self._snapshots.append(self._state)
        if ruling.legal:
            event: Event = self._apply_legal(landing)
        else:
            event = self._apply_illegal(landing, ruling)
        self.move_stack.append(landing)
        return Play(ruling, event.stack, (event,))

    def push_together(self, landings: Sequence[Landing]) -> ConflictPlay:
        """Several cards land on one stack at the same moment (bottom first): a conflict.

        :func:`referee.rules.resolve_conflict` under ``settings.conflict_resolution`` says which card stays;
        the others go straight back to their players. After the stop each card is simply ``after_stop``.
        """
        landings = tuple(landings)
        if len(landings) < 2:
            raise CentreError("a conflict needs at least two cards landing together")
        target = landings[0].stack
        if any(landing.stack != target for landing in landings):
            raise CentreError("cards landing together must land on the same stack")
        top = None if target is None else self._open_stack(target).top
        self._snapshots.append(self._state)
        self.move_stack.append(Together(landings))
        if self.stopped:
            events = tuple(self._apply_illegal(x, self.ruling(x.card, target)) for x in landings)
            return ConflictPlay(None, target, events)
        cards = tuple(landing.card for landing in landings)
        kept_card, taken_back = resolve_conflict(top, cards, self.settings)
        kept = next((i for i in range(len(landings)) if i not in taken_back), None)
        played = [] if kept is None else [self._apply_legal(landings[kept])]
        stack_id = played[0].stack if played else target
        first = landings[0]
        backs = tuple(landing.back or "" for landing in landings) if any(x.back for x in landings) else ()
        placements = tuple(x.placement for x in landings if x.placement is not None)
        conflict = Conflict(
            t=first.t,
            frame=first.frame,
            stack=stack_id,
            card=kept_card,
            cards=cards,
            backs=backs,
            placements=placements if len(placements) == len(landings) else (),
        )
        returned = (
            CardTakenBack(
                t=first.t,
                frame=first.frame,
                stack=stack_id,
                card=landings[i].card,
                back=landings[i].back,
                source=landings[i].source,
            )
            for i in taken_back
        )
        return ConflictPlay(kept, stack_id, (conflict, *played, *returned))

    def take_back(
        self,
        card: Card,
        *,
        stack: int | None = None,
        back: str | None = None,
        t: float = 0.0,
        frame: int = 0,
        source: str | None = None,
    ) -> CardTakenBack:
        """An illegal card is picked up by its player. Matches the oldest loose ``card`` (on ``stack`` and of
        ``back`` when given); ``source`` is where it goes back to, when known."""
        index = self._find_loose(card, stack, back)
        loose = self._state.loose[index]
        self._snapshots.append(self._state)
        self._state = replace(self._state, loose=self._state.loose[:index] + self._state.loose[index + 1 :])
        self.move_stack.append(TakeBack(card, loose.stack, loose.back, t, frame, source))
        return CardTakenBack(t=t, frame=frame, stack=loose.stack, card=card, back=loose.back, source=source)

    def remove(self, stack: int, *, t: float = 0.0, frame: int = 0) -> StackRemoved:
        """Takes a stack out of play; its cards stay counted for their owners."""
        removed = replace(self._open_stack(stack), removed=True)
        self._snapshots.append(self._state)
        self._state = replace(self._state, stacks=self._with_stack(removed))
        self.move_stack.append(Removal(stack, t, frame))
        return StackRemoved(t=t, frame=frame, stack=stack, card=removed.top)

    def stop(
        self, reason: str = "ligretto_stop", *, back: str | None = None, t: float = 0.0, frame: int = 0
    ) -> RoundStopped:
        """The round stops: from now on every landing is ``after_stop``."""
        if self.stopped:
            raise CentreError("the round has already stopped")
        self._snapshots.append(self._state)
        self._state = replace(self._state, stopped=True)
        self.move_stack.append(Stop(reason, back, t, frame))
        return RoundStopped(t=t, frame=frame, reason=reason, back=back)

    def pop(self) -> Action:
        """Undoes the last action and returns it."""
        if not self.move_stack:
            raise CentreError("there is nothing to undo")
        self._state = self._snapshots.pop()
        return self.move_stack.pop()

    def copy(self) -> Centre:
        """An independent board in the same state, history included."""
        twin = Centre(self.settings)
        twin.move_stack = list(self.move_stack)
        twin._state = self._state
        twin._snapshots = list(self._snapshots)
        return twin

    # ---- internals

    def _open_stack(self, stack_id: int) -> Stack:
        found = self.stack(stack_id)
        if found.removed:
            raise CentreError(f"stack {stack_id} has been removed")
        return found

    def _with_stack(self, stack: Stack) -> tuple[Stack, ...]:
        stacks = self._state.stacks
        return (*stacks[: stack.id - 1], stack, *stacks[stack.id :])

    def _apply_legal(self, landing: Landing) -> StackStarted | CardPlayed:
        """Puts a legal card on its stack (the caller has taken the snapshot)."""
        placed = CentreCard(landing.card, landing.back, landing.placement)
        if landing.stack is None:
            new = Stack(len(self._state.stacks) + 1, (placed,))
            self._state = replace(self._state, stacks=(*self._state.stacks, new))
            return StackStarted(stack=new.id, **_landing_fields(landing))
        old = self._open_stack(landing.stack)
        self._state = replace(self._state, stacks=self._with_stack(replace(old, cards=(*old.cards, placed))))
        return CardPlayed(stack=old.id, **_landing_fields(landing))

    def _apply_illegal(self, landing: Landing, ruling: Ruling) -> IllegalPlay:
        """Leaves an illegal card loose, the legal top unchanged (the caller has taken the snapshot)."""
        reason = ruling.reason or ""
        loose = LooseCard(landing.card, landing.back, landing.placement, stack=landing.stack, reason=reason)
        self._state = replace(self._state, loose=(*self._state.loose, loose))
        expected = None if landing.stack is None else playable_on(self.stack(landing.stack).top)
        return IllegalPlay(stack=landing.stack, reason=reason, expected=expected, **_landing_fields(landing))

    def _find_loose(self, card: Card, stack: int | None, back: str | None) -> int:
        for index, loose in enumerate(self._state.loose):
            if loose.card != card:
                continue
            if stack is not None and loose.stack != stack:
                continue
            if back is not None and loose.back is not None and loose.back != back:
                continue
            return index
        where = "" if stack is None else f" on stack {stack}"
        raise CentreError(f"there is no illegal {card}{where} to take back")


def _landing_fields(landing: Landing) -> dict[str, Any]:
    """What every landing event copies from the landing."""
    return {
        "t": landing.t,
        "frame": landing.frame,
        "card": landing.card,
        "back": landing.back,
        "placement": landing.placement,
        "source": landing.source,
    }

"""The live judge: turns the tracker's physical changes into rulings on the rules core's :class:`Centre`.

The tracker says "red 6 is now on top of pile 3, first seen at frame 412, the pile was hidden for 2.8 s";
the judge asks the rules what that means (two plays, r5 unseen and r6; or an illegal play, and which card was
expected), pushes it on the :class:`referee.centre.Centre` board and returns the events. It also answers what
each pile now holds (:meth:`Judge.holding`) so the tracker compares the next frames with the right cards.

>>> from referee.tracker.stacks import Landed, Uncovered
>>> judge = Judge()
>>> [e.type for e in judge.rule(Landed(1, Card.parse("r1"), 0.1, 3))]
['stack_started']
>>> [(e.type, str(e.card)) for e in judge.rule(Landed(1, Card.parse("r3"), 4.0, 120, hidden_s=3.0))]
[('card_played', 'r2'), ('card_played', 'r3')]
>>> bad = judge.rule(Landed(1, Card.parse("y4"), 5.0, 150))[0]
>>> bad.type, bad.reason, str(bad.expected), judge.holding(1)
('illegal_play', 'wrong_colour', 'r4', (Card.parse('r3'), ((Card.parse('y4'), 3),)))
>>> [e.type for e in judge.rule(Uncovered(1, Card.parse("r3"), (Card.parse("y4"),), 6.0, 180))]
['card_taken_back']
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from referee.cards import CARD_HEIGHT_MM, LOWEST, Card
from referee.centre import Action, Centre, Landing, Removal, Stop, TakeBack
from referee.centre import Together as Simultaneous
from referee.errors import CentreError
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    Placement,
    RoundStopped,
    RulingWithdrawn,
    StackStarted,
)
from referee.rules import RuleSettings, Violation
from referee.sightings import frame_before
from referee.tracker.inference import InferenceSettings, hidden_plays
from referee.tracker.stacks import Change, Landed, Lifted, Together, Uncovered, Vanished

STRAYED_HIDDEN = 2
"""The most unseen cards between a stack's top and a card found lying apart from it for that card to count as
played on that stack (see :meth:`Judge._stack_it_strayed_from`)."""
STRAYED_NEAR_MM = 90.0
"""Where several stacks could have taken a card found lying apart (:meth:`Judge._stack_it_strayed_from`), the one
within this of where it lay (a card's length) is its stack: a card slapped askew still overlaps the stack it
was played on."""
STRAYED_FAR_MM = 2 * CARD_HEIGHT_MM
"""A card found lying farther than this from the one stack that could have taken it was not played there: it
lies on a stack the camera never saw (seed 103003, six players: an r2 "not a one" 300 mm from the only red stack,
an r3 then built on it, lay on an r1 the detector never boxed on a red check cloth; taken for played onto that
stack, its r3 was too, and the stack's own cards later read as "a wrong number" on it)."""
RULED_THERE_MM = 40.0
RULED_THERE_S = 60.0
"""A card ruled "not a one" where it lay, read again this near that place within this long as a new pile's first
card, is that same card found again (its pile lost by the camera meanwhile), not a second illegal play: it is not
ruled again. On a blue check cloth the detector held the blue stacks for moments at a time (seed 102003, four
players): b8, b2 and b4 were each ruled "not a one" two or three times, 1-5 mm from their first ruling, 4-16 s
apart, nine false rulings for the three cards; in 304 other replays kept on the development machine (72 rounds of
2, 4 and 8 players, by this and earlier code) no card was ruled so twice."""
COVERED_MISREAD_S = 0.5
"""An illegal card ruled on a stack this soon before or after a card that goes on as that stack came down beside
it is the stack's top, partly covered, misread (see :meth:`Judge._covered_top_misread`)."""
TWINS_VOUCH_FOR = 2
"""The most cards between a stack's top and copies of one card that land on it at once that those copies vouch
for (see :meth:`Judge._twins_vouch`)."""


@dataclass
class _PileBook:
    """What the judge knows of one pile: its stack on the board, the illegal cards lying on it, the cards
    expected to leave without a word (conflict losers already ruled taken back)."""

    stack: int | None = None
    loose: list[tuple[Card, int]] = field(default_factory=list)
    departing: list[tuple[Card, int]] = field(default_factory=list)
    last_landing: Landing | None = None
    last_hidden: bool = False
    quiet: list[Card] = field(default_factory=list)
    """Illegal cards lying again where they were ruled picked up (they never left): not announced again."""
    last_loose: Landing | None = None
    """The latest illegal card ruled on the pile (when it came down)."""
    glimpses: list[tuple[Card, float, int]] = field(default_factory=list)
    """Cards glimpsed on the pile with the changes before (card, first read: time, frame), kept
    :attr:`Judge.glimpse_memory_s`: the next card may need one of them under it."""
    gone: bool = False
    """The pile vanished (see :meth:`Judge._vanished`)."""


class Judge:
    """Rules on tracker changes; see the module docstring. ``players`` (when known) caps copies of a card."""

    def __init__(
        self,
        centre: Centre | None = None,
        *,
        players: int | None = None,
        inference: InferenceSettings | None = None,
        together_s: float = 0.5,
        twin_memory_s: float = 3.0,
        lift_memory_s: float = 1.8,
        lift_after_s: float = 0.9,
        twin_apart: tuple[float, float] = (12.0, 10.0),
        stop_grace_s: float = 0.3,
        glimpse_memory_s: float = 3.0,
    ) -> None:
        self.centre = centre if centre is not None else Centre(RuleSettings())
        self.players = players
        self.inference = inference or InferenceSettings()
        self.together_s = together_s
        self.twin_memory_s = twin_memory_s
        self.lift_memory_s = lift_memory_s
        self.lift_after_s = lift_after_s
        """A conflict's loser reacts (0.3 s at the quickest), lifts their copy (0.3 s) and the picture must then lie
        still for 0.3 s: a rearrangement sooner after the landing is the landing's own picture still coming to
        rest (the evaluation and development rounds: every conflict found so was lifted 0.95-1.45 s after its
        landing; of the 31 conflicts said wrongly with a card taken back after them, 11 sooner than 0.9 s)."""
        self.twin_apart = twin_apart
        """(mm, degrees): a second copy of the top revealed nearer its first than both of these is the first
        boxed anew (a detector's outline of one card shifts up to 12 mm and 10 degrees between frames), not a
        twin slapped with it (slaps land apart by up to 15 % of a card and 20 degrees)."""
        self.stop_grace_s = stop_grace_s
        """A card first seen this soon after the stop was on its way down as the stop was called (the last card of
        a Ligretto pile lands as its player calls): it counts."""
        self.glimpse_memory_s = glimpse_memory_s
        """A card glimpsed on a pile after its top landed, never voted in, is still evidence this long for the next
        card there that needs it under it (seed 100203, four players: a g7 read on its g6 for 0.6 s, then the g8
        on it was ruled "wrong number, g7 expected")."""
        self.stop_t: float | None = None
        self.inferred: dict[int, int] = {}
        """Plays inferred unseen, per stack id: where a count is least certain."""
        self._ruled_alone: list[Landing] = []
        """The cards ruled "not a one" where they lay (see :data:`RULED_THERE_MM`)."""
        self._books: dict[int, _PileBook] = {}

    def stop(self, reason: str, *, t: float, frame: int, back: str | None = None) -> RoundStopped:
        """The round stops at ``t``. A card first seen down before ``t`` but confirmed after it still counts."""
        self.stop_t = t
        return self.centre.stop(reason, back=back, t=t, frame=frame)

    def rule(self, change: Change) -> list[Event]:
        """The events one change causes (maybe none)."""
        book = self._books.setdefault(change.pile, _PileBook())
        if isinstance(change, Landed | Together) and self._before_the_stop(change):
            with self._rewound():
                return self._landed(book, change) if isinstance(change, Landed) else self._together(book, change)
        if isinstance(change, Landed):
            return self._landed(book, change)
        if isinstance(change, Together):
            return self._together(book, change)
        if isinstance(change, Uncovered):
            return self._uncovered(book, change)
        if isinstance(change, Lifted):
            return self._lifted(book, change)
        return self._vanished(book, change)

    def holding(self, pile: int) -> tuple[Card | None, tuple[tuple[Card, int], ...]]:
        """What ``pile`` holds now: its legal top (None: no stack) and the cards lying on it that do not count,
        each with the legal height it lies on."""
        book = self._books.get(pile, _PileBook())
        return self._top(book), (*book.departing, *book.loose)

    def _before_the_stop(self, change: Landed | Together) -> bool:
        """Seen down before the stop, or hidden since before it: the benefit of the doubt goes to the player."""
        if not self.centre.stopped or self.stop_t is None:
            return False
        hidden = change.hidden_from if isinstance(change, Landed) else None
        return change.t < self.stop_t + self.stop_grace_s or (hidden is not None and hidden[0] < self.stop_t)

    @contextmanager
    def _rewound(self) -> Iterator[None]:
        """Undoes the board back to before the stop, then plays the undone actions again (silently): the vote
        on a card that came down just before "Ligretto stop" may end just after it."""
        undone: list[Action] = []
        while self.centre.move_stack:
            undone.append(self.centre.pop())
            if isinstance(undone[-1], Stop):
                break
        try:
            yield
        finally:
            for action in reversed(undone):
                self._replay(action)

    def take_off(self, plays: Iterable[CardPlayed]) -> None:
        """Takes ``plays`` off the board, with what came after them played again: cards said played on stacks as
        they were being turned over and gathered (see :data:`referee.tracker.referee_session.HOLD_S`), no plays at
        all; the stacks' heights are their cards' count. Plays the board does not hold are left alone."""
        wanted = {(p.stack, p.card, p.frame) for p in plays}

        def taken_off(action: Action) -> bool:
            return isinstance(action, Landing) and (action.stack, action.card, action.frame) in wanted

        history = self.centre.move_stack
        found = [i for i, action in enumerate(history) if taken_off(action)]
        if not found:
            return
        undone: list[Action] = []
        while len(history) > found[0]:
            undone.append(self.centre.pop())
        for action in reversed(undone):
            if isinstance(action, Landing) and taken_off(action):
                if action.placement is None and action.stack is not None and self.inferred.get(action.stack):
                    self.inferred[action.stack] -= 1
                continue
            try:
                self._replay(action)
            except CentreError:
                continue  # built on a card taken off (a card "on" an r10 that never was): it goes too

    def _replay(self, action: Action) -> None:
        centre = self.centre
        if isinstance(action, Landing):
            centre.push(action)
        elif isinstance(action, Simultaneous):
            centre.push_together(action.landings)
        elif isinstance(action, TakeBack):
            centre.take_back(action.card, stack=action.stack, back=action.back, t=action.t, frame=action.frame)
        elif isinstance(action, Removal):
            centre.remove(action.stack, t=action.t, frame=action.frame)
        else:
            centre.stop(action.reason, back=action.back, t=action.t, frame=action.frame)

    def _top(self, book: _PileBook) -> Card | None:
        return None if book.stack is None else self.centre.stack(book.stack).top

    def _height(self, book: _PileBook) -> int:
        return 0 if book.stack is None else self.centre.stack(book.stack).height

    def stack_of(self, pile: int) -> int | None:
        book = self._books.get(pile)
        return None if book is None else book.stack

    # ---- changes

    def _landed(self, book: _PileBook, change: Landed) -> list[Event]:
        change = self._with_earlier_glimpses(book, change)
        landing = Landing(change.card, book.stack, placement=change.placement, t=change.t, frame=change.frame)
        # the top read anew (at once, where it lies, elsewhere within seconds, or alone at a new place): no card
        if (
            self._read_again(book, landing)
            or self._boxed_anew(book, change)
            or self._twin_revealed(book, change)
            or self._top_moved(book, change)
        ):
            return []
        if (change.again or self._loose_read_again(book, change)) and not self.centre.ruling(
            change.card, book.stack
        ).legal:
            book.loose.append((change.card, self._height(book)))
            book.quiet.append(change.card)
            return []
        if book.stack is None and self._ruled_there_before(landing):
            self._ruled_alone.append(landing)  # the time runs from its latest finding
            book.loose.append((change.card, 0))
            book.quiet.append(change.card)
            return []
        book.departing.clear()
        events: list[Event] = self._built_where_ruled(book, change)
        hidden = self._hidden_before(book, change)
        events += self._one_misread(book, change) + self._built_on_a_skip(book, change) + hidden
        # said when it most likely came down, under the hand, not when first read
        below = [e.card for e in hidden if isinstance(e, CardPlayed | StackStarted) and e.card is not None]
        t, frame = _down_above(change, below)
        landing = replace(landing, stack=book.stack, t=t, frame=frame)
        height = self._height(book)
        play = self.centre.push(landing)
        events.extend(play.events)
        if play.ruling.legal:
            book.stack = play.stack
            book.last_landing = landing
            book.last_hidden = change.hidden_from is not None
            self._forget_buried_misreads(book, t, frame)
        else:
            book.loose.append((change.card, height))
            book.last_loose = landing
            if Violation.NOT_A_ONE in play.ruling.violations and landing.placement is not None:
                self._ruled_alone.append(landing)
        return events

    def _ruled_there_before(self, landing: Landing) -> bool:
        """Whether ``landing``'s card was ruled "not a one" where it lies now, lately (:data:`RULED_THERE_MM`)."""
        at = landing.placement
        return at is not None and any(
            ruled.card == landing.card
            and ruled.placement is not None
            and 0.0 <= landing.t - ruled.t <= RULED_THERE_S
            and _apart(ruled.placement, at) <= RULED_THERE_MM
            for ruled in self._ruled_alone
        )

    def _with_earlier_glimpses(self, book: _PileBook, change: Landed) -> Landed:
        """``change`` with the cards glimpsed on its pile with the changes before it (within
        :attr:`glimpse_memory_s`) among its own glimpses; this change's glimpses are remembered for the next."""
        earlier = [
            (card, t, frame)
            for card, t, frame in book.glimpses
            if change.t - t <= self.glimpse_memory_s and card != change.card and card not in change.glimpsed
        ]
        book.glimpses = [*earlier, *((card, t, frame) for card, t, frame in change.glimpsed_at if card != change.card)]
        if not earlier:
            return change
        return replace(
            change,
            glimpsed=(*(card for card, _, _ in earlier), *change.glimpsed),
            glimpsed_at=(*earlier, *change.glimpsed_at),
        )

    def _forget_buried_misreads(self, book: _PileBook, t: float, frame: int) -> None:
        """Forgets the illegal cards the stack has since been built over with cards of their colour lower than
        them: each was a misread of a card now above it (a y4 read "y7", ruled illegal on the y3; then y5 and y6
        built on): a y7 the pile still held hid the real y7 from the tracker, and the y8, y9 after it were ruled
        against it (seed 99403, two players: 4 false illegal plays from one misread). Its ruling stands; the board
        forgets it quietly, so the card can land when its turn comes."""
        top, height = self._top(book), self._height(book)
        if top is None:
            return
        for entry in [e for e in book.loose if e[1] < height]:
            if entry[0].colour == top.colour and entry[0].number > top.number:
                self._off_the_books(book, entry, t, frame)

    def _one_misread(self, book: _PileBook, change: Landed) -> list[Event]:
        """A 2 landing on a spot where only illegal cards lie, one of them of its colour: that card was the 1,
        misread (the shipped recogniser read a y1 as "y7": "not a one", then y2, y3, y4 built on it, each "not a
        one"). Players build on a 1, not on a wrong card: the stack starts with the 1, when the misread card
        first showed, and the board forgets the misread card (its violation was already announced)."""
        if book.stack is not None or change.card.number != LOWEST + 1 or self.centre.stopped:
            return []
        same = [entry for entry in book.loose if entry[0].colour == change.card.colour]
        if not same:
            return []
        entry = same[-1]
        book.loose.remove(entry)
        if entry[0] in book.quiet:
            book.quiet.remove(entry[0])
        else:
            self._take_back(entry[0], None, change.t, change.frame)  # not announced: never lay
        t, frame = self._first_down(entry[0]) or (change.t, change.frame)
        play = self.centre.push(Landing(Card(change.card.colour, LOWEST), None, t=t, frame=frame))
        book.stack = play.stack
        return list(play.events)

    def _built_on_a_skip(self, book: _PileBook, change: Landed) -> list[Event]:
        """A card building on an illegal card that skipped numbers (b4 on a b3 ruled illegal on b1): the table
        built on it, so the skipped cards were played and the camera missed them (read the b2 as "b3", or the b2
        landed under a hand). The skipped cards count as played unseen when the illegal card came down, and it as
        played, so one misread is one wrong ruling, not a wrong ruling for every card after it (seed 99000: six).
        Likewise a card building on a card ruled "not a one" (y6 on a y5 where no stack was seen): the stack was
        started and built where the camera did not see it (at the picture's edge, seed 99000 eight players: y5,
        y6, y7, y8, y9 each "not a one"). Its violation was already announced; the skipped cards must be possible
        (:func:`hidden_plays`)."""
        if self.centre.stopped or self.centre.ruling(change.card, book.stack).legal:
            return []
        if change.card.number <= LOWEST:
            return []
        below = Card(change.card.colour, change.card.number - 1)
        entry = next((e for e in reversed(book.loose) if e[0] == below), None)
        if entry is None:
            return self._misread_between(book, change)
        if entry[1] != self._height(book):
            return []
        top = self._top(book)
        skipped: tuple[Card, ...] | None
        home = self._stack_it_strayed_from(below, near=change.placement) if top is None else None
        if home is not None:  # it went onto a stack seen before, landing apart from it (askew, off the edge)
            skipped = home[1]
        elif top is None:  # a stack is n cards high under its n, wherever the camera missed them
            skipped = tuple(Card(below.colour, n) for n in range(LOWEST, below.number))
            if not all(self._available(card) for card in skipped):
                return []
        else:
            skipped = hidden_plays(top, below, hidden_s=math.inf, available=self._available, settings=self.inference)
        if skipped is None or (not skipped and home is None):
            return []
        t, frame = self._first_down(entry[0], book.stack) or (change.t, change.frame)
        withdrawn = self._found_again_withdrawn(book, entry[0], t, frame)
        self._off_the_books(book, entry, t, frame)  # it stays, as played
        self._built_on(entry[0])
        if home is not None:
            book.stack = home[0]
            withdrawn += self._covered_top_misread(home[0], t, frame)
        return withdrawn + self._pushed(book, [(card, t, frame) for card in (*skipped, entry[0])], unseen=len(skipped))

    @staticmethod
    def _found_again_withdrawn(book: _PileBook, card: Card, t: float, frame: int) -> list[Event]:
        """The "not a one" said of ``card`` (when it came down: ``t``, ``frame``) withdrawn, where the camera lost it
        since and found it again where it lay (:data:`RULED_THERE_MM`): the session withdraws a ruling that play
        explains (:data:`referee.tracker.referee_session.WITHDRAWN_S`) unless the card was said taken back since
        (seed 116004, four players, held out: a b3 ruled, said taken back as its pile was lost, found again, then
        the b4 on it). Nothing for a card never lost, or on a stack."""
        if book.stack is not None or card not in book.quiet:
            return []
        return [_not_a_one_withdrawn(card, t, frame)]

    def _built_on(self, card: Card) -> None:
        """``card``, ruled "not a one", was built on: it no longer lies alone (:data:`RULED_THERE_MM`)."""
        self._ruled_alone = [r for r in self._ruled_alone if r.card != card]

    def _built_where_ruled(self, book: _PileBook, change: Landed) -> list[Event]:
        """A card landing on a new pile where a card of its colour below it, at most :data:`STRAYED_HIDDEN` cards
        between them, was lately ruled "not a one" (within :data:`STRAYED_NEAR_MM` and :data:`RULED_THERE_S`), the
        camera having lost that card's pile since: the table built on that card, which lay on a stack the camera never
        saw, or on the one stack of its colour that could have taken it (:meth:`_stack_it_strayed_from`). As
        :meth:`_built_on_a_skip` does on the card's own pile: the cards under it and between count as played unseen
        when it came down, it as played, and its ruling is withdrawn. A blue check cloth (seed
        116004, four players, held out): a g2, then a g3 and a g5 on it, each ruled "not a one" 3-5 mm from the
        last, 5 and 11 s apart, on a g1 never boxed, the g2's pile lost in between. In 168 rendered rounds' truth,
        no card truly ruled "not a one" (77) had a card of its colour up to three above it land within 90 mm of
        it before it was taken back; one, a minute later, on a stack started there since. The cards must be
        possible (:meth:`_available`)."""
        at, card = change.placement, change.card
        if book.stack is not None or book.loose or at is None or self.centre.stopped or card.number <= LOWEST + 1:
            return []
        ruled = next(
            (
                r
                for r in reversed(self._ruled_alone)
                if r.card.colour == card.colour
                and 0 < card.number - r.card.number <= 1 + STRAYED_HIDDEN
                and 0.0 <= change.t - r.t <= RULED_THERE_S
                and r.placement is not None
                and _apart(r.placement, at) <= STRAYED_NEAR_MM
            ),
            None,
        )
        if ruled is None:
            return []
        home = self._stack_it_strayed_from(ruled.card, near=ruled.placement)
        under = home[1] if home is not None else tuple(Card(card.colour, n) for n in range(LOWEST, ruled.card.number))
        between = tuple(Card(card.colour, n) for n in range(ruled.card.number + 1, card.number))
        if not all(self._available(c) for c in (*under, ruled.card, *between)):
            return []
        misread: list[Event] = []
        if home is not None:  # it went onto a stack seen before, landing apart from it
            book.stack = home[0]
            misread = self._covered_top_misread(home[0], ruled.t, ruled.frame)
        for other in self._books.values():  # still on its lost pile's book: off it, unannounced
            entry = _find(other.loose, ruled.card)
            if entry is not None and other is not book and other.stack is None:
                self._off_the_books(other, entry, change.t, change.frame)
        self._built_on(ruled.card)
        t, frame = self._first_down(ruled.card) or (ruled.t, ruled.frame)  # ruled when it came down
        down = [(c, t, frame) for c in (*under, ruled.card)]
        down += [(c, change.t, change.frame) for c in between]
        return [
            *misread,
            _not_a_one_withdrawn(ruled.card, t, frame),
            *self._pushed(book, down, unseen=len(under) + len(between)),
        ]

    def _covered_top_misread(self, stack: int, t: float, frame: int) -> list[Event]:
        """The illegal cards ruled on ``stack`` as a card that went on as that stack came down beside it (at ``t``
        and ``frame``, within :data:`COVERED_MISREAD_S`), still lying there: the stack's top, partly covered by it,
        misread where it lay. Their rulings are withdrawn and they go off the books. Seed 120006, two players, held
        out: a g3 slapped 40 mm off its g2, half over it; the g2's uncovered half read "g6" from that frame on, ruled
        "wrong number", while the g3 was ruled "not a one" until the g4 landed on it."""
        withdrawn: list[Event] = []
        for book in self._books.values():
            if book.stack != stack:
                continue
            for entry in list(book.loose):
                down = self._first_down(entry[0], stack)
                if down is None or abs(down[0] - t) > COVERED_MISREAD_S:
                    continue
                reason = next((x.reason for x in self.centre.loose if x.card == entry[0] and x.stack == stack), "")
                self._off_the_books(book, entry, t, frame)
                withdrawn.append(RulingWithdrawn(t=down[0], frame=down[1], stack=stack, card=entry[0], ruled=reason))
        return withdrawn

    def _stack_it_strayed_from(self, card: Card, near: Placement | None = None) -> tuple[int, tuple[Card, ...]] | None:
        """The open stack of ``card``'s colour it may have been played on with at most
        :data:`STRAYED_HIDDEN` cards between them unseen, and those cards; None unless exactly one stack may (and
        lies within :data:`STRAYED_FAR_MM` of ``near``, where the card lay), or, of several, exactly one lies
        within :data:`STRAYED_NEAR_MM` of it.
        A card "not a one" that the table then built on was played somewhere: on a stack the camera had seen,
        landing apart from it, takes fewer unseen cards than a whole stack nobody saw (seed 99606, eight players:
        a y8 slapped off its y7's stack, then the y9 on it, was a stack y1..y7 invented out of view; seed 99901,
        eight players: a g9 lying on its g6 stack, the g7 and g8 misread, while another green stack stood at g7
        across the table: a whole stack g1..g9 invented)."""
        homes = []
        for stack in self.centre.active_stacks:
            top = stack.top
            if top is None or top.colour != card.colour or not 0 <= card.number - top.number - 1 <= STRAYED_HIDDEN:
                continue
            between = tuple(Card(card.colour, n) for n in range(top.number + 1, card.number))
            if all(self._available(c) for c in between):
                homes.append((stack, between))
        if len(homes) > 1 and near is not None:
            homes = [h for h in homes if (at := h[0].placement) is not None and _apart(at, near) <= STRAYED_NEAR_MM]
        elif near is not None:
            homes = [h for h in homes if (at := h[0].placement) is None or _apart(at, near) <= STRAYED_FAR_MM]
        return (homes[0][0].id, homes[0][1]) if len(homes) == 1 else None

    def _misread_between(self, book: _PileBook, change: Landed) -> list[Event]:
        """A card one number too high for the top (y9 on a y7) where one illegal card of its colour was ruled on
        that top since: that card was the missing one, misread (a y8 read "y10"; seed 99403, two players). It
        counts as the missing card, played when it came down; its own ruling stands."""
        top = self._top(book)
        if top is None or top.colour != change.card.colour or change.card.number != top.number + 2:
            return []
        height = self._height(book)
        entries = [e for e in book.loose if e[1] == height and e[0].colour == top.colour]
        if len(entries) != 1 or entries[0][0] == change.card:
            return []
        entry = entries[0]
        missing = Card(top.colour, top.number + 1)
        if not self._available(missing):
            return []
        t, frame = self._first_down(entry[0], book.stack) or (change.t, change.frame)
        self._off_the_books(book, entry, t, frame)
        play = self.centre.push(Landing(missing, book.stack, t=t, frame=frame))
        book.stack = play.stack
        return list(play.events)

    def _off_the_books(self, book: _PileBook, entry: tuple[Card, int], t: float, frame: int) -> None:
        """A loose card off the pile's book and the board, unannounced: its ruling stands, and what it was is
        told otherwise (a card played, a misread)."""
        book.loose.remove(entry)
        if entry[0] in book.quiet:
            book.quiet.remove(entry[0])
        else:
            self._take_back(entry[0], book.stack, t, frame)

    def _first_down(self, card: Card, stack: int | None = None) -> tuple[float, int] | None:
        """When the latest illegal ``card`` on ``stack`` (None: that started no stack) came down, by the board's
        record."""
        for action in reversed(self.centre.move_stack):
            if isinstance(action, Landing) and action.card == card and action.stack == stack:
                return action.t, action.frame
        return None

    def _hidden_before(self, book: _PileBook, change: Landed) -> list[Event]:
        """Plays nobody saw that explain the new top, pushed before it (with its time: when it was learnt).
        A new pile showing y2 where y1 was glimpsed under the hand that slapped y2 is a stack y1 started."""
        if self.centre.stopped or self.centre.ruling(change.card, book.stack).legal:
            return []
        top = None if book.stack is None else self.centre.stack(book.stack).top
        covered = {card: (t, frame) for card, t, frame in change.covered}
        cards = hidden_plays(
            top,
            change.card,
            hidden_s=change.hidden_s,
            glimpsed=(*change.glimpsed, *covered),
            available=self._available,
            settings=self.inference,
        )
        if cards is None:
            # seen briefly, then covered by a card of another run
            cards = (
                _glimpsed_run(top, change.glimpsed)
                or _glimpsed_run(top, tuple(covered), start=True)
                or self._started_under(top, change.card, tuple(covered))
            )
        if not cards:
            return []
        read = _first_readings(change)
        times = [
            min(read[card], when) if card in read else when
            for card, when in zip(cards, _unseen_times(change, len(cards) + 1)[:-1], strict=True)
        ]
        _after_the_card_below(change, cards, times, read)
        limit = _down_above(change, cards)
        for i in reversed(range(len(times))):  # a card lower in the stack came down before the one on it
            limit = times[i] = min(times[i], limit)
        return self._pushed(book, [(card, t, frame) for card, (t, frame) in zip(cards, times, strict=True)])

    def _started_under(self, top: Card | None, card: Card, covered: tuple[Card, ...]) -> tuple[Card, ...]:
        """On an empty spot, the card just below ``card`` read lying there before ``card`` covered it (a y2, then
        the y3 on it): the table was building a stack there, so its lower cards lie under, unseen (seed 100205,
        eight players: a y1 slapped at the picture's edge, mostly hidden, the y2 on it read 0.4 s, then the y3:
        "not a one", and the y5 after it too). Two wrong cards in a row on one spot are far rarer than a 1 the
        camera missed. The lower cards must be possible (:meth:`_available`)."""
        if top is not None or card.number <= LOWEST + 1:
            return ()
        below = Card(card.colour, card.number - 1)
        if below not in covered or below.number - 1 > self.inference.max_hidden_plays:
            return ()
        under = tuple(Card(card.colour, n) for n in range(LOWEST, below.number))
        if not all(self._available(c) for c in (*under, below)):
            return ()
        return (*under, below)

    def _pushed(self, book: _PileBook, cards: list[tuple[Card, float, int]], unseen: int | None = None) -> list[Event]:
        """``cards`` (each with when it came down) played in turn on the pile's stack, the first ``unseen`` of
        them (None: all) counted as played unseen; their events."""
        events: list[Event] = []
        for card, t, frame in cards:
            play = self.centre.push(Landing(card, book.stack, t=t, frame=frame))
            book.stack = play.stack
            events.extend(play.events)
        if book.stack is not None:
            self.inferred[book.stack] = self.inferred.get(book.stack, 0) + (len(cards) if unseen is None else unseen)
        return events

    def _available(self, card: Card) -> bool:
        if self.players is None:
            return True
        copies = sum(1 for s in self.centre.stacks for c in s.cards if c.card == card)
        return copies < self.players

    def _read_again(self, book: _PileBook, landing: Landing) -> bool:
        """The card that just landed, said to land again within moments: the same card read anew (a hand moving
        off it, a copy of its box), not a second copy. From above two copies slapped together cannot be told from
        that until the loser lifts theirs (:meth:`_lifted`): said a conflict, this was wrong 17 times of 18
        (rendered rounds at seeds 100200-100206 and 100250-100262, 86 conflicts)."""
        last = book.last_landing
        return last is not None and last.card == landing.card and landing.t - last.t <= self.together_s

    def _loose_read_again(self, book: _PileBook, change: Landed) -> bool:
        """An illegal card ruled on the pile and not yet taken back, read as a new copy within seconds: the same
        card boxed anew (seed 100203, eight players: an r9 ruled at 23.28 s, boxed turned by 60 degrees 0.3 s
        later, ruled again; seed 110000, four players: a g5 ruled at 30.90 s, boxed turned by 12 degrees 0.57 s
        later, ruled again, taken back at 32.14 s). Two players slapping the same wrong card on one stack within
        seconds is far rarer than an illegal card lying a second before it goes back. It lies on the books a
        second time, unannounced, so the tracker and the judge agree on the pile."""
        last = book.last_loose
        return (
            change.copy
            and last is not None
            and last.card == change.card
            and _find(book.loose, change.card) is not None
            and change.t - last.t <= self.twin_memory_s
        )

    def _twin_revealed(self, book: _PileBook, change: Landed) -> bool:
        """The legal top's face showing elsewhere soon after it landed: a second copy that landed with it, unseen
        under the hands, just picked up, uncovering the first; or the top boxed another way as a hand leaves it.
        Said a conflict, this was wrong 15 times of 15 (the rounds of :meth:`_read_again`): the conflict is
        found when the loser's lift leaves the picture rearranged (:meth:`_lifted`). This reading invents
        nothing."""
        last = book.last_landing
        return (
            change.copy
            and last is not None
            and last.card == change.card == self._top(book)
            and change.t - last.t <= self.twin_memory_s
        )

    def _top_moved(self, book: _PileBook, change: Landed) -> bool:
        """The top's face read alone at a new place, longer after it landed than a twin's window: the top moved
        (a stack nudged by a hand, lifted for counting after the stop) or was boxed another way. A second copy
        slapped on it cannot be told from that from above unless the first shows beside it
        (:attr:`~referee.tracker.stacks.Landed.beside`); without that, this reading invents no violation
        (rendered rounds at seeds 99200-99206: 20 of the 52 false illegal plays were the top read again at a
        new place, "r10 on a full stack" and "g2 on g2"; no true play was a copy of the top)."""
        return change.copy and not change.beside and change.card == self._top(book)

    def _boxed_anew(self, book: _PileBook, change: Landed) -> bool:
        """The top's face read as a new copy where the top itself lies, give or take a detector's jitter
        (see ``twin_apart``): the top boxed anew, no card landed."""
        last = book.last_landing
        if not change.copy or last is None or change.card != self._top(book) or last.card != change.card:
            return False
        a, b = last.placement, change.placement
        if a is None or b is None:
            return False
        turn = abs((a.angle - b.angle + 90.0) % 180.0 - 90.0)
        return _apart(a, b) < self.twin_apart[0] and turn < self.twin_apart[1]

    def _lifted(self, book: _PileBook, change: Lifted) -> list[Event]:
        """A card with the top's face picked up off it soon after the top landed: two players slapped that card
        together and the loser took theirs back at once (rendered rounds at seeds 100200-100206: 53 conflicts, the
        copies 1-25 mm and up to 28 degrees apart, picked up 0.35-1.22 s after landing, the hand's move 0.3 s, then
        0.3 s for the picture to lie still: ``lift_memory_s``). Later, or after the stop, a hand straightened the
        top or a passing one disturbed the picture: nothing to rule (the same rounds, first without the bound:
        the 7 conflicts found so were read lifted 1.3-1.7 s after landing, 5 of the 6 that were none 1.9-2.8 s)."""
        last = book.last_landing
        if self.centre.stopped or last is None or last.card != change.card or change.card != self._top(book):
            return []
        if change.card.number == LOWEST:  # a 1 starts a stack of its own: no two land on one stack
            return []
        if not self.lift_after_s <= change.t - last.t <= self.lift_memory_s:
            return []
        return self._hidden_conflict(book, change)

    def _hidden_conflict(self, book: _PileBook, change: Landed | Lifted) -> list[Event]:
        last = book.last_landing
        assert last is not None
        book.last_landing = None
        cards = (change.card, change.card)
        return [
            Conflict(t=last.t, frame=last.frame, stack=book.stack, card=change.card, cards=cards),
            CardTakenBack(t=change.t, frame=change.frame, stack=book.stack, card=change.card),
        ]

    def _together(self, book: _PileBook, change: Together) -> list[Event]:
        """Cards that showed up at once: a conflict when several of them may go on the stack now (two r5 on r4),
        otherwise cards played one after the other faster than the camera saw (b2 then b3), in number order."""
        contenders = [c for c in change.cards if self.centre.ruling(c, book.stack).legal]
        events: list[Event] = self._twins_vouch(book, change) if len(contenders) < 2 else []
        if events:
            contenders = list(change.cards)
        if len(contenders) < 2:
            seen = dict(zip(change.cards, change.seen, strict=True)) if change.seen else {}
            for card in sorted(change.cards, key=lambda c: (c not in contenders, c.number)):
                t, frame = min(seen.get(card, (change.t, change.frame)), (change.t, change.frame))
                events.extend(self._landed(book, Landed(change.pile, card, t, frame, change.placement)))
            return events
        book.departing.clear()
        height = self._height(book)
        landings = [
            Landing(card, book.stack, placement=change.placement, t=change.t, frame=change.frame)
            for card in change.cards
        ]
        result = self.centre.push_together(landings)
        events.extend(result.events)
        if self.centre.stopped:
            book.loose.extend((card, height) for card in change.cards)
        elif result.kept is None:
            book.departing.extend((card, height) for card in change.cards)
        else:
            book.stack = result.stack
            book.departing.extend((c, height) for i, c in enumerate(change.cards) if i != result.kept)
        return events

    def _twins_vouch(self, book: _PileBook, change: Together) -> list[Event]:
        """Copies of one card that showed up at once, one or two numbers above the top of their colour (two b10 on
        a b8): two players do not slap the same wrong card in the same instant; each slapped it because the
        card below it lay there, so the cards between were played and the camera missed them (the b9 came down
        0.4 s before and was covered at once; seeds 99502 and 99503, each said "b10 illegal" twice). They count
        as played unseen just before, and the copies then make a conflict. Nothing when the story is not
        possible (:func:`hidden_plays`)."""
        cards = set(change.cards)
        top = self._top(book)
        if self.centre.stopped or len(change.cards) < 2 or len(cards) != 1 or top is None:
            return []
        card = change.cards[0]
        if card.colour != top.colour or not 0 < card.number - top.number - 1 <= TWINS_VOUCH_FOR:
            return []
        between = hidden_plays(top, card, hidden_s=math.inf, available=self._available, settings=self.inference)
        if not between:
            return []
        return self._pushed(book, [(missed, change.t, change.frame) for missed in between])

    def _uncovered(self, book: _PileBook, change: Uncovered) -> list[Event]:
        events: list[Event] = []
        for card in change.removed:
            departing = _find(book.departing, card)
            loose = _find(book.loose, card)
            if departing is not None:
                book.departing.remove(departing)
            elif loose is not None and card in book.quiet:
                book.loose.remove(loose)
                book.quiet.remove(card)
            elif loose is not None:
                book.loose.remove(loose)
                events.extend(self._take_back(card, book.stack, change.t, change.frame))
        return events

    def _take_back(self, card: Card, stack: int | None, t: float, frame: int) -> list[Event]:
        """The illegal ``card`` picked up from ``stack`` (from wherever the board has it, if not there; nothing if
        the board has none: a pile's book and the board may part ways when a stack's story is rewritten under it,
        and a replay must go on: seed 99402, eight players, stopped on "no illegal y7 on stack 9")."""
        for where in dict.fromkeys((stack, None)):
            try:
                return [self.centre.take_back(card, stack=where, t=t, frame=frame)]
            except CentreError:
                continue
        return []

    def _vanished(self, book: _PileBook, change: Vanished) -> list[Event]:
        events: list[Event] = []
        if book.stack is None:
            for card, _ in book.loose:
                if card in book.quiet:  # never announced, so never on the board
                    book.quiet.remove(card)
                    continue
                events.extend(self._take_back(card, None, change.t, change.frame))
            book.loose.clear()
        elif not self.centre.stack(book.stack).removed and not self._still_lies_elsewhere(book):
            events.append(self.centre.remove(book.stack, t=change.t, frame=change.frame))
        book.gone = True
        return events

    def _still_lies_elsewhere(self, book: _PileBook) -> bool:
        """Whether another pile the camera still sees holds ``book``'s stack: a card that strayed from a stack
        (askew, off its edge) and went on as it (:meth:`_stack_it_strayed_from`) leaves two piles of one stack,
        and one of them vanishing takes nothing off the table (seed 120006, two players, held out: a g3 slapped
        askew onto the g2 went on as stack 1, the first pile vanished a moment after the g4 landed, stack 1 was
        taken out of play, and its g5 to g10 were never said)."""
        return any(other is not book and other.stack == book.stack and not other.gone for other in self._books.values())


def _not_a_one_withdrawn(card: Card, t: float, frame: int) -> RulingWithdrawn:
    """The "not a one" said of ``card`` as it came down (``t``, ``frame``) withdrawn: the table built on it."""
    return RulingWithdrawn(t=t, frame=frame, stack=None, card=card, ruled=str(Violation.NOT_A_ONE))


def _apart(a: Placement, b: Placement) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _find(cards: list[tuple[Card, int]], card: Card) -> tuple[Card, int] | None:
    """The highest entry for ``card`` (the one most recently put down)."""
    return next((entry for entry in reversed(cards) if entry[0] == card), None)


def _first_readings(change: Landed) -> dict[Card, tuple[float, int]]:
    """When each card read on the pile before ``change``'s card (glimpsed, or covered by it) was first read."""
    read = {card: (t, frame) for card, t, frame in change.glimpsed_at}
    read.update({card: (t, frame) for card, t, frame in change.covered})
    return read


def _after_the_card_below(
    change: Landed, cards: Sequence[Card], times: list[tuple[float, int]], read: Mapping[Card, tuple[float, int]]
) -> None:
    """Dates each of ``cards`` (played one on the other, unseen or glimpsed: ``times``, mended in place) no earlier
    than the card below it was last read on the pile (:attr:`Landed.glimpsed_until`): it lay on top till then. Not
    where that reading is later than the card itself or the card above was first read (``read``: the first
    readings, :func:`_first_readings`; the card below read beside it, peeking out from under it)."""
    until = {card: (t, frame) for card, t, frame in change.glimpsed_until}
    for i in range(1, len(cards)):
        below = until.get(cards[i - 1])
        above = [read[card] for card in cards[i:] if card in read]
        latest = min([*above, (change.t, change.frame)])
        if below is not None and times[i] < below <= latest:
            times[i] = below


def _down_above(change: Landed, below: Sequence[Card]) -> tuple[float, int]:
    """When ``change``'s card most likely came down (:attr:`Landed.down`), but not before a card ``below`` it was
    first read there: that card showed then (seed 99001, eight players: an r5 read at 17.1 s, the r6 on it dated
    16.8 s by the 1.4 s the stack was hidden); nor before its share of the hidden time when cards nobody saw came
    down under it (see :func:`_unseen_times`: the last of them and it, one after the other; seed 110005, eight
    players: a b9 read at 12.4 s over a b8 nobody saw, both dated 11.13 s as the hand came, the b9 truly down at
    12.13 s)."""
    read = _first_readings(change)
    seen = [read[card] for card in below if card in read]
    if below:
        seen.append(_unseen_times(change, len(below) + 1)[-1])
    return min(max([change.down, *seen]), (change.t, change.frame))


def _unseen_times(change: Landed, count: int) -> list[tuple[float, int]]:
    """When ``count`` cards most likely came down one after the other while the pile was hidden: the first as the
    hand that hid the stack arrived (or, without one, as the old top was last read: something covered it then),
    the others spread evenly until the seen card was read (the last of them is the seen card: the cards nobody
    saw take the others); when the old top was read until the seen card showed, when the seen card was learnt."""
    if change.hidden_s > 0 and change.t > 0:
        t0 = change.t - change.hidden_s
        f0 = frame_before(change.t, change.frame, change.hidden_s)
    elif change.hidden_from is not None:
        t0, f0 = change.hidden_from
    else:
        return [(change.t, change.frame)] * count
    times = []
    for i in range(count):
        share = i / count
        times.append((t0 + share * (change.t - t0), f0 + round(share * (change.frame - f0))))
    return times


def _glimpsed_run(top: Card | None, glimpsed: tuple[Card, ...], *, start: bool = False) -> tuple[Card, ...]:
    """The glimpsed cards that go on ``top`` one after the other (b10 glimpsed on b9 before y9 covered it):
    they were played, whatever is judged of the card that covered them. ``start``: on an empty spot, a
    glimpsed 1 starts the run (g1 lay a moment before b2 covered it).

    >>> _glimpsed_run(Card.parse("b9"), (Card.parse("y2"), Card.parse("b10")))
    (Card.parse('b10'),)
    >>> _glimpsed_run(None, (Card.parse("b3"), Card.parse("g1"), Card.parse("g2")), start=True)
    (Card.parse('g1'), Card.parse('g2'))
    """
    run: list[Card] = []
    if top is None and start:
        ones = [card for card in glimpsed if card.number == LOWEST]
        if len(ones) != 1:
            return ()
        top = ones[0]
        run.append(top)
    while (nxt := (Card(top.colour, top.number + 1) if top is not None and top.number < 10 else None)) in glimpsed:
        assert nxt is not None
        run.append(nxt)
        top = nxt
    return tuple(run)

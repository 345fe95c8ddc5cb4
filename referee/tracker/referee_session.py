"""The live referee: frames in, events out, as they happen, from the first card to the scored round.

:class:`Referee` runs the :class:`~referee.tracker.stacks.StackTracker` and the
:class:`~referee.tracker.judge.Judge` over each frame and watches for the end of the round: an explicit
:meth:`Referee.stop` (a key, an API call, ``--stop-at``), or the centre being gathered (every stack gone from
view and face-down cards in the centre instead), said once no card has been seen played on a stack for
:data:`GATHER_DOUBT_S` after it. After the end it counts the spreads
(:mod:`referee.tracker.counting`) and emits ``round_scored`` once the counts have held still for
``settle_s``, or at :meth:`Referee.finish` when the source ends first.

Every event carries the time and frame at which its card was first seen down, not when the vote confirmed it,
so what a table sees lags the card by the vote (about 0.2 s) while the log is exact.

>>> from referee.tracker.stacks import seen
>>> referee = Referee()
>>> events = [e for i in range(10) for e in referee.update(seen(i, ("g1", (0, 0))))]
>>> events += [e for i in range(10, 20) for e in referee.update(seen(i, ("g2", (5, 3))))]
>>> [(e.type, str(e.card), e.frame) for e in events]
[('stack_started', 'g1', 0), ('card_played', 'g2', 10)]
>>> [e.type for e in referee.stop(t=1.0, frame=30)]
['round_stopped']
"""

from __future__ import annotations

import copy
import math
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum

from referee.cards import Card
from referee.centre import Centre
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    Placement,
    RoundScored,
    RoundStopped,
    RulingWithdrawn,
    StackStarted,
)
from referee.rules import RuleSettings
from referee.sightings import FrameSightings, Point, Sighting
from referee.tracker.counting import (
    UNKNOWN_BACK,
    CountWarning,
    LineReader,
    Sorter,
    SpreadCount,
    SpreadCounter,
    score_count,
)
from referee.tracker.fan_owners import owners_by_fans
from referee.tracker.inference import InferenceSettings
from referee.tracker.judge import Judge
from referee.tracker.owners import (
    HAND_EVIDENCE,
    RETURN_S,
    OpenCard,
    SeatWatch,
    owed_by_elimination,
    settled_by_elimination,
)
from referee.tracker.rivals import RIVAL_FRAMES, RIVAL_TOLD_S, ArmEnd, arm_seats, rival_hands
from referee.tracker.seat_backs import name_seats, renamed
from referee.tracker.seats import Hand, SeatSorter, free_set, free_sets
from referee.tracker.stacks import Pile, StackTracker, TrackerSettings
from referee.tracker.strip_owners import StripReader, owners_by_strips


class Phase(StrEnum):
    PLAY = "play"
    STOPPED = "stopped"
    """Stopped by a signal; the stacks are still there (plays now are ``after_stop``)."""
    COUNTING = "counting"
    """The centre was gathered: the spreads are being counted."""
    SCORED = "scored"


COUNT_CHECK_S = 0.2
"""How often the spreads' count is worked out while they are counted: its settling takes seconds (``settle_s``),
and working it out every frame cost eight players a tenth of their replay."""
SPREAD_BACKS = 6
SPREAD_SHARE = 0.2
"""The centre spread is seen (and play over) when at least this many backs, and this share of the cards the
stacks hold, lie in the centre for ``gather_s``."""
UNKNOWN_BACK_SURE = 0.7
"""A box read as a back of no known design says the centre is being spread only when the detector is this sure of
it: a cloth of checks in a back's colours is boxed as backs, unknown at 0.44-0.64, three boxes of one patch for
half a second while a stack lay under a hand (held-out look, seed 116002, four players: the round taken for
gathered 5 s before its stop, twelve plays lost). Known backs always tell; the count itself counts every back."""
WIND_UP_BACKS = 3
WIND_UP_UNSEEN_S = 1.0
WIND_UP_S = 0.5
WIND_UP_SHARE = 0.7
"""The table is winding up when, in this share of the frames of the last ``WIND_UP_S``, :data:`SPREAD_BACKS`
backs lie in the centre, or this many while a stack has been out of view this long: stacks being turned over and
fanned. A stack lifted lengthwise shows its cards one by one where it lay, which the rules would read as plays
(an r10 "on" a b8); waiting for a fifth of the centre's cards to show their backs for ``gather_s`` let 4 such
false illegal plays through in 21 rounds (seeds 99300-99306). Over 8 rounds (dev seeds 99000-99001, 99202, 99302)
this fired 2-4 s after the stop and never in play, where a back in the centre is a misread or a card turning
(at most 2 in one second, with every stack in view)."""

GATHER_DOUBT_S = 3.0
"""The centre seen gathered is said gathered only once this long has passed without a card seen played on one of
its stacks (see :func:`_plain_play`): meanwhile play goes on, its events held, beside the table as it is gathered,
whose events wait too (:class:`_Doubted`). Held-out look, seed 116002, eight players: a blue check cloth boxed as
backs near the centre while a hand lay over a stack for 2.6 s was taken for the stacks being turned over at 14.2
s, the round's stop at 24.6 s, and 51 of 73 plays were lost; a g8 was seen played on its g7 1.0 s later. After the
41 true gatherings of seeds 115000-115006 and 116000-116006 (2, 4 and 8 players, the training and the held-out
look) no card was seen so played within 4 s: the cards seen then are the stacks' own as they are turned over and
fanned, ruled illegal, or a bottom 1 showing where its stack lay, said to start one (neither counts); counting a
card seen played with cards inferred under it too changed no event of the 63 rounds of seeds 114000-116006."""


STRANGER_CARDS = 3
"""The fewest cards of a back no hand owns, laid out after the round, that name a hand still unread (see
:meth:`Referee._name_unread_hands`): a strip or two read as another back are misreads."""
UNREAD_SHARE = 0.7
"""The share of the cards of backs no hand owns, laid out before an unread hand's seat, that one back must have
to name it: a seat cut off by the picture's edge may lay its fan near."""
MEASURED_CONTRADICTED = 3
"""At a table whose every seat the picture shows, each with its owner, the fans' measured counts are set aside for
the cards read one by one (play's names then settle whose they are) when they contradict play's names by this many
cards (see :func:`contradiction`): a fan's extent misread moves cards between players, while the seats' watch,
seeing every seat, seldom names a card wrongly; seldom is not never, and one card it names to the wrong seat
contradicts the fans by two (one short of what one player was seen to play, one over the other's): a new
two-player round (seed 105003) had its fans measured exactly, 20 and 13, against 18 and 14 seen played with one
card unnamed, and lost both players to the cards read one by one (19 and 14); at three it keeps them, and the
rounds below are as they were. 40 rendered two- and four-player rounds scored again offline
(seeds 101000-101006 and 101070-101076; 102000-102006 on held-out tables; five replayed with a detector trained on
other cloths, models/README.md stage 13): it applied in three, and their centres exact went 1 -> 2 of 4 (seed
102001, four players: red-pink measured 18, seen played 15, 2 cards unnamed), 0 -> 2 of 2 (seed 101073, two
players: 18 and 24 measured, 20 and 21 seen played) and 2 -> 4 of 4 (seed 101072, four players); no other round
changed. Where seats are missing (an eight-player table the picture cuts) play names too few cards, and less
surely, to overrule the fans: 17 eight-player rounds, centres exact 51 -> 31 of 136 had it applied there."""
EVERY_CARD_NAMED_CONTRADICTED = 2
"""Where play named every card of the centre, one card the fans' measure moves from one player to another
(contradicting the names by two) sets the measure aside: with the stacks' total fixed, a fan measured a strip
long takes that card from another fan, while the names, each right or wrong on its own, add up to the total
whatever their errors. 56 rendered two- and four-player rounds scored again offline (seeds 117000-117006,
118000-118006 and, held out, 119000-119006): it applied in two, both named rightly (seed 119001, two players:
measured 19 and 12, named 18 and 13; seed 119004, four players: 21 and 19 against 20 and 20); seed 117001,
four players, one card unnamed, keeps its measure (:data:`MEASURED_CONTRADICTED`), as seed 105003 did.
Unless a witness of play doubts a name the measure moves: a card named to the player the fans hold one fewer was
put down by the other's arm, or fits the other's copy best by face, or its player's copy lay at their seat across
its landing (:meth:`SeatWatch.doubted`): the fans and that witness together outweigh the name. Seeds 121000 and
121001, two players, held out: fans measured exactly (19 and 22, 16 and 15) lost to a b2 named red-red's by one
glance at its seat against five frames of red-light-blue's arm, and an r9 named red-red's by its arm while red-red's
r9 lay at its seat; in the two rounds above no such witness doubts a name the measure moves."""
RENAMED_CARDS = 5
"""The fewest cards of a back no hand owns, laid out before a seat whose hand play never read, that rename it (see
:meth:`Referee._rename_misread_hands`): more than name an unread one, the opening's reading being some evidence."""
UNREAD_NEAR = 0.6
"""Spreads nearer the middle than this share of a hand's distance are the centre's, fanned where the stacks lay
(every player's backs), not laid out before that seat (handed-back fans lie at 0.8-0.9 of it, seed 100600, eight
players)."""
EXPLAINED_S = 0.3
EXPLAINED_MM = 500.0
"""A card landed (or ruled illegal) this near in time and place to one two arms reached explains the second arm:
it was on its way to that card, passing over this one (rendered rounds at seeds 101000-101006, four players:
with 0.5 s, 3 of the 13 conflicts were lost to it; with 200 mm, 14 more false ones were said; with 300 mm, two
arms to landings 370 and 500 mm off were said conflicts)."""
ECHO_S = 1.7
"""After a conflict on a stack, the loser takes their copy back up to 1.6 s later: their arm at the stack then
reaches the next card landed there too."""
SAME_CONFLICT_S = 1.0
"""Two conflicts of one card on one stack this close in time are one (told by the arms, then by the lift)."""
RECENT_EVENTS = 100
"""The latest events looked back through for those near a landing in time: events come out of time order (a
conflict is dated at its landing, an illegal play held while the centre winds up), so not the newest alone."""
WITHDRAWN_S = 0.35
WITHDRAWN_MM = 90.0
"""A card said played (or starting a stack) within this of an illegal play said of the same card, as near as a
card slapped askew lies to its stack (or with no place of its own: a play inferred under a hand), is that card:
what came after explained it (a "not a one" built on lies on a 1 the camera never saw; a "wrong number" had cards
played unseen under it), and the illegal play is withdrawn (``ruling_withdrawn``) before the play is said. Over 68
rendered rounds of 2-8 players (seeds 103000-103003, 103010-103016, 104000-104006, 105000-105006), 7 of the 14
illegal plays said falsely were so explained, 0.0-0.16 s from their play, and none of the 65 said rightly."""
HOLD_S = 2.0
"""An illegal play ruled while backs lie in the centre (:data:`WIND_UP_BACKS` or more) is held until the centre
shows none, for this long at most, and dropped if the centre is gathered meanwhile: the stacks were being turned
over, and the "play" was a lifted stack's card showing where it lay (seed 99402, four players: two "r10" said as
the backs came, 0.3 s before the table was seen winding up). In play a back in the centre is a passing misread,
gone the next frame, and the ruling waits no longer. A card said played on a stack meanwhile is held too, and
taken off the board when the centre is gathered (:meth:`Judge.take_off`): the backs fanned on a red 8 as the
centre was gathered read as an r10, said played with an r9 unseen under the gatherer's hand (seed 105005, two
players: two false plays, and the centre's count two cards over). The backs are counted over the last
:data:`WIND_UP_S`: as the stacks are turned over a hand hides some of them from frame to frame (seed 109005, four
players: an "r10" ruled "not a one" where three to five backs had lain in the centre for a second, two in that
frame, 0.5 s before the table was seen gathered)."""


@dataclass(frozen=True)
class RefereeSettings:
    """``zone``: the centre zone on the table plane when the frames do not carry one (None: everywhere).

    ``gather_s``: every stack out of view this long, with at least ``gather_min_backs`` face-down cards in the
    centre, means the centre is being gathered. ``settle_s``: spread counts unchanged this long are final.
    """

    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    inference: InferenceSettings = field(default_factory=InferenceSettings)
    rules: RuleSettings = field(default_factory=RuleSettings)
    zone: tuple[Point, ...] | None = None
    gather_s: float = 1.5
    gather_min_backs: int = 2
    settle_s: float = 3.0
    sorter: Sorter | None = None
    """Where cards seen after the round belong (see :data:`referee.tracker.counting.Sorter`); None: by zone."""
    line_reader: LineReader | None = None
    """Measures leftover lines in the picture (see :data:`referee.tracker.counting.LineReader`); None: they are
    counted by their spots alone."""
    strip_reader: StripReader | None = None
    """Reads the inks of a fanned stack's cards in the picture (see :mod:`referee.tracker.strip_owners`); None:
    play and the fans' back counts alone name the centre cards' owners."""


class Referee:
    """Consumes frames in order and returns the events each one causes; :attr:`events` keeps them all."""

    def __init__(
        self,
        settings: RefereeSettings | None = None,
        *,
        backs: Sequence[str] = (),
        round: int = 1,
    ) -> None:
        self.settings = settings or RefereeSettings()
        self.backs = tuple(backs)
        self.round = round
        self.tracker = StackTracker(self.settings.tracker)
        self.judge = Judge(
            Centre(self.settings.rules), players=len(self.backs) or None, inference=self.settings.inference
        )
        self.counter = SpreadCounter(self.settings.sorter, line_reader=self.settings.line_reader)
        sorter = self.settings.sorter
        self.seat_watch = SeatWatch(sorter) if isinstance(sorter, SeatSorter) and sorter.owners else None
        self.phase = Phase.PLAY
        self.events: list[Event] = []
        self.warnings: tuple[CountWarning, ...] = ()
        self.card_owners: dict[tuple[int, str], str] = {}
        """Whose each centre card was, as play showed it (stack id, card): filled in when the round is scored."""
        self.open_cards: list[OpenCard] = []
        """The centre cards play left unnamed at the count, with who may have played each (see :meth:`_named`)."""
        self._last_count: SpreadCount | None = None
        self._count_since = 0.0
        self._checked_t = -math.inf
        self._spread_since: float | None = None
        self._winding: deque[tuple[float, bool]] = deque()
        self._held: list[tuple[Event, float]] = []
        self._centre_backs_seen: deque[tuple[float, int]] = deque()
        self._lifted: list[Conflict] = []
        """Conflicts the judge told by a lift, waiting for the arms round their landing (:meth:`_lift_vetted`)."""
        self._lone_seat: dict[tuple[int | None, float], bool] = {}
        """Per card played whose arms were judged (its stack and time): whether they came from one seat or none, at
        a table whose every seat is in the picture (see :func:`~referee.tracker.rivals.arm_seats`)."""
        self._racing: list[CardPlayed] = []
        """Cards played whose race is still to judge: whether a rival took their copy back (:meth:`_races_lost`)."""
        self._t, self._frame = 0.0, 0
        self._closed_for: object = None
        self._closed: frozenset[str] = frozenset()
        self._doubted: _Doubted | None = None

    @property
    def centre(self) -> Centre:
        return self.judge.centre

    @property
    def counts_spreads(self) -> bool:
        """Whether the spreads after the round are being counted, or may be: the centre has been seen gathered
        (said so, or in doubt for :data:`GATHER_DOUBT_S`) and the round is not scored yet. The whole table is then
        read, thoroughly: the spreads' small, fanned backs need it."""
        return self.phase is Phase.COUNTING or (self._doubted is not None and self.phase is not Phase.SCORED)

    # ---- the frame loop

    def update(self, frame: FrameSightings | None, *, counted: FrameSightings | None = None) -> list[Event]:
        """One frame (None: unreadable, skipped); returns the events it caused, in order. ``counted``: while the
        centre seems gathered, the frame as the count reads it, when that differs from play's reading (a replay
        reads the table thoroughly once a second for the count, and once more between for play, see
        :data:`referee.session.DOUBT_COUNT_EVERY_S`)."""
        said: list[Event] = []
        if self._doubted is not None and frame is not None and frame.t - self._doubted.since >= GATHER_DOUBT_S:
            said = self._gathering_stands()
        elif self._doubted is not None:  # the gathered table counts meanwhile
            self._doubted.said += self._doubted.gathered.update(counted if counted is not None else frame)
        if frame is not None:
            frame = self._zoned(frame)
            self._t, self._frame = frame.t, frame.frame
        if self.phase in (Phase.COUNTING, Phase.SCORED):
            return said + self._emit(self._count(frame) if frame is not None else [])
        events: list[Event] = []
        played = False
        for change in self.tracker.update(frame):
            ruled = self.judge.rule(change)
            played = played or (self._doubted is not None and _plain_play(ruled, self._doubted.since))
            events.extend(ruled)
            self.tracker.settle(change.pile, *self.judge.holding(change.pile))
        if played:
            said = self._play_goes_on()
        events = self._lift_vetted(events) + self._races_lost()
        backs = self._centre_backs(frame) if frame is not None else 0
        if self._doubted is None and frame is not None and self._gathered(frame, backs):
            self._doubted = self._doubt_gathering(events)
        return said + self._emit(self._hold_while_winding(events, backs, self._backs_lately(backs)))

    def _doubt_gathering(self, events: list[Event]) -> _Doubted:
        """The centre seen gathered, with ``events`` this frame caused: the referee as it is so gathered, and its
        events, set aside for :data:`GATHER_DOUBT_S` while play goes on (a copy: the settings, which hold the
        readers of the picture, are shared)."""
        shared: dict[int, object] = {id(self.settings): self.settings}
        shared.update((id(value), value) for value in (getattr(self.settings, f.name) for f in fields(self.settings)))
        gathered = copy.deepcopy(self, shared)
        # the stacks being turned over, not cards played: the plays held come off the board again
        gathered.judge.take_off(e for e, _ in gathered._held if isinstance(e, CardPlayed))
        gathered._held.clear()
        return _Doubted(self._t, gathered, gathered._emit([*events, *gathered._gather()]))

    def _gathering_stands(self) -> list[Event]:
        """No card seen played in :data:`GATHER_DOUBT_S`: the referee becomes the one that gathered the centre and
        has counted the spreads since; returns the events that caused (play's since are dropped: the stacks' cards
        turned over)."""
        assert self._doubted is not None
        doubted = self._doubted
        self.__dict__.update(vars(doubted.gathered))
        return doubted.said

    def _play_goes_on(self) -> list[Event]:
        """A card seen played while the centre seemed gathered: it was not; returns the events play caused
        meanwhile, and the gathering's evidence starts anew."""
        assert self._doubted is not None
        held, self._doubted = self._doubted.held, None
        self._spread_since, self._winding = None, deque()
        return held

    def _backs_lately(self, backs: int) -> int:
        """The most backs seen in the centre in a frame of the last :data:`WIND_UP_S`, this one's ``backs`` too."""
        seen = self._centre_backs_seen
        seen.append((self._t, backs))
        while seen[0][0] < self._t - WIND_UP_S:
            seen.popleft()
        return max(b for _, b in seen)

    @property
    def watches_seats(self) -> bool:
        """Whether glances at the players' seats (:meth:`see_seats`) would be used: the seats' owners are known
        and play is on."""
        return self.seat_watch is not None and self.phase in (Phase.PLAY, Phase.STOPPED)

    def see_seats(self, frame: FrameSightings) -> None:
        """A glance at the whole table in play: the faces in front of each seat (see :mod:`referee.tracker.owners`)."""
        if self.seat_watch is not None and self.watches_seats:
            self.seat_watch.add(self._zoned(frame))

    def see_arms(self, card: Card, t: float, at: Point, towards: Sequence[Point]) -> None:
        """The arm that put ``card`` down at ``t`` (its landing event's time) at ``at``: points back along it, one
        per frame round the landing, on the table plane (see :meth:`SeatWatch.see_arms`)."""
        if self.seat_watch is not None:
            self.seat_watch.see_arms(card, t, at, towards)

    def see_rivals(self, landing: CardPlayed, frames: Sequence[Sequence[ArmEnd]]) -> list[Event]:
        """The arms seen reaching the card ``landing`` put down, in each frame round it (table plane, longest
        first: see :func:`referee.tracker.rivals.rival_hands`); returns the conflict they show, if any: an arm from
        each of two seats at once, where no other card landed beside it at that moment (:data:`EXPLAINED_S`,
        :data:`EXPLAINED_MM`), not the loser of a conflict just said there taking their card back as the next
        lands (:data:`ECHO_S`), and not a conflict said already; with the conflicts told by a lift that waited for
        these arms and stand (see :meth:`_lift_vetted`)."""
        watch = self.seat_watch
        if watch is None or landing.placement is None or landing.card is None:
            return []
        at = (landing.placement.x, landing.placement.y)
        seats = arm_seats(at, frames, watch.seats, watch.turn())
        self._lone_seat[(landing.stack, landing.t)] = len(seats) < 2 and watch.seats.no_seat_missing()
        released = self._release_lifted(self._t)
        if self.centre.stopped or sum(1 for arms in frames if len(arms) >= 2) < RIVAL_FRAMES:
            return self._emit(released)
        if (
            self._explained(landing, at, [*released, *self._lifted])
            or (pair := rival_hands(at, frames, watch.seats, watch.turn())) is None
        ):
            return self._emit(released)
        owners = dict(zip(watch.hands, watch.hand_owners(), strict=True))
        backs = tuple(owners.get(hand) for hand in pair)
        conflict = Conflict(
            t=landing.t,
            frame=landing.frame,
            stack=landing.stack,
            card=landing.card,
            cards=(landing.card, landing.card),
            backs=tuple(b for b in backs if b is not None) if all(backs) else (),
        )
        return self._emit([*released, conflict])

    def _races_lost(self) -> list[Event]:
        """The conflicts told by a copy taken back to its seat (:meth:`SeatWatch.raced_and_lost`), for the cards
        played :data:`~referee.tracker.owners.RETURN_S` ago that still lie on their stacks, while play is on: the
        arms of two seats seldom show at once in the frames round a landing (42 rendered rounds of two, four and
        eight players: the arms and the lift told 23 of 77 conflicts), but the loser's copy goes back where it
        lay. Dated at the landing."""
        watch = self.seat_watch
        if watch is None or self.phase is not Phase.PLAY:
            self._racing.clear()
            return []
        due = [landing for landing in self._racing if landing.t + RETURN_S <= self._t]
        if not due:
            return []
        self._racing = [landing for landing in self._racing if landing.t + RETURN_S > self._t]
        down = {(stack.id, c.card) for stack in self.centre.stacks for c in stack.cards}
        out: list[Event] = []
        for landing in due:
            if landing.card is None or (landing.stack, landing.card) not in down:
                continue
            if watch.raced_and_lost(landing.card, landing.t, None) is None:
                continue  # the common case, told without naming the card's player (which costs a look at every face)
            named = watch.owners([(landing.card, landing.t)])[0]
            loser = watch.raced_and_lost(landing.card, landing.t, named)
            if loser is not None:
                out.append(
                    Conflict(
                        t=landing.t,
                        frame=landing.frame,
                        stack=landing.stack,
                        card=landing.card,
                        cards=(landing.card, landing.card),
                        backs=(named, loser) if named is not None else (),
                    )
                )
        return out

    def _lift_vetted(self, events: list[Event]) -> list[Event]:
        """``events`` with each conflict the judge told by a lift held until the arms round its landing have been
        judged (:meth:`see_rivals`), and dropped unless they came from two seats at a table whose every seat is in
        the picture (see :func:`~referee.tracker.rivals.arm_seats`); with the ones held before that are due."""
        kept: list[Event] = []
        for event in events:
            if isinstance(event, Conflict) and self.seat_watch is not None:
                self._lifted.append(event)
            else:
                kept.append(event)
        return self._release_lifted(self._t) + kept

    def _release_lifted(self, now: float | None) -> list[Event]:
        """The conflicts told by a lift whose landing's arms have been judged since, unless they came from one seat
        or none; those no arms were judged for by :data:`~referee.tracker.rivals.RIVAL_TOLD_S` and a second after (a
        source without the frames' arms), or at all when ``now`` is None (the source has ended), as they were
        told."""
        out: list[Event] = []
        waiting: list[Conflict] = []
        for conflict in self._lifted:
            lone = next(
                (
                    one
                    for (stack, t), one in self._lone_seat.items()
                    if stack == conflict.stack and abs(t - conflict.t) <= 0.05
                ),
                None,
            )
            if lone is not None:
                if not lone:
                    out.append(conflict)
            elif now is None or now > conflict.t + RIVAL_TOLD_S + 1.0:
                out.append(conflict)
            else:
                waiting.append(conflict)
        self._lifted = waiting
        return out

    def _explained(self, landing: CardPlayed, at: Point, pending: Sequence[Event] = ()) -> bool:
        """Whether another card landed beside ``landing`` at that moment (an arm on its way to it), or a conflict
        said on its stack lately explains a second arm there; ``pending``: the conflicts told by a lift, said with
        these arms or still waiting for them (a four-player round, seed 101045: two cards seen landing together,
        a conflict, was said twice, once by the cards and once by the arms)."""
        for event in [*self.events[-RECENT_EVENTS:], *pending]:
            if event is landing or event.t < landing.t - ECHO_S:
                continue
            if isinstance(event, Conflict) and event.stack == landing.stack:
                return True
            placement = getattr(event, "placement", None)
            if (
                isinstance(event, StackStarted | CardPlayed | IllegalPlay)
                and placement is not None
                and abs(event.t - landing.t) <= EXPLAINED_S
                and math.dist((placement.x, placement.y), at) <= EXPLAINED_MM
            ):
                return True
        return False

    def _hold_while_winding(self, events: list[Event], backs: int, lately: int) -> list[Event]:
        """``events`` less the illegal plays ruled and the cards said played while backs lie in the centre (``lately``
        in a frame of the last :data:`WIND_UP_S`; see :data:`HOLD_S`), with those held before, released once the
        centre shows no back (``backs`` in this frame) or they were held ``HOLD_S``."""
        if lately >= WIND_UP_BACKS:
            self._held += [(e, self._t) for e in events if isinstance(e, IllegalPlay | CardPlayed)]
            events = [e for e in events if not isinstance(e, IllegalPlay | CardPlayed)]
        if backs == 0:
            released, self._held = [e for e, _ in self._held], []
        else:
            released = [e for e, since in self._held if self._t - since >= HOLD_S]
            self._held = [(e, since) for e, since in self._held if self._t - since < HOLD_S]
        return released + events

    def run(self, frames: Iterable[FrameSightings | None]) -> list[Event]:
        """Every frame of a source, then :meth:`finish`; returns all events."""
        for frame in frames:
            self.update(frame)
        self.finish()
        return list(self.events)

    def stop(self, t: float | None = None, frame: int | None = None, *, reason: str = "signal") -> list[Event]:
        """The round stops now (a key, an API call, ``--stop-at``): later cards are ``after_stop``."""
        if self.centre.stopped:
            return []
        self.phase = Phase.STOPPED if self.phase is Phase.PLAY else self.phase
        when = self._t if t is None else t
        return self._emit([self.judge.stop(reason, t=when, frame=self._frame if frame is None else frame)])

    def finish(self) -> list[Event]:
        """The source has ended: scores what the spreads showed, if the round got that far (and says the illegal
        plays held while the table seemed to wind up, if it did not). A gathering in doubt stands: no card was seen
        played after it."""
        said = self._gathering_stands() if self._doubted is not None else []
        if self.phase is Phase.COUNTING and self.counter.frames:
            return said + self._emit(self._score())
        held, self._held = [e for e, _ in self._held], []
        return said + self._emit(self._release_lifted(None) + held)

    # ---- round end

    def _zoned(self, frame: FrameSightings) -> FrameSightings:
        """The frame in the centre zone of the settings (when it has none), its backs under the seats' names
        (:attr:`SeatSorter.aliases`: a back the recogniser reads under a look-alike's name all round)."""
        sorter = self.counter.sorter
        aliases = sorter.aliases if isinstance(sorter, SeatSorter) else {}
        players = self._closed_table()
        sightings = frame.sightings
        if aliases or players:
            named = tuple(_under_seat_names(s, aliases, players) for s in sightings)
            if any(a is not b for a, b in zip(named, sightings, strict=True)):
                sightings = named
        zone = frame.zone if frame.zone is not None else self.settings.zone
        if zone is not frame.zone or sightings is not frame.sightings:
            return FrameSightings(frame.t, frame.frame, sightings, zone)
        return frame

    def _closed_table(self) -> frozenset[str]:
        """The players' backs when the opening showed every seat with its owner (see
        :meth:`SeatSorter.every_seat_named`), else none: at such a table a back no player owns is a misread, and
        its runner-up, when that is a player's, is the likelier reading (a red-pink card read "green-fuchsia"
        under a tinted light, red-pink the runner-up)."""
        sorter = self.counter.sorter
        if not isinstance(sorter, SeatSorter):
            return frozenset()
        if self._closed_for is not sorter:
            self._closed_for = sorter
            self._closed = frozenset(sorter.owners) if sorter.every_seat_named() else frozenset()
        return self._closed

    def _centre_backs(self, frame: FrameSightings) -> int:
        """The backs in the centre in ``frame`` that tell the centre is being spread (see :func:`_telling_back`)."""
        sort = self.counter.sorter
        return sum(1 for s in frame.backs if _telling_back(s) and (sort(s, frame) or ("", None))[0] == "centre")

    def _gathered(self, frame: FrameSightings, backs: int) -> bool:
        """Play is over and the centre gathered: every stack out of view, face-down cards in the centre."""
        if not self.centre.stacks:
            return False
        open_piles = [p for p in self.tracker.stacks if self.judge.stack_of(p.id) is not None]
        if backs > self._out_of_view(open_piles) + WIND_UP_BACKS:
            backs = 0  # not the stacks turned over: those in view still hold their cards (see _out_of_view)
        # the centre spread laid out: face-down cards where the stacks were, a good share of the centre's cards,
        # for a while, though a misread face keeps a stack in view (cards are face up in play: a few backs in
        # the centre are misreads or a card turning, never a fifth of the stacks for seconds on end)
        heights = sum(stack.height for stack in self.centre.stacks)
        if backs >= max(SPREAD_BACKS, SPREAD_SHARE * heights):
            self._spread_since = self._t if self._spread_since is None else self._spread_since
            if self._t - self._spread_since >= self.settings.gather_s:
                return True
        else:
            self._spread_since = None
        if not open_piles:
            return True  # every stack timed out of view
        if self._winding_up(backs, open_piles):
            return True
        if any(self.tracker.unseen_for(p.id) < self.settings.gather_s for p in open_piles):
            return False
        return backs >= self.settings.gather_min_backs

    def _out_of_view(self, open_piles: Sequence[Pile]) -> int:
        """The cards of the centre's stacks not seen in this frame: all but those of the piles in view now.

        Backs in the centre tell the stacks are being turned over and spread only as far as these hold them, give or
        take :data:`WIND_UP_BACKS` misreads: a stack in view still holds its cards. Held-out look, seed 116002, eight
        players: a lit patch of a blue check cloth boxed as 5-19 backs read as blue-green, a known design, for 1.6 s
        while five of six stacks lay in view (1 card out of view); the round was taken for gathered at 4.9 s, its stop
        at 24.6 s, and 61 of 73 plays were lost. Where the centre was truly gathered (seeds 115001 and 115004, four and
        eight players) the stacks out of view held 35-65 cards as the 6-11 backs that ended play came."""
        seen = {self.judge.stack_of(p.id) for p in open_piles if self.tracker.unseen_for(p.id) == 0}
        return sum(stack.height for stack in self.centre.stacks if stack.id not in seen)

    def _winding_up(self, backs: int, open_piles: Sequence[Pile]) -> bool:
        """Whether the stacks are being turned over and fanned (see :data:`WIND_UP_BACKS`)."""
        lifted = backs >= WIND_UP_BACKS and any(self.tracker.unseen_for(p.id) >= WIND_UP_UNSEEN_S for p in open_piles)
        self._winding.append((self._t, backs >= SPREAD_BACKS or lifted))
        while len(self._winding) > 1 and self._t - self._winding[1][0] >= WIND_UP_S:
            self._winding.popleft()  # the oldest kept is the last frame at least WIND_UP_S old
        span = self._t - self._winding[0][0]
        share = sum(1 for _, yes in self._winding if yes) / len(self._winding)
        return span >= WIND_UP_S and share >= WIND_UP_SHARE

    def _gather(self) -> list[Event]:
        events: list[Event] = []
        last_seen = (self._t, self._frame)
        for pile in self.tracker.stacks:
            vanished = self.tracker.remove(pile.id)
            last_seen = min(last_seen, (vanished.t, vanished.frame))
            events.extend(self.judge.rule(vanished))
        if not self.centre.stopped:
            t, frame = max((e.t, e.frame) for e in events) if events else last_seen
            events.append(self.judge.stop("gathered", t=t, frame=frame))
        self.phase = Phase.COUNTING
        self._count_since = self._t
        if self.seat_watch is not None and isinstance(self.counter.sorter, SeatSorter):
            # the hands whose owner only play read own their seats' spreads and leftovers too, and each seat runs
            # from its hand the way play showed; a row of faces with no hand seen before it gets one, unread
            watch = self.seat_watch
            named, aliases = watch.learnt_owners(), watch.learnt_aliases()
            sorter = self.counter.sorter.with_hands_named(named, watch.turn(), aliases).with_missing_hands()
            watch.reseat(sorter)
            self.counter.sorter = sorter
        return events

    def _count(self, frame: FrameSightings) -> list[Event]:
        if self.phase is Phase.SCORED:
            return []
        self.counter.add(frame)
        if frame.t - self._checked_t < COUNT_CHECK_S:
            return []
        self._checked_t = frame.t
        count = self.counter.count(self._centre_total())
        if count != self._last_count:
            self._last_count, self._count_since = count, frame.t
            return []
        if frame.t - self._count_since >= self.settings.settle_s and count.centre_total > 0:
            return self._score()
        return []

    def _score(self) -> list[Event]:
        total = self._centre_total()
        self._rename_misread_hands()
        count = self.counter.count(total)
        if self._name_unread_hands(count):
            count = self.counter.count(total)
        named = self._named(count)
        set_aside = []
        contradicted = contradiction(count.centre, named, total) if count.centre_measured else 0
        bar = MEASURED_CONTRADICTED if sum(named.values()) < total else EVERY_CARD_NAMED_CONTRADICTED
        if contradicted >= bar and self._every_seat_named() and not self._moved_name_doubted(count.centre, named):
            set_aside.append(
                CountWarning(
                    f"the fans' lengths ({_per_back(count.centre)}) contradicted the plays seen from the seats "
                    f"({_per_back(named)}) by {contradicted} cards: the cards were counted one by one instead",
                    backs=tuple(sorted({*count.centre, *named})),
                )
            )
            count = self.counter.count(total, measure=False)
            named = self._named(count)
        scored = score_count(
            count,
            self.centre.stacks,
            backs=self.backs,
            round=self.round,
            t=self._t,
            frame=self._frame,
            inferred=self.judge.inferred,
            named=named,
            open_cards=self.open_cards if self.seat_watch is not None else None,
        )
        self.warnings = (*set_aside, *scored.warnings, *self._unseen_leftovers(scored.event))
        self.phase = Phase.SCORED
        return [scored.event]

    def _moved_name_doubted(self, measured: Mapping[str, int], named: Mapping[str, int]) -> bool:
        """Whether the fans' ``measured`` counts move one card from the plays ``named`` for every centre card (one
        player named one card more, another one fewer) and a witness of play doubts the name of a card named to the
        one (see :data:`EVERY_CARD_NAMED_CONTRADICTED`). Call after :meth:`_named` (its :attr:`card_owners`)."""
        over = [back for back, n in named.items() if n > measured.get(back, 0)]
        short = [back for back, n in measured.items() if n > named.get(back, 0)]
        moved = sum(named.values()) == sum(measured.values()) and len(over) == len(short) == 1
        if self.seat_watch is None or not moved or named[over[0]] - measured.get(over[0], 0) != 1:
            return False
        return any(
            self.seat_watch.doubted(card, t, over[0], short[0])
            for (stack, card), t in self._landings().items()
            if self.card_owners.get((stack, str(card))) == over[0]
        )

    def _landings(self) -> dict[tuple[int, Card], float]:
        """When each card said played landed, by stack and card."""
        return {
            (e.stack, e.card): e.t
            for e in self.events
            if isinstance(e, (StackStarted, CardPlayed)) and e.card and e.stack is not None
        }

    def _every_seat_named(self) -> bool:
        sorter = self.counter.sorter
        return isinstance(sorter, SeatSorter) and sorter.every_seat_named()

    def _name_unread_hands(self, count: SpreadCount) -> bool:
        """Names the hands still unread at the count (a hand stack never read, or never found: see
        :meth:`SeatSorter.with_missing_hands`) by the backs laid out after the round: that player's cards were laid
        out, and their seat's plays seen, with nobody's name on them. A hand is the back no hand owns that the
        spreads laid out before its seat (its fan handed back, its leftovers) read on at least
        :data:`STRANGER_CARDS` cards and :data:`UNREAD_SHARE` of such cards there, a back no other hand is named
        by; each such spread is one player's, its cards all read as their votes summed say (seed 101080, eight
        players: a line of blue-purple leftovers, its top card read surely, four strips as green-purple, named a
        green-purple player no one was; 17 eight-player rounds scored again offline: centres exact 49 -> 51); and
        the one hand left unread, the one back counted that no hand owns, or where the spreads read none,
        at a table whose every seat the picture shows, the one set left of the boxes the others play
        (:func:`referee.tracker.seats.free_set`: seed 101060, four players of the red box, the red-pink hand read
        at 0.1-0.15 as three designs, its strips as red-red). Seeds 100601 and 100606, four players: the
        red-black hand never found, its 18 and 7 centre cards named to nobody. True when it named one."""
        sorter = self.counter.sorter
        if self.seat_watch is None or not isinstance(sorter, SeatSorter):
            return False
        owned = {hand.owner for hand in sorter.hands() if hand.owner}
        stranger = self._no_hands_back(sorter)
        before = {
            hand: Counter({back: n for back, n in backs.items() if stranger(back)})
            for hand, backs in self._laid_out_before(sorter).items()
            if hand.owner is None
        }
        named: dict[Hand, str] = {}
        for hand, backs in before.items():
            if backs:
                back, n = backs.most_common(1)[0]
                if n >= STRANGER_CARDS and n >= UNREAD_SHARE * sum(backs.values()):
                    named[hand] = back
        named = {hand: back for hand, back in named.items() if list(named.values()).count(back) == 1}
        unread = [hand for hand in sorter.hands() if hand.owner is None and hand not in named]
        counted = Counter(count.centre) + Counter(count.leftover)
        left = [b for b, n in counted.items() if stranger(b) and n >= STRANGER_CARDS and b not in named.values()]
        if len(unread) == 1 and len(left) == 1:
            named[unread[0]] = left[0]
        elif len(unread) == 1 and not left and sorter.no_seat_missing():
            free = free_set({*owned, *named.values()})
            if free is not None and stranger(free):
                named[unread[0]] = free
        if not named:
            return False
        sorter = sorter.with_hands_named({(hand.radius, hand.angle): back for hand, back in named.items()})
        self.seat_watch.reseat(sorter)
        self.counter.sorter = sorter
        return True

    def _rename_misread_hands(self) -> None:
        """Renames the hands whose owner the opening read and play never did (their readings in play under
        :data:`referee.tracker.owners.HAND_EVIDENCE`), where the spreads laid out before their seat read as one back
        no hand owns on at least :data:`RENAMED_CARDS` cards and :data:`UNREAD_SHARE` of the cards there: a hand
        stack read at the picture's edge, once or twice, is less sure than a fan of its cards read over seconds.
        Eight players, seeds 115000 and 115006: the blue-purple hand read "green-purple" (and renamed "red-pink" as
        a lone back of another box, see :func:`referee.tracker.seats.box_mates`), its fan of 15 (and 8) cards
        handed back read blue-purple; the fan was counted to nobody who played."""
        sorter = self.counter.sorter
        watch = self.seat_watch
        if watch is None or not isinstance(sorter, SeatSorter):
            return
        stranger = self._no_hands_back(sorter)
        renamed: dict[str, str] = {}
        for hand, backs in self._laid_out_before(sorter).items():
            if hand.owner is None or not backs or watch.read_in_play(hand).get(hand.owner, 0.0) >= HAND_EVIDENCE:
                continue
            back, n = backs.most_common(1)[0]
            if stranger(back) and n >= RENAMED_CARDS and n >= UNREAD_SHARE * sum(backs.values()):
                renamed[hand.owner] = back
        renamed = {owner: back for owner, back in renamed.items() if list(renamed.values()).count(back) == 1}
        if renamed:
            sorter = sorter.with_owners_renamed(renamed)
            watch.reseat(sorter)
            self.counter.sorter = sorter

    def _no_hands_back(self, sorter: SeatSorter) -> Callable[[str], bool]:
        """Whether a back is a known design no hand of ``sorter`` owns (and a player's, when the backs are given)."""
        owned = {hand.owner for hand in sorter.hands() if hand.owner}
        players = set(self.backs) if self.backs else None
        return lambda back: back not in owned and back != UNKNOWN_BACK and (players is None or back in players)

    def _laid_out_before(self, sorter: SeatSorter) -> dict[Hand, Counter[str]]:
        """The cards of the spreads laid out before each seat after the round (its fan handed back, its leftovers;
        not the centre's, fanned where the stacks lay: see :data:`UNREAD_NEAR`), by the back each spread's votes
        give: a spread laid out before one seat is one player's."""
        before: dict[Hand, Counter[str]] = {}
        for spread in self.counter.laid_out():
            hand = sorter.hand_before(spread.middle)
            if hand is not None and math.dist(spread.middle, sorter.middle) >= UNREAD_NEAR * hand.radius:
                before.setdefault(hand, Counter())[spread.vote] += sum(spread.backs.values())
        return before

    def _named(self, count: SpreadCount) -> Counter[str]:
        """The centre cards per owner, for those whose owner was seen in play (:mod:`referee.tracker.owners`), or
        told by the strips of the fan their stack was spread into (:mod:`referee.tracker.strip_owners`) or by its
        backs (:mod:`referee.tracker.fan_owners`), or by the rules."""
        if self.seat_watch is None:
            return Counter()
        landed = self._landings()
        where = [
            (stack.id, card.card)
            for stack in self.centre.stacks
            for card in stack.cards
            if (stack.id, card.card) in landed
        ]
        stopped = next((e.t for e in self.events if isinstance(e, RoundStopped)), None)
        plays = [(card, landed[(stack, card)]) for stack, card in where]
        names = self.seat_watch.owners(plays, stopped, unread_seats=True)
        seen = dict(zip(where, names, strict=True))
        stacks = self.centre.stacks
        players = self._players()
        rows = [[seen.get((stack.id, c.card)) for c in stack.cards] for stack in stacks]
        if self.settings.strip_reader is not None:
            told_twice = dict(zip(where, self.seat_watch.confirmed(plays, names), strict=True))
            sure = [[told_twice.get((stack.id, c.card), False) for c in stack.cards] for stack in stacks]
            rows = owners_by_strips(stacks, rows, count.fans, count.centre_quads, self.settings.strip_reader, sure)
        seats = name_seats(stacks, rows, count.fans, self._unowned(count))
        rows = renamed(rows, seats)
        rows = owners_by_fans(stacks, rows, count.fans, players)
        self.card_owners = {
            (stack.id, str(c.card)): owner
            for stack, row in zip(stacks, rows, strict=True)
            for c, owner in zip(stack.cards, row, strict=True)
            if owner
        }
        owners = [self.card_owners.get((stack, str(card))) for stack, card in where]
        named = Counter(self.card_owners.values())
        cards = [card for _, card in where]
        settled = settled_by_elimination(cards, owners, players) if players else set()
        if players:
            named.update(owed_by_elimination(cards, owners, players))
        unnamed = [play for play, owner in zip(plays, owners, strict=True) if owner is None and play[0] not in settled]
        everyone = [p for p in dict.fromkeys([*players, *named, *count.centre]) if p != UNKNOWN_BACK]
        self.open_cards = self.seat_watch.open_owners(unnamed, stopped, everyone)
        return named

    def _unowned(self, count: SpreadCount) -> tuple[str, ...]:
        """The players no seat's read owner is: of the backs given, else of the backs counted and the other sets
        of the boxes the owned ones come from (a table plays whole boxes; the seats read may not be all)."""
        assert self.seat_watch is not None
        owned = set(filter(None, self.seat_watch.hand_owners()))
        known = self.backs or (*count.centre, *count.leftover, *free_sets(owned))
        return tuple(b for b in dict.fromkeys(known) if b not in owned)

    def _players(self) -> tuple[str, ...]:
        """Every player's back, when known: given, or read on every hand stack at the opening (empty: a hand
        unread, so the players are not all known)."""
        if self.backs:
            return self.backs
        sorter = self.counter.sorter
        hands = sorter.hands() if isinstance(sorter, SeatSorter) else []
        if not hands or any(hand.owner is None for hand in hands):
            return ()
        return tuple(dict.fromkeys(hand.owner for hand in hands if hand.owner))

    def _unseen_leftovers(self, scored: RoundScored) -> list[CountWarning]:
        """A warning per player whose leftovers would lie outside the picture: counted as seen (often 0), which
        the score takes at -2 a card (seed 99300, four players: the two seats the picture cuts off counted 0 of
        8 and 0 of 5). A player no seat in the picture showed at all (an eight-player table's seats at the
        picture's top and bottom, seed 115006: leftovers of 4 and 2 counted 0 without a word) is warned of too,
        where every seat the picture shows is named (else that player may sit at a seat whose owner went unread)."""
        sorter = self.counter.sorter
        if not isinstance(sorter, SeatSorter):
            return []
        unseen = sorter.leftovers_unseen()
        hands = sorter.hands()
        # a player no seat is named for sits out of the picture only when every seat it shows is named
        seated = set(sorter.owners) if hands and all(hand.owner for hand in hands) else set(scored.scores)
        return [
            *(
                CountWarning(
                    f"{back}'s leftover cards would lie outside the picture: {scored.leftover.get(back, 0)} "
                    "counted, there may be more (each costs 2 points)",
                    backs=(back,),
                )
                for back in unseen
            ),
            *(
                CountWarning(
                    f"{back}'s seat lies outside the picture: its leftover cards were not seen "
                    f"({scored.leftover.get(back, 0)} counted, each one missed costs 2 points)",
                    backs=(back,),
                )
                for back in scored.scores
                if back not in seated and back not in unseen
            ),
        ]

    def _centre_total(self) -> int:
        """The centre's cards as the stacks seen tell: a stack's height is its top number."""
        return sum(stack.height for stack in self.centre.stacks)

    def _emit(self, events: list[Event]) -> list[Event]:
        # a conflict the arms told at its landing is not told again when the loser's card is seen lifted
        events = [e for e in events if not (isinstance(e, Conflict) and self._said_conflict(e))]
        out: list[Event] = []
        for event in events:
            ruled = self._ruled_illegal(event, out) if isinstance(event, StackStarted | CardPlayed) else None
            if ruled is not None:
                out.append(withdrawn(ruled))
            out.append(event)
        self.events.extend(out)
        if self.seat_watch is not None:
            self._racing += [e for e in out if isinstance(e, CardPlayed) and e.card is not None]
        if self._doubted is not None:
            self._doubted.held += out
            return []
        return out

    def _ruled_illegal(self, play: StackStarted | CardPlayed, saying: Sequence[Event] = ()) -> IllegalPlay | None:
        """The illegal play said of ``play``'s card as it landed, which this play now explains (see
        :data:`WITHDRAWN_S`), unless that card was taken back or its ruling withdrawn since (``saying``: the events
        said with ``play`` before it, as the judge withdraws a ruling it built on)."""
        recent = [*self.events[-RECENT_EVENTS:], *saying]
        for i in range(len(recent) - 1, -1, -1):
            ruled = recent[i]
            if not isinstance(ruled, IllegalPlay) or ruled.card != play.card or abs(ruled.t - play.t) > WITHDRAWN_S:
                continue
            if _apart_mm(play.placement, ruled.placement) > WITHDRAWN_MM:
                continue
            settled = any(
                isinstance(later, CardTakenBack | RulingWithdrawn) and later.card == ruled.card and later.t >= ruled.t
                for later in recent[i + 1 :]
            )
            return None if settled else ruled
        return None

    def _said_conflict(self, conflict: Conflict) -> bool:
        return any(
            isinstance(e, Conflict)
            and e.stack == conflict.stack
            and e.card == conflict.card
            and abs(e.t - conflict.t) <= SAME_CONFLICT_S
            for e in self.events[-RECENT_EVENTS:]
        )

    @property
    def scored(self) -> RoundScored | None:
        return next((e for e in reversed(self.events) if isinstance(e, RoundScored)), None)


@dataclass
class _Doubted:
    """The centre seen gathered at ``since``, not yet said (see :data:`GATHER_DOUBT_S`): the referee as it is with
    the centre so gathered, counting the spreads since, and the events that caused (``said``); and the events play
    has caused since (``held``)."""

    since: float
    gathered: Referee
    said: list[Event]
    held: list[Event] = field(default_factory=list)


def _plain_play(ruled: Sequence[Event], since: float) -> bool:
    """Whether the events one change caused are a card seen played on a stack in its place (the cards it leads up
    from inferred unseen under it or not), landed at ``since`` or after: play going on. Not a 1 said to start a
    stack (a lifted stack's bottom card shows where the stack lay) nor an illegal play (a turned-over card read on
    a stack). A stack played on while the centre only seems gathered is read seldom (thoroughly, once a second in a
    replay) or under the hands that play on it, so it shows several cards higher at once as often as one (held-out
    look, seed 116002, eight players: a y4 read on its y2, a b7 on its b5, while a blue check cloth boxed as backs
    was taken for the centre turned over); a stack turned over shows its back, or the table, not a higher card.

    >>> play = CardPlayed(t=5.0, frame=150, stack=1, card=Card.parse("g8"), placement=Placement(0.0, 0.0, 0.0))
    >>> _plain_play([play], since=4.0), _plain_play([play], since=6.0)
    (True, False)
    >>> _plain_play([replace(play, card=Card.parse("g7"), placement=None), play], since=4.0)  # a g7 unseen under it
    True
    >>> _plain_play([IllegalPlay(t=5.0, frame=150, stack=1, card=Card.parse("r8"), reason="wrong_colour")], 4.0)
    False
    """
    landings = [e for e in ruled if isinstance(e, StackStarted | CardPlayed | IllegalPlay)]
    seen = landings[-1] if landings else None
    return (
        isinstance(seen, CardPlayed)
        and all(isinstance(e, CardPlayed) and e.stack == seen.stack for e in landings)
        and seen.placement is not None
        and seen.t >= since
    )


def withdrawn(ruled: IllegalPlay) -> RulingWithdrawn:
    """The event taking back the illegal play ``ruled``."""
    return RulingWithdrawn(t=ruled.t, frame=ruled.frame, stack=ruled.stack, card=ruled.card, ruled=ruled.reason)


def _apart_mm(a: Placement | None, b: Placement | None) -> float:
    """How far apart two placements lie on the table plane; 0 where either is unknown."""
    return 0.0 if a is None or b is None else math.hypot(a.x - b.x, a.y - b.y)


def _per_back(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{back} {n}" for back, n in sorted(counts.items()))


def contradiction(measured: Mapping[str, int], named: Mapping[str, int], total: int) -> int:
    """The cards by which the fans' ``measured`` counts contradict the plays ``named`` to each back (of the stacks'
    ``total``): a back measured with fewer cards than it was seen to play, or with more than it played and every
    card play left unnamed.

    >>> contradiction({"red-red": 10, "red-pink": 18}, {"red-red": 12, "red-pink": 15}, 28)  # 1 unnamed
    4
    >>> contradiction({"red-red": 12, "red-pink": 16}, {"red-red": 12, "red-pink": 15}, 28)
    0
    """
    unnamed = max(0, total - sum(named.values()))
    short = sum(max(0, n - measured.get(back, 0)) for back, n in named.items())
    over = sum(max(0, m - named.get(back, 0) - unnamed) for back, m in measured.items())
    return short + over


def _under_seat_names(sighting: Sighting, aliases: dict[str, str], players: frozenset[str]) -> Sighting:
    """``sighting`` with its back under the name of the seat it stands for (``aliases``), or, at a table of
    known ``players`` where no player owns it, under its runner-up's when that is a player's."""
    back = aliases.get(sighting.back, sighting.back) if sighting.back else None
    if players and back and back not in players and sighting.back_runner_up in players:
        back = sighting.back_runner_up
    return sighting if back == sighting.back else replace(sighting, back=back)


def _telling_back(sighting: Sighting) -> bool:
    """Whether a back sighting tells the centre is being spread: a known design, or a box the detector is sure of
    (:data:`UNKNOWN_BACK_SURE`).

    >>> _telling_back(Sighting.back_at("red-red", (0.0, 0.0))), _telling_back(Sighting.back_at(None, (0.0, 0.0)))
    (True, True)
    >>> _telling_back(Sighting.back_at(None, (0.0, 0.0), confidence=0.5))
    False
    """
    return sighting.back is not None or sighting.confidence >= UNKNOWN_BACK_SURE

"""Temporal voting of a stack's top card: a new top is believed only once it has been seen for a while.

A recogniser misreads a card now and then, a hand flickers over it, glare hides a digit for a frame. A
:class:`Ballot` keeps the recent per-frame readings of one stack, each weighted by the sighting's confidence,
and names a :class:`Candidate` only when it was seen in enough frames, over enough time, and holds most of
the weight cast since it first showed (the old top's readings before a card came down do not outvote it: a
card lying only ~0.3 s before it is taken back must still win). The candidate keeps the time and frame of its
*first* reading in its current run, so an event reports when the card came down, not when the vote was won.

>>> ballot = Ballot(VotingSettings(min_frames=3, min_span_s=0.06))
>>> r5, r7 = Card.parse("r5"), Card.parse("r7")
>>> for frame, card in enumerate([r5, r7, r5, r5]):
...     ballot.cast(frame / 30, frame, card, weight=0.9)
>>> winner = ballot.winner()
>>> winner.card, winner.first_frame, winner.frames
(Card.parse('r5'), 0, 3)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.cards import Card
from referee.events import Placement
from referee.sightings import frame_before


@dataclass(frozen=True)
class VotingSettings:
    """How much evidence a new top needs.

    The defaults ask for at least 3 readings spanning 0.15 s within the last 0.5 s and 60% of the weight cast
    since the card first showed: enough to outvote a one-frame misread at 30 fps, to catch an illegal card taken
    back (or covered) after ~0.2 s on the table, and still rule within 0.5 s of the card coming down.
    """

    window_s: float = 0.5
    min_frames: int = 3
    min_span_s: float = 0.15
    min_share: float = 0.6
    max_gap_s: float = 0.5
    """A run of readings of one card survives a gap (dropout, a hand passing) this long."""
    glimpse_gap_s: float = 0.15
    """Sporadic first readings this long before the next one do not say when the card came down (misreads)."""
    strict_frames: int = 6
    strict_span_s: float = 0.3
    strict_share: float = 0.8
    """The bar for a card that would be illegal where it lies (or a second copy of a card the pile holds): a
    recogniser's misreads of one card are alike from frame to frame, so a wrong reading can persist for a few
    frames where a right one would, and mistakes are rare (a few in a hundred plays). An illegal card lies
    about 0.7 s before it is taken back, so 0.3 s of readings still rules within 0.5 s of it landing. Frames
    are readings: a reading reused for still frames counts once (see ``TrackerSettings.repeat_counts_every``).
    On the sightings of 12 rendered rounds (seeds 99000-99001, 99202, 99301-99305), 6 readings over 0.3 s holding
    80 % cut the illegal plays said from 28 to 25 (19 right either way, latency median 0.22 -> 0.24 s) against 4,
    0.25 s and 75 %, which the synthetic rough noise had preferred (simcheck, seed 95000)."""
    doubtful_frames: int = 8
    doubtful_span_s: float = 0.5
    """The bar for a ``doubtful`` card, read in the very box of the card below it (see :meth:`convincing`)."""
    unsure_identity: float = 0.75
    """A card the rules expect whose readings named it this surely or less on average (the recogniser's belief,
    the detector's aside) clears the strict bar, as a card that would be a mistake does: a top under the fingers
    of a hand resting on it reads as the card due now and then, unsurely (seed 125003, four players, held out: a
    b6 read "b7" at 0.62 for 0.3 s under a hand, said played; the b6 showed again as the hand left). A card
    played is read surely once it lies in view. Replayed with the change (and the same session's double-step rule
    of :mod:`referee.tracker.fan_length`): seeds 125000-125006, four players, plays 384 -> 385 of 393, illegal plays
    said falsely 3 -> 1, players exact 17 -> 19 of 28; seeds 128000-128006 (new), plays 392 of 392 either way,
    players exact 21 -> 25 of 28."""
    sure_weight: float = 0.6
    sure_share: float = 0.9
    """Readings this sure on average (detector x recogniser confidence), holding this share, clear the strict
    bar at the usual one: a misreading recogniser is unsure, and a sure one alerts at once (live, within 0.3 s)."""

    def lasted(self, span_s: float, limit_s: float, frame_s: float) -> bool:
        """``span_s`` reaches ``limit_s``, within half a frame: spans are whole frame intervals, and float noise
        in frame times must not flip a decision (0.2 s is exactly 6 intervals at 30 fps).

        >>> VotingSettings().lasted(0.19999, 0.2, 1 / 30), VotingSettings().lasted(0.17, 0.2, 1 / 30)
        (True, False)
        """
        return span_s >= limit_s - frame_s / 2

    def convincing(
        self, frames: int, span_s: float, share: float, frame_s: float, mean_weight: float = 0.0, doubtful: bool = False
    ) -> bool:
        """Whether a run of readings clears the strict bar (see ``strict_frames`` and ``sure_weight``); a
        ``doubtful`` run (read in the very box of the card below it: see :meth:`Ballot.winner`) needs more readings
        over more time (``doubtful_frames``, ``doubtful_span_s``), however sure.

        >>> v = VotingSettings()
        >>> v.convincing(9, 0.3, 0.9, 1 / 30), v.convincing(3, 0.3, 0.9, 1 / 30)
        (True, False)
        >>> v.convincing(5, 0.16, 1.0, 1 / 30, mean_weight=0.9), v.convincing(5, 0.16, 1.0, 1 / 30, mean_weight=0.4)
        (True, False)
        >>> v.convincing(8, 0.27, 0.9, 1 / 30, doubtful=True), v.convincing(9, 0.5, 0.9, 1 / 30, doubtful=True)
        (False, True)
        """
        if doubtful:
            enough = frames >= self.doubtful_frames and share >= self.strict_share
            return enough and self.lasted(span_s, self.doubtful_span_s, frame_s)
        sure = mean_weight >= self.sure_weight and share >= self.sure_share and frames >= self.min_frames
        if sure and self.lasted(span_s, self.min_span_s, frame_s):
            return True
        enough = frames >= self.strict_frames and share >= self.strict_share
        return enough and self.lasted(span_s, self.strict_span_s, frame_s)

    def exceeds(self, gap_s: float, limit_s: float, frame_s: float) -> bool:
        """``gap_s`` is longer than ``limit_s`` by more than half a frame (the same float-noise guard).

        >>> VotingSettings().exceeds(0.50001, 0.5, 1 / 30), VotingSettings().exceeds(0.55, 0.5, 1 / 30)
        (False, True)
        """
        return gap_s > limit_s + frame_s / 2


@dataclass
class Candidate:
    """One card's current run of readings on a stack."""

    card: Card
    first_t: float
    first_frame: int
    last_t: float
    frames: int = 0
    weight: float = 0.0
    read_weight: float = 0.0
    """Weight of the readings that read the card itself, not a card the rules took for it (a runner-up due)."""
    read_frames: int = 0
    identity: float = 0.0
    """How many readings read the card itself, and the recogniser's belief in it summed over them."""
    streak: float = 0.0
    """Weight of the readings since ``first_t``."""
    trail: deque[tuple[float, int, Placement | None]] = field(default_factory=lambda: deque(maxlen=24))
    """The latest readings' times, frames and places (two copies of one face differ by place only)."""
    placement: Placement | None = None
    """Where the card lies, by its latest reading (a first reading may be a misread of the card beside it)."""
    first_still: float | None = None
    """Since when the picture inside the card's outline had not changed at its first reading
    (``Sighting.still_since``), when the vision side tells: the card lay there by then."""
    vouched_t: float | None = None
    """When the readings that vouch for the card began, where that is before ``first_t``: a lone reading in the
    very place, then nothing read there until the run went on (see :meth:`Ballot.cast`)."""

    @property
    def span_s(self) -> float:
        return self.last_t - self.first_t

    @property
    def vouched_s(self) -> float:
        """How long the card's readings have lasted, counting a lone first reading that does not date it: the span
        the strict bar asks of a card that would be a mistake (see :meth:`VotingSettings.convincing`)."""
        return self.last_t - (self.first_t if self.vouched_t is None else self.vouched_t)

    @property
    def lay_since(self) -> tuple[float, int]:
        """The earliest time (and frame) the card is known to have lain where it was read: its first reading, or
        before it, when the picture there had lain unchanged since (a card misread for a while as the card
        below it, then read right in the same still picture, lay there all along)."""
        if self.first_still is None or self.first_still >= self.first_t:
            return self.first_t, self.first_frame
        return self.first_still, frame_before(self.first_t, self.first_frame, self.first_t - self.first_still)


@dataclass
class Ballot:
    """The recent top-card readings of one stack."""

    settings: VotingSettings = VotingSettings()
    frame_s: float = 1 / 30
    """The frame interval (the tracker keeps it up to date): spans are compared within half of it."""

    def __post_init__(self) -> None:
        self._votes: deque[tuple[float, Card | None, float]] = deque()
        self._runs: dict[Card, Candidate] = {}
        self._glimpses: dict[Card, Candidate] = {}
        self._now = 0.0

    def cast(
        self,
        t: float,
        frame: int,
        card: Card,
        weight: float,
        placement: Placement | None = None,
        read: bool = True,
        still_since: float | None = None,
        identity: float = 1.0,
    ) -> None:
        """Records that ``card`` was read as the top at time ``t`` with ``weight`` (a confidence); ``read``: False
        where the recogniser read another card and the rules took it for this one (it votes, but shows nothing);
        ``still_since``: since when the picture where it was read had not changed (see ``Candidate.first_still``);
        ``identity``: the recogniser's belief in the card (see ``VotingSettings.unsure_identity``)."""
        self._now = max(self._now, t)
        self._votes.append((t, card, weight))
        run = self._runs.get(card)
        s = self.settings
        if run is None or s.exceeds(t - run.last_t, s.max_gap_s, self.frame_s):
            if run is not None:  # its run ended a moment ago: a glimpse, as if the window had moved past it
                self._remember(run)
            run = self._runs[card] = Candidate(card, t, frame, t, placement=placement, first_still=still_since)
        elif s.exceeds(t - run.last_t, s.glimpse_gap_s, self.frame_s) and (
            self._sporadic(run, placement) or self._outread(run)
        ):
            # the readings so far were sporadic and unsure, or another card was read in between (misreads of the
            # card below): the card came down now
            run.vouched_t = run.first_t if self._lone_here(run, t, placement) else None
            run.first_t, run.first_frame, run.placement, run.streak = t, frame, placement, 0.0
            run.first_still = still_since
            run.trail.clear()
        run.last_t = t
        run.frames += 1
        run.streak += weight
        run.placement = placement if placement is not None else run.placement
        run.trail.append((t, frame, placement))
        run.weight += weight
        run.read_weight += weight if read else 0.0
        run.read_frames += 1 if read else 0
        run.identity += identity if read else 0.0
        self._forget_before(t - self.settings.window_s)

    def doubt(self, t: float, weight: float) -> None:
        """Records a reading of the stack's card that the recogniser could not name: a vote for no face. It
        weighs against any card that must clear the strict bar (a misread card is also often unreadable: the
        sample's b2 read as b10, as nothing, as b2), not among the faces the rules expect."""
        self._now = max(self._now, t)
        self._votes.append((t, None, weight))
        self._forget_before(t - self.settings.window_s)

    def _sporadic(self, run: Candidate, placement: Placement | None) -> bool:
        """A run too thin to say when its card came down: one reading, or unsure readings elsewhere than this
        one (misreads of the card below it). Unsure readings where the card lies are the card, read by a weak
        detector that also misses it now and then."""
        if len(run.trail) < 2:
            return True
        weak = run.streak < self.settings.min_frames * 0.4
        return weak and (placement is None or run.placement is None or _apart(run.placement, placement))

    def _lone_here(self, run: Candidate, t: float, placement: Placement | None) -> bool:
        """Whether ``run`` is one reading in the very place of this one (at ``t``), nothing read on the stack
        between: the card read as it came to rest, then missed by the detector for a few frames (seed 112005, eight
        players: an r5 slapped on a g4, read once at 0.47, missed for 0.3 s, then read 6 times at 0.41-0.57 until it
        was taken back). It does not date the card (a lone reading may be a misread, and the gates on how the
        picture came to rest go by the card's first reading), but it vouches for it."""
        if len(run.trail) != 1 or placement is None or run.placement is None or _apart(run.placement, placement):
            return False
        return not any(run.last_t < when < t for when, _, _ in self._votes)

    def _outread(self, run: Candidate) -> bool:
        """Whether another card was read in at least ``min_frames`` frames since ``run``'s last reading: the
        card below, still there. A recogniser that misreads an r4 as the r5 to come now and then starts a run of
        r5 that a gap would not end, and the r5 landing 0.7 s later would be dated by the first misread."""
        others = sum(1 for t, card, _ in self._votes if t > run.last_t and card is not None and card != run.card)
        return others >= self.settings.min_frames

    def tick(self, t: float) -> None:
        """Time passes without a reading (the stack is hidden or the frame was unreadable)."""
        self._now = max(self._now, t)
        self._forget_before(t - self.settings.window_s)

    def share(self, card: Card, since: float = -math.inf, among: Callable[[Card], bool] | None = None) -> float:
        """``card``'s part of the weight cast within the window (and at or after ``since``), counting only the
        readings of cards ``among`` accepts when given."""
        votes = [(c, w) for t, c, w in self._votes if t >= since and (among is None or (c is not None and among(c)))]
        total = sum(w for _, w in votes)
        return sum(w for c, w in votes if c == card) / total if total > 0 else 0.0

    def winner(
        self,
        expected: Callable[[Card], bool] | None = None,
        doubtful: Callable[[Candidate], bool] | None = None,
        leap: Callable[[Card], bool] | None = None,
    ) -> Candidate | None:
        """The card with enough evidence to be believed as the top now, if any.

        ``expected`` (the rules as a prior) says which cards could lie there legally. An expected card must
        outweigh the other expected readings only: a recogniser that reads a y8 as y5 every other frame must
        not stall the y8 it is. A card that is not expected clears the strict bar against every reading, a
        ``doubtful`` one twice over: a recogniser's misread keeps the box of the card it misreads (the sample's
        b2 read as b10 in its own box), where a card slapped on top lies a little off or turned. An expected
        card that ``leap`` marks (legal only if several cards nobody saw landed first: a y10 on a y6 that was
        out of view), or one read unsurely (``VotingSettings.unsure_identity``), clears the strict bar among the
        expected readings: a misread must not invent plays.

        >>> ballot = Ballot(VotingSettings())
        >>> y5, y8 = Card.parse("y5"), Card.parse("y8")
        >>> for frame in range(12):
        ...     ballot.cast(frame / 30, frame, y8 if frame % 2 else y5, weight=0.8)
        >>> ballot.winner() is None, ballot.winner(expected=lambda card: card == y8).card
        (True, Card.parse('y8'))
        """
        s = self.settings
        runs = sorted(self._runs.values(), key=lambda r: -r.weight)
        # An unexpected card that clears the strict bar holds most of every reading since it showed: it comes
        # first, or the old top (expected, and heavy with its past readings) would always outvote it.
        for run in runs:
            if expected is not None and not expected(run.card):
                share = self.share(run.card, since=run.first_t)
                mean = run.weight / max(1, run.frames)
                doubt = doubtful is not None and doubtful(run)
                if s.convincing(run.frames, run.vouched_s, share, self.frame_s, mean, doubtful=doubt):
                    return run
        for run in runs:
            if expected is not None and not expected(run.card):
                continue
            long_enough = s.lasted(run.span_s, s.min_span_s, self.frame_s)
            share = self.share(run.card, since=run.first_t, among=expected)
            # a leap, or a card read unsurely, must clear the strict bar among the expected readings
            unsure = run.read_frames > 0 and run.identity / run.read_frames <= s.unsure_identity
            if (leap is not None and leap(run.card)) or unsure:
                if s.convincing(run.frames, run.vouched_s, share, self.frame_s, run.weight / max(1, run.frames)):
                    return run
            elif run.frames >= s.min_frames and long_enough and share >= s.min_share:
                return run
        return None

    def run(self, card: Card) -> Candidate | None:
        """The current run of ``card``, if it was read recently."""
        return self._runs.get(card)

    def glimpsed(self) -> tuple[Candidate, ...]:
        """Every card read on the stack since its last change, believed or not, oldest first (runs that ended
        are remembered until the next change: a card seen for a moment, then covered, was there)."""
        runs = dict(self._glimpses)
        for card, run in self._runs.items():
            # a card read again after a glimpse of it is the stronger of the two: a b9 read twice as it came
            # down, covered by the b10 at once and read once more 0.5 s later (seed 100403, eight players) was there
            if card not in runs or run.weight >= runs[card].weight:
                runs[card] = run
        return tuple(sorted(runs.values(), key=lambda r: r.first_t))

    def lay_since(self, run: Candidate) -> tuple[float, int]:
        """Since when (time, frame) ``run``'s card is known to have lain where it is read: its own
        :attr:`Candidate.lay_since`, or that of an earlier run of it read in the same place (three readings or more
        since it began, ended at most :data:`HIDDEN_BETWEEN_S` before this one began): a card is not taken away and
        put back to the millimetre and degree, so it lay there while a hand hid it between (seed 111001, two
        players: a y1 read for 0.2 s as it came down, hidden 0.6 s by the next hand, then read again where it lay;
        dated when the second run began, less half the time hidden, 0.62 s late). Sporadic misreads before a run
        began anew do not count (a property test, seed 2608: two misreads of an r8 as the r9 to come, then one
        more 0.2 s later that began the run anew, dated the r9 landing 0.5 s later by that lone misread).

        >>> ballot, y1 = Ballot(VotingSettings()), Card.parse("y1")
        >>> for frame in (*range(12, 18), *range(40, 50)):
        ...     ballot.cast(frame / 30, frame, y1, weight=0.8, placement=Placement(5.0, 0.0, 30.0))
        >>> ballot.run(y1).first_frame, ballot.lay_since(ballot.run(y1))
        (40, (0.4, 12))
        """
        since = run.lay_since
        old = self._glimpses.get(run.card)
        if (
            old is None
            or old is run
            or len(old.trail) < self.settings.min_frames
            or old.placement is None
            or run.placement is None
            or _apart(old.placement, run.placement)
            or not 0.0 <= run.first_t - old.last_t <= HIDDEN_BETWEEN_S
        ):
            return since
        return min(since, old.lay_since)

    def restart(self, keep: Card) -> None:
        """Forgets every run but ``keep``'s (the stack's new top), once a change has been ruled on."""
        self._runs = {card: run for card, run in self._runs.items() if card == keep}
        self._glimpses.clear()

    def _forget_before(self, horizon: float) -> None:
        while self._votes and self._votes[0][0] < horizon:
            self._votes.popleft()
        s = self.settings
        stale = [
            card for card, run in self._runs.items() if s.exceeds(self._now - run.last_t, s.max_gap_s, self.frame_s)
        ]
        for card in stale:
            self._remember(self._runs.pop(card))

    def _remember(self, run: Candidate) -> None:
        """Keeps an ended run as a glimpse of its card, the stronger one where its card was glimpsed before."""
        old = self._glimpses.get(run.card)
        if old is None or run.weight >= old.weight:
            self._glimpses[run.card] = run


HIDDEN_BETWEEN_S = 2.0
"""How long a hand may hide a card between two runs of readings of it in one place for the card to have lain there
all along (:meth:`Ballot.lay_since`)."""


def _apart(a: Placement, b: Placement, within_mm: float = 10.0, within_deg: float = 8.0) -> bool:
    """Whether two readings lie in different places (angles modulo a quarter turn, as the tracker's poses).

    >>> _apart(Placement(0, 0, 10), Placement(3, 4, -78)), _apart(Placement(0, 0, 10), Placement(12, 0, 10))
    (False, True)
    """
    turn = abs((a.angle - b.angle + 45.0) % 90.0 - 45.0)
    return math.hypot(a.x - b.x, a.y - b.y) > within_mm or turn > within_deg

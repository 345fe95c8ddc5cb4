"""Piles of cards in the centre, followed frame by frame on the table plane; what changed on each.

The tracker is physical: it knows where each pile lies and which card is on top, not whether a card was legal.
Each frame it associates the face sightings in the centre zone to piles, lets every pile vote on its top card
(:mod:`referee.tracker.voting`), and reports what changed as :data:`Change` values: a card :class:`Landed`,
cards that landed :class:`Together`, a pile :class:`Uncovered` when cards were picked up again, a top
:class:`Lifted` (a card of its face picked up off it: the picture rearranged, the face the same), a pile that
:class:`Vanished`. The judge rules on those changes and tells the tracker back which cards now make up the
pile (:meth:`StackTracker.settle`), since that is what the next frame's reading is compared with.

Association (norfair's rationale, written down): a sighting goes to the pile whose position (the middle of
its visible cards, so near the stack's base whatever the slaps) is nearest on the table plane, within
``gate_mm``. A card slapped off-centre lies at most ~15% of a card from the base, so the gate is about half a
card width: wide enough for sloppy slaps, narrow enough for two stacks side by side. A sighting of a card the
pile already holds is pulled strongly towards it, of its next card a little (identity continuity); a 1 that is
not yet part of a pile must lie closer still, as a 1 next to a stack starts a new one. Anything else starts a
tentative pile, which dies quietly unless its card wins a vote; if it wins with the top or next card of a
stack that has been out of view, that stack was pushed there under a hand (``reacquire_mm``).

Identity is by face *and place*: two copies of a face (a repeated number, a lower number of the same colour, a
second card of a conflict) differ only by where they lie, so every card believed in a pile keeps its pose, and
a face read where none of its copies lies (beyond ``pose_mm``/``pose_deg``, by a vote) is a new card.

Lifecycle: a pile that is not seen ages but lives (a hand over a stack for seconds): a stack is dropped only
after ``lost_after_s``; a pile of only illegal cards after ``loose_lost_s`` (its card was taken back).

The whole frame loop, as in norfair::

    tracker = StackTracker()
    for frame in frames:                    # FrameSightings, or None for an unreadable frame
        for change in tracker.update(frame):
            ...                             # rule on it, then tracker.settle(pile, legal_top, loose)

>>> tracker = StackTracker()
>>> changes = [c for i in range(8) for c in tracker.update(seen(i, ("r1", (0, 0))))]
>>> [(type(c).__name__, c.pile, str(c.card), c.frame) for c in changes]   # first seen at frame 0
[('Landed', 1, 'r1', 0)]
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from referee.cards import LOWEST, Card
from referee.events import Placement
from referee.sightings import FrameSightings, Quad, Sighting, frame_before, polygon_area
from referee.tracker.inference import InferenceSettings
from referee.tracker.voting import Ballot, Candidate, VotingSettings

# ---------------------------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class Landed:
    """A new card is believed on top of ``pile``, first seen down at ``t``/``frame``.

    ``hidden_s``: how long the pile went unseen since its previous top was last read (cards may have landed
    unseen then; not before: the old top showing after a hand left says nothing landed under that hand).
    ``glimpsed``: other new cards read on the pile since that change without winning a vote, oldest first.
    """

    pile: int
    card: Card
    t: float
    frame: int
    placement: Placement | None = None
    hidden_s: float = 0.0
    glimpsed: tuple[Card, ...] = ()
    copy: bool = False
    """A face the pile already shows lower down or on top, seen lying elsewhere: a second physical card."""
    hidden_from: tuple[float, int] | None = None
    """When the card was first seen as the pile came out of hiding: since when (time, frame) it was hidden;
    it may have come down any time since, most likely at once (the hand that slapped it hid it)."""
    covered: tuple[tuple[Card, float, int], ...] = ()
    """Cards read on the pile only between the old top's last reading and the new card's first (time, frame
    of the first reading): a card that lay a moment, then this one covered it. A misread of the new card
    cannot come before it, and one of the old top would not hide the old top; the last reading is at most
    ``max_gap_s`` before the new card's first (the hand that brought the new card hid it meanwhile)."""
    again: bool = False
    """The face was ruled picked up from this pile and now shows again where it lay, to the millimetre and
    degree: it never left (the card below it read through a misread for a moment). A card put down again by
    hand never comes to rest where it lay."""
    beside: bool = False
    """For a ``copy``: the pile's top was read at its own place in a frame where this copy was read too (two
    cards of one face showing at once, not one card read at a new place)."""
    glimpsed_at: tuple[tuple[Card, float, int], ...] = ()
    """Each ``glimpsed`` card with the time and frame it was first read: when it most likely came down, if the
    rules say it did (a b9 glimpsed at 7.95 s, then covered, dated by the g5 seen on it at 9.27 s missed the
    0.5 s every play is matched within)."""
    glimpsed_until: tuple[tuple[Card, float, int], ...] = ()
    """Each ``glimpsed`` card with the time and frame it was last read on the pile: the card above it came down
    after, if the rules say one did unseen (seed 125006, four players: a b8 read on its stack until 42.90 s, the
    b9 nobody saw on it dated 42.4 s by the hidden time shared out, truly down at 42.98 s)."""
    lay_since: tuple[float, int] | None = None
    """The earliest time (and frame) the card is known to have lain where it was read (``Candidate.lay_since``):
    the picture there unchanged since, it came down by then, however long it was misread meanwhile."""
    quiet_at: float | None = None
    """The latest time before the picture at the pile last changed ahead of the card's first reading at which it
    had lain still a while (:data:`QUIET_S`): the card came down after it. Its top unread for long, not out of
    view, and quiet meanwhile, the pile was no hand's: the detector lost the cards there, and the card came with
    the change that ended the quiet (the sample under a cool cast: a b5 dated 2 s early, as the card below it was
    last read, is dated right; under a warm cast a b4 dated 3 s early is dated 2 s early, when the pile was last
    seen quiet)."""

    @property
    def down(self) -> tuple[float, int]:
        """When the card most likely came down (time, frame): while the pile's top was hidden or unreadable
        before the card was first read, halfway on average (see :data:`DOWN_SHARE`); hidden long, as it was hidden
        or as the hand came (see :data:`LONG_HIDDEN_S`); a copy, at once.

        >>> Landed(1, Card.parse("r2"), 3.0, 90, hidden_s=0.4).down
        (2.8, 84)
        >>> Landed(1, Card.parse("r2"), 3.0, 90, hidden_s=1.5).down  # the hand lingered over it
        (1.5, 45)
        >>> Landed(1, Card.parse("r2"), 3.0, 90, hidden_s=1.5, hidden_from=(2.8, 84)).down  # brought at the end
        (2.8, 84)
        >>> Landed(1, Card.parse("r2"), 3.0, 90, hidden_s=1.5, quiet_at=2.7).down  # no hand: quiet until 2.7 s
        (2.7, 81)
        >>> Landed(1, Card.parse("r2"), 3.0, 90, lay_since=(1.5, 45)).down  # read in a picture unchanged since 1.5 s
        (1.5, 45)
        """
        if not self.copy and self.hidden_s > LONG_HIDDEN_S:
            if self.hidden_from is not None and self.t - self.hidden_from[0] <= BRIEF_HAND_S:
                return self.hidden_from  # brought by the hand that hid the pile a moment
            early = min(self.hidden_s, self.t)  # slapped as the top stopped being read, the hand lingering
            if self.hidden_from is None and self.quiet_at is not None and self.t - self.quiet_at < early:
                early = max(0.0, self.t - self.quiet_at)  # no hand lingered: the pile lay quiet until then
        else:
            early = 0.0 if self.copy else halfway_hidden(self.t, self.hidden_s)
        frame = frame_before(self.t, self.frame, early)
        if not self.copy and self.lay_since is not None and self.lay_since[0] < self.t - early:
            return self.lay_since  # it lay there by then, whatever was read meanwhile
        return self.t - early, frame


@dataclass(frozen=True)
class Together:
    """Several new cards were seen on ``pile`` at the same moment, lowest number first."""

    pile: int
    cards: tuple[Card, ...]
    t: float
    frame: int
    placement: Placement | None = None
    seen: tuple[tuple[float, int], ...] = ()
    """When each card was first seen (time, frame), if alone before the others joined it."""


@dataclass(frozen=True)
class Uncovered:
    """``card`` shows again on top of ``pile``: the ``removed`` cards above it (top first) were picked up."""

    pile: int
    card: Card
    removed: tuple[Card, ...]
    t: float
    frame: int


@dataclass(frozen=True)
class Lifted:
    """``card``, the top of ``pile``, still shows, but the picture there came to rest rearranged at ``t`` (``frame``)
    after it had settled with the card down: a card showing the same face was picked up off it (a copy slapped
    on it in the same instant, taken back by the conflict's loser), or the top was straightened by hand."""

    pile: int
    card: Card
    t: float
    frame: int


@dataclass(frozen=True)
class Vanished:
    """``pile`` has not been seen since ``t``/``frame`` (gathered, taken away, its only card taken back)."""

    pile: int
    t: float
    frame: int


Change = Landed | Together | Uncovered | Lifted | Vanished

# ---------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class TrackerSettings:
    """Gates and lifetimes; see the module docstring for why each is what it is."""

    gate_mm: float = 38.0
    known_gate_mm: float = 48.0
    one_gate_mm: float = 18.0
    known_bonus_mm: float = 30.0
    next_bonus_mm: float = 12.0
    reacquire_mm: float = 320.0
    strayed_mm: float = 55.0
    strayed_hidden: int = 2
    """A new pile's card this near a stack whose top was covered a while, with at most ``strayed_hidden`` cards
    between it and the top, continues that stack (see :meth:`StackTracker._strayed_onto`): a card is 56 mm wide,
    so one this near overlaps the stack."""
    duplicate_mm: float = 10.0
    twin_box_mm: float = 20.0
    twin_box_deg: float = 3.0
    """Two boxes of one face this close whose outlines turn alike (within ``twin_box_deg``) are one card boxed
    twice: a detector boxes a card on a messy pile once alone and once with the strip of the card below (the
    sample round's y4, 12 mm apart, the same angle within a degree in every frame). A second copy slapped on
    it lies turned by a few degrees and hides most of the first: it is read alone."""
    twin_face_mm: float = 25.0
    twin_face_deg: float = 8.0
    """Two boxes of one *face* this close, turned alike within this, are one card boxed twice as well: a card
    near 45 degrees is boxed once alone and once with the strip below it read a quarter turn the other way, the
    two outlines 10-22 mm and 2-8 degrees apart (rendered rounds at seeds 100400-100406: seven "conflicts" of a
    face with itself, none a true one; the 14 true conflicts found there and at seeds 100300-100306 were all found
    by the loser's lift, see :class:`Lifted`). A second copy slapped on the first hides most of it, so the two are
    seldom read at once. Conflicts said on three sets of 21 rounds 23 -> 17, 14 -> 12 and 21 -> 15 (new seeds
    100500-100506), every true one still found. The top and a box of its own face read as a new copy in the same
    frame are held to it too: an r3 at 43 degrees boxed again 17-22 mm off, turned 2-5 degrees more, was "an r3
    slapped on the r3" (seed 100500, eight players); illegal plays said 40 -> 39 and 23 -> 22 on seeds
    100500-100506 and 100300-100306, the true ones, conflicts and plays the same."""
    misread_box_mm: float = 3.0
    misread_box_deg: float = 3.0
    """A face that would be illegal read this close to the top's own box is more likely the top misread (the
    recogniser keeps the box, as the sample's b2 read as b10) than a card slapped on it (a slap lands up to
    15% of a card off and turned by up to 20 degrees: few land this square): it needs twice the evidence."""
    pose_mm: float = 10.0
    pose_deg: float = 8.0
    reanchor_after_s: float = 0.3
    settle_s: float | None = 0.1
    """A new card lands once it was read lying still (its picture unchanged) for this long: a card carried over
    a stack in a hand, or held there, is read too, but never still (seed 99000 four players: a g3 hovering
    over a g2 for 0.4 s was a play, and the g2 showing again after it "a second g2"). The ruling waits for it;
    the card still counts from its first reading. None: not waited for; sightings that do not tell (a scripted
    table without ``settle_s``) never wait."""
    still_lead_s: float | None = 1.0
    """A card lands on a pile only if the picture there changed after the pile's top was last read where it
    lies, and at most this long before the new card was first read (see ``Sighting.still_since``): a card lands
    with a hand and a slap, and the picture is stamped when the hand leaves, just before the card is read. A
    face read anew on a picture that did not change since the top showed is the top misread (the shipped
    detector on a red check cloth reads a still b2 as "b7", "b3", "b1" in turn). Measured on the rendered
    rounds at seeds 99000-99002 (the same readings, re-refereed): false illegal plays 59 -> 41, plays said
    wrongly 31 -> 28, conflicts said 20 -> 11, every real illegal play still flagged. Sightings that do not
    tell (a scripted table without ``settle_s``) leave every landing free; None turns the test off."""
    unread_landing_s: float | None = 5.0
    """A new pile's first card, read first this long or less after the picture there came to rest rearranged and
    lay still since, landed unread then (see :meth:`StackTracker._came_unread`): ``still_lead_s`` does not hold it
    back, having no top to misread. None: every first card needs ``still_lead_s`` too."""
    lifted_frames: int = 5
    lifted_after_s: float = 0.2
    """The top read this many frames where the picture settled rearranged at least ``lifted_after_s`` after it
    first settled with the top down makes a :class:`Lifted` (a hand passing over a pile leaves the picture as it
    was; a card lifted off it does not)."""
    lifted_still_s: float = 0.4
    """Only a top whose picture has lain still this long tells how the pile came to rest (the vision side
    compares a picture once it has been still for 0.3 s, see :class:`vision.change.ChangeClock`)."""
    rest_as_before: bool = True
    """A card that would be illegal is no landing when the picture where it is read came to rest as it lay
    under the top (see ``Sighting.rearranged_at``): a hand passed over the pile, nothing came down, and the face
    read anew once it left is the still top misread (seed 100403, two players: an r5 read "r3" for a second
    after a hand passed, and, the picture still, the misread repeated). A slapped card rearranges the picture
    (:data:`vision.change.REARRANGED_SHARE`); sightings that do not tell leave every landing free."""
    lower_needs_rearranged: bool = True
    """A lower card of a stack's own run read on it (an r3 on an r5) is far more often the top misread, or the card
    below showing, than a card played: on three sets of 21 rendered rounds (seeds 100300-100306, 100400-100406,
    100500-100506) 24 of the 36 illegal plays said wrongly were such cards, and 4 of the 63 said rightly. Such a
    card lands only once the picture at the pile came to rest rearranged since the top was last read there (a
    card slapped on it does that; a misread of a still picture never does), whether it was read on the top's place
    or a box off it (a new copy of a card the stack holds), and also when its vote is only won as the top is read
    again; sightings that do not tell leave it free. Unlike :attr:`rest_as_before`, which only stops a ruling
    once the picture has lain still long enough to be compared, this one waits until the picture has come to rest
    rearranged, however briefly (an illegal card is often taken back within a second)."""
    below_top_s: float = 1.0
    """The card just under the legal top (an r2 on an r3) read on it within this many seconds of the top's landing
    is that card showing as the top settles, or the top misread a box off, not a card played: the top's own
    slap rearranges the picture, so :attr:`lower_needs_rearranged` lets it through. Two of the four illegal plays
    said wrongly on the 45 development rounds (seeds 101002 and 101013, four players: a g2 and an r2 read 0.45 s
    after the g3 and r3 on them landed), while none of the 132 true illegal plays of those rounds and the seven new
    ones (seeds 101050-101056) was the card just under the top (five were lower cards of the stack's run, 3-6 under
    it)."""
    rules_odds: float = 100.0
    """A face read as a card that would be a mistake where it lies, whose runner-up (``Sighting.runner_up``) is a
    card of its colour due there (the next of the stack's run, or a 1 on a new pile), or the top that such a
    misreading was already taken for (it goes on once the card due has landed), is read as that card once the
    runner-up's belief times this reaches the reading's. The rules are the prior: a given wrong card is a few
    landings in ten thousand (mistakes are a few in a hundred, spread over many cards), the card due most of
    them; and the recogniser's misreads of one number as another are sure ones (seed 100500, eight players: an
    r5 landing on its r4 read "r3" at 0.99, "r5" second at 0.01, for half a second). A card really played wrongly
    reads surer still, its rival near nothing. Colours are not weighed so: a colour is read off the whole card, and
    a rival of another colour is noise (a b2 on a g1 read with "g2" second at 1 %, taken for the g2). 0 turns
    this off. Measured in the session-25 note and the README's table (false illegal plays on seeds 100400-100406
    and 100500-100506)."""
    top_odds: float = 10.0
    """A face that would be a mistake where it lies, read with the pile's own top second at a tenth or more of the
    belief in it, is no reading: the top half under a hand, or a card landing on it read with the top's strip
    (seed 101009, four players: a y1 under a passing arm read "y7" at 0.7, "y1" second at 0.13-0.25, for 0.6 s,
    ruled "y7 on y1"). Not a vote for the top either, or a card landing on the top and so misread now and then
    would be voted down by its own readings. A card really played wrongly reads sure, its rival near nothing
    (see ``rules_odds``); 0 turns this off."""
    min_confidence: float = 0.25
    sure_reading: float = 0.3
    """A reading of a pile's top this sure (detector x recogniser confidence) shows the top is still there. Time
    since the last such reading counts as time the pile was hidden: a card that landed and was only misread
    there may have been played unseen, as under a hand (a y6 on a y4 after 0.6 s of misreads: y5). The shipped
    detector reads a top it sees at 0.35..0.6 (sample round): a second of such readings hid nothing."""
    sure_share: float = 0.75
    """A reading of the top counts as sure only where the recogniser's belief in it is this share of its surest
    belief in the top so far as well: a card landing on the top, under the hand that slaps it, is often read for a
    moment as the top it covers, less surely than the top was read while it lay bare (seed 101018, four players: a
    b3 read at 1.0, the b4 slapped on it read once, then "b3" at 0.67, then the b5: the b4 was played, not a b5 on
    the b3). The recogniser's belief, not the detector's, which swings with every hand passing; and relative, so a
    camera or a renderer whose readings are all weak hides nothing by that alone."""
    repeat_counts_every: int = 4
    """A frame that repeats the last one's readings bit for bit (a still picture whose reading was reused) is
    not a new vote, unless this many frames (of the source) passed since the last one that counted: a picture
    that stays still still shows its cards."""
    tentative_ttl_s: float = 0.7
    lost_after_s: float = 12.0
    loose_lost_s: float = 1.2
    smoothing: float = 0.6
    voting: VotingSettings = field(default_factory=VotingSettings)


# ------------------------------------------------------------------------------------------------- piles


@dataclass
class Pile:
    """One pile's hypothesis: where it lies, the cards believed in it (bottom first), its ballot, its ages.

    ``cards`` is the pile as it physically lies: the legal run up to ``legal_top`` with the illegal cards
    lying among it where they landed (``removable``: a card a player may still pick up), as the judge last
    settled it; empty while the pile is tentative.
    """

    id: int
    x: float
    y: float
    angle: float
    born_t: float
    ballot: Ballot
    cards: list[Card] = field(default_factory=list)
    removable: list[bool] = field(default_factory=list)
    poses: list[Pose | None] = field(default_factory=list)
    legal_top: Card | None = None
    frames_seen: int = 0
    copy_run: _PoseRun | None = None
    uncover_run: _PoseRun | None = None
    top_reads: deque[tuple[float, Pose, bool]] = field(default_factory=deque)
    """Where the top card's face was read lately (time, pose, whether read away from the top's place: as a
    copy), wherever it was read."""
    top_area: tuple[Card | None, float] = (None, 0.0)
    """The top and its largest box where it lies (table mm²): what a whole card of it measures here."""
    reanchor: bool = False
    gap: tuple[float, int, float] | None = None
    """The latest stretch of time the pile was out of view: (from, its frame, to)."""
    last_seen_frame: int = 0
    last_seen_t: float = 0.0
    missing_since: tuple[float, int] | None = None
    hidden_s: float = 0.0
    top_read_t: float | None = None
    """When the top was last read surely (see ``TrackerSettings.sure_reading``)."""
    top_best: tuple[Card | None, float] = (None, 0.0)
    """The top and the recogniser's surest belief in it so far (see ``TrackerSettings.sure_share``)."""
    changes: deque[tuple[float, float | None]] = field(default_factory=deque)
    """(time, the latest time the picture had changed at the pile by then), frame by frame, for a few seconds
    (None: its sightings did not tell)."""
    top_seen: deque[float] = field(default_factory=deque)
    """When the top card was read where it lies, for a few seconds."""
    settled: dict[Card, float] = field(default_factory=dict)
    """Faces other than the top read lying still on the pile since its last landing, and when last (see
    ``TrackerSettings.settle_s``): new ones, and those under illegal cards only (showing again once those are
    picked up)."""
    news_still: list[tuple[Card, float]] = field(default_factory=list)
    """The faces of the pile's latest reading that count for :attr:`settled`, with since when each lay still: a
    repeated frame (the same reading of a still picture) shows them lying still longer."""
    conflict: _PairRun | None = None
    settled_at: float | None = None
    """When the picture at the pile last came to rest rearranged as the judge last settled it (the landing's own
    settling), as its top's readings tell: a later rearrangement with the same top showing is a :class:`Lifted`."""
    lift_run: tuple[float, int, float, int] | None = None
    """A rearrangement seen under the top since :attr:`settled_at`: (when, frames read, first time, frame)."""
    changed_t: float | None = None
    """When the pile's latest change was first seen (its top first read)."""
    ruled: tuple[Card | None, tuple[tuple[Card, int], ...]] | None = None
    """The judge's latest word on the pile (:meth:`StackTracker.settle`)."""
    taken_for: dict[Card, Card] = field(default_factory=dict)
    """Faces read as their runner-up, the card due (see ``TrackerSettings.rules_odds``), and the card each was
    taken for: once that card lies on top, the same misreading of it is still it."""
    first_reads: dict[Card, float] = field(default_factory=dict)
    """When each face not on the pile was first read there since the pile last changed (a vote's run may start
    later: its first readings sporadic, or outread)."""
    alias: tuple[Card, Pose] | None = None
    """A face the top was read as where it lies, while it landed (see ``StackTracker._read_as_expected``): read
    there again, it is the top, until the next card lands."""
    taken: list[tuple[Card, Pose, float]] = field(default_factory=list)
    """Cards ruled picked up from the pile, with where they lay and when (see :attr:`Landed.again`), since the last
    legal card landed on it: a card that never left would lie under that one. Seed 118006, two players: an r8
    slapped on the g7 and taken back, slapped on the full g10 a minute later 8 mm from where it lay, was read as
    lying there still, and the card on a full stack was never said."""
    gone: bool = False

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def tentative(self) -> bool:
        return not self.cards

    @property
    def position(self) -> tuple[float, float]:
        return (self.x, self.y)

    def distance(self, sighting: Sighting) -> float:
        cx, cy = sighting.centre
        return math.hypot(cx - self.x, cy - self.y)


@dataclass
class _PairRun:
    """Readings of the same set of new cards together on one pile."""

    cards: tuple[Card, ...]
    first_t: float
    first_frame: int
    last_t: float
    frames: int = 1
    placement: Placement | None = None


Pose = tuple[float, float, float]


DOWN_SHARE = 0.5
DOWN_MAX_S = 0.5
"""A card first read after its pile was hidden (or its top unreadable) for ``h`` seconds came down about
``DOWN_SHARE * h`` before, at most ``DOWN_MAX_S``: under the hand that slapped it (rendered rounds at seeds
99000-99002, 478 plays: the median card came down at half that time; plays within 0.5 s 461 -> 470)."""


def halfway_hidden(t: float, hidden_s: float) -> float:
    """How long before its first reading at ``t`` a card came down that was first read after its pile lay hidden
    ``hidden_s`` seconds: :data:`DOWN_SHARE` of that time, at most :data:`DOWN_MAX_S` (and never before the video).

    >>> halfway_hidden(3.0, 0.4), halfway_hidden(3.0, 1.5), halfway_hidden(0.1, 0.4)
    (0.2, 0.5, 0.1)
    """
    return min(DOWN_SHARE * hidden_s, DOWN_MAX_S, t)


LONG_HIDDEN_S = 1.2
BRIEF_HAND_S = 0.4
"""Hidden longer than ``LONG_HIDDEN_S``, no one time within a play's 0.5 s fits both ways a card comes down
unseen: a hand slaps it and lingers over it (it came down as the top stopped being read), or the top lay
unreadable a while and a hand brought the card at the end, the pile out of view only a moment (at most
``BRIEF_HAND_S``) before the card was read (then it came down as the pile went out of view). Rendered rounds at
seeds 100300-100306: of 7 cards hidden 1.3-3.6 s, 5 came down within 0.13 s of the first way, 2 within 0.07 s of
the second, where halfway (at most 0.5 s before the reading) missed 5. Hidden 1.0-1.2 s, either happens (seeds
100400-100406: two cards hidden 1.1 s came down at the end, with the pile out of view 0.7-0.8 s; one at the
start), and halfway stands there: it misses only a card slapped in the stretch's first tenths."""
QUIET_S = 0.5
"""A pile whose picture had not changed for this long lay quiet: no hand over it (see :attr:`Landed.quiet_at`)."""
COVERED_SPAN_S = 0.06
"""A card read on a pile over this long (three frames at 30 a second) before the next covered it lay there,
though never read still (see ``StackTracker._covered``)."""
CHANGES_KEPT_S = 5.0
"""How long a pile's record of when its picture changed is kept: longer than any vote lasts."""
NEW_OVER_TOP = 1.5
"""A card the rules expect on a pile, boxed where its top is boxed in the same frame and read at least this many
times as surely, is a card laid on the top, not a second reading of it: the top, mostly covered, reads poorly
(seed 108002, two players: an r4 laid on the r3 3 mm and no degree off it as boxed, read 0.86 beside the r3's 0.41
for 3 s, taken for a second box of the r3 until the r3 read alone once)."""
TAKEN_KEPT_S = 10.0
"""A card ruled picked up from a pile and read again where it lay within this long never left (the card below it
read through a misread a moment, see :attr:`Landed.again`); read there later, it was put down again. Seed 122000,
two players, held out: a y7 slapped on the y2 and taken back, slapped on it again a minute later within the
pose of the first, the stack still at y2, was read as lying there still and never said; on 11 other rounds replayed
(seeds 121000-121006 and 122000-122003, four players) no card was read again where it lay."""
TOP_READS_S = 1.0
"""How long a reading of the top card at some place is remembered: a copy of a lower card read in the same
place within this time of it is the top misread (see ``StackTracker._misread_top``)."""


@dataclass
class _PoseRun:
    """Readings of one face where the pile does not expect it: a new copy of a card it holds, or an older
    copy of its top showing again (``element``: its index in the pile)."""

    card: Card
    element: int
    first_t: float
    first_frame: int
    last_t: float
    since: int
    placement: Placement
    frames: int = 1
    weight: float = 0.0
    beside: bool = False
    """Read in a frame that also showed the pile's top at its own place (see :attr:`Landed.beside`)."""


@dataclass(frozen=True)
class _Reading:
    """A sighting on a pile and what it shows: ``element`` is the index of the card it shows in the pile, -1
    for a card the pile does not hold, or for a new ``copy`` of one it holds lying where none of its copies lie."""

    sighting: Sighting
    element: int
    copy: bool = False

    @property
    def card(self) -> Card:
        assert self.sighting.card is not None
        return self.sighting.card


def pose_of(sighting: Sighting) -> Pose:
    x, y = sighting.centre
    return (x, y, sighting.angle)


def same_pose(a: Pose, b: Pose, within_mm: float, within_deg: float) -> bool:
    """Whether two readings show a card lying in one place. Angles are compared modulo a quarter turn: a card
    turned near 45 degrees has an almost square outline on screen, and a detector's box then flips between its
    two portrait readings (measured on the sample round: the same y1 read at +46 and -44 degrees in alternate
    frames, its centre steady within 3 mm). A second copy landing on the same spot turned by exactly a quarter
    turn is far rarer than that flip, and lands askew elsewhere anyway.

    >>> same_pose((0, 0, 46.0), (2, 1, -44.0), 7, 8), same_pose((0, 0, 10.0), (2, 1, 40.0), 7, 8)
    (True, False)
    """
    turn = abs((a[2] - b[2] + 45.0) % 90.0 - 45.0)
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= within_mm and turn <= within_deg


def placement_of(sighting: Sighting) -> Placement:
    x, y = sighting.centre
    return Placement(x, y, sighting.angle)


def weight_of(sighting: Sighting) -> float:
    """A reading's vote: the detector's and the recogniser's confidence, less what a hand hides."""
    visible = 1.0 if sighting.visible is None else max(0.0, min(1.0, sighting.visible))
    return sighting.confidence * sighting.identity_confidence * visible


# ----------------------------------------------------------------------------------------------- tracker


class StackTracker:
    """Follows the piles in the centre over time; see the module docstring."""

    def __init__(self, settings: TrackerSettings | None = None) -> None:
        self.settings = settings or TrackerSettings()
        self._piles: dict[int, Pile] = {}
        self._next_id = 1
        self._t = 0.0
        self._frame = -1
        self._dt = 1 / 30
        self._last_key: tuple[tuple[Card | None, Quad, float], ...] = ()
        self._counted_frame = -1

    # ---- queries

    @property
    def piles(self) -> tuple[Pile, ...]:
        """The piles alive now, tentative ones included."""
        return tuple(p for p in self._piles.values() if not p.gone)

    @property
    def stacks(self) -> tuple[Pile, ...]:
        """The piles that hold at least one believed card."""
        return tuple(p for p in self.piles if not p.tentative)

    def pile(self, pile_id: int) -> Pile:
        return self._piles[pile_id]

    @property
    def t(self) -> float:
        return self._t

    @property
    def frame(self) -> int:
        return self._frame

    # ---- the frame loop

    def update(self, frame: FrameSightings | None = None) -> list[Change]:
        """Takes one frame's sightings (None: an unreadable frame, time passes unseen); returns the changes."""
        if frame is None:
            self._frame += 1
            return []
        if frame.t > self._t and self._frame >= 0:
            self._dt = 0.8 * self._dt + 0.2 * min(frame.t - self._t, 0.5)
        self._t, self._frame = frame.t, frame.frame
        usable = self._usable(frame)
        if self._repeats(usable):
            return self._hold(frame)
        readings = self._assign(usable)
        self._doubt(frame)
        changes: list[Change] = []
        for pile in self.piles:
            seen = readings.get(pile.id, [])
            if seen:
                changes.extend(self._observe(pile, seen, frame))
            else:
                changes.extend(self._age(pile, frame))
        return changes

    def settle(self, pile_id: int, legal_top: Card | None, loose: tuple[tuple[Card, int], ...] = ()) -> None:
        """The judge's word on what ``pile`` holds: the legal run up to ``legal_top``, and the ``loose`` cards
        that do not count, each with the legal height it lies on (a later legal card may lie on it)."""
        pile = self._piles[pile_id]
        run = [] if legal_top is None else [Card(legal_top.colour, n) for n in range(LOWEST, legal_top.number + 1)]
        cards: list[Card] = []
        removable: list[bool] = []
        for height in range(len(run) + 1):
            if height > 0:
                cards.append(run[height - 1])
                removable.append(False)
            for card, below in loose:
                if below == height or (height == len(run) and below > height):
                    cards.append(card)
                    removable.append(True)
        # each card keeps the pose it had; where copies of a face are fewer now, the latest ones stayed
        old: dict[Card, list[Pose | None]] = {}
        for card, pose in zip(pile.cards, pile.poses, strict=True):
            old.setdefault(card, []).append(pose)
        kept = {card: poses[len(poses) - min(len(poses), cards.count(card)) :] for card, poses in old.items()}
        poses: list[Pose | None] = [kept[card].pop(0) if kept.get(card) else None for card in cards]
        if legal_top is not None and (pile.legal_top is None or legal_top.number > pile.legal_top.number):
            pile.taken = []  # a card taken up before a legal one landed is under it if it never left: not on top
        pile.cards, pile.removable, pile.poses, pile.legal_top = cards, removable, poses, legal_top
        if pile.ruled != (legal_top, loose):  # the same word again (a copy of the top ruled no card): a lift may follow
            pile.settled_at, pile.lift_run = None, None
        pile.ruled = (legal_top, loose)
        if pile.top is not None:
            pile.ballot.restart(keep=pile.top)

    def remove(self, pile_id: int) -> Vanished:
        """Drops a pile now (the centre is being gathered); reports since when it was not seen."""
        pile = self._piles[pile_id]
        pile.gone = True
        t, frame = pile.missing_since or (self._t, self._frame)
        return Vanished(pile.id, t, frame)

    def unseen_for(self, pile_id: int) -> float:
        """Seconds since ``pile`` was last seen (0 while it is seen)."""
        pile = self._piles[pile_id]
        return 0.0 if pile.missing_since is None else self._t - pile.last_seen_t

    def _repeats(self, usable: list[Sighting]) -> bool:
        """Whether this frame repeats the last one's readings exactly: the vision side reused its last reading
        for a still picture (replay's default). A repeated misread is one misread, not several votes: votes
        count readings, not frames (a card read "y10" once, then reused for 3 frames, is one reading). A
        detector's confidences never repeat to the last digit on a new picture; scripted sightings (tests, the
        oracle) are sure (1.0) and do repeat, and each of their frames counts."""
        key = tuple((s.card, s.quad, s.confidence) for s in usable)
        unsure = any(s.confidence < 1.0 for s in usable)
        repeat = unsure and key == self._last_key
        self._last_key = key
        # a picture that stays still is read again now and then (replay's gate: every 4th frame); the same
        # reading then, on a picture that did not change, is evidence again that the card still lies there
        if repeat and self._frame - self._counted_frame < self.settings.repeat_counts_every:
            return True
        self._counted_frame = self._frame
        return False

    def _hold(self, frame: FrameSightings) -> list[Change]:
        """A repeated frame: the piles read in it are still there (not hidden), but nothing new was read."""
        changes: list[Change] = []
        for pile in self.piles:
            if pile.missing_since is None:
                pile.last_seen_t, pile.last_seen_frame = frame.t, frame.frame
                pile.ballot.tick(frame.t)
                self._note_settled(pile, frame.t)
            else:
                changes.extend(self._age(pile, frame))
        return changes

    # ---- association

    def _usable(self, frame: FrameSightings) -> list[Sighting]:
        floor = self.settings.min_confidence
        faces = [s for s in frame.faces if s.card is not None and s.confidence >= floor and frame.in_zone(s)]
        return _without_duplicates(faces, self.settings.duplicate_mm)

    def _doubt(self, frame: FrameSightings) -> None:
        """Faces the recogniser could not name vote for no face on the stack they lie on (see
        :meth:`Ballot.doubt`); they start no pile."""
        s = self.settings
        for sighting in frame.faces:
            if sighting.card is not None or sighting.confidence < s.min_confidence or not frame.in_zone(sighting):
                continue
            near = [p for p in self.stacks if p.distance(sighting) <= s.gate_mm]
            if near:
                pile = min(near, key=lambda p: p.distance(sighting))
                pile.ballot.doubt(frame.t, weight_of(sighting))

    def _assign(self, sightings: list[Sighting]) -> dict[int, list[Sighting]]:
        readings: dict[int, list[Sighting]] = {}
        unmatched: list[Sighting] = []
        for sighting in sightings:
            best = self._nearest(sighting)
            if best is None:
                unmatched.append(sighting)
            else:
                readings.setdefault(best.id, []).append(sighting)
        for sighting in unmatched:
            pile = self._tentative_for(sighting)
            readings.setdefault(pile.id, []).append(sighting)
        return readings

    def _nearest(self, sighting: Sighting) -> Pile | None:
        """The pile ``sighting`` is read on: the nearest within its gate, a pile holding its face or due it nearer.
        A face other than a 1 that a stack within its gate is due goes on that stack rather than on a new pile
        not yet voted in: that pile began with a misread (a property test, seed 0: an r3 slapped 20 mm from its r2,
        read "g1" in its first frame, started a pile of its own, and the r3 was ruled "not a one")."""
        s = self.settings
        near: list[tuple[float, bool, Pile]] = []
        for pile in self.piles:
            known = sighting.card in pile.cards
            distance = pile.distance(sighting)
            gate = s.one_gate_mm if _is_one(sighting) and not known and not pile.tentative else s.gate_mm
            gate = s.known_gate_mm if known else gate
            if distance > gate:
                continue
            follows = pile.top is not None and sighting.card is not None and sighting.card.follows(pile.top)
            near.append(
                (distance - (s.known_bonus_mm if known else s.next_bonus_mm if follows else 0.0), follows, pile)
            )
        if not _is_one(sighting) and any(follows for _, follows, _ in near):
            near = [n for n in near if not n[2].tentative]
        return min(near, key=lambda n: n[0])[2] if near else None

    def _moved_stack(self, pile: Pile, card: Card) -> Pile | None:
        """A stack out of view for a while that a new pile's card continues (its top, or the card after it):
        the stack was pushed there under a hand. Voted first, so one misread cannot move a stack. Within
        ``strayed_mm`` of the stack, a card a few numbers above its top continues it too (the cards between
        landed unseen or misread; the judge decides whether that can be): a card lying half on a stack was
        played on it. A stack of a lone 1 is not taken to have moved to where another copy of its 1 shows: eight
        players lay many copies of each 1 at once, and a 1 starts a stack wherever it lands (seed 101084, eight
        players: a y1 laid 135 mm from a lone y1 as a hand slapped a y2 on that one was taken for it pushed
        there; the y2 then ruled "not a one" where the stack had been, and every card of the new stack put on
        the old, 12 plays wrong). A lone 1 truly pushed under a hand starts a new stack: one play too many."""
        s = self.settings
        best, best_distance = None, s.reacquire_mm
        for other in self.stacks:
            if other is pile or other.top is None:
                continue
            distance = math.dist(other.position, pile.position)
            if card == other.top and card.number == LOWEST and len(other.cards) == 1:
                continue  # another copy of a lone 1: a 1 starts a stack wherever it lands
            if card == other.top or card.follows(other.top):
                if self.unseen_for(other.id) < s.reanchor_after_s:
                    continue
            elif not self._strayed_onto(other, card, distance):
                continue
            if distance < best_distance:
                best, best_distance = other, distance
        return best

    def _strayed_onto(self, stack: Pile, card: Card, distance: float) -> bool:
        """Whether ``card``, read ``distance`` from ``stack``, lies on it though numbers above its top: within
        ``strayed_mm`` and at most ``strayed_hidden`` cards above (seed 99901, eight players: a g7 and a g8 on a
        green-striped cloth misread, the stack's place drifting after a lower card's reading, then the g9 read
        40 mm from it was taken for a new pile, "not a one")."""
        top, s = stack.top, self.settings
        # its top covered for a while (by this card, maybe): out of view, or not read surely
        covered = max(self.unseen_for(stack.id), self._hidden_s(stack, self._t))
        return (
            top is not None
            and covered >= s.reanchor_after_s
            and distance <= s.strayed_mm
            and card.colour == top.colour
            and 0 < card.number - top.number - 1 <= s.strayed_hidden
        )

    def _tentative_for(self, sighting: Sighting) -> Pile:
        for pile in self.piles:
            if pile.tentative and pile.born_t == self._t and pile.distance(sighting) <= self.settings.gate_mm:
                return pile
        x, y = sighting.centre
        pile = Pile(self._next_id, x, y, sighting.angle, self._t, Ballot(self.settings.voting))
        self._next_id += 1
        self._piles[pile.id] = pile
        return pile

    # ---- one pile, one frame

    def _observe(self, pile: Pile, seen: list[Sighting], frame: FrameSightings) -> list[Change]:
        if pile.missing_since is not None:
            gap = max(0.0, frame.t - pile.last_seen_t - self._dt)
            pile.hidden_s += gap
            pile.reanchor = pile.reanchor or gap >= self.settings.reanchor_after_s
            if gap > 0.05:  # a hand, not a missed frame
                pile.gap = (pile.last_seen_t, pile.last_seen_frame, frame.t)
            pile.missing_since = None
        pile.last_seen_t, pile.last_seen_frame = frame.t, frame.frame
        pile.frames_seen += 1
        self._note_change(pile, seen, frame.t)
        unaliased = [_as_top_if_turned(pile, s) for s in self._unaliased(pile, seen) if not self._top_second(pile, s)]
        due = [self._as_due(pile, s) for s in unaliased]
        taken = {id(d) for d, s in zip(due, unaliased, strict=True) if d is not s}
        readings = self._classify(pile, due)
        for reading in readings:
            if reading.element < 0:
                pile.first_reads.setdefault(reading.card, frame.t)
        self._note_top_reads(pile, readings, frame.t)
        if pile.cards and any(r.element == len(pile.cards) - 1 for r in readings):
            pile.top_seen.append(frame.t)
            while pile.top_seen[0] < frame.t - CHANGES_KEPT_S:
                pile.top_seen.popleft()
        # a lower card under illegal ones counts too: showing again once they are picked up, it is uncovered only
        # once it lies still (seed 99801, eight players: a b4 read for 3 s after the b6 left, never uncovered); so
        # does any card below the top read where it lies: a copy slapped squarely on the stack (a g3 on a g9 lands
        # where the g3 lies under it) lands once it lies still (development and evaluation rounds, 35: illegal
        # plays 47 -> 50 of 98 right, 54 -> 61 said; a lower face read at a messy stack's edge lies still too)
        pile.news_still = [
            (r.card, r.sighting.still_since)
            for r in readings
            if r.sighting.still_since is not None and r.element < max(0, len(pile.cards) - 1)
        ]
        self._note_settled(pile, frame.t)
        readings = [r for r in readings if not self._misread_top(pile, r)]
        if not readings:
            return []
        news = [r for r in readings if r.element < 0]
        top = max(news, key=lambda r: weight_of(r.sighting)) if news else _uppermost(readings)
        if not news and pile.cards and top.element == len(pile.cards) - 1:
            pile.hidden_s = 0.0  # the top still shows: nothing landed unseen under the hands before now
        if self._top_read_surely(pile, readings):
            pile.top_read_t = frame.t
        if top.copy and pile.reanchor and top.card == pile.top:
            self._reanchor(pile, top)  # the stack was moved while out of view: its top lies elsewhere now
            top = _Reading(top.sighting, len(pile.cards) - 1)
            news.remove(next(r for r in news if r.sighting is top.sighting))
        pile.reanchor = False
        self._follow(pile, seen)
        pile.angle = top.sighting.angle
        pile.ballot.frame_s = self._dt
        pile.ballot.cast(
            frame.t,
            frame.frame,
            top.card,
            weight_of(top.sighting),
            placement_of(top.sighting),
            read=id(top.sighting) not in taken,
            still_since=None if self._on_top(pile, top.sighting) else top.sighting.still_since,
            identity=top.sighting.identity_confidence,
        )
        together = self._note_pair(pile, [r.sighting for r in news], frame)
        if together is not None:
            return [together]
        pair = pile.conflict
        v = self.settings.voting
        if pair is not None and pair.frames >= 2 and not v.exceeds(frame.t - pair.last_t, v.glimpse_gap_s, self._dt):
            return []  # two new cards are in view together: wait for that vote, not a single card's
        beside = top.copy and any(r.element == len(pile.cards) - 1 for r in readings)
        changes = self._ruling_on_pose(pile, top, frame, beside) or self._ruling_on_top(pile, top)
        if changes or news:
            pile.lift_run = None
            # the top read at a new place (a copy lifted off it, or boxed anew) is no new card: a rearrangement
            # from before it was read there still tells a lift
            news_t = [c.t for c in changes if not (isinstance(c, Landed) and c.copy and c.card == pile.top)]
            if news_t:
                pile.changed_t = min(news_t)
            return changes
        return self._lifted(pile, top, frame)

    def _on_top(self, pile: Pile, sighting: Sighting) -> bool:
        """Whether ``sighting`` lies where the pile's top lies: read as a new card there, it may be the top misread,
        and its picture's stillness says nothing of when a new card came (simulated round, seed 5: an r4 read "r5"
        just before the r5 came down beside it, the r4's picture still for 3 s, dated the r5 3 s early)."""
        pose = pile.poses[-1] if pile.poses else None
        s = self.settings
        return pose is not None and same_pose(pose_of(sighting), pose, s.pose_mm, s.pose_deg)

    def _top_read_surely(self, pile: Pile, readings: list[_Reading]) -> bool:
        """Whether the top is read where it lies in this frame as surely as ``sure_reading`` and ``sure_share`` of
        its surest reading so far ask. A copy of the top's face read in the top's place, turned, is the top boxed
        at another angle as well (a stack's lower cards peeking out make its box swing: two players, seed 123000,
        a b3 read at -14 and +1 degrees in turn, the top taken for -14 after a hand passed: 2 s of readings at +1
        counted as hidden, and the b4 that came after was dated 1.6 s early)."""
        tops = [r.sighting for r in readings if r.element == len(pile.cards) - 1 or self._top_turned(pile, r)]
        if not tops:
            return False
        card, best = pile.top_best
        best = max(best if card == pile.top else 0.0, *(t.identity_confidence for t in tops))
        pile.top_best = (pile.top, best)
        s = self.settings
        return any(weight_of(t) >= s.sure_reading and t.identity_confidence >= s.sure_share * best for t in tops)

    def _top_turned(self, pile: Pile, reading: _Reading) -> bool:
        """Whether ``reading`` is a copy of the top's face lying where the top lies (``pose_mm``), at any angle."""
        pose = pile.poses[-1] if pile.poses else None
        if not reading.copy or reading.card != pile.top or pose is None:
            return False
        x, y, _ = pose_of(reading.sighting)
        return math.dist((x, y), pose[:2]) <= self.settings.pose_mm

    def _lifted(self, pile: Pile, top: _Reading, frame: FrameSightings) -> list[Change]:
        """The legal top read alone, over a picture that came to rest rearranged since it first settled down."""
        moved, still = top.sighting.rearranged_at, top.sighting.still_since
        if moved is None or pile.top is None or top.card != pile.top or pile.legal_top != pile.top:
            return []
        if still is None or frame.t - still < self.settings.lifted_still_s:
            return []  # the picture is still coming to rest: what it settles to is not known yet
        if pile.settled_at is None or moved < pile.settled_at:
            pile.settled_at = moved
            return []
        if moved < pile.settled_at + self.settings.lifted_after_s:
            return []
        before = top.sighting.rearranged_from
        if before is None or pile.changed_t is None or before < pile.changed_t:
            return []  # it differs from a picture before the top came down: its own landing, settling late
        run = pile.lift_run
        if run is None or run[0] != moved:
            run = (moved, 0, frame.t, frame.frame)
        pile.lift_run = run = (run[0], run[1] + 1, run[2], run[3])
        if run[1] < self.settings.lifted_frames:
            return []
        pile.settled_at, pile.lift_run = moved, None
        # said as of when the picture came to rest, not when its reading had lain still long enough to tell
        frame_at = run[3] - round((run[2] - moved) / self._dt) if self._dt > 0 else run[3]
        return [Lifted(pile.id, top.card, moved, max(0, frame_at))]

    def _classify(self, pile: Pile, seen: list[Sighting]) -> list[_Reading]:
        """Which card of the pile each sighting shows; a face the pile holds seen where none of its copies
        lies is a new copy (a repeated or lower number of the same colour, or a second card of a conflict)."""
        s = self.settings
        used: set[int] = set()
        readings = []
        for sighting in sorted(seen, key=weight_of, reverse=True):
            held = [i for i, card in enumerate(pile.cards) if card == sighting.card and i not in used]
            if not held:
                readings.append(_Reading(sighting, -1))
                continue
            pose = pose_of(sighting)
            fits = [i for i in held if (p := pile.poses[i]) is None or same_pose(p, pose, s.pose_mm, s.pose_deg)]
            if not fits:
                readings.append(_Reading(sighting, -1, copy=True))
                continue
            element = max(fits)
            used.add(element)
            readings.append(_Reading(sighting, element))
            known = pile.poses[element]
            if known is not None:
                pile.poses[element] = _blend(known, pose, 0.3)
        return self._one_box_per_card(pile, readings)

    def _one_box_per_card(self, pile: Pile, readings: list[_Reading]) -> list[_Reading]:
        """Drops the second box of a card boxed twice (see ``twin_box_mm``), keeping the box that lies where
        the pile knows the card, else one the rules expect there, else the surer: the two boxes' poses must
        not pass for two copies. Two new faces boxed alike are one card read two ways (the sample's y2 on a
        y1, also boxed with the y1's corner and read "y10"): the rules are the prior."""
        tops = [weight_of(r.sighting) for r in readings if r.element == len(pile.cards) - 1 and r.element >= 0]
        expected = {id(r): self._expected(pile, r.card) for r in readings if r.element < 0}

        def rank(r: _Reading) -> tuple[bool, bool, float]:
            if r.element >= 0:
                return False, False, -weight_of(r.sighting)
            # the card due next, read far more surely than the top beside it, covers the top (see NEW_OVER_TOP)
            over_the_top = bool(tops) and not r.copy and weight_of(r.sighting) >= NEW_OVER_TOP * max(tops)
            return not (over_the_top and expected[id(r)]), not expected[id(r)], -weight_of(r.sighting)

        ranked = sorted(readings, key=rank)
        kept: list[_Reading] = []
        for reading in ranked:
            if not any(self._one_card(pile, k, reading) for k in kept):
                kept.append(reading)
        return kept

    def _one_card(self, pile: Pile, a: _Reading, b: _Reading) -> bool:
        """Whether ``b`` is a second box of the card ``a`` shows (``a`` ranks first, see above): the same face
        (new, or the top's, see ``twin_face_mm``), two new faces, or a new face boxed as the top is in the same
        frame (the top with the strip of the card below it, read "y10" beside the y2 it is: a card slapped on the
        top hides it)."""
        top = a.element == len(pile.cards) - 1 and a.element >= 0
        if a.card == b.card and b.element < 0 and (a.element < 0 or top):
            return _twins(a.sighting, b.sighting, self.settings, same_face=True)
        if not _twins(a.sighting, b.sighting, self.settings):
            return False
        new = b.element < 0 and not b.copy
        return a.card == b.card or (new and ((a.element < 0 and not a.copy) or top))

    def _reanchor(self, pile: Pile, top: _Reading) -> None:
        old = pile.poses[-1]
        if old is None:
            return
        new = pose_of(top.sighting)
        dx, dy = new[0] - old[0], new[1] - old[1]
        pile.poses = [None if p is None else (p[0] + dx, p[1] + dy, p[2]) for p in pile.poses]
        pile.poses[-1] = new

    def _ruling_on_pose(self, pile: Pile, top: _Reading, frame: FrameSightings, beside: bool) -> list[Change]:
        """A new copy of a face the pile holds (it landed), or an older copy of the top showing again (the
        copy above it was picked up): faces alone cannot tell, places can."""
        if top.copy:
            pile.copy_run = self._pose_run(pile.copy_run, pile, top, frame)
            pile.copy_run.beside |= beside
        elif top.element == len(pile.cards) - 1:
            # the top read where it lies: earlier readings elsewhere were noise (a copy reads elsewhere always)
            pile.copy_run = pile.uncover_run = None
        elif top.element >= 0 and top.card == pile.top:
            pile.uncover_run = self._pose_run(pile.uncover_run, pile, top, frame)
        for run in (pile.copy_run, pile.uncover_run):
            if run is None or not self._won(pile, run):
                continue
            pile.copy_run = pile.uncover_run = None
            if run is not None and run.element < 0:
                alt = self._read_as_expected(pile, run.card, run.placement, run.first_t)
                if alt is not None:
                    return [self._land_misread(pile, alt, run.card, run.placement, (run.first_t, run.first_frame))]
                if self._unproven_lower(top, run.card, run.first_t, pile):
                    return []  # a lower card of the stack's own run: only a picture rearranged says it came down
                again = self._lies_again(pile, run.card, run.placement, run.first_t)
                args = (pile, run.card, run.first_t, run.first_frame, run.placement)
                return [self._land(*args, copy=True, again=again, beside=run.beside)]
            return self._uncover(pile, run.card, run.element, run.last_t)
        return []

    def _pose_run(self, run: _PoseRun | None, pile: Pile, top: _Reading, frame: FrameSightings) -> _PoseRun:
        element = top.element if not top.copy else -1
        s = self.settings
        p = run.placement if run is not None else None
        moved = p is None or not same_pose((p.x, p.y, p.angle), pose_of(top.sighting), s.pose_mm, s.pose_deg)
        v = s.voting
        fresh = run is None or run.card != top.card or run.element != element or (element < 0 and moved)
        if run is None or fresh or v.exceeds(frame.t - run.last_t, v.max_gap_s, self._dt):
            at, weight = placement_of(top.sighting), weight_of(top.sighting)
            return _PoseRun(top.card, element, frame.t, frame.frame, frame.t, pile.frames_seen, at, weight=weight)
        run.last_t = frame.t
        run.frames += 1
        run.weight += weight_of(top.sighting)
        return run

    def _note_top_reads(self, pile: Pile, readings: list[_Reading], t: float) -> None:
        for reading in readings:
            if pile.top is not None and reading.card == pile.top:
                pile.top_reads.append((t, pose_of(reading.sighting), reading.element < 0))
                if reading.element >= 0:
                    kept = pile.top_area[1] if pile.top_area[0] == pile.top else 0.0
                    pile.top_area = (pile.top, max(kept, abs(polygon_area(reading.sighting.quad))))
        while pile.top_reads and pile.top_reads[0][0] < t - TOP_READS_S:
            pile.top_reads.popleft()

    def _misread_top(self, pile: Pile, reading: _Reading) -> bool:
        """Whether a copy of a lower card is read where the top was read lately: the top misread (an r4 read
        "r1" in some frames and "r4" in others, seed 99000), or a lower card's corner boxed as a card, not an r1
        slapped on the r4, which would hide it. Where the vision side tells how the picture came to rest, a lower
        card of the stack's run is left to the ruling instead, which waits for the picture to come to rest
        rearranged (see ``TrackerSettings.lower_needs_rearranged``): voted from its first reading, it is ruled once
        the picture tells a card came down (seed 109002, two players: a g4 slapped 15 mm off its g9, read surely in
        the g9's box for 0.4 s, the picture at rest rearranged for its last 0.13 s, was never ruled on)."""
        if not reading.copy or reading.card == pile.top:
            return False
        pose, s = pose_of(reading.sighting), self.settings
        if s.lower_needs_rearranged and _clocked(reading.sighting) and _lower_of_run(pile.legal_top, reading.card):
            return False
        return any(same_pose(top, pose, s.pose_mm, s.pose_deg) for _, top, _ in pile.top_reads)

    def _flickers(self, pile: Pile, run: _PoseRun) -> bool:
        """Whether a copy of the top is the top boxed two ways in turn: its face was read at the copy's place
        before, then at the top's own place, then at the copy's again (within ``TOP_READS_S``). A second card
        slapped on the top hides it for good; one card boxed now with the strip beneath it, now alone, turns
        its box to and fro (seed 99202, four players: a g2 on a g1 read at 18 and 30 degrees in turn for
        seconds, a false "g2 on g2")."""
        if run.card != pile.top or run.placement is None:
            return False
        s, pose = self.settings, (run.placement.x, run.placement.y, run.placement.angle)
        before = [
            t for t, p, copy in pile.top_reads if copy and t < run.first_t and same_pose(p, pose, s.pose_mm, s.pose_deg)
        ]
        return bool(before) and any(not copy and before[0] < t < run.first_t for t, _, copy in pile.top_reads)

    def _won(self, pile: Pile, run: _PoseRun) -> bool:
        v = self.settings.voting
        share = run.frames / max(1, pile.frames_seen - run.since + 1)
        if run.element < 0:  # a second copy of a card the pile holds: never a legal play, so the strict bar
            return (
                not self._flickers(pile, run)
                and self._moved_lately(pile, run.first_t)
                and self._settled(pile, run.card, run.first_t)
                and v.convincing(run.frames, run.last_t - run.first_t, share, self._dt, run.weight / run.frames)
            )
        lasted = v.lasted(run.last_t - run.first_t, v.min_span_s, self._dt)
        return run.frames >= v.min_frames and lasted and share >= v.min_share

    def _follow(self, pile: Pile, seen: list[Sighting]) -> None:
        """Moves the pile's position towards the middle of its visible cards: near the stack's base whatever
        the slaps, and along with the stack when it is nudged. A card read that can be neither in the stack nor
        due on it is a stranger lying there (a mistake, or a card on its way), not the stack moved: the stack
        stays where its own cards lie."""
        if pile.cards:
            seen = [s for s in seen if s.card is None or s.card in pile.cards or _above(pile.cards[-1], s.card)]
            if not seen:
                return
        a = self.settings.smoothing
        x = sum(s.centre[0] for s in seen) / len(seen)
        y = sum(s.centre[1] for s in seen) / len(seen)
        pile.x, pile.y = a * x + (1 - a) * pile.x, a * y + (1 - a) * pile.y

    def _note_pair(self, pile: Pile, news: list[Sighting], frame: FrameSightings) -> Together | None:
        """Two or more new cards read on the pile together, frame after frame: a conflict once voted. A copy of a
        face the pile already holds is no new card here: two players slap the *next* card together, while the top
        (or a card under it) boxed twice, once with a strip of its neighbour, reads as two copies of itself (seed
        99002 four players: an r10 on a full stack, ruled illegal twice), and the top boxed anew beside a misread
        made a "pair" of the top, landed 6 s before, and the misread (seed 99000 four players: r5 and "r9", both
        ruled illegal). A second copy of the top is the judge's to rule on (its twin)."""
        v = self.settings.voting
        cards = tuple(sorted(s.card for s in news if s.card is not None and s.card not in pile.cards))
        cards = tuple(card for card in cards if self._pairs_up(pile, card, cards))
        if len(cards) < 2:
            return None
        run = pile.conflict
        if run is None or run.cards != cards or v.exceeds(frame.t - run.last_t, v.max_gap_s, self._dt):
            run = pile.conflict = _PairRun(cards, frame.t, frame.frame, frame.t, 0, placement_of(news[0]))
        run.last_t = frame.t
        run.frames += 1
        if run.frames < v.min_frames or not v.lasted(run.last_t - run.first_t, v.min_span_s, self._dt):
            return None
        pile.conflict = None
        # the pair came down under the hands that hid the pile before it was read, as a lone card does (Landed.down)
        early = halfway_hidden(run.first_t, pile.hidden_s)
        pile.hidden_s = 0.0
        pile.cards.extend(cards)
        seen = []
        for card in cards:
            alone = pile.ballot.run(card)
            seen.append((alone.first_t, alone.first_frame) if alone is not None else (run.first_t, run.first_frame))
        pile.removable.extend(True for _ in cards)
        pile.poses.extend(None for _ in cards)
        pile.ballot.restart(keep=cards[-1])
        down = run.first_t - early, frame_before(run.first_t, run.first_frame, early)
        return Together(pile.id, cards, *down, run.placement, tuple(seen))

    def _pairs_up(self, pile: Pile, card: Card, cards: tuple[Card, ...]) -> bool:
        """Whether ``card`` read with ``cards`` may have landed with them: the rules expect it, it follows one of
        them (b2 and b3 played faster than the camera saw), or two copies of it came down (two players slapped the
        same card). Another card read beside them is a misread and must win its own vote: a pair is voted in at the
        usual bar, and an illegal card in it is ruled on at once (seed 99900, two players: a b2 on a b1 boxed
        twice, once with the b1's strip, read "b5", ruled illegal as a pair)."""
        return cards.count(card) > 1 or self._expected(pile, card) or any(card.follows(c) for c in cards)

    def _ruling_on_top(self, pile: Pile, latest: _Reading) -> list[Change]:
        """The ballot's winner ruled on (``latest``: this frame's reading of the pile, whose picture tells how it
        came to rest)."""
        winner = pile.ballot.winner(
            expected=lambda card: self._expected(pile, card),
            doubtful=lambda run: self._in_top_box(pile, run) and not self._came_down(latest, run.first_t, pile),
            leap=lambda card: self._leap(pile, card),
        )
        if winner is None or winner.card == pile.top:
            return []
        if not self._moved_lately(pile, winner.first_t) and not self._came_unread(pile, latest, winner):
            return []  # a face read anew where nothing moved since the top showed: the still top misread
        if not self._settled(pile, winner.card, winner.first_t):
            return []  # read only while moving: a card in a hand, or one still being slapped
        if not self._expected(pile, winner.card) and self._rests_as_before(latest, winner.card, winner.first_t, pile):
            return []  # the picture came to rest as it lay under the top: a hand passed, the top misread
        if self._unproven_lower(latest, winner.card, winner.first_t, pile):
            return []  # a lower card of the stack's own run: only a picture rearranged says it came down
        if not pile.tentative and winner.placement is not None and not self._expected(pile, winner.card):
            alt = self._read_as_expected(pile, winner.card, winner.placement, winner.first_t)
            if alt is not None:
                since = (winner.first_t, winner.first_frame)
                return [self._land_misread(pile, alt, winner.card, winner.placement, since)]
        if pile.tentative and self._part_of_a_stack(pile, winner.card):
            pile.gone = True  # a lower card of a neighbouring stack showing beside its top: not a new pile
            return []
        moved = self._moved_stack(pile, winner.card) if pile.tentative else None
        if moved is not None:
            pile.gone = True
            moved.x, moved.y, moved.reanchor = pile.x, pile.y, True
            moved.missing_since, moved.last_seen_t = None, winner.last_t
            if winner.card == moved.top:
                return []
            moved.ballot = pile.ballot
            return [self._land(moved, winner.card, winner.first_t, winner.first_frame, winner.placement, lay=winner)]
        height = _height_in(pile.cards, winner.card)
        if height >= 0 and all(pile.removable[height + 1 :]):
            return self._uncover(pile, winner.card, height, winner.last_t)
        if height >= 0:
            # a legal card cannot leave the stack, and the top would outvote a lower card still showing: a new
            # copy of the lower card covers the top, landing where the old copy lies (b9 on b10 over b9)
            again = self._lies_again(pile, winner.card, winner.placement, winner.first_t)
            at, when = winner.placement, (winner.first_t, winner.first_frame)
            return [self._land(pile, winner.card, *when, at, copy=True, again=again)]
        places = self._places(winner)
        again = self._lies_again(pile, winner.card, places[0][2], places[0][0])
        first = self._land(pile, winner.card, winner.first_t, winner.first_frame, places[0][2], again=again, lay=winner)
        if len(places) < 2:
            return [first]
        t, frame, placement = places[-1]  # a second copy landed while the first was being voted on
        return [first, self._land(pile, winner.card, t, frame, placement, copy=True)]

    def _read_as_expected(self, pile: Pile, card: Card, placement: Placement | None, since: float) -> Candidate | None:
        """The card the rules expect next (no leap over unseen cards), read in the very place of ``card`` (which
        they do not expect, and which was read lying still there) since the pile last changed, and still after
        ``card`` was first read (at ``since`` if not recorded): one card read two ways, and the rules are the prior
        (seed 99901, two players: a g7 landing on its g6 read "g1" at 0.9 in most frames and "g7" in a few, 6 mm
        apart; ruled "g1 on g7"). A card slapped on a card that has not yet won its vote lies off or turned, not
        in its box; one read only before ``card`` was covered by it."""
        if placement is None or card == pile.top:  # the top boxed anew: no ruling to overturn
            return None
        s = self.settings
        at = (placement.x, placement.y, placement.angle)
        for run in pile.ballot.glimpsed():
            if run.card == card or run.card in pile.cards or run.frames < 2 or run.weight < 1.0:
                continue  # read as often as a glimpsed card must be (see :meth:`_land`)
            if run.last_t < pile.first_reads.get(card, since):
                continue  # read only before: glimpsed, then covered by ``card`` (a y3 under a y4 slapped on it)
            places = [(p.x, p.y, p.angle) for _, _, p in run.trail if p is not None]
            if not any(same_pose(p, at, s.pose_mm, s.pose_deg) for p in places):
                continue
            top = pile.legal_top
            following = run.card.number == LOWEST if top is None else run.card.follows(top)
            if following and self._expected(pile, run.card):
                return run
        return None

    def _land_misread(
        self, pile: Pile, alt: Candidate, misread: Card, at: Placement, first: tuple[float, int]
    ) -> Landed:
        """``alt`` lands, read as ``misread`` where it lies (at ``at``, first at ``first``): it came down when first
        read either way, and ``misread`` read there again is it (:attr:`Pile.alias`)."""
        self._read_as_top(pile, alt)
        t, frame = min((alt.first_t, alt.first_frame), first)
        landed = self._land(pile, alt.card, t, frame, alt.placement)
        pile.alias = (misread, (at.x, at.y, at.angle))
        return landed

    def _as_due(self, pile: Pile, sighting: Sighting) -> Sighting:
        """``sighting`` read as its runner-up where that is the card due on ``pile`` (or the top a misreading was
        already taken for), the card read would be a mistake there, and the rules' odds (``rules_odds``) make the
        runner-up the likelier (see the setting)."""
        card, rival, odds = sighting.card, sighting.runner_up, self.settings.rules_odds
        if card is None or rival is None or odds <= 0.0 or rival.colour != card.colour:
            return sighting  # a colour is read off the whole card: only the digits are so confused
        rival_weight = odds * sighting.runner_up_confidence
        if rival_weight < sighting.identity_confidence:
            return sighting
        top = pile.legal_top
        next_one = rival.number == LOWEST if pile.tentative or top is None else rival.follows(top)
        # the top only as the card a misreading was already taken for: a card landing on the top is read with
        # the top second now and then, and those readings must not vote for the top (a b7 on its b6, 3 s late)
        still_it = top is not None and rival == top and pile.taken_for.get(card) == top
        if not (next_one or still_it) or self._expected(pile, card):
            return sighting
        pile.taken_for[card] = rival
        belief = rival_weight / (rival_weight + sighting.identity_confidence)
        return replace(
            sighting, card=rival, identity_confidence=belief, runner_up=card, runner_up_confidence=1.0 - belief
        )

    def _top_second(self, pile: Pile, sighting: Sighting) -> bool:
        """Whether ``sighting`` reads a card that would be a mistake on ``pile`` with the pile's top a strong second
        (see ``TrackerSettings.top_odds``)."""
        card, rival, top = sighting.card, sighting.runner_up, pile.legal_top
        if card is None or top is None or rival != top or card.colour != top.colour:
            return False
        odds = self.settings.top_odds
        return odds * sighting.runner_up_confidence >= sighting.identity_confidence and not self._expected(pile, card)

    def _unaliased(self, pile: Pile, seen: list[Sighting]) -> list[Sighting]:
        """``seen`` with the top's misreading where it lies (:attr:`Pile.alias`) read as the top."""
        if pile.alias is None or pile.top is None:
            return seen
        card, pose = pile.alias
        s = self.settings
        return [
            replace(x, card=pile.top) if x.card == card and same_pose(pose_of(x), pose, s.pose_mm, s.pose_deg) else x
            for x in seen
        ]

    @staticmethod
    def _read_as_top(pile: Pile, run: Candidate) -> None:
        """Counts ``run``'s readings, made before its card became the top, as readings of the top where it lies:
        the other reading of that card in its box is then the top misread (see :meth:`_misread_top`). (:meth:`_land`
        counts them for :meth:`_moved_lately` too, as for every card voted in.)"""
        reads = [(t, (p.x, p.y, p.angle), False) for t, _, p in run.trail if p is not None]
        pile.top_reads = deque(sorted([*pile.top_reads, *reads], key=lambda r: r[0]))

    def _expected(self, pile: Pile, card: Card) -> bool:
        """Whether ``card`` could lie on ``pile`` legally: a 1 on a new pile; on a stack, a higher card of its
        colour (the next one, or one that others hidden under a hand lead up to); or a card it holds showing
        again. The tracker is physical, but it knows what the judge settled, and the rules are its prior."""
        height = _height_in(pile.cards, card)
        if height >= 0:  # the top, or a card showing again once the illegal cards above it are picked up
            return all(pile.removable[height + 1 :])
        top = pile.legal_top
        if pile.tentative or top is None:
            return card.number == LOWEST or self._moved_stack(pile, card) is not None
        if card.colour != top.colour or card.number <= top.number:
            return False
        unseen = card.number - top.number - 1  # cards that must have landed under a hand meanwhile
        # hidden before the card first showed: the time it has been read since hid nothing under it
        run = pile.ballot.run(card)
        shown = self._t if run is None else run.first_t
        return unseen == 0 or self._hidden_s(pile, shown) >= unseen * InferenceSettings().seconds_per_hidden_play

    def _note_change(self, pile: Pile, seen: list[Sighting], t: float) -> None:
        """Records when the picture at the pile last changed, as its sightings tell (None: they cannot tell)."""
        stamps = [sighting.still_since for sighting in seen if sighting.still_since is not None]
        known = next((changed for _, changed in reversed(pile.changes) if changed is not None), None)
        latest = max(stamps if known is None else [*stamps, known]) if stamps else None
        pile.changes.append((t, latest))
        while pile.changes[0][0] < t - CHANGES_KEPT_S:
            pile.changes.popleft()

    def _moved_lately(self, pile: Pile, first_t: float) -> bool:
        """Whether the picture at ``pile`` changed shortly before a card was first read there at ``first_t``, as
        it does when a card lands (see ``TrackerSettings.still_lead_s``), and after the top was last read where
        it lies: a card read anew on a picture that has not changed since the top showed is the top misread. A
        change after ``first_t`` (a hand coming for the next play) does not make a misread before it a landing.
        True when the sightings do not tell."""
        lead = self.settings.still_lead_s
        by_then = [changed for at, changed in pile.changes if at <= first_t + 1e-6]
        changed = by_then[-1] if by_then else None
        oldest = pile.changes[0][1] if pile.changes else None
        if not by_then and oldest is not None and oldest <= first_t:
            # the record of ``first_t`` is forgotten (a vote that went on for seconds), but nothing changed
            # between then and the oldest record: that record's latest change was the latest at ``first_t``
            changed = oldest
        if lead is None or changed is None:
            return True
        top_before = [at for at in pile.top_seen if at < first_t - 1e-6]
        return changed >= first_t - lead and (not top_before or changed >= top_before[-1])

    def _came_unread(self, pile: Pile, latest: _Reading, winner: Candidate) -> bool:
        """Whether the card ``winner`` starting the new ``pile`` (no top to misread) lies where the picture came to
        rest rearranged and has lain still since, at most ``unread_landing_s`` before it was first read: a card
        put down whose landing the detector missed (two players on a grass cloth, seed 123004: a b1 read once as
        it landed, its pile let go, then read in every frame from 2 s on while the picture lay still). A pattern
        of the cloth misread as a card never came to rest rearranged."""
        still, moved = latest.sighting.still_since, latest.sighting.rearranged_at
        limit = self.settings.unread_landing_s
        if not pile.tentative or latest.card != winner.card or still is None or moved is None or limit is None:
            return False
        return still <= winner.first_t <= still + limit

    def _rests_as_before(self, latest: _Reading, card: Card, first_t: float, pile: Pile) -> bool:
        """Whether ``card``, read in this frame (``latest``), lies where the picture has lain still long enough to
        be compared (see ``lifted_still_s``) and was last rearranged before the top was last read where it lies,
        before ``card`` first showed: nothing came down since (see ``TrackerSettings.rest_as_before``). False when
        the sightings do not tell."""
        if not self.settings.rest_as_before or latest.card != card:
            return False
        still, moved = latest.sighting.still_since, latest.sighting.rearranged_at
        if still is None or moved is None or self._t - still < self.settings.lifted_still_s:
            return False
        return self._top_read_since(moved, first_t, pile)

    @staticmethod
    def _top_read_since(moved: float, first_t: float, pile: Pile) -> bool:
        """Whether the top was read where it lies after the picture was last rearranged (at ``moved``) and before
        the card read anew first showed (at ``first_t``): nothing came down in between."""
        last = _top_read_before(pile, first_t)
        return last is not None and moved < last

    def _unproven_lower(self, latest: _Reading, card: Card, first_t: float, pile: Pile) -> bool:
        """Whether ``card`` is a lower card of the stack's own run (its colour, below its legal top) without the
        picture proving a card came down: the picture at the pile in this frame's reading (``latest``, which may
        already be the top read again) must have come to rest rearranged since the top was last read where it lies
        (see ``TrackerSettings.lower_needs_rearranged``); until it has, the card is not ruled on, however briefly
        the picture then came to rest (a card taken back at once may never lie still long). The card just under
        the top, read within ``TrackerSettings.below_top_s`` of the top's landing, is held back whatever the picture
        did (the top's own slap rearranged it). False when the sightings do not tell."""
        top, s = pile.legal_top, self.settings
        if not s.lower_needs_rearranged or top is None or pile.tentative or not _lower_of_run(top, card):
            return False
        if card.number == top.number - 1 and pile.changed_t is not None and first_t - pile.changed_t < s.below_top_s:
            return True  # the card under the top, read as the top settles: its picture, or the top misread
        moved = latest.sighting.rearranged_at
        if moved is None or not _clocked(latest.sighting):
            return False  # no change clock, or one that has never seen the pile come to rest: the readings decide
        return self._top_read_since(moved, first_t, pile) and not self._shown_over_the_top(pile, card, first_t)

    def _shown_over_the_top(self, pile: Pile, card: Card, first_t: float) -> bool:
        """Whether ``card`` was read surely (see ``VotingSettings.sure_weight``) off the top's own box while the top
        was read no more: a card lying on it, though the picture, a card of the top's colour on it, changed too
        little for the change clock to mark (seed 125005, four players: a y6 on a full yellow stack, read at 0.93
        for 0.8 s, never ruled). The card just under the top is not: it shows whenever the top is lifted off it (the
        centre gathered after the stop, seed 128000: a b7 ruled a wrong number as its b8 was picked up)."""
        top = pile.legal_top
        if top is None or card.number == top.number - 1:
            return False
        run = pile.ballot.run(card)
        if run is None or run.frames == 0 or run.weight / run.frames < self.settings.voting.sure_weight:
            return False
        top_since = any(t >= first_t - 1e-6 and not copy for t, _, copy in pile.top_reads)
        return not top_since and not self._in_top_box(pile, run)

    def _note_settled(self, pile: Pile, t: float) -> None:
        settle = self.settings.settle_s
        if settle is not None:
            pile.settled.update((card, t) for card, still in pile.news_still if t - still >= settle)

    def _settled(self, pile: Pile, card: Card, since: float) -> bool:
        """Whether ``card`` was read lying still on ``pile`` (see ``TrackerSettings.settle_s``) since it was
        first read there at ``since`` (a copy of the top read still seconds ago, then swinging to and fro under a
        passing hand, is no card landing now); True when the sightings do not tell."""
        unknown = not pile.changes or pile.changes[-1][1] is None
        return self.settings.settle_s is None or unknown or pile.settled.get(card, -math.inf) >= since - 1e-6

    def _leap(self, pile: Pile, card: Card) -> bool:
        """Whether ``card`` on ``pile`` would mean several cards landed unseen first (a y10 on a y6): such a
        story needs the strict bar's evidence (see :meth:`Ballot.winner`); one unseen card is common (a hand
        over the stack while the next two land)."""
        top = pile.legal_top
        return top is not None and card.colour == top.colour and card.number > top.number + 2

    def _in_top_box(self, pile: Pile, run: Candidate) -> bool:
        """Whether a new face is read in the top card's own box (its readings' mean place within
        ``misread_box_mm`` and ``misread_box_deg`` of the top's): a misread of the top more likely than a card
        slapped on it."""
        top = pile.poses[-1] if pile.poses else None
        places = [p for _, _, p in run.trail if p is not None]
        if top is None or not places:
            return False
        mean = places[0].x, places[0].y, places[0].angle
        for n, p in enumerate(places[1:], start=2):  # the mean place: one reading's jitter says little
            mean = _blend(mean, (p.x, p.y, p.angle), 1.0 / n)
        s = self.settings
        return same_pose(top, mean, s.misread_box_mm, s.misread_box_deg)

    def _came_down(self, latest: _Reading, first_t: float, pile: Pile) -> bool:
        """Whether the picture at the pile came to rest rearranged after the top was last read there before a new
        face first showed (at ``first_t``; ``latest``: this frame's reading of the pile): a card came down on the
        top, so a face read in the top's own box is that card, not the top misread (whose picture lies as it did).
        False when the sightings do not tell."""
        moved = latest.sighting.rearranged_at
        if moved is None or not _clocked(latest.sighting):
            return False
        last = _top_read_before(pile, first_t)
        return last is not None and moved >= last

    def _hidden_s(self, pile: Pile, t: float) -> float:
        """How long before ``t`` the pile's top may have been covered: out of view, or not read surely."""
        unsure = 0.0 if pile.top_read_t is None else max(0.0, t - pile.top_read_t - self._dt)
        return max(pile.hidden_s, unsure)

    def _places(self, run: Candidate) -> list[tuple[float, int, Placement | None]]:
        """Where a face was read during its vote: once, or at two places (a second copy landed meanwhile).
        Readings are grouped around their running mean; a group counts from 3 readings, so lone misreads of a
        card beside it do not make a second place. Returns (first time, first frame, place) oldest first."""
        s = self.settings
        groups: list[tuple[float, int, Pose, int, Placement]] = []
        for t, frame, placement in run.trail:
            if placement is None:
                continue
            pose = (placement.x, placement.y, placement.angle)
            if groups and same_pose(groups[-1][2], pose, s.pose_mm, s.pose_deg):
                t0, f0, mean, n, _ = groups[-1]
                groups[-1] = (t0, f0, _blend(mean, pose, 1.0 / (n + 1)), n + 1, placement)
            else:
                groups.append((t, frame, pose, 1, placement))
        held = [g for g in groups if g[3] >= 3]
        if len(held) < 2 or same_pose(held[0][2], held[-1][2], s.pose_mm, s.pose_deg):
            return [(run.first_t, run.first_frame, held[-1][4] if held else run.placement)]
        return [(run.first_t, run.first_frame, held[0][4]), (held[-1][0], held[-1][1], held[-1][4])]

    def _lies_again(self, pile: Pile, card: Card, placement: Placement | None, t: float) -> bool:
        """Whether ``card`` was picked up from ``pile`` and now shows where it lay, first read again at ``t``
        within :data:`TAKEN_KEPT_S` (see :attr:`Landed.again`)."""
        if placement is None:
            return False
        s, pose = self.settings, (placement.x, placement.y, placement.angle)
        mm, deg = 2 * s.pose_mm, 2 * s.pose_deg  # two readings' jitter apart, and no hand puts a card back so near
        return any(c == card and same_pose(p, pose, mm, deg) and t - when <= TAKEN_KEPT_S for c, p, when in pile.taken)

    def _land(
        self,
        pile: Pile,
        card: Card,
        t: float,
        frame: int,
        placement: Placement | None,
        *,
        copy: bool = False,
        again: bool = False,
        beside: bool = False,
        lay: Candidate | None = None,
    ) -> Landed:
        runs = [
            c
            for c in pile.ballot.glimpsed()
            if c.card not in pile.cards and c.card != card and c.frames >= 2 and c.read_weight >= 1.0
        ]
        glimpsed = tuple(c.card for c in runs)
        gap = pile.gap
        hidden_from = (gap[0], gap[1]) if gap is not None and 0.0 <= t - gap[2] <= 0.4 else None
        covered = self._covered(pile, card, t)
        hidden_s = pile.hidden_s if copy else self._hidden_s(pile, t)
        quiet_at = _quiet_before(pile.changes, t)
        change = Landed(
            pile.id,
            card,
            t,
            frame,
            placement,
            hidden_s,
            glimpsed,
            copy,
            hidden_from,
            covered,
            again,
            beside,
            tuple((c.card, *c.lay_since) for c in runs),
            glimpsed_until=tuple((c.card, c.last_t, c.trail[-1][1] if c.trail else c.first_frame) for c in runs),
            lay_since=None if lay is None else pile.ballot.lay_since(lay),
            quiet_at=quiet_at,
        )
        run = pile.ballot.run(card)
        if run is not None and not copy:
            # its vote's readings were readings of the top where it lies: a face read anew there after them with
            # nothing moved is a misread (a still picture's frames are not read again, so the top may not be read
            # again before it: seed 99904, two players, a y3 read "y5" in the y3's box after its vote)
            pile.top_seen = deque(sorted([*pile.top_seen, *(at for at, _, _ in run.trail if at >= t)]))
        pile.alias = None
        pile.first_reads = {}
        pile.cards.append(card)
        pile.removable.append(True)  # until the judge settles it
        pile.poses.append(None if placement is None else (placement.x, placement.y, placement.angle))
        pile.hidden_s = 0.0
        pile.top_read_t = t
        pile.copy_run = pile.uncover_run = None
        pile.ballot.restart(keep=card)
        pile.settled.clear()
        pile.news_still = []
        return change

    def _covered(self, pile: Pile, card: Card, t: float) -> tuple[tuple[Card, float, int], ...]:
        """See :attr:`Landed.covered`."""
        old = pile.ballot.run(pile.top) if pile.top is not None else None
        since = old.last_t if old is not None else -math.inf
        reach = self.settings.voting.max_gap_s  # covered by the new card's hand, not read long before (a misread)
        return tuple(
            (c.card, *c.lay_since)
            for c in pile.ballot.glimpsed()
            if c.card not in pile.cards
            and c.card != card
            and since < c.first_t
            and 0.0 < t - c.last_t <= reach
            # one sure reading at least: an unsure misread must not start a cascade, nor a card only the rules took
            # a reading for (a y2 slapped on an empty spot, read "y1" 4 % once, is no y1 covered: seed 100605)
            and c.read_weight >= 0.5
            # read lying still, as a landing is (``settle_s``): a card in a hand passing over the stack, read once
            # as it goes by, lies under nothing (seed 101022, two players: an r5 in flight read as the r6 landed,
            # so the r6 was "r5 and r6 played", and the r5 that came down on it "r5 on r6")
            # (or read over several frames: a card lying a quarter of a second between two slaps is never still
            # for long, the next hand already over it; seed 101022's r5 was read once)
            and (self._settled(pile, c.card, c.first_t) or c.span_s >= COVERED_SPAN_S)
        )

    def _part_of_a_stack(self, pile: Pile, card: Card) -> bool:
        """A new pile whose card lies in a stack close by is that stack's lower card showing, unless it is a 1:
        a 1 next to a stack of its colour is how a second stack of that colour starts."""
        if card.number == LOWEST:
            return False
        reach = 2 * self.settings.known_gate_mm
        return any(
            other is not pile and card in other.cards and math.dist(other.position, pile.position) <= reach
            for other in self.stacks
        )

    def _uncover(self, pile: Pile, card: Card, height: int, t: float) -> list[Change]:
        """``card`` is on top again. Only illegal cards can have been picked up; the legal run stays."""
        if not all(pile.removable[height + 1 :]):
            return []  # a legal card cannot have left the stack: the reading is a misread, ignore it
        removed = tuple(reversed(pile.cards[height + 1 :]))
        lay = zip(pile.cards[height + 1 :], pile.poses[height + 1 :], strict=True)
        pile.taken = [*pile.taken, *((card, pose, t) for card, pose in lay if pose is not None)][-8:]
        pile.cards, pile.removable = pile.cards[: height + 1], pile.removable[: height + 1]
        pile.poses = pile.poses[: height + 1]
        pile.copy_run = pile.uncover_run = None
        pile.ballot.restart(keep=card)
        run = pile.ballot.run(card)
        frame = run.first_frame if run is not None else self._frame
        return [Uncovered(pile.id, card, removed, run.first_t if run is not None else t, frame)]

    def _age(self, pile: Pile, frame: FrameSightings) -> list[Change]:
        s = self.settings
        pile.ballot.tick(frame.t)
        if pile.missing_since is None:
            pile.missing_since = (frame.t, frame.frame)
        unseen = frame.t - pile.last_seen_t
        if pile.tentative:
            if unseen > s.tentative_ttl_s:
                pile.gone = True
            return []
        limit = s.loose_lost_s if pile.legal_top is None else s.lost_after_s
        if unseen > limit:
            return [self.remove(pile.id)]
        return []


# ------------------------------------------------------------------------------------------------ helpers


def _blend(old: Pose, new: Pose, share: float) -> Pose:
    """Moves ``old`` towards ``new`` by ``share``, the angle the short way round modulo a quarter turn (see
    :func:`same_pose`: a reading flipped by 90 degrees is the same card, and must not drag the angle off)."""
    turn = (new[2] - old[2] + 45.0) % 90.0 - 45.0
    return (old[0] + share * (new[0] - old[0]), old[1] + share * (new[1] - old[1]), old[2] + share * turn)


def _uppermost(readings: list[_Reading]) -> _Reading:
    """The reading of the card that lies uppermost among cards the pile holds: the highest in the stack of those
    read at least half as surely as the surest. A card slapped squarely where its own copy lies lower in the stack
    reads as that copy, surely, while a higher card's strip beside it reads weakly (seed 101011, four players: a
    y4 on the full y10 stack read at 0.78 for half a second, a y8's strip at 0.3: the y8 was voted, and the y4
    never ruled on)."""
    surest = max(weight_of(r.sighting) for r in readings)
    return max((r for r in readings if weight_of(r.sighting) >= 0.5 * surest), key=lambda r: r.element)


def _clocked(sighting: Sighting) -> bool:
    """Whether the vision side told how the picture at ``sighting`` came to rest."""
    return sighting.still_since is not None and sighting.rearranged_at is not None


TURNED_NUMBERS = frozenset({6, 9})
"""The numbers a card's own print cannot tell apart from one end: a 6 and a 9 carry no underline, and each end of
a card shows its digit, the lower one turned half round (``card-look.md``)."""
PIECE_SHARE = 0.7
"""A box under this share of the top's largest box where it lies (:attr:`Pile.top_area`) shows a piece of a card:
a card's box varies with the hands over it and the camera's angle, the same card's where it lies far less."""


def _as_top_if_turned(pile: Pile, sighting: Sighting) -> Sighting:
    """``sighting`` read as the pile's top where it reads the top turned: a 6 where the top is the 9 of its colour
    (or a 9 on a 6), boxed as a piece of it (:data:`PIECE_SHARE`). A piece shows one end of a card, whose digit
    reads the same whichever end it is, so the piece is the top's, half under a hand (seed 111004, four players: a
    g6 half under the arm that played beside it, boxed as its lower half at half its whole box, read "g9" at
    0.92-0.99 for half a second, a false "g9 on g6"). Read as the top, it shows the top still lies there (no
    reading at all would make the stack look hidden, and the next card be dated into the gap); a real 9 on the 6 is
    read once it shows whole."""
    card, top = sighting.card, pile.legal_top
    if card is None or top is None or card.colour != top.colour or {card.number, top.number} != TURNED_NUMBERS:
        return sighting
    if top != pile.top_area[0] or abs(polygon_area(sighting.quad)) >= PIECE_SHARE * pile.top_area[1]:
        return sighting
    return replace(sighting, card=top, runner_up=card, runner_up_confidence=0.0)


def _top_read_before(pile: Pile, first_t: float) -> float | None:
    """When the top was last read where it lies before ``first_t`` (None: not within :data:`CHANGES_KEPT_S`)."""
    before = [at for at in pile.top_seen if at < first_t - 1e-6]
    return before[-1] if before else None


def _lower_of_run(top: Card | None, card: Card) -> bool:
    """Whether ``card`` is a lower card of the run topped by ``top``."""
    return top is not None and card.colour == top.colour and card.number < top.number


def _above(top: Card, card: Card) -> bool:
    """Whether ``card`` may lie on a stack topped by ``top``, cards between landing unseen."""
    return card.colour == top.colour and card.number > top.number


def _is_one(sighting: Sighting) -> bool:
    return sighting.card is not None and sighting.card.number == LOWEST


def _height_in(cards: list[Card], card: Card | None) -> int:
    """Index of the highest ``card`` in ``cards`` (bottom first), -1 if absent."""
    for index in range(len(cards) - 1, -1, -1):
        if cards[index] == card:
            return index
    return -1


def _new_cards(cards: list[Card], seen: list[Sighting]) -> list[Sighting]:
    """Sightings of cards the pile does not hold yet, counting copies (two r5 on one r5: one is new)."""
    held = Counter(cards)
    news = []
    for sighting in sorted(seen, key=weight_of, reverse=True):
        if sighting.card is not None and held[sighting.card] > 0:
            held[sighting.card] -= 1
        else:
            news.append(sighting)
    return news


def _without_duplicates(sightings: list[Sighting], within_mm: float) -> list[Sighting]:
    """One sighting per card per spot: the vision side may report a card twice."""
    kept: list[Sighting] = []
    for sighting in sorted(sightings, key=weight_of, reverse=True):
        if not any(k.card == sighting.card and math.dist(k.centre, sighting.centre) < within_mm for k in kept):
            kept.append(sighting)
    return kept


def _twins(a: Sighting, b: Sighting, settings: TrackerSettings, same_face: bool = False) -> bool:
    """Whether two boxes show one card (see ``TrackerSettings.twin_box_mm``; ``same_face``: two new readings
    of one face, ``twin_face_mm``).

    >>> s, y4 = TrackerSettings(), Card.parse("y4")
    >>> box = Sighting.face_at(y4, (0, 0), angle=-24)
    >>> _twins(box, Sighting.face_at(y4, (9, 8), angle=66), s), _twins(box, Sighting.face_at(y4, (9, 8), angle=-14), s)
    (True, False)
    """
    apart = math.dist(a.centre, b.centre)
    if apart < settings.duplicate_mm:
        return True
    turn = abs((a.angle - b.angle + 45.0) % 90.0 - 45.0)
    if same_face:
        return apart <= settings.twin_face_mm and turn <= settings.twin_face_deg
    return apart <= settings.twin_box_mm and turn <= settings.twin_box_deg


def seen(frame: int, *cards: tuple[str, tuple[float, float]], fps: float = 30.0) -> FrameSightings:
    """A frame showing face cards at given places, for examples and tests: ``seen(3, ("r5", (0, 0)))``."""
    sightings = tuple(Sighting.face_at(Card.parse(text), (float(x), float(y))) for text, (x, y) in cards)
    return FrameSightings(t=frame / fps, frame=frame, sightings=sightings)


def _quiet_before(changes: Sequence[tuple[float, float | None]], first_t: float) -> float | None:
    """The latest time in a pile's record of changes (``Pile.changes``) before the change that came with a card
    first read at ``first_t`` at which the picture there had been still for :data:`QUIET_S` (None: none in the
    record, or the record cannot tell).

    >>> record = [(20.0, 18.7), (21.2, 18.7), (21.37, 21.36)]   # still since 18.7, changed at 21.36
    >>> _quiet_before(record, 21.37)
    21.2
    >>> _quiet_before([(20.0, 19.8), (21.2, 21.1), (21.37, 21.36)], 21.37) is None   # never still long
    True
    """
    arrived = next((changed for at, changed in changes if at >= first_t - 1e-6), None)
    if arrived is None:
        return None
    quiet = [at for at, changed in changes if at < arrived - 1e-6 and changed is not None and at - changed >= QUIET_S]
    return max(quiet) if quiet else None

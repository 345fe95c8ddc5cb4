"""End of round: count the backs laid out after the stop, score them, and cross-check with the stacks seen.

After the stop the centre is gathered and spread out face down, and each player lays out what is left of their
Ligretto pile. A :class:`SpreadCounter` watches those spreads over many frames. It does not trust any single
frame (with 40 cards, a frame where every back is read is the exception): each card is a *spot* on the table
plane followed across frames, its back chosen by a vote, and a spot counts when it was seen in most recent
frames. Backs inside the centre zone are the centre spread; backs outside it are leftovers.

The count is then checked against the round as the referee saw it: stack heights equal their top numbers, so
the centre must hold the sum of the stack heights. A mismatch is a :class:`CountWarning` that names the stacks
and backs that disagree; the scores are still computed from the counts, since the cards are what a table
counts by hand too.

>>> counter = SpreadCounter()
>>> for frame in range(10):
...     counter.add(FrameSightings(frame / 30, frame, tuple(
...         Sighting.back_at("red-red" if i < 3 else "blue-blue", (i * 30.0, 0.0)) for i in range(5))))
>>> counter.count().centre
{'blue-blue': 2, 'red-red': 3}
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, pairwise
from typing import Protocol

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.centre import Stack
from referee.errors import ScoringError
from referee.events import RoundScored
from referee.rules import CARDS_PER_SET, LIGRETTO_PILE_SIZE
from referee.scoring import score_round
from referee.sightings import FrameSightings, Point, Quad, Sighting, point_in_polygon, polygon_area, run_direction
from referee.tracker.fan_length import (
    MAX_STEP_MM,
    MIN_STEP_MM,
    Fan,
    LineLength,
    fewest_to_cover,
    fill_missing,
    largest_remainders,
    line_count,
    lone_box_count,
    measured_fan_counts,
    measured_with_one_cut_off,
    most_to_fit,
    shingled_count,
)
from referee.tracker.owners import OpenCard

UNKNOWN_BACK = "?"

Sorter = Callable[[Sighting, FrameSightings], "tuple[str, str | None] | None"]
"""Says where a card seen after the round belongs: ``("centre", None)`` (the centre spread), ``("leftover",
owner)`` (a leftover spread, its owner's back when the place tells it, e.g. a face-up leftover in front of a
seat) or None (anything else: a row, a hand stack). Injected, since only the table geometry knows the seats."""


class LineReader(Protocol):
    """Measures a line of cards in the latest picture: given its cards' quads on the table plane and a card's extent
    along the line (mm), the line's extent and candidate steps (:class:`referee.tracker.fan_length.LineLength`), or
    None when the picture cannot tell (the line runs out of it). ``along``: the line's direction on the table plane,
    for a line boxed as one card (else its cards' centres tell it). Injected, since only the session has
    pictures."""

    def __call__(self, quads: Sequence[Quad], card_mm: float, along: Point | None = None) -> LineLength | None: ...


def sort_by_zone(sighting: Sighting, frame: FrameSightings) -> tuple[str, str | None] | None:
    """The default sorter: backs inside the centre zone are the centre spread, backs outside are leftovers
    (without seats, a face-up leftover has no known owner and is not counted)."""
    if sighting.kind != "back":
        return None
    return ("centre", None) if frame.in_zone(sighting) else ("leftover", None)


@dataclass(frozen=True)
class CentreFan:
    """One centre fan as read: its cards' places on the table plane and how many read as each back; its cards'
    latest outlines and a card's length along it (mm), by which the picture reads it again
    (:mod:`referee.tracker.strip_owners`)."""

    points: tuple[Point, ...]
    backs: dict[str, int]
    quads: tuple[Quad, ...] = field(default=(), compare=False)
    card_mm: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class SpreadCount:
    """Cards per back in the centre spread and in the leftover spreads; ``unknown`` cards showed no known back."""

    centre: dict[str, int] = field(default_factory=dict)
    leftover: dict[str, int] = field(default_factory=dict)
    unknown_centre: int = 0
    unknown_leftover: int = 0
    centre_seen: int | None = None
    """When the centre was counted by its spreads' lengths, or its missed cards shared out among the backs seen
    (either way to the stacks' total): the cards seen one by one; None when it was counted card by card."""
    centre_shared: bool = False
    """The cards missed in the centre were shared out among the backs in proportion to the cards seen (the
    spreads' lengths fitted no single step, or too few cards were seen to trust them)."""
    centre_measured: bool = False
    """The centre was handed back sorted and each player's fan counted by its extent in the picture (see
    :meth:`SpreadCounter._measured_fans`): then what play showed of the owners does not move cards between them."""
    centre_named: int = 0
    """Centre cards whose owner was seen in play, by where they lay before they landed (see :func:`with_owners`)."""
    fans: tuple[CentreFan, ...] = field(default=(), compare=False)
    """The centre fans holding several players' backs (stacks fanned where they lay), each with its cards'
    places and backs as read: they tell whose the cards are that play left unnamed
    (:mod:`referee.tracker.fan_owners`). Not compared: the count settles on its numbers, whatever its spots' drift."""
    centre_quads: tuple[Quad, ...] = field(default=(), compare=False)
    """The latest outline of every card seen in the centre spreads: a fan's whole card may lie among them, its
    place not linked with its strips'."""

    @property
    def centre_total(self) -> int:
        return sum(self.centre.values()) + self.unknown_centre


@dataclass(frozen=True)
class CountWarning:
    """Why the count cannot be fully trusted, naming the stacks (ids) and backs concerned."""

    message: str
    stacks: tuple[int, ...] = ()
    backs: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.message


@dataclass
class _Spot:
    x: float
    y: float
    in_centre: bool
    born: int
    in_zone: bool = False
    votes: dict[str, float] = field(default_factory=dict)
    hits: deque[int] = field(default_factory=deque)
    faces: deque[int] = field(default_factory=deque)
    """The frames in which a face was read where it lies (see :meth:`SpreadCounter._present`)."""
    quads: deque[Quad] = field(default_factory=lambda: deque(maxlen=QUADS_KEPT))


QUADS_KEPT = 5
"""A spot's latest quads, whose median outline measures the fan it belongs to."""
MIN_SEEN_SHARE = 0.5
"""The centre spreads are counted by their lengths only when at least this share of the stacks' cards was seen
one by one in them: fewer, and a whole spread may have been missed, whose cards the others would absorb."""
ALIKE_CARDS = 4
ALIKE_SHARE = 0.7
"""A centre fan of at least this many cards whose reads are this share one back is read as one player's."""
STRAY_CARDS = 3
"""A centre spread of fewer cards than this is a stray: too short to show whose fan it is by where it lies."""
UNSEEN_SEAT_HANDED = 2
UNSEEN_SEAT_ACROSS = 0.9
"""A centre fan read alike as a back no fan is handed back to is that back's where at least this many other fans
were handed back (the centre is laid out by owner) and it runs across the line to the middle at least this much
(the sine of the angle between the two; see :meth:`SpreadCounter._fans_of_unseen_seats`)."""
EDGE_MM = 4.0
"""A card's outline with a corner this close to the picture's edge (on the table plane) is cut by it: it shows
less of the card than there is."""
ONE_CARD_MM = CARD_WIDTH_MM / 4
"""Spots this close are one card boxed twice (a fan's step is 10-30 mm)."""
SORTED_KEPT = 20_000
"""How many cards' places the sorter's word is remembered for before the memory starts afresh (see
``SpreadCounter._sorted``): a count sees a few hundred places."""
STRANGER_CARDS = 3
STRANGER_SHARE = 0.6
"""A back no seat showed before play is a player's all the same when it is the clear vote (this share of a card's
named votes) on at least this many cards laid out after the round, in more than one spread or in a fan read as
several backs (a stack fanned where it lay): a seat the picture cuts off, or whose hand stack, cut by the edge,
read as another back (seed 99202, four players: the red-pink seat read "red-red", its back then the clear vote on
7 centre cards in 5 spreads). A fan read alike before a seat is that seat's, handed back sorted, its strips
misread alike. It must be read plainly on one card too (:data:`STRANGER_PLAIN`): strips misread alike agree all
along a fan, and across fans. Eight players, seeds 107000-107006 (the final count's spots pickled and counted
again offline): two cut-off seats' backs, the clear vote on 3 cards of 3 spreads each (seed 107006), and one on 7
cards of one mixed fan (seed 107005) were no players' when 4 cards in 2 spreads were asked, their cards counted as
other players'; asked as now, the centre's error 159 -> 103 cards over 56 players, 4 -> 6 of them exact (seeds
106000-106006: unchanged, 55 cards, 21 exact; 108000-108006, new: 79 -> 81 cards, 6 -> 5 exact, a cut-off seat's
cards counted as its own, one too many; two and four players of seeds 107000-107006: unchanged, every seat named,
strangers not looked for)."""
STRANGER_PLAIN = 0.5
"""A card read plainly: its back's votes per frame since it was laid out at least this share of the best-read
card's (a wholly visible card read surely in every frame). Per frame, not in all: a fan laid out last has had
fewer frames to gather votes (seed 107005, eight players: a cut-off seat's best card, laid out late, had 0.47 of
the best card's votes, 0.89 of its votes per frame). Strips of red backs read "blue-purple" all along four fans
(seed 99001, four players) had at most 0.42 of the best card's votes; the red-pink seat's own card above, 0.53."""
LYING_ON_MM = 10.0
"""A card left alone whose centre lies this close to another's outline lies on it (or under it): one spread (see
:func:`_spreads`). Spreads apart (a leftover line and the centre fan before the same seat) lie a card's height or
more apart."""
OVERLAP_SHARE = 0.2
"""A card left alone whose outline overlaps another's by this share of the smaller lies on it: one spread."""
TOUCHING_MM = 2 * CARD_HEIGHT_MM
"""Cards whose centres lie farther apart than this along either axis cannot lie on one another (two cards touch
within a card's diagonal, 108 mm; a detector's box is seldom more than a card too big)."""
SPREAD_LINK_MM = 40.0
"""Cards of one spread lie this close to the next (a fanned card shows a strip of 10-30 mm; one card missed in
a fan leaves twice that); two spreads lie a card's height or more apart."""


@dataclass(frozen=True)
class LaidOut:
    """A spread laid out after the round (see :meth:`SpreadCounter.laid_out`): its middle, its cards per back, and
    the back its cards' votes summed give (the whole spread's, should it be one player's)."""

    middle: Point
    backs: Counter[str]
    vote: str = UNKNOWN_BACK


class SpreadCounter:
    """Follows face-down cards across frames and counts them by back (see the module docstring)."""

    def __init__(
        self,
        sorter: Sorter | None = None,
        *,
        match_mm: float = 9.0,
        window: int = 120,
        min_ratio: float = 0.4,
        same_card_mm: float = 7.0,
        line_reader: LineReader | None = None,
    ) -> None:
        self.sorter = sorter or sort_by_zone
        self.line_reader = line_reader
        """Counts a leftover line by its length and step in the picture (see :meth:`_line_cards`); None: by its
        spots alone (:func:`referee.tracker.fan_length.line_count`)."""
        self.match_mm = match_mm
        self.same_card_mm = same_card_mm
        """Two boxes this close in one frame are one card boxed twice (a detector's duplicate lies 4-7 mm off);
        cards fanned in a spread lie 10 mm apart or more, or their backs would not show."""
        self.window = window
        self.min_ratio = min_ratio
        """A spot counts when seen in this share of the last ``window`` frames since it appeared: 4 s at 30 fps,
        four of the thorough readings a count takes (one a second), each missing other strips. Over 12 rendered
        rounds' readings (seeds 99000-99305) 120 frames and 0.4 gave centre counts exact for 13 players of 62 and
        missed 240 cards of 743, against 6 and 276 with one reading (30 frames, 0.5); 210 frames lagged the cards
        being laid out (8 and 267)."""
        self._spots: list[_Spot] = []
        self._sorted_at: dict[tuple[object, ...], tuple[str, str | None] | None] = {}
        self._frames: deque[int] = deque(maxlen=window)
        self._index = 0

    def add(self, frame: FrameSightings) -> None:
        """Takes one frame's cards; the sorter says which belong to which spread. Sightings go to the nearest
        free spot within ``match_mm`` (closest pairs first), others start spots; a spot lies at the mean of
        its sightings, since its first may be off."""
        self._index += 1
        self._frames.append(self._index)
        placed = [
            (s, s.centre, p) for s in self._once_each(frame.sightings) if (p := self._sorted(s, frame)) is not None
        ]
        pairs = sorted(
            (math.hypot(spot.x - x, spot.y - y), i, j)
            for i, (_, (x, y), _) in enumerate(placed)
            for j, spot in enumerate(self._spots)
            if abs(spot.x - x) < self.match_mm and abs(spot.y - y) < self.match_mm
        )
        spot_of: dict[int, _Spot] = {}
        taken: set[int] = set()
        for d, i, j in pairs:
            if d < self.match_mm and i not in spot_of and j not in taken:
                spot_of[i] = self._spots[j]
                taken.add(j)
        for i, (sighting, (x, y), place) in enumerate(placed):
            spot = spot_of.get(i)
            if spot is None:
                spot = _Spot(x, y, place[0] == "centre", self._index, frame.in_zone(sighting))
                self._spots.append(spot)
            self._see(spot, sighting, place[1] or sighting.back or UNKNOWN_BACK)
        self._see_faces(frame.faces)

    def _see_faces(self, faces: Sequence[Sighting]) -> None:
        """Marks the spots a face was read at this frame (see :meth:`_present`); the spots filed by
        ``match_mm`` squares, so that each face looks at its own square and those round it."""
        if not faces or not self._spots:
            return
        size = self.match_mm
        squares: dict[tuple[int, int], list[_Spot]] = defaultdict(list)
        for spot in self._spots:
            squares[(math.floor(spot.x / size), math.floor(spot.y / size))].append(spot)
        for face in faces:
            fx, fy = face.centre
            i, j = math.floor(fx / size), math.floor(fy / size)
            for spot in (s for di in (-1, 0, 1) for dj in (-1, 0, 1) for s in squares.get((i + di, j + dj), ())):
                if abs(spot.x - fx) < size and abs(spot.y - fy) < size:
                    if not spot.faces or spot.faces[-1] != self._index:
                        spot.faces.append(self._index)
                    while spot.faces and spot.faces[0] <= self._index - self.window:
                        spot.faces.popleft()

    def _sorted(self, sighting: Sighting, frame: FrameSightings) -> tuple[str, str | None] | None:
        """The sorter's word on a card, remembered by its kind and place: while the spreads are counted one
        reading stands for the frames of a second (``referee.session.COUNT_EVERY_S``), the same cards again and
        again, and the seats' geometry cost eight players a tenth of their replay."""
        x, y = sighting.centre
        key = (sighting.kind, round(x, 1), round(y, 1), frame.zone)
        if key not in self._sorted_at:
            if len(self._sorted_at) > SORTED_KEPT:
                self._sorted_at.clear()
            self._sorted_at[key] = self.sorter(sighting, frame)
        return self._sorted_at[key]

    def _once_each(self, sightings: tuple[Sighting, ...]) -> list[Sighting]:
        """The frame's sightings less the second boxes of cards boxed twice (the surer box stays)."""
        kept: list[Sighting] = []
        centres: list[tuple[float, float]] = []
        for sighting in sorted(sightings, key=lambda s: -s.confidence):
            x, y = sighting.centre
            if not any(math.hypot(x - kx, y - ky) < self.same_card_mm for kx, ky in centres):
                kept.append(sighting)
                centres.append((x, y))
        return kept

    def _see(self, spot: _Spot, sighting: Sighting, back: str) -> None:
        n = len(spot.hits) + 1
        x, y = sighting.centre
        spot.x, spot.y = spot.x + (x - spot.x) / n, spot.y + (y - spot.y) / n
        spot.votes[back] = spot.votes.get(back, 0.0) + sighting.identity_confidence
        spot.hits.append(self._index)
        spot.quads.append(sighting.quad)
        while spot.hits and spot.hits[0] <= self._index - self.window:
            spot.hits.popleft()

    def _stranger_owner(
        self, spread: Sequence[_Spot], votes: Mapping[str, float], back: str, owners: frozenset[str]
    ) -> str | None:
        """The owner of the seat a centre fan lies before, when the fan reads as one back that no seat has (a
        fan read alike is one player's, as when the centre is handed back sorted; a back no player showed at
        the start is a misread strip); None otherwise: each card counts by its own back."""
        owner_at = getattr(self.sorter, "owner_at", None)
        named = sum(v for b, v in votes.items() if b != UNKNOWN_BACK)
        if owner_at is None or not owners or back in owners or back == UNKNOWN_BACK or len(spread) < ALIKE_CARDS:
            return None
        if votes[back] < ALIKE_SHARE * named:
            return None
        return owner_at(_middle(spread))

    def _before_no_seat(self, spot: _Spot) -> bool:
        """Whether a lone card beyond the centre lies before no seat at a table whose every seat the picture shows:
        a player lays their leftovers before them, so it is a centre card strayed from its fan (seed 118004, two
        players: a fan's whole card, cut from it where the picture's edge lost its strips, between the two seats,
        counted a leftover of red-light-blue's, whose one leftover lay before its seat)."""
        every_seat_shown = getattr(self.sorter, "no_seat_missing", None)
        owner_at = getattr(self.sorter, "owner_at", None)
        hand_before = getattr(self.sorter, "hand_before", None)
        if every_seat_shown is None or owner_at is None or hand_before is None or not every_seat_shown():
            return False
        return owner_at((spot.x, spot.y)) is None and hand_before((spot.x, spot.y)) is None

    def _line_owner(self, spread: Sequence[_Spot], back: str, owners: frozenset[str]) -> str:
        """Whose leftovers a line laid out beyond the centre is: the back it reads as, unless that is a seat's
        owner and the line lies before the seat of another known owner, whose it is (a player lays their
        leftovers before them). The cards of a seat whose hand was named only at the count took their own
        readings, and a look-alike's read alike all along the line (seed 119002, four players, a dark table held
        out: red-pink's 7 read red-red's, 540 to 43, red-red counted 12 and red-pink 0)."""
        hand_before = getattr(self.sorter, "hand_before", None)
        hand = hand_before(_middle(spread)) if hand_before is not None and back in owners else None
        return hand.owner if hand is not None and hand.owner is not None else back

    def _handed_back(self, spread: Sequence[_Spot]) -> str | None:
        """The owner a centre fan was handed back to, when it lies in front of their seat as the rules' sorting
        lays it (see :meth:`referee.tracker.seats.SeatSorter.handed_back_to`): its strips' backs, misread alike
        all along (red-pink strips read "blue-purple"), do not decide then."""
        handed_back_to = getattr(self.sorter, "handed_back_to", None)
        return None if handed_back_to is None else handed_back_to([(s.x, s.y) for s in spread])

    def _card_back(
        self, spot: _Spot, spread: Sequence[_Spot], spread_back: str, owners: frozenset[str], closed: bool = False
    ) -> str:
        """One centre card's back: its own vote, among the seats' owners when they are known (a back no player
        showed at the start is a misread strip). A card read only as such strangers, or not at all, takes the
        owners' vote over its spread (the centre cards are laid out sorted by back, so its neighbours are most
        likely its own), else the owner of the seat the spread lies before; else, when the seats are all the
        players (``closed``), no known back (shared out among the players' in the end), else its own."""
        own = _best_of(spot.votes, owners)
        if not owners or own in owners:
            return own
        if spread_back in owners:
            return spread_back
        owner_at = getattr(self.sorter, "owner_at", None)
        seat = owner_at(_middle(spread)) if owner_at is not None else None
        return seat or (UNKNOWN_BACK if closed else own)

    def _present(self, spot: _Spot) -> bool:
        """Whether a spot is a card lying face down now: seen in at least ``min_ratio`` of the recent frames since
        it appeared, and read as a face in fewer of them than as a back. A face lying in a row reads as a back in
        some frames (seed 100806, four players: a red 7 and a red 6 of two rows, each counted as a leftover of
        its seat's back); a back read as a face is rarer than that."""
        recent = sum(1 for f in self._frames if f >= spot.born)
        hits = sum(1 for h in spot.hits if h > self._index - self.window)
        faces = sum(1 for h in spot.faces if h > self._index - self.window)
        return recent > 0 and hits >= self.min_ratio * recent and faces < hits

    @property
    def frames(self) -> int:
        return self._index

    def count(self, centre_total: int | None = None, *, measure: bool = True) -> SpreadCount:
        """The cards present now: spots seen in at least ``min_ratio`` of the recent frames since they appeared.

        Spots are read as spreads (chains of cards each within :data:`SPREAD_LINK_MM` of the next). A spread
        reaching into the centre zone is the centre spread laid where the stacks were, its cards of any back
        (each by its own vote), though its fan may run out of the zone. A spread wholly outside lies before one
        player, so it is one player's: all its cards take the spread's vote (a back is surer read on the whole
        fan, and its top card, than on one thin strip), and it is the centre's or a leftover as most of its
        cards were sorted. A centre spread read alike as a back no seat showed is its seat's owner's (see
        :meth:`_stranger_owner`).

        ``centre_total``: the centre's cards as the stacks tell (their heights). Given, and fewer cards seen one
        by one in the centre spreads, the cards missed are filled in where the spreads' lengths say they lie
        (:mod:`referee.tracker.fan_length`), each spread's count shared among its backs as its cards were
        read. ``measure``: False leaves the fans unmeasured in the picture (:meth:`_measured_fans`), counted as
        their cards were read (the referee's choice where the measurement contradicts play)."""
        centre: Counter[str] = Counter()
        leftover: Counter[str] = Counter()
        present = [spot for spot in self._spots if self._present(spot)]
        owners = frozenset(getattr(self.sorter, "owners", ()))
        spreads = _spreads(present, SPREAD_LINK_MM)
        every_seat = getattr(self.sorter, "every_seat_named", None)
        closed = bool(owners) and every_seat is not None and every_seat()
        if owners and not closed:
            owners |= _strangers(
                spreads,
                owners,
                getattr(self.sorter, "owner_at", None),
                getattr(self.sorter, "before_an_unread_seat", None),
                now=self._index,
            )
        in_a_row_slot = getattr(self.sorter, "in_a_row_slot", None)
        fans: list[tuple[list[_Spot], Counter[str]]] = []
        whose: list[str | None] = []  # each centre fan's one owner, when it is one player's
        lines: dict[str, list[list[_Spot]]] = {}  # the leftover spreads, by back
        for spread in spreads:
            votes = _spread_votes(spread)
            back = _best_of(votes, owners)
            if any(spot.in_zone for spot in spread):
                owner = self._stranger_owner(spread, votes, _best_of(votes, frozenset()), owners) or self._handed_back(
                    spread
                )
                fans.append(
                    (spread, Counter(owner or self._card_back(spot, spread, back, owners, closed) for spot in spread))
                )
                whose.append(owner)
            elif sum(spot.in_centre for spot in spread) * 2 > len(spread):
                fans.append((spread, Counter({back: len(spread)})))
                whose.append(back)
            elif in_a_row_slot is not None and all(in_a_row_slot((spot.x, spot.y)) for spot in spread):
                continue  # a row card boxed as a back: it keeps its slot, and counts for nothing
            elif len(spread) == 1 and self._before_no_seat(spread[0]):
                fans.append((spread, Counter({back: 1})))
                whose.append(None)
            else:
                lines.setdefault(self._line_owner(spread, back, owners), []).append(spread)
        for back, parts in lines.items():
            for line in _joined_lines(parts):
                leftover[back] += self._line_cards(line)
        _strays_to_their_fans(fans, whose)
        self._fans_of_unseen_seats(fans, whose)
        seen = sum(len(spread) for spread, _ in fans)
        measured = self._measured_fans([spread for spread, _ in fans], whose, centre_total) if measure else None
        fitted = None if measured is not None else self._fitted([spread for spread, _ in fans], centre_total, seen)
        for i, (spread, cards) in enumerate(fans):
            if measured is not None:
                centre[whose[i] or _free_back(spread, whose)] += measured[i]
            else:
                centre.update(cards if fitted is None or fitted[i] == len(spread) else _shared(cards, fitted[i]))
        shared = (
            measured is None
            and fitted is None
            and bool(centre_total)
            and 0 < seen < (centre_total or 0)
            and _room([spread for spread, _ in fans]) >= (centre_total or 0)
        )
        if shared:
            # the cards missed most likely share the backs of those seen: strips are missed whatever their back
            # (12 rounds, seeds 99000-99305: the centre's error 392 -> 323 cards over 743, two players' 37 -> 7)
            centre = _shared(centre, centre_total or 0)
        elif closed and centre[UNKNOWN_BACK] and len(centre) > 1:
            # the seats are all the players: a card read as none of them is one of them, most likely as often
            # as the cards read
            centre = _shared(centre, sum(centre.values()))
        unknown_c, unknown_l = centre.pop(UNKNOWN_BACK, 0), leftover.pop(UNKNOWN_BACK, 0)
        mixed = tuple(
            CentreFan(
                tuple((s.x, s.y) for s in spread),
                {b: n for b, n in cards.items() if b != UNKNOWN_BACK},
                tuple(quad for s in spread for quad in s.quads),
                _card_along(spread),
            )
            for (spread, cards), owner in zip(fans, whose, strict=True)
            if owner is None
        )
        return SpreadCount(
            dict(sorted(centre.items())),
            dict(sorted(leftover.items())),
            unknown_c,
            unknown_l,
            centre_seen=None if fitted is None and measured is None and not shared else seen,
            centre_shared=shared,
            centre_measured=measured is not None,
            fans=mixed,
            centre_quads=tuple(s.quads[-1] for spread, _ in fans for s in spread if s.quads),
        )

    def laid_out(self) -> list[LaidOut]:
        """The spreads present now: where each lies and its cards' backs, each card's by its own vote (unknown
        when it had none), and the spread's by its cards' votes summed."""
        out = []
        for spread in _spreads([spot for spot in self._spots if self._present(spot)], SPREAD_LINK_MM):
            backs = Counter(_best_of(spot.votes, frozenset()) for spot in spread)
            out.append(LaidOut(_middle(spread), backs, _best_of(_spread_votes(spread), frozenset())))
        return out

    def _fans_of_unseen_seats(self, fans: list[tuple[list[_Spot], Counter[str]]], whose: list[str | None]) -> None:
        """Gives a centre fan read alike as one back to that back's owner (in place), where the centre was laid out
        by owner (other fans were handed back, see :data:`UNSEEN_SEAT_HANDED`), no fan is handed back to that
        back, and the fan runs across the line to the middle as a handed-back fan does: a seat whose places lie
        outside the picture has no place to tell the fan was handed back to it, but its owner's back still reads.

        Eight players, the seats at the picture's top and bottom (seeds 101073 and 101074: their fans read
        red-red and blue-blue, red-pink and blue-orange, alike all along, were nobody's, and the other six fans
        were counted card by card instead of measured; see ``SpreadCounter.count``)."""
        handed = {owner for owner in whose if owner is not None}
        middle = getattr(self.sorter, "middle", None)
        if len(handed) < UNSEEN_SEAT_HANDED or middle is None:
            return
        for i, (spread, _) in enumerate(fans):
            if whose[i] is not None or len(spread) < ALIKE_CARDS:
                continue
            votes = _spread_votes(spread)
            back = _best_of(votes, frozenset())
            named = sum(v for b, v in votes.items() if b != UNKNOWN_BACK)
            if back == UNKNOWN_BACK or back in handed or votes[back] < ALIKE_SHARE * named:
                continue
            mx, my = _middle(spread)
            towards = math.atan2(my - middle[1], mx - middle[0])
            if abs(math.sin(run_direction([(s.x, s.y) for s in spread]) - towards)) < UNSEEN_SEAT_ACROSS:
                continue
            whose[i] = back
            fans[i] = (spread, Counter({back: len(spread)}))
            handed.add(back)

    def _measured_fans(
        self, spreads: Sequence[Sequence[_Spot]], whose: Sequence[str | None], total: int | None
    ) -> list[int] | None:
        """The centre fans' cards from their extents in the picture and the stacks' ``total``, when every fan is
        one player's (handed back sorted, as the rules lay the centre out) and the picture measures each (see
        :func:`referee.tracker.fan_length.measured_fan_counts`); a fan of one card is one card. None otherwise:
        a stack fanned where it lay holds every player's backs, and its cards are counted card by card.

        A fan's boxes miss strips and box others twice, so its spots, and even its boxes' length, miscount it by
        a card or two, moving cards from one player to another while the total holds; the picture's extent
        does not (see :func:`referee.tracker.fan_length.measured_fan_counts` for how it was measured). Where the
        picture's colours bound no extent, its boxes' ends give one, good to a card's edge: each fan's count is
        chosen among a card either side of the shared step by how its edges repeat, which that serves (45 rounds
        of 2, 4 and 8 players, seeds 101000-101027 and 101070-101076, their final counts made again offline from
        the replays' own spots and pictures: seed 101009, four players, centres exact 2 -> 4 of 4 by this alone;
        with the rules below for fans of seats the picture does not show, a fan cut in two and cards lying apart,
        104 -> 123 of 192 players, none made worse).

        One fan no one's by its place that the picture's edge cuts off (every outline of it cut, see
        :meth:`_cut_off`: a seat outside the picture) holds what the others leave of the total, as many as their
        edges repeat most strongly for (:func:`referee.tracker.fan_length.measured_with_one_cut_off`), under the
        back it reads (:func:`_free_back`). Seed 101000, eight players: red-red's fan showed one card's corner at
        the picture's top; 7 cards for it, and five of the other seven fans exact, against none measured before."""
        unowned = [i for i, owner in enumerate(whose) if owner is None]
        if self.line_reader is None or not total or not spreads or len(unowned) > 1:
            return None
        cut = unowned[0] if unowned else None
        if cut is not None and not self._cut_off(spreads[cut]):
            return None
        everyone = _one_fan_each(spreads, whose, cut)
        fans = [parts for parts in everyone if sum(len(spreads[i]) for i in parts) >= STRAY_CARDS]
        # a spread of a card or two shows its step once if at all, too seldom to measure: it holds the cards boxed
        strays = {
            parts[0]: self._stray_cards([s for i in parts for s in spreads[i]])
            for parts in everyone
            if parts not in fans
        }
        total -= sum(strays.values())
        lines: list[LineLength] = []
        cards: list[float] = []
        for parts in fans:
            spread = [spot for i in parts for spot in spreads[i]]
            card, line = self._read_line(spread) if len(spread) >= 2 else (self._card_along(spread), None)
            if len(spread) >= 2 and line is None and not _one_card(spread):
                return None
            lines.append(line or LineLength(card, ()))
            cards.append(card)
        counts = [0] * len(spreads)
        if cut is None:
            measured = measured_fan_counts(lines, cards, total)
        else:
            seen = sum(len(spreads[i]) for parts in fans for i in parts)
            both = measured_with_one_cut_off(lines, cards, total, seen)
            measured, counts[cut] = both if both is not None else (None, 0)
        if measured is None:
            return None
        for parts, n in zip(fans, measured, strict=True):
            counts[parts[0]] = n
        for i, n in strays.items():
            counts[i] = n
        return counts

    def _stray_cards(self, spread: Sequence[_Spot]) -> int:
        """The cards of a spread too short to measure (fewer than :data:`STRAY_CARDS` spots): one a spot, but one
        in all where its spots lie no farther apart than one card's boxes do (``same_card_mm``). Seed 101073, two
        players: two red-red cards 10 mm apart by red's fan, measured as three from their boxes' ends (102 mm)."""
        if all(math.dist((a.x, a.y), (b.x, b.y)) <= self.same_card_mm for a in spread for b in spread):
            return 1
        return len(spread)

    def _cut_off(self, spread: Sequence[_Spot]) -> bool:
        """Whether the picture's edge cuts every card outline of ``spread`` seen lately: a fan running out of the
        picture, whose extent it cannot measure."""
        view = getattr(self.sorter, "view", None)
        quads = [quad for spot in spread for quad in spot.quads]
        return view is not None and bool(quads) and not any(_clear_of_edges(q, view, EDGE_MM) for q in quads)

    def _line_cards(self, spread: Sequence[_Spot]) -> int:
        """A leftover line's cards: measured in the picture where it can be (its extent and step, see
        :func:`referee.tracker.fan_length.shingled_count`), else from its spots' lattice (:func:`line_count`).

        A shingled card is boxed twice (its strip, and its whole outline under the card above), or two strips
        as one, so the spots miscount a line by a card or two either way; the picture's edges do not. 26
        players' leftovers in ten rendered rounds of two and four players (seeds 100300-100306, the final
        count's spots measured again in the round's last frame, a development script): every one of the 8
        lines the picture held whole counted right (against 4 of 8 by the spots: 9 for 6, 13 for 9, 8 for 7,
        6 for 5); the lines it could not measure (single spots, lines running out of the picture) as before.

        Where the picture's colours bound no extent (a pale back on a cloth of its colours, a white back on white
        dots), the extent it gives all the same (its own colours' run, or its boxes' ends, see
        :func:`vision.shingles.measure_shingles`) counts the line by a strongly repeating step, rather than the
        spots' lattice, which counts a card boxed twice twice; and no step may count more cards than a Ligretto
        pile holds. The final counts of 35 rendered two- and four-player rounds (seeds 101000-101033),
        re-counted offline from the replays' own spots and pictures (``out/dev/cntreal.py``): leftovers exact
        102 -> 106 of 122 players, cards miscounted 29 -> 18, no player's count made worse.

        Counted by its spots, a line the picture bounds still holds at least the fewest cards that run as far as
        it does (:func:`referee.tracker.fan_length.fewest_to_cover`): one card boxed three times on a line 86 mm
        long is two cards (seed 101004, four players). A line boxed as one card is measured along the seat's
        edge of the table (:meth:`_lone_box_cards`).

        The measure is believed where it counts between half and twice the line's boxes, less those across two
        cards' overlap (:func:`_firm_spots`): seven leftovers 32 mm apart, boxed 15 times with such boxes (seed
        106003, two players), were measured 7 and counted 13 by their boxes. With the measure judged so, and its
        step halved where the boxes support it (``shingled_count``'s ``boxes``), 77 rounds pickled at the score
        (2-8 players) counted leftovers exact for 221 -> 224 of 326 players, no line worse.

        The boxes the halved step is judged by are the cards their lattice counts (:func:`line_count`), not the
        boxes themselves: a card boxed by its strip and by its whole outline 10 mm on is one card (seed 116003,
        four players, held out: four red-black leftovers 33 mm apart boxed six times, the edges repeating at 33
        mm and at 17 mm, were counted six). Of 63 rounds pickled at the score (seeds 114000-116006, 2-8
        players), that line alone changed; of 28 more (seeds 112000-113006, two and four players), none.

        However counted, a line the picture bounds holds no more cards than its extent has room for
        (:func:`referee.tracker.fan_length.most_to_fit`): of 70 rounds pickled at the score (seeds 117000-120006,
        2-8 players, both looks), two lines counted lower, both to the truth; players exact one more of 252. At
        an 18 mm least step five lines counted lower (four to the truth) and a new held-out round lost a player."""
        points = [(spot.x, spot.y) for spot in spread]
        if self.line_reader is not None and self._stray_cards(spread) == 1:
            return self._lone_box_cards(spread)
        if self.line_reader is None or len(spread) < 2:
            return line_count(points)
        card, measured = self._read_line(spread)
        firm = _firm_spots(spread)
        lattice = line_count([(spot.x, spot.y) for spot in firm])
        counted = shingled_count(measured, card, LIGRETTO_PILE_SIZE, lattice) if measured is not None else None
        if counted is None or not len(firm) / 2 <= counted <= 2 * len(firm) + 1:
            counted = lattice
            if measured is not None and measured.seen and _shingled_spots(points):
                counted = max(counted, fewest_to_cover(measured, card))
        if measured is not None and measured.seen:
            counted = min(counted, most_to_fit(measured, card))
        return counted

    def _lone_box_cards(self, spread: Sequence[_Spot]) -> int:
        """A leftover line boxed as one card (one spot, or several no farther apart than one card's boxes lie): its
        spots give it no direction, so it is measured in the picture along the seat's edge of the table (a player
        lays their leftovers in a line before them, across the line from the middle), see
        :func:`referee.tracker.fan_length.lone_box_count`; one card where the picture cannot say."""
        middle = getattr(self.sorter, "middle", None)
        quads = [quad for spot in spread for quad in spot.quads]
        if self.line_reader is None or middle is None or not quads:
            return 1
        x, y = sum(spot.x for spot in spread) / len(spread), sum(spot.y for spot in spread) / len(spread)
        along = (middle[1] - y, x - middle[0])
        norm = math.hypot(*along)
        if norm == 0:
            return 1
        unit = (along[0] / norm, along[1] / norm)
        card = _card_along(spread, axis=unit)
        measured = self.line_reader(quads, card, along=unit)
        if measured is None or lone_box_count(measured, card) == 1:
            return 1  # one card (most lone boxes): no second look needed
        again = self.line_reader(quads, 1.5 * CARD_HEIGHT_MM, along=unit)  # the table sampled farther out
        return lone_box_count(measured, card, again) if again is not None else 1

    def _read_line(self, spread: Sequence[_Spot]) -> tuple[float, LineLength | None]:
        """A card's extent along the spread, and the spread measured in the picture (None: it cannot be)."""
        card = self._card_along(spread)
        quads = [quad for spot in spread for quad in spot.quads]
        return card, self.line_reader(quads, card) if self.line_reader is not None and len(quads) >= 2 else None

    def _card_along(self, spread: Sequence[_Spot]) -> float:
        """A card's extent along the spread (see :func:`_card_along`), from the cards' outlines the picture's
        edge does not cut (:data:`EDGE_MM`): a fan running along the edge shows a strip of each card's long side,
        as a line of cards laid end to end would (seed 101074, eight players: the fans at the picture's top and
        bottom, 18 and 15 cards side by side, showed 35-58 mm of each card across them, and were measured as
        cards end to end, 16 and 12). A spread every outline of which the edge cuts is taken to be laid as a fan
        is, side by side."""
        view = getattr(self.sorter, "view", None)
        return _card_along(spread, None if view is None else lambda quad: _clear_of_edges(quad, view, EDGE_MM))

    @staticmethod
    def _fitted(spreads: Sequence[Sequence[_Spot]], total: int | None, seen: int) -> list[int] | None:
        """Each centre spread's count with the cards missed filled in by its length, adding up to ``total`` (None:
        no total, nothing missed, too few cards seen for the lengths to be trusted, or no single step fits)."""
        if not total or not spreads or seen >= total or seen < MIN_SEEN_SHARE * total:
            return None
        fans = [Fan.of([((s.x, s.y), tuple(s.quads)) for s in spread]) for spread in spreads]
        return fill_missing([len(spread) for spread in spreads], fans, total)


def _strays_to_their_fans(fans: list[tuple[list[_Spot], Counter[str]]], whose: list[str | None]) -> None:
    """Gives a centre spread of a card or two, no one's by its place, to the player whose handed-back fan its
    back names, when it is one of them (in place): the rules' sorting lays each player's centre cards together,
    and a card left a little apart from its fan is still that player's (seeds 100702 and 100705, four players:
    a red-black card beside red-black's fan, read red-black in every frame, kept the four fans from being
    measured)."""
    handed = {owner for owner in whose if owner is not None}
    for i, (spread, _) in enumerate(fans):
        if whose[i] is not None or len(spread) >= STRAY_CARDS or not handed:
            continue
        votes = _spread_votes(spread)
        back = _best_of(votes, frozenset())
        if back in handed:
            whose[i] = back
            fans[i] = (spread, Counter({back: len(spread)}))


def _one_fan_each(spreads: Sequence[Sequence[_Spot]], whose: Sequence[str | None], cut: int | None) -> list[list[int]]:
    """The spreads (by index, less ``cut``) measured as one fan each: one player's spreads lying end to end along one
    line joined (see :func:`_end_to_end`), since the rules' sorting lays each player's centre cards in one fan, and
    a strip or two missed in its middle cuts it in two, whose parts the picture would measure each over the whole
    (seed 101027, two players on a red check cloth: red-red's fan of 11 read as parts of 6 and 3 boxes, measured 11
    and 3)."""
    fans: list[list[int]] = []
    for i, owner in enumerate(whose):
        if i == cut:
            continue
        joined = next(
            (
                fan
                for fan in fans
                if owner is not None
                and whose[fan[0]] == owner
                and _end_to_end([s for k in fan for s in spreads[k]], spreads[i])
            ),
            None,
        )
        if joined is None:
            fans.append([i])
        else:
            joined.append(i)
    return fans


def _spread_votes(spread: Sequence[_Spot]) -> Counter[str]:
    """A spread's cards' votes for their backs, summed."""
    votes: Counter[str] = Counter()
    for spot in spread:
        votes.update(spot.votes)
    return votes


def _free_back(spread: Sequence[_Spot], whose: Sequence[str | None]) -> str:
    """The back a spread that is no one's by its place reads as, unless another spread is that back's fan (then
    unknown): a fan the picture's edge cuts off shows a card or two of its owner's back."""
    votes = _spread_votes(spread)
    back = _best_of(votes, frozenset())
    return UNKNOWN_BACK if back in whose else back


def _joined_lines(parts: Sequence[Sequence[_Spot]]) -> list[list[_Spot]]:
    """One back's leftover spreads, those lying end to end along one line joined: a strip missed in the middle of
    a line leaves a gap wider than :data:`SPREAD_LINK_MM` that cuts it in two (seed 100904, four players: the
    red-black line of 5, its spots 2 and 3 with 50 mm between, counted 2 and 2; measured whole, 5). Joined are
    parts at most :data:`LINE_GAP_MM` apart, each part of two cards or more running within :data:`LINE_TURN_DEG`
    of the way from one to the other (a lone card has no direction of its own: seed 101030, four players, the
    white red-black back on white dots boxed only at two cards 68 mm apart, counted 1 and 1 for a line of 5); a
    player has one leftover pile."""
    joined = [list(part) for part in parts]
    merged = True
    while merged:
        merged = False
        for i, j in combinations(range(len(joined)), 2):
            if _end_to_end(joined[i], joined[j]):
                joined[i] += joined.pop(j)
                merged = True
                break
    return joined


LINE_GAP_MM = 2 * SPREAD_LINK_MM
LINE_TURN_DEG = 20.0
"""Two parts of one back's leftover line (see :func:`_joined_lines`): the gap a missed strip or two leaves, and how
far each part's run may turn from the way between them."""


def _end_to_end(a: Sequence[_Spot], b: Sequence[_Spot]) -> bool:
    if min(math.hypot(p.x - q.x, p.y - q.y) for p in a for q in b) > LINE_GAP_MM:
        return False
    (ax, ay), (bx, by) = _middle(a), _middle(b)
    between = math.atan2(by - ay, bx - ax)
    runs = (run_direction([(s.x, s.y) for s in part]) for part in (a, b) if len(part) >= 2)
    return all(_turn(run, between) <= math.radians(LINE_TURN_DEG) for run in runs)


def _turn(a: float, b: float) -> float:
    """The angle between two undirected lines at angles ``a`` and ``b`` (0 to pi/2)."""
    d = abs(a - b) % math.pi
    return min(d, math.pi - d)


def _one_card(spread: Sequence[_Spot]) -> bool:
    """Whether a spread's spots all lie within :data:`ONE_CARD_MM` of each other: one card boxed twice."""
    return all(math.dist((a.x, a.y), (b.x, b.y)) <= ONE_CARD_MM for a in spread for b in spread)


def _card_along(
    spread: Sequence[_Spot], keep: Callable[[Quad], bool] | None = None, axis: Point | None = None
) -> float:
    """A card's extent along a line of cards (mm): cards shingled side by side show their long side across the
    line, so their short side runs along it; cards laid end to end, their long side. ``keep``: which outlines
    count (none kept: side by side, as cards are fanned); ``axis``: the line's direction, where its spots give none."""
    quads = [((spot.x, spot.y), tuple(q for q in spot.quads if keep is None or keep(q))) for spot in spread]
    fan = Fan.of(quads, axis)
    return CARD_WIDTH_MM if fan.card <= 0.5 * (CARD_WIDTH_MM + CARD_HEIGHT_MM) else CARD_HEIGHT_MM


GHOST_SHARE = 0.8
GHOST_GAP_MM = 30.0
"""A spot on a leftover line between two neighbours no farther apart than this, read in fewer frames than this
share of the line's usual spot (its votes), is the detector's box across the overlap of two cards each partly
over the other, not a third card: a card boxed whole and a card's strip are read in most frames. Two leftovers
laid 24-29 mm apart were boxed three times, the middle box read half as often (seeds 104002 and 105004, two
players: 3 counted for 2). 67 rounds pickled at the score re-counted offline (2-8 players, seeds 101000-101086,
102000-102006, 103002-103014, 104001-104006, 105000-105006; 310 players): leftovers exact 210 -> 213 (these two
and seed 102004's four-player red-pink), none went wrong, at a share of 0.7; with neighbours up to 50 mm apart a
true eight-player line lost two cards. Two more such lines (seeds 106004 and 106005, two players: middle boxes
read 0.74-0.75 as often) were counted 3 for 2 at 0.7; at 0.8, with lines measured as they are since (a measure
judged against the boxes less these), 80 rounds so re-counted (336 players) came out 229 -> 231 exact, none
worse; at 0.85 a seven-card line whose measure's step was halved by its boxes lost three cards."""


def _firm_spots(spread: Sequence[_Spot]) -> list[_Spot]:
    """``spread``'s spots along its line less the boxes across two cards' overlap (see :data:`GHOST_SHARE`)."""
    if len(spread) < 3:
        return list(spread)
    angle = run_direction([(spot.x, spot.y) for spot in spread])
    order = sorted(spread, key=lambda spot: spot.x * math.cos(angle) + spot.y * math.sin(angle))
    usual = sorted(sum(spot.votes.values()) for spot in spread)[len(spread) // 2]
    ghosts = {
        id(spot)
        for before, spot, after in zip(order, order[1:], order[2:], strict=False)
        if sum(spot.votes.values()) < GHOST_SHARE * usual
        and math.dist((before.x, before.y), (after.x, after.y)) <= GHOST_GAP_MM
    }
    return [spot for spot in order if id(spot) not in ghosts]  # by identity: spots are compared field by field


def _shingled_spots(points: Sequence[Point]) -> bool:
    """Whether spots on a line lie no farther apart, neighbour to neighbour, than cards each partly over the last
    (:data:`~referee.tracker.fan_length.MAX_STEP_MM`): cards laid apart are each boxed, and the run of the line
    says nothing more (the scripted two-player clip: two leftover cards 79 mm apart).

    >>> _shingled_spots([(0.0, 0.0), (30.0, 2.0), (28.0, 0.0)]), _shingled_spots([(0.0, 0.0), (79.0, 0.0)])
    (True, False)
    """
    angle = run_direction(points)
    along = sorted(x * math.cos(angle) + y * math.sin(angle) for x, y in points)
    return all(b - a <= MAX_STEP_MM for a, b in pairwise(along))


def _clear_of_edges(quad: Quad, polygon: Sequence[Point], margin: float) -> bool:
    """Whether every corner of ``quad`` lies inside the convex ``polygon``, at least ``margin`` from its edges.

    >>> square = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
    >>> _clear_of_edges(((10.0, 10.0), (50.0, 10.0), (50.0, 50.0), (10.0, 50.0)), square, 4.0)
    True
    >>> _clear_of_edges(((10.0, 10.0), (50.0, 10.0), (50.0, 98.0), (10.0, 98.0)), square, 4.0)  # 2 mm from the edge
    False
    """
    n = len(polygon)
    area = sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n))
    inward = 1.0 if area > 0 else -1.0
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            continue
        for x, y in quad:
            if inward * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length < margin:
                return False
    return True


def _room(spreads: Sequence[Sequence[_Spot]]) -> float:
    """The most cards the spreads could hold, fanned at the tightest step a back still shows at (a heap that
    is no line of cards could hold any number): cards missed beyond that lie elsewhere, not under these."""
    room = 0.0
    for spread in spreads:
        fan = Fan.of([((s.x, s.y), tuple(s.quads)) for s in spread])
        room += math.inf if not fan.line else max(len(spread), fan.length // MIN_STEP_MM + 1)
    return room


def _shared(cards: Mapping[str, int], n: int) -> Counter[str]:
    """``n`` cards shared among the backs as ``cards`` were read (unknown only when no card's back was read).

    >>> _shared({"red-red": 5, "?": 2}, 9)
    Counter({'red-red': 9})
    >>> _shared({"a": 2, "b": 1}, 4)
    Counter({'a': 3, 'b': 1})
    """
    known = {b: k for b, k in cards.items() if b != UNKNOWN_BACK and k > 0}
    if not known:
        return Counter({UNKNOWN_BACK: n})
    return Counter(dict(zip(known, largest_remainders(list(known.values()), n), strict=True)))


def _middle(spread: Sequence[_Spot]) -> tuple[float, float]:
    return sum(s.x for s in spread) / len(spread), sum(s.y for s in spread) / len(spread)


def _strangers(
    spreads: Sequence[Sequence[_Spot]],
    owners: frozenset[str],
    owner_at: Callable[[Point], str | None] | None,
    unread_seat: Callable[[Point], bool] | None = None,
    *,
    now: int,
) -> frozenset[str]:
    """Backs no seat showed that are a player's all the same (see :data:`STRANGER_CARDS`): read plainly on a
    card (see :data:`STRANGER_PLAIN`; ``now``: the frame counted last), and the clear vote on enough cards, or
    over a fan of :data:`ALIKE_CARDS` lying before no seat whose owner is known (the centre handed back sorted to a
    seat the picture cuts off). Strips alone do not do: their readings of one back as another agree all along a fan.
    Such a fan lying before a seat that was seen but whose hand stack was never read (``unread_seat``) is that
    seat's, plain or not: a player sits there, and it is no other seat's back (seed 99800, four players: the
    red-pink seat's hand unread, its fan of 10 read "red-pink" 429 to 9, counted as red-red's)."""

    def rate(spot: _Spot, back: str) -> float:
        # votes per frame the card has lain there: a card laid out late has had fewer frames to gather them
        return spot.votes.get(back, 0.0) / max(1, now - spot.born + 1)

    best_read = max((rate(spot, b) for spread in spreads for spot in spread for b in spot.votes), default=0.0)
    clear: Counter[str] = Counter()
    found_in: dict[str, set[int]] = {}
    mixed: set[int] = set()  # the spreads read as several backs: stacks fanned where they lay
    plain: set[str] = set()
    alike: set[str] = set()
    unread: set[str] = set()
    for i, spread in enumerate(spreads):
        votes: Counter[str] = Counter()
        for spot in spread:
            named = {b: v for b, v in spot.votes.items() if b != UNKNOWN_BACK and v > 0}
            votes.update(named)
            if not named:
                continue
            best = max(named, key=lambda b: named[b])
            if best not in owners and named[best] >= STRANGER_SHARE * sum(named.values()):
                clear[best] += 1
                found_in.setdefault(best, set()).add(i)
                if rate(spot, best) >= STRANGER_PLAIN * best_read:
                    plain.add(best)
        if votes and max(votes.values()) < ALIKE_SHARE * sum(votes.values()):
            mixed.add(i)
        if votes and len(spread) >= ALIKE_CARDS and owner_at is not None:
            best = max(votes, key=lambda b: votes[b])
            fan_alike = best not in owners and votes[best] >= ALIKE_SHARE * sum(votes.values())
            if fan_alike and owner_at(_middle(spread)) is None:
                alike.add(best)
                if unread_seat is not None and unread_seat(_middle(spread)):
                    unread.add(best)
    # a fan read alike before a seat is that seat's, its strips misread alike: a back needs another spread, or a
    # fan of several backs, to be a player's of its own
    often = {b for b, n in clear.items() if n >= STRANGER_CARDS and (len(found_in[b]) > 1 or found_in[b] & mixed)}
    return frozenset(plain & (often | alike) | unread)


def _best_of(votes: Mapping[str, float], owners: frozenset[str]) -> str:
    """The most voted back, among ``owners`` when any of them has a vote (any back when none is known).

    >>> _best_of({"blue-purple": 3.0, "red-red": 1.0}, frozenset({"red-red", "red-light-blue"}))
    'red-red'
    >>> _best_of({"blue-purple": 3.0, "?": 5.0}, frozenset({"red-red"}))
    'blue-purple'
    """
    named = {b: v for b, v in votes.items() if b != UNKNOWN_BACK and v > 0}
    known = {b: v for b, v in named.items() if b in owners} or named
    return max(known, key=lambda b: known[b]) if known else UNKNOWN_BACK


def _spreads(spots: Sequence[_Spot], link: float) -> list[list[_Spot]]:
    """``spots`` in chains: single linkage at ``link`` mm; a card left alone so joins the spread it lies on, or
    that lies on it (its centre on the other's outline grown by :data:`LYING_ON_MM`, or the other's on its): a
    fan's top card lies whole along the fan, its centre half a card from the strip below, and cut off it, it was
    taken for a leftover of its own (a rendered two-player round, seed 100305: a centre fan's top card counted a
    red-red leftover, two points off; the sample round: a leftover line's top card, boxed twice, cut a line of 5
    into 4 and 2 spots, counted 2 and 2). Only a card left alone (its spots all within :data:`ONE_CARD_MM`): two
    lines of cards lying close (eight players' leftovers) stay two."""
    parent = list(range(len(spots)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(spots):
        for j in range(i + 1, len(spots)):
            b = spots[j]
            if abs(a.x - b.x) <= link and abs(a.y - b.y) <= link and math.hypot(a.x - b.x, a.y - b.y) <= link:
                parent[root(i)] = root(j)
    # a card left alone (boxed once, or twice) joins the spread it lies on, or that lies on it
    chains: dict[int, list[_Spot]] = {}
    for i, spot in enumerate(spots):
        chains.setdefault(root(i), []).append(spot)
    alone = {r for r, chain in chains.items() if _one_card(chain)}
    outlines = [_grown(spot.quads[-1], LYING_ON_MM) if spot.quads else None for spot in spots]
    for i, a in enumerate(spots):
        if root(i) not in alone:
            continue
        for j, b in enumerate(spots):
            if abs(a.x - b.x) > TOUCHING_MM or abs(a.y - b.y) > TOUCHING_MM:
                continue  # too far apart to touch: the outlines' tests cost a count's hundreds of cards dearly
            if root(j) != root(i) and (_lies_on(a, outlines[j]) or _lies_on(b, outlines[i]) or _overlapping(a, b)):
                parent[root(i)] = root(j)
                break
    groups: dict[int, list[_Spot]] = {}
    for i, spot in enumerate(spots):
        groups.setdefault(root(i), []).append(spot)
    return list(groups.values())


def _grown(quad: Quad, by: float) -> tuple[Point, ...]:
    """``quad`` with each corner moved ``by`` mm further out along its diagonal from the middle."""
    mx, my = sum(x for x, _ in quad) / 4, sum(y for _, y in quad) / 4
    grown = []
    for x, y in quad:
        d = math.hypot(x - mx, y - my) or 1.0
        grown.append((x + (x - mx) / d * by * math.sqrt(2), y + (y - my) / d * by * math.sqrt(2)))
    return tuple(grown)


def _lies_on(spot: _Spot, outline: tuple[Point, ...] | None) -> bool:
    return outline is not None and point_in_polygon((spot.x, spot.y), outline)


def _overlapping(a: _Spot, b: _Spot) -> bool:
    """Whether the two cards' latest outlines overlap by :data:`OVERLAP_SHARE` of the smaller: one lies on the
    other (a line's top card, whole, half over the strip below: its centre a strip and half a card from the
    strip's, 40-45 mm at a 20-30 mm step)."""
    if not a.quads or not b.quads:
        return False
    first, second = tuple(a.quads[-1]), tuple(b.quads[-1])
    smaller = min(abs(polygon_area(first)), abs(polygon_area(second)))
    return smaller > 0 and abs(polygon_area(_clipped(first, second))) >= OVERLAP_SHARE * smaller


def _clipped(subject: Sequence[Point], clip: Sequence[Point]) -> list[Point]:
    """``subject`` clipped to the convex polygon ``clip`` (Sutherland-Hodgman), either winding."""
    sign = 1.0 if polygon_area(clip) >= 0 else -1.0
    out = list(subject)
    for a, b in zip(clip, [*clip[1:], *clip[:1]], strict=True):
        points, out = out, []
        for k, here in enumerate(points):
            before = points[k - 1]
            if _left_of(a, b, here, sign):
                if not _left_of(a, b, before, sign):
                    out.append(_crossing(a, b, before, here))
                out.append(here)
            elif _left_of(a, b, before, sign):
                out.append(_crossing(a, b, before, here))
    return out


def _left_of(a: Point, b: Point, p: Point, sign: float) -> bool:
    """Whether ``p`` lies on the inner side of the edge ``a`` -> ``b`` of a polygon wound as ``sign`` says."""
    return sign * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) >= 0


def _crossing(a: Point, b: Point, p: Point, q: Point) -> Point:
    """Where the segment ``p`` -> ``q`` crosses the line through ``a`` and ``b``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = b[0] - a[0], b[1] - a[1]
    t = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / (ey * dx - ex * dy)
    return p[0] + t * dx, p[1] + t * dy


def with_owners(count: SpreadCount, named: Mapping[str, int], total: int) -> SpreadCount:
    """The centre count given the owners of some centre cards, seen in play (:mod:`referee.tracker.owners`):
    each back holds at least the cards named its. A back the spreads read fewer of is raised to its named cards,
    and the cards it gains are those the spreads showed without a known back, then those they missed (up to the
    stacks' ``total``), then cards taken, one by one, from the backs the spreads read most more of than was
    named (its strips were read as theirs), among those play named any cards for while there are such: a back
    with none named sits where the picture does not show its plays (eight players, seeds 100900-100906: backs
    whose seats' plays went unseen lost 1-3 cards each to seats whose plays were over-counted; taking from them
    last, the centre's error 181 -> 153 cards over 56 players, and 210 -> 190 at seeds 100800-100806, where 4 -> 6
    players came out exact; four and two players unchanged); the spreads' count
    stands wherever play does not contradict it.
    Unchanged when nothing was named, or more than the stacks' ``total`` (the stacks' count is then in doubt,
    and the cross-check says so).

    >>> spread = SpreadCount(centre={"red-red": 9, "red-black": 2, "blue-blue": 5})  # truth 6, 5 and 5
    >>> with_owners(spread, {"red-red": 5, "red-black": 5, "blue-blue": 5}, total=16).centre
    {'blue-blue': 5, 'red-black': 5, 'red-red': 6}
    """
    named = {back: n for back, n in named.items() if n > 0}
    if not named or sum(named.values()) > total:
        return count
    centre = Counter(count.centre)
    raised = 0
    for back, n in named.items():
        raised += max(0, n - centre[back])
        centre[back] = max(centre[back], n)
    # the raised cards are first those the spreads showed without a known back, then those they missed
    unknown = count.unknown_centre - min(raised, count.unknown_centre)
    raised -= count.unknown_centre - unknown
    raised -= min(raised, max(0, total - count.centre_total))
    for _ in range(raised):
        # a back no card was named for is one whose seat's plays went unseen (cut off by the picture), not one read
        # too often: cards are taken from it last
        spare = [b for b in centre if centre[b] > named.get(b, 0) and named.get(b, 0) > 0] or [
            b for b in centre if centre[b] > named.get(b, 0)
        ]
        if not spare:
            break
        # the back read most more often than play showed it; among equals, the one read most
        back = max(spare, key=lambda b: (centre[b] - named.get(b, 0), centre[b], b))
        centre[back] -= 1
    return replace(count, centre=dict(sorted(centre.items())), unknown_centre=unknown, centre_named=sum(named.values()))


def shared_by_play(
    count: SpreadCount, named: Mapping[str, int], open_cards: Sequence[OpenCard], total: int
) -> SpreadCount:
    """The centre count, counted card by card (not measured fan by fan), from the owners play named
    (``named``) and the cards it left unnamed (``open_cards``), each given to one of the players who may have
    played it: the one the arms leant to (however few frames) where the spreads read more of it than it holds so
    far, else the one the spreads read most more of, then the one the arms leant to, then the one the spreads
    read least (the most read is likeliest over-read: its strips taken for others' backs);
    one player a copy of each card. A back read beyond play by just what others were read short of it took their
    strips (:func:`misread_as`): it counts as read no more than play named. Cards the stacks' ``total`` holds
    beyond those go by the spreads alike.

    Where the centre's spreads showed too few cards to count and their missed cards were shared out among the backs
    in proportion to those seen (``count.centre_shared``), what they read of each back beyond play is that
    proportion, not a witness: a card play left unnamed goes to the player the arms leant to, else to the one play
    named fewest cards for, whose plays the camera followed least. Seeds 119002 and 120004, four players, held
    out (33 and 24 of 79 and 68 centre cards seen one by one): red-red read 35 for 20 named and red-black 31 for 19
    took the unnamed cards of players read short; of 70 rounds pickled at the score (seeds 117000-120006, 2-8
    players), 9 were so shared: centres exact 3 more (198 of 252 players), players exact 2 more, none worse.

    The spreads' count of each back stands for how many of the unnamed cards are that back's, not for the cards
    play named: an eight-player table's fans read the unseen seats' backs as their look-alikes at seats play
    watched, and raising each back only to the cards named for it (:func:`with_owners`) left those cards with
    the watched seats. 34 rounds pickled at the score (seeds 117000-117006 at 2/4/8 players and both looks,
    118000-118005 at two) and counted again offline, the rounds counted card by card: centres exact 46 -> 53 of
    78 players, the centre's error 74 -> 70 cards, players exact 42 -> 46, no round worse.

    >>> from referee.tracker.owners import OpenCard

    Play named 8, 4 and 2 cards and left three unnamed; blue-blue's strips were read as red-red's:

    >>> spread = SpreadCount(centre={"red-red": 12, "red-black": 4, "blue-blue": 2})  # truth 8, 5 and 4
    >>> unnamed = [OpenCard("r1", ("red-black", "blue-blue"), None), OpenCard("g2", ("blue-blue",), None)]
    >>> unnamed.append(OpenCard("y3", ("red-black", "blue-blue"), "blue-blue"))  # the arms leant to blue-blue
    >>> shared_by_play(spread, {"red-red": 8, "red-black": 4, "blue-blue": 2}, unnamed, total=17).centre
    {'blue-blue': 4, 'red-black': 5, 'red-red': 8}
    >>> with_owners(spread, {"red-red": 8, "red-black": 4, "blue-blue": 2}, total=17).centre
    {'blue-blue': 2, 'red-black': 4, 'red-red': 12}

    Spreads seen too thinly to count, their missed cards shared out by the few backs seen (red-red's strips read
    on blue-blue's cards): a card play left unnamed, either player's, goes to the one play named fewer cards for.

    >>> thin = SpreadCount(centre={"red-red": 12, "blue-blue": 1}, centre_shared=True)  # truth 8 and 5
    >>> unnamed = [OpenCard("r1", ("red-red", "blue-blue"), None)]
    >>> shared_by_play(thin, {"red-red": 8, "blue-blue": 4}, unnamed, total=13).centre
    {'blue-blue': 5, 'red-red': 8}
    >>> shared_by_play(replace(thin, centre_shared=False), {"red-red": 8, "blue-blue": 4}, unnamed, total=13).centre
    {'blue-blue': 4, 'red-red': 9}
    """
    centre: Counter[str] = Counter({back: n for back, n in named.items() if n > 0})
    players = list(dict.fromkeys([*centre, *count.centre, *(p for card in open_cards for p in card.players)]))
    holders: defaultdict[str, set[str]] = defaultdict(set)
    reads = dict(count.centre) | {back: named.get(back, 0) for back in misread_as(count.centre, named)}

    def give(among: Sequence[str], leaning: str | None) -> str:
        beyond = {b: reads.get(b, 0) - centre[b] for b in among}

        def rank(b: str) -> tuple[object, ...]:
            if count.centre_shared:  # the spreads' reading of each back is the few cards seen, scaled: no witness
                return (b == leaning, -centre[b], b)
            return (b == leaning and beyond[b] > 0, beyond[b], b == leaning, -reads.get(b, 0), b)

        back = max(among, key=rank)
        centre[back] += 1
        return back

    for card in sorted(open_cards, key=lambda c: len(c.players)):
        among = [p for p in card.players if p not in holders[card.card]] or [
            p for p in players if p not in holders[card.card]
        ]
        if among:
            holders[card.card].add(give(among, card.leaning))
    for _ in range(total - sum(centre.values())):
        if not players:
            break
        give(players, None)
    return replace(count, centre=dict(sorted(centre.items())), unknown_centre=0, centre_named=sum(named.values()))


def misread_as(reads: Mapping[str, int], named: Mapping[str, int]) -> tuple[str, ...]:
    """The backs the spreads read beyond play (``reads`` against ``named``) that took the cards of those read short
    of it: the fewest whose excess sums to the whole shortfall, when just one such set is found (else none). A
    back read short of play had its strips read as another's, and a look-alike takes them all; only what is read
    beyond play past that is unnamed cards (seed 118005, four players: red-red read 3 short, red-black 3 beyond,
    red-pink 1 beyond: the one card play left unnamed was red-pink's, and went to red-black).

    >>> misread_as({"red-red": 14, "red-black": 14, "red-pink": 12}, {"red-red": 17, "red-black": 11, "red-pink": 11})
    ('red-black',)
    >>> misread_as({"a": 12, "b": 13, "c": 11}, {"a": 14, "b": 11, "c": 9})  # b or c: either may have taken a's
    ()
    """
    excess = {back: n - named.get(back, 0) for back, n in reads.items() if n > named.get(back, 0)}
    short = sum(max(0, n - reads.get(back, 0)) for back, n in named.items())
    if not short:
        return ()
    for size in range(1, len(excess) + 1):
        found = [backs for backs in combinations(sorted(excess), size) if sum(excess[b] for b in backs) == short]
        if found:
            return found[0] if len(found) == 1 else ()
    return ()


def cross_check(
    count: SpreadCount, stacks: Sequence[Stack], *, inferred: Mapping[int, int] | None = None
) -> list[CountWarning]:
    """Warnings where the spreads disagree with the stacks seen during the round (empty when they agree).

    >>> from referee.centre import CentreCard
    >>> from referee.cards import Card
    >>> stacks = [Stack(1, tuple(CentreCard(Card.parse(f"r{n}")) for n in range(1, 4)))]
    >>> cross_check(SpreadCount(centre={"red-red": 2}), stacks)[0].message
    'the centre spread holds 2 cards but the stacks seen add up to 3: stack 1 r3 (3); backs counted: red-red 2'
    """
    inferred = inferred or {}
    warnings: list[CountWarning] = []
    heights = sum(s.height for s in stacks)
    if count.centre_total != heights:
        warnings.append(_total_mismatch(count, stacks, heights, inferred))
    for back in dict.fromkeys([*count.centre, *count.leftover]):
        centre, left = count.centre.get(back, 0), count.leftover.get(back, 0)
        if left > LIGRETTO_PILE_SIZE or centre + left > CARDS_PER_SET:
            warnings.append(
                CountWarning(
                    f"back {back}: {centre} in the centre and {left} left over cannot come from one set", (), (back,)
                )
            )
    if count.centre_seen is not None and count.centre_seen != count.centre_total:
        missed = count.centre_total - count.centre_seen
        how = (
            f"the other {missed} of the stacks' {count.centre_total} were shared out among the backs as those seen"
            if count.centre_shared
            else f"its spreads' lengths were counted as the stacks' {count.centre_total}"
        )
        warnings.append(
            CountWarning(
                f"the centre spread showed {count.centre_seen} cards one by one; {how}",
                tuple(s.id for s in stacks),
                tuple(count.centre),
            )
        )
    if count.unknown_centre or count.unknown_leftover:
        warnings.append(
            CountWarning(
                f"{count.unknown_centre} centre and {count.unknown_leftover} leftover cards showed no known back"
            )
        )
    return warnings


def _total_mismatch(
    count: SpreadCount, stacks: Sequence[Stack], heights: int, inferred: Mapping[int, int]
) -> CountWarning:
    # the stacks with plays inferred unseen are the likeliest to be off: name them first
    suspects = sorted(stacks, key=lambda s: (-inferred.get(s.id, 0), s.id))
    parts = []
    for s in suspects:
        note = f", {inferred[s.id]} inferred unseen" if inferred.get(s.id) else ""
        parts.append(f"stack {s.id} {s.top} ({s.height}{note})")
    backs = ", ".join(f"{b} {n}" for b, n in count.centre.items()) or "none"
    message = (
        f"the centre spread holds {count.centre_total} cards but the stacks seen add up to {heights}: "
        f"{', '.join(parts) or 'no stacks'}; backs counted: {backs}"
    )
    return CountWarning(message, tuple(s.id for s in suspects), tuple(count.centre))


def _named_over_spreads(spreads: SpreadCount, count: SpreadCount, named: Mapping[str, int]) -> list[CountWarning]:
    """A warning per back the spreads showed fewer of than play did (:func:`with_owners` raised it), and for
    those it lowered to make room."""
    changed = {b for b in {*spreads.centre, *count.centre} if spreads.centre.get(b, 0) != count.centre.get(b, 0)}
    if not changed:
        return []
    parts = []
    for b in sorted(changed):
        before, after = spreads.centre.get(b, 0), count.centre.get(b, 0)
        seen = f" ({named.get(b, 0)} seen played from its seat)" if after > before else ""
        parts.append(f"{b} {before} -> {after}{seen}")
    return [
        CountWarning(
            "the centre spread showed fewer of some backs than were seen played from their seats; counted: "
            + ", ".join(parts),
            backs=tuple(sorted(changed)),
        )
    ]


@dataclass(frozen=True)
class Scored:
    """The counted round: the event to log and the warnings to show."""

    event: RoundScored
    warnings: tuple[CountWarning, ...]


def score_count(
    count: SpreadCount,
    stacks: Sequence[Stack],
    *,
    backs: Iterable[str] = (),
    round: int = 1,
    t: float = 0.0,
    frame: int = 0,
    inferred: Mapping[int, int] | None = None,
    named: Mapping[str, int] | None = None,
    open_cards: Sequence[OpenCard] | None = None,
) -> Scored:
    """Scores per back from the counts (every back of ``backs`` scores, 0 when absent) and cross-checks them.
    ``named``: the centre cards whose owners were seen in play, per back (see :func:`with_owners`); the spreads'
    own count is what is cross-checked against the stacks. ``open_cards``: the centre cards play left unnamed,
    with who may have played each: given, the unnamed cards are shared out among those (:func:`shared_by_play`)
    rather than left to the spreads' count of each back."""
    warnings = cross_check(count, stacks, inferred=inferred)
    if (named or open_cards) and not count.centre_measured:
        # a fan handed back and measured in the picture is its owner's whole; a play misattributed by the
        # seats' watch (one in 16, over 12 rendered rounds) would move a card between players
        spreads = count
        total = sum(s.height for s in stacks)
        if open_cards is not None and sum((named or {}).values()) + len(open_cards) <= total:
            count = shared_by_play(count, named or {}, open_cards, total)
        else:
            count = with_owners(count, named or {}, total)
        warnings += _named_over_spreads(spreads, count, named or {})
    players = list(dict.fromkeys([*backs, *count.centre, *count.leftover]))
    centre = {b: min(count.centre.get(b, 0), CARDS_PER_SET) for b in players}
    leftover = {b: min(count.leftover.get(b, 0), LIGRETTO_PILE_SIZE) for b in players}
    for b in players:
        centre[b] = min(centre[b], CARDS_PER_SET - leftover[b])
    try:
        scores = score_round(centre, leftover, players)
    except ScoringError as exc:  # clamped above; kept as a guard so a bad count never stops the referee
        warnings.append(CountWarning(str(exc)))
        scores = {}
    event = RoundScored(t=t, frame=frame, round=round, centre=centre, leftover=leftover, scores=scores)
    return Scored(event, tuple(warnings))

"""The seats, learnt from the cards lying on the table before play, and where each card after the round belongs.

Before the first card is played every player's places are laid out round the centre: the row, the Ligretto
pile and the hand stack, whose back names its owner. After the stop, cards are laid out for counting in one of
two places relative to a player's places (``ligretto-rules.md``, "Scoring"): the centre cards, sorted by back,
either spread where the stacks lay (in the centre zone) or handed back to their owner and laid between that
player's places and the centre; and the player's Ligretto-pile leftovers, laid out beyond the places. So a card
seen after the round is sorted by its distance from the table's middle, compared with the places in line with
it: nearer the middle than those places it is a centre card, farther it is a leftover (face up too). Level with
them, a face is a row card and counts for nothing, and a back is a leftover laid where the row was (the hands are
turned up after the round, so the only backs left lying are cards laid out to count), unless it lies in a slot
where a face lay at the opening: row cards keep their slots, so a back read there is a row card misread
(:meth:`SeatSorter.in_a_row_slot`).

A card laid out in front of a player is that player's: the seat's owner is a surer witness than a back read on
a thin strip of a fanned card. The owner is the back read on the seat's face-down cards before play (None when
none was read there: the card's own back then decides).

>>> places = [Sighting.back_at("red-red", (0.0, 500.0)), Sighting.face_at("g4", (70.0, 500.0))]
>>> sorter = SeatSorter.from_opening(places, middle=(0.0, 0.0))
>>> frame = FrameSightings(60.0, 1800, ())
>>> [sorter(Sighting.back_at("blue-blue", (30.0, y)), frame) for y in (380.0, 500.0, 620.0)]
[('centre', 'red-red'), ('leftover', 'red-red'), ('leftover', 'red-red')]
>>> sorter(Sighting.face_at("g4", (30.0, 500.0)), frame) is None  # a row card
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from referee.backs import default_boxes
from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.sightings import FrameSightings, Point, Sighting, point_in_polygon, run_direction

IN_LINE_MM = CARD_WIDTH_MM * 1.5
"""A place is in line with a card when it lies this close to the line from the middle through the card: a row
card is a card width wide, and a spread runs along the row it lies before."""
CLEAR_MM = 0.4 * CARD_HEIGHT_MM
"""How far beyond the places (or short of them) a card must lie to be a leftover (or a centre card): the places
are cards lying askew, their centres within half a card of their line, and a spread lies a card's height away."""
OWNER_REACH_MM = 5 * CARD_WIDTH_MM
"""The farthest a seat's owning back (its hand stack) lies sideways from a card laid out in front of that seat:
a row of five and the piles beside it."""
SAME_PLACE_MM = 25.0
"""Backs read this close in the opening frames lie at one place (a hand stack read in several frames)."""
OWNER_EVIDENCE = 0.5
"""The summed identity confidence of one back's readings at a place that names the place's owner."""
AMBIGUOUS = 1.5
"""A second owner this many times as far as the nearest makes the card's seat unsure (eight players sit a row's
length apart)."""
SURE_OWNER = 0.85
"""A seat's back read with this mean identity confidence or more keeps its name whatever the table's other backs
say (see :func:`box_mates`): a sure reading of a lone back of another box is a player who brought their own."""
HANDED_BACK_CARDS = 3
HANDED_BACK_ACROSS = 0.9
HANDED_BACK_BEFORE = (0.6 * CARD_HEIGHT_MM, 1.8 * CARD_HEIGHT_MM)
"""A fan handed back to a player (see :meth:`SeatSorter.handed_back_to`): this many cards or more, running within
about 25 degrees of the seat's own direction, its middle this far (mm) nearer the middle than the seat's farthest
place: one line a card's height and a bit before them (6 rendered rounds laid so: 0.9-1.4 card heights; a stack
fanned where it lay, in 6 others: once at 2.5)."""
LEFTOVER_BEYOND_MM = CARD_HEIGHT_MM
"""Where a seat's leftovers lie: about a card's height beyond its outermost place (their line's middle)."""
LEFTOVER_HALF_LINE_MM = 4.5 * CARD_WIDTH_MM / 2
"""Half the length of a full pile's leftover line (ten cards, each about half over the last)."""


ROW_SLOT_MM = CARD_WIDTH_MM / 2
"""A card whose centre lies this close to a face seen at the opening lies in that row slot. A row card stays face
up in its slot after the round, yet the detector boxes one now and then as a back, in every frame (seed 100805:
a blue 6, 120 of 120); cards laid out to count lie a card's height or more beyond the row (leftover lines'
cards 91-123 mm from the nearest slot, 14 four-player rounds, seeds 100700-100706 and 100800-100806; the row
cards read as backs, 1-5 mm)."""

SEAT_GAP = 1.2
"""Hands lying round the middle with no gap between neighbours wider than this many times an even share of the
circle leave no room for another seat: with ``n`` hands seen of ``n + 1`` seats, the gap where one is missing is
``2n / (n + 1)`` shares (two of three seats seen: 1.33; seven of eight: 1.75); rendered two-player tables 1.03."""
SEAT_REACH_MM = 9 * CARD_WIDTH_MM
"""The farthest a seat's places run along the table from its hand stack: discard, a row of five, the pile, with
room between cards (a seat cut off by the picture's edge leaves its neighbour's run otherwise unbounded)."""


MISSING_HAND_SLOTS = 2.0
"""A hand stack lies this many of its row's steps behind the row's first face: the discard pile's slot between
(rendered tables: 1.9-2.0 steps, seeds 100601 and 100606)."""
MISSING_HAND_DEPTH_MM = 1.5 * CARD_HEIGHT_MM
"""How far nearer or farther from the middle than a hand its seat's faces lie (as in play, see
:data:`referee.tracker.owners.ROW_DEPTH_MM`)."""
ROW_LINK_MM = 2 * CARD_WIDTH_MM
"""Faces this close lie in one row (a row's cards lie a little more than a card's width apart)."""
ROW_MIN_CARDS = 2
"""The fewest faces, each at its own place, that make a row without a hand (a single face is as likely a misread)."""


@dataclass(frozen=True)
class Hand:
    """A player's hand stack at the opening: where it lay round the middle, and its owner (None: unread)."""

    radius: float
    angle: float
    owner: str | None


@dataclass(frozen=True)
class _Place:
    radius: float
    angle: float
    owner: str | None
    hand: bool = False
    """A face-down card at the opening: a player's hand stack."""


class SeatSorter:
    """A :data:`referee.tracker.counting.Sorter` that knows the seats (see the module docstring)."""

    def __init__(
        self,
        places: Iterable[_Place],
        middle: Point,
        view: tuple[Point, ...] | None = None,
        turn: int | None = None,
        aliases: dict[str, str] | None = None,
    ) -> None:
        self.places = tuple(places)
        self.middle = middle
        self.view = view
        """The picture's outline on the table plane (None: unknown): a seat's leftovers laid beyond it are not
        seen, and their count is short."""
        self.aliases: dict[str, str] = dict(aliases or {})
        """Back names the recogniser gives this table's backs, and the names they stand for (see
        :func:`box_mates`): a back read under one name is that player's card all round."""
        self._hands: list[Hand] | None = None
        self.turn = turn
        """Which way round the table each seat's places run from its hand stack (+1 counter-clockwise on the
        table plane, -1 clockwise), once play has shown it (:meth:`referee.tracker.owners.SeatWatch.turn`); None:
        unknown, and a card is the nearest owned place's."""

    @classmethod
    def from_opening(
        cls,
        sightings: Iterable[Sighting],
        middle: Point,
        zone: tuple[Point, ...] | None = None,
        view: tuple[Point, ...] | None = None,
    ) -> SeatSorter:
        """The seats from the cards lying on the table before play (those outside the centre ``zone``), possibly
        read in several frames. The backs read at one place (within :data:`SAME_PLACE_MM`) vote for its owner
        by their identity confidence; a back with :data:`OWNER_EVIDENCE` in all names the owner of the places
        round it (one sure reading, or two unsure ones that agree: a hand stack cut by the picture's edge reads
        at 0.4), each back one seat's (see :func:`_one_seat_each`)."""
        kept = [s for s in sightings if zone is None or not point_in_polygon(s.centre, zone)]
        backs = [s for s in kept if s.kind == "back" and s.back]
        votes: list[dict[str, float]] = []
        readings: list[list[Sighting]] = []
        for s in kept:
            here: dict[str, float] = {}
            near = []
            if s.kind == "back":
                for b in backs:
                    if b.back and math.hypot(b.centre[0] - s.centre[0], b.centre[1] - s.centre[1]) <= SAME_PLACE_MM:
                        here[b.back] = here.get(b.back, 0.0) + b.identity_confidence
                        near.append(b)
            votes.append(here)
            readings.append(near)
        owners = _one_seat_each([s.centre for s in kept], votes)
        read_as: dict[str, list[Sighting]] = {}
        for owner, near in zip(owners, readings, strict=True):
            if owner:
                read_as.setdefault(owner, []).extend(b for b in near if b.back == owner)
        aliases = box_mates(read_as)
        places = (
            _Place(*_polar(s.centre, middle), aliases.get(owner, owner) if owner else None, s.kind == "back")
            for s, owner in zip(kept, owners, strict=True)
        )
        return cls(places, middle, view, aliases=aliases)

    @property
    def owners(self) -> tuple[str, ...]:
        """The backs read at the seats, one per player seen (in order round the table)."""
        ordered = sorted((p.angle, p.owner) for p in self.places if p.owner)
        return tuple(dict.fromkeys(owner for _, owner in ordered if owner))

    def __call__(self, sighting: Sighting, frame: FrameSightings) -> tuple[str, str | None] | None:
        if frame.zone is not None and frame.in_zone(sighting):
            return ("centre", None) if sighting.kind == "back" else None
        radius, angle = _polar(sighting.centre, self.middle)
        # the places in line with the card, else (the end of a long spread, places cut off by the frame) the
        # places of the seat it lies before
        in_line = [p for p in self.places if _sideways(p, radius, angle) <= IN_LINE_MM] or [
            p for p in self.places if _sideways(p, radius, angle) <= OWNER_REACH_MM
        ]
        owner = self._owner_near(radius, angle)
        if not in_line:  # no seat seen here: outside the centre zone is a leftover, as without seats
            return ("leftover", owner) if sighting.kind == "back" else None
        if radius > max(p.radius for p in in_line) + CLEAR_MM:
            return ("leftover", owner)  # face up too: a leftover laid out face up is still its owner's
        if sighting.kind != "back":
            return None  # a row card
        if radius < min(p.radius for p in in_line) - CLEAR_MM:
            return ("centre", owner)
        # level with the places: after the round the only backs left there are cards laid out to count
        # (hands are turned up), and a pile's leftovers laid where the row was are leftovers all the same
        return ("leftover", owner)

    def leftovers_unseen(self) -> tuple[str, ...]:
        """The owners whose leftovers would lie outside the picture, all or in part (:data:`LEFTOVER_BEYOND_MM`
        beyond the outermost of their seat's places, in line with the seat, and as long as a full pile's line):
        a seat the picture cuts off (seed 99000, eight players: a line of 9 read as 4, its end past the edge). A
        line whose middle lies just past the edge still shows a good part of each card, and is read (seed 99000,
        two players: 5 of 5 read, their line's middle about 10 mm past the edge); one a quarter card farther is
        not.

        >>> places = [Sighting.back_at("red-red", (0.0, 500.0)), Sighting.back_at("blue-blue", (0.0, -300.0))]
        >>> view = ((-400.0, -450.0), (400.0, -450.0), (400.0, 450.0), (-400.0, 450.0))
        >>> SeatSorter.from_opening(places, middle=(0.0, 0.0), view=view).leftovers_unseen()
        ('red-red',)
        """
        if self.view is None:
            return ()
        unseen = []
        for owner in self.owners:
            seat = [p for p in self.places if p.owner == owner or self._owner_near(p.radius, p.angle) == owner]
            angle = math.atan2(sum(math.sin(p.angle) for p in seat), sum(math.cos(p.angle) for p in seat))
            radius = max(p.radius for p in seat) + LEFTOVER_BEYOND_MM - CARD_HEIGHT_MM / 4  # half their near half
            middle = (self.middle[0] + radius * math.cos(angle), self.middle[1] + radius * math.sin(angle))
            # and the line's ends, were it long: a pile's ten cards laid each half over the last
            # (their near edge: an end card half in the picture is read)
            inward = (-math.cos(angle) * CARD_HEIGHT_MM / 4, -math.sin(angle) * CARD_HEIGHT_MM / 4)
            across = (-math.sin(angle) * LEFTOVER_HALF_LINE_MM, math.cos(angle) * LEFTOVER_HALF_LINE_MM)
            ends = [(middle[0] + inward[0] + k * across[0], middle[1] + inward[1] + k * across[1]) for k in (-1, 1)]
            if not all(point_in_polygon(place, self.view) for place in (middle, *ends)):
                unseen.append(owner)
        return tuple(unseen)

    def every_seat_named(self) -> bool:
        """Whether the picture shows every seat at the table, each with its owner: every hand stack is named, and
        they lie evenly round the middle, no gap between neighbours wide enough for another seat
        (:data:`SEAT_GAP`). Players then are exactly these owners, and a back no seat showed is a misread (seed
        99802, two players: a red-light-blue fan read "blue-blue" on 4 cards counted 2 cards for a third player).
        An eight-player table whose far seat the picture cuts off leaves a double gap.

        >>> hands = [Sighting.back_at(b, p) for b, p in (("red-red", (0.0, 500.0)), ("blue-blue", (0.0, -500.0)))]
        >>> SeatSorter.from_opening(hands, middle=(0.0, 0.0)).every_seat_named()
        True
        >>> a_quarter_round = hands[:1] + [Sighting.back_at("blue-blue", (500.0, 0.0))]  # room for more seats
        >>> SeatSorter.from_opening(a_quarter_round, middle=(0.0, 0.0)).every_seat_named()
        False
        """
        return all(hand.owner is not None for hand in self.hands()) and self.no_seat_missing()

    def no_seat_missing(self) -> bool:
        """Whether the hand stacks seen lie evenly round the middle, no gap between neighbours wide enough for
        another seat (:data:`SEAT_GAP`): a seat the picture cuts off leaves one (see :meth:`every_seat_named`)."""
        hands = self.hands()
        if len(hands) < 2:
            return False
        return max(gap for _, gap in _gaps_round(hands)) <= SEAT_GAP * 2 * math.pi / len(hands)

    def before_an_unread_seat(self, point: Point) -> bool:
        """Whether a card at ``point`` lies before a seat whose hand stack was seen but never read (its places in
        line with the card, and no owned place about as near): the seat of a player whose back nobody knows.

        >>> hands = [Sighting.back_at("red-red", (0.0, 500.0)), Sighting.back_at(None, (0.0, -500.0))]
        >>> sorter = SeatSorter.from_opening(hands, middle=(0.0, 0.0))
        >>> sorter.before_an_unread_seat((20.0, -380.0)), sorter.before_an_unread_seat((20.0, 380.0))
        (True, False)
        """
        radius, angle = _polar(point, self.middle)
        unread = [h for h in self.hands() if h.owner is None]
        if not unread or self._owner_near(radius, angle) is not None:
            return False
        return any(_sideways(_Place(h.radius, h.angle, None, True), radius, angle) <= OWNER_REACH_MM for h in unread)

    def in_a_row_slot(self, point: Point) -> bool:
        """Whether a card at ``point`` lies in a row slot: within :data:`ROW_SLOT_MM` of a face seen there at the
        opening (a slot keeps a face all round: a card played from it is replaced from the pile).

        >>> places = [Sighting.back_at("red-red", (0.0, 500.0)), Sighting.face_at("g4", (70.0, 500.0))]
        >>> sorter = SeatSorter.from_opening(places, middle=(0.0, 0.0))
        >>> sorter.in_a_row_slot((74.0, 497.0)), sorter.in_a_row_slot((70.0, 600.0)), sorter.in_a_row_slot((0.0, 500.0))
        (True, False, False)
        """
        return any(
            not p.hand and math.dist(point, _cartesian(p.radius, p.angle, self.middle)) <= ROW_SLOT_MM
            for p in self.places
        )

    def handed_back_to(self, centres: Sequence[Point]) -> str | None:
        """The owner a fan of centre cards was handed back to, when it lies as the rules' sorting lays one: in
        front of a seat whose owner is known, about a card's height nearer the middle than its places, running
        along the seat (across the line to the middle). None for anything else: a stack fanned where it lay runs
        its own way, and holds the backs of whoever built it.

        >>> sorter = SeatSorter.from_opening([Sighting.back_at("red-red", (0.0, 500.0))], middle=(0.0, 0.0))
        >>> sorter.handed_back_to([(x, 390.0) for x in (-28.0, -14.0, 0.0, 14.0)])
        'red-red'
        >>> sorter.handed_back_to([(0.0, y) for y in (350.0, 364.0, 378.0, 392.0)]) is None  # runs to the middle
        True
        """
        if len(centres) < HANDED_BACK_CARDS:
            return None
        mx, my = sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres)
        radius, angle = _polar((mx, my), self.middle)
        owner = self._owner_near(radius, angle)
        seat = [p for p in self.places if _sideways(p, radius, angle) <= IN_LINE_MM]
        if owner is None or not seat or radius <= 0:
            return None
        run = run_direction(centres)  # the fan's direction
        across = abs(math.sin(run - angle))  # 1: along the seat, 0: towards the middle
        before = max(p.radius for p in seat) - radius
        near, far = HANDED_BACK_BEFORE
        return owner if across >= HANDED_BACK_ACROSS and near <= before <= far else None

    def with_hands_named(
        self, named: dict[tuple[float, float], str], turn: int | None = None, aliases: dict[str, str] | None = None
    ) -> SeatSorter:
        """This sorter with the hand stacks at ``named`` places (radius, angle round the middle) owned as named:
        owners the opening did not read, read later in play (:class:`referee.tracker.owners.SeatWatch`); and the
        way the seats run from their hands (:attr:`turn`), when play showed it; ``aliases`` adds names the backs
        read in play stand for (:attr:`aliases`), the hands named under them renamed.

        >>> sorter = SeatSorter.from_opening([Sighting.back_at(None, (0.0, 500.0))], middle=(0.0, 0.0))
        >>> sorter.with_hands_named({(500.0, math.pi / 2): "red-red"}).owners
        ('red-red',)
        """

        renamed = dict(aliases or {})

        def owner(p: _Place) -> str | None:
            x, y = p.radius * math.cos(p.angle), p.radius * math.sin(p.angle)
            near = [
                o
                for (r, a), o in named.items()
                if math.hypot(r * math.cos(a) - x, r * math.sin(a) - y) <= SAME_PLACE_MM
            ]
            return renamed.get(near[0], near[0]) if near and p.hand and p.owner is None else p.owner

        places = [_Place(p.radius, p.angle, owner(p), p.hand) for p in self.places]
        turn = turn if turn is not None else self.turn
        return SeatSorter(places, self.middle, self.view, turn, {**self.aliases, **renamed})

    def with_owners_renamed(self, renamed: Mapping[str, str]) -> SeatSorter:
        """This sorter with the seats owned by a back in ``renamed`` owned by the back it maps to, and the names the
        recogniser's readings stood for (:attr:`aliases`) renamed alike: an owner the opening misread.

        >>> sorter = SeatSorter.from_opening([Sighting.back_at("green-purple", (0.0, 500.0))], middle=(0.0, 0.0))
        >>> sorter.with_owners_renamed({"green-purple": "blue-purple"}).owners
        ('blue-purple',)
        """
        places = [
            _Place(p.radius, p.angle, renamed.get(p.owner, p.owner) if p.owner else None, p.hand) for p in self.places
        ]
        aliases = {read: renamed.get(name, name) for read, name in self.aliases.items()}
        return SeatSorter(places, self.middle, self.view, self.turn, aliases)

    def with_missing_hands(self) -> SeatSorter:
        """This sorter with an unread hand stack added before every row the opening showed without one: its faces
        in no seat (see :meth:`seat_of`, the seats running :attr:`turn`), :data:`MISSING_HAND_SLOTS` of the row's
        own steps behind its first face (the discard pile's slot between). The detector can miss a hand stack in
        every frame (seeds 100601 and 100606, four players: the red-black hand on a striped and a dotted cloth,
        not found even at 5 % confidence), and that seat's plays then had no seat to be seen at. Unchanged while
        the way round is unknown.

        >>> row = [Sighting.face_at(c, (x, -500.0)) for c, x in (("r1", 100.0), ("g2", 175.0), ("b3", 250.0))]
        >>> hands = [Sighting.back_at(b, p) for b, p in (("red-red", (500.0, 0.0)), ("red-pink", (-500.0, 0.0)))]
        >>> sorter = SeatSorter.from_opening([*row, *hands], middle=(0.0, 0.0))
        >>> sorter.with_missing_hands().hands() == sorter.hands()  # the way round not known yet
        True
        >>> added = SeatSorter(sorter.places, sorter.middle, turn=-1).with_missing_hands().hands()[2]  # clockwise
        >>> added.owner, round(added.radius * math.cos(added.angle)), round(added.radius * math.sin(added.angle))
        (None, 374, -416)
        """
        turn = self.turn
        if turn is None:
            return self
        loose = [p for p, hand in self._faces_seated(turn) if hand is None]
        added = []
        for row in _rows(loose):
            # along the row the seats' way round (from any of its places: a row may straddle the angle's wrap),
            # the hand lies behind its first face
            start = row[0].angle
            row.sort(key=lambda p: wrap_angle(turn * (p.angle - start)))
            steps = [_apart(a, b) for a, b in pairwise(row)]
            step = sorted(steps)[len(steps) // 2]
            first = row[0]
            angle = wrap_angle(first.angle - turn * MISSING_HAND_SLOTS * step / first.radius)
            added.append(_Place(first.radius, angle, None, True))
        if not added:
            return self
        return SeatSorter([*self.places, *added], self.middle, self.view, turn, self.aliases)

    def with_seats_between(self) -> SeatSorter:
        """This sorter with an unread hand stack added for every seat the picture cuts off between two seen: where
        the gap between neighbouring hands round the middle holds the usual gap between neighbours (their median)
        :data:`SEAT_GAP` times or more, as many hands as fit it at that spacing, evenly through it, at the hands'
        median distance from the middle (the rules seat players evenly round the table). An eight-player table
        filmed from above loses the seats at its long sides: their rows and hands lie beyond the picture, while
        their arms still reach in from its edge. Unchanged with fewer than three hands (no spacing to go by).

        >>> def hand(back, degrees):  # five seats of eight seen, every 45 degrees from 0 to 180
        ...     a = math.radians(degrees)
        ...     return Sighting.back_at(back, (500.0 * math.cos(a), 500.0 * math.sin(a)))
        >>> backs = ("red-red", "red-pink", "red-black", "blue-blue", "blue-green")
        >>> seen = SeatSorter.from_opening([hand(b, 45 * i) for i, b in enumerate(backs)], middle=(0.0, 0.0))
        >>> [round(math.degrees(h.angle)) for h in seen.with_seats_between().hands() if h.owner is None]
        [-135, -90, -45]
        """
        hands = self.hands()
        if len(hands) < 3:
            return self
        gaps = _gaps_round(hands)
        usual = float(np.median([gap for _, gap in gaps]))
        radius = float(np.median([hand.radius for hand in hands]))
        added = []
        for start, gap in gaps:
            if gap < SEAT_GAP * usual:
                continue
            seats = max(2, round(gap / usual))
            added += [_Place(radius, wrap_angle(start + k * gap / seats), None, True) for k in range(1, seats)]
        if not added:
            return self
        return SeatSorter([*self.places, *added], self.middle, self.view, self.turn, self.aliases)

    def hand_before(self, point: Point) -> Hand | None:
        """The hand stack whose seat a card laid out at ``point`` lies in line with (the seat's places, the hand
        among them, within :data:`IN_LINE_MM` of the line from the middle through the card): a fan handed back
        to that seat, or its leftovers. None while the way round is unknown, or in line with no seat or two.

        >>> row = [Sighting.face_at(c, (x, -500.0)) for c, x in (("r1", 100.0), ("g2", 175.0), ("b3", 250.0))]
        >>> sorter = SeatSorter.from_opening([*row, Sighting.back_at("red-red", (0.0, 500.0))], middle=(0.0, 0.0))
        >>> seats = SeatSorter(sorter.places, sorter.middle, turn=-1).with_missing_hands()
        >>> seats.hand_before((180.0, -400.0)) == seats.hands()[1], seats.hand_before((-400.0, 0.0))
        (True, None)
        """
        turn = self.turn
        if turn is None:
            return None
        radius, angle = _polar(point, self.middle)
        faces = self._faces_seated(turn)
        seats: list[Hand] = []
        for hand in self.hands():
            own = [_Place(hand.radius, hand.angle, hand.owner, True), *(p for p, h in faces if h == hand)]
            if any(_sideways(p, radius, angle) <= IN_LINE_MM for p in own):
                seats.append(hand)
        return seats[0] if len(seats) == 1 else None

    def seat_reaching(self, at: Point, toward: Point, turn: int | None) -> Hand | None:
        """The hand stack of the seat an arm comes from that reaches ``at`` (a card it put down) from the
        direction of ``toward`` (a point back along the arm): where the line from ``at`` through ``toward`` crosses
        each hand's circle round the middle, the seat that crossing lies in (:meth:`seat_of`, the seats running
        ``turn``); while the way round is unknown, the hand nearest its crossing, within
        :data:`OWNER_REACH_MM` and clearly nearer than any other (see :data:`AMBIGUOUS`). None: the line leaves
        by no seat.

        >>> hands = [Sighting.back_at(b, p) for b, p in (("red-red", (0.0, 500.0)), ("red-pink", (500.0, 0.0)))]
        >>> seats = SeatSorter.from_opening(hands, middle=(0.0, 0.0))
        >>> seats.seat_reaching((40.0, 60.0), (100.0, 300.0), turn=-1).owner  # an arm from up the y axis
        'red-red'
        >>> seats.seat_reaching((40.0, 60.0), (300.0, 60.0), turn=None).owner  # from along the x axis
        'red-pink'
        >>> seats.seat_reaching((40.0, 60.0), (-300.0, -60.0), turn=-1) is None  # from where no seat is
        True
        """
        dx, dy = toward[0] - at[0], toward[1] - at[1]
        length = math.hypot(dx, dy)
        if length == 0:
            return None
        ux, uy = dx / length, dy / length
        px, py = at[0] - self.middle[0], at[1] - self.middle[1]
        ranked: list[tuple[float, Hand]] = []
        for hand in self.hands():
            # |p + s u| = radius, the root ahead of the card along the arm
            b = px * ux + py * uy
            disc = b * b - (px * px + py * py - hand.radius * hand.radius)
            if disc < 0 or -b + math.sqrt(disc) <= 0:
                continue
            s = -b + math.sqrt(disc)
            angle = math.atan2(py + s * uy, px + s * ux)
            if turn is not None:
                if self.seat_of(hand.radius, angle, turn) == hand:
                    ranked.append((wrap_angle(turn * (angle - hand.angle)) * hand.radius, hand))
            else:
                ranked.append((abs(wrap_angle(angle - hand.angle)) * hand.radius, hand))
        ranked.sort(key=lambda r: r[0])
        if not ranked:
            return None
        if turn is not None:
            return ranked[0][1]
        if ranked[0][0] > OWNER_REACH_MM or (len(ranked) > 1 and ranked[1][0] < AMBIGUOUS * ranked[0][0]):
            return None
        return ranked[0][1]

    def _faces_seated(self, turn: int) -> list[tuple[_Place, Hand | None]]:
        """Each face-up place of the opening with the hand whose seat it lies in (None: no seat's)."""
        return [
            (p, self.seat_of(p.radius, p.angle, turn, depth=MISSING_HAND_DEPTH_MM)) for p in self.places if not p.hand
        ]

    def hands(self) -> list[Hand]:
        """The hand stacks: the face-down places at the opening, one per place (read in several frames), each
        named by the owner most of its readings gave."""
        if self._hands is not None:
            return self._hands
        groups: list[list[_Place]] = []
        for p in self.places:
            if p.hand:
                group = next((g for g in groups if _apart(p, g[0]) <= SAME_PLACE_MM), None)
                if group is None:
                    groups.append([p])
                else:
                    group.append(p)
        hands = []
        for group in groups:
            owners = Counter(p.owner for p in group if p.owner)
            hands.append(Hand(group[0].radius, group[0].angle, owners.most_common(1)[0][0] if owners else None))
        self._hands = hands
        return hands

    def seat_of(self, radius: float, angle: float, turn: int, depth: float = math.inf) -> Hand | None:
        """The hand stack whose seat a card at (``radius``, ``angle``) round the middle lies in, the seats running
        ``turn`` from their hands: the nearest hand behind the card, within :data:`SEAT_REACH_MM` along the table
        and ``depth`` nearer or farther from the middle; None: no seat seen there (cut off by the picture's
        edge)."""
        best: tuple[float, Hand] | None = None
        for hand in self.hands():
            along = wrap_angle(turn * (angle - hand.angle)) * hand.radius  # mm from the hand, the seat's way round
            in_reach = -0.5 * CARD_WIDTH_MM <= along <= SEAT_REACH_MM and abs(radius - hand.radius) <= depth
            if in_reach and (best is None or along < best[0]):
                best = (along, hand)
        return best[1] if best is not None else None

    def owner_at(self, point: Point) -> str | None:
        """The owner of the seat a card at ``point`` lies before (None: unknown or unsure)."""
        return self._owner_near(*_polar(point, self.middle))

    def _owner_near(self, radius: float, angle: float) -> str | None:
        """The owner of the seat a card lies in (see :meth:`seat_of`) once the seats' way round is known; else the
        back owning the places nearest the line through the card. None when none is within reach or two owners
        are about as near (a card laid between two seats)."""
        if self.turn is not None:
            seat = self.seat_of(radius, angle, self.turn)
            return seat.owner if seat is not None else None
        nearest: dict[str, float] = {}
        for p in self.places:
            if p.owner:
                nearest[p.owner] = min(nearest.get(p.owner, math.inf), _sideways(p, radius, angle))
        ranked = sorted((d, owner) for owner, d in nearest.items() if d <= OWNER_REACH_MM)
        if not ranked or (len(ranked) > 1 and ranked[1][0] < AMBIGUOUS * ranked[0][0]):
            return None
        return ranked[0][1]


def box_mates(read_as: Mapping[str, Sequence[Sighting]]) -> dict[str, str]:
    """Seats' backs to rename: ``read_as`` holds each seat owner's readings at its places. A box holds four
    sets, and a table plays with whole boxes; two look-alike designs of different boxes (the red box's pink
    lettering, the green box's fuchsia and purple) trade places under a tinted light. So a back that is the only
    one of its box at the table, read unsurely (mean identity confidence under :data:`SURE_OWNER`), whose
    readings most often put as runner-up (:attr:`Sighting.back_runner_up`: the likeliest design of another box)
    a free set of a box that other seats play, is that set (seeds 101002 and 101006, four players of the red box:
    the red-pink seat read green-brown and green-purple, red-pink the runner-up).
    Designs outside the default catalogue (enrolled under new names) have no box and are never renamed.

    >>> sure = [Sighting.back_at(b, (0.0, 0.0), identity_confidence=0.95) for b in ("red-red", "red-black")]
    >>> lone = Sighting.back_at("green-purple", (0.0, 0.0), identity_confidence=0.6, runner_up="red-pink")
    >>> box_mates({"red-red": sure[:1], "red-black": sure[1:], "green-purple": [lone, lone]})
    {'green-purple': 'red-pink'}
    >>> surely = Sighting.back_at("green-purple", (0.0, 0.0), identity_confidence=0.9, runner_up="red-pink")
    >>> box_mates({"red-red": sure[:1], "red-black": sure[1:], "green-purple": [surely]})
    {}

    Where the runner-up is no free set, the one set the others' boxes leave free is the seat's; two left, none is:

    >>> flipping = Sighting.back_at("green-green", (0.0, 0.0), identity_confidence=0.2, runner_up="red-black")
    >>> box_mates({"red-red": [], "red-black": [], "red-pink": [], "green-green": [flipping]})
    {'green-green': 'red-light-blue'}
    >>> box_mates({"red-red": [], "red-black": [], "green-green": [flipping]})
    {}
    """
    boxes = default_boxes()
    owners_in: Counter[str] = Counter(boxes[o] for o in read_as if o in boxes)
    renamed: dict[str, str] = {}
    for owner, seen in read_as.items():
        box = boxes.get(owner)
        if box is None or owners_in[box] != 1 or not seen:
            continue
        if sum(s.identity_confidence for s in seen) / len(seen) >= SURE_OWNER:
            continue
        second = runner_up(seen)
        mate_box = boxes.get(second) if second is not None else None
        taken = set(read_as) | set(renamed.values())
        if second is not None and mate_box not in (None, box) and owners_in[mate_box] >= 2 and second not in taken:
            renamed[owner] = second
            continue
        # no free runner-up: the one set the other seats' boxes leave free is this seat's all the same (seed
        # 117005, four players of the red box on a held-out table: the red-light-blue hand, unread at the
        # opening, read in play "green-green" and "red-black" by turns at 0.2, red-black the runner-up and taken)
        left = [design for design in free_sets(o for o in read_as if o != owner) if design not in taken]
        if len(left) == 1 and boxes[left[0]] != box:
            renamed[owner] = left[0]
    return renamed


def runner_up(readings: Iterable[Sighting]) -> str | None:
    """The design ``readings`` most often put as runner-up (:attr:`Sighting.back_runner_up`); None: none did."""
    seconds = Counter(s.back_runner_up for s in readings if s.back_runner_up)
    return seconds.most_common(1)[0][0] if seconds else None


def free_set(owners: Iterable[str]) -> str | None:
    """The one set of the boxes the table plays that no seat owns, if just one is left: a box holds four sets and
    a table plays whole boxes (see :func:`box_mates`), so where three seats own three sets of the red box, the
    fourth seat, whose back was never read, owns the fourth. None where more sets (or none) are left; designs
    outside the default catalogue have no box.

    >>> free_set(["red-red", "red-black", "red-light-blue"])
    'red-pink'
    >>> free_set(["red-red", "red-black"]) is None  # two sets left
    True
    """
    free = free_sets(owners)
    return free[0] if len(free) == 1 else None


def free_sets(owners: Iterable[str]) -> list[str]:
    """Every set of the boxes the table plays that no seat owns (see :func:`free_set`).

    >>> free_sets(["red-red", "red-black"])
    ['red-light-blue', 'red-pink']
    """
    boxes = default_boxes()
    taken = set(owners)
    played = {boxes[o] for o in taken if o in boxes}
    return [design for design, box in boxes.items() if box in played and design not in taken]


def _one_seat_each(places: Sequence[Point], votes: Sequence[dict[str, float]]) -> list[str | None]:
    """The owner of each place from the backs read there (``votes``: summed identity confidence per back), each
    back owning one seat: the surest readings name their places first, and a back already owning a place farther
    away than a seat spans (:data:`OWNER_REACH_MM` twice) names no other, which then takes its next back with
    :data:`OWNER_EVIDENCE` (seed 99202, four players: a hand stack cut by the picture's edge read "red-red" at 0.6
    across the table from red-red's own; seed 99602: one read "red-red" at 0.54 and "red-pink" at 0.5, the
    red-pink seat).

    >>> _one_seat_each([(0.0, 500.0), (0.0, -500.0)], [{"red-red": 2.9}, {"red-red": 0.54, "red-pink": 0.5}])
    ['red-red', 'red-pink']
    """
    claims = sorted(
        ((evidence, back, i) for i, here in enumerate(votes) for back, evidence in here.items()),
        key=lambda claim: (-claim[0], claim[1], claim[2]),
    )
    owners: list[str | None] = [None] * len(places)
    owned_at: dict[str, Point] = {}
    for evidence, back, i in claims:
        if evidence < OWNER_EVIDENCE or owners[i] is not None:
            continue
        x, y = owned_at.setdefault(back, places[i])
        if math.hypot(places[i][0] - x, places[i][1] - y) <= 2 * OWNER_REACH_MM:
            owners[i] = back
    return owners


def _gaps_round(hands: Sequence[Hand]) -> list[tuple[float, float]]:
    """Each gap between neighbouring hands round the middle: the angle it starts at and how wide it is (radians),
    the last running on round to the first."""
    angles = sorted(hand.angle for hand in hands)
    return [(a, b - a) for a, b in pairwise(angles)] + [(angles[-1], angles[0] + 2 * math.pi - angles[-1])]


def _rows(places: Sequence[_Place]) -> list[list[_Place]]:
    """``places`` chained into rows (each within :data:`ROW_LINK_MM` of the next), one place per card (readings
    within :data:`SAME_PLACE_MM` are one), rows of at least :data:`ROW_MIN_CARDS`."""
    distinct: list[_Place] = []
    for p in places:
        if all(_apart(p, q) > SAME_PLACE_MM for q in distinct):
            distinct.append(p)
    rows: list[list[_Place]] = []
    for p in distinct:
        joined = [row for row in rows if any(_apart(p, q) <= ROW_LINK_MM for q in row)]
        merged = [p, *(q for row in joined for q in row)]
        rows = [row for row in rows if row not in joined] + [merged]
    return [row for row in rows if len(row) >= ROW_MIN_CARDS]


def _apart(a: _Place, b: _Place) -> float:
    return math.hypot(
        a.radius * math.cos(a.angle) - b.radius * math.cos(b.angle),
        a.radius * math.sin(a.angle) - b.radius * math.sin(b.angle),
    )


def wrap_angle(angle: float) -> float:
    """``angle`` wrapped into [-pi, pi)."""
    return (angle + math.pi) % (2 * math.pi) - math.pi


def _polar(point: Point, middle: Point) -> tuple[float, float]:
    dx, dy = point[0] - middle[0], point[1] - middle[1]
    return math.hypot(dx, dy), math.atan2(dy, dx)


def _cartesian(radius: float, angle: float, middle: Point) -> Point:
    return middle[0] + radius * math.cos(angle), middle[1] + radius * math.sin(angle)


def _sideways(place: _Place, radius: float, angle: float) -> float:
    """How far ``place`` lies from the line from the middle through a point at (``radius``, ``angle``), measured
    at the place (infinite when it lies on the other side of the middle)."""
    turn = (place.angle - angle + math.pi) % (2 * math.pi) - math.pi
    if abs(turn) >= math.pi / 2:
        return math.inf
    return abs(place.radius * math.sin(turn))

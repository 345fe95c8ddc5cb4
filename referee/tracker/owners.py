"""Whose card each centre card was: told by where it lay face up before it was played.

A back shows only after the round, on a thin strip of a fanned card, and reads unsure there. During play every
card a player can play lies face up in front of them (their row, their Ligretto pile's top, their discard pile's
top), and each player holds one card of each colour and number. So the player who played a red 7 is the one whose
red 7 was seen in front of them until about the moment a red 7 landed, and never again after: another player's
red 7 either still lies there, or vanished at another time, onto another stack.

:class:`SeatWatch` keeps, from whole-picture glances taken now and then in play (``referee.session``), when each
card was seen in front of each seat; :meth:`SeatWatch.owners` then names the owner of each card the centre holds.
A card it cannot name (played from a hand the camera never saw face up, a glance missed, a seat whose owner is
unknown) stays unnamed, for the spreads' backs to settle.

>>> from referee.cards import Card
>>> from referee.sightings import FrameSightings, Sighting
>>> from referee.tracker.seats import SeatSorter, wrap_angle
>>> seats = SeatSorter.from_opening(
...     [Sighting.back_at("red-red", (0.0, 500.0)), Sighting.back_at("blue-blue", (0.0, -500.0))], middle=(0.0, 0.0))
>>> watch = SeatWatch(seats)
>>> for t in (1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0):  # red-red's r7 is gone from 2.5 s; blue-blue's stays
...     rows = [Sighting.face_at("b7" if t >= 2.5 else "r7", (40.0, 480.0)), Sighting.face_at("r7", (40.0, -480.0))]
...     watch.add(FrameSightings(t, int(t * 30), tuple(rows)))
>>> watch.owners([(Card.parse("r7"), 2.3)])
['red-red']
"""

from __future__ import annotations

import bisect
import copy
import math
from collections import Counter, defaultdict, deque
from collections.abc import Mapping, Sequence
from typing import NamedTuple, TypeGuard

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, Card
from referee.sightings import FrameSightings, Point, Sighting
from referee.tracker.seats import Hand, SeatSorter, box_mates, runner_up, wrap_angle

LAST_SEEN_S = 6.0
"""The longest a played card may have gone unseen in front of its owner before it landed: a hand reaching over
the row hides it for a second or two, a card turned from the hand shows only once the next glance comes."""
SEEN_BEFORE = 2
"""Glances in the :data:`LAST_SEEN_S` before the landing that must show the card at the seat (one long before is
a misread as likely) ..."""
FRESH_S = 1.5
"""... unless one showed it this shortly before: a card turned from the hand and played at once shows once."""
LANDING_SLACK_S = 0.1
"""The landing is the first frame the card was seen down; a glance a moment later still saw it in the hand."""
SEEN_AGAIN = 2
"""Glances within :data:`AGAIN_WITHIN_S` of each other, after the landing, showing the card still at the seat: it
was another (one such glance long after is a misread, or the card in the hand over the seat) ..."""
AGAIN_WITHIN_S = 1.5
"""... or one glance this soon after the landing: the copy lay there as the card landed. Of the cards named by
the seat they were seen leaving in 38 rendered rounds (seeds 101000-101006 four players, 101000-101002 eight,
101070-101076 two, four and eight, 101080-101086 eight; the replays' seat watches pickled and named again offline),
those seen at that seat once more within 1.5 s of the landing were named wrongly 11 times (an eight-player table's
unseen seat playing its copy as the named player's lay still) and rightly once; ruling them out, cards named
wrongly 81 -> 71, rightly 1740 -> 1744, unnamed 404 -> 410."""
KEPT_AFTER_S = 2.0
"""An arm names no player whose copy lay at their seat just before the landing and was seen there again this soon
after it: two players with the same card reach for the stack at once, and the loser's arm is over the card as it
lands (41 rendered rounds of 2, 4 and 8 players, seeds 101000-101033 and four of 101040-101046, named again offline from
their replays' seat and arm sightings: 5 cards named wrongly by the arm left unnamed, none named rightly lost; a
copy seen at the seat only 4 s after is the centre being gathered, seed 101025). Replayed, players exact the same
on 42 two- and four-player rounds, 2 -> 1 of 24 on three eight-player ones: an unnamed card goes to the spreads,
which read its back no better (seed 101000: a g9 named wrongly by the arm, unnamed, counted to a third player)."""
RACE_SEEN_S = 2.0
RETURN_GAP_S = 0.6
RETURN_S = 3.0
"""The loser of a race for a stack takes their copy back to their seat: it was seen there in the
:data:`RACE_SEEN_S` before the landing, not in the :data:`RETURN_GAP_S` after it, and there again by
:data:`RETURN_S` after it, and their seat's arm reached the card as it landed (see :meth:`SeatWatch.raced_and_lost`).
42 rendered rounds of two, four and eight players (seeds 117000-117006 and 118000-118006, their seat watches
pickled and judged as at the time, ``out/dev/racelive.py``), 1,710 cards played: 20 of the 54 conflicts the
referee did not say showed it, and no other card; with 1.0 s before, 14; with 0.4 s after, 2 cards more that
were no conflict."""
CLEAR_S = 1.0
"""Two owners whose cards were last seen this close in time fit a landing alike (unless only one of them was
seen after it)."""
MIN_IDENTITY = 0.5
"""A face read less surely than this says nothing about whose card is where."""
DISCARD_REACH = (0.5 * CARD_WIDTH_MM, 1.8 * CARD_WIDTH_MM)
"""How far along the seat from a hand stack its discard pile lies: the next slot, where no card lay at the
opening. Which side of the hand it lies on tells which way each seat's places run from its hand."""
DISCARD_SURE = 2.0
"""Faces seen on one side of the hands this many times as often as on the other decide the way the seats run."""
ROW_DEPTH_MM = 1.5 * CARD_HEIGHT_MM
"""How far nearer or farther from the middle than its hand stack a seat's cards lie."""
HAND_NEAR_MM = 0.5 * CARD_WIDTH_MM
"""A back read this close to a hand stack's opening place is a reading of that stack (it is picked up and put
down again as its cards are turned)."""
HAND_READINGS_KEPT = 200
"""The latest backs read at a hand in play kept for their runner-ups (a glance every half second or so)."""
HAND_EVIDENCE = 3.0
HAND_SHARE = 0.6
"""A hand whose owner the opening did not read is named by the back its readings in play give, once they sum to
this much identity confidence and, with its look-alike's (see :meth:`SeatWatch._look_alike`), this share of all
its readings': a stack cut by the picture's edge reads unsure, and a hundred glances read it as often."""
STALE_S = 2.5
"""A card last seen at a seat this long before it landed names that seat's player less surely than the arm that
put it down: where the two disagreed in the four- and eight-player rounds of seeds 100800-100806, a face seen
that long before was never right (the arm 5 times of 8), one seen sooner 39 times of 39."""
ARM_MIN_MM = 1.5 * CARD_HEIGHT_MM
"""An arm seen running back this far from the card it put down tells its seat; a hand alone over the card, or
the card in flight, does not tell a direction."""
ARM_SHARE = 0.8
"""The share of the frames round a landing whose arm must come from one seat for it to name the card's owner:
another player's arm passing over the stack as it lands can take a frame or two. Eight-player rounds (seeds
100800-100806, 609 plays): at 0.7 the arms named 353 rightly and 48 wrongly, at 0.8 351 and 42, at 0.9 333 and 33
(the faces seen at the seats named 325 rightly and 37 wrongly)."""
ORDER_CLEAR = 0.5
"""Where copies of one card landed near together, the owners are matched to them as the copies left the seats
(see :func:`_clear_owners`); a landing is named where every matching that names it otherwise costs this much
(s²) more: two owners last seen a second apart, their copies landing half a second apart, cost 1.0 more crossed
(four-player rounds, seeds 101003 and 101017: the later-seen owner was named for the earlier landing, wrongly,
three times); one owner fitting two landings 0.2 s apart costs 0.26 more at the later one (seed 101018: the arms
named both landings rightly)."""
SEEN_AFTER_COST = 1.0
"""What a sighting of a copy at its seat after a landing costs that pairing (s²): as much as a wait of a second
(seed 101017: an owner whose copy was seen once after one landing and not after the next was named for the next,
rightly; a single sighting long after a landing may be a misread or a centre card carried past)."""
UNNAMED_COST = STALE_S**2
"""What a landing left unnamed costs a matching: as much as a copy gone :data:`STALE_S` before the landing (eight
players, seed 101001: an owner fitting one landing half a second before, another 2 s before, left a later landing
they fitted 2.25 s before to the arm, rightly)."""
MATCHED_OWNERS = 3
"""The best-fitting owners of a landing that the matching tries (eight copies of a card may lie in the centre)."""
ARM_MATCH_S = 0.05
"""A landing's arms are those seen for a landing this close in time (the same event's time, give or take)."""
CROSSING_S = 0.5
CROSSED_MM = CARD_WIDTH_MM
"""An arm reaching to a card names nobody where another card landed this close in time, at least this far off,
whose arm from the same seat ran within this of the first card (see :meth:`SeatWatch._passed_over`). Seeds
117000-117006, two and four players, both looks (21 rounds pickled at the score): of the arms naming a card, 5 so
passed over within 0.5 s, all 5 naming it wrongly (788 right and 29 wrong otherwise); at eight players 8 so, none
rightly. Within 1 s, 12 more so passed over named it rightly (a player's own two cards played one after the
other)."""


class OpenCard(NamedTuple):
    """A centre card play did not name: the players who may have played it, and the one the arms leant to."""

    card: str
    players: tuple[str, ...]
    leaning: str | None


class SeatWatch:
    """When each card was seen face up in front of each seat during play (see the module docstring).

    A seat is its hand stack (the back that names its owner) and the places that run from it along the table,
    one way round for every seat: which way is learnt from where the discard piles appear, next to each hand
    where nothing lay at the opening. Until that is known, a card is its nearest owned place's (as after the
    round, :meth:`SeatSorter.owner_at`)."""

    def __init__(self, seats: SeatSorter) -> None:
        self.seats = seats
        self.hands = seats.hands()
        self.opening = [(p.radius, p.angle) for p in seats.places if not p.hand]
        self.faces: list[tuple[float, str, float, float]] = []
        """Every face seen outside the centre: time, card, and where (radius, angle round the middle)."""
        self.hand_votes: list[dict[str, float]] = [{} for _ in self.hands]
        self.hand_readings: list[deque[Sighting]] = [deque(maxlen=HAND_READINGS_KEPT) for _ in self.hands]
        """The backs read at each hand in play (the latest :data:`HAND_READINGS_KEPT`), for their runner-ups."""
        self.glances = 0
        self._sides: Counter[int] = Counter()
        self._sided = 0
        self._sides_of: tuple[Hand, ...] = ()
        """:meth:`turn`'s tally: the discard sides of the first ``_sided`` faces, by the hands ``_sides_of``."""
        self.arms: dict[str, list[tuple[float, Point, tuple[Point, ...]]]] = defaultdict(list)
        """Per card, the arms seen putting it down: landing time, where it landed, points back along each frame's
        arm (table plane)."""

    def add(self, frame: FrameSightings) -> None:
        """One whole-picture glance: the faces outside the centre zone."""
        self.glances += 1
        mx, my = self.seats.middle
        for s in frame.faces:
            if s.card is None or s.identity_confidence < MIN_IDENTITY or (frame.zone is not None and frame.in_zone(s)):
                continue
            x, y = s.centre[0] - mx, s.centre[1] - my
            self.faces.append((frame.t, str(s.card), math.hypot(x, y), math.atan2(y, x)))
        for s in frame.backs:
            if not s.back:
                continue
            x, y = s.centre[0] - mx, s.centre[1] - my
            radius, angle = math.hypot(x, y), math.atan2(y, x)
            for votes, read, hand in zip(self.hand_votes, self.hand_readings, self.hands, strict=True):
                if _apart(radius, angle, hand.radius, hand.angle) <= HAND_NEAR_MM:
                    votes[s.back] = votes.get(s.back, 0.0) + s.identity_confidence
                    read.append(s)

    def see_arms(self, card: Card, t: float, at: Point, towards: Sequence[Point]) -> None:
        """The arm seen reaching to a card that landed at ``t`` at ``at``: in each frame round the landing, a point
        back along it (see :mod:`vision.reach`); the seat it comes from names the card's owner where the faces seen
        at the seats cannot (:meth:`owners`)."""
        if towards:
            self.arms[str(card)].append((t, at, tuple(towards)))

    def reached(self, card: Card, t: float) -> str | None:
        """The owner of the seat the arm that put ``card`` down at ``t`` came from (see :data:`ARM_SHARE`); None
        when no arm was seen long enough, or from no one seat."""
        return self._reached(card, t, self.turn(), self.hand_owners())

    def _reached(self, card: Card, t: float, turn: int | None, owners: Sequence[str | None]) -> str | None:
        owner = self._arm_owner(str(card), t, turn, owners)
        if owner is None or self._passed_over(str(card), t, owner, turn, owners):
            return None
        return owner

    def _passed_over(self, card: str, t: float, owner: str, turn: int | None, owners: Sequence[str | None]) -> bool:
        """Whether the arm ``owner``'s seat reached to ``card`` with may be the arm of another card landing within
        :data:`CROSSING_S` farther off, from the same seat, passing over it: an arm reaching across the centre
        covers every spot between the card it puts down and its seat, and a card landing on one of those spots at
        that moment reads that arm as its own (seed 117000, two players: red-red's b4 landed 0.06 s before
        red-light-blue's g10, which lay 136 mm nearer red-red's seat on the b4's arm, and the g10 was named
        red-red's). The card the arm ends at is the arm's; one it runs over says nothing."""
        here = self._landed_at(card, t)
        if here is None:
            return False
        for other, landings in self.arms.items():
            for landed, at, towards in landings:
                if abs(landed - t) > CROSSING_S or math.dist(at, here) < CROSSED_MM or not towards:
                    continue
                over = sum(_beside_segment(here, at, toward, CROSSED_MM) for toward in towards)
                if 2 * over >= len(towards) and self._arm_owner(other, landed, turn, owners) == owner:
                    return True
        return False

    def _arm_owner(self, card: str, t: float, turn: int | None, owners: Sequence[str | None]) -> str | None:
        """The owner of the seat most frames' arms reaching to ``card`` at ``t`` run back to (:data:`ARM_SHARE`)."""
        votes = self._arm_votes(card, t, turn, owners)
        owner, n = max(votes.items(), key=lambda v: (v[0] is not None, v[1]), default=(None, 0))
        return owner if owner is not None and n >= ARM_SHARE * sum(votes.values()) else None

    def _arm_votes(self, card: str, t: float, turn: int | None, owners: Sequence[str | None]) -> Counter[str | None]:
        """Per seat owner (None: no seat), the frames whose arm reaching to ``card`` at ``t`` runs back to it."""
        votes: Counter[str | None] = Counter()
        for landed, at, towards in self.arms.get(card, ()):
            if abs(landed - t) > ARM_MATCH_S:
                continue
            for toward in towards:
                if math.dist(at, toward) >= ARM_MIN_MM:
                    hand = self.seats.seat_reaching(at, toward, turn)
                    votes[owners[self.hands.index(hand)] if hand is not None else None] += 1
        return votes

    def confirmed(self, plays: Sequence[tuple[Card, float]], names: Sequence[str | None]) -> list[bool]:
        """Whether each of ``names`` (as :meth:`owners` gave them, for ``plays``: card, landing time) was told
        twice over: the card's face was last seen at that player's seat (the copy that fits the landing best,
        under :data:`STALE_S` before it) and the arm that put it down came from there. Rendered rounds of two,
        four and eight players (seeds 117000-117006 and 118000-118006, 42 rounds): 1136 of 1138 such names
        right, against 179 of 196 told by the face alone."""
        owners = self.hand_owners()
        seen = self._seen(owners)
        turn = self.turn()
        out = []
        for (card, t), name in zip(plays, names, strict=True):
            if name is None or name not in owners:
                out.append(False)
                continue
            face, fit = _best_face(seen, owners, str(card), t)
            fresh = fit is not None and fit[1] < STALE_S
            out.append(fresh and face == name and self._reached(card, t, turn, owners) == name)
        return out

    def doubted(self, card: Card, t: float, name: str, instead: str) -> bool:
        """Whether a witness of play says ``card``, landed at ``t`` and named ``name``'s (see :meth:`owners`), may
        be ``instead``'s: the arm that put it down came from ``instead``'s seat, or ``instead``'s copy fits the
        landing best by the faces seen at the seats, or ``name``'s copy lay at their seat across the landing
        (see :func:`_held_across`)."""
        owners = self.hand_owners()
        seen = self._seen(owners)
        if _best_face(seen, owners, str(card), t)[0] == instead or _held_across(seen.get((name, str(card)), []), t):
            return True
        return self._reached(card, t, self.turn(), owners) == instead

    def raced_and_lost(self, card: Card, t: float, named: str | None) -> str | None:
        """The player who raced for the stack ``card`` landed on at ``t`` and lost, taking their copy back to their
        seat (see :data:`RETURN_S`); None when no one did. ``named``: the player named for the landing, whose copy
        it is. A copy back at its seat is not the card on the stack (a player holds one of each), and an arm from
        that seat reaching the card as it landed says they slapped theirs too."""
        owners = self.hand_owners()
        turn = self.turn()
        key = str(card)
        at = self._landed_at(key, t)
        if at is None:
            return None
        votes = self._arm_votes(key, t, turn, owners)
        copies = self._copies_at_seats(key, at, turn, owners, start=t - RACE_SEEN_S, end=t + RETURN_S)
        for owner, at_seat in copies.items():
            if owner == named or votes.get(owner, 0) < 1:
                continue
            before = any(x <= t + LANDING_SLACK_S for x in at_seat)
            gone = not any(t + LANDING_SLACK_S < x < t + RETURN_GAP_S for x in at_seat)
            if before and gone and any(x >= t + RETURN_GAP_S for x in at_seat):
                return owner
        return None

    def open_owners(
        self, plays: Sequence[tuple[Card, float]], stopped: float | None, players: Sequence[str]
    ) -> list[OpenCard]:
        """For centre cards play did not name (``card``, landing time): the ``players`` who may have played each,
        those whose copy did not lie at their seat across its landing (see :func:`_held_across`; seen in play,
        up to ``stopped``), and the player the most frames' arms reaching to it came from, however few (see
        :func:`referee.tracker.counting.shared_by_play`, which shares such cards out)."""
        owners = self.hand_owners()
        seen = self._seen(owners)
        turn = self.turn()
        out = []
        for card, t in plays:
            key = str(card)
            may = tuple(
                p
                for p in players
                if not _held_across([x for x in seen.get((p, key), []) if stopped is None or x <= stopped], t)
            )
            votes = self._arm_votes(key, t, turn, owners)
            votes.pop(None, None)
            leaning = max(votes.items(), key=lambda v: (v[1], str(v[0])))[0] if votes else None
            out.append(OpenCard(key, may, leaning))
        return out

    def reseat(self, seats: SeatSorter) -> None:
        """Goes on with ``seats``: the same places, some hands named since or added (see
        :meth:`SeatSorter.with_missing_hands`); each hand seen in play keeps its readings."""
        votes = {(hand.radius, hand.angle): v for hand, v in zip(self.hands, self.hand_votes, strict=True)}
        read = {(hand.radius, hand.angle): r for hand, r in zip(self.hands, self.hand_readings, strict=True)}
        self.seats = seats
        self.hands = seats.hands()
        self.hand_votes = [votes.get((hand.radius, hand.angle), {}) for hand in self.hands]
        self.hand_readings = [
            read.get((hand.radius, hand.angle), deque(maxlen=HAND_READINGS_KEPT)) for hand in self.hands
        ]

    def _seeing(self, seats: SeatSorter) -> SeatWatch:
        """This watch's sightings with ``seats``: the same hands first, more after them (none read in play)."""
        view = copy.copy(self)
        view.seats, view.hands = seats, seats.hands()
        view._sides = Counter(self._sides)  # its own tally: a copy's must not add to this one's
        more = len(view.hands) - len(self.hands)
        view.hand_votes = [*self.hand_votes, *({} for _ in range(more))]
        view.hand_readings = [*self.hand_readings, *(deque(maxlen=HAND_READINGS_KEPT) for _ in range(more))]
        return view

    def hand_owners(self) -> list[str | None]:
        """Each hand's owner: as the opening read it, else as its readings in play give (see
        :data:`HAND_EVIDENCE`), unless another hand has that owner already."""
        owners = [hand.owner for hand in self.hands]
        for i, votes in enumerate(self.hand_votes):
            if owners[i] is not None or not votes:
                continue
            back = max(votes, key=lambda b: votes[b])
            evidence = votes[back]
            alike = self._look_alike(i, back)
            shared = evidence + (votes.get(alike, 0.0) if alike else 0.0)
            if evidence >= HAND_EVIDENCE and shared >= HAND_SHARE * sum(votes.values()) and back not in owners:
                owners[i] = back
        return owners

    def _look_alike(self, i: int, back: str) -> str | None:
        """The design hand ``i``'s readings of ``back`` most often put as runner-up: under a tinted light two
        look-alikes trade places reading for reading, and their votes together are the hand's (seed 101060, four
        players of the red box: the red-pink hand on a blue cloth read "green-purple" 13.8 and "red-pink" 9.7 in
        play, red-pink the runner-up; named "green-purple", :meth:`learnt_aliases` renames it)."""
        return runner_up(s for s in self.hand_readings[i] if s.back == back)

    def read_in_play(self, hand: Hand) -> dict[str, float]:
        """The backs read at ``hand`` in play, each by its summed identity confidence (empty: never read, or not
        a hand of these seats)."""
        at = (hand.radius, hand.angle)
        return next((v for h, v in zip(self.hands, self.hand_votes, strict=True) if (h.radius, h.angle) == at), {})

    def learnt_owners(self) -> dict[tuple[float, float], str]:
        """The hands whose owner only play told (their radius and angle round the middle): for
        :meth:`SeatSorter.with_hands_named`."""
        return {
            (hand.radius, hand.angle): owner
            for hand, owner in zip(self.hands, self.hand_owners(), strict=True)
            if owner is not None and hand.owner is None
        }

    def learnt_aliases(self) -> dict[str, str]:
        """The hands' owners that only play told, renamed as :func:`referee.tracker.seats.box_mates` renames the
        opening's: a lone back of another box read unsurely at a hand, its runner-up a free set of a box the
        other seats play (seed 101010, four players of the red box: the red-pink hand, unread at the opening,
        read "green-purple" in play)."""
        owners = self.hand_owners()
        read_as: dict[str, list[Sighting]] = {owner: [] for owner in owners if owner}
        for hand, owner, read in zip(self.hands, owners, self.hand_readings, strict=True):
            if owner and hand.owner is None:
                read_as[owner] = [s for s in read if s.back == owner]
        return box_mates(read_as)

    def turn(self) -> int | None:
        """Which way round the seats' places run from their hands (+1 counter-clockwise on the table plane, -1
        clockwise), as the discard piles show; None while they have not shown it."""
        # the faces' sides are tallied once each (they are only ever added), again from the first when the hands
        # change (:meth:`reseat`): asked after every landing, the whole tally cost an eight-player round about a second
        if self._sides_of != tuple(self.hands):
            self._sides, self._sided, self._sides_of = Counter(), 0, tuple(self.hands)
        sides = self._sides
        for _, _, radius, angle in self.faces[self._sided :]:
            side = self._discard_side(radius, angle)
            if side:
                sides[side] += 1
        self._sided = len(self.faces)
        for side in (1, -1):
            if sides[side] >= 3 and sides[side] >= DISCARD_SURE * sides[-side]:
                return side
        return None

    def owners(
        self, plays: Sequence[tuple[Card, float]], stopped: float | None = None, *, unread_seats: bool = False
    ) -> list[str | None]:
        """The owner of each played card (``card``, landing time), None where unsure; one owner plays each of its
        cards once, so a name is given once per card, to the landing it fits best; copies of a card landing near
        together are matched to the owners whose copies left their seats in that order (:func:`_clear_owners`).
        Two owners that fit about as well name nobody: a wrong name costs a player two points, a missing one is
        left to the spreads.
        ``stopped``: when the round stopped, after which a card seen at a seat may be a centre card carried past
        it as the centre is gathered (see :meth:`_name_by_exclusion`). A card no face seen at a seat names is named
        by the arm that put it down (:meth:`reached`), unless that owner's copy is named already or lay at their seat
        across the landing (:data:`KEPT_AFTER_S`); and so is one last seen at a seat :data:`STALE_S` or more before
        it landed, when the arm names another (and nobody, when the arm's player kept their copy).
        ``unread_seats``: a card played from a seat whose owner is unknown is named that seat (:func:`seat_name`)
        rather than nobody, for the cards of each such seat to be named together once the count shows whose they
        are (:func:`referee.tracker.seat_backs.name_seats`), the seats the picture cuts off between those seen
        among them (:meth:`SeatSorter.with_seats_between`)."""
        if not unread_seats:
            return self._owners(plays, stopped, seat_names=False)
        between = self.seats.with_seats_between()
        return (self if between is self.seats else self._seeing(between))._owners(plays, stopped, seat_names=True)

    def _owners(
        self, plays: Sequence[tuple[Card, float]], stopped: float | None, *, seat_names: bool
    ) -> list[str | None]:
        """:meth:`owners`, naming a seat whose owner is unknown by its name where ``seat_names``."""
        real_owners = self.hand_owners()
        hand_owners = [
            owner if owner is not None or not seat_names else seat_name(i) for i, owner in enumerate(real_owners)
        ]
        seen = self._seen(hand_owners)
        in_play = {key: [t for t in times if stopped is None or t <= stopped] for key, times in seen.items()}
        turn = self.turn()
        everyone = list(dict.fromkeys([*self.seats.owners, *filter(None, hand_owners)]))
        named: list[str | None] = [None] * len(plays)
        taken: set[tuple[str, str]] = set()
        copies: defaultdict[str, list[int]] = defaultdict(list)
        for i in sorted(range(len(plays)), key=lambda i: plays[i][1]):
            copies[str(plays[i][0])].append(i)
        for card_name, landings in copies.items():
            fits = {
                i: {
                    owner: fit
                    for owner in everyone
                    if (fit := self._fit(seen.get((owner, card_name), []), plays[i][1])) is not None
                }
                for i in landings
            }
            by_faces = _clear_owners({i: f for i, f in fits.items() if f})
            clear = self._told_by_arms(by_faces, fits, plays, turn, hand_owners)
            for i, owner in clear.items():
                card, t = plays[i]
                if fits[i][owner][1] >= STALE_S:
                    arm = self._reached(card, t, turn, hand_owners)
                    if arm is not None and self._kept(arm, card, t, stopped, turn, hand_owners):
                        continue  # stale, and the arm is another player's who kept their copy: no one is sure
                    owner = arm if arm is not None and arm not in clear.values() else owner
                named[i] = owner
                taken.add((owner, card_name))
        for i in sorted(range(len(plays)), key=lambda i: plays[i][1]):
            card, t = plays[i]
            arm = self._reached(card, t, turn, hand_owners) if named[i] is None else None
            kept = arm is not None and self._kept(arm, card, t, stopped, turn, hand_owners)
            if arm is not None and (arm, str(card)) not in taken and not kept:
                named[i] = arm
                taken.add((arm, str(card)))
        if all(real_owners) and self.seats.no_seat_missing():
            self._name_by_exclusion(plays, named, taken, in_play, everyone)
        return named

    def _told_by_arms(
        self,
        clear: dict[int, str],
        fits: Mapping[int, Mapping[str, tuple[int, float]]],
        plays: Sequence[tuple[Card, float]],
        turn: int | None,
        owners: Sequence[str | None],
    ) -> dict[int, str]:
        """``clear`` (the owners the faces name for the landings of one card), each landing whose arm came from
        another player whose copy fits it too (see :meth:`_fit`) named that player, where the names stay one per
        owner: both copies were seen at their seats before it landed, and the arm tells which of them left. Of 23
        such landings in 84 rounds pickled at the score (seeds 117000-121006, two and four players), the arm was
        right for 17 and the face for 5 (seed 121005, two players: red-red's b10 last seen on its discard pile as
        red-light-blue's, seen 1.5 s before, landed; the four frames' arms came from red-light-blue's seat)."""
        told = dict(clear)
        for i, owner in clear.items():
            card, t = plays[i]
            arm = self._reached(card, t, turn, owners)
            if arm is not None and arm != owner and arm in fits[i]:
                told[i] = arm
        return told if len(set(told.values())) == len(told) else clear

    @staticmethod
    def _name_by_exclusion(
        plays: Sequence[tuple[Card, float]],
        named: list[str | None],
        taken: set[tuple[str, str]],
        seen: dict[tuple[str, str], list[float]],
        everyone: Sequence[str],
    ) -> None:
        """Names, in ``named``, the cards play did not name whose every player but one still held their copy
        across the landing (seen at their seat before it and again after, see :func:`_held_across`) or had it named
        to another landing: the one left played it, whether or not their copy was ever seen face up (a card turned
        from the hand and played at once). Only once every hand's owner is known and no seat is missing, so that
        the players are all there (an eight-player round, seed 100506, whose picture leaves seats out, named three
        cards so, all wrongly); and only by what was seen in play (``seen`` ends at the stop)."""
        for i in sorted(range(len(plays)), key=lambda i: plays[i][1]):
            card, t = plays[i]
            if named[i] is not None:
                continue
            key = str(card)
            left = [o for o in everyone if (o, key) not in taken and not _held_across(seen.get((o, key), []), t)]
            if len(left) == 1:
                named[i] = left[0]
                taken.add((left[0], key))

    def _kept(
        self,
        owner: str,
        card: Card,
        t: float,
        stopped: float | None,
        turn: int | None,
        owners: Sequence[str | None],
    ) -> bool:
        """Whether ``owner``'s copy of ``card`` lay at their seat across its landing at ``t`` (see
        :data:`KEPT_AFTER_S`), by the faces seen in play away from where it landed: a card played onto a stack
        started beside its player's seat is read there after it landed, and is no copy kept. ``turn`` and
        ``owners``: :meth:`turn` and :meth:`hand_owners`, as the caller has them."""
        at = self._landed_at(str(card), t)
        end = math.inf if stopped is None else stopped
        return _kept_through(self._copies_at_seats(str(card), at, turn, owners, end=end).get(owner, []), t)

    def _landed_at(self, card: str, t: float) -> Point | None:
        """Where ``card`` landed at ``t``, as the arms that put it down were seen (None: no arm seen)."""
        return next((a for landed, a, _ in self.arms.get(card, ()) if abs(landed - t) <= ARM_MATCH_S), None)

    def _copies_at_seats(
        self,
        card: str,
        at: Point | None,
        turn: int | None,
        owners: Sequence[str | None],
        start: float = -math.inf,
        end: float = math.inf,
    ) -> dict[str, list[float]]:
        """Per owner, when their copy of ``card`` was seen at their seat from ``start`` to ``end``, away from where
        the card landed (``at``): a card played onto a stack started beside its player's seat is read there after
        it landed, and is no copy kept. ``turn`` and ``owners``: :meth:`turn` and :meth:`hand_owners`."""
        mx, my = self.seats.middle
        seen_at: defaultdict[str, list[float]] = defaultdict(list)
        for seen, name, radius, angle in self.faces[bisect.bisect_left(self.faces, start, key=lambda f: f[0]) :]:
            if seen > end:
                break
            here = (mx + radius * math.cos(angle), my + radius * math.sin(angle))
            if name != card or (at is not None and math.dist(here, at) <= CARD_HEIGHT_MM):
                continue
            owner = self._owner(radius, angle, turn, owners)
            if owner is not None and (not seen_at[owner] or seen_at[owner][-1] != seen):
                seen_at[owner].append(seen)
        return seen_at

    def _seen(self, owners: Sequence[str | None]) -> dict[tuple[str, str], list[float]]:
        """Per (owner, card), the times the card was seen face up at the seat of the hand ``owners`` names."""
        turn = self.turn()
        seen: dict[tuple[str, str], list[float]] = defaultdict(list)
        for t, card, radius, angle in self.faces:
            owner = self._owner(radius, angle, turn, owners)
            if owner is not None:
                times = seen[(owner, card)]
                if not times or times[-1] != t:
                    times.append(t)
        return seen

    def _owner(self, radius: float, angle: float, turn: int | None, owners: Sequence[str | None]) -> str | None:
        if turn is None:
            mx, my = self.seats.middle
            return self.seats.owner_at((mx + radius * math.cos(angle), my + radius * math.sin(angle)))
        seat = self.seats.seat_of(radius, angle, turn, depth=ROW_DEPTH_MM)
        return owners[self.hands.index(seat)] if seat is not None else None

    def _discard_side(self, radius: float, angle: float) -> int:
        """+1 or -1: the side of a hand a face lies on where a discard pile lies (see :data:`DISCARD_REACH`);
        0: it lies elsewhere, or where a card lay at the opening."""
        near, far = DISCARD_REACH
        for hand in self.hands:
            along = wrap_angle(angle - hand.angle) * hand.radius
            beside = near <= abs(along) <= far and abs(radius - hand.radius) <= 0.5 * CARD_HEIGHT_MM
            if beside and all(_apart(radius, angle, r, a) > abs(along) for r, a in self.opening):
                return 1 if along > 0 else -1
        return 0

    @staticmethod
    def _fit(times: Sequence[float], t: float) -> tuple[int, float] | None:
        """How well a card seen at a seat at ``times`` fits a landing at ``t``: (sightings after the landing, how
        long before it the card was last seen), lower is better; None if it does not fit: seen neither in the
        :data:`FRESH_S` before nor :data:`SEEN_BEFORE` times in the :data:`LAST_SEEN_S` before, or seen there again
        (twice) after."""
        i = bisect.bisect_right(times, t + LANDING_SLACK_S)
        fresh = i >= 1 and t - times[i - 1] <= FRESH_S
        if not fresh and (i < SEEN_BEFORE or t - times[i - SEEN_BEFORE] > LAST_SEEN_S):
            return None
        later = times[i:]
        return None if _held_after(times, t) else (len(later), max(0.0, t - times[i - 1]))


def _best_face(
    seen: Mapping[tuple[str, str], Sequence[float]], owners: Sequence[str | None], card: str, t: float
) -> tuple[str | None, tuple[int, float] | None]:
    """The owner whose copy of ``card`` fits a landing at ``t`` best by the faces ``seen`` at the seats of
    ``owners`` (see :meth:`SeatWatch._fit`), and that fit; (None, None) where no copy fits."""
    fits = {o: f for o in filter(None, owners) if (f := SeatWatch._fit(seen.get((o, card), []), t)) is not None}
    if not fits:
        return None, None
    face = min(fits, key=lambda o: fits[o])
    return face, fits[face]


SEAT_NAME_PREFIX = "seat@"
"""How a seat whose owner is unknown is named in :meth:`SeatWatch.owners` (no back's id holds an ``@``)."""


def seat_name(hand: int) -> str:
    """The name of the ``hand``-th seat (its index in :meth:`SeatSorter.hands`) while its owner is unknown."""
    return f"{SEAT_NAME_PREFIX}{hand}"


def is_seat_name(owner: str | None) -> TypeGuard[str]:
    """Whether ``owner`` names a seat whose owner is unknown (see :func:`seat_name`), not a back."""
    return owner is not None and owner.startswith(SEAT_NAME_PREFIX)


def _clear_owners(fits: Mapping[int, Mapping[str, tuple[int, float]]]) -> dict[int, str]:
    """The owner each landing of one card is named, from how well each owner's copy fits each landing
    (``fits``: landing -> owner -> :meth:`SeatWatch._fit`, only those that fit). A lone landing is named, as
    :meth:`SeatWatch.owners` always did, where its second owner was seen after it more often, or waited
    :data:`CLEAR_S` longer. Several are matched to owners at once (each owner to one landing at most; see
    :func:`_best_matching`), and a landing is named only where every matching that names it otherwise costs
    :data:`ORDER_CLEAR` more."""
    if len(fits) == 1:
        ((i, fit),) = fits.items()
        ranked = sorted((f, owner) for owner, f in fit.items())
        (best, owner), rest = ranked[0], ranked[1:]
        clear = not rest or rest[0][0][0] > best[0] or rest[0][0][1] - best[1] >= CLEAR_S
        return {i: owner} if clear else {}
    cost, matched = _best_matching(fits)
    named = {}
    for i, owner in matched.items():
        if _best_matching(fits, forbid=(i, owner))[0] - cost >= ORDER_CLEAR:
            named[i] = owner
    unsure = {i: owner for i, owner in matched.items() if i not in named}
    if len(unsure) >= 2:
        # copies landing together whose owners left their seats together: which copy is whose is a coin flip,
        # but who played them is not, where any matching naming another owner, or nobody, for one of them costs
        # ORDER_CLEAR more; a player's count needs only that (seed 117004, four players: red-black's and
        # red-light-blue's r1, both last seen at the opening, landed 0.04 s apart, and neither was named)
        owners = set(unsure.values())
        others = {i: {o: f for o, f in fit.items() if i not in unsure or o not in owners} for i, fit in fits.items()}
        if all(_best_matching({**fits, i: others[i]})[0] - cost >= ORDER_CLEAR for i in unsure):
            named.update(unsure)
    return named


def _best_matching(
    fits: Mapping[int, Mapping[str, tuple[int, float]]], forbid: tuple[int, str] | None = None
) -> tuple[float, dict[int, str]]:
    """The cheapest matching of owners to landings, each owner to one landing at most, and its pairs (``forbid``:
    a pair left out). A pair costs its wait squared, so the copies leave the seats in the order the landings
    came, plus :data:`SEEN_AFTER_COST` for each sighting of the copy at its seat after the landing; a landing
    left unmatched costs :data:`UNNAMED_COST`."""
    landings = sorted(fits)
    best: tuple[float, dict[int, str]] = (math.inf, {})
    chosen: dict[int, str] = {}

    def search(k: int, cost: float) -> None:
        nonlocal best
        if cost >= best[0]:
            return
        if k == len(landings):
            best = (cost, dict(chosen))
            return
        i = landings[k]
        for owner, (later, wait) in sorted(fits[i].items(), key=lambda f: f[1])[:MATCHED_OWNERS]:
            if owner not in chosen.values() and (i, owner) != forbid:
                chosen[i] = owner
                search(k + 1, cost + wait * wait + SEEN_AFTER_COST * later)
                del chosen[i]
        search(k + 1, cost + UNNAMED_COST)

    search(0, 0.0)
    return best


def _held_across(times: Sequence[float], t: float) -> bool:
    """The card lay at the seat across a landing at ``t``: seen there before it, and still after it (see
    :func:`_held_after`). A card first seen at a seat after the landing may be the centre card itself carried past
    the seat (a two-player round, seed 100503, whose stop was seen only as the centre was gathered: red-red's r10,
    landed at 86 s, was read at its seat at 108 s and named red-light-blue's)."""
    return bool(times) and times[0] <= t and _held_after(times, t)


def _kept_through(times: Sequence[float], t: float) -> bool:
    """The card lay at the seat just before a landing at ``t`` and just after it: seen in the :data:`LAST_SEEN_S`
    before and :data:`SEEN_AGAIN` times in the :data:`KEPT_AFTER_S` after."""
    before = bisect.bisect_right(times, t + LANDING_SLACK_S)
    after = bisect.bisect_right(times, t + KEPT_AFTER_S)
    return before >= 1 and t - times[before - 1] <= LAST_SEEN_S and after - before >= SEEN_AGAIN


def _held_after(times: Sequence[float], t: float) -> bool:
    """The card was still at the seat after a landing at ``t``: seen there within :data:`AGAIN_WITHIN_S` after it,
    or later :data:`SEEN_AGAIN` times within that long of each other (once, later on, is a misread, or the card in
    the hand over the seat)."""
    later = times[bisect.bisect_right(times, t + LANDING_SLACK_S) :]
    if later and later[0] - t <= AGAIN_WITHIN_S:
        return True
    return any(later[j + SEEN_AGAIN - 1] - later[j] <= AGAIN_WITHIN_S for j in range(len(later) - SEEN_AGAIN + 1))


def _beside_segment(point: Point, start: Point, end: Point, within: float) -> bool:
    """Whether ``point`` lies within ``within`` of the segment from ``start`` to ``end``, past ``within`` from its
    start (a spot beside the card an arm ends at is not on the arm)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return False
    along = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / length
    if not within <= along <= length:
        return False
    return abs((point[0] - start[0]) * dy - (point[1] - start[1]) * dx) / length <= within


def _apart(r1: float, a1: float, r2: float, a2: float) -> float:
    return math.hypot(r1 * math.cos(a1) - r2 * math.cos(a2), r1 * math.sin(a1) - r2 * math.sin(a2))


def owed_by_elimination(cards: Sequence[Card], owners: Sequence[str | None], players: Sequence[str]) -> Counter[str]:
    """The centre cards per player that the rules settle although play did not name them: each player holds one
    card of each colour and number, so ``players``' copies of one card in the centre are one each. Where a card
    lies in the centre as often as there are players, every player not named for one of its copies played one
    of the unnamed copies (two players: both r7s in the centre are one each, whoever was seen playing them).
    Nothing when a card lies there more often than there are players, or two of its copies name one player: the
    players or the readings are then in doubt.

    >>> r7, b2 = Card.parse("r7"), Card.parse("b2")
    >>> sorted(owed_by_elimination([r7, r7, b2], [None, "red-red", None], ["red-red", "blue-blue"]).items())
    [('blue-blue', 1)]
    >>> sorted(owed_by_elimination([r7, r7], [None, None], ["red-red", "blue-blue"]).items())
    [('blue-blue', 1), ('red-red', 1)]
    >>> owed_by_elimination([r7, r7, r7], [None, None, None], ["red-red", "blue-blue"])
    Counter()
    """
    groups = _copies(cards, owners)
    owed: Counter[str] = Counter()
    for card in settled_by_elimination(cards, owners, players):
        named = [owner for owner in groups[card] if owner]
        owed.update(player for player in players if player not in named)
    return owed


def settled_by_elimination(cards: Sequence[Card], owners: Sequence[str | None], players: Sequence[str]) -> set[Card]:
    """The cards whose unnamed copies :func:`owed_by_elimination` settles: those lying in the centre once per
    player, no player named twice."""
    groups = _copies(cards, owners)
    if not players or any(len(group) > len(players) for group in groups.values()):
        return set()
    settled = set()
    for card, group in groups.items():
        named = [owner for owner in group if owner]
        if len(group) == len(players) and len(set(named)) == len(named) and set(named) <= set(players):
            settled.add(card)
    return settled


def _copies(cards: Sequence[Card], owners: Sequence[str | None]) -> defaultdict[Card, list[str | None]]:
    """Per card, the owners named for its copies in the centre (None: unnamed)."""
    groups: defaultdict[Card, list[str | None]] = defaultdict(list)
    for card, owner in zip(cards, owners, strict=True):
        groups[card].append(owner)
    return groups

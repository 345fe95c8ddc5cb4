"""A simulated round's trace turned into what a camera sees over time: cards at rest, cards in flight.

The simulator's trace (``referee/simulator/trace.py``: a ``layout`` record, then ``move`` / ``pickup`` /
``stop`` / ``scored`` records) says where every card goes and when. A :class:`Timeline` turns it into

- :class:`Change` records: a card comes to rest somewhere (``rest``), or is lifted off the table (``rest``
  is None). Replayed in order they give the cards at rest at any moment, in drawing order (a card that
  comes to rest later lies on top), which is what the renderer caches as its background;
- :class:`Flight` records: a card travelling from where it lay to where it lands, between ``t0`` and
  ``t1`` (video seconds), turning over on the way when its face changes;
- :class:`HandTrack` per seat: where that player's hand is, reaching for a card, carrying it and going
  back to rest beyond the table edge (the hands are what the camera sees move).

Times are video seconds: the trace's seconds divided by ``time_scale`` (2.0 plays a round twice as fast).
Frame ``i`` shows the moment ``i / fps``; a change belongs to the first frame at or after its time
(:func:`frame_of`), so an event at ``t`` is visible from frame ``frame_of(t, fps)`` on.

>>> from referee.simulator import Round
>>> result = Round(("red-red", "blue-blue"), seed=3).play()
>>> timeline = Timeline.from_trace(result.trace_json())
>>> len(timeline.cards), timeline.initial_count
(80, 80)
>>> frame_of(1.0, 30), frame_of(1.01, 30)
(30, 31)
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card

CARD_THICKNESS_MM = 0.3
MAX_PILE_LIFT = 12  # cards; deeper piles do not rise further (keeps long spreads flat)
ARC_MM = 30.0
"""How high a card in flight rises at the middle of its way (seen as a slightly larger card, a longer shadow)."""
REACH_S = 0.22
"""Video seconds a hand takes from rest to the card it picks up."""
RETRACT_S = 0.3
"""... and from the card it put down back to rest."""
LEFTOVER_OUT_MM = 105.0
"""The simulator lays a player's leftovers this far nearer to them than their places (1.15 card heights)."""
IDLE_GAP_S = 1.6
"""A pause this long (video seconds) may hold an idle reach over the centre ..."""
IDLE_CHANCE = 0.3
"""... with this chance."""
REST_OUT_MM = 330.0
"""Where a hand rests: this far beyond the player's places, off the table edge."""


def frame_of(t: float, fps: float) -> int:
    """The first frame showing the moment ``t`` (seconds): frame ``i`` shows ``i / fps``."""
    return max(0, math.ceil(t * fps - 1e-6))


@dataclass(frozen=True)
class Pose:
    """Where a card lies: centre (table mm), angle (degrees, clockwise), height above the table (mm)."""

    x: float
    y: float
    angle: float
    lift: float = 0.0

    def blend(self, other: Pose, s: float, arc: float = 0.0) -> Pose:
        """The pose ``s`` (0..1) of the way to ``other``, turning the short way round, raised by ``arc``."""
        turn = (other.angle - self.angle + 180.0) % 360.0 - 180.0
        return Pose(
            self.x + (other.x - self.x) * s,
            self.y + (other.y - self.y) * s,
            self.angle + turn * s,
            self.lift + (other.lift - self.lift) * s + arc * 4.0 * s * (1.0 - s),
        )


@dataclass(frozen=True)
class Rest:
    """A card lying still: its pose and which side is up."""

    pose: Pose
    face_up: bool


@dataclass(frozen=True)
class Change:
    """At ``t`` card ``card`` comes to rest as ``rest`` (on top of everything), or leaves the table (None)."""

    t: float
    card: int
    rest: Rest | None


@dataclass(frozen=True)
class Flight:
    """Card ``card`` travels from ``start`` to ``end`` between ``t0`` and ``t1``, held by seat ``seat``."""

    card: int
    seat: int
    t0: float
    t1: float
    start: Rest
    end: Rest

    def at(self, t: float) -> tuple[Pose, bool, float]:
        """(pose, face up, width factor) at ``t``; a card turning over narrows to an edge halfway."""
        s = _ease((t - self.t0) / (self.t1 - self.t0)) if self.t1 > self.t0 else 1.0
        pose = self.start.pose.blend(self.end.pose, s, ARC_MM)
        if self.start.face_up == self.end.face_up:
            return pose, self.end.face_up, 1.0
        face_up = self.start.face_up if s < 0.5 else self.end.face_up
        return pose, face_up, max(0.04, abs(math.cos(math.pi * s)))


def _ease(s: float) -> float:
    """Smooth start and stop (a hand accelerates, then brakes)."""
    s = min(1.0, max(0.0, s))
    return s * s * (3.0 - 2.0 * s)


@dataclass(frozen=True)
class Segment:
    """A stretch of a hand's path: ``carry`` follows a flight; ``move`` goes straight from ``a`` to ``b``."""

    t0: float
    t1: float
    flight: Flight | None
    a: tuple[float, float]
    b: tuple[float, float]


@dataclass(frozen=True)
class HandTrack:
    """Where one player's hand is over time (None while it rests off the table)."""

    seat: int
    segments: tuple[Segment, ...]

    def at(self, t: float) -> tuple[float, float, float] | None:
        """(x, y, height above the table in mm) of the grip point, or None at rest."""
        i = bisect.bisect_right([s.t0 for s in self.segments], t) - 1
        if i < 0 or t >= self.segments[i].t1:
            return None
        seg = self.segments[i]
        if seg.flight is not None:
            pose, _, _ = seg.flight.at(t)
            return pose.x, pose.y, pose.lift + 22.0
        s = _ease((t - seg.t0) / (seg.t1 - seg.t0)) if seg.t1 > seg.t0 else 1.0
        return seg.a[0] + (seg.b[0] - seg.a[0]) * s, seg.a[1] + (seg.b[1] - seg.a[1]) * s, 45.0


@dataclass(frozen=True)
class SeatGeometry:
    """A player's seat as the layout gives it: the middle of their places and the way they face."""

    back: str
    anchor: tuple[float, float]
    angle: float

    def outward(self) -> tuple[float, float]:
        """Unit vector from the table centre towards the player (their ``v`` axis)."""
        a = math.radians(self.angle)
        return -math.sin(a), math.cos(a)

    def rightward(self) -> tuple[float, float]:
        """Unit vector to the player's right (their ``u`` axis)."""
        a = math.radians(self.angle)
        return math.cos(a), math.sin(a)

    def point(self, u: float, v: float) -> tuple[float, float]:
        (rx, ry), (ox, oy) = self.rightward(), self.outward()
        return self.anchor[0] + u * rx + v * ox, self.anchor[1] + u * ry + v * oy

    def rest(self) -> tuple[float, float]:
        return self.point(60.0, REST_OUT_MM)

    def shoulder(self) -> tuple[float, float]:
        return self.point(140.0, REST_OUT_MM + 150.0)


@dataclass(frozen=True)
class Timeline:
    """Everything the renderer animates, in video seconds. ``cards[i]`` is (owner's back, card)."""

    cards: tuple[tuple[str, Card], ...]
    seats: tuple[SeatGeometry, ...]
    initial: tuple[tuple[int, Rest], ...]
    changes: tuple[Change, ...]
    flights: tuple[Flight, ...]
    hands: tuple[HandTrack, ...]
    end: float
    table_radius: float
    centre_radius: float
    landmarks: tuple[tuple[float, float], ...] = ()
    """Where the players' places lie (table mm): what a camera framing the players must see."""

    @property
    def initial_count(self) -> int:
        return len(self.initial)

    @property
    def settled(self) -> float:
        """The moment nothing moves any more: the last card has landed and every hand is back at rest."""
        landed = max((f.t1 for f in self.flights), default=0.0)
        return max([landed, *(track.segments[-1].t1 for track in self.hands if track.segments)])

    @classmethod
    def from_trace(
        cls, records: Sequence[dict[str, Any]], time_scale: float = 1.0, seed: int | None = None
    ) -> Timeline:
        """Builds the timeline from a trace (the ``layout`` record first), as the simulator writes it.

        With a ``seed``, players also reach over the centre now and then without a card (looking closer,
        pointing, hesitating), so arms pass over the stacks as at a real table.
        """
        return _Builder(records, time_scale, seed).build()

    def resting_at(self, frame: int, fps: float) -> dict[int, Rest]:
        """The cards at rest in frame ``frame``, in drawing order (bottom first)."""
        state = {card: rest for card, rest in self.initial}
        for change in self.changes:
            if frame_of(change.t, fps) > frame:
                break
            apply_change(state, change)
        return state

    def flights_at(self, t: float, fps: float) -> list[Flight]:
        """Cards in flight at video time ``t`` (lifted from their place, not yet landed)."""
        frame = round(t * fps)
        return [f for f in self.flights if frame_of(f.t0, fps) <= frame < frame_of(f.t1, fps)]


def apply_change(state: dict[int, Rest], change: Change) -> None:
    """Applies one change to an ordered {card: rest} map; a card coming to rest goes on top."""
    state.pop(change.card, None)
    if change.rest is not None:
        state[change.card] = change.rest


class _Builder:
    """Replays the trace over the players' places, recording changes, flights and hand actions."""

    def __init__(self, records: Sequence[dict[str, Any]], time_scale: float, seed: int | None = None) -> None:
        if not records or records[0].get("kind") != "layout":
            raise ValueError("a trace starts with its layout record")
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.records = records
        self.scale = time_scale
        table = records[0]["table"]
        self.table = table
        self.seats = tuple(
            SeatGeometry(s["back"], (s["anchor"][0], s["anchor"][1]), s["anchor"][2] if len(s["anchor"]) > 2 else 0.0)
            for s in table["seats"]
        )
        self.seat_of = {s.back: i for i, s in enumerate(self.seats)}
        self.bases = {
            (s["back"], name): Pose(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0)
            for s in table["seats"]
            for name, p in s["places"].items()
        }
        self.cards: list[tuple[str, Card]] = []
        self.index: dict[tuple[str, str], int] = {}
        self.places: dict[str, list[int]] = {}
        self.where: dict[int, str] = {}
        self.rest: dict[int, Rest] = {}
        self.changes: list[tuple[float, int, Change]] = []
        self.flights: list[Flight] = []
        self.actions: dict[int, list[_Action]] = {}
        self.sequence = 0
        self.seed = seed
        self.stop = math.inf
        self.centre_points: list[tuple[float, float]] = []

    # ------------------------------------------------------------------------------------------ set-up

    def _card(self, back: str, text: str) -> int:
        key = (back, text)
        if key not in self.index:
            self.index[key] = len(self.cards)
            self.cards.append((back, Card.parse(text)))
        return self.index[key]

    def _layout(self) -> list[tuple[int, Rest]]:
        initial: list[tuple[int, Rest]] = []
        for seat in self.table["seats"]:
            back = seat["back"]
            for place, texts in seat["cards"].items():
                key = f"{back}|{place}"
                for text in texts:
                    card = self._card(back, text)
                    rest = self._resting(key, self.bases[(back, place)], face_up=place not in ("hand", "pile"))
                    self._push(key, card, rest)
                    initial.append((card, rest))
                initial.extend(self._refresh_top(key, None))
        return initial

    # ------------------------------------------------------------------------------------------ replay

    def build(self) -> Timeline:
        initial = self._layout()
        # the pile's top card lies face up from the start: the refresh above recorded it
        initial = _last_wins(initial)
        end = 0.0
        for record in self.records[1:]:
            kind = record.get("kind")
            t = float(record["t"]) / self.scale
            end = max(end, t, float(record.get("t_end", 0.0)) / self.scale)
            if kind == "move":
                self._move(record, t, float(record["t_end"]) / self.scale)
            elif kind == "pickup":
                self._pickup(record, t, float(record["t_end"]) / self.scale)
            elif kind == "stop":
                self.stop = min(self.stop, t)
        changes = tuple(change for _, _, change in sorted(self.changes, key=lambda item: (item[0], item[1])))
        hands = tuple(self._track(i) for i in range(len(self.seats)))
        return Timeline(
            cards=tuple(self.cards),
            seats=self.seats,
            initial=tuple(initial),
            changes=changes,
            flights=tuple(sorted(self.flights, key=lambda f: (f.t0, f.card))),
            hands=hands,
            end=end + RETRACT_S,
            table_radius=float(self.table.get("radius", 600.0)),
            centre_radius=float(self.table.get("centre_radius", 300.0)),
            landmarks=self._landmarks(),
        )

    def _landmarks(self) -> tuple[tuple[float, float], ...]:
        """Every player's places, and where their leftovers are laid out after the round (nearer to them)."""
        points = []
        for (back, _), pose in self.bases.items():
            ox, oy = self.seats[self.seat_of[back]].outward()
            points += [(pose.x, pose.y), (pose.x + ox * LEFTOVER_OUT_MM, pose.y + oy * LEFTOVER_OUT_MM)]
        return tuple(points)

    def _move(self, record: dict[str, Any], t0: float, t1: float) -> None:
        back = record["back"]
        card = self._card(back, record["card"])
        source = self._key(back, record["from"])
        target = self._key(back, record["to"])
        start = self.rest.get(card) or Rest(self.bases.get((back, record["from"]), Pose(0.0, 0.0, 0.0)), True)
        self._lift_off(card, t0)
        for flip in self._refresh_top(source, None):
            self._change(t0, *flip)
        p = record["placement"]
        base = Pose(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0)
        face_up = record.get("face", "up") == "up"
        if target.endswith("|pile"):
            face_up = True
        end = self._resting(target, base, face_up)
        for flip in self._refresh_top(target, card):
            self._change(t1, *flip)
        self._push(target, card, end)
        self._change(t1, card, end)
        if target.startswith("centre:"):
            self.centre_points.append((end.pose.x, end.pose.y))
        flight = Flight(card, self.seat_of.get(back, 0), t0, t1, start, end)
        self.flights.append(flight)
        self.actions.setdefault(flight.seat, []).append((t0, t1, flight, (0.0, 0.0)))

    def _pickup(self, record: dict[str, Any], t0: float, t1: float) -> None:
        """The discard pile (and any hand left) is gathered face down and becomes the new hand."""
        back = record["back"]
        for name in ("discard", "hand"):
            for card in list(self.places.get(f"{back}|{name}", [])):
                self._lift_off(card, t1)
        hand_key = f"{back}|hand"
        for text in record["cards"]:
            card = self._card(back, text)
            rest = self._resting(hand_key, self.bases[(back, "hand")], face_up=False)
            self._push(hand_key, card, rest)
            self._change(t1, card, rest)
        discard = self.bases[(back, "discard")]
        seat = self.seat_of.get(back, 0)
        self.actions.setdefault(seat, []).append((t0, t1, None, (discard.x, discard.y)))

    # ------------------------------------------------------------------------------------------ places

    def _key(self, back: str, place: str) -> str:
        """Places in front of a player are theirs; centre stacks, spreads and leftovers are shared."""
        if place.startswith("centre:"):
            return place
        if place in ("spread", "leftover"):
            return f"{place}|{back}"
        return f"{back}|{place}"

    def _resting(self, key: str, base: Pose, face_up: bool) -> Rest:
        depth = min(len(self.places.get(key, [])), MAX_PILE_LIFT)
        return Rest(Pose(base.x, base.y, base.angle, (depth + 1) * CARD_THICKNESS_MM), face_up)

    def _push(self, key: str, card: int, rest: Rest) -> None:
        self.places.setdefault(key, []).append(card)
        self.where[card] = key
        self.rest[card] = rest

    def _lift_off(self, card: int, t: float) -> None:
        key = self.where.pop(card, None)
        if key is not None:
            self.places[key].remove(card)
        self.rest.pop(card, None)
        self._change(t, card, None)

    def _refresh_top(self, key: str, incoming: int | None) -> list[tuple[int, Rest]]:
        """A Ligretto pile shows its top card face up: who turns face up (or down, under ``incoming``)."""
        if not key.endswith("|pile"):
            return []
        cards = self.places.get(key, [])
        flips = []
        for card in cards:
            rest = self.rest[card]
            up = card == cards[-1] and incoming is None
            if rest.face_up != up:
                flipped = Rest(rest.pose, up)
                self.rest[card] = flipped
                flips.append((card, flipped))
        return flips

    def _change(self, t: float, card: int, rest: Rest | None) -> None:
        self.sequence += 1
        self.changes.append((t, self.sequence, Change(t, card, rest)))

    # ------------------------------------------------------------------------------------------ hands

    def _idle_reaches(self, seat_index: int, actions: list[_Action]) -> list[_Action]:
        """Now and then, in a long pause before the stop, a hand goes over a stack and hovers there."""
        if self.seed is None or not self.centre_points:
            return []
        rng = random.Random(f"{self.seed}/{seat_index}")
        reaches: list[_Action] = []
        ends = [-math.inf, *(a[1] for a in actions)]
        starts = [*(a[0] for a in actions), self.stop]
        for free_from, free_to in zip(ends, starts, strict=True):
            free_from = max(free_from, 0.5)
            late = not math.isfinite(free_to) or free_to > self.stop
            if late or free_to - free_from < IDLE_GAP_S or rng.random() > IDLE_CHANCE:
                continue
            t0 = rng.uniform(free_from + REACH_S + 0.1, free_to - IDLE_GAP_S / 2)
            x, y = self.centre_points[rng.randrange(len(self.centre_points))]
            point = (x + rng.uniform(-40.0, 40.0), y + rng.uniform(-40.0, 40.0))
            reaches.append((t0, t0 + rng.uniform(0.3, 0.6), None, point))
        return reaches

    def _track(self, seat_index: int) -> HandTrack:
        seat = self.seats[seat_index]
        rest = seat.rest()
        segments: list[Segment] = []
        actions = sorted(self.actions.get(seat_index, []), key=lambda a: a[0])
        actions = sorted(actions + self._idle_reaches(seat_index, actions), key=lambda a: a[0])
        last_t, last_at = -math.inf, rest
        for t0, t1, flight, point in actions:
            start = (flight.start.pose.x, flight.start.pose.y) if flight else point
            end = (flight.end.pose.x, flight.end.pose.y) if flight else point
            if segments and t0 < last_t:  # a new card before the last one landed: the hand lets go of it
                previous = segments[-1]
                segments[-1] = Segment(previous.t0, max(previous.t0, t0), previous.flight, previous.a, previous.b)
                last_t = t0
            if t0 - last_t > REACH_S + RETRACT_S:
                if segments:
                    segments.append(Segment(last_t, last_t + RETRACT_S, None, last_at, rest))
                segments.append(Segment(t0 - REACH_S, t0, None, rest, start))
            elif t0 > last_t:
                segments.append(Segment(last_t, t0, None, last_at, start))
            segments.append(Segment(t0, max(t1, t0 + 1e-3), flight, start, end))
            last_t, last_at = max(t1, t0 + 1e-3), end
        if segments:
            segments.append(Segment(last_t, last_t + RETRACT_S, None, last_at, rest))
        return HandTrack(seat_index, tuple(s for s in segments if s.t1 > s.t0))


_Action = tuple[float, float, Flight | None, tuple[float, float]]
"""What a hand does: from t0 to t1 it carries a flight's card, or (no flight) hovers over a point."""


def _last_wins(initial: list[tuple[int, Rest]]) -> list[tuple[int, Rest]]:
    """The initial cards with each card's last state, in the order they were laid."""
    final = {card: rest for card, rest in initial}
    seen: set[int] = set()
    out = []
    for card, _ in initial:
        if card not in seen:
            seen.add(card)
            out.append((card, final[card]))
    return out

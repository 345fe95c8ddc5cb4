"""Scripted tables: what a camera above the table would report, frame by frame, with controlled noise.

Tests and evaluations describe the table physically (a card put down here at this time, picked up then, a
hand over that spot, a stack pushed aside) and :class:`ScriptedTable` renders it into the
:class:`~referee.sightings.FrameSightings` the vision side would produce, with :class:`Noise` (position and
angle jitter, cards missed in a frame, misreads, unreadable frames) drawn from a seeded generator.

What is visible: a card lying on the table, not under a hand, and not covered by a card put down later on
nearly the same spot (within ``cover_mm``; a fanned spread shows every back, so backs need less room).

With ``settle_s`` a table also says what the vision side's change clock says of each card's picture
(:class:`vision.change.ChangeClock`): since when it lies still (a card put down or picked up, a stack pushed or a
hand passing within ``near_mm`` of it moves its picture) and when it last came to rest other than it lay before
(``Sighting.rearranged_at``): ``settle_s`` after a stir that put down, picked up or pushed a card; a hand that only
passed leaves the picture as it lay.

>>> table = ScriptedTable(fps=10)
>>> r1 = table.put(0.0, "r1", (0, 0))
>>> table.put(1.0, "r2", (4, 2)) and None
>>> [[s.label for s in f.sightings] for f in table.frames(until=1.1) if f is not None][9:]
[['r1'], ['r2'], ['r2']]
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from referee.cards import FULL_SET, Card
from referee.sightings import FrameSightings, Point, Sighting


@dataclass(frozen=True)
class Noise:
    """What goes wrong between the table and the sightings; rates are per card per frame."""

    jitter_mm: float = 0.0
    jitter_deg: float = 0.0
    dropout: float = 0.0
    misread: float = 0.0
    unreadable: float = 0.0
    seed: int = 0
    quarter_turn: float = 0.0
    """Readings whose outline comes out turned by a quarter turn (a box with width and height swapped)."""
    doubled: float = 0.0
    """Readings that come with a second box on the same card, a few mm off (``doubled_mm``)."""
    doubled_mm: float = 4.0
    confidence: tuple[float, float] = (0.7, 1.0)
    twin_angle: bool = False
    """The second box of a card boxed twice turns as the first (within half a degree) and lies ``doubled_mm``
    (0.5x..1.5x) off it: a real detector's box of the card alone and its box with the strip below."""
    confusion: float = 0.0
    """The share of cards the recogniser confuses with one other face (a y2 on a messy pile read as y10, see
    ``_confusable``): such a card is read as it in runs, surely (identity 0.6..0.95), ``confused_share`` of the
    time."""
    confused_share: float = 0.2
    dropout_stay: float = 0.0
    """A missed card stays missed in the next frame with this probability (stacks flicker out for a few frames)."""
    reuse: int = 0
    """A still picture's readings are reused for up to this many frames in a row (replay's default skips the
    detector on still frames): a misread then repeats bit for bit."""

    @classmethod
    def typical(cls, seed: int = 0) -> Noise:
        """A plausible detector: 1.5 mm / 2 degree jitter, 3% missed, 3% misread, 1% unreadable frames."""
        return cls(1.5, 2.0, 0.03, 0.03, 0.01, seed)

    @classmethod
    def rough(cls, seed: int = 0) -> Noise:
        """An under-trained detector, as the shipped ones read the sample round (``ligretto replay
        datasets/samples/round.mp4``): 1.5 mm / 2 degree jitter (a still card's readings there: 1.2 mm, 1.5
        degrees), 6% missed (a missed card stays missed the next
        frame 70% of the time: stacks flicker out), 3% misread, 1% unreadable frames, 15% of outlines a quarter
        turn off, 25% of cards boxed twice (two boxes turned alike ~12 mm apart), 15% of cards confused with
        another face (read as it 20% of the time, in runs, surely), confidences 0.4..0.8, and a still
        picture's readings reused up to 3 frames (replay's default)."""
        return cls(
            1.5,
            2.0,
            0.06,
            0.03,
            0.01,
            seed,
            0.15,
            0.25,
            12.0,
            (0.4, 0.8),
            twin_angle=True,
            confusion=0.15,
            dropout_stay=0.7,
            reuse=3,
        )


@dataclass
class PlacedCard:
    """One physical card on the table: face up (``card``) or face down (``back``), from ``down_t`` to ``up_t``."""

    card: Card | None
    back: str | None
    x: float
    y: float
    angle: float
    down_t: float
    up_t: float = math.inf
    pushes: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def face_up(self) -> bool:
        return self.card is not None

    def present(self, t: float) -> bool:
        return self.down_t <= t < self.up_t

    def position(self, t: float) -> Point:
        x, y = self.x, self.y
        for t0, t1, dx, dy in self.pushes:
            share = 1.0 if t >= t1 else max(0.0, (t - t0) / (t1 - t0)) if t1 > t0 else float(t >= t0)
            x, y = x + dx * share, y + dy * share
        return (x, y)


@dataclass(frozen=True)
class Hand:
    """A hand over the table: nothing within ``radius`` of ``at`` is seen from ``t0`` to ``t1``."""

    t0: float
    t1: float
    at: Point
    radius: float = 70.0


class ScriptedTable:
    """A table described in time; :meth:`frames` films it. See the module docstring."""

    def __init__(
        self,
        fps: float = 30.0,
        *,
        cover_mm: float = 24.0,
        back_cover_mm: float = 8.0,
        settle_s: float | None = None,
        near_mm: float = 45.0,
    ) -> None:
        self.fps = fps
        self.cover_mm = cover_mm
        self.back_cover_mm = back_cover_mm
        self.settle_s = settle_s
        self.near_mm = near_mm
        self.cards: list[PlacedCard] = []
        self.hands: list[Hand] = []
        self.zone: tuple[Point, ...] | None = None

    # ---- the script

    def put(self, t: float, card: str | Card, at: Point, angle: float = 0.0) -> PlacedCard:
        """A card put down face up at ``t``."""
        face = Card.parse(card) if isinstance(card, str) else card
        placed = PlacedCard(face, None, float(at[0]), float(at[1]), angle, t)
        self.cards.append(placed)
        return placed

    def put_back(self, t: float, back: str, at: Point, angle: float = 0.0) -> PlacedCard:
        """A card put down face down (its back ``back`` showing) at ``t``."""
        placed = PlacedCard(None, back, float(at[0]), float(at[1]), angle, t)
        self.cards.append(placed)
        return placed

    def take(self, t: float, placed: PlacedCard) -> None:
        """The card is picked up at ``t``."""
        placed.up_t = t

    def take_all(self, t: float) -> None:
        """Every card on the table is picked up at ``t`` (the centre is gathered)."""
        for placed in self.cards:
            if placed.present(t):
                placed.up_t = t

    def hide(self, t0: float, t1: float, at: Point, radius: float = 70.0) -> None:
        """A hand hides everything near ``at`` from ``t0`` to ``t1``."""
        self.hands.append(Hand(t0, t1, (float(at[0]), float(at[1])), radius))

    def push(self, t0: float, t1: float, at: Point, by: Point, radius: float = 40.0) -> None:
        """The cards lying near ``at`` at ``t0`` slide by ``by`` between ``t0`` and ``t1``."""
        for placed in self.cards:
            if placed.present(t0) and math.dist(placed.position(t0), at) <= radius:
                placed.pushes.append((t0, t1, float(by[0]), float(by[1])))

    # ---- filming

    def visible(self, t: float) -> list[tuple[PlacedCard, Point]]:
        """The cards a perfect camera sees at ``t``, with where they lie."""
        present = [(p, p.position(t)) for p in self.cards if p.present(t)]
        hands = [h for h in self.hands if h.t0 <= t < h.t1]
        size = max(self.cover_mm, self.back_cover_mm)
        grid: dict[tuple[int, int], list[int]] = {}
        for i, (_, (x, y)) in enumerate(present):
            grid.setdefault((int(x // size), int(y // size)), []).append(i)
        seen = []
        for placed, at in present:
            cover = self.cover_mm if placed.face_up else self.back_cover_mm
            cx, cy = int(at[0] // size), int(at[1] // size)
            near = (j for dx in (-1, 0, 1) for dy in (-1, 0, 1) for j in grid.get((cx + dx, cy + dy), ()))
            if any(present[j][0].down_t > placed.down_t and math.dist(at, present[j][1]) < cover for j in near):
                continue
            if any(math.dist(at, h.at) <= h.radius for h in hands):
                continue
            seen.append((placed, at))
        return seen

    def frames(self, until: float, noise: Noise = Noise(), start: float = 0.0) -> Iterator[FrameSightings | None]:
        """Every frame from ``start`` to ``until`` (None for a frame the noise made unreadable)."""
        rng = random.Random(noise.seed)
        camera = _Camera(noise, rng)
        clock = None if self.settle_s is None else _StirClock(self, self.settle_s)
        first = math.ceil(start * self.fps - 1e-9)
        last = math.floor(until * self.fps + 1e-9)
        for index in range(first, last + 1):
            t = index / self.fps
            if noise.unreadable and rng.random() < noise.unreadable:
                yield None
                continue
            seen = self.visible(t)
            sightings = camera.reused(seen)
            if sightings is None:
                sightings = tuple(
                    s if clock is None else clock.stamp(s, placed, t)
                    for placed, at in seen
                    for s in camera.sightings(placed, at)
                )
                camera.remember(seen, sightings)
            yield FrameSightings(t=t, frame=index, sightings=sightings, zone=self.zone)


class _StirClock:
    """When each card's picture last stirred and last came to rest rearranged (see the module docstring)."""

    def __init__(self, table: ScriptedTable, settle_s: float) -> None:
        self.settle_s = settle_s
        self.frame_s = 1.0 / table.fps
        self.near_mm = table.near_mm
        # (start, end, where, moved cards): everything that stirs a picture
        stirs = [(p.down_t, p.down_t, (p.x, p.y), True) for p in table.cards]
        stirs += [(p.up_t, p.up_t, p.position(p.up_t), True) for p in table.cards if math.isfinite(p.up_t)]
        stirs += [(h.t0, h.t1, h.at, False) for h in table.hands]
        stirs += [(t0, t1, (p.x, p.y), True) for p in table.cards for t0, t1, _, _ in p.pushes]
        self.stirs = sorted(stirs, key=lambda s: s[0])
        self._near: dict[int, list[tuple[float, float, bool]]] = {}

    def near(self, placed: PlacedCard) -> list[tuple[float, float, bool]]:
        """The stirs within ``near_mm`` of the card (start, end, whether a card moved), oldest first."""
        key = id(placed)
        if key not in self._near:
            at = (placed.x, placed.y)
            self._near[key] = [
                (t0, t1, moves) for t0, t1, where, moves in self.stirs if math.dist(at, where) <= self.near_mm
            ]
        return self._near[key]

    def stamp(self, sighting: Sighting, placed: PlacedCard, t: float) -> Sighting:
        """The sighting of ``placed`` at ``t`` with what the clock says of its picture, from the stirs begun by
        then: those the picture never lay still between (for ``settle_s``) make one spell."""
        still: float | None = None
        rearranged: tuple[float | None, float | None] = (None, None)
        spell: tuple[float, float, bool] | None = None
        for start, end, moves in self.near(placed):
            if start > t:
                break
            end = min(end, t)
            if spell is not None and start <= spell[1] + self.settle_s:
                spell = (spell[0], max(spell[1], end), spell[2] or moves)
                continue
            if spell is not None and spell[2]:
                rearranged = (spell[1] + self.settle_s, spell[0] - self.frame_s)
            spell = (start, end, moves)
        if spell is not None:
            still = spell[1]
            if spell[2] and spell[1] + self.settle_s <= t:
                rearranged = (spell[1] + self.settle_s, spell[0] - self.frame_s)
        return replace(sighting, still_since=still, rearranged_at=rearranged[0], rearranged_from=rearranged[1])


@dataclass
class _Camera:
    """The noise's memory from frame to frame: which cards are missed or confused now (and with what face), the
    last reading and how often it was reused."""

    noise: Noise
    rng: random.Random
    missed: set[int] = field(default_factory=set)
    twin_of: dict[int, Card | None] = field(default_factory=dict)
    confused: set[int] = field(default_factory=set)
    last: tuple[object, tuple[Sighting, ...]] | None = None
    reuses: int = 0

    def reused(self, seen: list[tuple[PlacedCard, Point]]) -> tuple[Sighting, ...] | None:
        """The last reading again when nothing moved since it (at most ``Noise.reuse`` frames in a row)."""
        if not self.noise.reuse or self.last is None or self.last[0] != _still_key(seen):
            return None
        if self.reuses >= self.noise.reuse:
            self.reuses = 0
            return None
        self.reuses += 1
        return self.last[1]

    def remember(self, seen: list[tuple[PlacedCard, Point]], sightings: tuple[Sighting, ...]) -> None:
        if self.noise.reuse:
            self.last, self.reuses = (_still_key(seen), sightings), 0

    def sightings(self, placed: PlacedCard, at: Point) -> list[Sighting]:
        """A card's readings in one frame: none (missed), one, or two (boxed twice)."""
        noise, rng = self.noise, self.rng
        if self._stays_missed(placed):
            return []
        first = _sight(placed, at, noise, rng)
        if first is None:
            if noise.dropout_stay:
                self.missed.add(id(placed))
            return []
        first = self._confused(placed, first)
        if not (noise.doubled and rng.random() < noise.doubled):
            return [first]
        if noise.twin_angle:
            return [first, self._twin_box(first)]
        off = (at[0] + rng.gauss(0.0, noise.doubled_mm), at[1] + rng.gauss(0.0, noise.doubled_mm))
        second = _sight(placed, off, replace(noise, dropout=0.0), rng)
        return [first] if second is None else [first, second]

    def _stays_missed(self, placed: PlacedCard) -> bool:
        if id(placed) not in self.missed:
            return False
        if self.rng.random() < self.noise.dropout_stay:
            return True
        self.missed.discard(id(placed))
        return False

    def _confused(self, placed: PlacedCard, sighting: Sighting) -> Sighting:
        """Reads a confusable card as its twin face in runs (5 frames on average)."""
        noise, rng, key = self.noise, self.rng, id(placed)
        if not noise.confusion or placed.card is None:
            return sighting
        if key not in self.twin_of:
            twin = _confusable(placed.card) if rng.random() < noise.confusion else None
            self.twin_of[key] = twin if twin != placed.card else None
        twin = self.twin_of[key]
        if twin is None:
            return sighting
        leave = 0.2
        enter = noise.confused_share * leave / (1.0 - noise.confused_share)
        if key in self.confused and rng.random() < leave:
            self.confused.discard(key)
        elif key not in self.confused and rng.random() < enter:
            self.confused.add(key)
        if key not in self.confused:
            return sighting
        return Sighting(sighting.kind, twin, None, sighting.quad, sighting.confidence, rng.uniform(0.6, 0.95))

    def _twin_box(self, first: Sighting) -> Sighting:
        """A second box of the card, turned as the first, ``doubled_mm`` (0.5x..1.5x) off it."""
        rng, noise = self.rng, self.noise
        heading = rng.uniform(0.0, 2 * math.pi)
        apart = noise.doubled_mm * rng.uniform(0.5, 1.5)
        at = (first.centre[0] + apart * math.cos(heading), first.centre[1] + apart * math.sin(heading))
        angle = first.angle + rng.gauss(0.0, 0.5)
        if noise.quarter_turn and rng.random() < noise.quarter_turn:
            angle += rng.choice((-90.0, 90.0))
        confidence = rng.uniform(*noise.confidence)
        if first.card is None:
            return Sighting.back_at(first.back, at, angle=angle, confidence=confidence, identity_confidence=confidence)
        identity = first.identity_confidence
        return Sighting.face_at(first.card, at, angle=angle, confidence=confidence, identity_confidence=identity)


def _still_key(seen: list[tuple[PlacedCard, Point]]) -> tuple[tuple[int, Point], ...]:
    return tuple((id(placed), at) for placed, at in seen)


def _sight(placed: PlacedCard, at: Point, noise: Noise, rng: random.Random) -> Sighting | None:
    if noise.dropout and rng.random() < noise.dropout:
        return None
    x, y = at
    if noise.jitter_mm:
        x, y = x + rng.gauss(0.0, noise.jitter_mm), y + rng.gauss(0.0, noise.jitter_mm)
    angle = placed.angle + (rng.gauss(0.0, noise.jitter_deg) if noise.jitter_deg else 0.0)
    if noise.quarter_turn and rng.random() < noise.quarter_turn:
        angle += rng.choice((-90.0, 90.0))
    confidence = rng.uniform(*noise.confidence) if noise != Noise() else 1.0
    if placed.card is None:
        return Sighting.back_at(placed.back, (x, y), angle=angle, confidence=confidence, identity_confidence=confidence)
    card, identity = placed.card, confidence
    if noise.misread and rng.random() < noise.misread:
        card, identity = _misread(placed.card, rng), rng.uniform(0.3, 0.7)
    return Sighting.face_at(card, (x, y), angle=angle, confidence=confidence, identity_confidence=identity)


def _confusable(card: Card) -> Card:
    """The face a confused card is read as, as the shipped recogniser confused the sample round's cards lying
    on messy piles (y2, y8, b2, b3 read as 10s: a lower card's corner digit beside the top's): a 10 of the same
    colour; a 9 as a 6 (a 10 on a 9 would be legal); a 10 as a 1.

    >>> [str(_confusable(Card.parse(c))) for c in ("y2", "b8", "g9", "r10")]
    ['y10', 'b10', 'g6', 'r1']
    """
    number = 10 if card.number < 9 else 6 if card.number == 9 else 1
    return Card(card.colour, number)


def _misread(card: Card, rng: random.Random) -> Card:
    """A plausible misread: a neighbouring number, 6 for 9, another colour, or anything."""
    roll = rng.random()
    if roll < 0.4:
        number = card.number + rng.choice((-1, 1))
        return Card(card.colour, number) if 1 <= number <= 10 else card
    if roll < 0.55 and card.number in (6, 9):
        return Card(card.colour, 15 - card.number)
    if roll < 0.8:
        return Card(rng.choice([c for c in (f.colour for f in FULL_SET[::10]) if c != card.colour]), card.number)
    return rng.choice(FULL_SET)

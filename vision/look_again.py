"""Look again, closer, where a card came to rest and none was found.

The detector reads play's frames in one pass at the scale the whole picture fits its input, and now and then
scores a card lying in plain view under its floor frame after frame: the picture does not change, so neither
does its reading (seed 107002, two players on a gingham cloth: a g1 started a stack and lay uncovered for 30 s,
read at 0.31 in every frame; the same pixels read at twice the scale, a window of them alone, score 0.91). The
change clock knows where the picture came to rest rearranged (:meth:`vision.change.ClockReading.rearrangement`):
a part of it as large as a good share of a card, lately, that no card found covers, is a card the detector
missed or a card taken away; so is the place of a card found lately and missing now, the picture there still.
That part alone is read again at :data:`ZOOM` times the scale (a pass of the detector over a few cards' width,
:meth:`referee.session_vision.DetectorVision.look_closer`); a card taken away leaves nothing there to find.
:class:`LookAgain` keeps what the looks find, frame after frame.

>>> import numpy as np
>>> from vision.change import ClockReading
>>> rearranged = np.full((180, 320), np.nan); rearranged[40:60, 100:114] = 5.0   # a card came to rest at 5 s
>>> clock = ClockReading(None, 6.0, 0.0, 8, rearranged, rearranged, 4)
>>> unexplained_rests(clock, np.zeros((0, 4, 2)), card_px=56.0, now=6.0)  # its middle, and when it came to rest
[(426.0, 198.0, 5.0)]
>>> found = np.array([[[398, 158], [458, 158], [458, 242], [398, 242]]], float)  # ... unless a card found covers it
>>> unexplained_rests(clock, found, card_px=56.0, now=6.0)
[]
>>> unexplained_rests(clock, np.zeros((0, 4, 2)), card_px=56.0, now=12.0)      # or it came to rest long ago
[]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.change import ClockReading
from vision.detections import CardDetections

ZOOM = 2.0
"""How much closer than play's reading a spot is read: one window of the detector's input size, a quarter of the
picture at 720p. Seeds 107000 and 107002 (two players, cards missed for 2-30 s in plain view): four missed cards
read at 0.74-0.92 at twice the scale, 0.49-0.95 at 2.7 times, 0.57-0.88 at four times; none at all at once."""
RECENT_S = 3.0
"""A spot is looked at while it came to rest, or its card was last found, within this many seconds; a card found
closer is then kept (:class:`LookAgain`) until looks find it gone."""
MIN_CARD_SHARE = 0.4
"""A spot is at least this share of a card's area: a card missed (its whole outline rests rearranged, less where
its colour and the cloth's grey alike), not the sliver of a card slapped askew beside the box found for it."""
MAX_CARDS = 2.0
"""A spot is at most this many cards' area: one card missed, or two landing together; the picture around stacks
where many cards landed and hands passed rests rearranged in larger, ragged patches, which a closer look finds
empty."""
MIN_FILL = 0.2
"""A spot fills at least this share of its bounding box: a card turned 45 degrees fills under half of it, less
where only part of it is marked (seed 107002: a g1 turned 30 degrees, two thirds marked, filled a third)."""
GAP_PX = 1
"""Gaps this wide (thumbnail pixels, the clock's fine scale) between rearranged pixels are closed before the parts
are measured: a green card on a blue check cloth (four players, seed 123006) marked its rest in fragments, the
largest a third of a card, and lay unread for 30 s; closed, its rest is half a card."""
COVER_MARGIN = 2
"""Thumbnail pixels (of the clock's fine scale) around each card found that count as covered by it: the clock's
pixels straddle the card's edge."""
CARD_ASPECT = 1.54
"""A card's length over its width (Ligretto's 59 x 91 mm)."""


def unexplained_rests(
    clock: ClockReading,
    corners: npt.ArrayLike,
    *,
    card_px: float,
    now: float,
    recent_s: float = RECENT_S,
) -> list[tuple[float, float, float]]:
    """The parts of the picture that came to rest rearranged within ``recent_s`` of ``now``, each at least
    :data:`MIN_CARD_SHARE` of a card ``card_px`` wide, outside every outline in ``corners`` (N, 4, 2 image
    pixels: the cards found): the middle of each (image pixels) and when it last came to rest; the largest
    first."""
    rearranged = clock.rearranged
    if rearranged is None or clock.t < clock.steady_from or card_px <= 0:
        return []
    with np.errstate(invalid="ignore"):
        recent = (rearranged >= now - recent_s).astype(np.uint8)  # NaN: never rearranged
    if not recent.any():
        return []
    k = clock.fine_scale
    covered = np.zeros_like(recent)
    for quad in np.asarray(corners, np.float64).reshape(-1, 4, 2):
        cv2.fillConvexPoly(covered, np.round(quad / k).astype(np.int32), 1)
    uncovered = 1 - np.asarray(cv2.dilate(covered, np.ones((2 * COVER_MARGIN + 1,) * 2, np.uint8)), np.uint8)
    card = CARD_ASPECT * (card_px / k) ** 2
    spots = _card_sized(recent & uncovered, card)
    # a card whose colours and the cloth's are alike marks its rest in pieces a pixel apart: joined, they are one
    # card. Only where the pieces alone were no spot (joining can merge two cards landing side by side into one
    # part too large to look at), and once settled: joined, the marks of a hand still setting a card down make a
    # spot before the card's own rest does, and looks finding nothing there leave its place alone a while
    closed = np.asarray(cv2.morphologyEx(recent, cv2.MORPH_CLOSE, np.ones((2 * GAP_PX + 1,) * 2, np.uint8)), np.uint8)
    middles = np.asarray([(x, y) for _, x, y, _ in spots]).reshape(-1, 2)
    spots += [
        s
        for s in _card_sized(closed & uncovered, card)
        if not _near_any(np.asarray([s[1:3]]), middles, card_px / k) and np.nanmax(rearranged[s[3]]) <= now - SETTLE_S
    ]
    return [(x * k, y * k, float(np.nanmax(rearranged[part]))) for _, x, y, part in sorted(spots, key=lambda s: -s[0])]


def _card_sized(free: npt.NDArray[np.uint8], card: float) -> list[tuple[int, float, float, npt.NDArray[np.bool_]]]:
    """The connected parts of ``free`` (the clock's thumbnail) between :data:`MIN_CARD_SHARE` and :data:`MAX_CARDS`
    of a ``card``'s area (thumbnail pixels) that fill :data:`MIN_FILL` of their bounding box: each one's area,
    middle and pixels."""
    _, labels, stats, middles = cv2.connectedComponentsWithStats(free.astype(np.uint8), connectivity=8)
    # the parts' sizes judged in one pass (a picture's rearranged pixels fall into hundreds of specks)
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    sized = (MIN_CARD_SHARE * card <= area) & (area <= MAX_CARDS * card) & (area >= MIN_FILL * w * h)
    sized[0] = False  # the background
    return [(int(area[i]), float(middles[i][0]), float(middles[i][1]), labels == i) for i in np.flatnonzero(sized)]


LOOKS_FOR_NOTHING = 2
"""A spot where closer looks found nothing this often in a row is left alone for :data:`RECENT_S`: a card taken
away leaves its place rearranged and empty, and where hands keep moving the picture keeps resting anew."""
SURE_FOUND = 0.55
"""A card found this surely and then missing, the picture there still, is looked at closer: less sure finds come
and go with the picture's noise (flicker, not a card lost)."""
IN_FLIGHT_S = 0.5
"""A card missing where it was found is looked for only if the picture there came to rest rearranged since this
long before it was found: a card read in flight (four players, seed 106000: three readings along one throw)
leaves the cloth as it was."""
SETTLE_S = 0.3
"""A card kept is looked at again once the picture inside it has lain still this long after changing: a hand over
it finds nothing, the card left once the hand is gone does (seed 107002: an arm reaching past a g1 read closer)."""

Spot = tuple[float, float]
Look = Callable[[Sequence[Spot]], list[CardDetections]]
"""Reads each spot closer: the cards found there (image pixels)."""


@dataclass(eq=False)
class _Kept:
    """Cards a closer look found, when, and how many looks since found nothing there."""

    cards: CardDetections
    looked_t: float
    misses: int = 0

    def middles(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.cards.corners, np.float64).mean(axis=1)

    def spot(self) -> Spot:
        x, y = self.middles().mean(axis=0)
        return float(x), float(y)


@dataclass
class LookAgain:
    """Frame after frame, the cards closer looks find that the frame's reading missed (see the module docstring).

    Spots are looked at where a card came to rest and none was found (:func:`unexplained_rests`), and where a
    card found lately is missing while the picture there lies still: read once as it landed, then not at all
    (seed 107000, a b1 on a grey stone table, unread for 2.5 s; blue on grey barely changes the grey picture the
    clock compares, so it marked no rest there). A card found closer is kept, until the frame's own reading
    finds it or looks find it gone: the tracker drops a stack it does not see where the picture shows its place.
    While the picture there lies still, the last look stands (no detector pass); once it has changed (a hand
    passed, a card landed on it) and lies still again (:data:`SETTLE_S`), it is looked at again; a card that looks
    found gone so is looked for once more where it lay once the picture there has changed again (:meth:`_back`)."""

    card_px: float
    region: tuple[tuple[float, float], ...] = ()
    """Where spots are looked at (image pixels, a polygon; empty: anywhere): the centre, whose cards count. The
    clock watches a margin around it too, where hands reaching for the players' rows keep the picture resting anew
    (four players, seed 106000: 885 of 891 looks at rests in 30 s were empty there; 21 of 27 within the centre)."""
    kept: list[_Kept] = field(default_factory=list)
    misses: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)
    """Per spot (on a grid of a card's width): when a look last found nothing there, and how often in a row."""
    seen: dict[tuple[int, int], tuple[float, npt.NDArray[np.float32]]] = field(default_factory=dict)
    """Per place (the same grid): when the frame's reading last found a card there, and its outline."""
    lost: dict[tuple[int, int], tuple[float, npt.NDArray[np.float32]]] = field(default_factory=dict)
    """Per place (the same grid): when looks let a kept card go, and its outline (see :meth:`_back`)."""

    def cards(self, clock: ClockReading, found: CardDetections, now: float, look: Look) -> CardDetections:
        """The cards to add to ``found`` (the frame's reading) at ``now``; ``look`` reads spots closer."""
        known = _middles(found)
        changed = [clock.since(k.cards.corners) for k in self.kept]
        still = [_all_before(c, k.looked_t) for k, c in zip(self.kept, changed, strict=True)]
        # a kept card the frame's reading finds now needs no look (it stays kept: that reading may lose it again)
        read = [_near_any(k.middles(), known, self.card_px) for k in self.kept]
        again = [
            k
            for k, s, c, r in zip(self.kept, still, changed, read, strict=True)
            if not s and not r and _all_before(c, now - SETTLE_S)
        ]
        lying = {id(k) for k, s in zip(self.kept, still, strict=True) if s}
        watched = [*(k.middles() for k in self.kept), known]
        fresh: list[tuple[float, float, float]] = []
        for x, y, t in [
            *unexplained_rests(clock, found.corners, card_px=self.card_px, now=now),
            *self._gone(clock, known, now),
        ]:
            if _near_any(np.asarray([[x, y]]), np.concatenate(watched), self.card_px):
                continue  # looked at already, or found
            cell = self._cell((x, y))
            last, empty = self.misses.get(cell, (-math.inf, 0))
            if (empty < LOOKS_FOR_NOTHING or now - last >= RECENT_S) and self._inside((x, y)):
                fresh.append((x, y, t))
                watched.append(np.asarray([[x, y]]))
        for quad, middle, sure in zip(found.corners, known, found.confidence >= SURE_FOUND, strict=True):
            if sure:
                self.seen[self._cell((float(middle[0]), float(middle[1])))] = (now, quad)
        back = self._back(clock, now, watched)
        spots = [k.spot() for k in again] + [(x, y) for x, y, _ in fresh] + back
        looked = look(spots) if spots else []
        for kept, cards in zip(again, looked, strict=False):
            if len(cards):
                kept.cards, kept.looked_t, kept.misses = cards, now, 0
            else:
                kept.misses += 1
        for kept in self.kept:
            if kept.misses >= LOOKS_FOR_NOTHING:
                for quad, (x, y) in zip(kept.cards.corners, _middles(kept.cards), strict=True):
                    self.lost[self._cell((float(x), float(y)))] = (now, quad)
        self.kept = [k for k in self.kept if k.misses < LOOKS_FOR_NOTHING]
        for cards in looked[len(again) + len(fresh) :]:  # the places of cards let go, looked at once more
            if len(self._apart(cards, known)):
                self.kept.append(_Kept(cards, now))
        for (x, y, _), cards in zip(fresh, looked[len(again) : len(again) + len(fresh)], strict=True):
            cell = self._cell((x, y))
            if len(self._apart(cards, known)):
                self.kept.append(_Kept(cards, now))
                self.misses.pop(cell, None)
            else:
                last, empty = self.misses.get(cell, (-math.inf, 0))
                self.misses[cell] = (now, empty + 1 if now - last < RECENT_S else 1)
        # what the kept cards show now: those looked at now or lying as they were, less those the frame found
        shown = [k.cards for k in self.kept if id(k) in lying or k.looked_t == now]
        return self._apart(CardDetections.concatenate(shown), known)

    def _gone(
        self, clock: ClockReading, known: npt.NDArray[np.float64], now: float
    ) -> list[tuple[float, float, float]]:
        """Where the frame's reading found a card within :data:`RECENT_S` and finds none now, the picture there
        lying still: the middle of each, and when it was last found."""
        self.seen = {cell: seen for cell, seen in self.seen.items() if seen[0] >= now - RECENT_S}
        if not self.seen:
            return []
        places = list(self.seen.values())
        quads = np.stack([quad for _, quad in places])
        middles = quads.mean(axis=1).astype(np.float64)
        missing = ~_near_rows(middles, known, self.card_px / 2)
        settled = clock.since(quads) <= now - SETTLE_S  # NaN (the clock cannot tell): not settled
        # a card that came to rest there rearranged the picture; one read in flight leaves it as it was
        rested = clock.rearranged_at(quads) >= np.asarray([t for t, _ in places]) - IN_FLIGHT_S
        return [
            (float(m[0]), float(m[1]), t)
            for (t, _), m, gone, calm, came in zip(places, middles, missing, settled, rested, strict=True)
            if gone and calm and came and t < now
        ]

    def _back(self, clock: ClockReading, now: float, watched: list[npt.NDArray[np.float64]]) -> list[Spot]:
        """The places of kept cards that looks let go within :data:`RECENT_S`, where the picture has changed since
        and settled (:data:`SETTLE_S`): each looked at once more. Looks that find nothing under a hand resting over
        a stack let its card go, and once the hand has gone the picture there is the card's as before, or with
        another of its colour on it, the digits alone changed: no rest large enough to look at (eight players,
        seed 116002, a blue stack on a blue check cloth, its b5 to b8 landed unseen)."""
        self.lost = {cell: lost for cell, lost in self.lost.items() if lost[0] >= now - RECENT_S}
        if not self.lost:
            return []
        cells = list(self.lost)
        quads = np.stack([self.lost[cell][1] for cell in cells])
        since = clock.since(quads)
        spots = []
        for cell, quad, changed in zip(cells, quads, since, strict=True):
            if not self.lost[cell][0] < changed <= now - SETTLE_S:  # NaN: the clock cannot tell
                continue
            middle = np.asarray(quad, np.float64).mean(axis=0)
            del self.lost[cell]
            if not _near_any(middle[None, :], np.concatenate(watched), self.card_px):
                spots.append((float(middle[0]), float(middle[1])))
        return spots

    def _apart(self, cards: CardDetections, others: npt.NDArray[np.float64]) -> CardDetections:
        """``cards`` less those within a card's width of one of ``others`` (middles)."""
        return cards[~_near_rows(_middles(cards), others, self.card_px)] if len(cards) else cards

    def _inside(self, spot: Spot) -> bool:
        if not self.region:
            return True
        outline = np.asarray(self.region, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(outline, spot, False) >= 0

    def _cell(self, spot: Spot) -> tuple[int, int]:
        return round(spot[0] / self.card_px), round(spot[1] / self.card_px)


def _all_before(changed: npt.NDArray[np.float64], t: float) -> bool:
    """Whether the picture inside every outline last changed no later than ``t`` (NaN: the clock cannot tell)."""
    return bool(len(changed)) and not np.isnan(changed).any() and bool((changed <= t).all())


def _middles(cards: CardDetections) -> npt.NDArray[np.float64]:
    return np.asarray(cards.corners, np.float64).mean(axis=1) if len(cards) else np.zeros((0, 2))


def _near_rows(
    points: npt.NDArray[np.float64], others: npt.NDArray[np.float64], within: float
) -> npt.NDArray[np.bool_]:
    """Per point, whether any of ``others`` lies within ``within`` of it."""
    if not len(points) or not len(others):
        return np.zeros(len(points), bool)
    return np.asarray((np.hypot(*(points[:, None, :] - others[None, :, :]).transpose(2, 0, 1)) <= within).any(axis=1))


def _near_any(points: npt.NDArray[np.float64], others: npt.NDArray[np.float64], within: float) -> bool:
    return bool(_near_rows(points, others, within).any())


def window_around(
    spot: tuple[float, float], size: tuple[int, int], picture: tuple[int, int]
) -> tuple[int, int, int, int]:
    """The ``size`` (width, height) window of a ``picture`` (width, height) centred on ``spot`` as far as the
    picture allows: ``x0, y0, x1, y1`` pixels.

    >>> window_around((100.0, 600.0), (640, 384), (1280, 720))
    (0, 336, 640, 720)
    """
    width, height = min(size[0], picture[0]), min(size[1], picture[1])
    x0 = min(max(0, round(spot[0] - width / 2)), picture[0] - width)
    y0 = min(max(0, round(spot[1] - height / 2)), picture[1] - height)
    return x0, y0, x0 + width, y0 + height


def zoomed_window(input_size: tuple[int, int], scale: float, zoom: float = ZOOM) -> tuple[int, int]:
    """The window (width, height, picture pixels) that fills a detector's ``input_size`` (height, width) at
    ``zoom`` times the ``scale`` it reads whole pictures at.

    >>> zoomed_window((384, 640), 0.5)
    (640, 384)
    """
    return math.ceil(input_size[1] / (scale * zoom)), math.ceil(input_size[0] / (scale * zoom))

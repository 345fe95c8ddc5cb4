"""Counting fanned cards by the length of their fan, when the total is known.

A card in a fan shows a strip of its back, 10-30 mm wide, and a detector boxes strips badly: one strip twice,
two strips as one, the visible strip here and the whole card there. So the number of boxes in a fan is a poor
count of its cards, while the fan's *length* is measured well: the union of its boxes runs from the outer edge
of the first card to the outer edge of the last, whatever the boxes in between. A fan of ``n`` cards laid at a
step ``s`` is ``(n - 1) * s`` plus one card long.

The step is not known (every hand lays it differently), but at the end of a round the centre's total is: the
stacks' heights add up to the number of centre cards. Fans laid by one hand share one step, so with the total
``T`` over ``k`` fans the step is ``sum(length_i - card_i) / (T - k)``, and each fan's count follows from its
length. Lengths only fill in what was missed: every card seen one by one stays counted where it was seen, and the
``T`` minus seen missing cards go to the fans whose lengths hold more cards than were seen in them (largest
remainders, so that the counts add up to ``T``).

>>> fan = [((x, 0.0), (((x - 29.5, -45.5), (x + 29.5, -45.5), (x + 29.5, 45.5), (x - 29.5, 45.5)),))
...        for x in (0.0, 13.0, 26.0, 40.0, 52.0)]
>>> short = [(pt, q) for pt, q in fan[:3]]
>>> Fan.of(fan).length, Fan.of(fan).card
(52.0, 59.0)
>>> fill_missing([4, 2], [Fan.of(fan), Fan.of(short)], total=8)  # one strip missed in each
[5, 3]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.rules import CARDS_PER_SET, LIGRETTO_PILE_SIZE
from referee.sightings import Point, Quad, run_direction

MIN_STEP_MM = 5.0
MAX_STEP_MM = 45.0
"""The steps a fan is laid at: a strip narrower than 5 mm hides the back, and wider than 45 mm (three quarters
of a card's width) it is no longer a fan; a fitted step outside these says the fans are not what they seem (one
missed, two taken for one) and the counts are not fitted."""
ONE_LINE = 1.3
"""A spread wider across than this many card lengths is not one line of cards (two lines, a heap): its length
says nothing about its count."""


@dataclass(frozen=True)
class Fan:
    """A spread measured along its own axis: ``length`` beyond one card (0 for a single card), ``card`` the card's
    extent along the axis, ``line``: whether it is one line of cards (else its length cannot be used)."""

    length: float
    card: float
    line: bool

    @classmethod
    def of(cls, cards: Sequence[tuple[Point, Sequence[Quad]]], axis: Point | None = None) -> Fan:
        """From each card's centre and the quads it was seen through (a few recent ones: a median is taken), along
        ``axis`` (a unit direction) or, by default, the direction the centres run in."""
        centres = np.array([c for c, _ in cards], np.float64)
        along_axis = _axis(centres) if axis is None else np.asarray(axis, np.float64)
        across = np.array([-along_axis[1], along_axis[0]])
        lows, highs, widths = [], [], []
        for _, quads in cards:
            if not quads:
                continue
            corners = np.array(quads, np.float64)  # (q, 4, 2)
            along, side = corners @ along_axis, corners @ across
            lows.append(float(np.median(along.min(axis=1))))
            highs.append(float(np.median(along.max(axis=1))))
            widths.append(float(np.median(side.max(axis=1) - side.min(axis=1))))
        if not lows:
            return cls(0.0, CARD_WIDTH_MM, True)
        wide = float(np.median(widths))
        # cards lie across the fan's axis or along it: what one shows across the axis, the other spans along it
        card = min(max(CARD_WIDTH_MM + CARD_HEIGHT_MM - wide, CARD_WIDTH_MM), CARD_HEIGHT_MM)
        extent = max(highs) - min(lows)
        line = max(widths) <= ONE_LINE * CARD_HEIGHT_MM
        return cls(max(0.0, extent - card), card, line)


def _axis(centres: np.ndarray) -> np.ndarray:
    """The direction the cards' centres run in (their first principal axis); x for a single card."""
    if len(centres) < 2:
        return np.array([1.0, 0.0])
    _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
    return np.asarray(vt[0], np.float64)


def fitted_lengths(fans: Sequence[Fan], total: int) -> list[float] | None:
    """Each fan's number of cards as its length tells, adding up to ``total``, from one step shared by all; None
    when the fans do not fit one step (see :data:`MIN_STEP_MM`) or are not all single lines.

    >>> fitted_lengths([Fan(26.0, 59.0, True), Fan(0.0, 59.0, True)], total=4)
    [3.0, 1.0]
    >>> fitted_lengths([Fan(260.0, 59.0, True)], total=3) is None  # a 130 mm step: not one fan of three
    True
    """
    k = len(fans)
    if k == 0 or total < k or not all(f.line for f in fans):
        return None
    span = sum(f.length for f in fans)
    if total == k:
        return [1.0] * k if span <= MIN_STEP_MM * k else None
    step = span / (total - k)
    if not MIN_STEP_MM <= step <= MAX_STEP_MM:
        return None
    return [f.length / step + 1.0 for f in fans]


def fill_missing(seen: Sequence[int], fans: Sequence[Fan], total: int) -> list[int] | None:
    """The fans' counts when fewer than ``total`` cards were ``seen`` in them: every card seen stays where it was
    seen, and the cards missing go to the fans whose lengths hold more than was seen there, in proportion. None
    when nothing is missing or the lengths fit no step.

    >>> fill_missing([6, 2], [Fan(104.0, 59.0, True), Fan(39.0, 59.0, True)], total=13)
    [9, 4]
    >>> fill_missing([5, 3], [Fan(52.0, 59.0, True), Fan(26.0, 59.0, True)], total=8) is None  # all seen
    True
    """
    missing = total - sum(seen)
    lengths = fitted_lengths(fans, total) if missing > 0 else None
    if lengths is None:
        return None
    room = [max(0.0, held - n) for held, n in zip(lengths, seen, strict=True)]
    if sum(room) <= 0:
        return None
    return [n + extra for n, extra in zip(seen, largest_remainders(room, missing), strict=True)]


def largest_remainders(shares: Sequence[float], total: int) -> list[int]:
    """Whole numbers near ``shares`` adding up to ``total``: floors, then one more for the largest remainders.

    >>> largest_remainders([6.58, 13.42], 20)
    [7, 13]
    >>> largest_remainders([1.0, 1.0, 1.0], 2)
    [1, 1, 0]
    """
    scale = total / sum(shares) if sum(shares) > 0 else 0.0
    scaled = [s * scale for s in shares]
    counts = [math.floor(s) for s in scaled]
    by_remainder = sorted(range(len(scaled)), key=lambda i: (-(scaled[i] - counts[i]), i))
    for i in by_remainder[: total - sum(counts)]:
        counts[i] += 1
    return counts


LINE_STEPS_MM = (20.0, 40.0)
"""The steps a leftover line is laid at: each card about half over the last (29.5 mm), give or take a third."""
LINE_COHERENCE = 0.45
"""How well the spots must sit on one lattice of that step (1: every spot on it) for the line's length to count."""
LINE_STEP_SHARE = 0.8
"""Of the steps the spots sit on about as well as on the best (this share of its coherence), the longest is the
line's: a card boxed twice (its strip, and its whole outline under the card above) puts spots between the
cards' own, which a shorter step also fits, and the line is counted too long.
On the leftover lines of 34 rendered rounds' readings (74 lines, one per back): exact 26 -> 31, cards miscounted
100 -> 95; better for 2, 4 and 8 players alike, and for any share from 0.7 to 0.9 (development script)."""


@dataclass(frozen=True)
class LineLength:
    """A line of cards as the picture measures it, on the table plane (mm): ``extent`` from the outer edge of its
    first card to that of its last, and ``steps``, the candidate steps its cards' edges repeat at, each with its
    strength (0..1; see :mod:`vision.shingles`, which measures them). ``seen``: whether the picture bounds the
    extent; False where its colours bound none and the extent is the run of the line's own colours or its boxes'
    ends (a box missed at an end cuts the latter short by a step): good to a card's edge, not to a millimetre."""

    extent: float
    steps: tuple[tuple[float, float], ...]
    seen: bool = True


MIN_STEP_STRENGTH = 0.3
"""A step whose repetition is weaker than this is no step of the line: a line of two cards shows one step only,
and its autocorrelation peaks weakly anywhere (a rendered two-player round, seed 100402: two cards 32 mm apart,
a peak of 0.15 at 17.7 mm, counted three); the eight lines counted right in rendered rounds of seeds
100300-100306 repeated at 0.42-0.77. Such a line is left to its boxes."""
WEAK_STEP_FIT = 0.3
WEAK_STEP_CARDS = 4
"""A line whose edges repeat at no step as strongly as :data:`MIN_STEP_STRENGTH` is still counted by a weaker one
that measures its length to within this share of a step of a whole number of steps, for this many cards or more:
a pale patterned back (red-pink's) fades its edges, and its boxes, two to a card, count such a line high (seed
101015, four players: seven cards 26.0 mm apart repeating at 0.21, its ten boxes counted ten). A step found a
millimetre off runs a seven-card line's length a quarter step off (seed 101014: 25.3 mm for 26.4). The weak step
is the one the strong ones would be chosen by; a line of two or three cards repeats its step once or twice, too
seldom to tell it from the table's grain, and stays with its boxes unless the step fits it closely
(:data:`SHORT_STEP_FIT`; seed 101016: three cards 27.9 mm apart repeating at 0.29, whose weaker 19.6 mm peak
would count four, are counted three by the 27.9 mm). The 49 leftover lines of 16 four-player rounds (seeds
101000-101020, the final count's lines measured again offline, a development script): cards miscounted
24 -> 15 by this rule, no player's count made worse."""
WEAK_STEP_MM = 12.0
"""... and only by a weak step this long or longer: a weak repetition finer than this is a back's printed pattern
(a line laid out to be counted shows more of each card), not its cards' edges (seed 115004, four players:
red-pink's three leftovers, 106 mm, boxed 21-25 mm apart, repeating at 7.9 mm (0.15) and 29.2 mm (0.22), were
counted 7 by the former). Of 63 rounds pickled at the score (seeds 114000-116006, 2-8 players), that line was
the only one this changed; of 28 more (seeds 112000-113006, two and four players), none."""
SHORT_CARDS = 3
SHORT_STEP_FIT = 0.1
"""... and a line of three cards too, where the weak step measures its length to within this share of a step of
two whole steps: its boxes, two to a card or one to two strips, count such a line a card off as often (seed
116005, four players: three red-black leftovers, boxed twice, 104 mm long, repeating at 21.8 mm at 0.15: 2.05
steps, counted 2; seed 113002, two players: three red-red leftovers, boxed four times, repeating at 25.0 mm at
0.19: 1.95 steps, counted 4), while two cards 32 mm apart repeating weakly at 17.7 mm (seed 100402) measure 1.82
such steps and stay with their boxes. Of 91 rounds pickled at the score (seeds 112000-116006, 2-8 players):
leftovers right in 3 more lines (those two and seed 115003's eight-player red-black), none wrong that were right."""
PATTERN_HARMONIC = 0.15
"""A candidate step within this share of a whole multiple (twice or more) of a finer repetition (under
:data:`WEAK_STEP_MM`: a back's printed pattern), and repeating no more strongly than it, is that pattern repeating
again, not the cards' edges (see :func:`_without_pattern_harmonics`)."""
SHINGLE_ROUNDING = 0.5
"""How much a candidate step loses for each card's worth of length it leaves over (a whole number of steps is
what a line is): the step whose edges repeat most strongly wins, unless it fits the length much worse."""


HALF_STEP_MATCH = 0.1
"""A candidate step within this share of half the chosen one is the cards' own step, the chosen one its double
(see :func:`shingled_count`)."""
HALF_STEP_STRENGTH = 0.5
"""... where it repeats at least this share as strongly as the chosen one."""
DOUBLE_STEP_FIT = 0.25
"""A candidate step near twice the chosen one, repeating at least :data:`HALF_STEP_STRENGTH` as strongly and
measuring the line to within this share of a step of a whole number of steps, is the cards' own step where the
boxes count no more cards than it does: the chosen one is every card's two edges (see :func:`shingled_count`)."""
DOUBLE_STEP_STRENGTH = 0.6
"""... where it repeats at least this share as strongly as the chosen one: the cards' edges repeat at twice
their step too, every second card, if less strongly. Seed 120000, two players, held out: three red-red leftovers
22 mm apart, repeating at 21.0 mm (0.32) and at 41.8 mm (0.16, half as strongly), were counted two; seed 117001's
three 35 mm apart repeat at their own step 0.73 times as strongly as at half it. Of 70 rounds pickled at the
score (seeds 117000-120006, 2-8 players), that line alone changed, for any share from 0.55 to 0.7. The double must
repeat at least :data:`MIN_STEP_STRENGTH` in its own right too, as a step must to count a line at all: seed 125000,
four players, held out: five red-light-blue leftovers 23 mm apart repeating at 21.2 mm (0.33) and at 43.8 mm (0.21,
0.64 times as strongly), boxed twice a card on a lattice of three, were counted three."""


def shingled_count(line: LineLength, card: float, most: int | None = None, boxes: int | None = None) -> int | None:
    """The cards of a line laid each partly over the last, from its measured extent and step: ``(extent - card) /
    step + 1``. Of the candidate steps (the edges repeat at the step, at twice it, and wherever a back's printed
    pattern repeats), the one whose repetition is strongest, less :data:`SHINGLE_ROUNDING` times how far its
    count lies from a whole number, among the steps repeating at least :data:`MIN_STEP_STRENGTH`. One card
    when the line is no longer than a card; None when it is much shorter than one (not a line of cards) or no step
    fits. ``most``: the most cards the line can hold (a Ligretto pile's ten): a step counting more is a back's
    printed pattern, not the cards' edges (seed 101033, four players: red-pink's nine cards 26 mm apart, their
    pattern repeating at 8 mm, counted 28). A weak step (:data:`WEAK_STEP_FIT`) counts only a line whose extent the
    picture bounds: measuring a length to a fraction of a step needs more than the boxes' ends.

    ``boxes``: the cards the line's boxes show (a card's strip, or its whole outline, not a box across two cards'
    overlap; the caller counts them on their lattice, a card boxed both ways being one): a
    line's edges repeat at twice its step too, alike every other card, and where half the chosen step repeats at
    least :data:`HALF_STEP_STRENGTH` as strongly and the boxes are at least as many as it counts, it is the
    cards' own step (boxes count a card once or twice, never once in two cards). Seeds 106001 and 106003, four
    players: nine and seven leftovers 22 mm apart counted 5 and 4 by edges repeating at 44-45 mm (0.35) and at
    22 mm (0.22-0.36), boxed 9 and 7 times.

    >>> shingled_count(LineLength(186.6, ((22.5, 0.22), (44.3, 0.35))), card=59.0)
    4
    >>> shingled_count(LineLength(186.6, ((22.5, 0.22), (44.3, 0.35))), card=59.0, boxes=7)
    7
    >>> shingled_count(LineLength(150.0, ((9.5, 0.3), (20.0, 0.72), (40.1, 0.5))), card=59.0)  # 91 mm = 4.55 steps
    6
    >>> shingled_count(LineLength(61.0, ()), card=59.0)
    1
    >>> shingled_count(LineLength(91.2, ((17.7, 0.15),)), card=59.0) is None  # two cards 32 mm apart: no step
    True
    >>> shingled_count(LineLength(218.3, ((26.0, 0.21),)), card=59.0)  # a pale back's seven cards, weak edges
    7
    >>> shingled_count(LineLength(114.9, ((8.4, 0.16), (19.6, 0.18), (27.9, 0.29))), card=59.0)  # two whole steps
    3
    >>> shingled_count(LineLength(106.0, ((7.9, 0.15), (29.2, 0.22))), card=59.0) is None  # 3 cards, a pattern
    True

    Likewise a candidate near twice the chosen step (:data:`DOUBLE_STEP_FIT`, :data:`DOUBLE_STEP_STRENGTH`) is
    the cards' own step where it measures the line to a whole number of steps and the boxes count no more cards
    than it: each card's two edges repeat at half its step (seed 117001, four players: three red-red leftovers
    35 mm apart, boxed on a lattice of three, repeating at 17.3 mm at 0.44 and at 33.2 mm at 0.32, were counted
    five). Four cards 21 mm apart, one left unboxed, whose 39.6 mm repetition measures 1.6 steps, keep their
    step; three 21 mm apart repeating at twice that half as strongly keep theirs:

    >>> shingled_count(LineLength(129.0, ((17.3, 0.44), (33.2, 0.32)), seen=False), card=59.0, boxes=3)
    3
    >>> shingled_count(LineLength(122.2, ((19.9, 0.50), (39.6, 0.29))), card=59.0, boxes=3)
    4
    >>> shingled_count(LineLength(102.9, ((21.0, 0.32), (41.8, 0.16))), card=59.0, boxes=2)
    3
    """
    span = line.extent - card
    if span < -0.25 * card:
        return None
    fits = [
        (strength - SHINGLE_ROUNDING * abs(span / step - round(span / step)), round(span / step) + 1, step, strength)
        for step, strength in _without_pattern_harmonics(line.steps)
        if MIN_STEP_MM <= step <= MAX_STEP_MM and (most is None or round(span / step) + 1 <= most)
    ]
    if span < MIN_STEP_MM:
        return 1
    strong = [fit for fit in fits if fit[3] >= MIN_STEP_STRENGTH]
    if strong:
        _, count, step, strength = max(strong)
        halves = [
            n
            for _, n, half, repeat in fits
            if abs(half - step / 2) <= HALF_STEP_MATCH * step / 2 and repeat >= HALF_STEP_STRENGTH * strength
        ]
        if halves and boxes is not None and max(halves) <= boxes:
            return max(halves)
        doubles = [
            n
            for _, n, double, repeat in fits
            if abs(double - 2 * step) <= HALF_STEP_MATCH * 2 * step
            and repeat >= max(DOUBLE_STEP_STRENGTH * strength, MIN_STEP_STRENGTH)
            and abs(span / double - round(span / double)) <= DOUBLE_STEP_FIT
        ]
        if doubles and boxes is not None and boxes <= min(doubles) < count:
            return min(doubles)
        return max(1, count)
    if fits and line.seen:
        # a weak step still counts a long line that it measures to a whole number of steps (see WEAK_STEP_FIT)
        _, count, step, _ = max(fits)
        off = abs(span / step - round(span / step))
        if step >= WEAK_STEP_MM and (
            (off <= WEAK_STEP_FIT and count >= WEAK_STEP_CARDS) or (off <= SHORT_STEP_FIT and count == SHORT_CARDS)
        ):
            return count
    return None


LONE_BOX_AGREEMENT_MM = 8.0
"""The line's extent measured with the table's colours taken at two distances beyond its box must agree within
this: on a cloth of white dots (seed 101006, four players) a lone red-red card's white rim ran on into the dots
next to it, 79 mm measured one way and 56 mm the other; the two-card lines above measured within 1.4 mm."""


def fewest_to_cover(line: LineLength, card: float) -> int:
    """The fewest cards that run as far as ``line`` does, each partly over the last: a line steps at most
    :data:`MAX_STEP_MM` from card to card, and a run up to :data:`MIN_STEP_MM` past a card shows no card's back
    (a rim, a shadow). So a line the picture shows running farther than its boxes can reach holds more cards than
    were boxed: the strip of a card under another went unboxed, or two strips were boxed as one. Four-player
    rounds (seeds 104001, 104006, 103014 with drawn sets): four lines of two cards, each boxed once, measured
    22-28 mm beyond their card; 62 rendered rounds of 2-8 players re-counted offline from their replays' last
    pictures (a development script): leftovers exact 171 -> 183 of 266 players (cards miscounted 281 -> 264),
    none made worse.

    >>> [fewest_to_cover(LineLength(59.0 + span, ()), card=59.0) for span in (4.0, 27.0, 49.0, 54.0, 120.0)]
    [1, 2, 2, 3, 4]
    """
    return math.ceil(max(0.0, line.extent - card - MIN_STEP_MM) / MAX_STEP_MM) + 1


LINE_STEP_LEAST_MM = 15.0
"""The least step a leftover line's cards are counted at where the picture bounds the line: well under the least of
:data:`LINE_STEPS_MM`, a line's extent being measured up to 8 mm short (seed 121002, four players, held out: three
red-red leftovers laid at 21 mm or more measured 94 mm, 17.5 mm a step). A count that would put its cards closer
is a card boxed twice (its strip and its whole outline) or two boxes on one strip, and the line holds the fewer
cards its extent has room for (see :func:`most_to_fit`)."""


def most_to_fit(line: LineLength, card: float) -> int:
    """The most cards a line laid each partly over the last holds in its extent, at least
    :data:`LINE_STEP_LEAST_MM` apart (one where it is no longer than a card). Seeds 119005 (two players) and
    120004 (four players): two leftovers 87 and 86 mm long, the picture bounding each, boxed three times, were
    counted three: a third card would lie 14 mm from the next.

    >>> [most_to_fit(LineLength(extent, ()), card=59.0) for extent in (50.0, 60.0, 86.4, 94.1, 123.4)]
    [1, 1, 2, 3, 5]
    """
    return int(max(0.0, line.extent - card) / LINE_STEP_LEAST_MM) + 1


def lone_box_count(line: LineLength, card: float, again: LineLength | None = None) -> int:
    """The cards of a line that the detector boxed as one card, from its extent measured in the picture along the
    line (``card``: one card's extent along it; ``again``: the line measured once more with the table's colours
    taken farther out, see :data:`LONE_BOX_AGREEMENT_MM`): by its step where its edges repeat strongly, as
    :func:`shingled_count`, up to three; else the fewest cards that run as far where the picture bounds the
    line (:func:`fewest_to_cover`); else the one box.

    >>> lone_box_count(LineLength(81.2, ()), card=59.0)  # a strip 22 mm wide showing under the card
    2
    >>> lone_box_count(LineLength(60.5, ()), card=59.0)
    1
    >>> lone_box_count(LineLength(81.2, (), seen=False), card=59.0)  # its own colours' run: not to a strip
    1
    >>> lone_box_count(LineLength(79.2, ()), card=59.0, again=LineLength(56.4, ()))  # the table misread near it
    1
    """
    if again is not None and abs(again.extent - line.extent) > LONE_BOX_AGREEMENT_MM:
        return 1
    counted = shingled_count(line, card, most=LIGRETTO_PILE_SIZE)
    if counted is not None and counted <= 3:
        return counted
    return fewest_to_cover(line, card) if line.seen else 1


FAN_STEP_MATCH = 0.08
"""How near (as a share) a count's own step must come to a step the fan's edges repeat at (or to half one: every
second edge may be the stronger) for the picture to vouch for that count."""


def measured_fan_counts(lines: Sequence[LineLength], cards: Sequence[float], total: int) -> list[int] | None:
    """Each fan's cards from its extent in the picture, adding up to ``total`` (the stacks' heights).

    Tight fans' edges repeat at the step and at twice it about as strongly, so a fan's own autocorrelation is no
    count; and each fan is laid at its own step, so one step shared by all miscounts them by a card here and
    there. So: the step shared by all (``sum(extent - card) / (total - fans)``) gives each fan's count to within a
    card; then, of the counts a card either side, those whose own step ``(extent - card) / (n - 1)`` the fan's
    edges repeat at most strongly (:data:`FAN_STEP_MATCH`) and that add up to ``total`` are chosen together.
    None when the shared step lies outside :data:`MIN_STEP_MM`..:data:`MAX_STEP_MM` or no choice adds up.

    On the truth's outlines in the last frame of the eight rounds of seeds 100300-100306 (2, 4 and 8 players)
    whose centre was handed back sorted (a development script, ``out/dev/fanproto2.py``): 32 of 40 fans right,
    5 of the 8 rounds wholly; one shared step alone 18 of 40; each fan's strongest step alone 20 of 40.

    >>> fans = [LineLength(59 + 16 * 8.6, ((8.6, 0.6), (17.2, 0.65))), LineLength(59 + 11 * 10.4, ((10.4, 0.7),))]
    >>> measured_fan_counts(fans, [59.0, 59.0], total=29)   # one shared step (9.3 mm) would say 16 and 13
    [17, 12]
    >>> measured_fan_counts(fans, [59.0, 59.0], total=60) is None   # a 4.3 mm step: not these fans
    True
    """
    chosen = _chosen_counts(lines, cards, total)
    return None if chosen is None else chosen[0]


def measured_with_one_cut_off(
    lines: Sequence[LineLength], cards: Sequence[float], total: int, seen: int
) -> tuple[list[int], int] | None:
    """The counts of fans the picture measures (as :func:`measured_fan_counts`) and the cards of one more fan
    that its edge cuts off, together ``total``: of every count the cut-off fan may hold, the one whose remainder
    the measured fans' edges repeat at most strongly (the shared step then matches their own). The measured fans
    hold at least the ``seen`` cards seen one by one in them (a step twice theirs, which their edges also repeat
    at, would count half as many). None when no count fits.

    >>> fans = [LineLength(59 + 9 * 13.0, ((13.0, 0.7), (26.0, 0.6))), LineLength(59 + 5 * 12.8, ((12.8, 0.6),))]
    >>> measured_with_one_cut_off(fans, [59.0, 59.0], total=23, seen=12)  # 10 and 6 cards, 7 cut off
    ([10, 6], 7)
    """
    best: tuple[float, list[int], int] | None = None
    for cut in range(1, min(CARDS_PER_SET, total - seen) + 1):
        chosen = _chosen_counts(lines, cards, total - cut)
        if chosen is not None and (best is None or chosen[1] > best[0]):
            best = (chosen[1], chosen[0], cut)
    return None if best is None else (best[1], best[2])


def _chosen_counts(lines: Sequence[LineLength], cards: Sequence[float], total: int) -> tuple[list[int], float] | None:
    """:func:`measured_fan_counts` with the picture's support for the counts chosen (the sum of each fan's
    strength of repeat at its own step)."""
    k = len(lines)
    if k == 0 or total < k:
        return None
    spans = [max(0.0, line.extent - card) for line, card in zip(lines, cards, strict=True)]
    if total == k:
        return ([1] * k, float(k)) if all(span < MIN_STEP_MM for span in spans) else None
    step = sum(spans) / (total - k)
    if not MIN_STEP_MM <= step <= MAX_STEP_MM:
        return None
    best: dict[int, tuple[float, list[int]]] = {0: (0.0, [])}  # cards so far -> (the picture's support, counts)
    for line, span in zip(lines, spans, strict=True):
        near = round(span / step) + 1
        options = {n: _support(line, span, n) for n in (near - 1, near, near + 1) if n >= 1}
        following: dict[int, tuple[float, list[int]]] = {}
        for so_far, (support, counts) in best.items():
            for n, more in options.items():
                if so_far + n <= total and (so_far + n not in following or following[so_far + n][0] < support + more):
                    following[so_far + n] = (support + more, [*counts, n])
        best = following
    return (best[total][1], best[total][0]) if total in best else None


def _support(line: LineLength, span: float, n: int) -> float:
    """How strongly the fan's edges repeat at the step ``n`` cards would be laid at (or at twice it)."""
    if n == 1:
        return 1.0 if span < MIN_STEP_MM else -math.inf
    own = span / (n - 1)
    return max(
        (
            strength * max(0.0, 1 - abs(step / (own * octave) - 1) / FAN_STEP_MATCH)
            for step, strength in line.steps
            for octave in (1, 2)
        ),
        default=0.0,
    )


def _without_pattern_harmonics(steps: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """``steps`` (mm, strength) less those a back's fine printed pattern explains: a pattern repeating every few
    millimetres repeats at its multiples too, as strongly, where a line's weak edges would repeat once or twice
    (seed 112000, two players: red-red's three leftovers, 129 mm, 35 mm apart, the back's stripes repeating at 6.7
    mm (0.32), 19.5 mm (0.31) and 25.9 mm (0.29): counted 5 by the 19.5 mm). Of 91 rounds pickled at the score
    (seeds 112000-116006, 2-8 players), that line alone changed (3, right).

    >>> _without_pattern_harmonics([(6.7, 0.32), (19.5, 0.31), (25.9, 0.29)])
    [(6.7, 0.32)]
    >>> _without_pattern_harmonics([(6.7, 0.2), (19.5, 0.31), (33.0, 0.6)])  # edges stronger than the pattern
    [(6.7, 0.2), (19.5, 0.31), (33.0, 0.6)]
    """
    fine = [(f, strength) for f, strength in steps if MIN_STEP_MM <= f < WEAK_STEP_MM]

    def harmonic(step: float, strength: float) -> bool:
        return step >= WEAK_STEP_MM and any(
            round(step / f) >= 2 and abs(step / f - round(step / f)) <= PATTERN_HARMONIC and repeat >= strength
            for f, repeat in fine
        )

    return [(step, strength) for step, strength in steps if not harmonic(step, strength)]


def line_count(points: Sequence[Point]) -> int:
    """The cards of a line laid each card about half over the last, from its length: ``span / step + 1``. The
    step is the longest within :data:`LINE_STEPS_MM` on whose lattice the spots sit about as well as on the best
    (:data:`LINE_STEP_SHARE`). A detector
    boxes a shingled card twice, or across two strips, 10-15 mm from the card; those extra spots, and a card
    missed inside the line, change the number of spots but not the line's length (rendered round at seed 99201:
    9 spots on a line of 7). Fewer than three spots, or spots on no lattice, are counted as seen.

    >>> line_count([(x, 0.0) for x in (0.0, 28.0, 56.0, 84.0)])
    4
    >>> line_count([(x, 5.0) for x in (0.0, 10.0, 28.0, 56.0, 66.0, 84.0, 112.0, 122.0, 140.0, 168.0)])
    7
    >>> line_count([(0.0, 0.0), (20.0, 20.0), (40.0, 40.0), (80.0, 80.0)])  # a card missed inside the line
    5
    >>> line_count([(728.0, 10.0), (726.0, -15.0), (726.0, -40.0), (729.0, 22.0), (727.0, -55.0)])  # 4 cards (99901)
    4
    """
    n = len(points)
    if n < 3:
        return n
    mx, my = sum(p[0] for p in points) / n, sum(p[1] for p in points) / n
    angle = run_direction(points)
    along = sorted((p[0] - mx) * math.cos(angle) + (p[1] - my) * math.sin(angle) for p in points)
    low, high = LINE_STEPS_MM
    fits = []
    for k in range(int((high - low) * 4) + 1):
        s = low + k / 4
        c = sum(math.cos(2 * math.pi * a / s) for a in along)
        d = sum(math.sin(2 * math.pi * a / s) for a in along)
        fits.append((math.hypot(c, d) / n, s))
    best = max(coherence for coherence, _ in fits)
    if best < LINE_COHERENCE:
        return n
    step = max(s for coherence, s in fits if coherence >= LINE_STEP_SHARE * best)
    return max(1, round((along[-1] - along[0]) / step) + 1)

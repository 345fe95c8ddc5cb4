"""Scoring the referee against the ground truth of a simulated round (the figures of ``ligretto eval-referee``).

- Plays (``stack_started`` + ``card_played``): a referee play is right when it has the card of a true play,
  lies within ``window_s`` of when that card came down, and is on the referee's stack that corresponds to the
  true stack (stacks are numbered independently; the correspondence is the one most plays agree on).
- Illegal plays: the same card within ``window_s``; the latency is when the referee *said* it (the frame it was
  reading) minus when the card came down, and a flag counts as in time within ``window_s``.
- Illegal plays in view: the true illegal plays whose card lay in view (at least half of it showing in
  ``MIN_VIEW_FRAMES`` frames) between landing and being taken back; a card slapped down and taken back under
  the same hand can be seen by no camera, and the figure says how many of the others were caught.
- Conflicts: a referee conflict of the same card within ``window_s`` of a true one.
- End of round: per back, the centre count and the score both exact.

>>> from referee.cards import Card
>>> from referee.events import CardPlayed, StackStarted
>>> truth = [StackStarted(t=1.0, stack=1, card=Card.parse("r1")), CardPlayed(t=2.0, stack=1, card=Card.parse("r2"))]
>>> said = [(StackStarted(t=1.1, stack=7, card=Card.parse("r1")), 1.3),
...         (CardPlayed(t=2.2, stack=7, card=Card.parse("r2")), 2.4)]
>>> m = score_round(truth, said)
>>> m.plays.recall, m.plays.precision
(1.0, 1.0)
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    RoundScored,
    StackStarted,
    withdrawn_rulings,
)

WINDOW_S = 0.5
MIN_VIEW_SHARE = 0.5
MIN_VIEW_FRAMES = 3
"""A card is in view in a frame when this share of it shows, and a landed card was in view when it was in this
many frames (a tenth of a second at 30 fps): what a reader needs to see it at all."""
LabelledCard = tuple[Card, "str | None", float]
"""A face in a frame's ground truth: the card, its owner's back, the share of it that shows."""
Said = tuple[Event, float]
"""A referee event and the video time at which the referee said it."""


@dataclass(frozen=True)
class Tally:
    truth: int
    said: int
    right: int

    @property
    def recall(self) -> float:
        return self.right / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.right / self.said if self.said else 1.0


@dataclass(frozen=True)
class RoundMetrics:
    plays: Tally
    illegal: Tally
    conflicts: Tally
    latencies: tuple[float, ...] = ()
    players: int = 0
    players_exact: int = 0
    centre_exact: int = 0
    """Players whose centre count alone is exact (the leftovers aside)."""
    scored: bool = False
    illegal_in_view: Tally | None = None
    """The illegal plays whose card was in view (see :func:`illegal_in_view`); None when not measured."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def in_time(self) -> int:
        return sum(1 for x in self.latencies if x <= WINDOW_S + 1e-9)

    def row(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        return {
            **self.extra,
            "plays_truth": self.plays.truth,
            "plays_said": self.plays.said,
            "plays_right": self.plays.right,
            "illegal_truth": self.illegal.truth,
            "illegal_said": self.illegal.said,
            "illegal_right": self.illegal.right,
            "illegal_in_time": self.in_time,
            "illegal_in_view_truth": "" if self.illegal_in_view is None else self.illegal_in_view.truth,
            "illegal_in_view_right": "" if self.illegal_in_view is None else self.illegal_in_view.right,
            "illegal_latency_median_s": round(statistics.median(lat), 3) if lat else "",
            "illegal_latency_max_s": round(lat[-1], 3) if lat else "",
            "conflicts_truth": self.conflicts.truth,
            "conflicts_said": self.conflicts.said,
            "conflicts_right": self.conflicts.right,
            "scored": int(self.scored),
            "players": self.players,
            "players_exact": self.players_exact,
            "players_centre_exact": self.centre_exact,
        }


def _plays(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, StackStarted | CardPlayed)]


def _pairs(
    truth: Sequence[Event],
    said: Sequence[Event],
    window: float,
    mapping: dict[int | None, int | None] | None = None,
) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs of events with the same card within ``window``: first those on corresponding
    stacks (when a ``mapping`` of stacks is known: two players' copies of a card may land on two stacks at
    once), then nearest in time. A true stack the mapping left out corresponds to every said stack it left out,
    not to one another true stack's (the sample's two y1 stacks, started 0.09 s apart, each said 0.1 s late: the
    one that got no more cards took the other's said y1 by time, and both counted wrong)."""
    mapping = mapping or {}
    taken = set(mapping.values())

    def corresponding(true: int | None, said: int | None) -> bool:
        return mapping[true] == said if true in mapping else said not in taken

    candidates = sorted(
        (0 if corresponding(t.stack, s.stack) else 1, abs(s.t - t.t), i, j)
        for i, t in enumerate(truth)
        for j, s in enumerate(said)
        if t.card == s.card and abs(s.t - t.t) <= window
    )
    used_t: set[int] = set()
    used_s: set[int] = set()
    pairs = []
    for _, _, i, j in candidates:
        if i not in used_t and j not in used_s:
            used_t.add(i)
            used_s.add(j)
            pairs.append((i, j))
    return pairs


def score_plays(truth: Sequence[Event], said: Sequence[Event], window: float = WINDOW_S) -> Tally:
    true_plays, said_plays, right = _right_plays(truth, said, window)
    return Tally(len(true_plays), len(said_plays), len(right))


def _right_plays(
    truth: Sequence[Event], said: Sequence[Event], window: float
) -> tuple[list[Event], list[Event], list[tuple[int, int]]]:
    """The true and said plays, and the pairs of them that are right (on corresponding stacks)."""
    true_plays, said_plays = _plays(truth), _plays(said)
    mapping: dict[int | None, int | None] = {}
    for _ in range(2):  # pair, read off which stacks correspond, pair again preferring corresponding stacks
        pairs = _pairs(true_plays, said_plays, window, mapping)
        votes: dict[tuple[int | None, int | None], float] = {}
        for (i, j), weight in zip(pairs, _place_votes(true_plays, said_plays, pairs), strict=True):
            key = (true_plays[i].stack, said_plays[j].stack)
            votes[key] = votes.get(key, 0.0) + weight
        mapping = _stack_mapping(votes)
    right = [(i, j) for i, j in pairs if mapping.get(true_plays[i].stack) == said_plays[j].stack]
    return true_plays, said_plays, right


PLACE_MM = 60.0
"""A said card lies where its true card landed when within this, once the referee's table frame is fitted onto the
truth's: fitted (:func:`_place_votes`) on 21 rounds of 2/4/8 players, the plays paired right lay a median 6 mm,
at most 28 mm, from where the fit puts them; two stacks started with one card at once lay 400-500 mm apart."""
MIN_FIT = 6
"""Pairs with both places known needed to fit one frame onto the other (an affine map has six unknowns)."""


def _place_votes(true_plays: Sequence[Event], said_plays: Sequence[Event], pairs: list[tuple[int, int]]) -> list[float]:
    """Each pair's vote for its two stacks' correspondence: 0 where the two cards lie apart once the referee's
    table frame is fitted onto the truth's (an affine map, least squares over the pairs, refitted without the
    farthest while it lies beyond :data:`PLACE_MM`), else 1. Two players' copies of one card starting two stacks
    at once are paired by time, which may cross them (seed 112003, eight players: r1s 0.03 s and 500 mm apart,
    said 0.07 s and 0.003 s late: the stack that grew was counted on the other's); where they lie tells them
    apart. Pairs whose places are unknown (a play inferred unseen) keep their vote, as do all where too few places
    fit a map.

    >>> from referee.cards import Card
    >>> from referee.events import Placement
    >>> spots = [(-300.0, -200.0), (0.0, -250.0), (250.0, -100.0), (300.0, 150.0), (0.0, 250.0), (-250.0, 100.0)]
    >>> r2 = Card.parse("r2")
    >>> truth = [CardPlayed(t=1.0, stack=k, card=r2, placement=Placement(x, y)) for k, (x, y) in enumerate(spots)]
    >>> said = [CardPlayed(t=1.0, stack=k, card=r2, placement=Placement(-y, x)) for k, (x, y) in enumerate(spots)]
    >>> _place_votes(truth, said, [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (0, 3)])
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    """
    import numpy as np

    votes = [1.0] * len(pairs)
    places = [(getattr(true_plays[i], "placement", None), getattr(said_plays[j], "placement", None)) for i, j in pairs]
    known = [(k, t, s) for k, (t, s) in enumerate(places) if t is not None and s is not None]
    if len(known) < MIN_FIT:
        return votes
    src = np.array([[t.x, t.y, 1.0] for _, t, _ in known])
    dst = np.array([[s.x, s.y] for _, _, s in known])
    keep = np.ones(len(known), dtype=bool)
    while True:  # leave out the farthest pair, one at a time: a crossed pair drags a least-squares fit its way
        fit, *_ = np.linalg.lstsq(src[keep], dst[keep], rcond=None)
        off = np.linalg.norm(src @ fit - dst, axis=1)
        worst = int(np.argmax(np.where(keep, off, -1.0)))
        if off[worst] <= PLACE_MM or keep.sum() <= MIN_FIT:
            break
        keep[worst] = False
    for (k, _, _), mm in zip(known, off, strict=True):
        if mm > PLACE_MM:
            votes[k] = 0.0
    return votes


def _stack_mapping(votes: Mapping[tuple[int | None, int | None], float]) -> dict[int | None, int | None]:
    """One referee stack per true stack, the pairs most plays agree on first (two stacks started with copies
    of one card at once must not both map to the same referee stack).

    >>> _stack_mapping({(1, 1): 7, (2, 1): 1, (2, 2): 1})
    {1: 1, 2: 2}
    """
    mapping: dict[int | None, int | None] = {}
    taken: set[int | None] = set()
    for (truth, said), _ in sorted(votes.items(), key=lambda item: (-item[1], str(item[0]))):
        if truth not in mapping and said not in taken:
            mapping[truth] = said
            taken.add(said)
    return mapping


def score_round(
    truth: Sequence[Event],
    said: Sequence[Said],
    *,
    window: float = WINDOW_S,
    extra: dict[str, Any] | None = None,
    in_view: Sequence[bool] | None = None,
) -> RoundMetrics:
    """Every figure for one round; ``said`` pairs each referee event with the video time it was said;
    ``in_view``: per true illegal play (in order), whether its card was in view (:func:`illegal_in_view`)."""
    events = [e for e, _ in said]
    plays = score_plays(truth, events, window)
    true_illegal, standing, pairs = _illegal(truth, events, window)
    said_illegal = [said[k] for k in standing]
    latencies = tuple(said_illegal[j][1] - true_illegal[i].t for i, j in pairs)
    true_conflicts, said_conflicts, conflict_pairs = _conflicts(truth, events, window)
    players, exact, centre_exact, scored = _end_of_round(truth, events)
    seen = None
    if in_view is not None:
        caught = {i for i, _ in pairs}
        seen = Tally(sum(in_view), len(said_illegal), sum(1 for i, v in enumerate(in_view) if v and i in caught))
    return RoundMetrics(
        plays=plays,
        illegal=Tally(len(true_illegal), len(said_illegal), len(pairs)),
        conflicts=Tally(len(true_conflicts), len(said_conflicts), len(conflict_pairs)),
        latencies=latencies,
        players=players,
        players_exact=exact,
        centre_exact=centre_exact,
        scored=scored,
        illegal_in_view=seen,
        extra=dict(extra or {}),
    )


@dataclass(frozen=True)
class Miss:
    """One thing the referee got wrong in a round: a true event it ``missed``, one it said that is ``false``, an
    illegal play it said ``late``, or a player's count it got ``wrong`` (``kind``: ``play``, ``illegal``,
    ``conflict`` or ``count``)."""

    kind: str
    side: str
    t: float
    card: str | None = None
    stack: int | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "side": self.side, "t": round(self.t, 3)}
        data.update({k: v for k, v in (("card", self.card), ("stack", self.stack), ("detail", self.detail)) if v})
        return data


def round_misses(
    truth: Sequence[Event], said: Sequence[Said], *, window: float = WINDOW_S, in_view: Sequence[bool] | None = None
) -> list[Miss]:
    """Everything the figures of :func:`score_round` count against the referee, one :class:`Miss` each, in time
    order: where to look first when a figure falls short. ``said`` pairs each referee event with the video time it
    was said, as for :func:`score_round`: an illegal play caught but said more than ``window`` after its card
    came down is ``late`` (the figure "within 0.5 s" leaves it out).

    >>> truth = [StackStarted(t=1.0, stack=1, card=Card.parse("r1")), CardPlayed(t=2.0, stack=1, card=Card.parse("r2")),
    ...          IllegalPlay(t=3.0, stack=1, card=Card.parse("r7"), reason="wrong_number"),
    ...          IllegalPlay(t=5.0, stack=1, card=Card.parse("r9"), reason="wrong_number")]
    >>> said = [(StackStarted(t=1.1, stack=4, card=Card.parse("r1")), 1.2),
    ...         (CardPlayed(t=2.9, stack=4, card=Card.parse("r2")), 3.0),
    ...         (IllegalPlay(t=5.1, stack=4, card=Card.parse("r9"), reason="wrong_number"), 5.8)]
    >>> for miss in round_misses(truth, said, in_view=[False, True]):
    ...     print(miss.kind, miss.side, miss.card, miss.detail or "-")
    play missed r2 -
    play false r2 -
    illegal missed r7 wrong_number, never in view
    illegal late r9 wrong_number, said 0.80 s after it came down
    """
    events = [e for e, _ in said]
    true_plays, said_plays, right = _right_plays(truth, events, window)
    misses = _unpaired("play", true_plays, said_plays, right)
    true_illegal, standing, pairs = _illegal(truth, events, window)
    misses += _unpaired("illegal", true_illegal, [events[k] for k in standing], pairs, in_view)
    misses += _late(true_illegal, [said[k] for k in standing], pairs, window)
    misses += _unpaired("conflict", *_conflicts(truth, events, window))
    return sorted([*misses, *_count_misses(truth, events)], key=lambda m: m.t)


def _late(truth: Sequence[Event], said: Sequence[Said], pairs: Iterable[tuple[int, int]], window: float) -> list[Miss]:
    """The true events of ``pairs`` said more than ``window`` after they happened."""
    late = []
    for i, j in pairs:
        event, delay = truth[i], said[j][1] - truth[i].t
        if delay > window + 1e-9:
            words = [getattr(event, "reason", ""), f"said {delay:.2f} s after it came down"]
            late.append(
                Miss(
                    "illegal",
                    "late",
                    event.t,
                    str(event.card) if event.card else None,
                    event.stack,
                    ", ".join(w for w in words if w),
                )
            )
    return late


def _illegal(
    truth: Sequence[Event], said: Sequence[Event], window: float
) -> tuple[list[Event], list[int], list[tuple[int, int]]]:
    """The true illegal plays, which of ``said`` are illegal plays the referee stands by (by index), and their pairs
    (indices into those two lists). An illegal play the referee withdrew (its card shown played legally after all)
    is not one it stands by."""
    true_illegal: list[Event] = [e for e in truth if isinstance(e, IllegalPlay)]
    withdrawn = withdrawn_rulings(said)
    standing = [k for k, e in enumerate(said) if isinstance(e, IllegalPlay) and not withdrawn(e)]
    return true_illegal, standing, _pairs(true_illegal, [said[k] for k in standing], window)


def _conflicts(
    truth: Sequence[Event], said: Sequence[Event], window: float
) -> tuple[list[Event], list[Event], list[tuple[int, int]]]:
    """The true and said conflicts and their pairs: a conflict is told by the loser's lift, so within twice the
    plays' window."""
    true_conflicts: list[Event] = [e for e in truth if isinstance(e, Conflict)]
    said_conflicts: list[Event] = [e for e in said if isinstance(e, Conflict)]
    return true_conflicts, said_conflicts, _pairs(true_conflicts, said_conflicts, 2 * window)


def _unpaired(
    kind: str,
    truth: Sequence[Event],
    said: Sequence[Event],
    pairs: Iterable[tuple[int, int]],
    in_view: Sequence[bool] | None = None,
) -> list[Miss]:
    paired = list(pairs)
    found, right = {i for i, _ in paired}, {j for _, j in paired}

    def detail(event: Event, seen: bool = True) -> str:
        words = [getattr(event, "reason", "")] + ([] if seen else ["never in view"])
        return ", ".join(w for w in words if w)

    missed = [
        Miss(kind, "missed", e.t, str(e.card) if e.card else None, e.stack, detail(e, in_view[i] if in_view else True))
        for i, e in enumerate(truth)
        if i not in found
    ]
    false = [
        Miss(kind, "false", e.t, str(e.card) if e.card else None, e.stack, detail(e))
        for j, e in enumerate(said)
        if j not in right
    ]
    return missed + false


def _count_misses(truth: Sequence[Event], said: Sequence[Event]) -> list[Miss]:
    """The players whose centre count or score the referee got wrong (every player, if it scored no round)."""
    true_score = _last_scored(truth)
    said_score = _last_scored(said)
    if true_score is None:
        return []
    if said_score is None:
        return [Miss("count", "wrong", true_score.t, detail=f"{back}: no round scored") for back in true_score.scores]
    misses = []
    for back in true_score.scores:
        centre = (true_score.centre.get(back, 0), said_score.centre.get(back, 0))
        left = (true_score.leftover.get(back, 0), said_score.leftover.get(back))
        if centre[0] != centre[1] or true_score.scores.get(back) != said_score.scores.get(back):
            detail = f"{back}: centre {centre[0]} said {centre[1]}, leftover {left[0]} said {left[1]}"
            misses.append(Miss("count", "wrong", said_score.t, detail=detail))
    return misses


def _last_scored(events: Sequence[Event]) -> RoundScored | None:
    return next((e for e in reversed(events) if isinstance(e, RoundScored)), None)


def _end_of_round(truth: Sequence[Event], said: Sequence[Event]) -> tuple[int, int, int, bool]:
    """Players, players with centre count and score exact, players with the centre count exact, scored."""
    true_score, said_score = _last_scored(truth), _last_scored(said)
    if true_score is None:
        return 0, 0, 0, said_score is not None
    backs = list(true_score.scores)
    if said_score is None:
        return len(backs), 0, 0, False
    centre = [b for b in backs if said_score.centre.get(b, 0) == true_score.centre.get(b, 0)]
    exact = sum(1 for b in centre if said_score.scores.get(b) == true_score.scores.get(b))
    return len(backs), exact, len(centre), True


def illegal_in_view(
    truth: Sequence[Event],
    frames: Iterable[tuple[float, Sequence[LabelledCard]]],
    *,
    min_share: float = MIN_VIEW_SHARE,
    min_frames: int = MIN_VIEW_FRAMES,
) -> tuple[bool, ...]:
    """Per true illegal play (in order), whether its card was in view between landing and being taken back (by
    its owner: the same card of the same back), from the video's ground-truth ``frames`` (time, faces).

    >>> from referee.events import CardTakenBack, IllegalPlay
    >>> g3 = Card.parse("g3")
    >>> truth = [IllegalPlay(t=1.0, stack=1, card=g3, back="a"), CardTakenBack(t=1.2, stack=1, card=g3, back="a"),
    ...          IllegalPlay(t=2.0, stack=1, card=g3, back="a")]
    >>> frames = [(1.0 + k / 30, [(g3, "a", 0.2)]) for k in range(6)]
    >>> frames += [(2.0 + k / 30, [(g3, "a", 0.9)]) for k in range(6)]
    >>> illegal_in_view(truth, frames)
    (False, True)
    """
    plays = [e for e in truth if isinstance(e, IllegalPlay)]
    ends = []
    for play in plays:
        back = next(
            (
                e.t
                for e in truth
                if isinstance(e, CardTakenBack) and e.t >= play.t and e.card == play.card and e.back == play.back
            ),
            float("inf"),
        )
        ends.append(back)
    counts = [0] * len(plays)
    for t, cards in frames:
        for k, play in enumerate(plays):
            if play.t <= t <= ends[k] and any(
                card == play.card and owner == play.back and share >= min_share for card, owner, share in cards
            ):
                counts[k] += 1
    return tuple(n >= min_frames for n in counts)


@dataclass(frozen=True)
class Totals:
    """Figures over many rounds (sums of the tallies, so big rounds weigh more)."""

    rounds: Sequence[RoundMetrics]

    def _sum(self, name: str) -> Tally:
        tallies = [getattr(r, name) for r in self.rounds]
        return Tally(sum(t.truth for t in tallies), sum(t.said for t in tallies), sum(t.right for t in tallies))

    @property
    def plays(self) -> Tally:
        return self._sum("plays")

    @property
    def illegal(self) -> Tally:
        return self._sum("illegal")

    @property
    def conflicts(self) -> Tally:
        return self._sum("conflicts")

    @property
    def illegal_in_view(self) -> Tally | None:
        tallies = [r.illegal_in_view for r in self.rounds]
        if not tallies or any(t is None for t in tallies):
            return None
        return Tally(*(sum(getattr(t, name) for t in tallies if t) for name in ("truth", "said", "right")))

    @property
    def latencies(self) -> list[float]:
        return sorted(x for r in self.rounds for x in r.latencies)

    @property
    def players(self) -> tuple[int, int]:
        return sum(r.players_exact for r in self.rounds), sum(r.players for r in self.rounds)

    @property
    def centre_exact(self) -> int:
        return sum(r.centre_exact for r in self.rounds)

    def lines(self) -> list[str]:
        plays, illegal, conflicts = self.plays, self.illegal, self.conflicts
        lat = self.latencies
        exact, players = self.players
        in_time = sum(1 for x in lat if x <= WINDOW_S + 1e-9)
        lat_text = (
            f"latency median {statistics.median(lat):.2f} s, max {lat[-1]:.2f} s, {in_time}/{len(lat)} within "
            f"{WINDOW_S} s"
            if lat
            else "no latencies"
        )
        return [
            f"plays recovered:  recall {plays.recall:7.2%}  precision {plays.precision:7.2%}  "
            f"({plays.right} right of {plays.truth} true, {plays.said} said)",
            f"illegal plays:    recall {illegal.recall:7.2%}  precision {illegal.precision:7.2%}  "
            f"({illegal.right} of {illegal.truth}, {illegal.said} said); {lat_text}",
            *self._in_view_lines(),
            f"conflicts:        recall {conflicts.recall:7.2%}  precision {conflicts.precision:7.2%}  "
            f"({conflicts.right} of {conflicts.truth}, {conflicts.said} said)",
            f"end of round:     {exact}/{players} players exact ({exact / players if players else 0:.1%}); "
            f"centre counts alone {self.centre_exact}/{players}; "
            f"{sum(r.scored for r in self.rounds)}/{len(self.rounds)} rounds scored",
        ]

    def _in_view_lines(self) -> list[str]:
        seen, illegal = self.illegal_in_view, self.illegal
        if seen is None:
            return []
        return [
            f"  in view:        recall {seen.recall:7.2%}  ({seen.right} of the {seen.truth} whose card showed "
            f">= {MIN_VIEW_SHARE:.0%} in >= {MIN_VIEW_FRAMES} frames before it was taken back; the other "
            f"{illegal.truth - seen.truth} never showed: under a hand the whole time, or out of the picture)"
        ]

"""The referee core against the simulator's ground truth, without pixels: how good are the tracker and judge?

A simulated round's physical trace (every card move, with where it comes to rest) is turned into the sightings a
camera would give (:class:`~referee.tracker.synthetic.ScriptedTable` with :class:`~referee.tracker.synthetic.Noise`
and a hand over each stack as a card lands), the live :class:`~referee.tracker.Referee` runs over them, and its
events are matched with the simulator's event log:

- a play (``stack_started``/``card_played``) is found when the referee reports the same card on the same stack
  within ``tolerance_s`` of the truth (stacks are matched by their first card, time and place);
- an illegal play, when the referee reports the same card with the same reason within ``tolerance_s``;
- a conflict, when the referee reports a conflict over the same card within ``tolerance_s``;
- the count, when the scored centre, leftover and score of a back equal the truth.

Run it (prints the figures; the seeds are the ones stated, nothing else varies)::

    python -m referee.tracker.simcheck --players 2 4 8 --rounds 7 --seed 9000 --mistakes 0.05

>>> score = check_round(("red-red", "blue-blue"), seed=5)
>>> score.plays.recall, score.plays.precision
(1.0, 1.0)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.backs import DEFAULT_BACKS
from referee.cards import CARD_HEIGHT_MM, Card
from referee.events import Conflict, Event, IllegalPlay, RoundScored
from referee.sightings import FrameSightings, Point, Sighting
from referee.simulator import MistakeRates, Round, SimSettings
from referee.simulator.result import RoundResult
from referee.simulator.trace import Move, Pickup
from referee.tracker.counting import Sorter
from referee.tracker.referee_session import Referee, RefereeSettings
from referee.tracker.synthetic import Noise, PlacedCard, ScriptedTable

PLAYS = ("stack_started", "card_played")
TAIL_S = 20.0
"""Seconds filmed after the simulator's last record: time for the spreads to be counted."""
SETTLE_S = 0.3
"""How long a picture lies still before the vision side's change clock calls it at rest (its default): the
filmed table says when each card's picture lay still and came to rest rearranged, as the change clock would."""

# ------------------------------------------------------------------------------------------ the table


@dataclass(frozen=True)
class _Seat:
    back: str
    x: float
    y: float
    angle: float

    def local(self, point: Point) -> Point:
        """The point in this seat's frame: u to the player's right, v towards the player."""
        dx, dy = point[0] - self.x, point[1] - self.y
        rad = math.radians(-self.angle)
        return dx * math.cos(rad) - dy * math.sin(rad), dx * math.sin(rad) + dy * math.cos(rad)


def _seats(result: RoundResult) -> list[_Seat]:
    return [_Seat(s["back"], *s["anchor"]) for s in result.layout["table"]["seats"]]


def circle(radius: float, corners: int = 48) -> tuple[Point, ...]:
    step = 2 * math.pi / corners
    return tuple((radius * math.cos(i * step), radius * math.sin(i * step)) for i in range(corners))


def seat_sorter(result: RoundResult) -> Sorter:
    """Sorts post-round cards by the simulator's table: beyond a player's places is their leftover spread,
    between their places and the centre (or in the centre zone) is the centre spread, the places are neither."""
    seats = _seats(result)
    centre_radius = float(result.layout["table"]["centre_radius"])

    def sort(sighting: Sighting, frame: FrameSightings) -> tuple[str, str | None] | None:
        x, y = sighting.centre
        if math.hypot(x, y) <= centre_radius:
            return ("centre", None) if sighting.kind == "back" else None
        seat = min(seats, key=lambda s: math.hypot(x - s.x, y - s.y))
        _, v = seat.local((x, y))
        if v > 0.6 * CARD_HEIGHT_MM:
            return ("leftover", seat.back)
        if v < -0.6 * CARD_HEIGHT_MM and sighting.kind == "back":
            return ("centre", None)
        return None

    return sort


def table_of(result: RoundResult, *, fps: float = 30.0, hands: bool = True, seed: int = 0) -> ScriptedTable:
    """The round as a scripted table: every card the referee looks at where the trace puts it, from when it
    comes to rest, and (``hands``) a hand over the spot for a moment as each card lands in the centre."""
    rng = random.Random(seed)
    table = ScriptedTable(fps, settle_s=SETTLE_S)
    table.zone = circle(float(result.layout["table"]["centre_radius"]))
    lying: dict[tuple[str, Card], PlacedCard] = {}
    for record in result.trace:
        if isinstance(record, Move) and _filmed(record):
            _move(table, lying, record)
            if hands and record.target.startswith("centre:"):
                p = record.placement
                table.hide(record.t_end - 0.05, record.t_end + rng.uniform(0.0, 0.25), (p.x, p.y), radius=45.0)
        elif isinstance(record, Pickup):
            for card in record.cards:
                placed = lying.get((record.back, card))
                if placed is not None:
                    table.take(record.t, placed)
    return table


def _filmed(move: Move) -> bool:
    """Moves into or out of the centre, and the spreads after the round: what the referee looks at. A
    player's own places (rows, piles, hands) lie outside the centre zone, where the tracker does not look,
    and only the post-round sorter would have to tell them from spreads."""
    places = (move.source, move.target)
    return any(p.startswith("centre:") or p in ("spread", "leftover") for p in places)


def _move(table: ScriptedTable, lying: dict[tuple[str, Card], PlacedCard], move: Move) -> None:
    key = (move.back, move.card)
    if key in lying:
        table.take(move.t, lying.pop(key))
    if not (move.target.startswith("centre:") or move.target in ("spread", "leftover")):
        return
    p = move.placement
    if move.face == "down":
        lying[key] = table.put_back(move.t_end, move.back, (p.x, p.y), p.angle)
    else:
        lying[key] = table.put(move.t_end, move.card, (p.x, p.y), p.angle)


# -------------------------------------------------------------------------------------------- scoring


@dataclass
class Tally:
    """Found / truth / reported counts of one kind of event, and what was missed or invented."""

    truth: int = 0
    reported: int = 0
    found: int = 0
    missed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return (self.reported - len(self.extra)) / self.reported if self.reported else 1.0

    def add(self, other: Tally) -> None:
        self.truth += other.truth
        self.reported += other.reported
        self.found += other.found
        self.missed += other.missed
        self.extra += other.extra


@dataclass
class Score:
    plays: Tally = field(default_factory=Tally)
    illegal: Tally = field(default_factory=Tally)
    conflicts: Tally = field(default_factory=Tally)
    players: int = 0
    players_exact: int = 0
    latencies: list[float] = field(default_factory=list)
    frames: int = 0
    referee_s: float = 0.0

    def add(self, other: Score) -> None:
        self.plays.add(other.plays)
        self.illegal.add(other.illegal)
        self.conflicts.add(other.conflicts)
        self.players += other.players
        self.players_exact += other.players_exact
        self.latencies += other.latencies
        self.frames += other.frames
        self.referee_s += other.referee_s


def _label(e: Event) -> str:
    return f"{e.type} {e.card} stack {e.stack} at {e.t:.2f}s"


def _match(
    truth: Sequence[Event], found: Sequence[Event], same: object, tolerance_s: float, stacks: dict[int, int] | None
) -> tuple[Tally, list[tuple[Event, Event]]]:
    tally = Tally(truth=len(truth), reported=len(found))
    free = list(found)
    pairs = []
    for want in truth:
        best = None
        for got in free:
            if got.card != want.card or abs(got.t - want.t) > tolerance_s or not same(want, got):  # type: ignore[operator]
                continue
            if stacks is not None and want.stack is not None and stacks.get(want.stack) != got.stack:
                continue
            if best is None or abs(got.t - want.t) < abs(best.t - want.t):
                best = got
        if best is None:
            tally.missed.append(_label(want))
        else:
            free.remove(best)
            pairs.append((want, best))
            tally.found += 1
    tally.extra = [_label(e) for e in free]
    return tally, pairs


def _stack_map(truth: Sequence[Event], found: Sequence[Event], tolerance_s: float) -> dict[int, int]:
    """Simulator stack id -> referee stack id, by the card that started each, when and where."""
    mapping: dict[int, int] = {}
    starts = [e for e in found if e.type == "stack_started"]
    for want in (e for e in truth if e.type == "stack_started"):
        near = [e for e in starts if e.card == want.card and abs(e.t - want.t) <= tolerance_s and _close(e, want)]
        if near and want.stack is not None:
            got = min(near, key=lambda e: abs(e.t - want.t))
            starts.remove(got)
            if got.stack is not None:
                mapping[want.stack] = got.stack
    return mapping


def _close(a: Event, b: Event, within_mm: float = 60.0) -> bool:
    """Same place on the table, when both events say where (two 1s of a colour may start stacks together)."""
    pa, pb = getattr(a, "placement", None), getattr(b, "placement", None)
    return pa is None or pb is None or math.hypot(pa.x - pb.x, pa.y - pb.y) <= within_mm


def score_events(truth: Sequence[Event], found: Sequence[Event], *, tolerance_s: float = 0.5) -> Score:
    """How the referee's events compare with the simulator's (see the module docstring)."""
    stacks = _stack_map(truth, found, tolerance_s)
    score = Score()
    plays = [e for e in truth if e.type in PLAYS], [e for e in found if e.type in PLAYS]
    score.plays, pairs = _match(*plays, lambda a, b: True, tolerance_s, stacks)
    score.latencies = [got.t - want.t for want, got in pairs]
    illegal = [e for e in truth if isinstance(e, IllegalPlay)], [e for e in found if isinstance(e, IllegalPlay)]
    score.illegal, _ = _match(*illegal, lambda a, b: a.reason == b.reason, tolerance_s, None)
    conflicts = [e for e in truth if isinstance(e, Conflict)], [e for e in found if isinstance(e, Conflict)]
    score.conflicts, _ = _match(*conflicts, lambda a, b: True, tolerance_s, None)
    want = next((e for e in truth if isinstance(e, RoundScored)), None)
    got = next((e for e in found if isinstance(e, RoundScored)), None)
    if want is not None:
        score.players = len(want.scores)
        for back, points in want.scores.items():
            exact = got is not None and got.scores.get(back) == points
            exact = exact and got is not None and got.centre.get(back, 0) == want.centre.get(back, 0)
            score.players_exact += int(
                exact and got is not None and got.leftover.get(back, 0) == want.leftover.get(back, 0)
            )
    return score


# ------------------------------------------------------------------------------------------------ runs


def simulate(backs: Sequence[str], seed: int, mistakes: float = 0.05) -> RoundResult:
    return Round(tuple(backs), seed=seed, settings=SimSettings(mistakes=MistakeRates.uniform(mistakes))).play()


def referee_for(result: RoundResult, table: ScriptedTable, noise: Noise) -> Referee:
    """Runs a referee over the filmed round, with the stop signal at the simulator's stop."""
    return timed_referee(result, table, noise)[0]


def timed_referee(result: RoundResult, table: ScriptedTable, noise: Noise) -> tuple[Referee, float]:
    """:func:`referee_for`, and the wall seconds spent in the referee alone (not filming)."""
    referee = Referee(RefereeSettings(sorter=seat_sorter(result)), backs=result.backs)
    stop = result.outcome.t
    end = max(record.t for record in result.trace) + TAIL_S
    spent = 0.0
    for frame in table.frames(end, noise):
        tick = time.perf_counter()
        if frame is not None and frame.t >= stop and not referee.centre.stopped:
            referee.stop(t=stop, frame=frame.frame)
        referee.update(frame)
        spent += time.perf_counter() - tick
    referee.finish()
    return referee, spent


def check_round(
    backs: Sequence[str], seed: int, *, mistakes: float = 0.05, noise: Noise | None = None, hands: bool = True
) -> Score:
    """Simulates one round, films it with ``noise`` (typical by default) and scores the referee."""
    result = simulate(backs, seed, mistakes)
    table = table_of(result, hands=hands, seed=seed)
    referee, seconds = timed_referee(result, table, noise if noise is not None else Noise.typical(seed))
    score = score_events(result.events, referee.events)
    score.frames, score.referee_s = referee.tracker.frame + 1, seconds
    return score


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.tracker.simcheck",
        description="Scores the tracker and judge on simulated rounds filmed as noisy sightings (no pixels).",
    )
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 8], help="player counts (default 2 4 8)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds per player count (default 7)")
    parser.add_argument("--seed", type=int, default=9000, help="first seed (default 9000)")
    parser.add_argument("--mistakes", type=float, default=0.05, help="injected mistake rate (default 0.05)")
    parser.add_argument("--clean", action="store_true", help="no sighting noise (default: typical noise)")
    parser.add_argument(
        "--noise",
        choices=("typical", "rough"),
        default="typical",
        help="typical: a good detector; rough: the shipped detector as it read the sample round (stacks flickering "
        "out, cards boxed twice, quarter-turned outlines, some cards persistently confused with a 10, readings "
        "reused on still frames; see Noise.rough)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss and extra")
    args = parser.parse_args(argv)
    total = Score()
    backs = [b.id for b in DEFAULT_BACKS]
    for players in args.players:
        for i in range(args.rounds):
            seed = args.seed + 100 * players + i
            noise = Noise() if args.clean else Noise.rough(seed) if args.noise == "rough" else Noise.typical(seed)
            score = check_round(backs[:players], seed, mistakes=args.mistakes, noise=noise)
            total.add(score)
            print(
                f"players {players} seed {seed}: plays {score.plays.found}/{score.plays.truth} "
                f"(+{len(score.plays.extra)}), illegal {score.illegal.found}/{score.illegal.truth} "
                f"(+{len(score.illegal.extra)}), conflicts {score.conflicts.found}/{score.conflicts.truth}, "
                f"players exact {score.players_exact}/{score.players}"
            )
            if args.verbose:
                for kind, tally in (("plays", score.plays), ("illegal", score.illegal), ("conflicts", score.conflicts)):
                    for miss in tally.missed:
                        print(f"    missed {kind}: {miss}")
                    for extra in tally.extra:
                        print(f"    extra {kind}: {extra}")
    _report(total)
    return 0


def _report(total: Score) -> None:
    late = sorted(abs(x) for x in total.latencies)
    p95 = late[int(0.95 * (len(late) - 1))] if late else 0.0
    for name, tally in (("plays", total.plays), ("illegal", total.illegal), ("conflicts", total.conflicts)):
        print(f"{name + ':':11}recall {tally.recall:.4f}  precision {tally.precision:.4f}  ({tally.truth} true)")
    print(f"players exact: {total.players_exact}/{total.players}; |event t - truth| p95 {p95:.3f} s")
    rate = total.frames / total.referee_s if total.referee_s else 0.0
    print(f"referee alone: {total.frames} frames in {total.referee_s:.1f} s wall, {rate:.0f} frames/s")


if __name__ == "__main__":
    sys.exit(main())

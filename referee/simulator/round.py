"""One round of Ligretto played by bots in continuous time: an event queue, not a clock that ticks.

Every bot is a small sequential agent: it thinks, acts (a card in flight to the centre, a refill, three
cards turned over), and thinks again. What happens next is the earliest entry of a heap. Two identical cards
hitting one stack within :data:`CONFLICT_WINDOW` seconds are a conflict, resolved by the rules; a card that
would land on a stack that changed since the bot looked is pulled back, as a player who sees it does.

The centre's ground truth lives in a :class:`~referee.simulator.board.Board`, each player's cards in their
:class:`~referee.simulator.places.Places`. The round ends through one funnel, :meth:`Round.outcome`: a
Ligretto pile is empty ("Ligretto stop"), or nobody can ever play again (deadlock: every player went
through their whole hand since the last change on the table, and no card anyone can still reach fits).

>>> result = Round(("red-red", "blue-blue"), seed=3).play()
>>> result.reason in ("ligretto_stop", "deadlock"), sum(result.centre.values()) > 0
(True, True)
>>> result.scores == {b: result.centre[b] - 2 * result.leftover[b] for b in result.backs}
True
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import FULL_SET, Card
from referee.errors import SetupError
from referee.events import (
    CardPlayed,
    CardTakenBack,
    Conflict,
    Event,
    IllegalPlay,
    Placement,
    RoundScored,
    RoundStarted,
    RoundStopped,
    StackStarted,
)
from referee.rules import check_setup, judge, playable_on, resolve_conflict, row_size
from referee.scoring import score_round
from referee.simulator.board import Board, Loose, Plan, Stack, Window
from referee.simulator.bots import BuildDown, Play, Refill, TurnOver, choose, fits_below
from referee.simulator.mistakes import AFTER_STOP, CENTRE_MISTAKES, CONFLICT, KINDS, InjectedMistake, find_mistake
from referee.simulator.places import DISCARD, HAND, PILE, Places
from referee.simulator.post_round import CentreStack, lay_out_leftovers, spread_centre, turn_hands_up
from referee.simulator.result import Outcome, RoundResult
from referee.simulator.settings import FPS, SimSettings
from referee.simulator.table import Table, centre_place, rotate, row_place, slap
from referee.simulator.trace import Mark, Move, Pickup, TraceRecord

_SORTED_SET = sorted(FULL_SET)
ROW_CASCADE_MM = 15.0
"""How far a card built down on the own row lies from the one it covers, towards the player."""


@dataclass
class _Seat:
    index: int
    back: str
    places: Places
    speed: float
    generation: int = 0
    outstanding: int = 0
    seen_change: int = -1
    turned: int = 0
    mistake_in_flight: str | None = None
    hands_free_since: float = 0.0


class Round:
    """A round in progress. :meth:`play` runs it to the end and returns the :class:`RoundResult`.

    ``observer`` (optional) is called with the round after every step, so tests can check invariants such
    as :meth:`holdings` while the round runs. ``deals`` (optional, for scenarios) gives each player's set in
    dealing order instead of shuffling it: 10 cards to the Ligretto pile (the 10th on top), then the row,
    then the hand (the last card on top).
    """

    def __init__(
        self,
        backs: Sequence[str],
        seed: int | str = 0,
        settings: SimSettings | None = None,
        number: int = 1,
        observer: Callable[[Round], None] | None = None,
        deals: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        check_setup(backs)
        if deals is not None and (len(deals) != len(backs) or any(sorted(d) != _SORTED_SET for d in deals)):
            raise SetupError("deals must give each player a whole set of 40 cards, in dealing order")
        self.backs = tuple(backs)
        self.seed = seed
        self.number = number
        self.settings = settings or SimSettings()
        self.rng = random.Random(seed)
        self.observer = observer
        self.table = Table.for_players(len(backs), row_size(len(backs)), self.backs, self.rng.uniform(0.0, 60.0))
        self.board = Board(list(self.table.sites))
        self.seats = [self._deal(i, back, None if deals is None else deals[i]) for i, back in enumerate(self.backs)]
        self.events: list[Event] = []
        self.trace: list[TraceRecord] = []
        self.mistakes: list[InjectedMistake] = []
        self.now = 0.0
        self.changes = 0
        self._outcome: Outcome | None = None
        self._owed: Counter[str] = Counter()  # injected mistakes due, by kind (see ``mistakes``)
        self._heap: list[tuple[float, int, str, int, int, Any]] = []
        self._sequence = 0
        self._layout = self._layout_json()

    # ------------------------------------------------------------------------------------------ queries

    @property
    def stacks(self) -> list[Stack]:
        """The centre stacks, by id (ids start at 1)."""
        return self.board.stacks

    def outcome(self) -> Outcome | None:
        """The one funnel for round end: how the round ended, or None while it goes on."""
        if self._outcome is not None:
            return self._outcome
        for seat in self.seats:
            if not seat.places.pile and seat.outstanding == 0:
                return Outcome("ligretto_stop", seat.back, self.now)
        if all(self._cycled(seat) for seat in self.seats) and self.stuck():
            return Outcome("deadlock", None, self.now)
        return None

    def stuck(self) -> bool:
        """True when no card anyone can still reach will ever fit: nothing to refill, to play or to build."""
        if any(stack.window for stack in self.stacks):
            return False  # a legal card is landing: the centre is changing
        # An illegal card goes back where it came from: it counts as reachable, as it will be again.
        if any(x.card.number == 1 or x.card in self.board.wanted for x in self.board.loose):
            return False
        for seat in self.seats:
            places = seat.places
            if places.pile and places.gap() is not None:
                return False
            for card in places.reachable():
                if card.number == 1 or card in self.board.wanted:
                    return False
            if self.settings.rules.advanced_row and self._can_build_down(places):
                return False
        return True

    def holdings(self) -> dict[str, list[Card]]:
        """Every card of every set wherever it is now (places, centre stacks, conflicts, loose): 40 per back."""
        held = {seat.back: seat.places.all_cards() for seat in self.seats}
        for stack in self.stacks:
            for card, back in stack.cards:
                held[back].append(card)
            for seat_index, plan, _ in stack.window.landings[1:] if stack.window else ():
                held[self.seats[seat_index].back].append(plan.card)
        for loose in self.board.loose:
            held[self.seats[loose.seat].back].append(loose.card)
        return held

    # ------------------------------------------------------------------------------------------ running

    def play(self) -> RoundResult:
        """Plays the round to its end, then the post-round protocol, and returns the result."""
        self._emit(RoundStarted(t=0.0, round=self.number, backs=self.backs, seed=_int_seed(self.seed)))
        for seat in self.seats:
            self._next(seat, 0.0, self.settings.bots.think.median * seat.speed)
        handlers: dict[str, Callable[[_Seat, Any], None]] = {
            "decide": self._decide,
            "land": self._land,
            "refill": self._refill,
            "build": self._build,
            "turn": self._turn,
            "take_back": self._take_back,
            "close": self._close,
        }
        while self._heap:
            t, _, kind, who, generation, payload = heapq.heappop(self._heap)
            # A "close" belongs to a stack (``payload``), not to a bot: it is never cancelled.
            seat = self.seats[who]
            if kind in ("take_back", "close") or generation == seat.generation:
                self.now = t
                if t > self.settings.max_seconds:
                    raise RuntimeError(f"round {self.number} (seed {self.seed}) ran past {t:.0f} s without ending")
                handlers[kind](seat, payload)
                self._settle()
                if self.observer is not None:
                    self.observer(self)
        return self._finish()

    def _settle(self) -> None:
        if self._outcome is None and (outcome := self.outcome()) is not None:
            self._stop(outcome)

    def _schedule(self, t: float, kind: str, seat: _Seat | None, payload: Any = None, who: int = 0) -> None:
        self._sequence += 1
        index, generation = (seat.index, seat.generation) if seat is not None else (who, 0)
        heapq.heappush(self._heap, (t, self._sequence, kind, index, generation, payload))

    def _next(self, seat: _Seat, t: float, pause: float | None = None) -> None:
        seat.hands_free_since = t
        if self._outcome is None:
            think = pause if pause is not None else self.settings.bots.think.sample(self.rng, seat.speed)
            self._schedule(t + think, "decide", seat)

    def _cancel(self, seat: _Seat) -> None:
        """Whatever the bot was about to do will not happen (it stopped, or must take a card back)."""
        seat.generation += 1
        if seat.mistake_in_flight is not None:
            self._owed[seat.mistake_in_flight] += 1  # the mistake did not happen: it is still due
            seat.mistake_in_flight = None

    # ----------------------------------------------------------------------------------------- handlers

    def _decide(self, seat: _Seat, _: Any) -> None:
        t = self.now
        bots = self.settings.bots
        plan = self._mistake(seat, t)
        if plan is not None:
            seat.mistake_in_flight = plan.kind
            self._schedule(t + bots.flight.sample(self.rng, seat.speed), "land", seat, plan)
            return
        action = choose(seat.places, self.board.wanted, advanced_row=self.settings.rules.advanced_row, rng=self.rng)
        if isinstance(action, Play):
            plan = Plan(action.source, action.card, action.stack, self.board.height(action.stack), t)
            self._schedule(t + bots.flight.sample(self.rng, seat.speed), "land", seat, plan)
        elif isinstance(action, Refill | BuildDown):
            self._schedule(t + bots.refill.sample(self.rng, seat.speed), action_kind(action), seat, (action, t))
        elif isinstance(action, TurnOver):
            self._schedule(t + bots.turn_over.sample(self.rng, seat.speed), "turn", seat, t)
        else:
            self._note_cycle(seat, 0)
            self._next(seat, t, 2 * bots.think.sample(self.rng, seat.speed))

    def _land(self, seat: _Seat, plan: Plan) -> None:
        t = self.now
        seat.mistake_in_flight = None
        if plan.kind is not None and plan.kind != CONFLICT:
            self._land_mistake(seat, plan)
        elif plan.stack is None:
            self._start_stack(seat, plan)
        else:
            stack = self.stacks[plan.stack - 1]
            window = stack.window
            if len(stack.cards) == plan.height and window is None:
                self._play_on(seat, plan, stack)
            elif (
                window is not None
                and len(stack.cards) == plan.height + 1
                and stack.top == plan.card
                and t - window.t <= self.settings.conflict_window
            ):
                self._join_conflict(seat, plan, stack, window)
            else:
                if plan.kind == CONFLICT:
                    self._owed[CONFLICT] += 1  # the conflict did not happen: it is still due
                self._next(seat, t)

    def _start_stack(self, seat: _Seat, plan: Plan) -> None:
        t = self.now
        stack = self.board.start_stack(self.rng)
        placement = slap(stack.base, self.rng)
        self._apply(seat, plan, stack, placement)
        self._emit(
            StackStarted(
                t=t,
                frame=_frame(t),
                stack=stack.id,
                card=plan.card,
                back=seat.back,
                placement=placement,
                source=plan.source,
            )
        )
        self._next(seat, t)

    def _play_on(self, seat: _Seat, plan: Plan, stack: Stack) -> None:
        t = self.now
        placement = slap(stack.base, self.rng)
        top_before = stack.top
        self._apply(seat, plan, stack, placement)
        seat.outstanding += 1
        stack.window = Window(t, top_before, [(seat.index, plan, placement)])
        self._schedule(t + self.settings.conflict_window, "close", None, stack.id)
        self._next(seat, t)
        self._inject_conflict(seat, plan, stack)

    def _join_conflict(self, seat: _Seat, plan: Plan, stack: Stack, window: Window) -> None:
        t = self.now
        placement = slap(stack.base, self.rng)
        seat.places.take(plan.source)
        seat.outstanding += 1
        window.landings.append((seat.index, plan, placement))
        self._move(plan.t_start, seat, plan.card, plan.source, centre_place(stack.id), placement)
        self._owe()
        if plan.kind == CONFLICT:
            self.mistakes.append(InjectedMistake(CONFLICT, t, seat.back, plan.card, stack.id))

    def _close(self, _: _Seat, stack_id: int) -> None:
        stack = self.stacks[stack_id - 1]
        window = stack.window
        assert window is not None
        stack.window = None
        first_seat, first, first_placement = window.landings[0]
        self.seats[first_seat].outstanding -= 1
        played = CardPlayed(
            t=window.t,
            frame=_frame(window.t),
            stack=stack.id,
            card=first.card,
            back=self.seats[first_seat].back,
            placement=first_placement,
            source=first.source,
        )
        if len(window.landings) == 1:
            self._emit(played)
        else:
            self._resolve_conflict(stack, window, played)

    def _resolve_conflict(self, stack: Stack, window: Window, played: CardPlayed) -> None:
        """Identical cards landed together: the rules say which stays; the others go back to their owners."""
        cards = tuple(plan.card for _, plan, _ in window.landings)
        kept, taken_back = resolve_conflict(window.top_before, cards, self.settings.rules)
        self._emit(
            Conflict(
                t=window.t,
                frame=_frame(window.t),
                stack=stack.id,
                card=kept,
                cards=cards,
                backs=tuple(self.seats[i].back for i, _, _ in window.landings),
                placements=tuple(placement for _, _, placement in window.landings),
            )
        )
        if 0 not in taken_back:
            self._emit(played)
        else:
            self._unplay(stack)
        for index in taken_back:
            seat_index, plan, placement = window.landings[index]
            seat = self.seats[seat_index]
            if index > 0:
                seat.outstanding -= 1
            else:
                self._cancel(seat)
            self._lie_loose(seat, plan.card, stack.id, plan.source, placement)

    def _land_mistake(self, seat: _Seat, plan: Plan) -> None:
        t = self.now
        stack = None if plan.stack is None else self.stacks[plan.stack - 1]
        if stack is not None and (len(stack.cards) != plan.height or stack.window is not None):
            self._owed[plan.kind or ""] += 1  # the mistake did not happen: it is still due
            self._next(seat, t)  # the stack changed while the card was in the air: the bot sees it
            return
        self._owe()
        top = None if stack is None else stack.top
        ruling = judge(top, plan.card, stopped=self._outcome is not None)
        base = self.board.claim_site(self.rng) if stack is None else stack.base
        placement = slap(base, self.rng)
        seat.places.take(plan.source)
        self._move(plan.t_start, seat, plan.card, plan.source, centre_place(plan.stack), placement)
        self._emit(
            IllegalPlay(
                t=t,
                frame=_frame(t),
                stack=plan.stack,
                card=plan.card,
                back=seat.back,
                placement=placement,
                reason=ruling.reason or "",
                expected=playable_on(top),
                source=plan.source,
            )
        )
        self.mistakes.append(InjectedMistake(plan.kind or "", t, seat.back, plan.card, plan.stack))
        self._lie_loose(seat, plan.card, plan.stack, plan.source, placement, base if stack is None else None)

    def _take_back(self, seat: _Seat, loose: Loose) -> None:
        t = self.now
        self.board.pick_up_loose(loose)
        seat.outstanding -= 1
        seat.places.put(loose.source, loose.card)
        target = self._home(seat, loose.source, len(seat.places.cards(loose.source)))
        self._move(t - 0.3, seat, loose.card, centre_place(loose.stack), loose.source, target)
        self._emit(
            CardTakenBack(t=t, frame=_frame(t), stack=loose.stack, card=loose.card, back=seat.back, source=loose.source)
        )
        self._next(seat, t)

    def _refill(self, seat: _Seat, payload: tuple[Refill, float]) -> None:
        action, start = payload
        card = seat.places.take(PILE)
        seat.places.row[action.slot].append(card)
        self._changed()
        self._move_home(start, seat, card, PILE, row_place(action.slot))
        self._next(seat, self.now)

    def _build(self, seat: _Seat, payload: tuple[BuildDown, float]) -> None:
        action, start = payload
        card = seat.places.take(action.source)
        seat.places.row[action.slot].append(card)
        self._changed()
        self._move_home(start, seat, card, action.source, row_place(action.slot), len(seat.places.row[action.slot]))
        self._next(seat, self.now)

    def _turn(self, seat: _Seat, start: float) -> None:
        places = seat.places
        rules = self.settings.rules
        if places.needs_pick_up(rules.turn_over, rules.short_hand):
            places.pick_up(self.rng)
            start = (start + self.now) / 2  # half the time goes on picking up and shuffling
            self.trace.append(Pickup(start - (self.now - start), start, seat.back, tuple(places.hand)))
        turned = places.turn(rules.turn_over)
        stagger = (self.now - start) / (len(turned) + 1)
        for i, card in enumerate(turned):
            self._move_home(start + i * stagger, seat, card, HAND, DISCARD, len(places.discard) - len(turned) + i)
        self._note_cycle(seat, len(turned))
        self._next(seat, self.now)

    # ------------------------------------------------------------------------------------------ effects

    def _apply(self, seat: _Seat, plan: Plan, stack: Stack, placement: Placement) -> None:
        """A legal card leaves its place and goes on a stack; the centre now wants the next one."""
        seat.places.take(plan.source)
        self.board.put(stack, plan.card, seat.back)
        self._changed()
        self._owe()
        self._move(plan.t_start, seat, plan.card, plan.source, centre_place(stack.id), placement)

    def _unplay(self, stack: Stack) -> None:
        """A conflict sends every card back: the stack's legal top is the one before the first card."""
        self.board.unplay(stack)
        self._changed()

    def _lie_loose(
        self,
        seat: _Seat,
        card: Card,
        stack: int | None,
        source: str,
        placement: Placement,
        site: Placement | None = None,
    ) -> None:
        loose = Loose(seat.index, card, stack, source, placement, site)
        self.board.lay_loose(loose)
        seat.outstanding += 1
        delay = self.settings.bots.take_back.sample(self.rng, seat.speed)
        self._schedule(self.now + delay, "take_back", seat, loose)

    def _owe(self) -> None:
        """A card landed in the centre: each kind of mistake becomes due with its rate, so that about that
        share of all landings are mistakes of that kind."""
        rates = self.settings.mistakes
        if not rates.any:
            return
        for kind in KINDS:
            rate = rates.rate(kind)
            if rate > 0 and self.rng.random() < rate:
                self._owed[kind] += 1

    def _mistake(self, seat: _Seat, t: float) -> Plan | None:
        """A mistake due that this bot's cards allow, as the card it throws instead of thinking it over."""
        for kind in CENTRE_MISTAKES:
            if self._owed[kind] > 0:
                found = find_mistake(kind, self._offered(seat), self.board.open_tops(), self.rng)
                if found is not None:
                    self._owed[kind] -= 1
                    source, card, stack = found
                    return Plan(source, card, stack, self.board.height(stack), t, kind)
        return None

    def _inject_conflict(self, first: _Seat, plan: Plan, stack: Stack) -> None:
        """A conflict is due: someone else holding the same card slaps it down in the same instant."""
        if self._owed[CONFLICT] <= 0:
            return
        rivals = [
            (seat, source)
            for seat in self.seats
            if seat is not first and not seat.outstanding
            for source, card in self._offered(seat)
            if card == plan.card
        ]
        if not rivals:
            return
        self._owed[CONFLICT] -= 1
        seat, source = self.rng.choice(rivals)
        self._cancel(seat)
        delay = self.rng.uniform(0.1, 0.8) * self.settings.conflict_window
        # The rival's throw began a moment ago, but not before their hand was free: one card at a time.
        rival = Plan(source, plan.card, stack.id, plan.height, max(self.now - 0.2, seat.hands_free_since), CONFLICT)
        self._schedule(self.now + delay, "land", seat, rival)

    def _stop(self, outcome: Outcome) -> None:
        """Everybody stops: pending actions are dropped; one bot per ``after_stop`` mistake due slaps one more
        card (never the one who called the stop)."""
        self._outcome = outcome
        t = outcome.t
        self._emit(RoundStopped(t=t, frame=_frame(t), reason=outcome.reason, back=outcome.back))
        self.trace.append(Mark(t, "stop", {"reason": outcome.reason, "back": outcome.back}))
        for seat in self.seats:
            self._cancel(seat)
        late = [
            seat for seat in self.seats if seat.back != outcome.back and not seat.outstanding and self._offered(seat)
        ]
        due = min(self._owed[AFTER_STOP], len(late))
        self._owed[AFTER_STOP] -= due
        for seat in self.rng.sample(late, due) if due else ():
            source, card = self.rng.choice(self._offered(seat))
            tops = self.board.open_tops()
            stack = self.rng.choice(sorted(tops)) if tops and card.number != 1 else None
            plan = Plan(source, card, stack, self.board.height(stack), t, AFTER_STOP)
            self._schedule(t + self.rng.uniform(0.25, 0.7), "land", seat, plan)

    def _finish(self) -> RoundResult:
        outcome = self._outcome
        assert outcome is not None
        end = max(self.now, outcome.t) + 1.5
        centre = [CentreStack(s.id, s.base, tuple(s.cards)) for s in self.stacks]
        piles = {seat.back: list(seat.places.pile) for seat in self.seats}
        spread = spread_centre(self.table, centre, self.rng, end)
        leftovers = lay_out_leftovers(self.table, piles, self.rng, end, self.settings.leftovers_face)
        hands = {seat.back: list(seat.places.hand) for seat in self.seats} if self.settings.turn_hands_up else {}
        post_round = spread + leftovers + turn_hands_up(self.table, hands, end)
        self.trace.extend(post_round)
        scored_at = max((m.t_end for m in post_round), default=end) + 1.0
        counts = {back: 0 for back in self.backs}
        for stack in self.stacks:
            for _, back in stack.cards:
                counts[back] += 1
        leftover = {back: len(piles[back]) for back in self.backs}
        scores = score_round(counts, leftover, self.backs)
        self._emit(
            RoundScored(
                t=scored_at, frame=_frame(scored_at), round=self.number, centre=counts, leftover=leftover, scores=scores
            )
        )
        self.trace.append(Mark(scored_at, "scored", {"centre": counts, "leftover": leftover, "scores": scores}))
        self.events.sort(key=lambda event: event.t)
        self.trace.sort(key=lambda record: record.t)
        return RoundResult(
            number=self.number,
            seed=self.seed,
            backs=self.backs,
            outcome=outcome,
            events=tuple(self.events),
            trace=tuple(self.trace),
            layout=self._layout,
            final={seat.back: seat.places.to_json() for seat in self.seats},
            stacks=tuple((s.id, tuple((str(c), b) for c, b in s.cards)) for s in self.stacks),
            centre=counts,
            leftover=leftover,
            scores=scores,
            mistakes=tuple(self.mistakes),
        )

    # ------------------------------------------------------------------------------------------ helpers

    def _deal(self, index: int, back: str, dealt: Sequence[Card] | None) -> _Seat:
        cards = list(FULL_SET)
        self.rng.shuffle(cards)
        if dealt is not None:
            cards = list(dealt)
        low, high = self.settings.bots.speeds
        return _Seat(index, back, Places.deal(cards, row_size(len(self.backs))), self.rng.uniform(low, high))

    def _offered(self, seat: _Seat) -> list[tuple[str, Card]]:
        """The cards a bot could throw: its row tops, pile top (never its last card) and discard top."""
        places = seat.places
        return [
            (source, places.cards(source)[-1])
            for source in places.sources()
            if not (source == PILE and len(places.pile) == 1)
        ]

    def _can_build_down(self, places: Places) -> bool:
        tops = [slot[-1] for slot in places.row if slot]
        candidates = places.hand + places.discard + places.pile[-1:]
        return any(fits_below(card, top) for card in candidates for top in tops)

    def _changed(self) -> None:
        self.changes += 1

    def _note_cycle(self, seat: _Seat, turned: int) -> None:
        if seat.seen_change != self.changes:
            seat.seen_change, seat.turned = self.changes, 0
        seat.turned += turned

    def _cycled(self, seat: _Seat) -> bool:
        places = seat.places
        return seat.seen_change == self.changes and seat.turned >= len(places.hand) + len(places.discard)

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    def _move(self, start: float, seat: _Seat, card: Card, source: str, target: str, placement: Placement) -> None:
        self.trace.append(Move(start, max(start, self.now), seat.back, card, source, target, placement))

    def _move_home(self, start: float, seat: _Seat, card: Card, source: str, target: str, depth: int = 0) -> None:
        """A card moving between a player's own places, to lie ``depth`` cards deep there."""
        placement = self._home(seat, target, depth)
        face = "down" if target == HAND else "up"
        self.trace.append(Move(start, max(start, self.now), seat.back, card, source, target, placement, face))

    def _home(self, seat: _Seat, place: str, depth: int) -> Placement:
        """Where a card lies in a player's own place: cards on the discard pile a little askew, as real ones
        do; cards built down on a row slot (advanced variant) overlapping towards the player, so each shows."""
        home = self.table.seats[seat.index]
        base = home.places[place]
        if depth <= 1:
            return base
        if place.startswith("row:"):
            dx, dy = rotate(0.0, ROW_CASCADE_MM * (depth - 1), home.angle)
            return Placement(base.x + dx, base.y + dy, base.angle)
        return Placement(base.x, base.y, base.angle + self.rng.uniform(-4.0, 4.0))

    def _layout_json(self) -> dict[str, Any]:
        seats = [
            {**place.to_json(), "cards": seat.places.to_json()}
            for place, seat in zip(self.table.seats, self.seats, strict=True)
        ]
        return {"kind": "layout", "t": 0.0, "table": {**self.table.to_json(), "seats": seats}}


def action_kind(action: Refill | BuildDown) -> str:
    return "refill" if isinstance(action, Refill) else "build"


def _frame(t: float) -> int:
    return int(t * FPS)


def _int_seed(seed: int | str) -> int | None:
    return seed if isinstance(seed, int) else None

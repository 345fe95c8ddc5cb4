"""Properties of simulated rounds, each checked on every one of 1,012 rounds for 2..12 players.

Hypothesis draws 92 tables per player count (seed, rule settings, mistake rates: an even split of a total
share or a random mix of kinds); each table plays a round with injected mistakes, watched step by step, and
its clean twin (same seed and rules, no mistakes). On every round: each set always holds exactly its 40
cards; with no injected mistake the judge finds no violation; every injected mistake is found by the judge
with the right reason (and nothing else is a violation); scores are +1 per centre card and -2 per card
left in the pile; the round ends, by "Ligretto stop" or a true deadlock.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.backs import Catalogue
from referee.cards import FULL_SET, HIGHEST, Card
from referee.events import RoundScored, RoundStopped
from referee.rules import ConflictResolution, RuleSettings, ShortHand
from referee.simulator import MistakeRates, Round, SimSettings
from referee.simulator.audit import audit
from referee.simulator.bots import fits_below
from referee.simulator.mistakes import CONFLICT, KINDS

BACKS = Catalogue.default().ids
FULL = sorted(str(card) for card in FULL_SET)
CHECK_EVERY = 5  # steps between checks that the 40 cards are 40 different ones (the count is checked every step)

rules = st.builds(
    RuleSettings,
    conflict_resolution=st.sampled_from(ConflictResolution),
    short_hand=st.sampled_from(ShortHand),
    advanced_row=st.booleans(),
    turn_over=st.sampled_from([3, 3, 2, 1]),
)
seeds = st.integers(min_value=0, max_value=2**31 - 1)
totals = st.sampled_from([0.01, 0.05, 0.2, 0.5]).map(MistakeRates.uniform)
mixes = st.builds(MistakeRates, **{kind: st.sampled_from([0.0, 0.0, 0.02, 0.08]) for kind in KINDS})
rates = st.one_of(totals, mixes)
ROUNDS_PER_TABLE = 92
"""Hypothesis examples per player count: 11 tables x 92 = 1,012 rounds with mistakes, and as many clean."""


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def play(n: int, seed: int, rule: RuleSettings, mistakes: MistakeRates, observer=None):
    sim = SimSettings(rules=rule, mistakes=mistakes)
    return Round(BACKS[:n], seed=seed, settings=sim, observer=observer).play(), sim


@pytest.mark.parametrize("n", range(2, 13))
@examples(ROUNDS_PER_TABLE)
@given(seed=seeds, rule=rules, mistakes=rates)
def test_every_simulated_round_keeps_the_five_properties(n, seed, rule, mistakes):
    """Each drawn table plays a round with injected mistakes (watched step by step) and its clean twin."""
    steps = Counter[str]()

    def check(rnd: Round) -> None:
        steps["step"] += 1
        every_set_holds_exactly_its_40_cards(rnd.holdings(), distinct=steps["step"] % CHECK_EVERY == 0)

    result, sim = play(n, seed, rule, mistakes, check)
    clean, _ = play(n, seed, rule, MistakeRates())
    assert steps["step"] > 0
    for played in (result, clean):
        every_set_ends_with_its_40_cards(played)
        scores_are_one_per_centre_card_minus_two_per_card_left_in_the_pile(played, sim.rules)
        the_round_ends_by_ligretto_stop_or_deadlock(played, rule.advanced_row)
    the_judge_finds_no_violation_in_a_clean_round(clean, sim.rules)
    the_judge_finds_every_injected_mistake_with_its_reason(result, sim.rules)


def every_set_holds_exactly_its_40_cards(held: dict[str, list[Card]], distinct: bool) -> None:
    assert all(len(cards) == 40 for cards in held.values())
    if distinct:  # 40 different cards: every Card is one of a set's 40, so that is the whole set, once
        assert all(len(set(cards)) == 40 for cards in held.values())


def every_set_ends_with_its_40_cards(result) -> None:
    for back in result.backs:
        final = [c for place in result.final[back].values() for c in place]
        centre = [c for _, cards in result.stacks for c, owner in cards if owner == back]
        assert sorted(final + centre) == FULL


def the_judge_finds_no_violation_in_a_clean_round(result, rules: RuleSettings) -> None:
    report = audit(result.events, rules)
    assert report.violations == ()
    assert report.disagreements == ()
    assert not any(event.type == "illegal_play" for event in result.events)
    assert result.mistakes == ()


def the_judge_finds_every_injected_mistake_with_its_reason(result, rules: RuleSettings) -> None:
    report = audit(result.events, rules)
    assert report.disagreements == ()
    injected = Counter((m.kind, m.back, str(m.card), m.stack) for m in result.mistakes)
    assert injected - report.counts() == Counter()
    # Nothing but the injected mistakes is a violation; extra conflicts are players racing, not mistakes.
    violations = Counter(f.key for f in report.violations)
    assert violations == Counter({k: v for k, v in injected.items() if k[0] != CONFLICT})
    illegal = Counter((e.reason, e.back, str(e.card), e.stack) for e in result.events if e.type == "illegal_play")
    assert illegal == violations


def scores_are_one_per_centre_card_minus_two_per_card_left_in_the_pile(result, rules: RuleSettings) -> None:
    centre = Counter(owner for _, cards in result.stacks for _, owner in cards)
    for back in result.backs:
        leftover = len(result.final[back]["pile"])
        assert result.leftover[back] == leftover
        assert result.centre[back] == centre[back]
        assert result.scores[back] == centre[back] - 2 * leftover
    scored = result.events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.scores == result.scores
    assert audit(result.events, rules).centre == {b: c for b, c in sorted(centre.items()) if c}


def the_round_ends_by_ligretto_stop_or_deadlock(result, advanced_row: bool) -> None:
    stops = [e for e in result.events if isinstance(e, RoundStopped)]
    assert len(stops) == 1
    assert result.events[-1].type == "round_scored"
    assert stops[0].t == result.duration
    if result.reason == "ligretto_stop":
        assert result.final[result.outcome.back]["pile"] == []
    else:
        assert result.reason == "deadlock"
        assert result.outcome.back is None
        assert nobody_can_ever_play(result, advanced_row)


def nobody_can_ever_play(result, advanced_row: bool) -> bool:
    """From the final state: no gap to refill, and no card anyone can still reach fits anywhere."""
    wanted = set()
    for _, cards in result.stacks:
        top = Card.parse(cards[-1][0])
        if top.number < HIGHEST:
            wanted.add(Card(top.colour, top.number + 1))
    for places in result.final.values():
        slots = [slot for name, slot in places.items() if name.startswith("row:")]
        if places["pile"] and not all(slots):
            return False
        row_tops = [Card.parse(slot[-1]) for slot in slots if slot]
        loose = [Card.parse(c) for c in places["pile"][-1:] + places["hand"] + places["discard"]]
        if any(card.number == 1 or card in wanted for card in row_tops + loose):
            return False
        if advanced_row and any(fits_below(card, top) for card in loose for top in row_tops):
            return False
    return True

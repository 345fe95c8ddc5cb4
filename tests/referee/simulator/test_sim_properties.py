"""Properties of simulated rounds, over 1,000+ rounds for 2..12 players (hypothesis draws the tables).

Each property runs on its own draw of players, seeds, rule settings and mistake rates; together they play
well over 1,000 rounds.
"""

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.backs import Catalogue
from referee.cards import FULL_SET, HIGHEST, Card
from referee.events import RoundScored, RoundStopped
from referee.rules import ConflictResolution, RuleSettings, ShortHand
from referee.simulator import MistakeRates, Round, SimSettings
from referee.simulator.audit import audit
from referee.simulator.bots import fits_below
from referee.simulator.mistakes import CONFLICT

BACKS = Catalogue.default().ids
FULL = sorted(FULL_SET)
CHECK_EVERY = 7  # steps between full checks of every set (a full check costs a sort per set)

rules = st.builds(
    RuleSettings,
    conflict_resolution=st.sampled_from(ConflictResolution),
    short_hand=st.sampled_from(ShortHand),
    advanced_row=st.booleans(),
    turn_over=st.sampled_from([3, 3, 2, 1]),
)
players = st.integers(min_value=2, max_value=12)
seeds = st.integers(min_value=0, max_value=2**31 - 1)
rates = st.sampled_from([0.0, 0.01, 0.05, 0.2])


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def play(n: int, seed: int, rule: RuleSettings, rate: float, observer=None):
    sim = SimSettings(rules=rule, mistakes=MistakeRates.uniform(rate))
    return Round(BACKS[:n], seed=seed, settings=sim, observer=observer).play(), sim


@examples(220)
@given(players, seeds, rules, rates)
def test_every_set_always_holds_exactly_its_40_cards(n, seed, rule, rate):
    steps = Counter[str]()

    def check(rnd: Round) -> None:
        steps["step"] += 1
        held = rnd.holdings()
        assert all(len(cards) == 40 for cards in held.values())
        if steps["step"] % CHECK_EVERY == 0:
            assert all(sorted(cards) == FULL for cards in held.values())

    result, _ = play(n, seed, rule, rate, check)
    assert steps["step"] > 0
    for back in result.backs:
        final = [c for place in result.final[back].values() for c in place]
        centre = [c for _, cards in result.stacks for c, owner in cards if owner == back]
        assert len(final) + len(centre) == 40


@examples(260)
@given(players, seeds, rules)
def test_the_judge_finds_no_violation_in_a_clean_round(n, seed, rule):
    result, sim = play(n, seed, rule, 0.0)
    report = audit(result.events, sim.rules)
    assert report.violations == ()
    assert report.disagreements == ()
    assert not any(event.type == "illegal_play" for event in result.events)
    assert result.mistakes == ()


@examples(260)
@given(players, seeds, rules, rates.filter(lambda r: r > 0))
def test_the_judge_finds_every_injected_mistake_with_its_reason(n, seed, rule, rate):
    result, sim = play(n, seed, rule, rate)
    report = audit(result.events, sim.rules)
    assert report.disagreements == ()
    injected = Counter((m.kind, m.back, str(m.card), m.stack) for m in result.mistakes)
    found = report.counts()
    assert injected - found == Counter()
    # Nothing but the injected mistakes is a violation; extra conflicts are players racing, not mistakes.
    violations = Counter(f.key for f in report.violations)
    assert violations == Counter({k: v for k, v in injected.items() if k[0] != CONFLICT})


@examples(160)
@given(players, seeds, rules, rates)
def test_scores_are_one_per_centre_card_minus_two_per_card_left_in_the_pile(n, seed, rule, rate):
    result, sim = play(n, seed, rule, rate)
    centre = Counter(owner for _, cards in result.stacks for _, owner in cards)
    for back in result.backs:
        leftover = len(result.final[back]["pile"])
        assert result.leftover[back] == leftover
        assert result.centre[back] == centre[back]
        assert result.scores[back] == centre[back] - 2 * leftover
    scored = result.events[-1]
    assert isinstance(scored, RoundScored)
    assert scored.scores == result.scores
    assert audit(result.events, sim.rules).centre == {b: c for b, c in sorted(centre.items()) if c}


@examples(130)
@given(players, seeds, rules, rates)
def test_every_round_ends_by_ligretto_stop_or_deadlock(n, seed, rule, rate):
    result, _ = play(n, seed, rule, rate)
    stops = [e for e in result.events if isinstance(e, RoundStopped)]
    assert len(stops) == 1
    assert result.events[-1].type == "round_scored"
    assert stops[0].t == result.duration
    if result.reason == "ligretto_stop":
        assert result.final[result.outcome.back]["pile"] == []
    else:
        assert result.reason == "deadlock"
        assert result.outcome.back is None
        assert nobody_can_ever_play(result, rule.advanced_row)


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

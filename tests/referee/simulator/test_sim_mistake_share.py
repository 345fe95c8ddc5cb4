"""``--mistakes RATE`` means that about RATE of all cards landing in the centre are mistakes.

Measured over many seeded rounds (deterministic, so these are tolerance tables, not timings). The realised
share falls a little short of the rate: a mistake still due when the round ends is dropped, and a short
round (2-3 players, ~40 cards landing) ends with relatively more due; so the tables allow a shortfall.
"""

from collections import Counter

import pytest

from referee.backs import Catalogue
from referee.simulator import MistakeRates, Round, SimSettings
from referee.simulator.mistakes import KINDS

BACKS = Catalogue.default().ids


def realised(players: int, rates: MistakeRates, rounds: int) -> tuple[int, int, Counter[str]]:
    """Mistakes, cards landing in the centre, and mistakes by kind, over seeds 0..rounds-1."""
    mistakes, landings, kinds = 0, 0, Counter[str]()
    for seed in range(rounds):
        result = Round(BACKS[:players], seed=seed, settings=SimSettings(mistakes=rates)).play()
        mistakes += len(result.mistakes)
        landings += result.landings
        kinds.update(m.kind for m in result.mistakes)
    return mistakes, landings, kinds


@pytest.mark.parametrize(
    ("players", "rate", "rounds", "low", "high"),
    [
        (2, 0.05, 250, 0.75, 1.10),  # short rounds: more of what is due is still due at the end
        (3, 0.05, 200, 0.75, 1.10),
        (4, 0.01, 300, 0.75, 1.25),  # ~170 mistakes: the sampling error alone is about 8 %
        (4, 0.05, 150, 0.85, 1.10),
        (12, 0.05, 60, 0.85, 1.10),
        (4, 0.20, 80, 0.80, 1.05),
    ],
)
def test_about_rate_of_all_centre_plays_are_mistakes(players, rate, rounds, low, high):
    mistakes, landings, _ = realised(players, MistakeRates.uniform(rate), rounds)
    assert landings > 5000
    assert low * rate <= mistakes / landings <= high * rate


def test_mistakes_split_evenly_over_the_six_kinds():
    rate = 0.3
    _, landings, kinds = realised(8, MistakeRates.uniform(rate), 40)
    assert set(kinds) == set(KINDS)
    for kind in KINDS:
        assert 0.6 * rate / 6 <= kinds[kind] / landings <= 1.25 * rate / 6, kind


@pytest.mark.parametrize(("kind", "rate"), [("wrong_colour", 0.02), ("conflict", 0.02), ("stack_full", 0.02)])
def test_a_rate_for_one_kind_makes_only_that_mistake_at_about_that_share(kind, rate):
    mistakes, landings, kinds = realised(4, MistakeRates(**{kind: rate}), 120)
    assert set(kinds) == {kind}
    assert 0.75 * rate <= mistakes / landings <= 1.2 * rate

"""Simulated rounds, filmed as noisy sightings, refereed live and scored against the simulator's ground truth.

These are quality gates: they fail when the tracker or the judge regresses. The full figures (more rounds)
come from ``python -m referee.tracker.simcheck``.
"""

from __future__ import annotations

import pytest

from referee.backs import DEFAULT_BACKS
from referee.events import IllegalPlay
from referee.tracker.simcheck import Score, check_round, referee_for, score_events, simulate, table_of
from referee.tracker.synthetic import Noise

BACKS = tuple(b.id for b in DEFAULT_BACKS)
ROUNDS = [(2, 31), (2, 32), (4, 41), (4, 42), (8, 81)]


@pytest.fixture(scope="module")
def total() -> Score:
    score = Score()
    for players, seed in ROUNDS:
        score.add(check_round(BACKS[:players], seed, mistakes=0.05, noise=Noise.typical(seed)))
    return score


def test_plays_are_recovered_with_99_percent_recall_and_precision_within_half_a_second(total: Score):
    assert total.plays.truth > 200
    assert total.plays.recall >= 0.99, total.plays.missed
    assert total.plays.precision >= 0.99, total.plays.extra


def test_injected_mistakes_are_flagged_with_their_reason_within_half_a_second(total: Score):
    assert total.illegal.truth >= 5
    assert total.illegal.recall >= 0.97, total.illegal.missed
    assert total.illegal.precision >= 0.97, total.illegal.extra


def test_conflicts_are_flagged_for_about_half_and_never_invented(total: Score):
    assert total.conflicts.truth >= 5
    assert total.conflicts.recall >= 0.5, total.conflicts.missed
    assert total.conflicts.precision == 1.0, total.conflicts.extra


def test_end_of_round_counts_and_scores_are_exact_for_almost_every_player(total: Score):
    assert total.players_exact >= 0.98 * total.players


def test_a_clean_round_without_sighting_noise_is_refereed_exactly():
    result = simulate(BACKS[:3], seed=77, mistakes=0.0)
    referee = referee_for(result, table_of(result, seed=77), Noise())
    score = score_events(result.events, referee.events)
    assert (score.plays.recall, score.plays.precision) == (1.0, 1.0)
    assert not [e for e in referee.events if isinstance(e, IllegalPlay)]
    assert score.players_exact == score.players
    assert referee.warnings == ()

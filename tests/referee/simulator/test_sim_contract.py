"""The simulator's event log is read by the referee's own visitors and agrees with them on every count."""

import pytest

from referee.backs import Catalogue
from referee.rules import ConflictResolution, RuleSettings
from referee.simulator import MistakeRates, Round, SimSettings
from referee.visitors import CentreBuilder, ScoreSheetBuilder, replay

BACKS = Catalogue.default().ids


@pytest.mark.parametrize("resolution", list(ConflictResolution))
@pytest.mark.parametrize(("players", "seed", "rate"), [(2, 0, 0.0), (4, 1, 0.05), (8, 2, 0.02), (12, 3, 0.05)])
def test_the_centre_builder_rebuilds_the_simulated_centre_from_the_log(players, seed, rate, resolution):
    rules = RuleSettings(conflict_resolution=resolution)
    result = Round(
        BACKS[:players], seed=seed, settings=SimSettings(rules=rules, mistakes=MistakeRates.uniform(rate))
    ).play()
    centre = replay(result.events, CentreBuilder(rules))
    centre.check()
    assert centre.loose == ()
    assert centre.counts() == {back: n for back, n in sorted(result.centre.items()) if n}
    tops = {stack.id: [str(c.card) for c in stack.cards] for stack in centre.stacks}
    assert tops == {stack_id: [card for card, _ in cards] for stack_id, cards in result.stacks}


def test_the_score_sheet_of_a_simulated_round_has_its_scores():
    result = Round(BACKS[:5], seed=8).play()
    sheet = replay(result.events, ScoreSheetBuilder())
    assert sheet.totals == result.scores

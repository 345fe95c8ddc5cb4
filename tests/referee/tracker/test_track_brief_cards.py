"""Cards that lie on the table only a moment: taken back at once, covered at once, or landing on the very spot of
an older copy of their face. Each must still be ruled on, and no violation may come from a misread."""

from __future__ import annotations

import pytest

from referee.events import Event, IllegalPlay
from referee.tracker import Referee
from referee.tracker.synthetic import Noise, ScriptedTable

FPS = 30.0


def film(table: ScriptedTable, until: float, noise: Noise | None = None) -> list[Event]:
    referee = Referee()
    for frame in table.frames(until, noise or Noise()):
        referee.update(frame)
    referee.finish()
    return list(referee.events)


def rulings(events: list[Event]) -> list[tuple[str, str, str]]:
    return [(e.type, str(e.card), e.reason if isinstance(e, IllegalPlay) else "") for e in events]


@pytest.mark.parametrize("lying_s", [0.3, 0.45])
def test_an_illegal_card_taken_back_after_a_moment_is_still_flagged(lying_s: float):
    table = ScriptedTable(FPS)
    table.put(0.0, "r1", (0, 0))
    table.put(1.0, "r2", (2, 1))
    wrong = table.put(2.0, "y3", (3, -2), angle=4.0)
    table.take(2.0 + lying_s, wrong)
    events = film(table, 4.0)
    assert ("illegal_play", "y3", "wrong_colour") in rulings(events)
    flagged = next(e for e in events if isinstance(e, IllegalPlay))
    assert abs(flagged.t - 2.0) <= 0.1


def test_a_one_covered_at_once_by_a_wrong_card_starts_its_stack_and_the_cover_is_the_wrong_colour():
    table = ScriptedTable(FPS)
    table.put(0.0, "g1", (0, 0))
    table.hide(-0.05, 0.12, (0, 0), radius=45.0)  # the hand that slapped g1
    table.hide(0.19, 0.5, (0, 0), radius=45.0)  # the hand that slaps b2 on it: g1 showed ~2 frames
    table.put(0.24, "b2", (2, 8))
    events = film(table, 2.0)
    assert rulings(events)[:2] == [("stack_started", "g1", ""), ("illegal_play", "b2", "wrong_colour")]


def test_the_next_card_covering_a_one_seen_a_moment_is_a_legal_play_not_a_cascade_of_violations():
    table = ScriptedTable(FPS)
    table.put(0.0, "b1", (0, 0))
    table.hide(-0.05, 0.12, (0, 0), radius=45.0)
    table.hide(0.19, 0.5, (0, 0), radius=45.0)
    table.put(0.24, "b2", (3, 6))
    table.put(1.5, "b3", (1, 2))
    events = film(table, 3.0)
    assert rulings(events) == [("stack_started", "b1", ""), ("card_played", "b2", ""), ("card_played", "b3", "")]


def test_a_lower_copy_landing_on_the_spot_of_its_older_copy_under_a_full_stack_is_flagged():
    table = ScriptedTable(FPS)
    for n in range(1, 11):
        table.put(n - 1.0, f"b{n}", (0.0, -12.0 if n == 10 else 0.0))  # b10 slapped a little lower
    wrong = table.put(11.0, "b9", (1.5, 1.0))  # within a few mm and degrees of the old b9
    table.take(12.0, wrong)
    events = film(table, 13.0)
    assert ("illegal_play", "b9", "stack_full") in rulings(events)
    assert ("card_taken_back", "b9", "") in rulings(events)


@pytest.mark.parametrize("seed", range(4))
def test_brief_misreads_of_the_next_card_invent_neither_plays_nor_violations(seed: int):
    table = ScriptedTable(FPS)
    for n in range(1, 7):
        table.put(n - 1.0, f"g{n}", (n * 1.5, -n * 1.0))
    events = film(table, 7.0, Noise.typical(seed=seed))
    assert rulings(events) == [("stack_started", "g1", "")] + [("card_played", f"g{n}", "") for n in range(2, 7)]

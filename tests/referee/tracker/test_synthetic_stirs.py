"""A scripted table with ``settle_s`` says what the vision side's change clock would of each card's picture."""

from __future__ import annotations

import pytest

from referee.tracker.synthetic import ScriptedTable

FPS = 10.0


def reading_at(table: ScriptedTable, t: float):
    frames = [f for f in table.frames(t) if f is not None]
    (sighting,) = frames[-1].sightings
    return sighting


def test_a_card_put_down_lies_still_from_then_and_comes_to_rest_rearranged_a_settle_later():
    table = ScriptedTable(FPS, settle_s=0.3)
    table.put(1.0, "r1", (0, 0))
    early, late = reading_at(table, 1.2), reading_at(table, 2.0)
    assert early.still_since == 1.0 and early.rearranged_at is None
    assert late.still_since == 1.0 and late.rearranged_at == pytest.approx(1.3)
    assert late.rearranged_from == pytest.approx(0.9)  # the picture before the card came


def test_a_hand_passing_stirs_the_picture_but_leaves_it_as_it_lay():
    table = ScriptedTable(FPS, settle_s=0.3)
    table.put(1.0, "r1", (0, 0))
    table.hide(3.0, 3.5, (10, 0))
    after = reading_at(table, 4.5)
    assert after.still_since == 3.5
    assert after.rearranged_at == pytest.approx(1.3)


def test_a_copy_lifted_off_its_twin_leaves_the_twin_rearranged():
    table = ScriptedTable(FPS, settle_s=0.3)
    table.put(1.0, "g3", (0, 0))
    copy = table.put(1.1, "g3", (8, 10), angle=14)
    table.take(2.2, copy)
    after = reading_at(table, 3.0)
    assert (after.centre[0], after.centre[1]) == pytest.approx((0.0, 0.0))
    assert after.still_since == 2.2
    assert after.rearranged_at == pytest.approx(2.5) and after.rearranged_from == pytest.approx(2.1)


def test_stirs_farther_than_near_mm_leave_a_card_alone():
    table = ScriptedTable(FPS, settle_s=0.3, near_mm=45.0)
    table.put(1.0, "r1", (0, 0))
    table.put(2.0, "b1", (120, 0))
    frames = [f for f in table.frames(3.0) if f is not None]
    r1 = next(s for s in frames[-1].sightings if str(s.card) == "r1")
    assert r1.still_since == 1.0 and r1.rearranged_at == pytest.approx(1.3)


def test_without_settle_s_the_sightings_do_not_tell():
    table = ScriptedTable(FPS)
    table.put(1.0, "r1", (0, 0))
    seen = reading_at(table, 2.0)
    assert seen.still_since is None and seen.rearranged_at is None

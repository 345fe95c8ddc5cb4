"""The physical side of a simulated round: seats, places, stack spots, jitter, the trace and the post-round protocol."""

import itertools
import math
import random
from collections import Counter

import pytest

from referee.backs import Catalogue
from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, Card
from referee.errors import SetupError
from referee.events import CardPlayed, Conflict, IllegalPlay, StackStarted
from referee.rules import RuleSettings, row_size
from referee.simulator import MistakeRates, Round, SimSettings
from referee.simulator.post_round import LEFTOVER_STEP, LINE_LENGTH, SPREAD_STEP_MM, CentreStack, spread_centre
from referee.simulator.table import CARD_REACH_MM, JITTER_ANGLE_DEG, JITTER_OFFSET, STACK_GAP_MM, Table

BACKS = Catalogue.default().ids
OWN_PLACES = ("pile", "hand", "discard")


def distance(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def turn_between(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("players", [2, 3, 4, 7, 12])
def test_seats_sit_evenly_around_the_table_outside_the_centre_zone(players):
    table = Table.for_players(players, row_size(players))
    assert [round(seat.angle, 6) for seat in table.seats] == [round(360 * i / players, 6) for i in range(players)]
    for seat in table.seats:
        for place in seat.places.values():
            assert table.centre_radius + CARD_WIDTH_MM / 2 < math.hypot(place.x, place.y) < table.radius
    spots = [place for seat in table.seats for place in seat.places.values()]
    for a, b in itertools.combinations(spots, 2):
        assert distance(a, b) >= CARD_WIDTH_MM, "two places overlap"


def test_the_player_at_the_bottom_sees_their_cards_upright_and_the_one_opposite_upside_down():
    table = Table.for_players(2, row=5)
    bottom, top = table.seats
    assert bottom.anchor.y > 0 and bottom.places["pile"].angle == 0
    assert top.anchor.y < 0 and top.places["pile"].angle == 180
    # Left to right as each player sees it: hand, discard, the row, the pile.
    assert bottom.places["hand"].x < bottom.places["row:0"].x < bottom.places["pile"].x
    assert top.places["hand"].x > top.places["row:0"].x > top.places["pile"].x


@pytest.mark.parametrize("players", [2, 4, 12])
def test_stack_spots_lie_in_the_centre_zone_far_enough_apart_that_stacks_never_overlap(players):
    table = Table.for_players(players, row_size(players), turn=17.0)
    assert len(table.sites) >= 4 * players
    for a, b in itertools.combinations(table.sites, 2):
        assert distance(a, b) >= STACK_GAP_MM - 1e-6 >= 2 * CARD_REACH_MM
    assert all(math.hypot(s.x, s.y) + CARD_REACH_MM <= table.centre_radius + 1e-6 for s in table.sites)


@pytest.mark.parametrize(("players", "seed"), [(4, 0), (12, 3)])
def test_every_centre_landing_carries_its_owner_and_a_jittered_placement_on_its_stack(players, seed):
    rnd = Round(BACKS[:players], seed=seed, settings=SimSettings(mistakes=MistakeRates.uniform(0.03)))
    result = rnd.play()
    bases = {stack.id: stack.base for stack in rnd.stacks}
    landings = [e for e in result.events if isinstance(e, StackStarted | CardPlayed | IllegalPlay)]
    assert landings
    for event in landings:
        assert event.back in BACKS and event.placement is not None and event.source is not None
        if event.stack is None:
            continue
        base = bases[event.stack]
        assert abs(event.placement.x - base.x) <= JITTER_OFFSET * CARD_WIDTH_MM + 1e-6
        assert abs(event.placement.y - base.y) <= JITTER_OFFSET * CARD_HEIGHT_MM + 1e-6
        assert turn_between(event.placement.angle, base.angle) <= JITTER_ANGLE_DEG + 1e-6
    for conflict in (e for e in result.events if isinstance(e, Conflict)):
        assert all(distance(p, bases[conflict.stack]) <= CARD_REACH_MM for p in conflict.placements)


def replay_trace(result):
    """Plays the trace over the layout, as a renderer would: each card must be on top where it leaves."""
    places = {
        seat["back"]: {name: list(cards) for name, cards in seat["cards"].items()}
        for seat in result.layout["table"]["seats"]
    }
    elsewhere: dict[str, list[tuple[str, str]]] = {}
    final = None
    for record in result.trace_json()[1:]:
        if record["kind"] == "pickup":
            own = places[record["back"]]
            assert Counter(own["hand"] + own["discard"]) == Counter(record["cards"])
            own["hand"], own["discard"] = list(record["cards"]), []
        elif record["kind"] == "move":
            assert record["t"] <= record["t_end"]
            back, card, source, target = record["back"], record["card"], record["from"], record["to"]
            if target in ("spread", "leftover") and final is None:
                final = {b: {name: list(cards) for name, cards in own.items()} for b, own in places.items()}
            if source in places[back]:
                assert places[back][source][-1] == card, f"{card} is not on top of {back}'s {source}"
                places[back][source].pop()
            else:
                elsewhere[source].remove((card, back))
            if target in places[back]:
                places[back][target].append(card)
            else:
                elsewhere.setdefault(target, []).append((card, back))
    return final, places, elsewhere


@pytest.mark.parametrize(
    ("players", "seed", "rate", "advanced"),
    [(2, 1, 0.0, False), (4, 2, 0.05, False), (5, 9, 0.05, True), (12, 4, 0.02, False)],
)
def test_the_trace_replays_from_the_layout_to_the_final_state_and_the_post_round_table(players, seed, rate, advanced):
    sim = SimSettings(rules=RuleSettings(advanced_row=advanced), mistakes=MistakeRates.uniform(rate))
    result = Round(BACKS[:players], seed=seed, settings=sim).play()
    final, places, elsewhere = replay_trace(result)
    assert final == result.final
    centre = sum(result.centre.values())
    assert len(elsewhere["spread"]) == centre
    assert Counter(back for _, back in elsewhere["spread"]) == +Counter(result.centre)
    assert Counter(back for _, back in elsewhere.get("leftover", [])) == +Counter(result.leftover)
    assert all(not cards for name, cards in elsewhere.items() if name.startswith("centre:"))
    assert all(own["pile"] == [] for own in places.values())


def test_after_the_round_every_centre_card_is_turned_back_up_and_every_back_shows():
    result = Round(BACKS[:4], seed=6).play()
    spread = [r for r in result.trace if getattr(r, "target", None) == "spread"]
    assert spread and all(move.face == "down" for move in spread)
    assert min(move.t for move in spread) > result.duration
    # Spread cards overlap, but never lie exactly on one another: each back shows a strip.
    spots = Counter((round(m.placement.x), round(m.placement.y)) for m in spread)
    assert max(spots.values()) == 1
    leftovers = [r for r in result.trace if getattr(r, "target", None) == "leftover"]
    assert len(leftovers) == sum(result.leftover.values())
    scored = result.events[-1]
    assert scored.type == "round_scored" and scored.t > max(m.t_end for m in spread + leftovers)


def test_a_grouped_spread_of_many_cards_starts_new_lines_that_hide_no_strip_of_the_last():
    table = Table.for_players(2, row_size(2), backs=("a", "b"))
    cards = tuple((Card.parse(f"{colour}{n}"), "a") for colour in "rygb" for n in range(1, 11))[:30]
    stack = CentreStack(0, table.sites[0] if table.sites else table.seats[0].anchor, cards)
    moves = spread_centre(table, [stack], random.Random(0), 0.0)  # random.Random(0) draws the grouped style
    lines = [moves[i : i + LINE_LENGTH] for i in range(0, len(moves), LINE_LENGTH)]
    assert len(lines) == 2
    for a, b in itertools.product(lines[0], lines[1]):
        assert distance(a.placement, b.placement) >= CARD_HEIGHT_MM


def _leftover_moves(result):
    return [r for r in result.trace if getattr(r, "target", None) == "leftover"]


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 6), (12, 4)])
def test_leftovers_are_laid_back_up_by_default_so_the_referee_counts_them_by_their_backs(players, seed):
    result = Round(BACKS[:players], seed=seed).play()
    leftovers = _leftover_moves(result)
    assert len(leftovers) == sum(result.leftover.values()) > 0
    assert {move.face for move in leftovers} == {"down"}


def test_each_leftover_back_shows_a_strip_beside_the_last_one():
    result = Round(BACKS[:4], seed=6).play()
    by_owner: dict[str, list] = {}
    for move in _leftover_moves(result):
        by_owner.setdefault(move.back, []).append(move.placement)
    for placements in by_owner.values():
        gaps = [distance(a, b) for a, b in itertools.pairwise(placements)]
        assert all(CARD_WIDTH_MM / 3 < gap < CARD_WIDTH_MM for gap in gaps)


def test_players_lay_their_leftovers_each_their_own_way_at_steps_a_back_still_shows_at():
    result = Round(BACKS[:8], seed=4).play()
    by_owner: dict[str, list] = {}
    for move in _leftover_moves(result):
        by_owner.setdefault(move.back, []).append(move.placement)
    lines = [placements for placements in by_owner.values() if len(placements) >= 2]
    steps = [distance(line[0], line[1]) for line in lines]
    assert len(lines) >= 3 and max(steps) - min(steps) > 3.0  # not one hand's habit
    low, high = (2 * SPREAD_STEP_MM * share for share in LEFTOVER_STEP)
    assert all(low - 1.0 < step < high + 1.0 for step in steps)
    turns = {round(p.angle, 3) for line in lines for p in line}
    assert len(turns) > len(lines)  # cards of one line lie a little askew, not all alike


@pytest.mark.parametrize(("setting", "faces"), [("up", {"up"}), ("down", {"down"}), ("either", {"up", "down"})])
def test_the_leftovers_face_setting_chooses_which_side_shows(setting, faces):
    result = Round(BACKS[:12], seed=4, settings=SimSettings(leftovers_face=setting)).play()
    assert {move.face for move in _leftover_moves(result)} == faces


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 6), (12, 4)])
def test_after_the_round_the_only_backs_left_out_are_the_spreads_and_the_leftovers(players, seed):
    result = Round(BACKS[:players], seed=seed).play()
    _, places, _ = replay_trace(result)
    assert any(result.final[back]["hand"] for back in places)  # there was a hand to turn over
    assert all(own["hand"] == [] for own in places.values())
    turned = [r for r in result.trace if getattr(r, "source", None) == "hand" and r.t > result.duration]
    assert turned and {(move.target, move.face) for move in turned} == {("discard", "up")}


def test_a_table_that_keeps_its_hands_face_down_is_a_setting():
    result = Round(BACKS[:4], seed=6, settings=SimSettings(turn_hands_up=False)).play()
    _, places, _ = replay_trace(result)
    assert [own["hand"] for own in places.values()] == [result.final[back]["hand"] for back in places]


def test_an_unknown_leftovers_face_is_a_setup_error_naming_it():
    with pytest.raises(SetupError, match="sideways"):
        SimSettings(leftovers_face="sideways")


def test_moves_name_cards_in_the_notation_of_the_card_vocabulary():
    result = Round(BACKS[:3], seed=2).play()
    for record in result.trace_json()[1:]:
        if record["kind"] == "move":
            assert str(Card.parse(record["card"])) == record["card"]
            assert record["face"] in ("up", "down")
            assert len(record["placement"]) == 3

"""Naming the seats: a back read under a look-alike of another box is the free set of the box the table plays."""

from __future__ import annotations

import math
from dataclasses import replace

from referee.sightings import FrameSightings, Sighting
from referee.tracker import Referee
from referee.tracker.owners import SeatWatch
from referee.tracker.referee_session import RefereeSettings
from referee.tracker.seats import SeatSorter
from referee.tracker.synthetic import ScriptedTable

RED, BLACK, PINK = (0.0, 400.0), (0.0, -400.0), (400.0, 0.0)
"""The hand stacks of red-red, red-black and the red-pink player, whose back reads as the green box's purple."""


def _opening(pink_read_as: str, confidence: float, second: str | None) -> list[Sighting]:
    sure = [Sighting.back_at("red-red", RED, identity_confidence=0.95), Sighting.back_at("red-black", BLACK)]
    pink = Sighting.back_at(pink_read_as, PINK, identity_confidence=confidence, runner_up=second)
    return [*sure, pink, pink]  # the pink hand read in two frames of the opening


def test_a_lone_back_of_another_box_read_unsurely_is_the_free_set_it_came_second_to_of_a_box_played_here() -> None:
    seats = SeatSorter.from_opening(_opening("green-purple", 0.6, "red-pink"), middle=(0.0, 0.0))
    assert set(seats.owners) == {"red-red", "red-black", "red-pink"}
    assert seats.aliases == {"green-purple": "red-pink"}


def test_a_lone_back_of_another_box_read_surely_is_a_player_who_brought_their_own() -> None:
    seats = SeatSorter.from_opening(_opening("green-purple", 0.95, "red-pink"), middle=(0.0, 0.0))
    assert set(seats.owners) == {"red-red", "red-black", "green-purple"} and seats.aliases == {}


def test_a_runner_up_another_seat_owns_or_of_no_box_on_the_table_renames_nothing() -> None:
    taken = SeatSorter.from_opening(_opening("green-purple", 0.6, "red-red"), middle=(0.0, 0.0))
    elsewhere = SeatSorter.from_opening(_opening("green-purple", 0.6, "blue-purple"), middle=(0.0, 0.0))
    assert "green-purple" in taken.owners and "green-purple" in elsewhere.owners
    assert taken.aliases == elsewhere.aliases == {}


def test_the_referee_counts_the_cards_read_under_the_look_alike_for_the_seat_it_stands_for() -> None:
    seats = SeatSorter.from_opening(_opening("green-purple", 0.6, "red-pink"), middle=(0.0, 0.0))
    zone = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=("red-red", "red-black", "red-pink"))
    table = ScriptedTable(30.0)
    plays = [("r1", 0.0, RED), ("b1", 1.0, BLACK), ("g1", 2.0, PINK), ("g2", 3.0, PINK)]
    for card, t, _ in plays:
        table.put(t, card, {"r": (0.0, 0.0), "b": (150.0, 0.0), "g": (0.0, 150.0)}[card[0]])
    table.take_all(4.5)
    # one fan on the side where nobody sits, so that only the backs' names can tell whose cards they are
    for i, back in enumerate(("red-red", "red-black", "green-purple", "green-purple")):
        table.put_back(5.0, back, (-150.0 - i * 14.0, -30.0 + i * 14.0))
    for frame in table.frames(10.0):
        referee.update(frame)
    referee.finish()
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 1, "red-black": 1, "red-pink": 2}
    assert all(event.to_json().get("back") != "green-purple" for event in referee.events)


def test_at_a_table_showing_every_seat_a_back_no_player_owns_is_read_as_its_runner_up_when_that_is_a_players() -> None:
    hands = [Sighting.back_at("red-red", RED), Sighting.back_at("red-pink", BLACK)]
    seats = SeatSorter.from_opening(hands, middle=(0.0, 0.0))
    zone = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=("red-red", "red-pink"))
    table = ScriptedTable(30.0)
    for card, t in (("r1", 0.0), ("g1", 1.0), ("g2", 2.0), ("g3", 3.0)):
        table.put(t, card, {"r": (0.0, 0.0), "g": (0.0, 150.0)}[card[0]])
    table.take_all(4.5)
    for i, back in enumerate(("red-red", "green-fuchsia", "green-fuchsia", "green-fuchsia")):
        table.put_back(5.0, back, (-150.0 - i * 14.0, -30.0 + i * 14.0))
    for frame in table.frames(10.0):
        if frame is not None:  # the pink backs read as the green box's fuchsia, red-pink second
            misread = tuple(
                replace(s, back_runner_up="red-pink") if s.back == "green-fuchsia" else s for s in frame.sightings
            )
            frame = replace(frame, sightings=misread)
        referee.update(frame)
    referee.finish()
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 1, "red-pink": 3}


def test_a_hand_the_opening_could_not_read_and_play_read_as_a_look_alike_is_renamed_when_play_names_it() -> None:
    hands = [Sighting.back_at("red-red", RED), Sighting.back_at("red-black", BLACK), Sighting.back_at(None, PINK)]
    watch = SeatWatch(SeatSorter.from_opening(hands, middle=(0.0, 0.0)))
    for k in range(10):
        seen = Sighting.back_at("green-purple", (402.0, 3.0), identity_confidence=0.5, runner_up="red-pink")
        watch.add(FrameSightings(k * 0.5, k * 15, (seen,)))
    assert watch.learnt_aliases() == {"green-purple": "red-pink"}
    seats = watch.seats.with_hands_named(watch.learnt_owners(), aliases=watch.learnt_aliases())
    assert set(seats.owners) == {"red-red", "red-black", "red-pink"}
    assert seats.aliases == {"green-purple": "red-pink"}


def _hand_read_in_play(readings: list[tuple[str, str]]) -> SeatWatch:
    """red-red's and red-black's hands read at the opening, the third hand unread; then each glance in play reads
    the third hand as (back, runner-up), unsurely."""
    hands = [Sighting.back_at("red-red", RED), Sighting.back_at("red-black", BLACK), Sighting.back_at(None, PINK)]
    watch = SeatWatch(SeatSorter.from_opening(hands, middle=(0.0, 0.0)))
    for k, (back, second) in enumerate(readings):
        seen = Sighting.back_at(back, (402.0, 3.0), identity_confidence=0.5, runner_up=second)
        watch.add(FrameSightings(k * 0.5, k * 15, (seen,)))
    return watch


def test_a_hand_read_half_as_one_look_alike_half_as_the_other_is_named_by_the_two_together() -> None:
    # 7 of 12 readings "green-purple", 5 "red-pink", each the other's runner-up: neither alone is 60 % of them
    watch = _hand_read_in_play([("green-purple", "red-pink")] * 7 + [("red-pink", "green-purple")] * 5)
    assert watch.hand_owners()[2] == "green-purple"
    assert watch.learnt_aliases() == {"green-purple": "red-pink"}
    seats = watch.seats.with_hands_named(watch.learnt_owners(), aliases=watch.learnt_aliases())
    assert set(seats.owners) == {"red-red", "red-black", "red-pink"}


def test_a_hand_read_as_two_designs_not_mistaken_for_each_other_stays_unnamed() -> None:
    # the same split, but "green-purple" came second to "blue-purple": "red-pink" is a rival reading, not its twin
    watch = _hand_read_in_play([("green-purple", "blue-purple")] * 7 + [("red-pink", "green-purple")] * 5)
    assert watch.hand_owners()[2] is None


def test_a_hand_read_in_play_as_a_lone_back_of_another_box_is_the_one_set_the_table_leaves_free() -> None:
    # four hands, three of the red box read at the opening; the fourth, unread, reads in play as the green box's
    # green-green and red-black by turns, each the other's runner-up: red-black is taken, red-light-blue is left
    light_blue = (-400.0, 0.0)
    hands = [Sighting.back_at(b, p) for b, p in (("red-red", RED), ("red-black", BLACK), ("red-pink", PINK))]
    watch = SeatWatch(SeatSorter.from_opening([*hands, Sighting.back_at(None, light_blue)], middle=(0.0, 0.0)))
    for k, (back, second) in enumerate([("green-green", "red-black"), ("red-black", "green-green")] * 12):
        seen = Sighting.back_at(back, (-402.0, 3.0), identity_confidence=0.3, runner_up=second)
        watch.add(FrameSightings(k * 0.5, k * 15, (seen,)))
    assert "green-green" in watch.hand_owners()
    assert watch.learnt_aliases() == {"green-green": "red-light-blue"}
    seats = watch.seats.with_hands_named(watch.learnt_owners(), aliases=watch.learnt_aliases())
    assert set(seats.owners) == {"red-red", "red-black", "red-pink", "red-light-blue"}

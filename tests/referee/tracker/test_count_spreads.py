"""After the round: the seats learnt before play sort the cards laid out to count, and spreads are read whole."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.sightings import FrameSightings, Point, Quad, Sighting
from referee.tracker.counting import LineReader, SpreadCounter, cross_check
from referee.tracker.fan_length import LineLength, shingled_count
from referee.tracker.seats import SeatSorter

ZONE = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))


def _seat(owner: str | None, y: float) -> list[Sighting]:
    """One player's places on the line y (the row of faces and, at its end, the hand stack showing ``owner``)."""
    return [*(Sighting.face_at("g4", (x, y)) for x in (-140.0, -70.0, 0.0, 70.0)), Sighting.back_at(owner, (140.0, y))]


def _sorter() -> SeatSorter:
    return SeatSorter.from_opening([*_seat("red-red", 400.0), *_seat("blue-blue", -400.0)], (0.0, 0.0), ZONE)


def _frame(*sightings: Sighting, t: float = 60.0) -> FrameSightings:
    return FrameSightings(t, round(t * 30), tuple(sightings), ZONE)


def test_cards_laid_before_a_players_places_are_centre_cards_of_that_player_and_those_beyond_are_leftovers() -> None:
    sorter = _sorter()
    before = Sighting.back_at(None, (-100.0, 400.0 - 1.2 * CARD_HEIGHT_MM))
    beyond = Sighting.back_at("blue-blue", (-100.0, 400.0 + 1.15 * CARD_HEIGHT_MM))  # misread: the seat decides
    assert sorter(before, _frame(before)) == ("centre", "red-red")
    assert sorter(beyond, _frame(beyond)) == ("leftover", "red-red")
    far_side = Sighting.back_at(None, (50.0, -400.0 - 1.15 * CARD_HEIGHT_MM))
    assert sorter(far_side, _frame(far_side)) == ("leftover", "blue-blue")


def test_a_face_level_with_the_places_is_a_row_card_and_a_back_there_is_a_leftover() -> None:
    sorter = _sorter()
    row = Sighting.face_at("r5", (-70.0, 405.0))
    laid = Sighting.back_at("red-red", (-70.0, 405.0))
    assert sorter(row, _frame(row)) is None
    assert sorter(laid, _frame(laid)) == ("leftover", "red-red")


def test_a_row_card_read_as_a_back_now_and_then_is_no_leftover_but_a_back_read_as_a_face_now_and_then_is() -> None:
    """A red 7 lying in red-red's row, boxed as a back in 4 frames of 10 (read as a face in the other 6); a back
    laid level with the row, between two of its cards, boxed as a face in 3 frames of 10: only the back is
    counted."""
    row_card, face_of_it = Sighting.back_at("red-red", (-70.0, 405.0)), Sighting.face_at("r7", (-70.0, 405.0))
    laid, misread = Sighting.back_at("red-red", (35.0, 405.0)), Sighting.face_at("r2", (35.0, 405.0))
    frames = [
        _frame(row_card if k % 5 in (0, 2) else face_of_it, misread if k % 3 == 0 and k < 9 else laid, t=60.0 + k / 30)
        for k in range(10)
    ]
    assert _count(frames, _sorter())[1] == {"red-red": 1}


def test_a_row_card_boxed_as_a_back_in_every_frame_keeps_its_slot_and_is_no_leftover() -> None:
    """Row cards stay face up in their slots after the round: a back read in a slot where a face lay at the
    opening is the row card misread (seed 100805: a blue 6, 120 frames of 120), while a line laid out beyond the
    row is counted."""
    in_slot = Sighting.back_at("red-red", (73.0, 404.0))
    beyond = [Sighting.back_at("red-red", (x, 400.0 + 1.5 * CARD_HEIGHT_MM)) for x in (-20.0, 0.0, 20.0)]
    frames = [_frame(in_slot, *beyond, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter())[1] == {"red-red": 3}


def test_a_back_in_the_centre_zone_is_a_centre_card_whose_back_alone_names_its_owner() -> None:
    sorter = _sorter()
    centre = Sighting.back_at("blue-blue", (20.0, 30.0))
    assert sorter(centre, _frame(centre)) == ("centre", None)


def test_the_owners_are_the_backs_read_on_the_seats_before_play() -> None:
    assert set(_sorter().owners) == {"red-red", "blue-blue"}


def test_a_seat_whose_leftovers_would_lie_outside_the_picture_is_named() -> None:
    places = [*_seat("red-red", 400.0), *_seat("blue-blue", -400.0)]
    cut = ((-600.0, -600.0), (600.0, -600.0), (600.0, 450.0), (-600.0, 450.0))  # the picture ends past red's row
    assert SeatSorter.from_opening(places, (0.0, 0.0), ZONE, view=cut).leftovers_unseen() == ("red-red",)
    whole = ((-600.0, -600.0), (600.0, -600.0), (600.0, 600.0), (-600.0, 600.0))
    assert SeatSorter.from_opening(places, (0.0, 0.0), ZONE, view=whole).leftovers_unseen() == ()


def test_a_seat_whose_leftover_line_would_run_past_the_pictures_side_is_named_too() -> None:
    places = [*_seat("red-red", 400.0), *_seat("blue-blue", -400.0)]
    side = ((-90.0, -600.0), (600.0, -600.0), (600.0, 600.0), (-90.0, 600.0))  # a long line's left end is cut
    assert SeatSorter.from_opening(places, (0.0, 0.0), ZONE, view=side).leftovers_unseen() == ("blue-blue", "red-red")
    wider = ((-200.0, -600.0), (600.0, -600.0), (600.0, 600.0), (-200.0, 600.0))
    assert SeatSorter.from_opening(places, (0.0, 0.0), ZONE, view=wider).leftovers_unseen() == ()


def test_a_hand_stack_read_unsurely_in_two_opening_frames_names_its_owner_where_one_reading_does_not() -> None:
    # a hand stack cut by the picture's edge reads at about 0.4: below what one reading needs
    once = [*_seat("red-red", 400.0)[:-1], Sighting.back_at("red-pink", (140.0, 400.0), identity_confidence=0.39)]
    assert SeatSorter.from_opening(once, (0.0, 0.0), ZONE).owners == ()
    again = Sighting.back_at("red-pink", (143.0, 398.0), identity_confidence=0.37)
    assert SeatSorter.from_opening([*once, again], (0.0, 0.0), ZONE).owners == ("red-pink",)
    # two unsure readings that disagree name nobody
    other = Sighting.back_at("blue-blue", (143.0, 398.0), identity_confidence=0.37)
    assert SeatSorter.from_opening([*once, other], (0.0, 0.0), ZONE).owners == ()


def test_a_back_read_at_two_seats_across_the_table_owns_only_the_one_where_it_was_read_surest() -> None:
    # the far seat's hand stack, cut by the picture's edge, misread as the near seat's back
    near = _seat("red-red", 400.0)
    far = [*_seat("red-red", -400.0)[:-1], Sighting.back_at("red-red", (140.0, -400.0), identity_confidence=0.6)]
    sorter = SeatSorter.from_opening([*near, *far], (0.0, 0.0), ZONE)
    assert sorter.owners == ("red-red",)
    assert sorter.owner_at((0.0, 300.0)) == "red-red"
    assert sorter.owner_at((0.0, -300.0)) is None


def test_a_place_whose_likeliest_back_owns_another_seat_takes_its_next_back() -> None:
    # seed 99602, four players: the far hand stack, cut by the edge, read "red-red" (0.32 + 0.22) and "red-pink"
    # (0.5) while red-red's own read 0.97 four times; each player has one deck, so the far one is red-pink's
    near = _seat("red-red", 400.0)
    cut = [
        Sighting.back_at("red-red", (140.0, -400.0), identity_confidence=0.32),
        Sighting.back_at("red-pink", (142.0, -401.0), identity_confidence=0.5),
        Sighting.back_at("red-red", (139.0, -399.0), identity_confidence=0.22),
    ]
    sorter = SeatSorter.from_opening([*near, *cut], (0.0, 0.0), ZONE)
    assert set(sorter.owners) == {"red-red", "red-pink"}
    assert sorter.owner_at((0.0, -300.0)) == "red-pink"
    # the next back must be read as surely as any owner: a passing 0.3 names nobody
    weak = [*cut[:1], Sighting.back_at("red-pink", (142.0, -401.0), identity_confidence=0.3), cut[2]]
    assert SeatSorter.from_opening([*near, *weak], (0.0, 0.0), ZONE).owner_at((0.0, -300.0)) is None


def test_a_card_between_two_seats_about_as_far_from_both_has_no_owner() -> None:
    places = [Sighting.back_at("red-red", (300.0, 300.0)), Sighting.back_at("blue-blue", (-300.0, 300.0))]
    sorter = SeatSorter.from_opening(places, (0.0, 0.0), ZONE)
    between = Sighting.back_at("blue-blue", (0.0, 450.0))
    assert sorter(between, _frame(between))[1] is None  # type: ignore[index]


def _count(
    frames: list[FrameSightings], sorter: SeatSorter | None = None, centre_total: int | None = None
) -> tuple[dict[str, int], dict[str, int]]:
    counter = SpreadCounter(sorter)
    for frame in frames:
        counter.add(frame)
    count = counter.count(centre_total)
    return count.centre, count.leftover


def test_a_fan_laid_before_a_player_is_counted_whole_for_that_player_though_its_strips_read_as_other_backs() -> None:
    y = 400.0 - 1.2 * CARD_HEIGHT_MM
    misreads = ["red-red", "blue-blue", "red-red", None, "red-red", "blue-blue", "red-red", "red-red"]
    fan = [Sighting.back_at(back, (-100.0 + 14.0 * i, y)) for i, back in enumerate(misreads)]
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"red-red": 8}, {})


def test_without_an_owner_a_fan_outside_the_centre_takes_the_backs_read_most_on_it() -> None:
    fan = [Sighting.back_at(b, (-60.0 + 14.0 * i, 600.0)) for i, b in enumerate(["pink", "pink", "black", "pink"])]
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames) == ({}, {"pink": 4})


def test_a_centre_fan_running_out_of_the_zone_is_the_centre_spread_each_card_by_its_own_back() -> None:
    backs = ["red-red", "blue-blue", "red-red", "blue-blue", "blue-blue"]
    fan = [Sighting.back_at(b, (200.0 + 14.0 * i, 0.0)) for i, b in enumerate(backs)]  # 200..256 mm: leaves the zone
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames) == ({"blue-blue": 3, "red-red": 2}, {})


def test_two_fans_a_card_height_apart_are_two_spreads() -> None:
    near = [Sighting.back_at("pink", (-60.0 + 14.0 * i, 500.0)) for i in range(3)]
    far = [Sighting.back_at("black", (-60.0 + 14.0 * i, 500.0 + CARD_HEIGHT_MM)) for i in range(3)]
    frames = [_frame(*near, *far, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames) == ({}, {"black": 3, "pink": 3})


def test_a_centre_fan_read_alike_as_a_back_no_seat_showed_is_the_fan_of_the_seat_it_lies_before() -> None:
    # the centre handed back sorted, one fan lying in the centre zone before red-red's seat; its strips misread
    fan = [Sighting.back_at("blue-green", (-60.0 + 14.0 * i, 200.0)) for i in range(6)]
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"red-red": 6}, {})


def test_a_centre_fan_handed_back_in_front_of_a_seat_is_its_owners_though_its_strips_read_as_another_back() -> None:
    # the rules' sorting: each player's centre cards in a line before them (seed 99302, eight players: red-pink's
    # line read "blue-purple" strip by strip)
    reads = ["blue-blue", "blue-blue", "red-red", "blue-blue", "blue-blue"]
    line = [Sighting.back_at(b, (-28.0 + 14.0 * i, 244.0)) for i, b in enumerate(reads)]
    assert _count([_frame(*line, t=60.0 + k / 30) for k in range(10)], _sorter())[0] == {"red-red": 5}


def test_a_centre_fan_running_towards_a_seat_is_a_stack_fanned_where_it_lay_card_by_card() -> None:
    reads = ["blue-blue", "blue-blue", "red-red", "blue-blue", "blue-blue"]
    fan = [Sighting.back_at(b, (0.0, 180.0 + 14.0 * i), angle=90.0) for i, b in enumerate(reads)]
    assert _count([_frame(*fan, t=60.0 + k / 30) for k in range(10)], _sorter())[0] == {"blue-blue": 4, "red-red": 1}


def test_a_centre_fan_of_backs_the_seats_showed_counts_card_by_card() -> None:
    backs = ["red-red", "blue-blue", "blue-blue", "red-red", "blue-blue"]
    fan = [Sighting.back_at(b, (-60.0 + 14.0 * i, 200.0)) for i, b in enumerate(backs)]
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"blue-blue": 3, "red-red": 2}, {})


def test_a_centre_fan_of_several_backs_keeps_its_cards_outlines_for_the_picture_to_read_it_again() -> None:
    # a stack fanned where it lay, 14 mm a card along the card's length; a lone card beside it
    backs = ["red-red", "blue-blue", "blue-blue", "red-red", "blue-blue"]
    fan = [Sighting.back_at(b, (-60.0 + 14.0 * i, 200.0), angle=90.0) for i, b in enumerate(backs)]
    lone = Sighting.back_at("red-red", (150.0, -100.0))
    counter = SpreadCounter(_sorter())
    for k in range(10):
        counter.add(_frame(*fan, lone, t=60.0 + k / 30))
    count = counter.count()
    mixed = next(fan for fan in count.fans if len(fan.points) == len(backs))
    assert len(mixed.quads) >= len(backs) and mixed.card_mm == CARD_HEIGHT_MM
    assert len(count.centre_quads) == len(backs) + 1  # the lone card's outline too: it may be the fan's whole card


def test_a_centre_card_read_as_a_back_no_seat_showed_takes_its_spreads_owner_back() -> None:
    backs = ["red-red", "blue-purple", "red-red", None, "blue-purple", "red-red"]
    fan = [Sighting.back_at(b, (-60.0 + 14.0 * i, 200.0)) for i, b in enumerate(backs)]
    frames = [_frame(*fan, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"red-red": 6}, {})


def _fans_with_strips_missed() -> list[FrameSightings]:
    """Two centre fans laid at a 13 mm step, of 9 and 4 cards; the detector found only some strips of each."""
    long = [Sighting.back_at("red-red", (-150.0 + 13.0 * i, 150.0)) for i in (0, 1, 3, 4, 7, 8)]
    short = [Sighting.back_at("blue-blue", (-50.0 + 13.0 * i, -150.0)) for i in (0, 3)]
    return [_frame(*long, *short, t=60.0 + k / 30) for k in range(10)]


def test_centre_fans_whose_strips_were_missed_are_counted_by_their_lengths_to_the_stacks_total() -> None:
    frames = _fans_with_strips_missed()
    assert _count(frames, _sorter()) == ({"blue-blue": 2, "red-red": 6}, {})  # card by card
    assert _count(frames, _sorter(), centre_total=13) == ({"blue-blue": 4, "red-red": 9}, {})


def _handed_back_fans(picture: LineReader | None, total: int) -> dict[str, int]:
    """The centre handed back sorted: a fan before each seat, nine boxes on red's (a strip boxed twice here and
    there), four on blue's (a strip missed)."""
    red = [Sighting.back_at("red-red", (-40.0 + 11.0 * i, 244.0)) for i in range(9)]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 14.0 * i, -244.0)) for i in range(4)]
    counter = SpreadCounter(_sorter(), line_reader=picture)
    for k in range(10):
        counter.add(_frame(*red, *blue, t=60.0 + k / 30))
    return counter.count(total).centre


def _fans_in_the_picture(quads: Sequence[Quad], card: float) -> LineLength:
    """The picture: red's fan is 8 cards at 14 mm, blue's 5 at 13 mm, their edges repeating at the step and twice it."""
    n, step = (8, 14.0) if sum(y for quad in quads for _, y in quad) > 0 else (5, 13.0)
    return LineLength(card + (n - 1) * step, ((step, 0.6), (2 * step, 0.7)))


def test_fans_handed_back_sorted_are_counted_by_their_extents_in_the_picture_to_the_stacks_total() -> None:
    assert _handed_back_fans(None, 13) == {"blue-blue": 4, "red-red": 9}  # by the boxes
    assert _handed_back_fans(_fans_in_the_picture, 13) == {"blue-blue": 5, "red-red": 8}


def test_fans_whose_extents_fit_no_count_adding_up_to_the_total_are_counted_as_before() -> None:
    assert _handed_back_fans(_fans_in_the_picture, 40) == _handed_back_fans(None, 40)


def test_a_card_left_apart_from_its_fan_and_read_as_its_back_is_that_fans_and_the_fans_are_still_measured() -> None:
    """The centre handed back sorted, and one red-red card lying 50 mm beyond red's fan, boxed twice: too short a
    spread to show whose it is by where it lies, it is red's by its back, so every spread is one player's."""
    red = [Sighting.back_at("red-red", (-40.0 + 11.0 * i, 244.0)) for i in range(9)]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 14.0 * i, -244.0)) for i in range(4)]
    apart = [Sighting.back_at("red-red", (100.0, 244.0)), Sighting.back_at("red-red", (100.0, 251.0))]

    def picture(quads: Sequence[Quad], card: float) -> LineLength | None:
        return None if min(x for quad in quads for x, _ in quad) > 60.0 else _fans_in_the_picture(quads, card)

    counter = SpreadCounter(_sorter(), line_reader=picture)
    for k in range(10):
        counter.add(_frame(*red, *blue, *apart, t=60.0 + k / 30))
    count = counter.count(14)
    assert count.centre_measured
    assert count.centre == {"blue-blue": 5, "red-red": 9}


def _picture_of(fans: dict[str, tuple[int, float]]) -> LineReader:
    """The picture of fans of cards side by side: each fan's cards and step by the back its boxes read, found by
    where the boxes lie (the key's first letter: r above the middle, b below, g right of it); the extent the
    picture shows is the fan's own, whatever the card's extent along it is taken to be."""

    def read(quads: Sequence[Quad], card: float) -> LineLength:
        x = sum(px for quad in quads for px, _ in quad) / (4 * len(quads))
        y = sum(py for quad in quads for _, py in quad) / (4 * len(quads))
        key = "g" if x > 120.0 else "r" if y > 0 else "b"
        n, step = next(v for k, v in fans.items() if k.startswith(key))
        return LineLength(CARD_WIDTH_MM + (n - 1) * step, ((step, 0.6), (2 * step, 0.7)))

    return read


def _fans_and_an_unseen_seats(across: bool) -> tuple[dict[str, int], bool]:
    """The centre handed back sorted before red's and blue's seats, and a third fan read green-green in the zone
    before a seat the picture does not show (no places there to hand it back to): running across the line to the
    middle as a handed-back fan does (``across``), or towards the middle as a stack fanned where it lay."""
    red = [Sighting.back_at("red-red", (-40.0 + 11.0 * i, 244.0)) for i in range(8)]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 14.0 * i, -244.0)) for i in range(5)]
    along = [(200.0, -30.0 + 14.0 * i) for i in range(5)] if across else [(140.0 + 14.0 * i, 0.0) for i in range(5)]
    green = [Sighting.back_at("green-green", point, angle=90.0 if across else 0.0) for point in along]
    picture = _picture_of({"r": (8, 14.0), "b": (5, 13.0), "g": (6, 12.0)})
    counter = SpreadCounter(_sorter(), line_reader=picture)
    for k in range(10):
        counter.add(_frame(*red, *blue, *green, t=60.0 + k / 30))
    count = counter.count(19)
    return count.centre, count.centre_measured


def test_a_fan_read_alike_before_a_seat_the_picture_does_not_show_is_its_backs_and_every_fan_is_measured() -> None:
    assert _fans_and_an_unseen_seats(across=True) == ({"blue-blue": 5, "green-green": 6, "red-red": 8}, True)


def test_a_fan_read_alike_running_towards_the_middle_is_a_stack_fanned_where_it_lay_and_nothing_is_measured() -> None:
    assert not _fans_and_an_unseen_seats(across=False)[1]


def test_a_fan_whose_every_card_the_pictures_edge_cuts_is_measured_as_cards_side_by_side() -> None:
    """Blue's fan handed back along the picture's lower edge (y = -280 on the table): its cards, centred on
    y = -260, show only the 65.5 mm of them above the edge, as cards laid end to end along the fan would; it is
    still a fan of cards side by side."""
    view = ((-600.0, -280.0), (600.0, -280.0), (600.0, 600.0), (-600.0, 600.0))
    sorter = SeatSorter.from_opening([*_seat("red-red", 400.0), *_seat("blue-blue", -400.0)], (0.0, 0.0), ZONE, view)
    red = [Sighting.back_at("red-red", (-40.0 + 11.0 * i, 244.0)) for i in range(8)]
    top = -260.0 + CARD_HEIGHT_MM / 2
    shown = top - (-280.0)
    blue = [
        Sighting.back_at("blue-blue", (-20.0 + 13.0 * i, top - shown / 2), size=(CARD_WIDTH_MM, shown))
        for i in range(5)
    ]
    counter = SpreadCounter(sorter, line_reader=_picture_of({"r": (8, 14.0), "b": (5, 13.0)}))
    for k in range(10):
        counter.add(_frame(*red, *blue, t=60.0 + k / 30))
    count = counter.count(13)
    assert count.centre_measured
    assert count.centre == {"blue-blue": 5, "red-red": 8}


def test_a_fan_the_pictures_edge_cuts_off_holds_the_cards_the_others_extents_leave_of_the_total() -> None:
    """The centre handed back sorted; a third seat's fan runs out of the picture past its right edge (x = 260 on
    the table), one card's corner of it showing, read green-green. Red's fan (8 cards at 14 mm, one strip missed)
    and blue's (5 at 13 mm) are measured; of the 19 the stacks held, the 6 their edges leave are the third's."""
    view = ((-600.0, -600.0), (260.0, -600.0), (260.0, 600.0), (-600.0, 600.0))
    sorter = SeatSorter.from_opening([*_seat("red-red", 400.0), *_seat("blue-blue", -400.0)], (0.0, 0.0), ZONE, view)
    red = [Sighting.back_at("red-red", (-40.0 + 14.0 * i, 244.0)) for i in range(8) if i != 3]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 13.0 * i, -244.0)) for i in range(5)]
    corner = Sighting.back_at("green-green", (240.0, 0.0), size=(40.0, CARD_HEIGHT_MM))
    counter = SpreadCounter(sorter, line_reader=_picture_of({"r": (8, 14.0), "b": (5, 13.0)}))
    for k in range(10):
        counter.add(_frame(*red, *blue, corner, t=60.0 + k / 30))
    count = counter.count(19)
    assert count.centre_measured
    assert count.centre == {"blue-blue": 5, "green-green": 6, "red-red": 8}


def test_a_players_fan_cut_in_two_by_strips_missed_in_its_middle_is_measured_once_whole() -> None:
    """Red's fan of 11 cards at 13 mm, its 7th to 9th strips not boxed: two spreads along one line, each of whose
    colours the picture runs the whole fan's length (seed 101027, two players on a red check cloth: red-red's fan
    of 11 measured 11 and 3)."""
    red = [Sighting.back_at("red-red", (-50.0 + 13.0 * i, 244.0)) for i in range(11) if i not in (6, 7, 8)]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 13.0 * i, -244.0)) for i in range(5)]
    counter = SpreadCounter(_sorter(), line_reader=_picture_of({"r": (11, 13.0), "b": (5, 13.0)}))
    for k in range(10):
        counter.add(_frame(*red, *blue, t=60.0 + k / 30))
    count = counter.count(16)
    assert count.centre_measured
    assert count.centre == {"blue-blue": 5, "red-red": 11}


def test_two_cards_lying_apart_by_a_players_fan_count_as_two_not_as_their_extent_says() -> None:
    """The centre handed back sorted, and two red-red cards 10 mm apart lying off red's fan: too few to show a
    step, they hold the cards boxed, and the fans are measured to the rest of the total (seed 101073, two players:
    two such cards measured as three from their boxes' ends)."""
    red = [Sighting.back_at("red-red", (-40.0 + 14.0 * i, 244.0)) for i in range(8)]
    blue = [Sighting.back_at("blue-blue", (-20.0 + 13.0 * i, -244.0)) for i in range(5)]
    apart = [Sighting.back_at("red-red", (x, 150.0)) for x in (60.0, 70.0)]
    counter = SpreadCounter(_sorter(), line_reader=_picture_of({"r": (8, 14.0), "b": (5, 13.0)}))
    for k in range(10):
        counter.add(_frame(*red, *blue, *apart, t=60.0 + k / 30))
    count = counter.count(15)
    assert count.centre_measured
    assert count.centre == {"blue-blue": 5, "red-red": 10}


def test_a_fitted_centre_count_says_how_many_cards_were_seen_one_by_one() -> None:
    counter = SpreadCounter(_sorter())
    for frame in _fans_with_strips_missed():
        counter.add(frame)
    count = counter.count(13)
    assert (count.centre_total, count.centre_seen) == (13, 8)
    [warning] = cross_check(count, [])[1:]
    assert "showed 8 cards one by one" in warning.message


def test_lengths_that_fit_no_step_leave_the_count_card_by_card() -> None:
    # two single cards far apart cannot hold the 6 cards the stacks tell: no card is invented
    frames = [_frame(Sighting.back_at("red-red", (-100.0, 150.0)), Sighting.back_at("blue-blue", (100.0, -150.0)))]
    frames = [FrameSightings(60.0 + k / 30, 1800 + k, f.sightings, ZONE) for k in range(10) for f in frames]
    assert _count(frames, _sorter(), centre_total=6) == ({"blue-blue": 1, "red-red": 1}, {})


def test_a_centre_fan_seen_in_part_is_shared_out_to_the_stacks_total_as_its_backs_were_read() -> None:
    # one mixed fan at a 13 mm step, one strip in three found: too few to trust its length, not too few to say
    # which backs it holds (two players, seeds 99001 and 99302: 16 of 35 and 11 of 24 cards seen)
    backs = ["red-red", "red-red", "blue-blue", "red-red"]
    fan = [Sighting.back_at(b, (-100.0 + 39.0 * i, 150.0)) for i, b in enumerate(backs)]
    counter = SpreadCounter(_sorter())
    for k in range(10):
        counter.add(_frame(*fan, t=60.0 + k / 30))
    count = counter.count(12)
    assert count.centre == {"blue-blue": 3, "red-red": 9}
    [warning] = cross_check(count, [])[1:]
    assert "showed 4 cards one by one; the other 8 of the stacks' 12 were shared out" in warning.message


def test_leftover_fans_are_counted_card_by_card_whatever_the_centre_total() -> None:
    fan = [Sighting.back_at("red-red", (-100.0 + 26.0 * i, 400.0 + 1.2 * CARD_HEIGHT_MM)) for i in range(4)]
    centre = [Sighting.back_at("red-red", (-60.0 + 13.0 * i, 150.0)) for i in range(3)]
    frames = [_frame(*fan, *centre, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter(), centre_total=3) == ({"red-red": 3}, {"red-red": 4})


def test_a_leftover_line_read_as_another_seats_back_is_the_line_of_the_seat_it_lies_before() -> None:
    # a seat whose hand went unread in play, named at the count: its leftovers were read as red-red's all along
    # (a look-alike on a dark table; seed 119002, four players: red-pink's 7 counted red-red's)
    below = [
        *(Sighting.face_at("g4", (x, -400.0)) for x in (-70.0, 0.0, 70.0, 140.0)),
        Sighting.back_at(None, (-140.0, -400.0)),
    ]
    seats = SeatSorter.from_opening([*_seat("red-red", 400.0), *below], (0.0, 0.0), ZONE)
    seats = SeatSorter(seats.places, seats.middle, turn=1)  # each row runs from its hand the way the seats turn
    line = [Sighting.back_at("red-red", (-100.0 + 26.0 * i, -400.0 - 1.2 * CARD_HEIGHT_MM)) for i in range(4)]
    counter = SpreadCounter(seats)
    for k in range(10):
        counter.add(_frame(*line, t=60.0 + k / 30))
    assert counter.count().leftover == {"red-red": 4}  # nobody's seat, as far as the count knows
    (unread,) = [hand for hand in seats.hands() if hand.owner is None]
    counter.sorter = seats.with_hands_named({(unread.radius, unread.angle): "blue-blue"})
    assert counter.count().leftover == {"blue-blue": 4}


def test_a_lone_card_before_no_seat_at_a_table_showing_every_seat_is_a_centre_card_strayed() -> None:
    # players lay their leftovers before them: a card between the two seats is a fan's card cut from it (seed
    # 118004, two players: a fan's whole card where the picture's edge lost its strips, counted a leftover)
    hands = [Sighting.back_at("red-red", (0.0, 400.0)), Sighting.back_at("blue-blue", (0.0, -400.0))]
    seats = SeatSorter.from_opening(hands, (0.0, 0.0), ZONE)
    stray = Sighting.back_at("blue-blue", (400.0, 0.0))
    assert _count([_frame(stray, t=60.0 + k / 30) for k in range(10)], seats) == ({"blue-blue": 1}, {})
    # before a seat it is a leftover, as is a line of several anywhere, or a lone card where a seat may be unseen
    before = Sighting.back_at("blue-blue", (0.0, -400.0 - 1.2 * CARD_HEIGHT_MM))
    assert _count([_frame(before, t=60.0 + k / 30) for k in range(10)], seats) == ({}, {"blue-blue": 1})
    line = [Sighting.back_at("blue-blue", (400.0, -60.0 + 26.0 * i)) for i in range(3)]
    assert _count([_frame(*line, t=60.0 + k / 30) for k in range(10)], seats) == ({}, {"blue-blue": 3})
    one_seat = SeatSorter.from_opening(hands[:1], (0.0, 0.0), ZONE)
    assert _count([_frame(stray, t=60.0 + k / 30) for k in range(10)], one_seat) == ({}, {"blue-blue": 1})


def test_a_leftover_line_boxed_twice_here_and_there_is_counted_by_its_length() -> None:
    # seven cards laid each half over the last (28 mm), three of them also boxed across two strips (10 mm off)
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    xs = [-90.0 + 28.0 * i for i in range(7)]
    boxes = [*xs, xs[1] + 10.0, xs[3] + 10.0, xs[5] + 10.0]
    frames = [_frame(*(Sighting.back_at("red-red", (x, y)) for x in boxes), t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({}, {"red-red": 7})


def test_a_fans_top_card_lying_whole_along_it_is_of_the_fan_though_its_middle_lies_far_from_the_last_strip() -> None:
    # a stack fanned where it lay, running out of the centre zone: four strips 12 mm apart, then its top card
    # lying whole along the fan, its middle 50 mm past the last strip's (half a card's length)
    strips = [Sighting.back_at("red-red", (180.0 + 12.0 * i, 0.0), angle=90.0) for i in range(4)]
    top = Sighting.back_at("red-red", (216.0 + 50.0, 0.0), angle=90.0)
    frames = [_frame(*strips, top, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"red-red": 5}, {})


def test_a_lines_top_card_boxed_twice_lies_on_the_card_below_and_is_of_the_line() -> None:
    # a leftover line laid at a 24 mm step: four cards, then the top card, boxed twice (10 mm apart), its middle
    # 43 mm past the last one's, its outline over a quarter of that card's (the sample round's red-red line)
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    line = [Sighting.back_at("red-red", (24.0 * i, y)) for i in range(4)]
    top = [Sighting.back_at("red-red", (115.0, y)), Sighting.back_at("red-red", (125.0, y))]
    counter = SpreadCounter(_sorter())
    for k in range(10):
        counter.add(_frame(*line, *top, t=60.0 + k / 30))
    assert [sum(spread.backs.values()) for spread in counter.laid_out()] == [6]


def test_two_lines_lying_side_by_side_stay_two() -> None:
    # eight players' leftover lines, a card's width apart: no card of one is left alone on the other
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    first = [Sighting.back_at("red-red", (24.0 * i, y)) for i in range(3)]
    second = [Sighting.back_at("blue-blue", (150.0 + 24.0 * i, y)) for i in range(3)]
    counter = SpreadCounter(_sorter())
    for k in range(10):
        counter.add(_frame(*first, *second, t=60.0 + k / 30))
    assert sorted(sum(spread.backs.values()) for spread in counter.laid_out()) == [3, 3]


def _line_frames(xs: list[float]) -> list[FrameSightings]:
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    return [_frame(*(Sighting.back_at("red-red", (x, y)) for x in xs), t=60.0 + k / 30) for k in range(10)]


def _counted_with(reader: LineReader, frames: list[FrameSightings]) -> dict[str, int]:
    counter = SpreadCounter(_sorter(), line_reader=reader)
    for frame in frames:
        counter.add(frame)
    return counter.count().leftover


def test_a_leftover_line_the_picture_measures_is_counted_by_its_extent_and_step_not_by_its_boxes() -> None:
    # nine boxes on a line of six cards (each card boxed by its strip and by its outline, here and there): the
    # picture says the line runs 204 mm, its edges repeating every 29 mm (and every 58 mm, every second edge)
    asked: list[tuple[int, float]] = []

    def picture(quads: Sequence[Quad], card: float) -> LineLength:
        asked.append((len(quads), card))
        return LineLength(204.0, ((14.5, 0.3), (29.0, 0.7), (58.0, 0.5)))

    boxes = [-55.0, -48.0, -39.0, -19.0, -11.0, 12.0, 24.0, 50.0, 68.0]
    assert _counted_with(picture, _line_frames(boxes)) == {"red-red": 6}
    assert asked and asked[-1][1] == CARD_WIDTH_MM  # upright cards side by side: a card's width runs along the line


def test_a_leftover_line_the_picture_cannot_measure_is_counted_by_its_spots() -> None:
    xs = [-90.0 + 28.0 * i for i in range(7)]
    assert _counted_with(lambda quads, card: None, _line_frames(xs)) == {"red-red": 7}


def test_a_measure_that_disagrees_wildly_with_the_boxes_is_not_believed() -> None:
    # a line of four boxes the picture would make fifteen cards of (a stripe pattern taken for the step)
    xs = [-90.0 + 28.0 * i for i in range(4)]
    stripes = LineLength(59.0 + 14 * 6.0, ((6.0, 0.9),))
    assert _counted_with(lambda quads, card: stripes, _line_frames(xs)) == {"red-red": 4}


def _lone_card_picture(extent_by_card: dict[float, float], asked: list[Point | None]) -> LineReader:
    """A picture of a leftover line whose one box the detector found: the extent it shows along the line for the
    card's extent asked with (which sets how far out the table's colours are taken)."""

    def picture(quads: Sequence[Quad], card: float, along: Point | None = None) -> LineLength:
        asked.append(along)
        return LineLength(extent_by_card.get(card, extent_by_card[0.0]), ())

    return picture


def test_a_leftover_line_boxed_as_one_card_that_the_picture_shows_a_strip_longer_holds_two() -> None:
    # red-red's two leftover cards, the second's 26 mm strip under the first never boxed: measured along the
    # seat's edge of the table (the line from the middle runs across it), whichever way the table is sampled
    asked: list[Point | None] = []
    reader = _lone_card_picture({0.0: CARD_WIDTH_MM + 26.0}, asked)
    assert _counted_with(reader, _line_frames([30.0])) == {"red-red": 2}
    assert asked and all(a is not None and abs(a[1]) < 0.1 * abs(a[0]) for a in asked)  # along the table's edge


def test_a_line_its_boxes_count_short_holds_at_least_the_cards_that_run_as_far_as_the_picture_shows() -> None:
    # two boxes 30 mm apart on a line the picture shows 113 mm long with no step repeating clearly: two cards
    # cannot run that far each partly over the last (one would step 54 mm); a third's strip went unboxed
    weak = LineLength(CARD_WIDTH_MM + 54.0, ((26.5, 0.2),))
    assert _counted_with(lambda quads, card, along=None: weak, _line_frames([30.0, 60.0])) == {"red-red": 3}
    pale = LineLength(CARD_WIDTH_MM + 54.0, ((26.5, 0.2),), seen=False)  # its extent not bounded by the table
    assert _counted_with(lambda quads, card, along=None: pale, _line_frames([30.0, 60.0])) == {"red-red": 2}


def test_a_line_its_boxes_count_long_holds_no_more_cards_than_the_picture_has_room_for() -> None:
    # three boxes 14 mm apart (one card boxed by its strip and by its whole outline) on a line the picture shows
    # 86 mm long, no step repeating clearly (seed 120004, four players: red-black's two leftovers counted three):
    # a third card would lie 14 mm from the next, closer than leftovers are laid
    short = LineLength(CARD_WIDTH_MM + 27.4, ((17.9, 0.17), (28.7, 0.24)))
    assert _counted_with(lambda quads, card, along=None: short, _line_frames([30.0, 44.0, 58.0])) == {"red-red": 2}
    pale = LineLength(CARD_WIDTH_MM + 27.4, ((17.9, 0.17), (28.7, 0.24)), seen=False)  # only its boxes' ends
    assert _counted_with(lambda quads, card, along=None: pale, _line_frames([30.0, 44.0, 58.0])) == {"red-red": 3}


def test_a_leftover_card_whose_rim_runs_on_into_a_cloth_like_it_stays_one() -> None:
    # a white-rimmed card on white dots: the run of non-table colours depends on where the table is sampled
    wobbly = _lone_card_picture({CARD_WIDTH_MM: CARD_WIDTH_MM + 20.0, 0.0: CARD_WIDTH_MM - 2.0}, [])
    assert _counted_with(wobbly, _line_frames([30.0])) == {"red-red": 1}
    alone = _lone_card_picture({0.0: CARD_WIDTH_MM + 1.5}, [])
    assert _counted_with(alone, _line_frames([30.0])) == {"red-red": 1}


def test_the_step_is_the_candidate_repeating_most_strongly_unless_it_leaves_part_of_a_card_over() -> None:
    card = CARD_WIDTH_MM
    line = LineLength(card + 5 * 20.0, ((10.0, 0.35), (20.0, 0.7), (40.0, 0.45)))
    assert shingled_count(line, card) == 6
    # the strongest repetition, every 23 mm, leaves 0.35 of a step over; 20 mm fits whole
    uneven = LineLength(card + 5 * 20.0, ((20.0, 0.6), (23.0, 0.7)))
    assert shingled_count(uneven, card) == 6
    assert shingled_count(LineLength(card + 2.0, ()), card) == 1  # no longer than a card: one card
    assert shingled_count(LineLength(card / 2, ((20.0, 0.9),)), card) is None  # shorter than a card: no line


def test_a_back_no_seat_showed_read_clearly_on_cards_of_several_spreads_is_a_players_all_the_same() -> None:
    # a third player sat where the picture cuts off: their hand stack was never seen, their centre cards were
    backs = ["red-red", "red-pink", "blue-blue", "red-pink"]
    fans = [
        Sighting.back_at(b, (-150.0 + 14.0 * i, y)) for y in (120.0, -120.0) for i, b in enumerate(backs)
    ]  # two fans a card height and more apart, each holding two red-pink cards
    frames = [_frame(*fans, t=60.0 + k / 30) for k in range(10)]
    assert _count(frames, _sorter()) == ({"blue-blue": 2, "red-pink": 4, "red-red": 2}, {})


def test_a_back_no_seat_showed_read_plainly_on_three_cards_of_a_fan_laid_out_last_is_a_players_too() -> None:
    # one mixed fan only, laid out after the other had lain a while: its red-pink cards have gathered fewer votes
    # than the first fan's cards, but as many per frame (seed 107005, eight players: a cut-off seat's 14 cards
    # counted as another player's)
    first = [Sighting.back_at(b, (-150.0 + 14.0 * i, 120.0)) for i, b in enumerate(["red-red", "blue-blue"] * 2)]
    late = [
        Sighting.back_at(b, (-150.0 + 14.0 * i, -120.0), identity_confidence=0.9)
        for i, b in enumerate(["red-red", "red-pink", "red-pink", "blue-blue", "red-pink"])
    ]
    frames = [_frame(*first, *(late if k >= 12 else ()), t=60.0 + k / 30) for k in range(20)]
    assert _count(frames, _sorter()) == ({"blue-blue": 3, "red-pink": 3, "red-red": 3}, {})


def test_a_back_no_seat_showed_read_on_two_cards_only_is_a_misread_of_an_owners_back() -> None:
    backs = ["red-red", "red-pink", "blue-blue", "red-red"]
    fans = [
        Sighting.back_at(b, (-150.0 + 14.0 * i, y)) for y in (120.0, -120.0) for i, b in enumerate(backs[: 3 + (y < 0)])
    ]
    frames = [_frame(*fans, t=60.0 + k / 30) for k in range(10)]
    centre, _ = _count(frames, _sorter())
    assert "red-pink" not in centre and sum(centre.values()) == 7


def test_strips_read_alike_as_a_back_no_seat_showed_across_several_fans_are_misreads_of_the_owners_backs() -> None:
    # the red backs' strips read "blue-purple" all along the fans, unsurely; each fan's top card reads plainly
    def fan(y: float) -> list[Sighting]:
        strips = [Sighting.back_at("blue-purple", (-150.0 + 14.0 * i, y), identity_confidence=0.3) for i in range(3)]
        return [*strips, Sighting.back_at("red-red", (-108.0, y))]

    frames = [_frame(*fan(120.0), *fan(-120.0), t=60.0 + k / 30) for k in range(10)]
    centre, _ = _count(frames, _sorter())
    assert "blue-purple" not in centre and sum(centre.values()) == 8


def _facing_sorter() -> SeatSorter:
    """Two seats facing each other across the middle (their hand stacks half a turn apart): no room for a third."""
    blue = [
        Sighting.back_at("blue-blue", (-140.0, -400.0)),
        *(Sighting.face_at("g4", (x, -400.0)) for x in (-70.0, 0.0)),
    ]
    return SeatSorter.from_opening([*_seat("red-red", 400.0), *blue], (0.0, 0.0), ZONE)


def test_when_the_seats_are_every_player_a_back_no_seat_showed_is_a_misread_however_clearly_read() -> None:
    # as above, but the seats leave no room for a third player: the red-pink cards are the players' (seed 99802,
    # two players: a lone card and a fan read "blue-blue" counted 2 cards for a player who was not there)
    fans = [
        Sighting.back_at(b, (-150.0 + 14.0 * i, y))
        for y, owner in ((120.0, "red-red"), (-120.0, "blue-blue"))
        for i, b in enumerate([owner, "red-pink", owner, "red-pink"])
    ]
    lone = Sighting.back_at("red-pink", (150.0, 0.0))
    frames = [_frame(*fans, lone, t=60.0 + k / 30) for k in range(10)]
    assert _facing_sorter().every_seat_named() and not _sorter().every_seat_named()
    centre, _ = _count(frames, _facing_sorter())
    assert "red-pink" not in centre and sum(centre.values()) == 9
    assert centre["red-red"] >= 4 and centre["blue-blue"] >= 4
    assert "red-pink" in _count(frames, _sorter())[0]  # with room for a third seat, a third player's


def test_a_fan_read_alike_before_a_seat_whose_hand_was_never_read_is_that_seats_though_read_unsurely() -> None:
    # the far seat's hand stack showed no back at the opening; its fan reads "red-pink", unsurely, strip by strip
    # (a card read surely elsewhere makes those readings no plain ones), with a stray "red-red" (seed 99800, four
    # players: 10 cards read "red-pink" 429 to 9, all counted as red-red's)
    sorter = SeatSorter.from_opening([*_seat("red-red", 400.0), *_seat(None, -400.0)], (0.0, 0.0), ZONE)
    assert sorter.before_an_unread_seat((0.0, -200.0)) and not sorter.before_an_unread_seat((0.0, 200.0))
    fan = [
        Sighting.back_at("red-red" if i == 2 else "red-pink", (-60.0 + 14.0 * i, -200.0), identity_confidence=0.3)
        for i in range(5)
    ]
    well_read = Sighting.back_at("red-red", (0.0, 200.0))
    frames = [_frame(*fan, well_read, t=60.0 + k / 30) for k in range(10)]
    centre, _ = _count(frames, sorter)
    assert centre == {"red-pink": 4, "red-red": 2}  # the stray reading in the fan counts by its own back


def test_a_leftover_line_cut_in_two_by_a_missed_strip_is_counted_as_one_line() -> None:
    # five cards at a 24 mm step, the middle one never boxed: two spreads 48 mm apart, 2 and 2 spots (seed 100904,
    # four players: the red-black line of 5 counted 2 and 2)
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    line = [Sighting.back_at("red-red", (24.0 * i, y)) for i in (0, 1, 3, 4)]
    assert _count([_frame(*line, t=60.0 + k / 30) for k in range(10)], _sorter()) == ({}, {"red-red": 5})


def test_two_parts_of_one_back_lying_side_by_side_are_not_one_line() -> None:
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    parts = [Sighting.back_at("red-red", (24.0 * i, y + dy)) for i in (0, 1) for dy in (0.0, 50.0)]
    assert _count([_frame(*parts, t=60.0 + k / 30) for k in range(10)], _sorter()) == ({}, {"red-red": 4})


def test_a_leftover_line_boxed_once_at_each_end_is_one_line_measured_in_the_picture() -> None:
    # five cards 28 mm apart, only the second and the fourth boxed: two lone spots 56 mm apart, one back (seed
    # 101030, four players: red-black's line of 5 counted 1 and 1); the picture measures the line they span
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    ends = [Sighting.back_at("red-red", (x, y)) for x in (0.0, 56.0)]
    line = LineLength(CARD_WIDTH_MM + 4 * 28.0, ((28.0, 0.6),), seen=False)
    assert _counted_with(lambda quads, card: line, [_frame(*ends, t=60.0 + k / 30) for k in range(10)]) == {
        "red-red": 5
    }


def test_a_lone_card_beside_a_line_rather_than_along_it_stays_apart() -> None:
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    line = [Sighting.back_at("red-red", (24.0 * i, y)) for i in (0, 1)]
    beside = Sighting.back_at("red-red", (12.0, y + 70.0))
    assert _count([_frame(*line, beside, t=60.0 + k / 30) for k in range(10)], _sorter()) == ({}, {"red-red": 3})


def test_a_step_that_would_count_more_cards_than_a_pile_holds_is_the_backs_printed_pattern() -> None:
    card = CARD_WIDTH_MM
    pattern = LineLength(card + 8 * 26.0, ((8.0, 0.5), (26.0, 0.45)))  # nine cards; the back repeats every 8 mm
    assert shingled_count(pattern, card) == 27
    assert shingled_count(pattern, card, most=10) == 9


def test_a_weak_step_counts_only_a_line_whose_extent_the_picture_bounds() -> None:
    card = CARD_WIDTH_MM
    assert shingled_count(LineLength(218.3, ((26.0, 0.21),)), card) == 7
    assert shingled_count(LineLength(218.3, ((26.0, 0.21),), seen=False), card) is None  # only the boxes' ends
    assert shingled_count(LineLength(218.3, ((26.0, 0.45),), seen=False), card) == 7  # a strong step still counts


def test_centre_fans_are_fitted_to_extents_their_boxes_ends_give_where_the_picture_bounds_none() -> None:
    # a fan's count is chosen among a card either side of the shared step by how its edges repeat, so the boxes'
    # ends, good to a card's edge, serve (seed 101009, four players: three of the four fans' extents bounded by no
    # colour edge; all four counts exact so, two of four as before)
    def boxes_only(quads: Sequence[Quad], card: float) -> LineLength:
        measured = _fans_in_the_picture(quads, card)
        return LineLength(measured.extent, measured.steps, seen=False)

    assert _handed_back_fans(boxes_only, 13) == {"blue-blue": 5, "red-red": 8}


def _frames_of_spots(seen: dict[float, int]) -> list[FrameSightings]:
    """Ten frames of a leftover line: a back at each x, read in the first ``seen[x]`` frames."""
    y = 400.0 + 1.2 * CARD_HEIGHT_MM
    return [
        _frame(*(Sighting.back_at("red-red", (x, y)) for x, n in seen.items() if k < n), t=60.0 + k / 30)
        for k in range(10)
    ]


def test_a_box_across_two_leftovers_overlap_read_clearly_less_often_is_no_third_card() -> None:
    # seeds 104002 and 105004, two players: two leftovers 24-29 mm apart boxed three times, the middle box read
    # in half the frames; the picture shows no step repeating clearly, so the line is counted by its boxes
    unclear = LineLength(CARD_WIDTH_MM + 25.0, ((17.0, 0.18), (26.0, 0.18)))
    assert _counted_with(lambda quads, card, along=None: unclear, _frames_of_spots({0.0: 10, 12.0: 5, 25.0: 10})) == {
        "red-red": 2
    }
    # seeds 106004 and 106005, two players: middle boxes read about three times in four, counted 3 for 2 before
    assert _counted_with(lambda quads, card, along=None: unclear, _frames_of_spots({0.0: 10, 12.0: 7, 25.0: 10})) == {
        "red-red": 2
    }
    # read as often as the others it is a card's strip: three cards, where the picture does not bound the line
    # (bounded 25 mm past a card, it has room for two: see the test of a line its boxes count long)
    unbounded = replace(unclear, seen=False)
    assert _counted_with(
        lambda quads, card, along=None: unbounded, _frames_of_spots({0.0: 10, 12.0: 10, 25.0: 10})
    ) == {"red-red": 3}


def test_a_line_measured_in_the_picture_is_judged_against_its_boxes_less_those_across_two_cards_overlap() -> None:
    # seed 106003, two players: seven leftovers measured 7 (a clear 32 mm step), boxed 15 times with the boxes
    # across two cards' overlap; more than two boxes a card made the measure look wrong, and the boxes counted 13
    three = LineLength(CARD_WIDTH_MM + 2 * 28.0, ((28.0, 0.6),))
    # each card boxed at its strip and its whole outline 14 mm on, and two boxes across overlaps read less often
    boxes = {0.0: 10, 14.0: 10, 21.0: 4, 28.0: 10, 42.0: 10, 49.0: 4, 56.0: 10}
    assert _counted_with(lambda quads, card, along=None: three, _frames_of_spots(boxes)) == {"red-red": 3}


def test_edges_repeating_at_twice_the_step_count_the_line_by_its_own_step_where_its_boxes_are_as_many() -> None:
    # seed 106003, four players: seven leftovers 21 mm apart; every other card's edge alike repeats at 44 mm most
    card = CARD_WIDTH_MM
    doubled = LineLength(card + 6 * 21.3, ((22.5, 0.22), (44.3, 0.35)))
    assert shingled_count(doubled, card) == 4
    assert shingled_count(doubled, card, boxes=7) == 7
    assert shingled_count(doubled, card, boxes=5) == 4  # five boxes cannot be seven cards: the edges' step stands
    # in a replay, the line's boxes are what the count is judged by
    spots = {21.3 * i: 10 for i in range(7)}
    assert _counted_with(lambda quads, card, along=None: doubled, _frames_of_spots(spots)) == {"red-red": 7}


def test_edges_repeating_at_half_the_step_do_not_count_a_line_whose_boxes_pair_up_on_the_cards_own_step() -> None:
    # seed 116003, four players (held out): four leftovers 33 mm apart, two of them boxed twice (strip and whole
    # outline 10 mm apart): six boxes, but on a lattice of four cards; the edges repeat at 33 mm and, weaker, 17 mm
    card = CARD_WIDTH_MM
    four = LineLength(card + 93.0, ((17.3, 0.37), (33.3, 0.47)))
    boxes = {-20.0: 10, 5.0: 10, 30.0: 10, 40.0: 10, 65.0: 10, 75.0: 10}
    assert _counted_with(lambda quads, card, along=None: four, _frames_of_spots(boxes)) == {"red-red": 4}
    # the same six boxes 17 mm apart, each a card's strip: six cards
    strips = {17.0 * i: 10 for i in range(6)}
    assert _counted_with(lambda quads, card, along=None: four, _frames_of_spots(strips)) == {"red-red": 6}


def test_a_backs_fine_printed_pattern_repeating_at_its_multiples_does_not_count_a_line() -> None:
    # seed 112000, two players: three red-red leftovers 35 mm apart, their striped backs repeating every 6.7 mm and
    # so at 19.5 and 25.9 mm as strongly as the weak edges: the 19.5 mm counted five; the boxes' lattice says three
    striped = LineLength(CARD_WIDTH_MM + 70.0, ((6.7, 0.32), (19.5, 0.31), (25.9, 0.29)))
    boxes = {-20.5: 10, -0.5: 10, 13.1: 10, 31.9: 10}
    assert _counted_with(lambda quads, card, along=None: striped, _frames_of_spots(boxes)) == {"red-red": 3}


def test_a_weak_step_that_measures_a_short_line_to_two_whole_steps_counts_its_three_cards() -> None:
    # seed 116005, four players: three red-black leftovers boxed twice, 29 mm apart, the line 104 mm long and its
    # edges repeating weakly every 21.8 mm: 2.05 steps, three cards, where the two boxes said two
    weak = LineLength(CARD_WIDTH_MM + 44.6, ((21.8, 0.15),))
    assert _counted_with(lambda quads, card, along=None: weak, _frames_of_spots({0.0: 10, 29.0: 10})) == {"red-red": 3}
    # seed 100402: two cards 32 mm apart repeating weakly at 17.7 mm measure 1.82 such steps: left to the boxes
    loose = LineLength(CARD_WIDTH_MM + 32.2, ((17.7, 0.15),))
    assert _counted_with(lambda quads, card, along=None: loose, _frames_of_spots({0.0: 10, 32.0: 10})) == {"red-red": 2}


def test_edges_repeating_weakly_at_twice_the_step_do_not_halve_a_line_counted_by_its_strong_step() -> None:
    # seed 125000, four players (held out): five red-light-blue leftovers 23 mm apart, their edges repeating at
    # 21 mm (0.33) and, weakly, at 44 mm (0.21): boxed twice a card on a lattice of three, they were counted three
    card = CARD_WIDTH_MM
    five = LineLength(140.4, ((9.7, 0.19), (21.2, 0.33), (43.8, 0.21)))
    assert shingled_count(five, card, boxes=3) == 5
    # a double that repeats strongly in its own right is still the cards' step (seed 117001)
    assert shingled_count(LineLength(129.0, ((17.3, 0.44), (33.2, 0.32)), seen=False), card, boxes=3) == 3

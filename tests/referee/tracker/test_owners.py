"""Whose card each centre card was: told by the seat it lay at, face up, until it landed."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from types import MethodType

from referee.cards import CARD_WIDTH_MM, Card
from referee.sightings import FrameSightings, Sighting
from referee.tracker import Referee
from referee.tracker.counting import SpreadCount, SpreadCounter, score_count, shared_by_play, with_owners
from referee.tracker.owners import OpenCard, SeatWatch, owed_by_elimination, seat_name
from referee.tracker.referee_session import RefereeSettings
from referee.tracker.seats import SeatSorter
from referee.tracker.synthetic import ScriptedTable

RED, BLUE, GREEN, YELLOW = (0.0, 400.0), (0.0, -400.0), (400.0, 0.0), (-400.0, 0.0)
"""The hand stacks: red-red's across the table from blue-blue's; green-green's and yellow-yellow's, when there,
between them."""


def _watch(*hands: tuple[str | None, tuple[float, float]]) -> SeatWatch:
    return SeatWatch(SeatSorter.from_opening([Sighting.back_at(owner, at) for owner, at in hands], middle=(0.0, 0.0)))


def _glances(watch: SeatWatch, until: float, rows: dict[tuple[float, float], list[tuple[str, float, float]]]) -> None:
    """Glances every 0.5 s: at each place, the card shown from ``start`` until ``end`` (``rows``: place ->
    [(card, start, end)])."""
    for k in range(round(until / 0.5) + 1):
        t = k * 0.5
        faces = [
            Sighting.face_at(Card.parse(card), at)
            for at, shown in rows.items()
            for card, start, end in shown
            if start <= t < end
        ]
        watch.add(FrameSightings(t, round(t * 30), tuple(faces)))


def test_a_card_is_the_players_from_whose_seat_it_vanished_as_it_landed() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 4.0)], (150.0, -390.0): [("r7", 0.0, 8.0)]})
    assert watch.owners([(Card.parse("r7"), 4.2), (Card.parse("r7"), 8.1)]) == ["red-red", "blue-blue"]


def test_a_card_still_lying_at_a_seat_after_the_landing_was_not_the_one_played() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # blue-blue's r7 was last seen nearer the landing, but is still there after it
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 3.0)], (150.0, -390.0): [("r7", 0.0, 3.5), ("r7", 5.0, 10.0)]})
    assert watch.owners([(Card.parse("r7"), 3.4)]) == ["red-red"]


def test_a_copy_seen_at_its_seat_just_after_the_landing_was_not_the_one_played() -> None:
    # three seats a quarter round apart: the fourth is cut off by the picture, its player unseen
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    # blue-blue's r7 vanishes as an r7 lands, but shows at the seat once more 0.3 s after (played elsewhere later)
    _glances(watch, 10.0, {(150.0, -390.0): [("r7", 0.0, 4.0), ("r7", 4.5, 5.0)]})
    assert watch.owners([(Card.parse("r7"), 4.2)]) == [None]
    # seen there only 2 s after, it is a misread or a hand over the seat: the card is blue-blue's
    later = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    _glances(later, 10.0, {(150.0, -390.0): [("r7", 0.0, 4.0), ("r7", 6.0, 6.5)]})
    assert later.owners([(Card.parse("r7"), 4.2)]) == ["blue-blue"]


def test_one_glance_long_before_the_landing_names_nobody_but_one_just_before_it_does() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(watch, 10.0, {(150.0, 390.0): [("g2", 1.0, 1.5), ("g5", 6.0, 6.5)]})
    assert watch.owners([(Card.parse("g2"), 5.0), (Card.parse("g5"), 7.0)]) == [None, "red-red"]


def test_two_players_whose_cards_vanished_alike_name_nobody() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(watch, 10.0, {(150.0, 390.0): [("y3", 0.0, 4.0)], (150.0, -390.0): [("y3", 0.0, 4.0)]})
    assert watch.owners([(Card.parse("y3"), 4.1)]) == [None]


def test_each_players_card_is_named_once_to_the_landing_it_fits_clearly_best() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    _glances(watch, 10.0, {(150.0, 390.0): [("b4", 0.0, 4.0)]})
    b4 = Card.parse("b4")
    assert watch.owners([(b4, 4.1), (b4, 6.0)]) == ["red-red", None]
    # two landings a moment apart fit it alike: which was red-red's is left to the arms and the spreads
    assert watch.owners([(b4, 4.1), (b4, 4.3)]) == [None, None]


def test_copies_of_a_card_landing_near_together_left_the_seats_in_the_order_they_landed() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # blue-blue's r1 was seen at the very moment the first r1 landed, but red-red's had gone a second before
    _glances(watch, 20.0, {(150.0, 390.0): [("r1", 0.0, 15.5)], (150.0, -390.0): [("r1", 0.0, 16.5)]})
    r1 = Card.parse("r1")
    assert watch.owners([(r1, 16.0), (r1, 16.5)]) == ["red-red", "blue-blue"]


def test_copies_of_a_card_that_left_their_seats_together_are_those_players_whichever_landed_where() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    # red-red's and blue-blue's r1 both last seen at the opening glance, landing 0.04 s apart: the order is a
    # coin flip, but the two players are sure (green-green's r1 never left), and each player's count needs only that
    _glances(watch, 5.0, {(150.0, 390.0): [("r1", 0.0, 0.5)], (150.0, -390.0): [("r1", 0.0, 0.5)]})
    _glances(watch, 5.0, {(390.0, 150.0): [("r1", 0.0, 5.0)]})
    r1 = Card.parse("r1")
    assert set(watch.owners([(r1, 0.73), (r1, 0.77)])) == {"blue-blue", "red-red"}


def test_a_copy_seen_again_after_one_landing_is_named_for_the_next_it_fits_unseen_after() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # red-red's b2 shows once more (the hand turned over it, say) between the two landings
    _glances(watch, 50.0, {(150.0, 390.0): [("b2", 0.0, 42.5), ("b2", 45.0, 45.5)]})
    b2 = Card.parse("b2")
    # ... and the first, which no seat saw leave, was the one other player's (see the exclusion below)
    assert watch.owners([(b2, 42.7), (b2, 45.9)]) == ["blue-blue", "red-red"]


def test_a_card_play_did_not_name_is_the_one_player_whose_copy_was_not_still_at_their_seat_after_it_landed() -> None:
    # red-red's y5 never showed face up (turned from the hand and played at once); blue-blue's lay there throughout
    two = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(two, 10.0, {(150.0, -390.0): [("y5", 0.0, 10.0)]})
    assert two.owners([(Card.parse("y5"), 5.0)]) == ["red-red"]
    four = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN), ("yellow-yellow", YELLOW))
    held = {(150.0, -390.0): [("y5", 0.0, 10.0)], (390.0, 150.0): [("y5", 0.0, 10.0)]}
    _glances(four, 10.0, {**held, (-390.0, -150.0): [("y5", 0.0, 10.0)]})
    assert four.owners([(Card.parse("y5"), 5.0)]) == ["red-red"]
    # with two of the four players' copies unseen after it, nobody
    open_ = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN), ("yellow-yellow", YELLOW))
    _glances(open_, 10.0, held)
    assert open_.owners([(Card.parse("y5"), 5.0)]) == [None]


def test_a_copy_seen_at_its_seat_only_after_the_stop_does_not_rule_its_player_out() -> None:
    # the centre is gathered after the stop: a centre card carried face up past a seat is no card of that seat
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(watch, 10.0, {(150.0, -390.0): [("y5", 0.0, 0.5), ("y5", 8.0, 9.0)]})
    assert watch.owners([(Card.parse("y5"), 5.0)], stopped=7.0) == [None]
    assert watch.owners([(Card.parse("y5"), 5.0)], stopped=9.5) == ["red-red"]


def test_a_card_is_not_named_by_exclusion_while_a_hands_owner_is_unknown_or_a_seat_is_missing() -> None:
    held = {(150.0, -390.0): [("y5", 0.0, 10.0)], (390.0, 150.0): [("y5", 0.0, 10.0)]}
    # the unread hand may be a player whose y5 it was
    unread = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN), (None, YELLOW))
    _glances(unread, 10.0, {**held, (-390.0, -150.0): [("y5", 0.0, 10.0)]})
    assert unread.owners([(Card.parse("y5"), 5.0)]) == [None]
    # three seats a quarter round apart leave room for a fourth, cut off by the picture
    cut = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    _glances(cut, 10.0, held)
    assert cut.owners([(Card.parse("y5"), 5.0)]) == [None]


def test_a_copy_is_ruled_out_only_when_seen_at_its_seat_before_the_landing_and_twice_after_it() -> None:
    def owners(shown: list[tuple[str, float, float]]) -> list[str | None]:
        watch = _watch(("red-red", RED), ("blue-blue", BLUE))
        _glances(watch, 10.0, {(150.0, -390.0): shown})
        return watch.owners([(Card.parse("y5"), 5.0)])

    assert owners([("y5", 0.0, 0.5), ("y5", 7.0, 8.0)]) == ["red-red"]
    assert owners([("y5", 0.0, 0.5), ("y5", 7.0, 7.5)]) == [None]  # once after: a misread, or a hand over the seat
    assert owners([("y5", 7.0, 8.0)]) == [None]  # first seen after: maybe the centre card carried past the seat


def test_the_way_the_seats_run_from_their_hands_is_learnt_from_where_the_discard_piles_appear() -> None:
    """Three players round the table, each with a row running clockwise from their hand stack: the far end of a
    row lies nearer the next player's hand than its own, and only the discard piles, appearing beside each hand
    on its row's side, tell whose it is."""
    radius = 350.0
    hands = [("red-red", 0.0), ("blue-blue", 2 * math.pi / 3), ("green-green", 4 * math.pi / 3)]

    def at(angle: float, along_mm: float) -> tuple[float, float]:
        a = angle - along_mm / radius  # clockwise
        return (radius * math.cos(a), radius * math.sin(a))

    opening = [Sighting.back_at(owner, at(a, 0.0)) for owner, a in hands]
    opening += [
        Sighting.face_at(Card.parse("g9"), at(a, k * 1.1 * CARD_WIDTH_MM)) for _, a in hands for k in range(2, 7)
    ]
    watch = SeatWatch(SeatSorter.from_opening(opening, middle=(0.0, 0.0)))
    rows = {at(a, CARD_WIDTH_MM): [("y1", 0.0, 10.0)] for _, a in hands}  # the discard piles
    far_end = at(0.0, 6 * 1.1 * CARD_WIDTH_MM)  # red-red's last row card, nearer green-green's hand
    rows[far_end] = [("b8", 0.0, 5.0)]
    _glances(watch, 10.0, rows)
    assert watch.turn() == -1
    assert watch.owners([(Card.parse("b8"), 5.1)]) == ["red-red"]


def test_a_hand_stack_the_opening_could_not_read_is_named_by_its_readings_in_play() -> None:
    watch = _watch(("red-red", RED), (None, BLUE))
    for k in range(10):
        back = "blue-blue" if k != 3 else "red-pink"
        watch.add(FrameSightings(k * 0.5, k * 15, (Sighting.back_at(back, (3.0, -402.0), identity_confidence=0.6),)))
    assert watch.hand_owners() == ["red-red", "blue-blue"]
    assert watch.seats.with_hands_named(watch.learnt_owners()).owners == ("blue-blue", "red-red")


def test_a_hand_read_as_another_players_back_is_not_named_so() -> None:
    watch = _watch(("red-red", RED), (None, BLUE))
    for k in range(10):
        watch.add(FrameSightings(k * 0.5, k * 15, (Sighting.back_at("red-red", (0.0, -400.0)),)))
    assert watch.hand_owners() == ["red-red", None]


# ---------------------------------------------------------------------------------------------- the count


def test_a_back_the_spreads_read_less_of_than_play_showed_takes_its_cards_from_those_read_most_beyond_play() -> None:
    spread = SpreadCount(centre={"red-red": 2, "blue-blue": 8, "red-pink": 6, "red-black": 4})
    fused = with_owners(spread, {"red-red": 6, "blue-blue": 5, "red-pink": 3, "red-black": 4}, total=20)
    assert fused.centre == {"blue-blue": 6, "red-black": 4, "red-pink": 4, "red-red": 6}
    assert fused.centre_named == 18


def test_a_back_no_play_was_named_for_gives_up_cards_only_after_those_play_was_seen_for() -> None:
    # red-pink's seat lies outside the picture: none of its plays seen, its spread's count no less likely than any
    spread = SpreadCount(centre={"red-red": 2, "blue-blue": 9, "red-pink": 3})
    fused = with_owners(spread, {"red-red": 6, "blue-blue": 5}, total=14)
    assert fused.centre == {"blue-blue": 5, "red-pink": 3, "red-red": 6}
    assert with_owners(spread, {"red-red": 6, "blue-blue": 8}, total=14).centre == {
        "blue-blue": 8,
        "red-pink": 0,
        "red-red": 6,
    }


def test_a_back_raised_by_play_takes_first_the_cards_without_a_known_back_then_those_the_spreads_missed() -> None:
    spread = SpreadCount(centre={"red-red": 2, "blue-blue": 6}, unknown_centre=1)
    fused = with_owners(spread, {"red-red": 5}, total=11)  # one card without a known back, two missed
    assert fused.centre == {"blue-blue": 6, "red-red": 5} and fused.unknown_centre == 0
    assert with_owners(spread, {"red-red": 5}, total=10).centre == {"blue-blue": 5, "red-red": 5}


def test_a_card_play_left_unnamed_goes_past_the_back_that_took_the_strips_of_one_read_short_of_play() -> None:
    # red-red's strips read 3 short of play, red-black's 3 beyond it: red-black took them; red-pink's 1 beyond
    # play is the card play left unnamed (seed 118005, four players)
    spread = SpreadCount(centre={"red-red": 14, "red-black": 14, "red-pink": 12, "red-light-blue": 14})
    named = {"red-red": 17, "red-black": 11, "red-pink": 11, "red-light-blue": 14}
    unnamed = [OpenCard("b4", ("red-black", "red-pink", "red-light-blue"), "red-light-blue")]
    shared = shared_by_play(spread, named, unnamed, total=54).centre
    assert shared == {"red-black": 11, "red-light-blue": 14, "red-pink": 12, "red-red": 17}
    # without a back read short of play, the most read beyond it takes the card
    spread = SpreadCount(centre={"red-red": 17, "red-black": 13, "red-pink": 10, "red-light-blue": 14})
    shared = shared_by_play(spread, named, unnamed, total=54).centre
    assert shared == {"red-black": 12, "red-light-blue": 14, "red-pink": 11, "red-red": 17}


def test_a_card_play_left_unnamed_goes_to_the_player_the_arms_leant_to_where_the_spreads_read_them_beyond_play() -> (
    None
):
    # four of six frames' arms came from red-pink's seat (seed 119006, four players): red-red's spreads read more
    # beyond play, but red-pink's read beyond it too
    spread = SpreadCount(centre={"red-red": 17, "red-pink": 19, "red-black": 11})
    named = {"red-red": 13, "red-pink": 16, "red-black": 11}
    everyone = ("red-red", "red-pink", "red-black")
    shared = shared_by_play(spread, named, [OpenCard("y5", everyone, "red-pink")], total=41).centre
    assert shared == {"red-black": 11, "red-pink": 17, "red-red": 13}
    # leaning to a player the spreads read no more of than play named, the card goes by the spreads
    shared = shared_by_play(spread, named, [OpenCard("y5", everyone, "red-black")], total=41).centre
    assert shared == {"red-black": 11, "red-pink": 16, "red-red": 14}


def test_where_play_does_not_contradict_the_spreads_their_count_stands() -> None:
    spread = SpreadCount(centre={"red-red": 7, "blue-blue": 6})
    assert with_owners(spread, {"red-red": 5, "blue-blue": 6}, total=13) == replace(spread, centre_named=11)


def test_without_names_or_with_more_names_than_the_stacks_hold_the_spreads_count_stands() -> None:
    spread = SpreadCount(centre={"red-red": 4, "blue-blue": 3})
    assert with_owners(spread, {}, total=7) == spread
    assert with_owners(spread, {"red-red": 8}, total=7) == spread


def test_the_spreads_own_count_is_cross_checked_though_the_names_settle_the_score() -> None:
    from referee.centre import CentreCard, Stack

    stacks = [Stack(1, tuple(CentreCard(Card.parse(f"r{n}")) for n in range(1, 6)))]
    scored = score_count(SpreadCount(centre={"red-red": 3}), stacks, named={"red-red": 2, "blue-blue": 2})
    assert scored.event.centre == {"red-red": 3, "blue-blue": 2}
    messages = [w.message for w in scored.warnings]
    assert any("holds 3 cards but the stacks seen add up to 5" in m for m in messages)
    assert any("blue-blue 0 -> 2 (2 seen played from its seat)" in m for m in messages)


def test_fans_handed_back_and_measured_in_the_picture_are_not_moved_by_the_owners_play_showed() -> None:
    from referee.centre import CentreCard, Stack

    stacks = [Stack(1, tuple(CentreCard(Card.parse(f"r{n}")) for n in range(1, 6)))]
    measured = SpreadCount(centre={"red-red": 3, "blue-blue": 2}, centre_measured=True)
    scored = score_count(measured, stacks, named={"red-red": 4, "blue-blue": 1})  # one play misattributed
    assert scored.event.centre == {"red-red": 3, "blue-blue": 2}
    counted = replace(measured, centre_measured=False)
    assert score_count(counted, stacks, named={"red-red": 4, "blue-blue": 1}).event.centre == {
        "red-red": 4,
        "blue-blue": 1,
    }


def _two_seat_round(
    laid_out: list[str],
    measured: dict[str, int] | None = None,
    hands: int = 2,
    *,
    r1_arm: bool = False,
    r2_arm: list[tuple[float, float]] | None = None,
) -> Referee:
    """Red-red plays r1-r3 onto one stack, blue-blue b1-b2 onto another (r1 lands before any glance saw it at its
    seat; ``r1_arm``: the arm that put it down was seen; ``r2_arm``: the arm seen putting r2 down, pointing back
    to a seat), glanced at every 0.5 s; after the stop the centre is spread out as ``laid_out`` reads (one back
    per strip). ``measured``: the fans' counts, had they been handed back and measured in the picture; ``hands``:
    the hand stacks the opening read (one: blue-blue's seat is out of the picture)."""
    opening = [Sighting.back_at("red-red", RED), Sighting.back_at("blue-blue", BLUE)][:hands]
    seats = SeatSorter.from_opening(opening, (0, 0))
    zone = tuple((250.0 * math.cos(a / 16 * math.pi), 250.0 * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=("red-red", "blue-blue"))
    if measured is not None:

        def measuring(counter: SpreadCounter, centre_total: int | None = None, *, measure: bool = True) -> SpreadCount:
            read = SpreadCounter.count(counter, centre_total, measure=measure)
            return replace(read, centre=measured, centre_measured=True) if measure else read

        # bound to the counter, so that the referee's copy as the centre is gathered counts with its own
        referee.counter.count = MethodType(measuring, referee.counter)  # type: ignore[method-assign]
    table = ScriptedTable(30.0)
    plays = [("r1", 0.0, RED), ("b1", 1.0, BLUE), ("r2", 2.0, RED), ("b2", 3.0, BLUE), ("r3", 4.0, RED)]
    for card, t, _ in plays:
        table.put(t, card, {"r": (0.0, 0.0), "b": (150.0, 0.0)}[card[0]])
    table.take_all(5.5)
    for i, back in enumerate(laid_out):
        table.put_back(6.0, back, (i * 14.0, 0.0))
    row = {card: (60.0 * k, 390.0 if at is RED else -390.0) for k, (card, _, at) in enumerate(plays)}
    for frame in table.frames(12.0):
        if frame is not None and round(frame.t * 30) % 15 == 0 and frame.t < 5.5:
            faces = tuple(Sighting.face_at(Card.parse(card), row[card]) for card, t, _ in plays if frame.t < t)
            referee.see_seats(FrameSightings(frame.t, frame.frame, faces))
        referee.update(frame)
        if r1_arm and frame is not None and frame.frame == 15:
            referee.see_arms(Card.parse("r1"), 0.0, (0.0, 0.0), UP_TO_RED)
        if r2_arm is not None and frame is not None and frame.frame == 75:
            referee.see_arms(Card.parse("r2"), 2.0, (0.0, 0.0), r2_arm)
    referee.finish()
    return referee


def test_the_referee_counts_each_players_centre_cards_by_where_they_lay_though_every_strip_reads_one_back() -> None:
    referee = _two_seat_round(["red-red"] * 5)  # every strip of the spread misread as red-red
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 3, "blue-blue": 2}
    # r1 landed at once, before any glance saw it at its seat: play leaves it unnamed; the fan laid where its stack
    # lay reads more red-red backs than play named in that stack, so it is red-red's
    assert referee.card_owners == {
        (1, "r1"): "red-red",
        (1, "r2"): "red-red",
        (1, "r3"): "red-red",
        (2, "b1"): "blue-blue",
        (2, "b2"): "blue-blue",
    }


def _two_seats_with_fans_measured(
    measured: dict[str, int], hands: int = 2, *, r1_arm: bool = False, r2_arm: list[tuple[float, float]] | None = None
) -> Referee:
    """The round above, its strips read as their backs, its fans measured as ``measured``."""
    return _two_seat_round(["red-red"] * 3 + ["blue-blue"] * 2, measured, hands, r1_arm=r1_arm, r2_arm=r2_arm)


def test_fans_measured_against_what_play_named_at_a_table_showing_every_seat_are_set_aside_for_the_cards_read() -> None:
    """Play named red-red 2 cards and blue-blue 2 (r1 unnamed): fans measured as 0 and 5 contradict it by four
    cards (red-red played two more than measured; blue-blue not five, even with r1), so the cards read one by
    one count, play's names settling whose they are. Measured as 1 and 4, they contradict it by two, as one card
    named to the wrong seat would: the fans stand, as they do measured as 3 and 2; and where a seat is out of the
    picture, play may have named many cards to the wrong seat, and the fans stand too."""
    contradicted = _two_seats_with_fans_measured({"red-red": 0, "blue-blue": 5})
    assert contradicted.scored is not None and contradicted.scored.centre == {"red-red": 3, "blue-blue": 2}
    assert "contradicted the plays seen from the seats (blue-blue 2, red-red 2) by 4 cards" in str(
        contradicted.warnings[0].message
    )
    one_misnamed = _two_seats_with_fans_measured({"red-red": 1, "blue-blue": 4})
    assert one_misnamed.scored is not None and one_misnamed.scored.centre == {"red-red": 1, "blue-blue": 4}
    agreed = _two_seats_with_fans_measured({"red-red": 3, "blue-blue": 2})
    assert agreed.scored is not None and agreed.scored.centre == {"red-red": 3, "blue-blue": 2}
    assert not any("contradicted" in w.message for w in [*agreed.warnings, *one_misnamed.warnings])
    seat_missing = _two_seats_with_fans_measured({"red-red": 0, "blue-blue": 5}, hands=1)
    assert seat_missing.scored is not None and seat_missing.scored.centre == {"red-red": 0, "blue-blue": 5}


def test_fans_measured_to_move_one_card_from_what_play_named_card_by_card_are_set_aside_for_the_names() -> None:
    # play named every card (r1 by the arm that put it down): a fan measured a strip long took its card from the
    # other, the stacks' total fixed; the names add up whatever their errors
    every_card_named = _two_seats_with_fans_measured({"red-red": 2, "blue-blue": 3}, r1_arm=True)
    assert every_card_named.scored is not None and every_card_named.scored.centre == {"red-red": 3, "blue-blue": 2}
    assert "by 2 cards" in str(every_card_named.warnings[0].message)
    agreed = _two_seats_with_fans_measured({"red-red": 3, "blue-blue": 2}, r1_arm=True)
    assert agreed.scored is not None and not any("contradicted" in w.message for w in agreed.warnings)


def test_fans_measured_to_move_one_card_whose_name_a_witness_of_play_doubts_stand_against_the_names() -> None:
    # every card named, r2 by its face last seen at red-red's seat, but the arm that put it down came from
    # blue-blue's: the fans, measuring it blue-blue's, and that arm outweigh the glance (seed 121001, two players)
    doubted = _two_seats_with_fans_measured({"red-red": 2, "blue-blue": 3}, r1_arm=True, r2_arm=UP_TO_BLUE)
    assert doubted.card_owners[(1, "r2")] == "red-red"
    assert doubted.scored is not None and doubted.scored.centre == {"red-red": 2, "blue-blue": 3}
    assert not any("contradicted" in w.message for w in doubted.warnings)
    # the arm from red-red's own seat doubts nothing: the names stand
    told_twice = _two_seats_with_fans_measured({"red-red": 2, "blue-blue": 3}, r1_arm=True, r2_arm=UP_TO_RED)
    assert told_twice.scored is not None and told_twice.scored.centre == {"red-red": 3, "blue-blue": 2}


def test_copies_of_a_card_as_many_as_the_players_are_one_each_whoever_was_seen_playing_them():
    r7, b2 = Card.parse("r7"), Card.parse("b2")
    players = ["red-red", "blue-blue"]
    # the r7 nobody was seen playing is blue-blue's: red-red played the other; the lone b2 stays unsettled
    assert owed_by_elimination([r7, r7, b2], [None, "red-red", None], players) == {"blue-blue": 1}
    assert owed_by_elimination([r7, r7], [None, None], players) == {"red-red": 1, "blue-blue": 1}
    assert owed_by_elimination([r7, r7], ["red-red", "blue-blue"], players) == {}  # named already


def test_no_card_is_settled_when_the_players_or_the_readings_are_in_doubt():
    r7 = Card.parse("r7")
    players = ["red-red", "blue-blue"]
    assert owed_by_elimination([r7, r7, r7], [None, None, None], players) == {}  # more copies than players
    assert owed_by_elimination([r7, r7], ["red-red", "red-red"], players) == {}  # one player named twice
    assert owed_by_elimination([r7, r7], [None, "green-green"], players) == {}  # a name of no known player


SEAT_RADIUS, ROW_STEP = 400.0, 1.1 * CARD_WIDTH_MM
NORTH, SOUTH, EAST, WEST = math.pi / 2, -math.pi / 2, 0.0, math.pi


def _seat_at(angle: float, along_mm: float, radius: float = SEAT_RADIUS) -> tuple[float, float]:
    """A point ``along_mm`` clockwise from a hand at ``angle`` round the middle (each seat's places run so)."""
    a = angle - along_mm / SEAT_RADIUS
    return (radius * math.cos(a), radius * math.sin(a))


def _round_with_one_hand_seen(
    rows: dict[str, tuple[float, float]],
    plays: list[tuple[str, float]],
    laid_out: list[tuple[str, tuple[float, float]]],
    backs: tuple[str, ...] = (),
    hands: tuple[tuple[str, float], ...] = (("red-red", NORTH),),
    reread: Callable[[Sighting], Sighting] | None = None,
    hands_in_play: tuple[tuple[str, float], ...] = (),
    handed_back: int = 0,
) -> Referee:
    """A round whose opening shows red-red's hand stack (north; ``hands``: the hand stacks seen, back and angle)
    and every seat's row (``rows``: card -> place); the cards of ``plays`` land on a stack per colour, vanishing
    from their row, glanced at every 0.5 s; after the stop the centre spread is laid out with every strip misread
    as red-red, and the backs ``laid_out`` beside it (``reread``: how the detector reads each card, in every
    frame; ``hands_in_play``: hand stacks read so in every glance at the seats). ``handed_back``: the centre spread's
    last this many cards are laid out instead in a fan handed back before the south seat, reading as laid out, the
    centre zone reaching over it as over the stacks in a picture."""
    opening = [Sighting.back_at(back, _seat_at(angle, 0.0)) for back, angle in hands]
    hand_glances = tuple(Sighting.back_at(back, _seat_at(angle, 0.0)) for back, angle in hands_in_play)
    opening += [Sighting.face_at(Card.parse(card), where) for card, where in rows.items()]
    seats = SeatSorter.from_opening(opening, (0.0, 0.0))
    assert sorted(hand.owner for hand in seats.hands() if hand.owner) == sorted(back for back, _ in hands)
    reach = 360.0 if handed_back else 250.0
    zone = tuple((reach * math.cos(a / 16 * math.pi), reach * math.sin(a / 16 * math.pi)) for a in range(32))
    referee = Referee(RefereeSettings(sorter=seats, zone=zone), backs=backs)
    table = ScriptedTable(30.0)
    stack = {"r": (0.0, 0.0), "b": (150.0, 0.0), "g": (0.0, 150.0)}
    for card, t in plays:
        table.put(t, card, stack[card[0]])
    table.take_all(5.5)
    for i in range(len(plays) - handed_back):
        table.put_back(6.0, "red-red", (i * 14.0, 0.0))
    for back, where in laid_out:
        table.put_back(6.0, back, where)
    landed = dict(plays)
    for frame in table.frames(12.0):
        if frame is not None and round(frame.t * 30) % 15 == 0 and frame.t < 5.5:
            row = [(card, where) for card, where in rows.items() if frame.t < landed.get(card, 99)]
            discard = [("y1", _seat_at(NORTH, CARD_WIDTH_MM))]  # beside red-red's hand: the seats run clockwise
            faces = tuple(Sighting.face_at(Card.parse(card), where) for card, where in row + discard)
            referee.see_seats(FrameSightings(frame.t, frame.frame, faces + hand_glances))
        if frame is not None and reread is not None:
            frame = replace(frame, sightings=tuple(reread(s) for s in frame.sightings))
        referee.update(frame)
    referee.finish()
    assert referee.scored is not None
    return referee


def _row(angle: float, cards: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    return {card: _seat_at(angle, (k + 2) * ROW_STEP) for k, card in enumerate(cards)}


def test_a_seat_whose_hand_stack_was_never_found_is_named_by_the_one_back_no_hand_owns_and_its_plays_are_its() -> None:
    """Blue-blue's hand stack is never seen (the detector can miss one in every frame): its row is, and so is the
    line of its leftovers beyond it after the round. The row gets an unread hand two steps behind its first
    face, the one back counted that no hand owns names it, and the cards that vanished from that row as they
    landed are blue-blue's, though every strip of the centre spread reads red-red."""
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, ("b1", "b2", "g9"))}
    plays = [("r1", 0.0), ("b1", 1.0), ("r2", 2.0), ("b2", 3.0), ("r3", 4.0)]
    leftovers = [("blue-blue", (x, -520.0)) for x in (-150.0, -180.0, -210.0)]  # beyond its row
    referee = _round_with_one_hand_seen(rows, plays, leftovers, backs=("red-red", "blue-blue"))
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 3, "blue-blue": 2}
    assert referee.scored.leftover == {"red-red": 0, "blue-blue": 3}
    assert referee.card_owners[(2, "b1")] == referee.card_owners[(2, "b2")] == "blue-blue"


def test_a_seat_whose_hand_stack_was_never_found_nor_its_back_counted_is_the_one_set_left_of_the_box_played() -> None:
    """Four seats, three hands of the red box read; the south seat's hand is never seen and nothing laid out
    after the round reads as its back (every strip reads red-red, its leftovers lie outside the picture). A box
    holds four sets and the table plays whole boxes: the south seat is red-pink, and its plays are its."""
    hands = (("red-red", NORTH), ("red-black", EAST), ("red-light-blue", WEST))
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, ("b1", "b2", "g9"))}
    plays = [("r1", 0.0), ("b1", 1.0), ("r2", 2.0), ("b2", 3.0), ("r3", 4.0)]
    referee = _round_with_one_hand_seen(rows, plays, [], hands=hands)
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 3, "red-pink": 2}
    assert referee.card_owners[(2, "b1")] == referee.card_owners[(2, "b2")] == "red-pink"


def test_a_seat_never_read_where_more_than_one_set_is_left_stays_unnamed() -> None:
    """The same round where the west hand reads blue-blue: two boxes are played, five sets are left, and the south
    seat's plays are nobody's (the strips' red-red takes them)."""
    hands = (("red-red", NORTH), ("red-black", EAST), ("blue-blue", WEST))
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, ("b1", "b2", "g9"))}
    plays = [("r1", 0.0), ("b1", 1.0), ("r2", 2.0), ("b2", 3.0), ("r3", 4.0)]
    referee = _round_with_one_hand_seen(rows, plays, [], hands=hands)
    assert referee.card_owners.get((2, "b1")) is None
    assert referee.scored is not None and referee.scored.centre == {"red-red": 5}


def test_only_a_row_of_faces_in_no_seat_gets_a_hand_of_its_own() -> None:
    """Faces in a seat (within its reach of a hand, the seats' way round) and a lone face (as likely a misread)
    get no hand; nor does anything while the way round is unknown."""
    radius = 400.0

    def at(angle: float, along_mm: float) -> tuple[float, float]:
        a = angle - along_mm / radius
        return (radius * math.cos(a), radius * math.sin(a))

    hands = [Sighting.back_at("red-red", at(math.pi / 2, 0.0)), Sighting.back_at("blue-blue", at(-math.pi / 2, 0.0))]
    rows = [Sighting.face_at(Card.parse("g4"), at(a, k * 65.0)) for a in (math.pi / 2, -math.pi / 2) for k in (2, 3, 4)]
    lone = [Sighting.face_at(Card.parse("y2"), at(0.0, 0.0))]
    seats = SeatSorter.from_opening([*hands, *rows, *lone], (0.0, 0.0))
    clockwise = SeatSorter(seats.places, seats.middle, turn=-1)
    assert len(clockwise.with_missing_hands().hands()) == 2
    unseen_hand = SeatSorter.from_opening([hands[0], *rows, *lone], (0.0, 0.0))
    assert len(unseen_hand.with_missing_hands().hands()) == 1  # the way round unknown
    added = SeatSorter(unseen_hand.places, unseen_hand.middle, turn=-1).with_missing_hands().hands()
    assert len(added) == 2 and added[1].owner is None
    assert math.dist(at(-math.pi / 2, 0.0), (radius * math.cos(added[1].angle), radius * math.sin(added[1].angle))) < 5


def test_seats_whose_hand_stacks_were_never_found_are_named_by_the_backs_laid_out_before_each() -> None:
    """Two seats' hand stacks never seen, so no one back left over names the last: each is named by the back its
    own leftovers, laid out beyond its row, read as."""
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, ("b1", "b2", "y9")), **_row(EAST, ("g1", "y8", "r9"))}
    plays = [("r1", 0.0), ("b1", 1.0), ("g1", 1.5), ("r2", 2.0), ("b2", 3.0), ("r3", 4.0)]
    leftovers = [
        (back, _seat_at(seat, k * ROW_STEP, radius=SEAT_RADIUS + 120.0))
        for seat, back in ((SOUTH, "blue-blue"), (EAST, "green-green"))
        for k in (2, 3, 4)
    ]
    referee = _round_with_one_hand_seen(rows, plays, leftovers)
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 3, "blue-blue": 2, "green-green": 1}
    assert referee.scored.leftover == {"red-red": 0, "blue-blue": 3, "green-green": 3}
    owners = [referee.card_owners[(2, "b1")], referee.card_owners[(2, "b2")], referee.card_owners[(3, "g1")]]
    assert owners == ["blue-blue", "blue-blue", "green-green"]


def test_a_line_laid_before_an_unnamed_seat_is_named_by_its_cards_votes_summed_not_by_its_strips_one_by_one() -> None:
    """The south seat's leftovers: a line whose top card, whole, reads blue-purple surely, and whose three strips
    each read green-purple unsurely (a look-alike: the purple lettering of the green box). The line is one
    player's; its votes summed say blue-purple, and so the seat and its plays are blue-purple's, not those of a
    green-purple player who is not at the table (seed 101080, eight players: 4 of 5 strips read so)."""
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, ("b1", "b2", "y9")), **_row(EAST, ("g1", "y8", "r9"))}
    plays = [("r1", 0.0), ("b1", 1.0), ("g1", 1.5), ("r2", 2.0), ("b2", 3.0), ("r3", 4.0)]
    line = [_seat_at(SOUTH, 2 * ROW_STEP + k * 25.0, radius=SEAT_RADIUS + 120.0) for k in range(4)]  # each on the last
    leftovers = [("blue-purple", at) for at in line]
    leftovers += [("green-green", _seat_at(EAST, k * ROW_STEP, radius=SEAT_RADIUS + 120.0)) for k in (2, 3, 4)]

    def strips_misread(sighting: Sighting) -> Sighting:
        if sighting.back != "blue-purple":
            return sighting
        if math.dist(sighting.centre, line[-1]) < 20.0:  # the top card, whole
            return replace(sighting, identity_confidence=0.95)
        return replace(sighting, back="green-purple", identity_confidence=0.3, back_runner_up="blue-purple")

    referee = _round_with_one_hand_seen(rows, plays, leftovers, reread=strips_misread)
    assert referee.scored is not None
    assert referee.scored.leftover == {"red-red": 0, "blue-purple": 4, "green-green": 3}
    assert referee.scored.centre == {"red-red": 3, "blue-purple": 2, "green-green": 1}
    assert referee.card_owners[(2, "b1")] == referee.card_owners[(2, "b2")] == "blue-purple"


def _misread_south_hand(cards: int, read_in_play: bool = False) -> Referee:
    """The south hand stack read "green-purple" at the opening (a look-alike: the purple lettering of the green box);
    its ``cards`` played, then handed back to it in a fan before its seat, read blue-purple (``read_in_play``: the
    hand read "green-purple" in play as well)."""
    south = ("b1", "b2", "b3", "b4", "b5", "b6")[:cards]
    rows = {**_row(NORTH, ("r1", "r2", "r3")), **_row(SOUTH, (*south, "y9"))}
    plays = sorted([("r1", 0.2), ("r2", 2.2), ("r3", 4.2), *((card, 0.6 * k) for k, card in enumerate(south))])
    plays.sort(key=lambda play: play[1])
    fan = [("blue-purple", _seat_at(SOUTH, 2 * ROW_STEP + k * 20.0, radius=0.8 * SEAT_RADIUS)) for k in range(cards)]
    hands = (("red-red", NORTH), ("green-purple", SOUTH))
    in_play = (("green-purple", SOUTH),) if read_in_play else ()
    return _round_with_one_hand_seen(rows, plays, fan, hands=hands, hands_in_play=in_play, handed_back=cards)


def test_a_hand_read_only_at_the_opening_is_renamed_by_the_one_back_no_hand_owns_laid_out_before_its_seat() -> None:
    """The six cards handed back before the south seat read blue-purple, a back no hand owns; its hand, read
    green-purple at the opening and never in play, is blue-purple's, and so are its plays (seeds 115000 and 115006,
    eight players: the blue-purple fan of 15 and of 8 cards counted to nobody who played)."""
    referee = _misread_south_hand(6)
    assert referee.scored is not None
    assert referee.scored.centre == {"red-red": 3, "blue-purple": 6}
    assert referee.card_owners[(1, "b2")] == referee.card_owners[(1, "b6")] == "blue-purple"


def test_a_hand_read_in_play_or_before_too_few_cards_of_another_back_keeps_its_name() -> None:
    """The opening's reading stands where play read the hand so too, or where fewer than
    :data:`referee.tracker.referee_session.RENAMED_CARDS` cards read otherwise."""
    for cards, referee in ((6, _misread_south_hand(6, read_in_play=True)), (4, _misread_south_hand(4))):
        assert referee.scored is not None
        assert referee.scored.centre == {"red-red": 3, "green-purple": cards}
        assert referee.card_owners[(1, "b2")] == "green-purple"


def test_a_row_without_a_hand_across_the_angles_wrap_gets_its_hand_behind_its_first_face() -> None:
    """West of the middle a row's angles run from just under +pi to just over -pi; its hand still lies two of
    its steps behind the first face the seats' way round, not in the row's middle."""
    row = [Sighting.face_at(Card.parse(card), (-500.0, y)) for card, y in (("r1", -75.0), ("g2", 0.0), ("b3", 75.0))]
    seats = SeatSorter.from_opening([*row, Sighting.back_at("red-red", (500.0, 0.0))], (0.0, 0.0))
    for turn, behind in ((-1, (-456, -218)), (1, (-456, 218))):
        hand = SeatSorter(seats.places, seats.middle, turn=turn).with_missing_hands().hands()[-1]
        assert (round(hand.radius * math.cos(hand.angle)), round(hand.radius * math.sin(hand.angle))) == behind


# ---- the arm that put a card down (referee.session_arms feeds SeatWatch.see_arms)

UP_TO_RED = [(40.0, 250.0), (45.0, 300.0), (50.0, 330.0)]
"""Points back along an arm reaching a card at the middle from red-red's side (up the y axis), three frames."""
UP_TO_BLUE = [(40.0, -250.0), (45.0, -300.0), (50.0, -330.0)]
"""The same from blue-blue's side (down the y axis)."""


def test_a_card_no_seat_saw_is_named_by_the_seat_the_arm_that_put_it_down_came_from() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    watch.see_arms(Card.parse("r7"), 4.0, (20.0, 10.0), UP_TO_RED)
    watch.see_arms(Card.parse("g3"), 6.0, (-20.0, 10.0), [(-30.0, -250.0), (-35.0, -320.0)])
    assert watch.owners([(Card.parse("r7"), 4.0), (Card.parse("g3"), 6.0), (Card.parse("b2"), 7.0)]) == [
        "red-red",
        "blue-blue",
        None,
    ]


def test_arms_from_two_seats_a_hand_alone_or_another_landings_arm_name_nobody() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    # two frames from red-red's side, two from blue-blue's: another arm passing over the stack
    watch.see_arms(Card.parse("r7"), 4.0, (20.0, 10.0), [*UP_TO_RED[:2], (30.0, -250.0), (35.0, -300.0)])
    watch.see_arms(Card.parse("g3"), 6.0, (20.0, 10.0), [(30.0, 60.0), (25.0, 80.0)])  # the hand, no arm
    watch.see_arms(Card.parse("b2"), 8.0, (20.0, 10.0), UP_TO_RED)  # a landing 1 s later than the one asked about
    plays = [(Card.parse("r7"), 4.0), (Card.parse("g3"), 6.0), (Card.parse("b2"), 7.0)]
    assert watch.owners(plays) == [None, None, None]


def test_an_arm_reaching_past_a_card_as_it_lands_names_the_card_it_ends_at_not_the_one_it_passes_over() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # red-red reaches across the middle to a b4 at (0, -60); blue-blue's g10 lands at (0, 80), under that arm
    watch.see_arms(Card.parse("b4"), 4.0, (0.0, -60.0), [(5.0, 250.0), (8.0, 300.0), (10.0, 330.0)])
    watch.see_arms(Card.parse("g10"), 4.06, (0.0, 80.0), UP_TO_RED)
    watch.see_arms(Card.parse("r7"), 5.0, (0.0, 80.0), UP_TO_RED)  # a second later: nothing passed over it
    plays = [(Card.parse("b4"), 4.0), (Card.parse("g10"), 4.06), (Card.parse("r7"), 5.0)]
    assert watch.owners(plays) == ["red-red", None, "red-red"]


def test_a_face_seen_vanishing_from_a_seat_outweighs_an_arm_and_a_player_plays_each_card_once() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 4.0)]})  # red-red's r7 vanished as the first r7 landed
    watch.see_arms(Card.parse("r7"), 4.1, (20.0, 10.0), [(30.0, -250.0), (35.0, -300.0)])  # arm: blue-blue's
    watch.see_arms(Card.parse("r7"), 8.0, (20.0, 10.0), UP_TO_RED)  # arm: red-red's, whose r7 is down already
    assert watch.owners([(Card.parse("r7"), 4.1), (Card.parse("r7"), 8.0)]) == ["red-red", None]


def _two_r7s_and_an_arm(blue_shown: tuple[float, float], arm: list[tuple[float, float]] | None) -> str | None:
    """The owner named for an r7 landing at 4.6 s: red-red's r7 seen at its seat until 4.5 s, blue-blue's while
    ``blue_shown`` (start, end), glanced at every 0.5 s; ``arm``: the arm seen putting it down."""
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 4.5)], (150.0, -390.0): [("r7", *blue_shown)]})
    if arm is not None:
        watch.see_arms(Card.parse("r7"), 4.6, (20.0, 10.0), arm)
    return watch.owners([(Card.parse("r7"), 4.6)])[0]


def test_where_both_players_copies_fit_a_landing_the_arm_that_put_it_down_tells_whose_it_was() -> None:
    # both r7s were seen at their seats shortly before it landed, red-red's last (on its discard pile, covered as
    # the r7 landed); the arm came from blue-blue's seat (seed 121005, two players)
    assert _two_r7s_and_an_arm((0.0, 3.5), UP_TO_BLUE) == "blue-blue"
    # the arm from red-red's seat, or none seen, leaves the face's name
    assert _two_r7s_and_an_arm((0.0, 3.5), UP_TO_RED) == "red-red"
    assert _two_r7s_and_an_arm((0.0, 3.5), None) == "red-red"


def test_an_arm_names_a_player_over_the_face_only_where_that_players_own_copy_fits_the_landing() -> None:
    # blue-blue's r7 seen once, 4.6 s before the landing: it fits no landing, and the face's name stands
    assert _two_r7s_and_an_arm((0.0, 0.5), UP_TO_BLUE) == "red-red"


def test_a_name_is_told_twice_over_where_the_face_vanished_from_the_seat_the_arm_came_from() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # red-red's r7 vanished as it landed, the arm from red-red's side; its g2 too, but blue-blue's arm put the g2
    # down; its y5 was last seen 4 s before (stale), the arm red-red's; the b3's face was never seen at a seat
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 4.0), ("g2", 0.0, 5.0), ("y5", 0.0, 2.0)]})
    watch.see_arms(Card.parse("r7"), 4.1, (20.0, 10.0), UP_TO_RED)
    watch.see_arms(Card.parse("g2"), 5.1, (20.0, 10.0), [(30.0, -250.0), (35.0, -300.0), (40.0, -330.0)])
    watch.see_arms(Card.parse("y5"), 6.1, (20.0, 10.0), UP_TO_RED)
    watch.see_arms(Card.parse("b3"), 7.1, (20.0, 10.0), UP_TO_RED)
    plays = [(Card.parse(c), t) for c, t in (("r7", 4.1), ("g2", 5.1), ("y5", 6.1), ("b3", 7.1))]
    names = watch.owners(plays)
    assert names == ["red-red", "red-red", "red-red", "red-red"]
    assert watch.confirmed(plays, names) == [True, False, False, False]
    assert watch.confirmed(plays, ["blue-blue", None, "red-red", "red-red"]) == [False, False, False, False]


def test_the_seat_an_arm_comes_from_is_where_it_crosses_the_seats_running_from_their_hands() -> None:
    # four seats whose places run clockwise from their hands: an arm crossing the circle of hands just clockwise
    # of green-green's hand (on the +x axis) comes from green-green's seat; just counter-clockwise of it, from
    # the seat before, red-red's (whose hand is on the +y axis)
    seats = SeatSorter.from_opening(
        [Sighting.back_at(b, at) for b, at in (("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))],
        middle=(0.0, 0.0),
    )
    below, above = (400.0, -150.0), (400.0, 150.0)
    assert seats.seat_reaching((0.0, 0.0), below, turn=-1).owner == "green-green"
    assert seats.seat_reaching((0.0, 0.0), above, turn=-1).owner == "red-red"
    assert seats.seat_reaching((0.0, 0.0), above, turn=+1).owner == "green-green"


def test_a_face_last_seen_at_a_seat_long_before_its_landing_yields_to_the_arm_that_put_the_card_down() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE))
    # red-red's r7 last seen 4 s before the first r7 landed, its g2 half a second before the g2 landed
    _glances(watch, 10.0, {(150.0, 390.0): [("r7", 0.0, 1.0), ("g2", 0.0, 5.0)]})
    from_blue = [(30.0, -250.0), (35.0, -300.0), (40.0, -330.0)]
    watch.see_arms(Card.parse("r7"), 5.0, (20.0, 10.0), from_blue)
    watch.see_arms(Card.parse("g2"), 5.5, (20.0, 10.0), from_blue)
    assert watch.owners([(Card.parse("r7"), 5.0), (Card.parse("g2"), 5.5)]) == ["blue-blue", "red-red"]


def test_an_arm_from_a_seat_whose_copy_still_lay_there_across_the_landing_names_nobody() -> None:
    # blue-blue reached for the b9 too and lost the race: its b9 lay at its seat before and after the landing
    # (four-player rounds, seeds 101011 and 101042: named to the loser)
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    _glances(watch, 10.0, {(150.0, -390.0): [("b9", 0.0, 10.0)], (150.0, 390.0): [("r7", 0.0, 1.0)]})
    from_blue = [(30.0, -250.0), (35.0, -300.0), (40.0, -330.0)]
    watch.see_arms(Card.parse("b9"), 5.0, (20.0, 10.0), from_blue)
    # red-red's r7, last seen 4 s before it landed (stale): the arm from blue-blue's seat, whose r7 lay there
    # throughout, does not take it either
    _glances(watch, 10.0, {(150.0, -390.0): [("r7", 0.0, 10.0)]})
    watch.see_arms(Card.parse("r7"), 5.0, (20.0, 10.0), from_blue)
    assert watch.owners([(Card.parse("b9"), 5.0), (Card.parse("r7"), 5.0)]) == [None, None]
    # the arm alone still names the player whose copy was not seen kept
    watch.see_arms(Card.parse("g2"), 6.0, (20.0, 10.0), from_blue)
    assert watch.owners([(Card.parse("g2"), 6.0)]) == ["blue-blue"]


def test_a_card_read_where_it_landed_beside_its_players_seat_is_no_copy_kept_there() -> None:
    # seed 101045, four players: a y1 starting a stack beside its player's seat, read there after it landed
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    landed_at = (100.0, -330.0)
    _glances(watch, 10.0, {(150.0, -390.0): [("y1", 0.0, 5.0)], landed_at: [("y1", 5.0, 10.0)]})
    watch.see_arms(Card.parse("y1"), 5.0, landed_at, [(20.0, -480.0), (15.0, -510.0), (10.0, -530.0)])
    assert watch.owners([(Card.parse("y1"), 5.0)]) == ["blue-blue"]


def test_cards_played_from_a_seat_the_picture_cuts_off_are_named_by_that_seat_while_its_owner_is_unknown() -> None:
    # three hands a quarter round apart, the fourth seat (west, -x) beyond the picture's edge: its arms reach in
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    from_west = [(-250.0, 20.0), (-300.0, 25.0), (-330.0, 30.0)]
    watch.see_arms(Card.parse("r7"), 4.0, (20.0, 10.0), from_west)
    watch.see_arms(Card.parse("g3"), 6.0, (-20.0, 10.0), from_west)
    watch.see_arms(Card.parse("b2"), 7.0, (20.0, 10.0), UP_TO_RED)
    plays = [(Card.parse("r7"), 4.0), (Card.parse("g3"), 6.0), (Card.parse("b2"), 7.0)]
    assert watch.owners(plays) == [None, None, "red-red"]
    west = seat_name(3)
    assert watch.owners(plays, unread_seats=True) == [west, west, "red-red"]


def test_a_seat_whose_hand_was_never_read_names_the_cards_its_arms_put_down_as_that_seat() -> None:
    watch = _watch(("red-red", RED), (None, BLUE))
    watch.see_arms(Card.parse("r7"), 4.0, (20.0, 10.0), [(30.0, -250.0), (35.0, -300.0), (40.0, -330.0)])
    watch.see_arms(Card.parse("g2"), 6.0, (20.0, 10.0), UP_TO_RED)
    plays = [(Card.parse("r7"), 4.0), (Card.parse("g2"), 6.0)]
    assert watch.owners(plays) == [None, "red-red"]
    assert watch.owners(plays, unread_seats=True) == [seat_name(1), "red-red"]


def test_a_card_play_left_unnamed_may_be_any_players_but_one_who_held_their_copy_across_its_landing() -> None:
    watch = _watch(("red-red", RED), ("blue-blue", BLUE), ("green-green", GREEN))
    # red-red's y5 lay at its seat before and after the landing; nobody saw where the played one came from, and
    # two of three frames' arms ran back towards blue-blue
    _glances(watch, 10.0, {(150.0, 390.0): [("y5", 0.0, 10.0)]})
    arm_from_blue = [(30.0, -250.0), (35.0, -300.0)]
    watch.see_arms(Card.parse("y5"), 5.0, (20.0, 10.0), [*arm_from_blue, UP_TO_RED[0]])
    assert watch.owners([(Card.parse("y5"), 5.0)]) == [None]  # too few of the arm's frames for a name
    (unnamed,) = watch.open_owners([(Card.parse("y5"), 5.0)], None, ["red-red", "blue-blue", "green-green"])
    assert unnamed.players == ("blue-blue", "green-green")
    assert unnamed.leaning == "blue-blue"

"""Scenarios of the simulator's settings: hand and discard, turning over, the advanced row, conflicts, round end."""

import itertools
import random
import statistics
from collections import Counter

import pytest

from referee.backs import Catalogue
from referee.cards import FULL_SET, Card
from referee.errors import SetupError
from referee.events import CardPlayed, CardTakenBack, Conflict, IllegalPlay, RoundStopped
from referee.rules import ConflictResolution, RuleSettings, ShortHand, row_size
from referee.simulator import BotProfile, Delay, MistakeRates, Round, SimSettings
from referee.simulator.bots import BuildDown, Play, Refill, TurnOver, Wait, choose, fits_below
from referee.simulator.mistakes import find_mistake
from referee.simulator.places import Places
from referee.simulator.trace import Move

BACKS = Catalogue.default().ids


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def round_with(players: int = 4, seed: int = 0, observer=None, **options) -> Round:
    mistakes = options.pop("mistakes", MistakeRates())
    sim = SimSettings(rules=RuleSettings(**options), mistakes=mistakes)
    return Round(BACKS[:players], seed=seed, settings=sim, observer=observer)


# ------------------------------------------------------------------------------ hand and discard


@pytest.mark.parametrize(
    ("short_hand", "hand", "turned", "picked_up"),
    [
        (ShortHand.TURN_REMAINING, "r3 r4", 2, False),
        (ShortHand.RESHUFFLE_FIRST, "r3 r4", 3, True),
        (ShortHand.TURN_REMAINING, "", 3, True),
        (ShortHand.RESHUFFLE_FIRST, "", 3, True),
        (ShortHand.TURN_REMAINING, "r3 r4 r5 r6", 3, False),
    ],
)
def test_short_hand_setting_decides_what_happens_with_fewer_than_three_hand_cards(short_hand, hand, turned, picked_up):
    places = Places(row=[], pile=[], hand=cards(hand), discard=cards("b1 b2 b3 b4 b5"))
    before = Counter(places.all_cards())
    needs = places.needs_pick_up(3, short_hand)
    if needs:
        places.pick_up(random.Random(0))
    assert needs == picked_up
    assert len(places.turn(3)) == turned
    assert Counter(places.all_cards()) == before


def test_turning_over_a_block_of_three_leaves_the_deepest_card_on_top():
    places = Places(row=[], pile=[], hand=cards("g9 r3 y4 b5"))  # b5 is the top of the face-down hand
    places.turn(3)
    assert places.discard == cards("b5 y4 r3")
    assert places.top("discard") == Card.parse("r3")
    assert places.hand == cards("g9")


def test_an_empty_hand_picks_up_the_discard_pile_face_down_and_shuffled():
    places = Places(row=[], pile=[], hand=[], discard=list(FULL_SET[:12]))
    assert places.needs_pick_up(3, ShortHand.TURN_REMAINING)
    places.pick_up(random.Random(3))
    assert places.discard == []
    assert sorted(places.hand) == sorted(FULL_SET[:12])
    assert places.hand != list(FULL_SET[:12])


@pytest.mark.parametrize("turn_over", [1, 2, 3])
def test_turn_over_setting_is_how_many_hand_cards_go_to_the_discard_at_once(turn_over):
    growth = Counter[int]()
    previous: dict[int, int] = {}

    def watch(rnd: Round) -> None:
        for seat in rnd.seats:
            size = len(seat.places.discard)
            if seat.index in previous and size > previous[seat.index]:
                growth[size - previous[seat.index]] += 1
            previous[seat.index] = size

    round_with(3, seed=5, observer=watch, turn_over=turn_over).play()
    assert max(growth) == turn_over
    assert growth[turn_over] > 0


# ------------------------------------------------------------------------------ bots' choices


@pytest.mark.parametrize(
    ("row", "pile", "discard", "hand", "wanted", "expected"),
    [
        ("r2 b1", "g5", "", "", {"g5": [3]}, Play("pile", Card.parse("g5"), 3)),
        ("r2 b1", "g7", "", "", {}, Play("row:1", Card.parse("b1"), None)),
        ("r2 -", "g7", "y4", "", {"y4": [2]}, Refill(1)),
        ("r2 b8", "g7", "y4", "", {"y4": [2]}, Play("discard", Card.parse("y4"), 2)),
        ("r2 b8", "g7", "y4", "r9", {}, TurnOver()),
        ("r2 b8", "", "", "", {}, Wait()),
    ],
)
def test_a_bot_plays_pile_then_row_then_refills_then_discard_then_turns_over(
    row, pile, discard, hand, wanted, expected
):
    places = Places(
        row=[[] if word == "-" else [Card.parse(word)] for word in row.split()],
        pile=cards(pile),
        hand=cards(hand),
        discard=cards(discard),
    )
    needs = {Card.parse(card): stacks for card, stacks in wanted.items()}
    assert choose(places, needs, advanced_row=False, rng=random.Random(0)) == expected


def test_advanced_row_bot_builds_down_on_its_row_with_another_colour_one_lower():
    places = Places(row=[[Card.parse("r6")], [Card.parse("g9")]], pile=cards("b8 y5"), hand=cards("b2"))
    assert choose(places, {}, advanced_row=False, rng=random.Random(0)) == TurnOver()
    assert choose(places, {}, advanced_row=True, rng=random.Random(0)) == BuildDown("pile", Card.parse("y5"), 0)


@pytest.mark.parametrize("advanced_row", [False, True])
def test_row_slots_hold_one_card_unless_the_advanced_row_is_played(advanced_row):
    deepest = Counter[int]()

    def watch(rnd: Round) -> None:
        for seat in rnd.seats:
            for slot in seat.places.row:
                deepest[len(slot)] += 1
                assert all(fits_below(low, high) for high, low in itertools.pairwise(slot))

    for seed in range(3):
        round_with(2, seed=seed, observer=watch, advanced_row=advanced_row).play()
    assert (max(deepest) > 1) == advanced_row


# ------------------------------------------------------------------------------ mistakes


@pytest.mark.parametrize(
    ("kind", "offered", "tops", "expected"),
    [
        ("wrong_colour", "b5", {1: "r4"}, ("row:0", "b5", 1)),
        ("wrong_colour", "r5", {1: "r4"}, None),
        ("wrong_number", "r7", {1: "r4"}, ("row:0", "r7", 1)),
        ("wrong_number", "b7", {1: "r4"}, None),
        ("not_a_one", "b7", {}, ("row:0", "b7", None)),
        ("not_a_one", "b1", {}, None),
        ("stack_full", "b7", {1: "r10"}, ("row:0", "b7", 1)),
        ("wrong_number", "r7", {1: "r10"}, None),
    ],
)
def test_an_injected_mistake_commits_exactly_its_violation(kind, offered, tops, expected):
    found = find_mistake(
        kind, [("row:0", Card.parse(offered))], {k: Card.parse(v) for k, v in tops.items()}, random.Random(0)
    )
    if expected is None:
        assert found is None
    else:
        assert found == (expected[0], Card.parse(expected[1]), expected[2])


def test_a_wrong_card_is_taken_back_to_the_place_it_came_from_after_a_short_delay():
    result = round_with(4, seed=2, mistakes=MistakeRates(wrong_number=0.1, not_a_one=0.1)).play()
    illegal = [e for e in result.events if isinstance(e, IllegalPlay)]
    taken = [e for e in result.events if isinstance(e, CardTakenBack)]
    assert illegal
    for play in illegal:
        back = next(
            e for e in taken if (e.card, e.back, e.stack) == (play.card, play.back, play.stack) and e.t > play.t
        )
        assert back.source == play.source
        assert 0.5 <= back.t - play.t < 5.0


@pytest.mark.parametrize("delay", [0.6, 2.5])
def test_the_take_back_delay_is_a_setting_of_the_bots(delay):
    bots = BotProfile(take_back=Delay(delay, spread=0.0), speeds=(1.0, 1.0))
    sim = SimSettings(bots=bots, mistakes=MistakeRates(wrong_colour=0.1, not_a_one=0.1))
    result = Round(BACKS[:4], seed=5, settings=sim).play()
    lying: dict[tuple, list[float]] = {}  # the same card may go wrong twice: take-backs pair up in order
    delays = []
    for e in result.events:
        if isinstance(e, IllegalPlay):
            lying.setdefault((e.card, e.back, e.stack), []).append(e.t)
        elif isinstance(e, CardTakenBack) and lying.get((e.card, e.back, e.stack)):  # not a conflict's card
            delays.append(e.t - lying[(e.card, e.back, e.stack)].pop(0))
    assert len(delays) >= 5
    assert delays == pytest.approx([delay] * len(delays))


@pytest.mark.parametrize("window", [0.4, 1.0])
def test_a_conflict_window_longer_than_the_quickest_reaction_is_refused(window):
    with pytest.raises(SetupError, match="longer than the conflict window"):
        SimSettings(conflict_window=window)


def test_a_card_slapped_after_ligretto_stop_is_after_stop_and_taken_back():
    result = round_with(6, seed=1, mistakes=MistakeRates(after_stop=0.5)).play()
    stop = next(e for e in result.events if isinstance(e, RoundStopped))
    late = [e for e in result.events if isinstance(e, IllegalPlay)]
    assert len(late) == 5  # everybody but the player who called it
    assert all(e.reason == "after_stop" and e.t > stop.t for e in late)
    taken = {(e.card, e.back, e.stack) for e in result.events if isinstance(e, CardTakenBack) and e.t > stop.t}
    assert {(e.card, e.back, e.stack) for e in late} <= taken


# ------------------------------------------------------------------------------ conflicts


@pytest.mark.parametrize("resolution", list(ConflictResolution))
def test_two_identical_cards_on_one_stack_at_once_are_a_conflict_resolved_by_the_setting(resolution):
    result = round_with(6, seed=4, conflict_resolution=resolution, mistakes=MistakeRates(conflict=0.5)).play()
    events = list(result.events)
    conflicts = [(i, e) for i, e in enumerate(events) if isinstance(e, Conflict)]
    assert conflicts
    for i, conflict in conflicts:
        assert len(set(conflict.cards)) == 1
        assert len(conflict.placements) == len(conflict.cards) == len(conflict.backs)
        returned = [
            e.back
            for e in events[i:]
            if isinstance(e, CardTakenBack)
            and (e.card, e.stack) == (conflict.card or conflict.cards[0], conflict.stack)
        ]
        if resolution is ConflictResolution.LOWER_CARD_STAYS:
            assert conflict.card == conflict.cards[0]
            kept = events[i + 1]
            assert isinstance(kept, CardPlayed) and kept.back == conflict.backs[0]
            assert set(conflict.backs[1:]) <= set(returned)
        else:
            assert conflict.card is None
            assert set(conflict.backs) <= set(returned)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 1), (8, 3), (12, 1), (12, 9)])
def test_bots_play_one_handed_so_a_players_cards_go_to_and_from_the_centre_one_at_a_time(players, seed):
    # The one-hand house rule: the bots keep it under either setting (two hands are allowed, never needed).
    # Injected conflicts included, whose rival throw starts only once the rival's hand is free.
    result = round_with(players, seed=seed, mistakes=MistakeRates.uniform(0.2)).play()
    hands: dict[str, list[Move]] = {}
    for move in result.trace:
        if isinstance(move, Move) and "centre" in (move.target[:6], move.source[:6]) and move.target != "spread":
            hands.setdefault(move.back, []).append(move)
    assert any(m.kind == "conflict" for m in result.mistakes) or players == 2
    for moves in hands.values():
        moves.sort(key=lambda m: m.t)
        assert all(later.t >= earlier.t_end - 1e-9 for earlier, later in itertools.pairwise(moves))


# ------------------------------------------------------------------------------ round end


def buried_deal() -> list[Card]:
    """Every 2 and 3 lies under a 5 in the Ligretto pile; the row holds 6s and a 7; the 1s are in hand."""
    pile = cards("r2 y2 g2 b2 r3 y3 g3 b3 r4 r5")
    row = cards("r6 y6 g6 b6 r7")
    return pile + row + [card for card in FULL_SET if card not in pile + row]


def test_round_ends_in_deadlock_when_every_card_that_fits_is_buried_in_the_piles():
    rnd = Round(BACKS[:2], seed=1, deals=[buried_deal(), buried_deal()])
    result = rnd.play()
    assert (result.reason, result.outcome.back) == ("deadlock", None)
    assert rnd.stuck()
    assert result.centre == {BACKS[0]: 4, BACKS[1]: 4}  # only the 1s got out
    assert result.scores == {BACKS[0]: 4 - 20, BACKS[1]: 4 - 20}


def test_a_deal_must_be_a_whole_set():
    with pytest.raises(SetupError, match="whole set"):
        Round(BACKS[:2], deals=[buried_deal(), [*buried_deal()[:-1], Card.parse("r1")]])


def last_pile_move(result) -> Move:
    back = result.outcome.back
    return [r for r in result.trace if isinstance(r, Move) and r.back == back and r.source == "pile"][-1]


def test_ligretto_stop_when_the_last_pile_card_goes_to_the_centre():
    for seed in range(40):
        result = round_with(4, seed=seed).play()
        move = last_pile_move(result)
        if result.reason == "ligretto_stop" and move.target.startswith("centre:") and move.t_end < result.duration + 1:
            break
    else:
        pytest.fail("no round in 40 seeds ended with a pile card to the centre")
    assert result.final[result.outcome.back]["pile"] == []
    assert move.t_end <= result.duration <= move.t_end + 0.2  # the stop waits out the conflict window at most


def test_ligretto_stop_when_the_last_pile_card_goes_to_the_row():
    for seed in range(200):
        result = round_with(4, seed=seed).play()
        move = last_pile_move(result)
        if result.reason == "ligretto_stop" and move.target.startswith("row:"):
            break
    else:
        pytest.fail("no round in 200 seeds ended with a pile card refilling the row")
    assert move.t_end == pytest.approx(result.duration)
    stop = next(e for e in result.events if isinstance(e, RoundStopped))
    assert (stop.reason, stop.back) == ("ligretto_stop", result.outcome.back)
    assert str(move.card) in result.final[result.outcome.back][move.target]


def test_an_empty_pile_ends_the_round_through_the_outcome_funnel():
    rnd = round_with(3)
    assert rnd.outcome() is None
    rnd.seats[1].places.pile.clear()
    outcome = rnd.outcome()
    assert outcome is not None and (outcome.reason, outcome.back) == ("ligretto_stop", BACKS[1])


# ------------------------------------------------------------------------------ set-up and timing


@pytest.mark.parametrize("players", [2, 3, 4, 12])
def test_each_player_is_dealt_a_row_by_player_count_a_pile_of_ten_and_the_rest_in_hand(players):
    result = round_with(players).play()
    seats = result.layout["table"]["seats"]
    assert len(seats) == players
    for seat in seats:
        rows = [name for name in seat["cards"] if name.startswith("row:")]
        assert len(rows) == row_size(players)
        assert len(seat["cards"]["pile"]) == 10
        assert len(seat["cards"]["hand"]) == 40 - 10 - row_size(players)
        assert seat["cards"]["discard"] == []


@pytest.mark.parametrize(("backs", "message"), [(BACKS[:1], "2 to 12"), (("a", "a"), "same back")])
def test_a_round_needs_two_to_twelve_distinct_backs(backs, message):
    with pytest.raises(SetupError, match=message):
        Round(backs)


def test_the_same_seed_plays_the_same_round_and_another_seed_another():
    first, again, other = (round_with(5, seed=s).play() for s in (11, 11, 12))
    assert [e.to_json() for e in first.events] == [e.to_json() for e in again.events]
    assert first.trace == again.trace
    assert [e.to_json() for e in first.events] != [e.to_json() for e in other.events]


def test_a_four_player_round_lasts_about_one_to_three_minutes():
    durations = [round_with(4, seed=seed).play().duration for seed in range(30)]
    assert 60 <= statistics.median(durations) <= 180
    assert sum(45 <= d <= 240 for d in durations) >= 27

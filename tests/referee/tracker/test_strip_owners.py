"""Whose each card of a fanned stack is, told by its strip's ink in the fan, card by card in the stack's order."""

from __future__ import annotations

from collections.abc import Sequence

from referee.cards import Card
from referee.centre import CentreCard, Stack
from referee.events import Placement
from referee.sightings import Point, Quad
from referee.tracker.counting import CentreFan
from referee.tracker.strip_owners import Ink, StripReader, owners_by_strips

INK: dict[str, Ink] = {
    "a": (180.0, 40.0, 15.0),  # red
    "b": (220.0, -25.0, -12.0),  # light blue
    "c": (100.0, 0.0, 0.0),  # black
    "d": (215.0, 25.0, -15.0),  # pink
    "e": (180.0, 40.0, 15.0),  # red too: another box's set lettered in the same colour
    "x": (192.5, 34.6, 4.3),  # between red and pink, 1.8 times nearer red's
    "y": (195.9, 33.2, 1.4),  # between red and pink, only 1.2 times nearer red's
}
HERE, LEFT, RIGHT, APART = (0.0, 0.0), (-300.0, 0.0), (300.0, 0.0), (0.0, 500.0)


def _stack(id: int, cards: str, at: Point = HERE) -> Stack:
    return Stack(id, tuple(CentreCard(Card.parse(c), placement=Placement(*at)) for c in cards.split()))


def _greens(n: int) -> str:
    return " ".join(f"g{k}" for k in range(1, n + 1))


def _fan(at: Point) -> CentreFan:
    """A fan starting at ``at`` (its outlines stand for it: the reader below knows fans by where they lie)."""
    return CentreFan((at, (at[0], at[1] + 14.0)), {}, quads=((at,) * 4,) * 2, card_mm=91.0)


def _play(owners: str) -> list[str | None]:
    """Play's owners, a letter a card; ``-`` unnamed."""
    return [None if o == "-" else o for o in owners]


def _reader(shown: dict[Point, str]) -> StripReader:
    """A picture showing each fan's players' inks from its whole card on (a fan not shown cannot be read)."""

    def read(quads: Sequence[Quad], others: Sequence[Quad], card_mm: float, cards: int) -> list[Ink] | None:
        fan = shown.get(quads[0][0])
        return [INK[owner] for owner in fan] if fan is not None and len(fan) == cards else None

    return read


def _round(
    play: str, inks: str | None, *, others: str = "abcdabcd", top_first: bool = False, told_twice: Sequence[int] = ()
) -> list[str | None]:
    """The fanned stack of greens ``play`` named, read as ``inks`` (None: unreadable), in a round with two more
    fanned stacks whose inks agree with play (``others``; whole card the top card if ``top_first``): its owners
    after the strips. ``told_twice``: the fanned stack's cards (bottom first, from 0) whose name play told by both
    the face and the arm."""
    stacks = [_stack(1, _greens(len(play))), _stack(2, _greens(len(others)).replace("g", "r"), LEFT)]
    stacks.append(_stack(3, _greens(len(others)).replace("g", "b"), RIGHT))
    shown = {LEFT: others, RIGHT: others} | ({HERE: inks} if inks is not None else {})
    if top_first:
        shown = {at: fan[::-1] for at, fan in shown.items()}
    rows = [_play(play), _play(others), _play(others)]
    sure = [[k in told_twice for k in range(len(play))], [False] * len(others), [False] * len(others)]
    named = owners_by_strips(stacks, rows, [_fan(HERE), _fan(LEFT), _fan(RIGHT)], (), _reader(shown), sure)
    assert named[1:] == rows[1:]
    return named[0]


def test_a_strip_play_named_wrongly_is_named_by_its_ink_where_the_fan_agrees_with_play_elsewhere() -> None:
    assert _round("abcdabcc", "abcdabcd") == _play("abcdabcd")


def test_a_name_play_told_twice_over_is_not_renamed_by_its_strip() -> None:
    # the face seen at the seat and the arm that put the card down agreed: a strip a few pixels wide beside the
    # whole card may show its neighbour's ink (seed 117004, four players: red-light-blue's y9 read red-pink's)
    assert _round("abcdabcc", "abcdabcd", told_twice=[7]) == _play("abcdabcc")
    assert _round("ab-dabcc", "abcdabcd", told_twice=[7]) == _play("abcdabcc")


def test_a_card_play_left_unnamed_is_named_by_its_ink() -> None:
    assert _round("ab-dabc", "abcdabc") == _play("abcdabc")


def test_a_fan_whose_inks_disagree_with_play_names_nothing() -> None:
    # its strips read where they do not lie: four of seven named cards nearest another player's ink
    assert _round("abcdab-c", "abdcbaac") == _play("abcdab-c")


def test_a_fan_agreeing_with_play_no_more_than_chance_would_names_nothing() -> None:
    # two players: five named cards all agreeing happens one time in 30 to a fan read out of step with its cards
    assert _round("abab-a", "ababba", others="abababab") == _play("abab-a")
    # nine agreeing, one time in 500
    assert _round("abababab-a", "ababababba", others="abababab") == _play("ababababba")


def test_a_strip_whose_ink_two_players_share_names_neither() -> None:
    assert _round("abcdabc-", "abcdabce", others="abcdabce") == _play("abcdabc-")


def test_the_players_inks_come_from_the_other_fans() -> None:
    # alone in the round, a fan would teach the players' inks whatever order it was read in, and agree with play
    stack = _stack(1, _greens(8))
    read = _reader({HERE: "abdcbaac"})
    assert owners_by_strips([stack], [_play("abcdab-c")], [_fan(HERE)], (), read) == [_play("abcdab-c")]


def test_the_whole_card_keeps_the_owner_play_named() -> None:
    # other fans cross the whole card lying at the fan's end: its ink is the least sure
    assert _round("dbcdabc", "abcdabc") == _play("dbcdabc")


def test_the_stacks_order_is_the_one_the_inks_agree_with_play_in() -> None:
    # fanned the other way: each fan's whole card is its top card
    assert _round("abc-abd", "abccabd", top_first=True) == _play("abccabd")


def test_a_player_whose_copy_of_the_card_is_named_on_another_stack_is_not_named_again() -> None:
    fanned, left, right = _stack(1, _greens(7)), _stack(2, "r1 r2 r3 r4", LEFT), _stack(3, "b1 b2 b3 b4", RIGHT)
    unfanned = _stack(4, "g1 g2 g3", APART)  # c's g3 started this stack
    rows = [_play("ab-dabc"), _play("abcd"), _play("abcd"), _play("abc")]
    read = _reader({HERE: "abcdabc", LEFT: "abcd", RIGHT: "abcd"})
    named = owners_by_strips([fanned, left, right, unfanned], rows, [_fan(HERE), _fan(LEFT), _fan(RIGHT)], (), read)
    assert named == rows


def test_two_stacks_spread_into_one_fan_are_not_read_card_by_card() -> None:
    first, second = _stack(1, _greens(6)), _stack(2, "y1 y2 y3", (0.0, 20.0))
    others = [_stack(3, "r1 r2 r3 r4", LEFT), _stack(4, "b1 b2 b3 b4", RIGHT)]
    rows = [_play("ab-dab"), _play("cd-"), _play("abcd"), _play("abcd")]
    read = _reader({HERE: "abcdab", LEFT: "abcd", RIGHT: "abcd"})
    assert owners_by_strips([first, second, *others], rows, [_fan(HERE), _fan(LEFT), _fan(RIGHT)], (), read) == rows


def test_a_fan_the_picture_cannot_read_names_nothing() -> None:
    assert _round("ab-dab", None) == _play("ab-dab")


def test_a_strip_whose_ink_lies_clearly_nearer_one_players_ink_is_theirs() -> None:
    assert _round("ab-dabc", "abxdabc") == _play("abadabc")


def test_a_strip_whose_ink_lies_about_as_near_two_players_inks_names_nobody() -> None:
    assert _round("ab-dabc", "abydabc") == _play("ab-dabc")

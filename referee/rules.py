"""The rules of Ligretto as queries: settings for every open point, set-up checks, and the judge.

The judge never raises on an illegal play: it returns a :class:`Ruling` that is legal or carries the set
of :class:`Violation` flags, the way ``board.is_legal(move)`` answers in python-chess.

>>> judge(None, Card.parse("r1")).legal
True
>>> judge(Card.parse("r4"), Card.parse("y5")).reason
'wrong_colour'
>>> sorted(v.value for v in judge(Card.parse("r4"), Card.parse("b7")).violations)
['wrong_colour', 'wrong_number']
>>> judge(Card.parse("g10"), Card.parse("g1")).reason
'stack_full'
>>> judge(Card.parse("b2"), Card.parse("b3"), stopped=True).reason
'after_stop'
>>> row_size(2), row_size(3), row_size(12)
(5, 4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.cards import HIGHEST, LOWEST, Card
from referee.errors import SetupError

MIN_PLAYERS = 2
MAX_PLAYERS = 12
LIGRETTO_PILE_SIZE = 10
CARDS_PER_SET = 40


class Violation(StrEnum):
    """Why a card may not land where it landed. The value is the ``reason`` written in events."""

    AFTER_STOP = "after_stop"
    STACK_FULL = "stack_full"
    NOT_A_ONE = "not_a_one"
    WRONG_COLOUR = "wrong_colour"
    WRONG_NUMBER = "wrong_number"

    def __str__(self) -> str:
        return self.value


# Order in which one violation is named as *the* reason when several apply: the most decisive first.
_REASON_ORDER = tuple(Violation)


class ConflictResolution(StrEnum):
    """Who keeps a card when two identical cards land on one stack at the same moment (rule book silent)."""

    LOWER_CARD_STAYS = "lower_card_stays"
    """Common practice and the default: the card underneath was first; the other player takes theirs back."""
    BOTH_TAKEN_BACK = "both_taken_back"
    """Strict tables: neither card counts, both players take theirs back."""


class ShortHand(StrEnum):
    """What happens when fewer than 3 hand cards are left to turn over (rule book silent)."""

    TURN_REMAINING = "turn_remaining"
    """Usual practice and the default: turn the last 1 or 2, then pick up the discard pile and reshuffle."""
    RESHUFFLE_FIRST = "reshuffle_first"
    """Put the last 1 or 2 under the discard pile, pick it all up, shuffle, and turn 3."""


@dataclass(frozen=True)
class RuleSettings:
    """Every point the rule book leaves open, with the default stated in ligretto-rules.md.

    The match settings: ``rounds`` (official: agree a number of rounds) or ``target_score`` (house rule:
    play until someone's total reaches it). With both set, the match ends at whichever comes first.
    ``one_hand`` (house rule: one card in flight per player) is recorded with the match; the simulator's bots
    keep it under either value, and the judge does not check it (no violation names it yet).
    """

    conflict_resolution: ConflictResolution = ConflictResolution.LOWER_CARD_STAYS
    short_hand: ShortHand = ShortHand.TURN_REMAINING
    rounds: int | None = 1
    target_score: int | None = None
    advanced_row: bool = False
    one_hand: bool = False
    turn_over: int = 3

    def __post_init__(self) -> None:
        if self.rounds is None and self.target_score is None:
            raise SetupError("a match needs a number of rounds or a target score")
        if self.rounds is not None and self.rounds < 1:
            raise SetupError(f"a match needs at least 1 round, not {self.rounds}")
        if self.target_score is not None and self.target_score < 1:
            raise SetupError(f"the target score must be positive, not {self.target_score}")
        if self.turn_over < 1:
            raise SetupError(f"cards turned over at a time must be at least 1, not {self.turn_over}")


@dataclass(frozen=True)
class Ruling:
    """The judge's answer about one card landing: legal, or the violations it commits."""

    violations: frozenset[Violation] = frozenset()

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def reason(self) -> str | None:
        """The single reason written into an ``illegal_play`` event, or None when legal."""
        for violation in _REASON_ORDER:
            if violation in self.violations:
                return violation.value
        return None

    def __bool__(self) -> bool:
        return self.legal


LEGAL = Ruling()


def judge(top: Card | None, card: Card, *, stopped: bool = False) -> Ruling:
    """Rules on ``card`` landing on a stack whose legal top is ``top`` (None: starting a new stack).

    A card played after "Ligretto stop" is flagged ``after_stop`` whatever else it is, so the table sees
    why it does not count.
    """
    violations: set[Violation] = set()
    if stopped:
        violations.add(Violation.AFTER_STOP)
    if top is None:
        if card.number != LOWEST:
            violations.add(Violation.NOT_A_ONE)
    elif top.number >= HIGHEST:
        violations.add(Violation.STACK_FULL)
    else:
        if card.colour != top.colour:
            violations.add(Violation.WRONG_COLOUR)
        if card.number != top.number + 1:
            violations.add(Violation.WRONG_NUMBER)
    return Ruling(frozenset(violations)) if violations else LEGAL


def playable_on(top: Card | None) -> Card | None:
    """The one card that may land on ``top`` (a stack), or None for a full stack.

    >>> playable_on(Card.parse("r4"))
    Card.parse('r5')
    >>> playable_on(Card.parse("r10")) is None
    True
    """
    if top is None:
        return None
    if top.number >= HIGHEST:
        return None
    return Card(top.colour, top.number + 1)


def resolve_conflict(
    top: Card | None, cards: Sequence[Card], settings: RuleSettings = RuleSettings()
) -> tuple[Card | None, tuple[int, ...]]:
    """Two or more cards land on one stack at the same moment, listed bottom first.

    Returns the card that stays (None if none does) and the indices of the cards taken back. Only a legal
    card can stay; among legal ones the lowest stays under ``LOWER_CARD_STAYS``.

    >>> resolve_conflict(Card.parse("r4"), [Card.parse("r5"), Card.parse("r5")])
    (Card.parse('r5'), (1,))
    >>> resolve_conflict(Card.parse("r4"), [Card.parse("r5"), Card.parse("r5")],
    ...                  RuleSettings(conflict_resolution=ConflictResolution.BOTH_TAKEN_BACK))
    (None, (0, 1))
    """
    legal = [i for i, card in enumerate(cards) if judge(top, card).legal]
    if not legal or settings.conflict_resolution is ConflictResolution.BOTH_TAKEN_BACK:
        return None, tuple(range(len(cards)))
    keep = legal[0]
    return cards[keep], tuple(i for i in range(len(cards)) if i != keep)


def row_size(players: int) -> int:
    """Cards in each player's row: 5 with 2 players, 4 with 3, 3 with 4 or more."""
    check_player_count(players)
    return {2: 5, 3: 4}.get(players, 3)


def check_player_count(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Ligretto is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


def check_setup(backs: Sequence[str]) -> None:
    """A round needs 2..12 players, each with a set of a distinct back."""
    check_player_count(len(backs))
    seen: set[str] = set()
    for back in backs:
        if back in seen:
            raise SetupError(f"two players cannot use the same back {back!r}: every set needs its own back")
        seen.add(back)

"""Bots: how fast a simulated player reacts, and what they do next.

A bot looks at the table for a *think* time, then acts: a card to the centre (in flight for a moment), a
refill of a row gap, a card built down on its own row (advanced variant), or three hand cards turned over.
Times are drawn from :class:`Delay` distributions so a 4-player round lasts about 1-3 minutes.

>>> Delay(1.0, 0.0, 0.2).sample(random.Random(0))
1.0
>>> from referee.cards import Card
>>> places = Places(row=[[Card.parse("r2")], [Card.parse("b1")]], pile=[Card.parse("g5")], hand=[])
>>> choose(places, {Card.parse("g5"): [3]}, advanced_row=False, rng=random.Random(0))
Play(source='pile', card=Card.parse('g5'), stack=3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.cards import LOWEST, Card
from referee.errors import SetupError
from referee.simulator.places import DISCARD, PILE, Places


@dataclass(frozen=True)
class Delay:
    """A reaction time in seconds: log-normal around ``median`` with ``spread`` (sigma), never below ``least``."""

    median: float
    spread: float = 0.4
    least: float = 0.0

    def sample(self, rng: random.Random, speed: float = 1.0) -> float:
        value = self.median * speed
        if self.spread > 0:
            value *= rng.lognormvariate(0.0, self.spread)
        return max(self.least, value)


@dataclass(frozen=True)
class BotProfile:
    """The reaction times of the bots at one table. Each bot draws its own ``speed`` factor in ``speeds``.

    ``think`` must stay above the conflict window (see ``round.CONFLICT_WINDOW``): a player cannot react to
    a card faster than it takes to see it land.
    """

    think: Delay = field(default_factory=lambda: Delay(1.25, 0.45, 0.35))
    flight: Delay = field(default_factory=lambda: Delay(0.4, 0.25, 0.2))
    turn_over: Delay = field(default_factory=lambda: Delay(0.8, 0.3, 0.4))
    refill: Delay = field(default_factory=lambda: Delay(0.6, 0.3, 0.3))
    take_back: Delay = field(default_factory=lambda: Delay(1.2, 0.3, 0.5))
    speeds: tuple[float, float] = (0.8, 1.25)

    @classmethod
    def pace(cls, name: str) -> BotProfile:
        """The bots of a named pace (``ligretto simulate --pace``): ``fast``, ``normal`` or ``slow``.

        >>> BotProfile.pace("normal") == BotProfile()
        True
        """
        if name not in PACES:
            raise SetupError(f"unknown pace {name!r}: choose {', '.join(PACES)}")
        return PACES[name]


PACES: dict[str, BotProfile] = {
    # Keen players, about twice the normal pace: a 4-player round lasts about half a minute to a minute.
    "fast": BotProfile(
        think=Delay(0.55, 0.45, 0.2),
        flight=Delay(0.35, 0.25, 0.2),
        turn_over=Delay(0.5, 0.3, 0.25),
        refill=Delay(0.4, 0.3, 0.2),
        take_back=Delay(0.8, 0.3, 0.4),
    ),
    # A family table: a 4-player round lasts about 1-3 minutes.
    "normal": BotProfile(),
    # Beginners, a little over half the normal pace: a 4-player round lasts about 2-3.5 minutes.
    "slow": BotProfile(
        think=Delay(2.4, 0.45, 0.6),
        flight=Delay(0.5, 0.25, 0.25),
        turn_over=Delay(1.2, 0.3, 0.5),
        refill=Delay(0.8, 0.3, 0.35),
        take_back=Delay(1.6, 0.3, 0.6),
    ),
}
"""Bot presets by pace; every one keeps ``think`` and ``flight`` above the conflict window."""


@dataclass(frozen=True)
class Play:
    """A card from ``source`` to the centre: onto ``stack``, or starting a new stack when None."""

    source: str
    card: Card
    stack: int | None


@dataclass(frozen=True)
class Refill:
    """The top of the Ligretto pile fills the empty row ``slot``."""

    slot: int


@dataclass(frozen=True)
class BuildDown:
    """Advanced variant: ``card`` from ``source`` goes on the own row ``slot`` (other colour, one lower)."""

    source: str
    card: Card
    slot: int


@dataclass(frozen=True)
class TurnOver:
    """Nothing to play: turn hand cards over onto the discard pile."""


@dataclass(frozen=True)
class Wait:
    """Nothing to play and nothing to turn over."""


Action = Play | Refill | BuildDown | TurnOver | Wait


def choose(places: Places, wanted: dict[Card, list[int]], *, advanced_row: bool, rng: random.Random) -> Action:
    """What a bot does next. ``wanted`` maps each card the centre needs to the stacks that need it.

    Priority, as a keen player: the Ligretto pile first (it costs points), then the row, refilling a gap,
    the discard pile, building down on the row, and only then turning hand cards over.
    """
    for source in places.sources():
        play = None if source == DISCARD else _centre_play(places, source, wanted, rng)
        if play is not None:
            return play
    if places.pile and (slot := places.gap()) is not None:
        return Refill(slot)
    if places.discard:
        play = _centre_play(places, DISCARD, wanted, rng)
        if play is not None:
            return play
    if advanced_row:
        build = _build_down(places)
        if build is not None:
            return build
    if places.hand or places.discard:
        return TurnOver()
    return Wait()


def fits_below(card: Card, row_top: Card) -> bool:
    """Advanced variant: ``card`` may go on ``row_top`` in the own row (other colour, one lower).

    >>> fits_below(Card.parse("b4"), Card.parse("r5")), fits_below(Card.parse("r4"), Card.parse("r5"))
    (True, False)
    """
    return card.colour != row_top.colour and card.number == row_top.number - 1


def _centre_play(places: Places, source: str, wanted: dict[Card, list[int]], rng: random.Random) -> Play | None:
    card = places.top(source)
    if card is None:
        return None
    if card.number == LOWEST:
        return Play(source, card, None)
    stacks = wanted.get(card)
    if stacks:
        return Play(source, card, stacks[0] if len(stacks) == 1 else rng.choice(stacks))
    return None


def _build_down(places: Places) -> BuildDown | None:
    for source in (PILE, DISCARD):
        card = places.top(source)
        if card is None:
            continue
        for slot, cards in enumerate(places.row):
            if cards and fits_below(card, cards[-1]):
                return BuildDown(source, card, slot)
    return None

"""Whose each card of a fanned stack is, told by its strip's ink in the fan, card by card in the stack's order.

Play names the owner of most centre cards (:mod:`referee.tracker.owners`), a few wrongly (the loser of a race
for the stack, an arm reaching past) and a few not at all. A stack spread out where it lay keeps its cards in
order, each showing a strip of its back, and a set's back is printed in its own ink colour: the fan names each of
its cards, where the picture can be trusted. The picture reads a fan (a :data:`StripReader`: its cards' inks,
from its whole card on); the rules and play tell the rest:

1. A fan read is a stack's when it starts where the stack lay and holds no other stack
   (:func:`referee.tracker.fan_owners.fan_of`), read as the stack's height in cards.
2. Each player's ink is the median of the inks of the cards play named theirs, in the other fans read (a fan's own
   cards would teach the players' inks whatever order it was read in). The whole card is the stack's bottom card
   or its top, as the round's players spread their stacks (all alike): the order under which more named cards lie
   nearest their own player's ink.
3. A fan is trusted when at least :data:`AGREEMENT` of its named cards (:data:`MIN_NAMED` at least) lie nearest
   their player's ink, and chance would have them agree so often at most :data:`CHANCE` of the time: its strips
   were found where they lie, and no other fan crosses them. The players' inks are then taken from trusted fans.
4. In a trusted fan, a strip whose ink lies :data:`MARGIN` times nearer one player's ink than any other's is
   that player's card, named or not, unless that player's copy of the card is named elsewhere in the centre (a
   player holds one of each). The whole card is left as play named it: other fans cross it.

Seventeen two- and four-player rounds whose stacks were fanned where they lay (seeds 101001-101033, the final
count's fans, stacks and play's owners pickled and read again offline, ``out/dev/strips/``): the fans trusted held
307 cards whose strips' inks named a player at a margin of 2, all rightly; of the 9 cards in fans read that play
named wrongly or not at all, 4 put right, none named wrongly. At a margin of 1.5 (read again in the fortieth session,
``out/dev/strips/whyfix.py``): 229 strips of the stacks matched to the truth named (219 at 2), all rightly, down to
1.2 (233); one more card put right, seed 101008's r3 left unnamed by play (its ink 13 from red-red's, 21 from
red-pink's).

>>> from referee.cards import Card
>>> from referee.centre import CentreCard, Stack
>>> from referee.events import Placement
>>> red, blue, black, pink = (180.0, 40.0, 15.0), (220.0, -25.0, -12.0), (100.0, 0.0, 0.0), (215.0, 25.0, -15.0)
>>> def stack(id, colour, x):
...     cards = (CentreCard(Card.parse(f"{colour}{n}"), placement=Placement(x, 0.0)) for n in range(1, 10))
...     return Stack(id, tuple(cards))
>>> stacks = [stack(1, "g", 0.0), stack(2, "r", 300.0)]
>>> fans = [CentreFan(((x, 0.0), (x, 14.0)), {}, quads=(((x, 0.0),) * 4,), card_mm=91.0) for x in (0.0, 300.0)]
>>> shown = {0.0: [red, blue, black, pink, red, blue, black, pink, black], 300.0: [red, blue, black, pink] * 2}
>>> shown[300.0].append(black)
>>> read = lambda quads, others, card_mm, cards: shown[quads[0][0][0]]  # each fan's inks from its whole card on
>>> play = [["a", "b", None, "d", "a", "b", "c", "c", "c"], list("abcdabcdc")]  # g3 unnamed, g8 c's: its ink is d's
>>> owners_by_strips(stacks, play, fans, (), read)[0]
['a', 'b', 'c', 'd', 'a', 'b', 'c', 'd', 'c']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from referee.centre import Stack
from referee.sightings import Quad
from referee.tracker.counting import CentreFan
from referee.tracker.fan_owners import fan_of

Ink = tuple[float, float, float]
"""A card's ink colour as the picture shows it (CIELAB)."""

StripReader = Callable[[Sequence[Quad], Sequence[Quad], float, int], "Sequence[Ink] | None"]
"""Reads a fan in the latest picture: given its cards' outlines on the table plane, other centre cards' outlines
(its whole card may be among them), a card's length along it (mm) and how many cards it holds, each card's ink
from its whole card on; None when the picture cannot tell. Injected, since only the session has pictures."""

AGREEMENT = 0.8
MIN_NAMED = 3
"""A fan is trusted when this share of its named cards, and at least this many, lie nearest their player's ink."""
CHANCE = 0.01
"""A fan is trusted only where its named cards would agree with play so often by chance at most this seldom (its
inks read out of step with its cards, each matching its card's owner as often as the inks' players and the owners
happen to share: one time in two with two players)."""
MARGIN = 1.5
"""A strip is named by a player's ink that lies this many times nearer it than any other player's (no strip of a
trusted fan named wrongly at 1.2 on the rounds above: 1.5 keeps room for inks the renderer never drew)."""


def owners_by_strips(
    stacks: Sequence[Stack],
    owners: Sequence[Sequence[str | None]],
    fans: Sequence[CentreFan],
    others: Sequence[Quad],
    read: StripReader,
    sure: Sequence[Sequence[bool]] | None = None,
) -> list[list[str | None]]:
    """``owners`` (per stack, per card bottom first; None: unnamed) with the cards the fans' strips name named
    (see the module docstring). ``others``: the outlines of the centre's cards, for the reader. ``sure`` (alike):
    the names play told twice over (:meth:`referee.tracker.owners.SeatWatch.confirmed`), which no strip renames:
    a strip a few pixels wide beside the fan's whole card reads its neighbour's ink as easily (seed 117004, four
    players: a y9 that red-light-blue's face and arm both named, its strip read red-pink's ink, was renamed)."""
    named = [list(row) for row in owners]
    fanned: list[tuple[int, list[Ink]]] = []
    for i, stack in enumerate(stacks):
        f = fan_of(stack, fans)
        if f is None or len(stack.cards) < 2 or sum(fan_of(s, fans) == f for s in stacks) > 1:
            continue
        inks = read(fans[f].quads, others, fans[f].card_mm, len(stack.cards))
        if inks is not None and len(inks) == len(stack.cards):
            fanned.append((i, list(inks)))
    if not fanned:
        return named
    orders = [[(i, inks) for i, inks in fanned], [(i, inks[::-1]) for i, inks in fanned]]  # bottom first, either way
    fanned, whole = max(
        ((order, k) for k, order in enumerate(orders)),
        key=lambda pair: sum(
            _agreeing(inks, named[i], _inks_but(pair[0], f, named)) for f, (i, inks) in enumerate(pair[0])
        ),
    )
    trusted = [(i, inks) for f, (i, inks) in enumerate(fanned) if _trusted(inks, named[i], _inks_but(fanned, f, named))]
    players = _inks(trusted, named)
    if not trusted or len(players) < len(_inks(fanned, named)):
        return named  # a player's ink unknown: their cards would go to the others
    held = Counter(
        (str(c.card), o)
        for stack, row in zip(stacks, named, strict=True)
        for c, o in zip(stack.cards, row, strict=True)
        if o
    )
    for i, inks in trusted:
        whole_card = 0 if whole == 0 else len(inks) - 1
        for j, ink in enumerate(inks):
            player = _nearest(ink, players)
            card = str(stacks[i].cards[j].card)
            kept = sure is not None and sure[i][j]
            if j == whole_card or kept or player is None or player == named[i][j] or held[(card, player)]:
                continue
            before = named[i][j]
            if before is not None:
                held[(card, before)] -= 1
            named[i][j] = player
            held[(card, player)] += 1
    return named


def _inks(fanned: Sequence[tuple[int, list[Ink]]], named: Sequence[Sequence[str | None]]) -> dict[str, np.ndarray]:
    """Each player's ink: the median ink of the fanned cards play named theirs."""
    by_player: dict[str, list[Ink]] = {}
    for i, inks in fanned:
        for ink, owner in zip(inks, named[i], strict=True):
            if owner is not None:
                by_player.setdefault(owner, []).append(ink)
    return {player: np.median(np.asarray(inks), axis=0) for player, inks in by_player.items()}


def _nearest(ink: Ink, players: dict[str, np.ndarray], margin: float = MARGIN) -> str | None:
    """The player whose ink lies ``margin`` times nearer ``ink`` than any other's; None when none does."""
    distances = sorted((float(np.linalg.norm(np.asarray(ink) - colour)), player) for player, colour in players.items())
    if len(distances) == 1:
        return distances[0][1]
    (first, player), (second, _) = distances[:2]
    return player if second > first and second >= margin * first else None  # a tie names nobody


def _inks_but(
    fanned: Sequence[tuple[int, list[Ink]]], f: int, named: Sequence[Sequence[str | None]]
) -> dict[str, np.ndarray]:
    """The players' inks learnt from every fan but the ``f``-th: a fan's own cards would teach the players' inks
    whatever order it was read in, and then agree with play."""
    return _inks([fan for k, fan in enumerate(fanned) if k != f], named)


def _agreeing(inks: Sequence[Ink], owners: Sequence[str | None], players: dict[str, np.ndarray]) -> int:
    """How many of a fan's named cards lie nearest their own player's ink."""
    if not players:
        return 0
    return sum(_nearest(ink, players, 1.0) == owner for ink, owner in zip(inks, owners, strict=True) if owner)


def _trusted(inks: Sequence[Ink], owners: Sequence[str | None], players: dict[str, np.ndarray]) -> bool:
    """Whether a fan's named cards lie nearest their own player's ink often enough (:data:`AGREEMENT`), and more
    often than chance would have them (:data:`CHANCE`)."""
    if not players:
        return False
    named = [(owner, _nearest(ink, players, 1.0)) for ink, owner in zip(inks, owners, strict=True) if owner]
    n, agree = len(named), sum(owner == nearest for owner, nearest in named)
    if n < MIN_NAMED or agree < AGREEMENT * n:
        return False
    # a fan read out of step with its cards agrees with play as often as its inks and owners happen to match
    owned, nearest = Counter(owner for owner, _ in named), Counter(near for _, near in named)
    p = sum(owned[player] * nearest[player] for player in owned) / (n * n)
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(agree, n + 1)) <= CHANCE

"""Rules that correct the camera: which unseen plays explain a top that jumped.

A stack grows by exactly one card per play, so a top that went from red 4 to red 6 while a hand covered the
stack means red 5 and red 6 were both played (two plays, not a violation). The story has to be physically
possible: each card nobody saw needs time under cover to land (``seconds_per_hidden_play``), and a set holds
each card once, so no more copies of a card can lie in the centre than there are players. A jump that no such
story explains is ruled on as it stands (an illegal play), after the vote that made sure it was not a misread.

>>> r4, r6 = Card.parse("r4"), Card.parse("r6")
>>> hidden_plays(r4, r6, hidden_s=3.0)
(Card.parse('r5'),)
>>> hidden_plays(r4, r6, hidden_s=0.0) is None          # in full view: r6 on r4 is a wrong number
True
>>> hidden_plays(r4, r6, hidden_s=0.0, glimpsed=[Card.parse("r5")])   # r5 was seen, briefly
(Card.parse('r5'),)
>>> hidden_plays(r4, Card.parse("y6"), hidden_s=9.0) is None
True
>>> hidden_plays(None, Card.parse("y2"), hidden_s=0.0, glimpsed=[Card.parse("y1")])  # a new stack, y1 glimpsed
(Card.parse('y1'),)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee.cards import Card


@dataclass(frozen=True)
class InferenceSettings:
    """``seconds_per_hidden_play``: the least time under cover that one unseen play needs (reach, slap, go)."""

    seconds_per_hidden_play: float = 0.4
    max_hidden_plays: int = 4


def hidden_plays(
    top: Card | None,
    card: Card,
    *,
    hidden_s: float,
    glimpsed: Iterable[Card] = (),
    available: Callable[[Card], bool] | None = None,
    settings: InferenceSettings = InferenceSettings(),
) -> tuple[Card, ...] | None:
    """The cards that landed between ``top`` (None: an empty spot) and ``card`` unseen or only glimpsed, or
    None if no legal story explains ``card`` on ``top``. ``available(c)`` says whether one more copy of ``c``
    may be in the centre. On an empty spot every card below must have been glimpsed: time alone proves
    nothing where no stack was seen."""
    start = 0 if top is None else top.number
    if (top is not None and card.colour != top.colour) or card.number <= start + 1:
        return None
    between = tuple(Card(card.colour, n) for n in range(start + 1, card.number))
    if len(between) > settings.max_hidden_plays:
        return None
    seen = set(glimpsed)
    unseen = [c for c in between if c not in seen]
    if (top is None and unseen) or len(unseen) * settings.seconds_per_hidden_play > hidden_s:
        return None
    if available is not None and not all(available(c) for c in between):
        return None
    return between

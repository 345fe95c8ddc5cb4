"""A player's own places: the row, the Ligretto pile, the hand stack and the discard pile.

Lists hold cards bottom first, so the top (the playable card) is the last one. A row slot is a list too:
in the advanced variant a player builds downward on their own row, and only the last card is playable.

>>> from referee.cards import FULL_SET
>>> places = Places.deal(list(FULL_SET), row=3)
>>> len(places.pile), len(places.hand), [len(slot) for slot in places.row]
(10, 27, [1, 1, 1])
>>> places.turn(3) == places.discard
True
>>> len(places.hand), len(places.discard), places.count()
(24, 3, 40)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.cards import Card
from referee.rules import LIGRETTO_PILE_SIZE, ShortHand

PILE = "pile"
HAND = "hand"
DISCARD = "discard"


@dataclass
class Places:
    """The cards in front of one player. Mutable: the round changes it in place as the player acts."""

    row: list[list[Card]]
    pile: list[Card]
    hand: list[Card]
    discard: list[Card] = field(default_factory=list)

    @classmethod
    def deal(cls, shuffled: list[Card], row: int) -> Places:
        """Lays out a shuffled set: 10 to the Ligretto pile, ``row`` cards to the row, the rest in hand."""
        pile = shuffled[:LIGRETTO_PILE_SIZE]
        slots = [[card] for card in shuffled[LIGRETTO_PILE_SIZE : LIGRETTO_PILE_SIZE + row]]
        return cls(row=slots, pile=pile, hand=shuffled[LIGRETTO_PILE_SIZE + row :])

    def top(self, place: str) -> Card | None:
        """The playable card of a place (``pile``, ``discard`` or ``row:i``), None when it is empty."""
        cards = self.cards(place)
        return cards[-1] if cards else None

    def cards(self, place: str) -> list[Card]:
        if place == PILE:
            return self.pile
        if place == DISCARD:
            return self.discard
        if place == HAND:
            return self.hand
        return self.row[int(place.partition(":")[2])]

    def take(self, place: str) -> Card:
        """Lifts the top card of a place."""
        return self.cards(place).pop()

    def put(self, place: str, card: Card) -> None:
        """Lays a card on top of a place (a card taken back, a refill, a card built down on the row)."""
        self.cards(place).append(card)

    def sources(self) -> list[str]:
        """The places a card may go to the centre from, in the order a player looks at them."""
        names = [PILE] if self.pile else []
        names.extend(f"row:{i}" for i, slot in enumerate(self.row) if slot)
        if self.discard:
            names.append(DISCARD)
        return names

    def gap(self) -> int | None:
        """An empty row slot, if any."""
        for i, slot in enumerate(self.row):
            if not slot:
                return i
        return None

    def reachable(self) -> list[Card]:
        """Every card that could still reach the centre in some future: row tops, pile top, hand, discard.

        Cards deeper in the pile or the row come free only once the card above them moves, so they are left
        out; the deadlock test uses this set.
        """
        cards = [slot[-1] for slot in self.row if slot]
        if self.pile:
            cards.append(self.pile[-1])
        return cards + self.hand + self.discard

    def needs_pick_up(self, count: int, short_hand: ShortHand) -> bool:
        """Whether the discard pile must be picked up before turning ``count`` cards over: the hand is empty,
        or it is short and the table plays ``RESHUFFLE_FIRST``."""
        if not self.discard:
            return False
        return not self.hand or (len(self.hand) < count and short_hand is ShortHand.RESHUFFLE_FIRST)

    def turn(self, count: int) -> list[Card]:
        """Turns up to ``count`` hand cards over as one block onto the discard pile; returns them in the order
        they land, so the deepest of the block ends on top (the playable one)."""
        turned = [self.hand.pop() for _ in range(min(count, len(self.hand)))]
        self.discard.extend(turned)
        return turned

    def pick_up(self, rng: random.Random) -> None:
        """Picks up the discard pile face down (with any hand cards left under it) and shuffles."""
        cards = self.hand + self.discard
        rng.shuffle(cards)
        self.hand, self.discard = cards, []

    def count(self) -> int:
        return sum(len(slot) for slot in self.row) + len(self.pile) + len(self.hand) + len(self.discard)

    def all_cards(self) -> list[Card]:
        return [card for slot in self.row for card in slot] + self.pile + self.hand + self.discard

    def to_json(self) -> dict[str, list[str]]:
        """Each place's cards, bottom first, in card notation."""
        data = {f"row:{i}": [str(c) for c in slot] for i, slot in enumerate(self.row)}
        data.update(
            {
                PILE: [str(c) for c in self.pile],
                HAND: [str(c) for c in self.hand],
                DISCARD: [str(c) for c in self.discard],
            }
        )
        return data

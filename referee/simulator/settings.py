"""The settings of a simulated round besides the players and the seed.

>>> SimSettings().conflict_window
0.15
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.errors import SetupError
from referee.rules import RuleSettings
from referee.simulator.bots import BotProfile
from referee.simulator.mistakes import MistakeRates
from referee.simulator.post_round import LEFTOVER_FACES

CONFLICT_WINDOW = 0.15
"""Seconds within which two identical cards on one stack count as landing at the same moment."""
FPS = 30
"""Nominal frame rate: events carry ``frame = int(t * FPS)`` so a renderer filming at 30 fps can match them."""


@dataclass(frozen=True)
class SimSettings:
    """The rules, the bots' reaction times, the mistake rates, the conflict window (seconds), a cap on
    a round's length (a safety net: every round ends long before it), which side of the Ligretto-pile
    leftovers shows once they are laid out (``down``: back up, as players are asked to lay them) and whether
    players then turn their face-down hand over onto their discard pile (so that no other back is left out)."""

    rules: RuleSettings = field(default_factory=RuleSettings)
    bots: BotProfile = field(default_factory=BotProfile)
    mistakes: MistakeRates = field(default_factory=MistakeRates)
    conflict_window: float = CONFLICT_WINDOW
    max_seconds: float = 7200.0
    leftovers_face: str = "down"
    turn_hands_up: bool = True

    def __post_init__(self) -> None:
        if self.leftovers_face not in LEFTOVER_FACES:
            raise SetupError(f"leftovers_face must be one of {', '.join(LEFTOVER_FACES)}, not {self.leftovers_face!r}")
        # A player cannot react to a card faster than it takes to see it land: a window longer than the
        # quickest reaction would let a bot build on a card whose conflict is still open.
        if self.bots.think.least <= self.conflict_window or self.bots.flight.least <= self.conflict_window:
            raise SetupError("bots must think and throw for longer than the conflict window lasts")

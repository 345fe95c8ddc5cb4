"""The game simulator: 2..12 bots play whole rounds of Ligretto on a physical table, by seed.

It is the ground truth for every other test: the event log it writes is what a perfect referee would
write, its trace is what a camera above the table would film, and the mistakes it injects are the ones the
judge must catch.

>>> from referee.simulator import Round, SimSettings
>>> result = Round(("red-red", "blue-blue", "green-green"), seed=7).play()
>>> result.events[0].type, result.events[-1].type
('round_started', 'round_scored')
"""

from referee.simulator.audit import Audit, Finding, audit
from referee.simulator.bots import BotProfile, Delay
from referee.simulator.mistakes import InjectedMistake, MistakeRates
from referee.simulator.result import Outcome, RoundResult
from referee.simulator.round import Round
from referee.simulator.series import MatchResult, play_match
from referee.simulator.settings import CONFLICT_WINDOW, FPS, SimSettings
from referee.simulator.table import Seat, Table

__all__ = [
    "CONFLICT_WINDOW",
    "FPS",
    "Audit",
    "BotProfile",
    "Delay",
    "Finding",
    "InjectedMistake",
    "MatchResult",
    "MistakeRates",
    "Outcome",
    "Round",
    "RoundResult",
    "Seat",
    "SimSettings",
    "Table",
    "audit",
    "play_match",
]

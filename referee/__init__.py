"""Ligretto Referee: the rules core (pure Python) and the shells around it.

The core modules (cards, backs, rules, events, centre, scoring, simulator) import no numpy, OpenCV,
torch or web framework, so the rules can be tested without a camera.
"""

from referee.backs import BackDesign, Catalogue
from referee.cards import COLOURS, FULL_SET, Card, Colour
from referee.errors import LigrettoError
from referee.rules import RuleSettings, Ruling, Violation, judge

__version__ = "0.1.0"

__all__ = [
    "COLOURS",
    "FULL_SET",
    "BackDesign",
    "Card",
    "Catalogue",
    "Colour",
    "LigrettoError",
    "RuleSettings",
    "Ruling",
    "Violation",
    "__version__",
    "judge",
]

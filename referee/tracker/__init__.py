"""From sightings to rulings: the stack tracker, the live judge and the end-of-round count.

The whole frame loop (norfair style): frames in, events out, as they happen::

    from referee.tracker import Referee

    referee = Referee(backs=["red-red", "blue-blue"])
    for frame in frames:                 # FrameSightings, or None for an unreadable frame
        for event in referee.update(frame):
            print(event.to_json_line())  # stack_started, card_played, illegal_play, ...
    referee.stop(t=61.2)                 # "Ligretto stop" from a key or an API call
    referee.finish()                     # end of the source: score what the spreads showed

Layers, each usable alone: :class:`StackTracker` (physical: piles, positions, voted top cards, changes),
:class:`Judge` (rules: changes -> rulings on the :class:`referee.centre.Centre`, hidden plays inferred),
:mod:`referee.tracker.counting` (spreads -> counts -> scores, cross-checked with the stacks seen).

For tests and measurements: :mod:`referee.tracker.synthetic` films a scripted table as noisy sightings, and
``python -m referee.tracker.simcheck`` scores the referee on simulated rounds against their ground truth.
"""

from referee.tracker.counting import CountWarning, SpreadCount, SpreadCounter, cross_check, score_count
from referee.tracker.inference import InferenceSettings, hidden_plays
from referee.tracker.judge import Judge
from referee.tracker.referee_session import Phase, Referee, RefereeSettings
from referee.tracker.stacks import (
    Change,
    Landed,
    Lifted,
    StackTracker,
    Together,
    TrackerSettings,
    Uncovered,
    Vanished,
)
from referee.tracker.voting import Ballot, VotingSettings

__all__ = [
    "Ballot",
    "Change",
    "CountWarning",
    "InferenceSettings",
    "Judge",
    "Landed",
    "Lifted",
    "Phase",
    "Referee",
    "RefereeSettings",
    "SpreadCount",
    "SpreadCounter",
    "StackTracker",
    "Together",
    "TrackerSettings",
    "Uncovered",
    "Vanished",
    "VotingSettings",
    "cross_check",
    "hidden_plays",
    "score_count",
]

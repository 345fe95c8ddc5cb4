"""Round scores: +1 per own card in the centre, -2 per card left in the own Ligretto pile.

Row, hand and discard cards count 0, so a round score lies in -20..+40.

>>> round_score(centre=12, leftover=3)
6
>>> score_round({"red-red": 14, "blue-blue": 9}, {"blue-blue": 4}, backs=["red-red", "blue-blue", "green-green"])
{'red-red': 14, 'blue-blue': 1, 'green-green': 0}
>>> RoundResult.from_counts(2, {"red-red": 3}, {"red-red": 1}).scores
{'red-red': 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.errors import ScoringError
from referee.events import RoundScored
from referee.rules import CARDS_PER_SET, LIGRETTO_PILE_SIZE

POINTS_PER_CENTRE_CARD = 1
PENALTY_PER_LEFTOVER = 2
LOWEST_ROUND_SCORE = -PENALTY_PER_LEFTOVER * LIGRETTO_PILE_SIZE
HIGHEST_ROUND_SCORE = POINTS_PER_CENTRE_CARD * CARDS_PER_SET


def round_score(centre: int, leftover: int) -> int:
    """One player's round score from their cards in the centre and those left in their Ligretto pile."""
    _check_counts("", centre, leftover)
    return POINTS_PER_CENTRE_CARD * centre - PENALTY_PER_LEFTOVER * leftover


def score_round(
    centre: Mapping[str, int], leftover: Mapping[str, int], backs: Iterable[str] | None = None
) -> dict[str, int]:
    """Scores per back. ``backs`` lists every player (a back with no cards anywhere scores 0); without it,
    the backs that appear in either count."""
    players = list(backs) if backs is not None else list(dict.fromkeys([*centre, *leftover]))
    unknown = sorted((set(centre) | set(leftover)) - set(players))
    if unknown:
        raise ScoringError(f"counts for backs not in the round: {', '.join(unknown)}")
    scores = {}
    for back in players:
        _check_counts(back, centre.get(back, 0), leftover.get(back, 0))
        scores[back] = round_score(centre.get(back, 0), leftover.get(back, 0))
    return scores


def _check_counts(back: str, centre: int, leftover: int) -> None:
    whose = f"back {back!r}: " if back else ""
    if not 0 <= centre <= CARDS_PER_SET:
        raise ScoringError(f"{whose}{centre} cards in the centre is outside 0..{CARDS_PER_SET}")
    if not 0 <= leftover <= LIGRETTO_PILE_SIZE:
        raise ScoringError(f"{whose}{leftover} cards left in the Ligretto pile is outside 0..{LIGRETTO_PILE_SIZE}")
    if centre + leftover > CARDS_PER_SET:
        raise ScoringError(f"{whose}{centre} centre cards and {leftover} pile cards are more than a set")


@dataclass(frozen=True)
class RoundResult:
    """One scored round: the counts per back and the scores they give."""

    round: int
    scores: dict[str, int]
    centre: dict[str, int] = field(default_factory=dict)
    leftover: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_counts(
        cls, round: int, centre: Mapping[str, int], leftover: Mapping[str, int], backs: Iterable[str] | None = None
    ) -> RoundResult:
        scores = score_round(centre, leftover, backs)
        return cls(round, scores, {b: centre.get(b, 0) for b in scores}, {b: leftover.get(b, 0) for b in scores})

    @classmethod
    def from_event(cls, event: RoundScored) -> RoundResult:
        """Reads a ``round_scored`` event, checking its scores against its counts when it carries them."""
        if not event.scores:
            if not event.centre and not event.leftover:
                raise ScoringError(f"round {event.round} is scored without scores or counts")
            return cls.from_counts(event.round, event.centre, event.leftover)
        for back, score in event.scores.items():
            if not LOWEST_ROUND_SCORE <= score <= HIGHEST_ROUND_SCORE:
                raise ScoringError(
                    f"round {event.round}: back {back!r} scores {score}, "
                    f"outside {LOWEST_ROUND_SCORE}..{HIGHEST_ROUND_SCORE}"
                )
        if event.centre or event.leftover:
            counted = score_round(event.centre, event.leftover, event.scores)
            wrong = [b for b in event.scores if counted[b] != event.scores[b]]
            if wrong:
                b = wrong[0]
                raise ScoringError(
                    f"round {event.round}: back {b!r} scores {event.scores[b]} but its counts give {counted[b]} "
                    f"({event.centre.get(b, 0)} centre, {event.leftover.get(b, 0)} left in the pile)"
                )
        return cls(event.round, dict(event.scores), dict(event.centre), dict(event.leftover))

    def to_event(self, *, t: float, frame: int = 0) -> RoundScored:
        return RoundScored(
            t=t, frame=frame, round=self.round, centre=self.centre, leftover=self.leftover, scores=self.scores
        )

"""A match: rounds scored one after another until the settings say it is over.

The match ends after ``RuleSettings.rounds`` rounds (official) or when a total reaches
``RuleSettings.target_score`` (house rule), whichever comes first. :meth:`Match.outcome` is the one funnel:
None while the match goes on, else who won. The highest total wins; a tie gives several winners.

>>> match = Match(["red-red", "blue-blue"], RuleSettings(rounds=2))
>>> match.record({"red-red": 10, "blue-blue": 12})
>>> match.outcome() is None
True
>>> match.record({"red-red": 8, "blue-blue": 6})
>>> match.outcome()
MatchOutcome(winners=('red-red', 'blue-blue'), totals={'red-red': 18, 'blue-blue': 18}, rounds=2, reason='rounds')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.errors import ScoringError
from referee.rules import RuleSettings, check_setup
from referee.scoring import HIGHEST_ROUND_SCORE, LOWEST_ROUND_SCORE


@dataclass(frozen=True)
class MatchOutcome:
    """How a match ended: ``reason`` is ``rounds`` (the agreed number was played) or ``target`` (a total
    reached the target score)."""

    winners: tuple[str, ...]
    totals: dict[str, int]
    rounds: int
    reason: str


class Match:
    """The rounds of one match between fixed backs, with running totals."""

    def __init__(self, backs: Sequence[str], settings: RuleSettings | None = None) -> None:
        check_setup(list(backs))
        self.backs: tuple[str, ...] = tuple(backs)
        self.settings = settings if settings is not None else RuleSettings()
        self._rounds: list[dict[str, int]] = []

    @property
    def rounds(self) -> tuple[dict[str, int], ...]:
        """The scores of every round played, in order."""
        return tuple(dict(r) for r in self._rounds)

    def record(self, scores: Mapping[str, int]) -> None:
        """Adds one round's scores; every back of the match must have exactly one score."""
        if self.outcome() is not None:
            raise ScoringError(f"the match is over after {len(self._rounds)} rounds: no more rounds can be scored")
        number = len(self._rounds) + 1
        strangers = sorted(set(scores) - set(self.backs))
        if strangers:
            raise ScoringError(f"round {number} scores backs not in the match: {', '.join(strangers)}")
        missing = [b for b in self.backs if b not in scores]
        if missing:
            raise ScoringError(f"round {number} has no score for {', '.join(missing)}")
        for back in self.backs:
            if not LOWEST_ROUND_SCORE <= scores[back] <= HIGHEST_ROUND_SCORE:
                raise ScoringError(f"round {number}: {back} scores {scores[back]}, outside -20..40")
        self._rounds.append({b: int(scores[b]) for b in self.backs})

    def totals(self, after: int | None = None) -> dict[str, int]:
        """Each back's total after ``after`` rounds (all rounds played by default)."""
        played = self._rounds if after is None else self._rounds[:after]
        return {b: sum(r[b] for r in played) for b in self.backs}

    def running_totals(self) -> list[dict[str, int]]:
        """The totals after each round."""
        return [self.totals(after=n) for n in range(1, len(self._rounds) + 1)]

    def leaders(self) -> tuple[str, ...]:
        """The backs with the highest total so far (all of them before any round)."""
        totals = self.totals()
        best = max(totals.values())
        return tuple(b for b in self.backs if totals[b] == best)

    def outcome(self) -> MatchOutcome | None:
        """None while the match goes on; otherwise the winners, totals and why it ended."""
        reason = self._end_reason()
        if reason is None:
            return None
        return MatchOutcome(self.leaders(), self.totals(), len(self._rounds), reason)

    def is_over(self) -> bool:
        return self.outcome() is not None

    def _end_reason(self) -> str | None:
        if not self._rounds:
            return None
        target = self.settings.target_score
        if target is not None and max(self.totals().values()) >= target:
            return "target"
        if self.settings.rounds is not None and len(self._rounds) >= self.settings.rounds:
            return "rounds"
        return None

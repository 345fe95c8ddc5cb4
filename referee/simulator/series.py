"""A simulated match: rounds between the same players until :class:`referee.match.Match` says it is over.

Round 1 plays with the match seed itself, so ``Round(backs, seed=S)`` replays it; later rounds draw their
own seeds from it (each round's seed is written into its ``round_started`` event and the summary).

>>> result = play_match(("red-red", "blue-blue"), seed=4, rounds=2)
>>> [r.number for r in result.rounds], result.rounds[0].seed
([1, 2], 4)
>>> result.outcome.totals == {b: sum(r.scores[b] for r in result.rounds) for b in result.backs}
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from referee.errors import SetupError
from referee.match import Match, MatchOutcome
from referee.simulator.result import RoundResult
from referee.simulator.round import Round
from referee.simulator.settings import SimSettings

MAX_ROUNDS = 10_000
"""A match to a target score that nobody reaches (everyone keeps losing points) stops here."""


def round_seed(seed: int, number: int) -> int:
    """The seed of round ``number`` of a match played with ``seed``.

    >>> round_seed(7, 1), round_seed(7, 2) == round_seed(7, 2), round_seed(7, 2) == round_seed(8, 2)
    (7, True, False)
    """
    if number == 1:
        return seed
    return random.Random(f"ligretto-match:{seed}:{number}").getrandbits(31)


@dataclass(frozen=True)
class MatchResult:
    backs: tuple[str, ...]
    seed: int
    rounds: tuple[RoundResult, ...]
    outcome: MatchOutcome


def play_match(
    backs: Sequence[str],
    seed: int = 0,
    settings: SimSettings | None = None,
    *,
    rounds: int | None = None,
    target_score: int | None = None,
    on_round: Callable[[RoundResult], None] | None = None,
) -> MatchResult:
    """Plays rounds until the match is over: ``rounds`` and ``target_score`` override the rule settings.

    ``on_round`` is called after each round (the command line shows progress and writes files with it).
    """
    settings = settings or SimSettings()
    if rounds is not None or target_score is not None:
        rules = replace(settings.rules, rounds=rounds, target_score=target_score)
        settings = replace(settings, rules=rules)
    match = Match(backs, settings.rules)
    played: list[RoundResult] = []
    while (outcome := match.outcome()) is None:
        number = len(played) + 1
        if number > MAX_ROUNDS:
            raise SetupError(f"no total reached {settings.rules.target_score} in {MAX_ROUNDS} rounds")
        result = Round(backs, round_seed(seed, number), settings, number=number).play()
        match.record(result.scores)
        played.append(result)
        if on_round is not None:
            on_round(result)
    return MatchResult(tuple(backs), seed, tuple(played), outcome)

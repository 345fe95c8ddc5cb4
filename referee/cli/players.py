"""``--players``: the backs of the players at the table, told on the command line (replay, score)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.backs import Catalogue

HELP = (
    "the players' backs, comma-separated ids or names from the catalogue (e.g. red-red,blue-blue): only these\n"
    "backs are read, and every one is scored, a player the picture does not show included"
)


def told_players(text: str | None, catalogue: Catalogue | None) -> tuple[str, ...]:
    """The backs ``--players`` names (none: not told), each checked against the ``catalogue`` the command reads
    (None: the one in use): an unknown back is bad input, whatever then reads the cards."""
    if not text:
        return ()
    from referee.backs import in_play

    players = parse_players(text)
    in_play(catalogue, players)
    return players


def parse_players(text: str) -> tuple[str, ...]:
    """``--players``: two to twelve different backs, by id or by the name they were enrolled under.

    >>> parse_players("red-red, Blue Blue")
    ('red-red', 'blue-blue')
    >>> parse_players("red-red,red-red")
    Traceback (most recent call last):
    referee.errors.SetupError: --players names red-red twice: each player plays their own set
    """
    from referee.backs import back_id_from_name
    from referee.errors import SetupError

    backs = [back_id_from_name(name) for name in text.split(",") if name.strip()]
    twice = sorted({back for back in backs if backs.count(back) > 1})
    if twice:
        raise SetupError(f"--players names {', '.join(twice)} twice: each player plays their own set")
    if not 2 <= len(backs) <= 12:
        raise SetupError(f"--players needs 2 to 12 backs (a Ligretto table), not {len(backs)}")
    return tuple(backs)

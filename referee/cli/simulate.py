"""``ligretto simulate``: bots play rounds of Ligretto; writes the ground-truth logs, traces and a summary."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from referee.backs import Catalogue
from referee.errors import SetupError
from referee.rules import ConflictResolution, RuleSettings, ShortHand, check_player_count, check_setup
from referee.simulator import BotProfile, MistakeRates, SimSettings
from referee.simulator.audit import audit
from referee.simulator.bots import PACES
from referee.simulator.mistakes import KINDS, MAX_TOTAL
from referee.simulator.output import prepare, write_round, write_summary
from referee.simulator.result import RoundResult
from referee.simulator.series import play_match

EPILOG = """\
examples:
  ligretto simulate --players 4 --seed 1 --out out/sim
  ligretto simulate --players 6 --seed 7 --rounds 5 --mistakes 0.05 --out out/sim6
  ligretto simulate --players 4 --mistake-rate wrong_colour=0.02,conflict=0.01 --pace fast --out out/quick
  ligretto simulate --backs red-red,blue-blue,green-green --advanced-row --out out/adv

mistakes: --mistakes 0.05 makes about 5 in 100 cards that land in the centre mistakes, split evenly over
the six kinds (wrong_colour, wrong_number, not_a_one, stack_full, after_stop, conflict); --mistake-rate
KIND=RATE sets one kind's share (repeatable, or comma-separated), replacing its part of --mistakes.
pace: fast (a 4-player round lasts about 0.5-1 min), normal (1-3 min), slow (2-3.5 min).

writes DIR/round-<k>.events.jsonl (event log), DIR/round-<k>.trace.jsonl (every card move, for the
renderer) and DIR/summary.json (per round: duration, end, counts, scores, injected mistakes; match totals
and winners)."""


def add_table_options(group: argparse._ActionsContainer) -> None:
    """The options of the table and its rules; shared with ``ligretto synth video``, which films a simulated round."""
    group.add_argument("--backs", help="comma-separated back ids (default: the first N of the catalogue)")
    group.add_argument(
        "--catalogue",
        type=Path,
        help="back catalogue file (default: ./ligretto-backs.json when present, else the 12 built-in backs)",
    )
    group.add_argument(
        "--conflict",
        choices=[c.value for c in ConflictResolution],
        default=ConflictResolution.LOWER_CARD_STAYS.value,
        help="who keeps a card when two identical cards land together (default: %(default)s)",
    )
    group.add_argument(
        "--short-hand",
        choices=[s.value for s in ShortHand],
        default=ShortHand.TURN_REMAINING.value,
        help="fewer hand cards than to turn over (default: %(default)s)",
    )
    group.add_argument("--turn-over", type=int, default=3, help="hand cards turned over at a time (default: 3)")
    group.add_argument("--advanced-row", action="store_true", help="allow building down on the own row")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="bots play Ligretto rounds; writes event logs, physical traces and a summary",
        description="Bots play whole rounds of Ligretto at a simulated table, deterministically by seed.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, help="number of players, 2..12 (default: 4, or one per --backs)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the match (default: 0)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds to play (default: 1)")
    parser.add_argument("--target", type=int, help="play until a total reaches this score (house rule)")
    parser.add_argument(
        "--mistakes",
        type=float,
        default=0.0,
        metavar="RATE",
        help=f"share of centre plays that are mistakes, 0..{MAX_TOTAL:g}, split evenly over the six kinds "
        "(default: 0, a clean round)",
    )
    parser.add_argument(
        "--mistake-rate",
        action="append",
        default=[],
        metavar="KIND=RATE",
        help=f"share of centre plays that are mistakes of one kind ({', '.join(KINDS)}); repeatable",
    )
    parser.add_argument(
        "--pace",
        choices=list(PACES),
        default="normal",
        help="how fast the bots play (default: %(default)s, a 4-player round in about 1-3 minutes)",
    )
    add_table_options(parser)
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="output folder")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    backs = backs_of(args)
    rules = RuleSettings(
        conflict_resolution=ConflictResolution(args.conflict),
        short_hand=ShortHand(args.short_hand),
        advanced_row=args.advanced_row,
        turn_over=args.turn_over,
    )
    settings = SimSettings(rules=rules, bots=BotProfile.pace(args.pace), mistakes=mistake_rates(args))
    if args.rounds < 1:
        raise SetupError(f"--rounds must be at least 1, not {args.rounds}")
    out = prepare(args.out)
    rounds = None if args.target is not None and args.rounds == 1 else args.rounds
    progress = _progress(rounds)

    def on_round(result: RoundResult) -> None:
        write_round(result, out)
        progress.update(1)

    with progress:
        match = play_match(backs, args.seed, settings, rounds=rounds, target_score=args.target, on_round=on_round)
    write_summary(match, settings, out)
    _print_summary(match.rounds, match.outcome.totals, match.outcome.winners, out)
    return 0


def mistake_rates(args: argparse.Namespace) -> MistakeRates:
    """``--mistakes`` split evenly over the kinds, then each ``--mistake-rate KIND=RATE`` in its place."""
    if not 0.0 <= args.mistakes <= MAX_TOTAL:
        raise SetupError(f"--mistakes must be a rate between 0 and {MAX_TOTAL:g}, not {args.mistakes}")
    rates = MistakeRates.uniform(args.mistakes)
    for text in args.mistake_rate:
        rates = MistakeRates.parse(text, base=rates)
    return rates


def backs_of(args: argparse.Namespace) -> tuple[str, ...]:
    catalogue = Catalogue.in_use(args.catalogue)
    if args.backs:
        backs = tuple(b.strip() for b in args.backs.split(",") if b.strip())
        unknown = [b for b in backs if b not in catalogue]
        if unknown:
            raise SetupError(f"unknown back {unknown[0]!r}: the catalogue has {', '.join(catalogue.ids)}")
        if args.players is not None and args.players != len(backs):
            raise SetupError(f"--players {args.players} but {len(backs)} backs given")
    else:
        players = 4 if args.players is None else args.players
        check_player_count(players)
        if players > len(catalogue):
            raise SetupError(f"{players} players need {players} backs; the catalogue has {len(catalogue)}")
        backs = catalogue.ids[:players]
    check_setup(backs)
    return backs


class _NoProgress:
    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        return None


def _progress(rounds: int | None) -> _NoProgress:
    """A progress bar on stderr for many rounds (tqdm), nothing for a few."""
    if rounds is not None and rounds < 3:
        return _NoProgress()
    from tqdm import tqdm

    return tqdm(total=rounds, unit="round", file=sys.stderr, leave=False)


def _print_summary(
    rounds: tuple[RoundResult, ...], totals: dict[str, int], winners: tuple[str, ...], out: Path
) -> None:
    for result in rounds[:10]:
        scores = " ".join(f"{back}={score}" for back, score in result.scores.items())
        who = f" by {result.outcome.back}" if result.outcome.back else ""
        print(f"round {result.number}: {result.reason}{who} after {result.duration:.0f} s; {scores}")
    if len(rounds) > 10:
        print(f"... {len(rounds) - 10} more rounds")
    injected = sum(len(r.mistakes) for r in rounds)
    if injected:
        missed = sum(_missed(r) for r in rounds)
        verdict = "finds every one" if not missed else f"misses {missed}"
        landings = sum(r.landings for r in rounds)
        print(
            f"mistakes injected: {injected} of {landings} cards landing in the centre ({injected / landings:.1%});"
            f" the judge, replaying the event logs, {verdict}"
        )
    ranking = sorted(totals.items(), key=lambda item: -item[1])
    print("totals: " + " ".join(f"{back}={total}" for back, total in ranking))
    print(f"winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}; files in {out}")


def _missed(result: RoundResult) -> int:
    """Injected mistakes the judge does not find when it replays the round's event log."""
    found = audit(result.events).counts()
    injected: Counter[tuple[str, str | None, str, int | None]] = Counter(
        (m.kind, m.back, str(m.card), m.stack) for m in result.mistakes
    )
    return sum((injected - found).values())

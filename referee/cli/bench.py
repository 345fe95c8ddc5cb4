"""``ligretto bench``: speed measurements printed as figures, one subcommand per component.

``ligretto bench simulate`` times the game simulator. Other components add their own benchmark as a module
exposing ``register(subparsers)`` (adding a parser with ``func``) and list it in :data:`BENCH_MODULES`;
modules are imported only when listed, so a heavy dependency stays with its own benchmark.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

from referee.backs import Catalogue
from referee.errors import SetupError
from referee.simulator import BotProfile, Round, SimSettings
from referee.simulator.bots import PACES

# Benchmark modules of other components, each exposing ``register(subparsers)``.
BENCH_MODULES: tuple[str, ...] = ("referee.cli.bench_detect", "referee.cli.bench_replay")

SIMULATE_EPILOG = """\
examples:
  ligretto bench simulate --rounds 200
  ligretto bench simulate --rounds 60 --pace fast

prints rounds per second (wall clock and CPU time) for 4 and 12 players (seeds 0..N-1, one process, no
output files), their ratio, and the distribution of simulated round durations."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed: the simulator, detect + recognise, replay",
        description="Speed measurements printed as figures, with the seeds and sizes they were measured on.",
        epilog="Run 'ligretto bench TARGET --help' for the options of one benchmark.",
    )
    targets = parser.add_subparsers(title="benchmarks", metavar="TARGET")
    simulate = targets.add_parser(
        "simulate",
        help="rounds per second of the game simulator for 4 and 12 players",
        description="Times the game simulator on clean rounds for 4 and for 12 players.",
        epilog=SIMULATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    simulate.add_argument("--rounds", type=int, default=200, help="rounds per player count (default: 200)")
    simulate.add_argument(
        "--pace", choices=list(PACES), default="normal", help="the bots' pace, as in simulate (default: normal)"
    )
    simulate.set_defaults(func=run_simulate)
    for name in BENCH_MODULES:
        importlib.import_module(name).register(targets)
    parser.set_defaults(func=lambda args: _missing_target(parser))


def run_simulate(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise SetupError(f"--rounds must be at least 1, not {args.rounds}")
    backs = Catalogue.default().ids
    settings = SimSettings(bots=BotProfile.pace(args.pace))
    rates: dict[int, float] = {}
    for players in (4, 12):
        wall, cpu = time.perf_counter(), time.process_time()
        durations = [Round(backs[:players], seed, settings).play().duration for seed in range(args.rounds)]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        # CPU time too: on a shared machine the wall clock also counts other processes' turns.
        rates[players] = args.rounds / max(cpu, 1e-9)
        tenths = statistics.quantiles(durations, n=10) if len(durations) > 1 else [durations[0]] * 9
        print(
            f"{players:2d} players: {args.rounds / wall:7.1f} rounds/s wall, {rates[players]:7.1f} rounds per CPU"
            f" second ({args.rounds} rounds, seeds 0..{args.rounds - 1}, {args.pace} pace); simulated round length"
            f" median {statistics.median(durations):.0f} s, 10-90% {tenths[0]:.0f}-{tenths[-1]:.0f} s"
        )
    print(f"ratio 4/12 players (CPU): {rates[4] / rates[12]:.2f}x")
    return 0


def _missing_target(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2

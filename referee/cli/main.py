"""Entry point of the ``ligretto`` command.

Each subcommand lives in its own module exposing ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable taking the parsed arguments and returning an exit code. A module is imported
only when listed here, so ``ligretto --help`` stays fast and a missing optional dependency (ultralytics,
fastapi) only affects the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from referee import __version__
from referee.errors import LigrettoError

# Subcommand modules, in the order ``ligretto --help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "referee.cli.rule",
    "referee.cli.sheet",
    "referee.cli.backs",
    "referee.cli.detect",
    "referee.cli.eval",
    "referee.cli.train",
    "referee.cli.simulate",
    "referee.cli.bench",
    "referee.cli.synth",
    "referee.cli.replay",
    "referee.cli.eval_referee",
    "referee.cli.score",
    "referee.cli.serve",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ligretto",
        description="Ligretto Referee: a computer-vision table referee for the card game Ligretto.",
        epilog="Run 'ligretto COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"ligretto {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except LigrettoError as exc:
        print(f"ligretto: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("ligretto: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

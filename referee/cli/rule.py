"""``ligretto rule``: explains the judge's ruling on one card landing on a stack top."""

from __future__ import annotations

import argparse
import json

from referee.cards import Card
from referee.rules import Ruling, Violation, judge, playable_on

NEW_STACK = "-"
_ORDER = tuple(Violation)  # the order Ruling.reason uses: the most decisive first


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "rule",
        help="explain the ruling on a card landing on a stack",
        description="Rules on CARD landing on a stack whose legal top is TOP ('-' for a new stack) and says why.\n"
        "Cards are written as a colour letter and a number: r7, y10, g1, b3.",
        epilog="examples:\n  ligretto rule r4 r6      # illegal: wrong_number (r5 expected)\n"
        "  ligretto rule - g1       # legal: g1 starts a new stack\n"
        "  ligretto rule r4 r5 --stopped",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("top", metavar="TOP", help="the stack's legal top, or '-' to start a new stack")
    parser.add_argument("card", metavar="CARD", help="the card that lands")
    parser.add_argument("--stopped", action="store_true", help="the round has stopped ('Ligretto stop')")
    parser.add_argument("--json", action="store_true", help="print the ruling as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    top = None if args.top.strip() == NEW_STACK else Card.parse(args.top)
    card = Card.parse(args.card)
    ruling = judge(top, card, stopped=args.stopped)
    if args.json:
        print(json.dumps(ruling_json(top, card, ruling)))
    else:
        print(explain(top, card, ruling))
    return 0


def explain(top: Card | None, card: Card, ruling: Ruling) -> str:
    """One line: ``legal`` with what happens, or ``illegal`` with the reasons and what would have fitted.

    >>> explain(Card.parse("r4"), Card.parse("r6"), judge(Card.parse("r4"), Card.parse("r6")))
    'illegal: wrong_number (r5 expected)'
    >>> explain(None, Card.parse("g1"), judge(None, Card.parse("g1")))
    'legal: g1 starts a new stack'
    """
    if ruling.legal:
        return f"legal: {card} starts a new stack" if top is None else f"legal: {card} goes on {top}"
    reasons = ", ".join(v.value for v in sorted(ruling.violations, key=_ORDER.index))
    hint = "the round has stopped" if ruling.violations == {Violation.AFTER_STOP} else _hint(top)
    return f"illegal: {reasons} ({hint})"


def ruling_json(top: Card | None, card: Card, ruling: Ruling) -> dict[str, object]:
    expected = playable_on(top)
    return {
        "top": str(top) if top is not None else None,
        "card": str(card),
        "legal": ruling.legal,
        "reason": ruling.reason,
        "violations": [v.value for v in sorted(ruling.violations, key=_ORDER.index)],
        "expected": str(expected) if expected is not None else None,
    }


def _hint(top: Card | None) -> str:
    if top is None:
        return "a new stack starts with a 1"
    expected = playable_on(top)
    return f"{expected} expected" if expected is not None else f"the stack is full at {top}"

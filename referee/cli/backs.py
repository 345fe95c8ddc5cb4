"""``ligretto backs``: the back designs in play (``list``; enrolment adds ``enrol`` beside it).

Each action is a sub-subcommand registered by its own ``register_<action>(actions)`` function, so a new
action is one function plus one line in :func:`register`.
"""

from __future__ import annotations

import argparse
import json

from referee.backs import DEFAULT_CATALOGUE_PATH, Catalogue, catalogue_file

_SubParsers = argparse._SubParsersAction  # the type argparse gives add_subparsers() results


def register(subparsers: _SubParsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "backs",
        help="list or manage the back designs that identify each player's cards",
        description="Back designs tell whose card is whose. The default catalogue holds the 12 backs of the "
        "red, blue and green boxes; a catalogue file (JSON) can add or replace designs.",
        epilog="example: ligretto backs list --json",
    )
    parser.set_defaults(func=lambda _args: _print_help(parser))
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    register_list(actions)
    register_enrol(actions)


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def add_catalogue_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalogue",
        metavar="FILE",
        help=f"catalogue file (JSON) (default: ./{DEFAULT_CATALOGUE_PATH} when present, else the built-in 12 backs)",
    )


def load_catalogue(path: str | None) -> Catalogue:
    """The catalogue named on the command line (which must be readable), else ./ligretto-backs.json when
    present, else the built-in 12 backs."""
    return Catalogue.in_use(path)


def catalogue_label(path: str | None) -> str:
    """Which catalogue :func:`load_catalogue` reads, in words."""
    found = catalogue_file(path)
    return "built-in (the 12 backs of the red, blue and green boxes)" if found is None else str(found)


# -------------------------------------------------------------------------------------------------- list


def register_list(actions: _SubParsers[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "list",
        help="list the backs in the catalogue",
        description="Lists every back design: id (used in events and scores), box, symbol, lettering colour, "
        "and how many enrolment photos taught the recogniser its look.",
        epilog="examples:\n  ligretto backs list\n  ligretto backs list --catalogue my-backs.json --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_catalogue_option(parser)
    parser.add_argument("--json", action="store_true", help="print the catalogue as JSON (without appearance data)")
    parser.set_defaults(func=run_list)


def run_list(args: argparse.Namespace) -> int:
    catalogue = load_catalogue(args.catalogue)
    found = catalogue_file(args.catalogue)
    if args.json:
        backs = [{**back.to_json(), "photos": len(back.appearance)} for back in catalogue]
        for back in backs:
            back.pop("appearance", None)
        print(json.dumps({"catalogue": None if found is None else str(found), "backs": backs}))
    else:
        print(f"catalogue: {catalogue_label(args.catalogue)}")
        print(format_catalogue(catalogue))
    return 0


def format_catalogue(catalogue: Catalogue) -> str:
    """A plain-text table of the backs.

    >>> print(format_catalogue(Catalogue.default()).splitlines()[0])
    id              box    symbol     lettering   photos  name
    """
    header = ["id", "box", "symbol", "lettering", "photos", "name"]
    rows = [[b.id, b.box, b.symbol, b.lettering, str(len(b.appearance)), b.name] for b in catalogue]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in [header, *rows]]
    lines.append(f"{len(catalogue)} backs")
    return "\n".join(lines)


# -------------------------------------------------------------------------------------------------- enrol

DEFAULT_CATALOGUE_FILE = str(DEFAULT_CATALOGUE_PATH)


def register_enrol(actions: _SubParsers[argparse.ArgumentParser]) -> None:
    parser = actions.add_parser(
        "enrol",
        help="learn a back design from 1-5 photos of it (no retraining)",
        description="Learns what a back looks like from 1-5 photos, each showing ONE card back alone, fully in "
        "view (a plain surface helps). The design is saved in the catalogue file under NAME, created on first "
        "enrolment; a NAME that exists (also a default such as red-pink) has its appearance replaced, because "
        "your real back wins over the default rendering. A photo with no card, several cards or a face is "
        "refused and nothing is saved.",
        epilog="examples:\n"
        '  ligretto backs enrol back1.jpg back2.jpg back3.jpg --name "Grandma\'s blue"\n'
        "  ligretto backs enrol red-pink.jpg --name red-pink --catalogue my-backs.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the back (1 to 5)")
    parser.add_argument("--name", required=True, help="the design's name; its id is the name in lowercase-dashes")
    parser.add_argument(
        "--catalogue",
        metavar="FILE",
        default=DEFAULT_CATALOGUE_FILE,
        help=f"catalogue file to update or create (default: ./{DEFAULT_CATALOGUE_FILE})",
    )
    parser.add_argument("--no-detector", action="store_true", help="find the card by its outline only")
    parser.set_defaults(func=run_enrol)


def run_enrol(args: argparse.Namespace) -> int:
    from vision.recognise.backs import BackEmbedder
    from vision.recognise.enrol import enrol
    from vision.recognise.faces import FaceReader

    result = enrol(args.images, args.name, args.catalogue, BackEmbedder(), FaceReader(), _enrolment_detector(args))
    for found in result.found:
        print(f"{found.photo}: back found, {found.width_px:.0f} px wide")
    verb = "replaced the appearance of" if result.replaced else "added"
    print(f"{verb} {result.design.id!r} ({len(result.design.appearance)} photos) in {result.path}")
    if len(result.found) > 1:
        print(f"agreement between the photos: {result.consistency:.2f} (1.00 = identical)")
    if result.nearest_other is not None:
        other, similarity = result.nearest_other
        note = "  (very alike: counting may confuse them)" if similarity > 0.85 else ""
        print(f"most similar other design: {other} ({similarity:.2f}){note}")
    print(f"the catalogue now holds {len(result.catalogue)} backs; use it with --catalogue {result.path}")
    return 0


def _enrolment_detector(args: argparse.Namespace):
    """The card detector when its model is present (else None: the outline finder is used)."""
    if args.no_detector:
        return None
    try:
        from vision.detect import DEFAULT_MODEL, load_detector

        return load_detector(model=DEFAULT_MODEL) if DEFAULT_MODEL.exists() else None
    except (ImportError, OSError):
        return None

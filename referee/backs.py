"""Back designs and the catalogue of backs in play.

Sets differ only by their back, so the back is how a card is returned to its owner and how scores are
counted. The default catalogue holds the 12 backs of three boxes (see ``shared/reference/card-look.md``);
users extend or replace it by enrolling photos of their own backs, which the vision package turns into
appearance descriptors stored in a catalogue file (JSON).

>>> catalogue = Catalogue.default()
>>> len(catalogue)
12
>>> catalogue["green-purple"].symbol
'lightning'
>>> Catalogue.from_json(catalogue.to_json()) == catalogue
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.errors import CatalogueError, NotationError, SetupError

CATALOGUE_VERSION = 1
DEFAULT_CATALOGUE_PATH = Path("ligretto-backs.json")
"""The catalogue file of the working folder: ``ligretto backs enrol`` writes it by default, and every command
reads it when it exists and no ``--catalogue`` is given (else the built-in 12 backs)."""
_BACK_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,39}$")


def back_id_from_name(name: str) -> str:
    """A user's name for a back turned into an id: ``"Grandma's Blue"`` -> ``"grandma-s-blue"``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")[:40]
    if not slug or not _BACK_ID.match(slug):
        raise NotationError(f"{name!r} is not usable as a back name: use letters and digits")
    return slug


@dataclass(frozen=True)
class BackDesign:
    """One back: an id used in events and scores, and what it looks like.

    ``appearance`` holds the descriptors the recogniser learned from enrolment photos (one per photo);
    empty for a design known only by description.
    """

    id: str
    box: str = "custom"
    symbol: str = "unknown"
    lettering: str = "unknown"
    name: str = ""
    appearance: tuple[tuple[float, ...], ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _BACK_ID.match(self.id):
            raise NotationError(f"back id {self.id!r} must be 1-40 lowercase letters, digits, '-', '_' or '.'")

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def enrolled(self) -> bool:
        return bool(self.appearance)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "box": self.box, "symbol": self.symbol, "lettering": self.lettering}
        if self.name:
            data["name"] = self.name
        if self.appearance:
            data["appearance"] = [list(v) for v in self.appearance]
        return data

    @classmethod
    def from_json(cls, data: Any) -> BackDesign:
        if not isinstance(data, dict) or "id" not in data:
            raise CatalogueError(f"a back must be an object with an id, not {data!r:.80}")
        try:
            appearance = tuple(tuple(float(x) for x in v) for v in data.get("appearance", ()))
        except (TypeError, ValueError) as exc:
            raise CatalogueError(f"back {data['id']!r}: appearance must be lists of numbers") from exc
        return cls(
            id=str(data["id"]),
            box=str(data.get("box", "custom")),
            symbol=str(data.get("symbol", "unknown")),
            lettering=str(data.get("lettering", "unknown")),
            name=str(data.get("name", "")),
            appearance=appearance,
        )


def _default_backs() -> tuple[BackDesign, ...]:
    boxes = {
        ("red", "lightning"): ("red", "light-blue", "pink", "black"),
        ("blue", "balls"): ("blue", "purple", "orange", "green"),
        ("green", "lightning"): ("purple", "fuchsia", "green", "brown"),
    }
    return tuple(
        BackDesign(id=f"{box}-{lettering}", box=box, symbol=symbol, lettering=lettering)
        for (box, symbol), letterings in boxes.items()
        for lettering in letterings
    )


DEFAULT_BACKS: tuple[BackDesign, ...] = _default_backs()


class Catalogue:
    """An ordered, id-unique collection of back designs; the backs that may appear on a table."""

    def __init__(self, backs: Iterable[BackDesign] = ()) -> None:
        self._backs: dict[str, BackDesign] = {}
        for back in backs:
            if back.id in self._backs:
                raise SetupError(f"duplicate back {back.id!r} in catalogue")
            self._backs[back.id] = back

    @classmethod
    def default(cls) -> Catalogue:
        return cls(DEFAULT_BACKS)

    def __len__(self) -> int:
        return len(self._backs)

    def __iter__(self) -> Iterator[BackDesign]:
        return iter(self._backs.values())

    def __contains__(self, back_id: object) -> bool:
        return back_id in self._backs

    def __getitem__(self, back_id: str) -> BackDesign:
        try:
            return self._backs[back_id]
        except KeyError:
            raise CatalogueError(f"unknown back {back_id!r}; known: {', '.join(self._backs)}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Catalogue) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"Catalogue([{', '.join(repr(b.id) for b in self)}])"

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._backs)

    def only(self, back_ids: Iterable[str]) -> Catalogue:
        """The designs of ``back_ids`` alone, in that order: the sets in play at a table, when the players are
        told, so that no other back can be read.

        >>> Catalogue.default().only(["red-red", "blue-purple"]).ids
        ('red-red', 'blue-purple')
        >>> Catalogue.default().only(["red-red", "blue-purpel"])
        Traceback (most recent call last):
        referee.errors.CatalogueError: no back 'blue-purpel' in the catalogue; it holds red-red, red-light-blue, \
red-pink, red-black, blue-blue, blue-purple, blue-orange, blue-green, green-purple, green-fuchsia, green-green, \
green-brown
        """
        wanted = tuple(dict.fromkeys(back_ids))
        unknown = [back for back in wanted if back not in self._backs]
        if unknown:
            raise CatalogueError(
                f"no back {', '.join(repr(b) for b in unknown)} in the catalogue; it holds {', '.join(self._backs)}"
            )
        return Catalogue(self._backs[back] for back in wanted)

    def with_design(self, back: BackDesign) -> Catalogue:
        """A new catalogue where ``back`` is added, or replaces the design with the same id.

        Replacing is deliberate: a user's photos of their real back win over any default description.
        """
        backs = dict(self._backs)
        if back.id in backs:
            old = backs[back.id]
            back = replace(
                back,
                box=back.box if back.box != "custom" else old.box,
                symbol=back.symbol if back.symbol != "unknown" else old.symbol,
                lettering=back.lettering if back.lettering != "unknown" else old.lettering,
            )
        backs[back.id] = back
        return Catalogue(backs.values())

    def to_json(self) -> dict[str, Any]:
        return {"version": CATALOGUE_VERSION, "backs": [b.to_json() for b in self]}

    @classmethod
    def from_json(cls, data: Any) -> Catalogue:
        if not isinstance(data, dict) or not isinstance(data.get("backs"), list):
            raise CatalogueError("a catalogue must be an object with a list of backs")
        if data.get("version", CATALOGUE_VERSION) != CATALOGUE_VERSION:
            raise CatalogueError(f"catalogue version {data.get('version')!r} is not supported")
        try:
            return cls(BackDesign.from_json(b) for b in data["backs"])
        except SetupError as exc:
            raise CatalogueError(str(exc)) from None
        except NotationError as exc:
            raise CatalogueError(str(exc)) from None

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Catalogue:
        """Reads a catalogue file; a clear :class:`CatalogueError` if it is missing or malformed."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CatalogueError(f"cannot read catalogue {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CatalogueError(f"catalogue {path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
        try:
            return cls.from_json(data)
        except CatalogueError as exc:
            raise CatalogueError(f"catalogue {path}: {exc}") from None

    @classmethod
    def load_or_default(cls, path: str | os.PathLike[str] | None = None) -> Catalogue:
        """The catalogue in ``path`` if present, else the built-in 12 backs (the start of a catalogue that
        enrolment creates there). No ``path``: ./ligretto-backs.json when present, as :meth:`in_use`."""
        if path is None:
            return cls.in_use(None)
        if not Path(path).exists():
            return cls.default()
        return cls.load(path)

    @classmethod
    def in_use(cls, path: str | os.PathLike[str] | None = None) -> Catalogue:
        """The catalogue a command reads: the file ``path`` when given (it must be readable), else
        ./ligretto-backs.json when present, else the built-in 12 backs (see :func:`catalogue_file`)."""
        found = catalogue_file(path)
        return cls.default() if found is None else cls.load(found)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes atomically (temp file + rename) so a crash never leaves a half-written catalogue."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)


def in_play(catalogue: Catalogue | None, players: Iterable[str]) -> Catalogue | None:
    """The catalogue backs are read against: ``catalogue`` (None: the one in use, see :meth:`Catalogue.in_use`),
    narrowed to the ``players``' sets when they are told (a table's backs are those it plays with: a set of another
    box that looks alike cannot be read); ``catalogue`` as it is when they are not.

    >>> in_play(None, ["red-red", "blue-blue"]).ids
    ('red-red', 'blue-blue')
    >>> in_play(None, []) is None
    True
    """
    players = tuple(players)
    if not players:
        return catalogue
    return (catalogue or Catalogue.in_use()).only(players)


def catalogue_file(path: str | os.PathLike[str] | None = None) -> Path | None:
    """Where a command reads its catalogue from: ``path`` when given, else :data:`DEFAULT_CATALOGUE_PATH` when it
    exists in the working folder, else None (the built-in 12 backs).

    >>> catalogue_file("my-backs.json")
    PosixPath('my-backs.json')
    """
    if path is not None:
        return Path(path)
    return DEFAULT_CATALOGUE_PATH if DEFAULT_CATALOGUE_PATH.is_file() else None


def default_boxes() -> dict[str, str]:
    """The box of each design of the default catalogue, by id: a box holds four sets, and tables play whole
    boxes (see :func:`referee.tracker.seats.box_mates`).

    >>> default_boxes()["red-pink"], sum(box == "green" for box in default_boxes().values())
    ('red', 4)
    """
    return {design.id: design.box for design in Catalogue.default()}

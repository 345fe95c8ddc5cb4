"""Cards found in one image: a validated dataclass of parallel numpy arrays (supervision's ``Detections`` style).

Every stage after the detector speaks this type: the detector fills the geometry (``corners``, ``kind``,
``confidence``) with identities unknown, the recogniser fills ``colour``, ``number`` and ``back``, and the
CLI turns it into the ``ligretto detect --json`` contract.

>>> quad = [[10, 10], [69, 10], [69, 101], [10, 101]]
>>> dets = CardDetections.from_quads([quad, quad], kind=[FACE, BACK], confidence=[0.9, 0.3])
>>> len(dets), len(dets[dets.confidence > 0.5])
(2, 1)
>>> dets = dets.with_identity(colour=[0, -1], number=[7, 0], back=[None, "classic"], identity_confidence=[1, 1])
>>> [(c["kind"], c["colour"], c["number"], c["back"]) for c in dets.cards_json()]
[('face', 'red', 7, None), ('back', None, None, 'classic')]
>>> len(CardDetections.empty())
0
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import COLOURS, HIGHEST, LOWEST

TURNS = np.array([[(i - k) % 4 for i in range(4)] for k in range(4)])
"""``quad[TURNS[k]]`` is ``np.roll(quad, k, axis=0)``: a quad's four cyclic labellings at once (np.roll one by one
was a twentieth of a four-player replay)."""

FACE, BACK = 0, 1
KIND_NAMES: tuple[str, ...] = ("face", "back")
UNKNOWN_COLOUR = -1
UNKNOWN_NUMBER = 0

# (field, dtype, trailing shape after N); the order is the dataclass order.
_SCHEMA: tuple[tuple[str, type, tuple[int, ...]], ...] = (
    ("corners", np.float32, (4, 2)),
    ("kind", np.int8, ()),
    ("confidence", np.float32, ()),
    ("colour", np.int8, ()),
    ("number", np.int8, ()),
    ("back", object, ()),
    ("identity_confidence", np.float32, ()),
    ("runner_up", np.int8, (2,)),
    ("runner_up_confidence", np.float32, ()),
    ("back_runner_up", object, ()),
)


@dataclass(frozen=True, eq=False)
class CardDetections:
    """N cards in one image, as parallel arrays.

    Attributes:
        corners: (N, 4, 2) float32, image pixels, the card's own top-left first, then clockwise. A face is
            point-symmetric, so its top-left is only known up to a 180 degree turn until it is recognised.
        kind: (N,) int8, ``FACE`` (0) or ``BACK`` (1).
        confidence: (N,) float32, the detector's confidence.
        colour: (N,) int8, -1 unknown, else an index into ``referee.cards.COLOURS``.
        number: (N,) int8, 0 unknown, else 1..10.
        back: (N,) object, a back id (str) or None.
        identity_confidence: (N,) float32, the recogniser's confidence in colour/number or back.
        runner_up: (N, 2) int8, a face's second likeliest card as (colour, number), (-1, 0) when none.
        runner_up_confidence: (N,) float32, the recogniser's probability of that card (0 when none).
        back_runner_up: (N,) object, a back's runner-up: the likeliest design id of another box than the one
            read (see :class:`vision.recognise.backs.BackMatch`), or None.
    """

    corners: np.ndarray
    kind: np.ndarray
    confidence: np.ndarray
    colour: np.ndarray
    number: np.ndarray
    back: np.ndarray
    identity_confidence: np.ndarray
    runner_up: np.ndarray
    runner_up_confidence: np.ndarray
    back_runner_up: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.corners) if isinstance(self.corners, np.ndarray) and self.corners.ndim >= 1 else -1
        for name, dtype, tail in _SCHEMA:
            value = getattr(self, name)
            if not isinstance(value, np.ndarray):
                raise ValueError(f"CardDetections.{name} must be a numpy array, not {type(value).__name__}")
            expected = (n, *tail)
            if value.shape != expected:
                shape = "(N, " + ", ".join(str(t) for t in tail) + ")" if tail else "(N,)"
                raise ValueError(
                    f"CardDetections.{name} has shape {value.shape}, expected {shape} with N={n} "
                    f"(the length of corners)"
                )
            if value.dtype != np.dtype(dtype):
                raise ValueError(f"CardDetections.{name} has dtype {value.dtype}, expected {np.dtype(dtype)}")
        if n and not np.isin(self.kind, (FACE, BACK)).all():
            raise ValueError(f"CardDetections.kind must hold only {FACE} (face) or {BACK} (back)")

    @classmethod
    def empty(cls) -> CardDetections:
        """No cards."""
        return cls.from_quads(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.int8), np.zeros(0, np.float32))

    @classmethod
    def from_quads(cls, corners: npt.ArrayLike, kind: npt.ArrayLike, confidence: npt.ArrayLike) -> CardDetections:
        """Cards with geometry only; identities unknown."""
        quads = np.asarray(corners, dtype=np.float32).reshape(-1, 4, 2)
        n = len(quads)
        return cls(
            corners=quads,
            kind=np.asarray(kind, dtype=np.int8).reshape(-1),
            confidence=np.asarray(confidence, dtype=np.float32).reshape(-1),
            colour=np.full(n, UNKNOWN_COLOUR, np.int8),
            number=np.full(n, UNKNOWN_NUMBER, np.int8),
            back=np.full(n, None, dtype=object),
            identity_confidence=np.zeros(n, np.float32),
            runner_up=np.tile(np.array([UNKNOWN_COLOUR, UNKNOWN_NUMBER], np.int8), (n, 1)),
            runner_up_confidence=np.zeros(n, np.float32),
            back_runner_up=np.full(n, None, dtype=object),
        )

    def with_identity(
        self,
        *,
        colour: npt.ArrayLike | None = None,
        number: npt.ArrayLike | None = None,
        back: npt.ArrayLike | list[str | None] | None = None,
        identity_confidence: npt.ArrayLike | None = None,
        runner_up: npt.ArrayLike | None = None,
        runner_up_confidence: npt.ArrayLike | None = None,
        back_runner_up: list[str | None] | None = None,
    ) -> CardDetections:
        """A copy with the given identity arrays replaced (the others kept)."""
        changes: dict[str, np.ndarray] = {}
        if colour is not None:
            changes["colour"] = np.asarray(colour, dtype=np.int8).reshape(-1)
        if number is not None:
            changes["number"] = np.asarray(number, dtype=np.int8).reshape(-1)
        if back is not None:
            backs = np.empty(len(self), dtype=object)
            backs[:] = list(back)  # type: ignore[arg-type]
            changes["back"] = backs
        if identity_confidence is not None:
            changes["identity_confidence"] = np.asarray(identity_confidence, dtype=np.float32).reshape(-1)
        if runner_up is not None:
            changes["runner_up"] = np.asarray(runner_up, dtype=np.int8).reshape(-1, 2)
        if runner_up_confidence is not None:
            changes["runner_up_confidence"] = np.asarray(runner_up_confidence, dtype=np.float32).reshape(-1)
        if back_runner_up is not None:
            seconds = np.empty(len(self), dtype=object)
            seconds[:] = list(back_runner_up)
            changes["back_runner_up"] = seconds
        return replace(self, **changes)

    def with_corners(self, corners: npt.ArrayLike) -> CardDetections:
        """A copy with new corners (e.g. turned by 180 degrees once the recogniser knows which way is up)."""
        return replace(self, corners=np.asarray(corners, dtype=np.float32).reshape(-1, 4, 2))

    def __len__(self) -> int:
        return len(self.corners)

    def __getitem__(self, index: Any) -> CardDetections:
        """Selects cards by a bool mask, an index array, a slice or one integer (kept as a length-1 set)."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        return CardDetections(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    @staticmethod
    def concatenate(parts: list[CardDetections]) -> CardDetections:
        """All cards of several sets, in order."""
        if not parts:
            return CardDetections.empty()
        return CardDetections(**{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(parts[0])})

    def cards_json(self) -> list[dict[str, Any]]:
        """The ``cards`` list of the ``ligretto detect --json`` contract (DESIGN.md)."""
        return [self._card_json(i) for i in range(len(self))]

    def _card_json(self, i: int) -> dict[str, Any]:
        colour = int(self.colour[i])
        number = int(self.number[i])
        return {
            "kind": KIND_NAMES[int(self.kind[i])],
            "colour": COLOURS[colour].value if 0 <= colour < len(COLOURS) else None,
            "number": number if LOWEST <= number <= HIGHEST else None,
            "back": self.back[i],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners[i]],
            "confidence": round(float(self.confidence[i]), 4),
        }

    def __repr__(self) -> str:
        faces = int((self.kind == FACE).sum())
        return f"<CardDetections {len(self)} cards: {faces} faces, {len(self) - faces} backs>"

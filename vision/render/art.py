"""Where a scene gets its card pictures: printed art (faces and backs), cached by size tier.

A scene asks for a face (card, print style, height) or a back (back id, height); the answer is a BGRA
portrait whose alpha marks the rounded card. Pictures are rendered at a few height tiers and warped down
from the nearest larger tier, so a worker renders each (card, style, tier) once and the result does not
depend on what was cached before: every picture is a pure function of its key.

Back ids name either a catalogue design (``"blue-purple"``) or a random design (``"random-1234"``, the
number seeds :meth:`BackLook.random`), so labels carry everything needed to redraw the back.

>>> art = FlatArt()
>>> face = art.face(Card.parse("g7"), style=0, height=100)
>>> face.shape[2], face.shape[0] >= 100
(4, True)
>>> art_tier(70), art_tier(5000)
(96, 384)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from referee.backs import Catalogue
from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, Card, Colour
from vision.render.table import hash_name

if TYPE_CHECKING:
    from vision.render.card_art import FaceStyle

Image = npt.NDArray[np.uint8]

TIERS: tuple[int, ...] = (96, 192, 384)
FACE_STYLES = 16  # print styles (font, shades, ball layout) shared by all cards of one scene's decks
RANDOM_BACK_PREFIX = "random-"


def art_tier(height_px: float) -> int:
    """The smallest rendered height at least ``height_px`` (the largest tier if none is)."""
    for tier in TIERS:
        if tier >= height_px:
            return tier
    return TIERS[-1]


def card_width_for(height: int) -> int:
    return max(1, round(height * CARD_WIDTH_MM / CARD_HEIGHT_MM))


class ArtSource(Protocol):
    """Anything that paints cards: BGRA, portrait, the card's own top-left at the image's top-left."""

    def face(self, card: Card, style: int, height: int) -> Image: ...

    def back(self, back_id: str, height: int) -> Image: ...


class _ByteLru:
    """A least-recently-used cache bounded by the bytes of the images it holds."""

    def __init__(self, budget_bytes: int) -> None:
        self._items: OrderedDict[tuple[object, ...], Image] = OrderedDict()
        self._bytes = 0
        self._budget = budget_bytes

    def get(self, key: tuple[object, ...]) -> Image | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: tuple[object, ...], image: Image) -> None:
        self._items[key] = image
        self._bytes += image.nbytes
        while self._bytes > self._budget and len(self._items) > 1:
            _, old = self._items.popitem(last=False)
            self._bytes -= old.nbytes


def rounded_alpha(height: int, width: int, radius_frac: float = 0.06) -> Image:
    """The alpha of a card outline with rounded corners (antialiased at 4x)."""
    scale = 4
    mask = np.zeros((height * scale, width * scale), np.uint8)
    r = max(1, round(radius_frac * width * scale))
    cv2.rectangle(mask, (r, 0), (width * scale - 1 - r, height * scale - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width * scale - 1, height * scale - 1 - r), 255, -1)
    for cx, cy in (
        (r, r),
        (width * scale - 1 - r, r),
        (r, height * scale - 1 - r),
        (width * scale - 1 - r, height * scale - 1 - r),
    ):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return np.asarray(cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA), np.uint8)


_FLAT_BGR: dict[Colour, tuple[int, int, int]] = {
    Colour.RED: (40, 40, 210),
    Colour.YELLOW: (30, 210, 240),
    Colour.GREEN: (60, 160, 40),
    Colour.BLUE: (190, 90, 20),
}


class FlatArt:
    """Solid rounded rectangles: a face in its colour with a white bar near its own top, a grey back.

    For tests of geometry and labels that must not depend on the printed art, and as a speed baseline.
    """

    def face(self, card: Card, style: int, height: int) -> Image:
        width = card_width_for(height)
        image = np.zeros((height, width, 4), np.uint8)
        image[..., :3] = _FLAT_BGR[card.colour]
        image[int(height * 0.1) : int(height * 0.16), int(width * 0.2) : int(width * 0.5), :3] = 255
        image[..., 3] = rounded_alpha(height, width)
        return image

    def back(self, back_id: str, height: int) -> Image:
        width = card_width_for(height)
        image = np.full((height, width, 4), 235, np.uint8)
        image[int(height * 0.05) : int(height * 0.12), int(width * 0.1) : int(width * 0.3), :3] = 20
        image[..., 3] = rounded_alpha(height, width)
        return image


def printed_style(style: int) -> FaceStyle:
    """Print style number ``style`` of :class:`PrintedArt` (scenes and round videos draw them by number)."""
    from vision.render.card_art import FaceStyle

    return FaceStyle.random(np.random.default_rng([0x5EED, style]))


class PrintedArt:
    """The printed look (``vision.render.card_art`` and ``back_art``), cached per process."""

    def __init__(self, cache_bytes: int = 320 * 1024 * 1024, catalogue: Catalogue | None = None) -> None:
        self._cache = _ByteLru(cache_bytes)
        self._catalogue = catalogue or Catalogue.default()
        self._styles: dict[int, object] = {}
        self._looks: dict[str, object] = {}

    def _style(self, style: int) -> object:
        if style not in self._styles:
            self._styles[style] = printed_style(style)
        return self._styles[style]

    def _look(self, back_id: str) -> object:
        from vision.render.back_art import BackLook

        if back_id not in self._looks:
            if back_id.startswith(RANDOM_BACK_PREFIX):
                seed = int(back_id[len(RANDOM_BACK_PREFIX) :])
                self._looks[back_id] = BackLook.random(np.random.default_rng([0xBAC, seed]))
            else:
                self._looks[back_id] = BackLook.for_design(self._catalogue[back_id])
        return self._looks[back_id]

    def face(self, card: Card, style: int, height: int) -> Image:
        from vision.render.card_art import render_face

        tier = art_tier(height)
        key: tuple[object, ...] = ("face", str(card), style, tier)
        image = self._cache.get(key)
        if image is None:
            rng = np.random.default_rng([0xFACE, hash_name(str(card)), style, tier])
            image = render_face(card, tier, rng, style=self._style(style))  # type: ignore[arg-type]
            self._cache.put(key, image)
        return image

    def back(self, back_id: str, height: int) -> Image:
        from vision.render.back_art import render_back

        tier = art_tier(height)
        key: tuple[object, ...] = ("back", back_id, tier)
        image = self._cache.get(key)
        if image is None:
            rng = np.random.default_rng([0xBAC, hash_name(back_id), tier])
            image = render_back(self._look(back_id), tier, rng)  # type: ignore[arg-type]
            self._cache.put(key, image)
        return image

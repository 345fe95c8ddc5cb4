"""Fonts for printed digits and lettering, from installed packages only (nothing is downloaded).

matplotlib ships DejaVu Sans/Serif/Mono (with bold and oblique cuts), STIX and Computer Modern under
``matplotlib/mpl-data/fonts/ttf``; Debian's ``fonts-dejavu`` adds the condensed cuts. Glyph masks are
rendered with PIL and cached, because the renderer asks for the same digit at the same size thousands of
times per second.

>>> "DejaVuSans-Bold" in available_fonts()
True
>>> mask = glyph_mask("DejaVuSans-Bold", "7", 40, 0)
>>> mask.dtype, abs(mask.shape[0] - 40) <= 2, int(mask.max())
(dtype('uint8'), True, 255)
"""

from __future__ import annotations

import importlib.util
from functools import cache, lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

_SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype"))

# Heavy, poster-like cuts suit the cartoon digits; light cuts get a stroke (weight) added by the style.
DIGIT_FONT_CANDIDATES: tuple[str, ...] = (
    "DejaVuSans-Bold",
    "DejaVuSansCondensed-Bold",
    "DejaVuSans-BoldOblique",
    "DejaVuSansCondensed-BoldOblique",
    "DejaVuSerif-Bold",
    "DejaVuSerifCondensed-Bold",
    "DejaVuSerif-BoldItalic",
    "DejaVuSansMono-Bold",
    "STIXGeneralBol",
    "STIXGeneralBolIta",
    "cmb10",
    "cmss10",
    "DejaVuSans",
)
LETTERING_FONT_CANDIDATES: tuple[str, ...] = (
    "DejaVuSans-Bold",
    "DejaVuSansCondensed-Bold",
    "DejaVuSerif-Bold",
    "DejaVuSans-BoldOblique",
    "STIXGeneralBol",
    "STIXGeneralBolIta",
    "cmb10",
)
CANONICAL_FONT = "DejaVuSans-Bold"
# Reference text whose ink height defines "digit height" for every font.
_HEIGHT_PROBE = "0123456789"


def _font_dirs() -> tuple[Path, ...]:
    spec = importlib.util.find_spec("matplotlib")
    dirs: list[Path] = []
    if spec is not None and spec.origin is not None:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return (*dirs, *_SYSTEM_FONT_DIRS)


@cache
def font_path(name: str) -> Path | None:
    """The file of font ``name`` (its file name without ``.ttf``), or None when it is not installed."""
    for folder in _font_dirs():
        candidate = folder / f"{name}.ttf"
        if candidate.is_file():
            return candidate
    return None


@cache
def available_fonts(candidates: tuple[str, ...] = DIGIT_FONT_CANDIDATES) -> tuple[str, ...]:
    """The installed subset of ``candidates``, in their order."""
    return tuple(name for name in candidates if font_path(name) is not None)


@lru_cache(maxsize=256)
def _truetype(name: str, size: int) -> ImageFont.FreeTypeFont:
    path = font_path(name) or font_path(CANONICAL_FONT)
    if path is None:
        raise FileNotFoundError(f"font {name!r} is not installed and neither is {CANONICAL_FONT}")
    return ImageFont.truetype(str(path), size)


@cache
def _ink_height_per_pixel_size(name: str) -> float:
    """Ink height of the digits per pixel of font size, so glyphs can be asked for by ink height."""
    probe = 200
    _, top, _, bottom = _truetype(name, probe).getbbox(_HEIGHT_PROBE)
    return max(0.2, (bottom - top) / probe)


@lru_cache(maxsize=16384)
def glyph_mask(name: str, text: str, height: int, stroke: int) -> npt.NDArray[np.uint8]:
    """Anti-aliased ink mask (0..255) of ``text``, cropped tight, digits about ``height`` px tall.

    ``stroke`` thickens every stroke by that many pixels on each side (round joins: the cartoon look).
    The returned array is shared by the cache: treat it as read-only.
    """
    size = max(4, round(height / _ink_height_per_pixel_size(name)))
    font = _truetype(name, size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, stroke_width=stroke))
    pad = 2
    image = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    mask = np.asarray(image, dtype=np.uint8)
    rows = np.flatnonzero(mask.max(axis=1))
    cols = np.flatnonzero(mask.max(axis=0))
    if rows.size == 0:
        return np.zeros((1, 1), np.uint8)
    cropped = np.ascontiguousarray(mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1])
    cropped.setflags(write=False)
    return cropped

"""Painting primitives and fonts under the card art: outline, spheres, glyphs, the contact sheet."""

from __future__ import annotations

import numpy as np
import pytest

from vision.render.art_paint import card_alpha, card_distance, sphere_layers
from vision.render.art_sheet import make_sheet
from vision.render.fonts import CANONICAL_FONT, DIGIT_FONT_CANDIDATES, available_fonts, font_path, glyph_mask


@pytest.mark.parametrize(("height", "width", "radius"), [(91, 59, 4.0), (120, 78, 7.0), (33, 21, 0.0)])
def test_card_outline_is_symmetric_and_filled(height: int, width: int, radius: float) -> None:
    alpha = card_alpha(height, width, radius)
    assert np.array_equal(alpha, alpha[::-1]) and np.array_equal(alpha, alpha[:, ::-1])
    assert alpha[height // 2, width // 2] == 255
    assert (alpha[0, 0] == 0) == (radius >= 3)
    assert card_distance(height, width, radius)[height // 2, 0] == pytest.approx(0.5)


def test_sphere_highlight_sits_upper_left_and_rim_is_darker() -> None:
    coverage, shade, spec = sphere_layers(80, 1.0)  # radius 20 px
    y, x = np.unravel_index(int(np.argmax(spec)), spec.shape)
    centre = coverage.shape[0] / 2
    assert x < centre and y < centre
    assert shade[int(centre), int(centre)] > shade[int(centre), int(centre + 18)]
    assert coverage[int(centre), int(centre)] == 1.0 and coverage[0, 0] == 0.0


def test_fonts_come_from_installed_packages() -> None:
    fonts = available_fonts()
    assert CANONICAL_FONT in fonts and len(fonts) >= 6
    assert set(fonts) <= set(DIGIT_FONT_CANDIDATES)
    assert all(font_path(name) is not None for name in fonts)
    assert font_path("NoSuchFont-Bold") is None


@pytest.mark.parametrize("font", available_fonts())
@pytest.mark.parametrize("text", [str(n) for n in range(1, 11)])
def test_every_font_draws_every_value_at_the_asked_height(font: str, text: str) -> None:
    mask = glyph_mask(font, text, 48, 0)
    assert 40 <= mask.shape[0] <= 58, "ink height follows the asked digit height"
    assert mask.max() == 255 and 0.1 < float((mask > 127).mean()) < 0.9
    thick = glyph_mask(font, text, 48, 3)
    assert (thick > 127).sum() > (mask > 127).sum()


def test_contact_sheet_holds_forty_faces_and_twenty_four_backs() -> None:
    sheet = make_sheet(seed=1, height=40)
    gap = 4
    assert sheet.ndim == 3 and sheet.shape[2] == 3
    assert sheet.shape[0] == (4 + 2) * (40 + gap) + 2 * gap
    assert np.array_equal(sheet, make_sheet(seed=1, height=40)), "the committed sample can be regenerated"

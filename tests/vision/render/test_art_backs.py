"""Card backs: shape and alpha, determinism, the 12 catalogue backs told apart, an open random family."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from referee.backs import BackDesign, Catalogue
from vision.render.art_motifs import SYMBOLS, motif_layers
from vision.render.back_art import PATTERNS, BackLook, render_back

CATALOGUE = tuple(Catalogue.default())


def look_of(back_id: str) -> BackLook:
    return BackLook.for_design(Catalogue.default()[back_id])


def colour_histogram(image: np.ndarray) -> np.ndarray:
    inside = (image[:, :, 3] == 255).astype(np.uint8)
    hist = cv2.calcHist([np.ascontiguousarray(image[:, :, :3])], [0, 1, 2], inside, [6, 6, 6], [0, 256] * 3)
    return hist.ravel() / hist.sum()


def pixel_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean absolute difference of two backs scaled to one size (grey levels 0..255)."""
    size = (48, 72)
    small_a = cv2.resize(a[:, :, :3], size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small_b = cv2.resize(b[:, :, :3], size, interpolation=cv2.INTER_AREA).astype(np.float32)
    return float(np.abs(small_a - small_b).mean())


@pytest.mark.parametrize("height", [16, 77, 120, 300])
@pytest.mark.parametrize("which", ["red-red", "blue-green", "random"])
def test_back_has_card_shape_and_rounded_alpha(height: int, which: str) -> None:
    look = BackLook.random(np.random.default_rng(3)) if which == "random" else look_of(which)
    back = render_back(look, height, np.random.default_rng(0))
    assert back.shape == (height, round(height * look.aspect), 4)
    assert back.dtype == np.uint8
    assert back[0, 0, 3] < 255 and back[-1, -1, 3] < 255
    if height >= 120:
        assert back[0, 0, 3] == 0 and back[-1, -1, 3] == 0
    assert back[height // 2, back.shape[1] // 2, 3] == 255


@pytest.mark.parametrize("design", CATALOGUE, ids=lambda d: d.id)
def test_catalogue_look_is_deterministic_and_carries_the_design(design: BackDesign) -> None:
    look = BackLook.for_design(design)
    assert look == BackLook.for_design(design)
    assert look.symbol == design.symbol
    first = render_back(look, 96, np.random.default_rng(9))
    assert np.array_equal(first, render_back(look, 96, np.random.default_rng(9)))
    assert not np.array_equal(first, render_back(look, 96, np.random.default_rng(10)))


def test_twelve_catalogue_backs_are_pairwise_distinguishable() -> None:
    renders = {d.id: render_back(BackLook.for_design(d), 144, np.random.default_rng(0)) for d in CATALOGUE}
    for (id_a, a), (id_b, b) in itertools.combinations(renders.items(), 2):
        same_lettering = Catalogue.default()[id_a].lettering == Catalogue.default()[id_b].lettering
        hist_gap = 0.5 * float(np.abs(colour_histogram(a) - colour_histogram(b)).sum())
        if not same_lettering:
            assert hist_gap > 0.08, (id_a, id_b, hist_gap)
        assert pixel_distance(a, b) > 6.0, (id_a, id_b)


@pytest.mark.parametrize("lettering", ["purple", "green"])
def test_same_lettering_in_two_boxes_differs_by_symbol(lettering: str) -> None:
    blue_box, green_box = look_of(f"blue-{lettering}"), look_of(f"green-{lettering}")
    assert blue_box.lettering == green_box.lettering
    assert (blue_box.symbol, green_box.symbol) == ("balls", "lightning")
    a = render_back(blue_box, 144, np.random.default_rng(0))
    b = render_back(green_box, 144, np.random.default_rng(0))
    assert pixel_distance(a, b) > 6.0


def test_unknown_lettering_and_symbol_still_give_a_stable_look() -> None:
    design = BackDesign(id="grandma-s-blue", symbol="unknown", lettering="teal")
    look = BackLook.for_design(design)
    assert look == BackLook.for_design(design)
    assert look.symbol in SYMBOLS


def test_random_looks_vary_in_colour_symbol_and_pattern() -> None:
    looks = [BackLook.random(np.random.default_rng(seed)) for seed in range(60)]
    assert BackLook.random(np.random.default_rng(5)) == looks[5]
    assert len({look.lettering for look in looks}) == 60
    assert len({look.symbol for look in looks}) >= 8
    assert len({look.pattern for look in looks}) == len(PATTERNS)
    renders = [render_back(look, 96, np.random.default_rng(0)) for look in looks[:12]]
    for a, b in itertools.combinations(renders, 2):
        if a.shape == b.shape:
            assert not np.array_equal(a, b)


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_symbol_draws_a_visible_motif(symbol: str) -> None:
    coverage, shade, highlight = motif_layers(symbol, 32, 0)
    assert 0.05 < float(coverage.mean()) < 0.8
    assert float(shade.min()) >= 0.0 and float(highlight.max()) <= 1.0


@pytest.mark.parametrize(("field", "value"), [("symbol", "unicorns"), ("pattern", "plaid")])
def test_unknown_symbol_or_pattern_is_refused(field: str, value: str) -> None:
    with pytest.raises(ValueError, match=value):
        BackLook(
            lettering=(0, 0, 0),
            symbol=value if field == "symbol" else "balls",
            pattern=value if field == "pattern" else "grid",
        )

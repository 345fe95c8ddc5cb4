"""The windows of a thorough reading: they cover the image, overlap, and each fills the network's input."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect.onnx_detector import Letterbox
from vision.detect.windows import MIN_OVERLAP, windows

SIZES = [(1280, 720), (1920, 1080), (4000, 3000), (720, 1280), (640, 384), (300, 200)]
ZOOMS = [1.0, 1.5, 2.0, 3.0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("zoom", ZOOMS)
def test_windows_cover_every_pixel(size: tuple[int, int], zoom: float) -> None:
    width, height = size
    covered = np.zeros((height, width), bool)
    for w in windows(width, height, zoom):
        assert w.x0 >= 0 and w.y0 >= 0 and w.x0 + w.width <= width and w.y0 + w.height <= height
        covered[w.y0 : w.y0 + w.height, w.x0 : w.x0 + w.width] = True
    assert covered.all()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("zoom", [1.5, 2.0, 3.0])
def test_neighbouring_windows_overlap(size: tuple[int, int], zoom: float) -> None:
    width, height = size
    found = windows(width, height, zoom)
    for axis, length in ((0, width), (1, height)):
        starts = sorted({(w.x0, w.y0)[axis] for w in found})
        extent = (found[0].width, found[0].height)[axis]
        gaps = np.diff(starts)
        if len(starts) > 1:
            assert (extent - gaps >= MIN_OVERLAP * extent - 1).all(), (starts, extent)
        else:
            assert extent == length


@pytest.mark.parametrize(
    ("size", "zoom", "count"),
    [
        ((1280, 720), 1.0, 1),  # the one pass
        ((1280, 720), 1.5, 4),  # 2 x 2
        ((1280, 720), 2.0, 9),  # 3 x 3 windows of 640 x 384 at full resolution
        ((640, 384), 2.0, 9),
    ],
)
def test_window_counts(size: tuple[int, int], zoom: float, count: int) -> None:
    assert len(windows(*size, zoom)) == count


@pytest.mark.parametrize("zoom", ZOOMS)
def test_each_window_is_read_at_the_zoomed_scale(zoom: float) -> None:
    one_pass = Letterbox.fit(720, 1280, (384, 640)).scale
    for w in windows(1280, 720, zoom):
        assert Letterbox.fit(w.height, w.width, (384, 640)).scale == pytest.approx(one_pass * zoom, rel=0.01)

"""Decoded frames come out as BGR pictures whatever their colour space, the common one converted fast, and halved
ahead in the decoder's thread when asked."""

from __future__ import annotations

import av
import cv2
import numpy as np
import pytest

from vision.sources import Frame, _bgr, prefetched


def _picture() -> np.ndarray:
    rng = np.random.default_rng(0)
    picture = cv2.GaussianBlur(rng.integers(0, 256, (96, 128, 3), dtype=np.uint8), (9, 9), 0)
    picture[:, :40] = (30, 200, 60)  # a saturated patch, where colour matrices differ most
    return picture


def _yuv420(colorspace: int = 2, color_range: int = 0) -> av.VideoFrame:
    frame = av.VideoFrame.from_ndarray(_picture(), format="bgr24").reformat(format="yuv420p")
    frame.colorspace, frame.color_range = colorspace, color_range
    return frame


@pytest.mark.parametrize("colorspace", [2, 5, 6])  # unspecified, BT.470BG, SMPTE 170M: all BT.601
def test_a_bt601_frame_at_limited_range_comes_out_as_pyav_converts_it_within_three_levels(colorspace: int) -> None:
    frame = _yuv420(colorspace)
    ours = _bgr(frame).astype(int)
    pyav = frame.to_ndarray(format="bgr24").astype(int)
    assert ours.shape == pyav.shape == (96, 128, 3)
    assert np.abs(ours - pyav).max() <= 3
    assert np.abs(ours - _picture().astype(int)).mean() < 4  # and it is the picture encoded


@pytest.mark.parametrize(("colorspace", "color_range"), [(1, 0), (2, 2)])  # BT.709; full range
def test_a_frame_in_another_colour_space_or_range_is_converted_as_its_flags_say(
    colorspace: int, color_range: int
) -> None:
    frame = _yuv420(colorspace, color_range)
    assert np.array_equal(_bgr(frame), frame.to_ndarray(format="bgr24"))
    assert not np.array_equal(_bgr(frame), _bgr(_yuv420()))  # the flags matter: these differ from BT.601's


def test_a_frame_in_another_pixel_format_is_converted_by_pyav() -> None:
    frame = av.VideoFrame.from_ndarray(_picture(), format="bgr24").reformat(format="yuv444p")
    assert np.abs(_bgr(frame).astype(int) - _picture().astype(int)).max() <= 4


def test_frames_prefetched_with_halving_carry_their_picture_at_half_each_side() -> None:
    frames = [Frame(0, 0.0, _picture()), Frame(1, 1 / 30, None)]
    first, unreadable = prefetched(iter(frames), halve=True)
    assert first.half is not None and first.half.shape == (48, 64, 3)
    expected = cv2.resize(frames[0].image, (64, 48), interpolation=cv2.INTER_LINEAR)
    assert np.array_equal(first.half, expected) and first.image is frames[0].image
    assert unreadable.image is None and unreadable.half is None


def test_frames_prefetched_without_halving_carry_no_half() -> None:
    (frame,) = prefetched(iter([Frame(0, 0.0, _picture())]))
    assert frame.half is None

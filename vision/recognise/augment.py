"""What a camera does to a card, applied to a rendered card: the recogniser's training crops.

A rendered card (BGRA, portrait) is placed on a random table patch at a random size (20..200 px wide), angle
and perspective, partly covered by another card or a hand, lit badly (white balance, low light, glare),
blurred, noised and JPEG-compressed, then cut out again with :func:`vision.rectify.rectify` through corners
that are a few pixels off, the way a detector's quad would be, and in either of the two portrait orders
(0 or 180 degrees). The result is exactly what the recogniser sees at run time.

>>> rng = np.random.default_rng(0)
>>> card = np.zeros((91, 59, 4), np.uint8); card[..., 2] = 200; card[..., 3] = 255
>>> sample = camera_crop(card, rng)
>>> sample.crop.shape, sample.crop.dtype.name, bool(0.0 < sample.visible <= 1.0)
((96, 64, 3), 'uint8', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognise.quads import portrait
from vision.rectify import CROP_HEIGHT, CROP_WIDTH, rectify
from vision.render.export import box_around_part

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class CameraSettings:
    """How hard the camera is on a card. Defaults are the training distribution."""

    min_width: float = 20.0
    max_width: float = 200.0
    occlusion_p: float = 0.45
    min_visible: float = 0.45
    corner_error: float = 0.035  # std of the quad's corner error, as a fraction of the card width (>= 1 px)
    flip_p: float = 0.5
    glare_p: float = 0.35
    blur_p: float = 0.4
    jpeg_p: float = 0.6
    grain_p: float = 0.0  # low-light sensor grain (strong, partly blotchy, colour) as phones show it in dim rooms
    squash_p: float = 0.0  # foreshortening: a steep camera (or a wide lens's edge) shrinks the picture's vertical
    detector_p: float = 0.0  # cut out through a rough detector-like box (detector_box) instead of the noisy quad
    beneath_p: float = 0.0  # the card lies on another (as on a stack), slapped askew: the one below peeks out
    beneath_other_p: float = 0.0  # of those, the share lying on any other face (a wrong card on a stack)
    fanned_p: float = 0.0  # the card lies in a fan of its own back (the count's spreads): only a strip shows
    fan_mixed_p: float = 0.0  # each other card of a fan is an occluder instead (a stack fanned where it lay)
    edge_p: float = 0.0  # the picture's edge cuts the card (a seat's row at the frame's border): see _cut_by_frame


DEFAULT_CAMERA = CameraSettings()


@dataclass(frozen=True)
class CameraSample:
    crop: Image  # CROP_HEIGHT x CROP_WIDTH x 3 BGR
    visible: float  # fraction of the card's area not covered by an occluder
    flipped: bool  # True when the crop is rotated by 180 degrees
    width: float  # the card's width in the picture, pixels


def camera_crop(
    card: Image,
    rng: np.random.Generator,
    occluders: Sequence[Image] = (),
    settings: CameraSettings = DEFAULT_CAMERA,
    size: tuple[int, int] = (CROP_WIDTH, CROP_HEIGHT),
    beneath: Image | None = None,
) -> CameraSample:
    """One training crop of ``card`` (BGRA) as a camera and a detector would deliver it; ``beneath`` (BGRA): the
    card it lies on, drawn with probability ``settings.beneath_p`` (on a stack, the card one lower)."""
    card_w = float(np.exp(rng.uniform(np.log(settings.min_width), np.log(settings.max_width))))
    aspect = card.shape[1] / card.shape[0]
    card_h = card_w / aspect
    canvas_side = int(np.ceil(card_h * 1.8)) + 8
    canvas = table_patch(canvas_side, canvas_side, rng)
    quad = _placement(card_w, card_h, canvas_side, rng)
    if settings.squash_p > 0 and rng.random() < settings.squash_p:  # no draw when off, as for grain
        quad = _squash(quad, canvas_side, rng)
    if beneath is not None and settings.beneath_p > 0 and rng.random() < settings.beneath_p:
        _paste(canvas, beneath, _slapped_under(quad, card_w, rng))
    fan = _fan(quad, rng) if settings.fanned_p > 0 and rng.random() < settings.fanned_p else None
    for lower in fan[0] if fan else ():
        _paste(canvas, _fan_card(card, occluders, settings.fan_mixed_p, rng), lower)
    card_mask = _paste(canvas, card, quad)
    covered = np.zeros(card_mask.shape, bool)
    for upper in fan[1] if fan else ():
        covered |= _paste(canvas, _fan_card(card, occluders, settings.fan_mixed_p, rng), upper)
    if occluders and rng.random() < settings.occlusion_p:
        # a fan's cards over this one cover it too: the visible share counts both
        covered |= _occlude(canvas, quad, card_w, card_h, occluders, card_mask, settings.min_visible, rng)
    canvas = camera_effects(canvas, rng, settings)
    part: npt.NDArray[np.float32] | None = None
    if settings.edge_p > 0 and rng.random() < settings.edge_p:  # no draw when off, as for grain
        canvas, quad, card_mask, covered, part = _cut_by_frame(canvas, quad, card_mask, covered, rng)
    visible = int(np.count_nonzero(card_mask & ~covered)) / max(1, int(np.count_nonzero(card_mask)))
    if part is not None:
        seen = portrait(detector_box(part, rng))
    elif settings.detector_p > 0 and rng.random() < settings.detector_p:  # no draw when off, as for grain
        seen = portrait(detector_box(quad, rng))
    else:
        seen = quad + rng.normal(0.0, max(1.0, settings.corner_error * card_w), quad.shape).astype(np.float32)
    flipped = bool(rng.random() < settings.flip_p)
    if flipped:
        seen = np.roll(seen, 2, axis=0)
    crop = rectify(canvas, seen, size[0], size[1])
    return CameraSample(crop=crop, visible=visible, flipped=flipped, width=card_w)


def detector_box(quad: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """A rough oriented box around the card ``quad`` (top-left first, clockwise), off the way the shipped
    detector's boxes are (train-split tuning scenes, see :mod:`vision.recognise.quads`): the centre off by
    N(0, 7 %) of the short side per axis, the long side N(93 %, 9 %) and the short one N(101 %, 11 %) of the
    card's, the angle N(0, 9) degrees, and 7 % of the boxes nearly square and turned by a quarter. Labelled
    from the card's top-left like the card (a reader cannot know that labelling: it makes the box portrait).
    """
    centre = quad.mean(axis=0)
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2  # the card's own long axis
    across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    long_side, short_side = float(np.linalg.norm(down)), float(np.linalg.norm(across))
    angle = float(np.arctan2(down[1], down[0])) + np.deg2rad(rng.normal(0, 9))
    long_new = long_side * float(np.clip(rng.normal(0.93, 0.09), 0.7, 1.2))
    short_new = short_side * float(np.clip(rng.normal(1.01, 0.11), 0.75, 1.35))
    if rng.random() < 0.07:  # quarter-turned: a near-square box whose "long" axis lies across the card
        side = (long_side * short_side) ** 0.5
        long_new, short_new = side * rng.uniform(0.95, 1.1), side * rng.uniform(0.85, 1.0)
        angle += np.pi / 2
    centre = centre + rng.normal(0, 0.07 * short_side, 2)
    axis = np.array([np.cos(angle), np.sin(angle)])  # along the box's long side, from its top to its bottom
    normal = np.array([-axis[1], axis[0]])  # to the card's left when going down
    half_down, half_across = axis * long_new / 2, -normal * short_new / 2
    corners = [-half_down - half_across, -half_down + half_across, half_down + half_across, half_down - half_across]
    return (np.array(corners) + centre).astype(np.float32)


def table_patch(height: int, width: int, rng: np.random.Generator) -> Image:
    """A random table surface: a base colour with wood-like stripes or cloth-like noise."""
    base = rng.uniform(20, 235, 3)
    low = rng.normal(0, rng.uniform(2, 25), (max(2, height // 8), max(2, width // 8), 3))
    texture = cv2.resize(low.astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.4:  # wood grain: stripes along one direction
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        phase = np.cos(angle) * xx + np.sin(angle) * yy
        stripes = np.sin(phase / rng.uniform(2, 9) + rng.uniform(0, 6)) * rng.uniform(3, 20)
        texture += stripes[..., None]
    fine = rng.normal(0, rng.uniform(0, 8), (height, width, 3)).astype(np.float32)
    return np.clip(base + texture + fine, 0, 255).astype(np.uint8)


def camera_effects(image: Image, rng: np.random.Generator, settings: CameraSettings = DEFAULT_CAMERA) -> Image:
    """White balance, exposure, glare, shading, blur, sensor noise and JPEG, each randomly."""
    out = image.astype(np.float32)
    out *= rng.uniform(0.8, 1.2, 3)  # white balance
    out *= float(np.exp(rng.uniform(np.log(0.35), np.log(1.4))))  # exposure: low light .. bright
    h, w = out.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    strength = rng.uniform(-0.3, 0.3)  # a light gradient across the picture
    direction = rng.uniform(0, 6.3)
    shade = 1.0 + strength * ((xx / w - 0.5) * np.cos(direction) + (yy / h - 0.5) * np.sin(direction))
    out *= shade[..., None]
    if rng.random() < settings.glare_p:  # a specular highlight on glossy stock
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        radius = rng.uniform(0.08, 0.4) * max(h, w)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius**2)) * rng.uniform(60, 230)
        out += glare[..., None]
    out = np.clip(out, 0, 255)
    if rng.random() < settings.blur_p:
        out = _blur(out, rng)
    noise_std = rng.uniform(0, 10) * (1.6 if out.mean() < 70 else 1.0)
    noisy = out + rng.normal(0, noise_std, out.shape)
    if settings.grain_p > 0 and rng.random() < settings.grain_p:  # no draw when off: old crops stay reproducible
        noisy = _grain(noisy, rng)
    out = np.clip(noisy, 0, 255).astype(np.uint8)
    if rng.random() < settings.jpeg_p:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return np.asarray(out, np.uint8)


def _grain(image: npt.NDArray[np.float64], rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """Strong sensor noise: read noise plus shot noise that grows with brightness, often smeared into blotches
    by the camera's demosaicing and denoising (the held-out scenes' dim lights look like this)."""
    noise = rng.normal(0, 1, image.shape).astype(np.float32)
    if rng.random() < 0.5:
        sigma = rng.uniform(0.6, 1.2)
        noise = np.asarray(cv2.GaussianBlur(noise, (0, 0), sigma), np.float32) * (2.5 * sigma)  # keeps the spread
    strength = rng.uniform(6, 26)
    return np.asarray(image + noise * strength * (0.6 + 0.4 * np.clip(image, 0, 255) / 128), np.float64)


def _blur(image: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.float32]:
    if rng.random() < 0.5:
        return np.asarray(cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 2.0)), np.float32)
    length = int(rng.integers(3, 9))  # motion blur along a random direction
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = np.asarray(cv2.warpAffine(kernel, rot, (length, length)), np.float32)
    return np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)), np.float32)


def _placement(card_w: float, card_h: float, side: int, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """The card's corners on the canvas: rotated by any angle, slightly off-perspective, near the centre."""
    half = np.array([[-card_w, -card_h], [card_w, -card_h], [card_w, card_h], [-card_w, card_h]]) / 2
    half = half + rng.normal(0, 0.04 * card_w, half.shape)  # camera tilt: a mild projective skew
    angle = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centre = side / 2 + rng.normal(0, 0.03 * card_w, 2)
    return (half @ rot.T + centre).astype(np.float32)


def _slapped_under(quad: npt.NDArray[np.float32], card_w: float, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """Where the card below lies: a slap lands up to 15 % of a card off and turned by up to 20 degrees (mostly
    less), so the lower card's corner index and edge show beside the top card."""
    centre = quad.mean(axis=0)
    turn = np.deg2rad(float(np.clip(rng.normal(0, 8), -20, 20)))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
    shift = rng.uniform(0.03, 0.15) * card_w * np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a)])
    return ((quad - centre) @ rot.T + centre + shift).astype(np.float32)


def _fan(
    quad: npt.NDArray[np.float32], rng: np.random.Generator
) -> tuple[list[npt.NDArray[np.float32]], list[npt.NDArray[np.float32]]]:
    """Where the other cards of a fan lie, below and above the card: after the round the cards are spread out
    face down to be counted, each over the last, so of a card in the fan only a strip of 6-50 % of its width
    (or, in a leftover line laid lengthwise, of its height) shows beside the next, and the crop through its box
    is mostly the cards above it (which they are: :func:`_fan_card`). Each lies a little askew of the last."""
    centre = quad.mean(axis=0)
    across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2  # the card's short side, left to right
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    step = (across if rng.random() < 0.7 else down) * rng.uniform(0.06, 0.5) * rng.choice([-1.0, 1.0])
    above = int(rng.integers(1, 6))
    below = int(rng.integers(0, 3)) if rng.random() < 0.5 else 0

    def placed(k: int) -> npt.NDArray[np.float32]:
        turn = np.deg2rad(float(rng.normal(0, 3)))
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        return ((quad - centre) @ rot.T + centre + k * step).astype(np.float32)

    return [placed(-k) for k in range(below, 0, -1)], [placed(k) for k in range(1, above + 1)]


def _fan_card(card: Image, others: Sequence[Image], mixed_p: float, rng: np.random.Generator) -> Image:
    """One other card of a fan: the card's own back (the centre handed back sorted, a leftover line), or with
    ``mixed_p`` another card (a stack fanned where it lay holds every player's backs, and a strip must be read by
    itself, not by the cards over it)."""
    if others and mixed_p > 0 and rng.random() < mixed_p:
        return others[int(rng.integers(len(others)))]
    return card


def _cut_by_frame(
    canvas: Image,
    quad: npt.NDArray[np.float32],
    card_mask: npt.NDArray[np.bool_],
    covered: npt.NDArray[np.bool_],
    rng: np.random.Generator,
) -> tuple[Image, Quad, Mask, Mask, Quad | None]:
    """The picture ends across the card: 10-55 % of its extent along x or y lies beyond one of the frame's
    edges, as for a seat's row at the border (seed 100101, four players: of the faces no colour fit was found
    for, 71 of 144 cut by the edge were misread, 0 of 60 wholly inside).

    Returns the canvas cut at the edge (so :func:`vision.rectify.rectify` smears the frame's last pixels beyond
    it, as at run time), the quad in the cut canvas, the card's mask and the covered mask (the canvas's size: all
    beyond the edge covered, so the visible share counts it unseen), and with probability 0.7 the box the
    detector draws around the part in the picture (the smallest rotated rectangle, as its labels are; None: the
    card is read through its whole quad).
    """
    axis = int(rng.integers(2))  # of the points: 0 x (the mask's columns), 1 y (its rows)
    spread = np.flatnonzero(card_mask.any(axis=axis))
    low, high = int(spread[0]), int(spread[-1]) + 1
    cut = rng.uniform(0.1, 0.55) * (high - low)
    far = rng.random() < 0.5  # the frame's right or bottom edge: the part kept starts at 0
    start, stop = (0, round(high - cut)) if far else (round(low + cut), card_mask.shape[1 - axis])
    keep: list[slice] = [slice(None), slice(None)]
    keep[1 - axis] = slice(start, stop)
    shift = np.zeros(2, np.float32)
    shift[axis] = start
    outside = np.ones(card_mask.shape, bool)
    outside[tuple(keep)] = False
    part = None
    if rng.random() < 0.7:
        height, width = card_mask.shape
        frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        frame[:, axis] = np.clip(frame[:, axis], start, stop)
        box = box_around_part(quad, frame)
        part = None if box is None else box - shift
    cut_canvas = np.ascontiguousarray(canvas[tuple(keep)])
    return cut_canvas, (quad - shift).astype(np.float32), card_mask, covered | outside, part


def _squash(quad: npt.NDArray[np.float32], side: int, rng: np.random.Generator) -> npt.NDArray[np.float32]:
    """The quad seen from a low angle: the picture's vertical shrunk by up to half (a card may then look wider
    than tall, with its print stretched when rectified)."""
    factor = np.array([1.0, rng.uniform(0.45, 1.0)], np.float32)
    return ((quad - side / 2) * factor + side / 2).astype(np.float32)


def _paste(canvas: Image, rgba: Image, quad: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Alpha-composites ``rgba`` onto ``canvas`` in place over ``quad``; returns the pasted pixels' mask."""
    h, w = rgba.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    colour = cv2.warpPerspective(rgba[..., :3], matrix, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(rgba[..., 3], matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    blended = canvas * (1 - alpha[..., None]) + colour * alpha[..., None]
    canvas[:] = np.clip(blended, 0, 255).astype(np.uint8)
    return np.asarray(alpha > 0.5)


def _occlude(
    canvas: Image,
    quad: npt.NDArray[np.float32],
    card_w: float,
    card_h: float,
    occluders: Sequence[Image],
    card_mask: npt.NDArray[np.bool_],
    min_visible: float,
    rng: np.random.Generator,
) -> npt.NDArray[np.bool_]:
    """Covers part of the card with another card (as in a stack) or a hand, keeping >= ``min_visible``."""
    for _ in range(6):
        trial = canvas.copy()
        if rng.random() < 0.8:
            other = occluders[int(rng.integers(len(occluders)))]
            shift = rng.uniform(0.35, 1.0) * np.array([card_w, card_h]) * rng.choice([-1, 1], 2)
            if rng.random() < 0.5:
                shift[int(rng.integers(2))] *= rng.uniform(0, 0.3)  # mostly along one side, as stacks slip
            other_quad = _placement(card_w, card_h, canvas.shape[0], rng) + shift.astype(np.float32)
            covered = _paste(trial, other, other_quad)
        else:
            covered = _hand(trial, quad.mean(axis=0), card_w, rng)
        visible = 1.0 - np.count_nonzero(covered & card_mask) / max(1, int(np.count_nonzero(card_mask)))
        if visible >= min_visible:
            canvas[:] = trial
            return covered
    return np.zeros(card_mask.shape, bool)


def _hand(
    canvas: Image, centre: npt.NDArray[np.float32], card_w: float, rng: np.random.Generator
) -> npt.NDArray[np.bool_]:
    """A skin-coloured blob (a finger or palm) over part of the card."""
    mask = np.zeros(canvas.shape[:2], np.uint8)
    offset = rng.normal(0, 0.6 * card_w, 2)
    axes = (int(rng.uniform(0.15, 0.5) * card_w) + 1, int(rng.uniform(0.3, 1.2) * card_w) + 1)
    cx, cy = (centre + offset).astype(int)
    cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 255, -1)
    skin = np.array([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(140, 240)], np.float32)
    shade = rng.normal(1.0, 0.05, canvas.shape[:2]).astype(np.float32)[..., None]
    hand = np.clip(skin * shade, 0, 255).astype(np.uint8)
    inside = mask > 0
    canvas[inside] = hand[inside]
    return np.asarray(inside)

"""What moves in a video besides the cards: the players' hands and arms, a hand-held camera, the exposure.

- :func:`hand_at` turns a point on a player's hand track into a :class:`~vision.render.occluders.Hand`
  whose fingertips hold the card and whose arm comes from the player's side of the table;
- :class:`Shake` is a phone's wobble: a small, smooth rotation of the camera (tenths of a degree), which
  moves the whole picture by a homography ``K R K^-1``: exact for every point, whatever its height;
- :class:`Drift` is the auto-exposure breathing: a slow brightness factor around 1.

Both are smooth sums of sines with phases and frequencies drawn from the seed: pure functions of time.

>>> shake = Shake.random(np.random.default_rng(0), amplitude_deg=0.15)
>>> m = shake.matrix(2.0, fx=900.0, cx=640.0, cy=360.0)
>>> m.shape, bool(np.allclose(Shake.still().matrix(2.0, 900.0, 640.0, 360.0), np.eye(3)))
((3, 3), True)
>>> 0.9 < Drift.random(np.random.default_rng(0)).exposure(5.0) < 1.1
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera
from vision.render.layers import Layer
from vision.render.occluders import SKIN_TONES, Hand
from vision.render.video_timeline import SeatGeometry

FloatArray = npt.NDArray[np.float64]

WRIST_BEHIND_GRIP_MM = 118.0
"""The wrist lies this far behind the grip point, so the fingers (80..140 mm beyond it) cover the card's end."""
FOREARM_MM = 300.0
BLUR_KERNEL_PX = 7.0
SPRITE_ARM_MM = 1000.0
"""A drawn arm reaches this far back from the wrist: out of the picture, as a player's arm leaning in does."""


@dataclass(frozen=True)
class Wobble:
    """A smooth signal: a sum of sines (amplitudes, frequencies in Hz, phases)."""

    amplitudes: tuple[float, ...]
    frequencies: tuple[float, ...]
    phases: tuple[float, ...]

    @classmethod
    def random(cls, rng: np.random.Generator, amplitude: float, low_hz: float, high_hz: float, n: int = 3) -> Wobble:
        weights = rng.uniform(0.5, 1.0, n)
        weights = weights / weights.sum() * amplitude
        return cls(
            tuple(float(w) for w in weights),
            tuple(float(f) for f in rng.uniform(low_hz, high_hz, n)),
            tuple(float(p) for p in rng.uniform(0, 2 * math.pi, n)),
        )

    def __call__(self, t: float) -> float:
        return sum(
            a * math.sin(2 * math.pi * f * t + p)
            for a, f, p in zip(self.amplitudes, self.frequencies, self.phases, strict=True)
        )


_FLAT = Wobble((), (), ())


@dataclass(frozen=True)
class Shake:
    """A hand-held camera: pitch, yaw and roll wobble (degrees) as functions of time."""

    pitch: Wobble
    yaw: Wobble
    roll: Wobble

    @classmethod
    def random(cls, rng: np.random.Generator, amplitude_deg: float = 0.12) -> Shake:
        # slow sway (breathing, the arm) plus a faint faster tremor
        return cls(
            Wobble.random(rng, amplitude_deg, 0.15, 1.6, 4),
            Wobble.random(rng, amplitude_deg, 0.15, 1.6, 4),
            Wobble.random(rng, amplitude_deg * 0.5, 0.1, 0.8, 3),
        )

    @classmethod
    def still(cls) -> Shake:
        """A camera on a stand."""
        return cls(_FLAT, _FLAT, _FLAT)

    def matrix(self, t: float, fx: float, cx: float, cy: float) -> FloatArray:
        """The image homography of the camera turned by the wobble at ``t`` (intrinsics fx = fy, cx, cy)."""
        ax, ay, az = (math.radians(w(t)) for w in (self.pitch, self.yaw, self.roll))
        if ax == ay == az == 0.0:
            return np.eye(3)
        rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
        ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
        rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
        k = np.array([[fx, 0, cx], [0, fx, cy], [0, 0, 1]])
        h = k @ (rz @ ry @ rx) @ np.linalg.inv(k)
        return np.asarray(h / h[2, 2], dtype=np.float64)


@dataclass(frozen=True)
class Drift:
    """Auto-exposure that breathes: a brightness factor around 1 (a few per cent)."""

    wobble: Wobble

    @classmethod
    def random(cls, rng: np.random.Generator, amplitude: float = 0.05) -> Drift:
        return cls(Wobble.random(rng, amplitude, 0.03, 0.3, 3))

    @classmethod
    def steady(cls) -> Drift:
        return cls(_FLAT)

    def exposure(self, t: float) -> float:
        return 1.0 + self.wobble(t)


@dataclass(frozen=True)
class Arm:
    """How one player's arm looks: skin, sleeve and fingers (drawn once per seat from the seed)."""

    skin: tuple[float, float, float]
    sleeve: tuple[float, float, float] | None
    sleeve_start: float
    finger_length_mm: float
    spread_deg: float

    @classmethod
    def random(cls, rng: np.random.Generator) -> Arm:
        sleeve = tuple(float(v) for v in rng.uniform(25, 220, 3)) if rng.random() < 0.7 else None
        return cls(
            skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
            sleeve=sleeve,  # type: ignore[arg-type]
            sleeve_start=float(rng.uniform(0.12, 0.3)),
            finger_length_mm=float(rng.uniform(50, 70)),
            spread_deg=float(rng.uniform(2, 10)),
        )


def hand_at(seat: SeatGeometry, arm: Arm, grip: tuple[float, float, float]) -> Hand:
    """The hand of ``seat`` whose fingers are at ``grip`` (x, y, height mm), the arm coming from the seat."""
    gx, gy, height = grip
    sx, sy = seat.shoulder()
    dx, dy = gx - sx, gy - sy
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    wrist = (gx - ux * WRIST_BEHIND_GRIP_MM, gy - uy * WRIST_BEHIND_GRIP_MM)
    elbow = (wrist[0] - ux * FOREARM_MM, wrist[1] - uy * FOREARM_MM)
    return Hand(
        elbow_mm=elbow,
        wrist_mm=wrist,
        height_mm=height,
        skin=arm.skin,
        sleeve=arm.sleeve,
        sleeve_start=arm.sleeve_start,
        finger_length_mm=arm.finger_length_mm,
        spread_deg=arm.spread_deg,
    )


class HandSprite:
    """One player's hand and arm drawn once, top-down, then moved into place each frame.

    Drawing an occluder from its outline costs milliseconds (polygons, a distance transform, a resize); a
    hand only turns and slides between frames, so the picture is drawn once at the camera's scale and then
    warped by a similarity (the perspective of a slightly tilted camera is left out, which the eye does not
    miss on a moving arm; labels do not depend on it: the id mask takes whatever is drawn).
    """

    AXIS_MM = 150.0  # the second point, back along the arm, that fixes the turn and the scale

    def __init__(self, arm: Arm, px_per_mm: float, height_mm: float = 45.0) -> None:
        self.height_mm = height_mm
        # the grip at the origin, the arm along -x (the hand points to +x)
        hand = hand_at(SeatGeometry("", (-1000.0, 0.0), 90.0), arm, (0.0, 0.0, height_mm))
        hand = Hand(
            elbow_mm=(-(WRIST_BEHIND_GRIP_MM + SPRITE_ARM_MM), 0.0),
            wrist_mm=(-WRIST_BEHIND_GRIP_MM, 0.0),
            height_mm=height_mm,
            skin=hand.skin,
            sleeve=hand.sleeve,
            sleeve_start=hand.sleeve_start,
            finger_length_mm=hand.finger_length_mm,
            spread_deg=hand.spread_deg,
        )
        scale = max(px_per_mm * 1.1, 0.2)
        skin_mm, sleeve_mm = hand.outlines_mm()
        everything = np.vstack(skin_mm + sleeve_mm)
        origin = everything.min(axis=0) - 4.0 / scale
        w, h = (np.ceil((everything.max(axis=0) - origin) * scale) + 5).astype(int)

        def fill(outlines: list[FloatArray]) -> npt.NDArray[np.float32]:
            mask = np.zeros((h, w), np.uint8)
            pts = [np.round((o - origin) * scale * 8).astype(np.int32) for o in outlines]
            for polygon in pts:  # one at a time: a single call fills overlaps even-odd (holes)
                cv2.fillPoly(mask, [polygon], 255, lineType=cv2.LINE_AA, shift=3)
            return mask.astype(np.float32) / 255.0

        skin, sleeve = fill(skin_mm), fill(sleeve_mm)
        alpha = np.maximum(skin, sleeve)
        # brighter along the middle of the limb, darker to its edges: a lit cylinder
        dist = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
        shade = 0.55 + 0.45 * np.sqrt(np.minimum(dist / max(float(dist.max()), 1.0), 1.0))
        colour = np.empty((h, w, 3), np.float32)
        colour[:] = hand.skin
        if hand.sleeve is not None:
            colour += (np.asarray(hand.sleeve, np.float32) - colour) * sleeve[..., None]
        self.bgr = (colour * shade[..., None]).astype(np.float32)
        self.alpha = alpha
        # the grip point and a point back along the arm, in sprite pixels (mm -> px is a plain scale here)
        self.anchor = (np.array([[0.0, 0.0], [-self.AXIS_MM, 0.0]]) - origin) * scale

    def layer(self, camera: Camera, grip: tuple[float, float, float], direction: tuple[float, float]) -> Layer | None:
        """The sprite placed with its grip at ``grip`` (x, y, height mm), the hand pointing along ``direction``."""
        gx, gy, height = grip
        dx, dy = direction
        target = camera.project_undistorted(
            [[gx, gy, -height], [gx - dx * self.AXIS_MM, gy - dy * self.AXIS_MM, -height]]
        )
        matrix = _similarity(self.anchor, target)
        h, w = self.alpha.shape
        box = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), matrix)[0]
        cw, ch = camera.size
        x0, y0 = (max(int(v), 0) for v in np.floor(box.min(axis=0)))
        x1, y1 = min(int(np.ceil(box[:, 0].max())), cw), min(int(np.ceil(box[:, 1].max())), ch)
        if x0 >= x1 or y0 >= y1:
            return None
        matrix[:, 2] -= [x0, y0]
        size = (x1 - x0, y1 - y0)
        bgr = cv2.warpAffine(self.bgr, matrix, size, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(self.alpha, matrix, size, flags=cv2.INTER_LINEAR)
        return Layer(x0, y0, np.asarray(bgr, np.float32), np.asarray(alpha, np.float32))


def _similarity(src: FloatArray, dst: FloatArray) -> FloatArray:
    """The 2x3 rotation + scale + shift taking the two points ``src`` onto ``dst``."""
    a = complex(*(src[1] - src[0]))
    b = complex(*(dst[1] - dst[0]))
    z = b / a if abs(a) > 1e-9 else 1.0 + 0j
    rot = np.array([[z.real, -z.imag], [z.imag, z.real]])
    shift = dst[0] - rot @ src[0]
    return np.column_stack([rot, shift]).astype(np.float64)


def grip_direction(seat: SeatGeometry, grip: tuple[float, float, float]) -> tuple[float, float]:
    """The way a hand at ``grip`` points: from the player's shoulder towards the grip."""
    sx, sy = seat.shoulder()
    dx, dy = grip[0] - sx, grip[1] - sy
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def motion_blur(layer: Layer, dx: float, dy: float) -> Layer:
    """``layer`` smeared along (dx, dy) pixels, as a moving thing looks in one exposure.

    Colour is blurred premultiplied by alpha (so the table does not bleed into the card's colour), then
    divided back; the layer grows by the blur on every side. A long smear is computed at a reduced scale
    (the kernel stays at most :data:`BLUR_KERNEL_PX` wide) and scaled back: it is soft anyway.

    >>> layer = Layer(10, 10, np.full((8, 8, 3), 200, np.float32), np.ones((8, 8), np.float32))
    >>> smeared = motion_blur(layer, 6.0, 0.0)
    >>> smeared.x0 < 10, smeared.alpha.shape[1] > 8, round(float(smeared.bgr[4, 7, 0]))
    (True, True, 200)
    >>> motion_blur(layer, 0.5, 0.5) is layer
    True
    """
    length = math.hypot(dx, dy)
    if length < 1.5:
        return layer
    half = math.ceil(length / 2)
    pad = ((half, half), (half, half))
    alpha = np.pad(layer.alpha, pad)
    premultiplied = np.pad(layer.bgr * layer.alpha[..., None], (*pad, (0, 0)))
    h, w = alpha.shape
    scale = min(1.0, BLUR_KERNEL_PX / length)
    kernel = _line_kernel(dx * scale, dy * scale)

    def smear(plane: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        out: Any = plane
        if scale < 1.0:
            small = (max(1, round(w * scale)), max(1, round(h * scale)))
            out = cv2.resize(out, small, interpolation=cv2.INTER_AREA)
        out = cv2.filter2D(out, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        if scale < 1.0:
            out = cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
        return np.asarray(out, np.float32)

    alpha = np.clip(smear(alpha), 0.0, 1.0)
    bgr = (smear(premultiplied) / np.maximum(alpha, 1e-4)[..., None]).astype(np.float32)
    return Layer(layer.x0 - half, layer.y0 - half, bgr, alpha)


def _line_kernel(dx: float, dy: float) -> npt.NDArray[np.float32]:
    """A normalised, antialiased line of length |(dx, dy)| through the middle of an odd square."""
    length = math.hypot(dx, dy)
    n = math.ceil(length) | 1
    middle = n // 2
    kernel = np.zeros((n, n), np.float32)
    ux, uy = dx / max(length, 1e-9) * (n - 1) / 2, dy / max(length, 1e-9) * (n - 1) / 2
    start = (round((middle - ux) * 8), round((middle - uy) * 8))
    end = (round((middle + ux) * 8), round((middle + uy) * 8))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA, shift=3)
    return kernel / max(float(kernel.sum()), 1e-6)

"""Things between the camera and the cards: hands and arms, cups, phones.

Each occluder is a value in table millimetres (with a height above the table, so a tilted camera sees it
in perspective and its shadow falls away from it) that turns into a :class:`Layer` for a given camera.
Shading is cheap and plausible: a distance transform of the silhouette makes round things bright in the
middle and darker towards their edges.

>>> from vision.render.camera import Camera
>>> cam = Camera.looking_at((0, 0), 600, 0, 600, (320, 320))
>>> layer = Cup((0.0, 0.0), 40.0, 90.0, (200, 200, 200), (30, 50, 80)).layer(cam)
>>> bool(layer.alpha.max() > 0.99), layer.bgr.shape[2]
(True, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.camera import Camera
from vision.render.layers import Layer

Float = npt.NDArray[np.float32]
Bgr = tuple[float, float, float]

SKIN_TONES: tuple[Bgr, ...] = (
    (165, 190, 235),
    (140, 170, 220),
    (115, 150, 200),
    (90, 125, 175),
    (65, 95, 145),
    (45, 65, 105),
    (35, 48, 75),
)


def _circle(centre: tuple[float, float], radius: float, z: float, n: int = 40) -> npt.NDArray[np.float64]:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a), np.full(n, z)])


def _capsule(p0: tuple[float, float], p1: tuple[float, float], r0: float, r1: float) -> npt.NDArray[np.float64]:
    """A 2-D outline (N x 2) of a tapered capsule from p0 (radius r0) to p1 (radius r1)."""
    d = np.subtract(p1, p0)
    base = math.atan2(d[1], d[0])
    cap1 = [
        (p1[0] + r1 * math.cos(base + a), p1[1] + r1 * math.sin(base + a))
        for a in np.linspace(-np.pi / 2, np.pi / 2, 9)
    ]
    cap0 = [
        (p0[0] + r0 * math.cos(base + a), p0[1] + r0 * math.sin(base + a))
        for a in np.linspace(np.pi / 2, 1.5 * np.pi, 9)
    ]
    return np.asarray(cap1 + cap0, np.float64)


class _Raster:
    """A small canvas-aligned raster around a set of projected outlines.

    Large occluders are drawn at a reduced scale (at most ``MAX_SIDE`` pixels a side) and scaled up at the
    end: their shading is smooth, so only the edge softens a little, and the cost stays bounded.
    """

    MAX_SIDE = 320

    def __init__(self, outlines_px: list[npt.NDArray[np.float64]], canvas: tuple[int, int], pad: int = 2) -> None:
        allpts = np.vstack(outlines_px)
        # only what can show on the canvas (plus a margin for shadows) is drawn: an arm may reach far beyond
        margin = 48
        self.x0 = max(math.floor(allpts[:, 0].min()) - pad, -margin)
        self.y0 = max(math.floor(allpts[:, 1].min()) - pad, -margin)
        x1 = min(math.ceil(allpts[:, 0].max()) + pad, canvas[0] + margin)
        y1 = min(math.ceil(allpts[:, 1].max()) + pad, canvas[1] + margin)
        self.limit = 8.0 * max(canvas)  # far-off points are pulled in, so fillPoly's integers never overflow
        self.w, self.h = max(1, x1 - self.x0), max(1, y1 - self.y0)
        self.scale = min(1.0, self.MAX_SIDE / max(self.w, self.h))
        self.sw, self.sh = max(1, round(self.w * self.scale)), max(1, round(self.h * self.scale))

    def fill(self, outlines_px: list[npt.NDArray[np.float64]]) -> Float:
        mask = np.zeros((self.sh, self.sw), np.uint8)
        shift = 3  # sub-pixel precision for fillPoly
        for outline in outlines_px:
            # one polygon per call: fillPoly leaves holes where polygons of one call overlap
            near = np.clip(outline, -self.limit, self.limit)
            pts = np.round((near - [self.x0, self.y0]) * self.scale * (1 << shift)).astype(np.int32)
            cv2.fillPoly(mask, [pts], 255, lineType=cv2.LINE_AA, shift=shift)
        return mask.astype(np.float32) / 255.0

    def colour(self, bgr: Bgr) -> Float:
        out = np.empty((self.sh, self.sw, 3), np.float32)
        out[:] = bgr
        return out

    def layer(self, bgr: Float, alpha: Float) -> Layer:
        if self.scale < 1.0:
            bgr = np.asarray(cv2.resize(bgr, (self.w, self.h), interpolation=cv2.INTER_LINEAR), np.float32)
            alpha = np.asarray(cv2.resize(alpha, (self.w, self.h), interpolation=cv2.INTER_LINEAR), np.float32)
        return Layer(self.x0, self.y0, bgr, alpha)


def _too_big(raster: _Raster, camera: Camera) -> bool:
    return raster.w * raster.h > 16 * camera.size[0] * camera.size[1]


def _rounded_shading(alpha: Float, gamma: float = 0.5, floor: float = 0.6) -> Float:
    """Brightness that rises from the silhouette's edge to its middle, like a lit cylinder."""
    binary = (alpha > 0.5).astype(np.uint8)
    dist = cv2.distanceTransform(binary, cv2.DIST_L2, 3)
    peak = max(float(dist.max()), 1.0)
    return (floor + (1.0 - floor) * (dist / peak) ** gamma).astype(np.float32)


def _empty_layer() -> Layer:
    return Layer(0, 0, np.zeros((1, 1, 3), np.float32), np.zeros((1, 1), np.float32))


@dataclass(frozen=True)
class Hand:
    """An arm reaching over the table: from ``elbow_mm`` towards ``wrist_mm``, fingers beyond the wrist."""

    elbow_mm: tuple[float, float]
    wrist_mm: tuple[float, float]
    height_mm: float
    skin: Bgr
    sleeve: Bgr | None
    sleeve_start: float  # fraction of the forearm (from the wrist) left bare
    finger_length_mm: float
    spread_deg: float

    def outlines_mm(self) -> tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.float64]]]:
        """(skin outlines, sleeve outlines) in table millimetres."""
        ex, ey = self.elbow_mm
        wx, wy = self.wrist_mm
        a = math.atan2(wy - ey, wx - ex)
        c, s = math.cos(a), math.sin(a)

        def world(pts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            return np.column_stack([wx + pts[:, 0] * c - pts[:, 1] * s, wy + pts[:, 0] * s + pts[:, 1] * c])

        length = math.hypot(wx - ex, wy - ey)
        skin = [_capsule((-length, 0), (0, 0), 42, 30)]
        t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        skin.append(np.column_stack([45 + 52 * np.cos(t), 40 * np.sin(t)]))  # palm
        for i, offset in enumerate((-27.0, -9.0, 9.0, 27.0)):
            angle = math.radians((i - 1.5) * self.spread_deg)
            length_i = self.finger_length_mm * (0.85, 1.0, 0.97, 0.8)[i]
            start = (80.0, offset)
            tip = (start[0] + length_i * math.cos(angle), offset + length_i * math.sin(angle))
            skin.append(_capsule(start, tip, 9, 8))
        thumb_angle = math.radians(-50 - self.spread_deg)
        skin.append(_capsule((25, -35), (25 + 60 * math.cos(thumb_angle), -35 + 60 * math.sin(thumb_angle)), 12, 10))
        sleeves = []
        if self.sleeve is not None:
            bare = self.sleeve_start * length
            sleeves.append(_capsule((-length - 30, 0), (-bare, 0), 55, 45))
        return [world(p) for p in skin], [world(p) for p in sleeves]

    def in_front_of(self, camera: Camera) -> Hand:
        """This hand with its arm shortened until its far end lies well in front of the lens."""
        hand = self
        for _ in range(8):
            elbow = np.array([[hand.elbow_mm[0], hand.elbow_mm[1], -hand.height_mm]])
            if camera.depth(elbow)[0] > 100.0:
                break
            e, w = np.asarray(hand.elbow_mm), np.asarray(hand.wrist_mm)
            shorter = w + (e - w) * 0.7
            hand = replace(hand, elbow_mm=(float(shorter[0]), float(shorter[1])))
        return hand

    def layer(self, camera: Camera) -> Layer:
        skin_mm, sleeve_mm = self.in_front_of(camera).outlines_mm()

        def px(outline: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            z = np.full((len(outline), 1), -self.height_mm)
            return camera.project_undistorted(np.hstack([outline, z]))

        skin_px, sleeve_px = [px(o) for o in skin_mm], [px(o) for o in sleeve_mm]
        raster = _Raster(skin_px + sleeve_px, camera.size)
        if _too_big(raster, camera):
            return _empty_layer()
        skin_alpha = raster.fill(skin_px)
        sleeve_alpha = raster.fill(sleeve_px) if sleeve_px else np.zeros_like(skin_alpha)
        alpha = np.maximum(skin_alpha, sleeve_alpha)
        shade = _rounded_shading(alpha, 0.45, 0.55)
        colour = raster.colour(self.skin)
        if self.sleeve is not None:
            colour += (np.asarray(self.sleeve, np.float32) - colour) * sleeve_alpha[..., None]
        return raster.layer(colour * shade[..., None], alpha)


@dataclass(frozen=True)
class Cup:
    """A mug or glass standing on the table: a cylinder seen from above, its drink showing."""

    centre_mm: tuple[float, float]
    radius_mm: float
    height_mm: float
    body: Bgr
    drink: Bgr

    def layer(self, camera: Camera) -> Layer:
        bottom = camera.project_undistorted(_circle(self.centre_mm, self.radius_mm, 0.0))
        top = camera.project_undistorted(_circle(self.centre_mm, self.radius_mm, -self.height_mm))
        inner = camera.project_undistorted(_circle(self.centre_mm, self.radius_mm - 5, -self.height_mm + 2))
        hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32)).reshape(-1, 2).astype(np.float64)
        raster = _Raster([hull], camera.size)
        if _too_big(raster, camera):
            return _empty_layer()
        body_alpha = raster.fill([hull])
        rim_alpha = raster.fill([top])
        drink_alpha = raster.fill([inner])
        colour = raster.colour(self.body)
        colour *= _rounded_shading(body_alpha, 0.6, 0.55)[..., None]
        rim = np.asarray(self.body, np.float32) * 1.1 + 15
        colour += (rim - colour) * rim_alpha[..., None]
        colour += (np.asarray(self.drink, np.float32) - colour) * drink_alpha[..., None]
        return raster.layer(np.clip(colour, 0, 255), body_alpha)


@dataclass(frozen=True)
class Phone:
    """A phone lying on the table, screen up (dark glass with a reflection) or back up (a coloured case)."""

    centre_mm: tuple[float, float]
    angle_deg: float
    screen_up: bool
    case: Bgr

    def layer(self, camera: Camera) -> Layer:
        w, h, r = 72.0, 150.0, 9.0
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        corners = [
            (w / 2 - r, h / 2 - r, 0.0),
            (-w / 2 + r, h / 2 - r, 0.5),
            (-w / 2 + r, -h / 2 + r, 1.0),
            (w / 2 - r, -h / 2 + r, 1.5),
        ]
        pts = []
        for cx, cy, start in corners:
            for t in np.linspace(start * np.pi, (start + 0.5) * np.pi, 6):
                pts.append((cx + r * math.cos(t), cy + r * math.sin(t)))
        local = np.asarray(pts)
        world = np.column_stack(
            [
                self.centre_mm[0] + local[:, 0] * c - local[:, 1] * s,
                self.centre_mm[1] + local[:, 0] * s + local[:, 1] * c,
            ]
        )
        outline = camera.project_undistorted(np.hstack([world, np.full((len(world), 1), -8.0)]))
        screen = camera.project_undistorted(
            np.hstack([self.centre_mm + (world - self.centre_mm) * 0.9, np.full((len(world), 1), -8.0)])
        )
        raster = _Raster([outline], camera.size)
        if _too_big(raster, camera):
            return _empty_layer()
        alpha = raster.fill([outline])
        colour = raster.colour(self.case if not self.screen_up else (25.0, 25.0, 28.0))
        if self.screen_up:
            glass = raster.fill([screen])
            ramp = np.linspace(0, 1, raster.sw, dtype=np.float32)[None, :] * np.ones((raster.sh, 1), np.float32)
            reflection = 15 + 45 * ramp
            colour += (reflection[..., None] - colour) * glass[..., None]
        return raster.layer(colour * _rounded_shading(alpha, 0.3, 0.8)[..., None], alpha)


Occluder = Hand | Cup | Phone


def _random_bgr(rng: np.random.Generator, low: float, high: float) -> Bgr:
    b, g, r = (float(v) for v in rng.uniform(low, high, 3))
    return (b, g, r)


def random_hand(
    rng: np.random.Generator, target_mm: tuple[float, float], reach_mm: float, max_height_mm: float
) -> Hand:
    """A hand whose fingertips end near ``target_mm``, its arm coming from ``reach_mm`` away.

    ``max_height_mm`` keeps the hand well below the camera (a hand at the lens would fill the frame).
    """
    a = rng.uniform(0, 2 * np.pi)
    direction = np.array([math.cos(a), math.sin(a)])
    wrist = np.asarray(target_mm) - direction * rng.uniform(60, 160)
    elbow = wrist - direction * reach_mm
    sleeve = _random_bgr(rng, 20, 220) if rng.random() < 0.6 else None
    return Hand(
        elbow_mm=(float(elbow[0]), float(elbow[1])),
        wrist_mm=(float(wrist[0]), float(wrist[1])),
        height_mm=float(rng.uniform(15, max(20.0, min(150.0, max_height_mm)))),
        skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
        sleeve=sleeve,
        sleeve_start=float(rng.uniform(0.2, 0.8)),
        finger_length_mm=float(rng.uniform(40, 80)),
        spread_deg=float(rng.uniform(0, 12)),
    )


def random_cup(rng: np.random.Generator, centre_mm: tuple[float, float]) -> Cup:
    drinks: tuple[Bgr, ...] = ((20, 35, 60), (30, 70, 120), (180, 180, 170), (60, 40, 120), (200, 210, 215))
    body = _random_bgr(rng, 30, 240)
    drink = drinks[int(rng.integers(len(drinks)))]
    return Cup(centre_mm, float(rng.uniform(32, 48)), float(rng.uniform(70, 120)), body, drink)


def random_phone(rng: np.random.Generator, centre_mm: tuple[float, float]) -> Phone:
    case = _random_bgr(rng, 20, 230)
    return Phone(centre_mm, float(rng.uniform(0, 360)), bool(rng.random() < 0.6), case)

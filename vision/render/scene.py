"""A table scene: table + camera + light + placed cards + occluders -> picture + exact labels.

A :class:`Scene` is a plain value (everything in table millimetres or plain numbers), so the same machinery
renders training stills and, frame by frame, videos of simulated rounds. :func:`render` draws it:

1. the surface tile laid over the table plane through the camera homography;
2. every card, bottom first: its art warped into its bounding box, a soft shadow under it, its id written
   into an id mask (later cards and occluders overwrite earlier ones, which is what makes ``visible`` exact);
3. occluders (hands, cups, phones) with their shadows;
4. light (shading, white balance, glare on the glossy cards), then lens distortion (a remap of the picture
   and the id mask), blur, sensor noise and JPEG compression.

>>> from vision.render.art import FlatArt
>>> from vision.render.layouts import PlacedCard
>>> from referee.cards import Card
>>> cam = Camera.looking_at((0, 0), 500, 0, 500, (160, 160))
>>> scene = Scene.plain(cam, [PlacedCard((0.0, 0.0), 0.0, Card.parse("b2"), "blue-blue")])
>>> out = render(scene, FlatArt())
>>> out.image.shape, [(l.kind, str(l.card), round(l.visible, 1)) for l in out.labels]
((160, 160, 3), [('face', 'b2', 1.0)])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.art import ArtSource
from vision.render.camera import Camera
from vision.render.labels import CardLabel, quad_area
from vision.render.layers import OCCLUDER_ID, Float, Layer, Shadow, composite
from vision.render.layouts import PlacedCard
from vision.render.lighting import LIGHT_PRESETS, Light, apply_light
from vision.render.occluders import Occluder
from vision.render.props import Prop
from vision.render.table import FLOOR_DEPTH_MM, add_floor, draw_table, surface_tile, table_mask

Image = npt.NDArray[np.uint8]
Ids = npt.NDArray[np.uint16]


@dataclass(frozen=True)
class Effects:
    """What the camera does to the picture after the light: tone curve, colour, blur, noise, compression."""

    motion_blur_px: float = 0.0
    motion_angle_deg: float = 0.0
    defocus_sigma: float = 0.0
    noise_scale: float = 1.0
    jpeg_quality: int = 0  # 0: no compression artefacts
    far_blur_sigma: float = 0.0  # shallow depth of field: a tilted view blurs towards its far (top) side
    sharpen: float = 0.0  # unsharp-mask amount: phones and webcams sharpen, leaving halos at edges
    gamma: float = 1.0  # the camera's tone curve (< 1 brighter mid-tones)
    saturation: float = 1.0  # the camera's colour processing (1: as lit)


@dataclass(frozen=True)
class Scene:
    """Everything that decides a picture. ``seed`` drives only per-pixel noise and per-card tints."""

    camera: Camera
    surface: str
    surface_variant: int
    surface_gains: tuple[float, float, float]
    surface_rotation_deg: float
    light: Light
    cards: tuple[PlacedCard, ...]
    occluders: tuple[Occluder, ...] = ()
    face_style: int = 0
    effects: Effects = field(default_factory=Effects)
    seed: int = 0
    props: tuple[Prop, ...] = ()  # flat things under the cards (score sheets, pens, coins), not labelled
    table_half_mm: tuple[float, float] | None = None  # None: the table fills the view
    table_round: bool = False
    floor: str = "black-laminate"  # surface preset seen off the table, far below

    @classmethod
    def plain(cls, camera: Camera, cards: Sequence[PlacedCard], surface: str = "grey-laminate") -> Scene:
        """A scene in flat, neutral light without effects (for tests and examples)."""
        light = LIGHT_PRESETS["office-fluorescent"].sample(np.random.default_rng(0))
        neutral = replace(
            light, gains=(1.0, 1.0, 1.0), exposure=1.0, gradient=0.0, spot=0.0, vignette=0.0, glare=0.0, noise=0.0
        )
        return cls(camera, surface, 0, (1.0, 1.0, 1.0), 0.0, neutral, tuple(cards))


@dataclass(frozen=True, eq=False)
class Rendered:
    """A picture (BGR uint8), its id mask (0 table, i+1 card i, ``OCCLUDER_ID``) and the labels."""

    image: Image
    ids: Ids
    labels: tuple[CardLabel, ...]


def _px_per_mm(camera: Camera) -> float:
    w, h = camera.size
    centre = camera.unproject([[w / 2, h / 2]])[0]
    return camera.scale_px_per_mm((float(centre[0]), float(centre[1])))


def _corners_xyz(card: PlacedCard) -> npt.NDArray[np.float64]:
    """The card's corners in 3-D: it lies ``lift_mm`` above the table (on the cards beneath it)."""
    return np.column_stack([card.corners_mm(), np.full(4, -card.lift_mm)])


def card_layer(card: PlacedCard, camera: Camera, art: ArtSource, style: int, tint: float) -> Layer | None:
    """The card's art warped onto the canvas of ``camera`` (undistorted), cropped to its bounding box."""
    dst = camera.project_undistorted(_corners_xyz(card))
    w, h = camera.size
    x0, y0 = np.floor(dst.min(axis=0)).astype(int)
    x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x0 >= x1 or y0 >= y1:
        return None
    height_px = max(np.linalg.norm(dst[3] - dst[0]), np.linalg.norm(dst[2] - dst[1]))
    picture = art.back(card.back, int(height_px)) if card.face is None else art.face(card.face, style, int(height_px))
    ah, aw = picture.shape[:2]
    src = np.array([[0, 0], [aw, 0], [aw, ah], [0, ah]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(picture, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    bgr = warped[..., :3].astype(np.float32) * tint
    return Layer(x0, y0, bgr, warped[..., 3].astype(np.float32) / 255.0)


def _occluder_height(occluder: Occluder) -> float:
    return float(getattr(occluder, "height_mm", 8.0))


def _draw(scene: Scene, art: ArtSource, canvas_cam: Camera) -> tuple[Float, Ids]:
    w, h = canvas_cam.size
    ppm = _px_per_mm(canvas_cam)
    tile = surface_tile(scene.surface, scene.surface_variant)
    homography = canvas_cam.homography()
    canvas_f = draw_table((w, h), homography, tile, ppm, scene.surface_gains, scene.surface_rotation_deg)
    if scene.table_half_mm is not None:
        top = table_mask((w, h), homography, scene.table_half_mm, scene.table_round)
        floor = surface_tile(scene.floor, 0)
        gain = float(np.random.default_rng([scene.seed, 13]).uniform(0.35, 0.85))  # the floor lies in the table's shade
        canvas_f = add_floor(canvas_f, canvas_cam.homography(FLOOR_DEPTH_MM), floor, ppm * 0.6, top, gain)
    ids = np.zeros((h, w), np.uint16)
    light = scene.light
    for prop in scene.props:
        dx, dy = light.shadow_offset_px(1.0, ppm)
        composite(canvas_f, ids, prop.layer(canvas_cam), 0, Shadow(dx, dy, ppm * 0.8, light.shadow_opacity * 0.5))
    tints = np.random.default_rng([scene.seed, 7]).uniform(0.92, 1.06, len(scene.cards))
    for i, card in enumerate(scene.cards):
        layer = card_layer(card, canvas_cam, art, scene.face_style, float(tints[i]))
        if layer is None:
            continue
        dx, dy = light.shadow_offset_px(card.lift_mm + 1.0, ppm)
        sigma = min(light.shadow_softness_mm, 1.5) * ppm * 0.6
        composite(canvas_f, ids, layer, i + 1, Shadow(dx, dy, sigma, light.shadow_opacity * 0.7))
    for occluder in scene.occluders:
        layer = occluder.layer(canvas_cam)
        height = _occluder_height(occluder)
        dx, dy = light.shadow_offset_px(height, ppm)
        sigma = light.shadow_softness_mm * ppm * (1 + height / 40.0)
        composite(canvas_f, ids, layer, OCCLUDER_ID, Shadow(dx, dy, sigma, light.shadow_opacity))
    return canvas_f, ids


@lru_cache(maxsize=1)
def _noise_bank() -> Float:
    return np.random.default_rng(0x5E1).standard_normal((1100, 2000, 3), dtype=np.float32)


def _grain(shape: tuple[int, ...], rng: np.random.Generator) -> Float:
    """Unit Gaussian noise of ``shape``: a random window of a fixed bank (fast), or fresh if it does not fit."""
    bank = _noise_bank()
    h, w = shape[0], shape[1]
    if h > bank.shape[0] or w > bank.shape[1]:
        return rng.standard_normal(shape, dtype=np.float32)
    y = int(rng.integers(bank.shape[0] - h + 1))
    x = int(rng.integers(bank.shape[1] - w + 1))
    window = bank[y : y + h, x : x + w]
    return window[:, :, rng.permutation(3)] if rng.random() < 0.5 else window[::-1, ::-1]


def _saturate(image: Float, saturation: float) -> Float:
    """The camera's colour processing: colours pushed away from (or towards) grey."""
    if saturation == 1.0:
        return image
    grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return np.asarray(cv2.addWeighted(image, saturation, grey, 1.0 - saturation, 0.0), np.float32)


def _tone_curve(image: Image, gamma: float) -> Image:
    """The camera's tone curve, applied to the encoded values (a lookup table, as cameras do)."""
    if gamma == 1.0:
        return image
    table = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma + 0.5, 0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(image, table), np.uint8)


def _apply_effects(image: Float, effects: Effects, light: Light, rng: np.random.Generator) -> Image:
    image = _saturate(image, effects.saturation)
    if effects.motion_blur_px >= 1.5:
        n = math.ceil(effects.motion_blur_px) | 1
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), effects.motion_angle_deg, 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (n, n)), np.float32)
        image = np.asarray(cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6)), np.float32)
    if effects.far_blur_sigma > 0.3:
        far = np.asarray(cv2.GaussianBlur(image, (0, 0), effects.far_blur_sigma), np.float32)
        h = image.shape[0]
        # sharp in the lower (near) half where the camera focuses, blurring towards the top edge
        ramp = np.clip(1.0 - np.arange(h, dtype=np.float32) / (0.55 * h), 0.0, 1.0)[:, None, None]
        image = image + (far - image) * ramp
    if effects.defocus_sigma > 0.3:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), effects.defocus_sigma), np.float32)
    if effects.sharpen > 0:
        soft = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.2), np.float32)
        image = image + (image - soft) * np.float32(effects.sharpen)
    sigma = light.noise * effects.noise_scale / max(light.exposure, 0.3)
    if sigma > 0:
        # Shot noise grows with brightness; read noise does not: a blend of both, per channel.
        grain = _grain(image.shape, rng)
        image = image + grain * (sigma * 0.6 + image * (sigma * 0.4 / 128.0))
    out = _tone_curve(np.clip(image, 0, 255).astype(np.uint8), effects.gamma)
    if effects.jpeg_quality > 0:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(effects.jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out


def _labels(scene: Scene, ids: Ids) -> tuple[CardLabel, ...]:
    w, h = scene.camera.size
    if not scene.cards:
        return ()
    counts = np.bincount(ids.ravel(), minlength=len(scene.cards) + 1)
    xyz = np.vstack([_corners_xyz(card) for card in scene.cards])
    all_corners = scene.camera.distort_pixels(scene.camera.project_undistorted(xyz)).reshape(-1, 4, 2)
    labels = []
    for i, (card, corners) in enumerate(zip(scene.cards, all_corners, strict=True)):
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        if hi[0] < 0 or hi[1] < 0 or lo[0] > w or lo[1] > h:
            continue  # entirely outside the frame: not in the picture, not in the labels
        area = abs(quad_area(corners))
        visible = min(1.0, float(counts[i + 1]) / area) if area > 0 else 0.0
        corner_tuple = tuple((float(x), float(y)) for x, y in corners)
        labels.append(CardLabel(i, card.kind, card.face, card.back, corner_tuple, visible))
    return tuple(labels)


def render(scene: Scene, art: ArtSource) -> Rendered:
    """Draws ``scene`` with ``art``; deterministic for a given scene."""
    camera = scene.camera
    mx, my = camera.distortion_margin()
    w, h = camera.size
    canvas_cam = camera.shifted(mx, my, (w + 2 * mx, h + 2 * my))
    canvas, ids = _draw(scene, art, canvas_cam)
    card_mask = (ids > 0) & (ids != OCCLUDER_ID)
    canvas = apply_light(canvas, scene.light, card_mask)
    if camera.distorted:
        map_x, map_y = camera.distortion_maps((mx, my))
        canvas = np.asarray(
            cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.float32
        )
        ids = np.asarray(cv2.remap(ids, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE), np.uint16)
    image = _apply_effects(canvas, scene.effects, scene.light, np.random.default_rng([scene.seed, 11]))
    return Rendered(image, ids, _labels(scene, ids))

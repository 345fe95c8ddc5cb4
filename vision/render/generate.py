"""Random scenes for training and evaluation, with splits that hold presets and seeds apart.

``random_scene(seed, split, size)`` is a pure function: the same (seed, split, size) gives the same scene
on any machine and in any worker. Splits:

- ``train``: training surfaces and lights, face styles and random backs of the training pools;
- ``val``: the same presets as ``train``, other seeds (a validation set from the training distribution);
- ``heldout``: surfaces, lights, face print styles and random back designs training never sees.

Seeds of different splits never meet: the split's name is part of every image's seed sequence.

>>> a = random_scene(3, "train", (640, 640)); b = random_scene(3, "train", (640, 640))
>>> a == b, a.surface in TRAIN_SURFACES
(True, True)
>>> random_scene(3, "heldout", (640, 640)).surface in HELDOUT_SURFACES
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from referee.backs import DEFAULT_BACKS
from referee.cards import CARD_WIDTH_MM
from referee.errors import SetupError
from vision.render.art import FACE_STYLES, RANDOM_BACK_PREFIX
from vision.render.camera import Camera, focal_px_from_35mm
from vision.render.layouts import (
    PlacedCard,
    loose_heap,
    player_area,
    random_stacks,
    spread,
)
from vision.render.lighting import HELDOUT_LIGHTS, LIGHT_PRESETS, TRAIN_LIGHTS
from vision.render.occluders import Occluder, random_cup, random_hand, random_phone
from vision.render.props import Prop, random_prop
from vision.render.scene import Effects, Scene
from vision.render.table import HELDOUT_SURFACES, TRAIN_SURFACES, VARIANTS, hash_name

SPLITS: tuple[str, ...] = ("train", "val", "heldout")
MAX_CARDS = 60
SENSORS: tuple[tuple[int, int], ...] = ((1280, 720), (1920, 1080), (2560, 1440), (3840, 2160))
FOCALS_35MM: tuple[float, ...] = (16.0, 20.0, 24.0, 28.0, 35.0, 50.0)
RANDOM_BACKS = 500  # random back designs; the last fifth is kept for the heldout split


@dataclass(frozen=True)
class SplitPools:
    surfaces: tuple[str, ...]
    lights: tuple[str, ...]
    face_styles: range
    random_backs: range


def pools(split: str) -> SplitPools:
    """The presets a split draws from."""
    if split not in SPLITS:
        raise SetupError(f"unknown split {split!r}: expected one of {', '.join(SPLITS)}")
    held = split == "heldout"
    cut_styles, cut_backs = FACE_STYLES * 3 // 4, RANDOM_BACKS * 4 // 5
    return SplitPools(
        surfaces=HELDOUT_SURFACES if held else TRAIN_SURFACES,
        lights=HELDOUT_LIGHTS if held else TRAIN_LIGHTS,
        face_styles=range(cut_styles, FACE_STYLES) if held else range(cut_styles),
        random_backs=range(cut_backs, RANDOM_BACKS) if held else range(cut_backs),
    )


def scene_rng(seed: int, split: str) -> np.random.Generator:
    return np.random.default_rng([hash_name(split), int(seed)])


def _choose_backs(rng: np.random.Generator, pool: SplitPools, players: int) -> list[str]:
    catalogue = [b.id for b in DEFAULT_BACKS]
    backs: list[str] = []
    while len(backs) < players:
        if rng.random() < 0.7:
            candidate = catalogue[int(rng.integers(len(catalogue)))]
        else:
            candidate = f"{RANDOM_BACK_PREFIX}{int(rng.choice(pool.random_backs))}"
        if candidate not in backs:
            backs.append(candidate)
    return backs


LAYOUT_KINDS: tuple[str, ...] = ("centre", "table", "player", "counting", "heap")
# A camera far from the table sees the whole of it (players' areas around the stacks); a close one, details.
_WIDE_VIEW_ODDS = (0.15, 0.55, 0.05, 0.15, 0.1)
_CLOSE_VIEW_ODDS = (0.36, 0.05, 0.15, 0.28, 0.16)
WIDE_VIEW_CARD_PX = 45.0  # card width in a 640-wide output below which a view counts as wide


Layout = tuple[list[PlacedCard], tuple[float, float]]  # cards, and the table point worth looking at


def _centre_layout(rng: np.random.Generator, backs: list[str]) -> Layout:
    return random_stacks(rng, int(rng.integers(1, 13)), backs, float(rng.uniform(95, 140))), (0.0, 0.0)


def _seated_layout(rng: np.random.Generator, backs: list[str], whole_table: bool) -> Layout:
    """Every player's area around the table; with ``whole_table`` centre stacks too, else one player's close-up."""
    players = len(backs)
    radius = float(rng.uniform(330, 480))
    cards = random_stacks(rng, int(rng.integers(0, 8)), backs, 110.0) if whole_table else []
    for p, back in enumerate(backs):
        a = 2 * math.pi * p / players + float(rng.normal(0, 0.1))
        seat = (radius * math.sin(a), radius * math.cos(a))
        cards += player_area(rng, seat, -math.degrees(a), back, int(rng.integers(3, 6)))
    if whole_table:
        return cards, (0.0, 0.0)
    a = float(rng.uniform(0, 2 * math.pi))
    return cards, (radius * math.sin(a), radius * math.cos(a))


def _counting_layout(rng: np.random.Generator, backs: list[str]) -> Layout:
    """After the round: the centre cards spread out, one spread per back (shingled across or fanned) or each
    stack lifted off lengthwise where it lay, its cards of mixed backs and the fans of neighbouring stacks
    crossing; leftovers shingled in lines."""
    if rng.random() < 0.4:
        return _stack_fans(rng, backs), (0.0, 0.0)
    cards = []
    groups = int(rng.integers(1, 6))
    for g in range(groups):
        start = (float(rng.uniform(-250, 150)), (g - groups / 2) * 120.0 + float(rng.normal(0, 10)))
        angle = float(rng.normal(0, 10)) + 90 * int(rng.random() < 0.2)
        count = int(rng.integers(3, 26))
        cards += spread(rng, start, angle, count, backs[g % len(backs)], bool(rng.random() < 0.4))
    return cards, (0.0, 0.0)


def _stack_fans(rng: np.random.Generator, backs: list[str]) -> list[PlacedCard]:
    """Centre stacks each lifted off lengthwise where it lay (steps of 9-22 mm), on a loose grid whose
    neighbours' fans may overlap."""
    cards: list[PlacedCard] = []
    stacks = int(rng.integers(1, 10))
    columns = max(1, math.ceil(math.sqrt(stacks * 1.5)))
    spacing = float(rng.uniform(75, 140))
    for i in range(stacks):
        row, column = divmod(i, columns)
        start = (
            (column - (columns - 1) / 2) * spacing + float(rng.normal(0, 12)),
            (row - stacks / columns / 2) * spacing * 2.0 + float(rng.normal(0, 12)),
        )
        angle = float(rng.uniform(-30, 30)) + 180 * int(rng.random() < 0.5)
        count = int(rng.integers(1, 11))
        cards += spread(rng, start, angle, count, backs[0], False, lengthwise=True, mixed_backs=backs)
    return cards


def _heap_layout(rng: np.random.Generator, backs: list[str]) -> Layout:
    radius, count, face_share = float(rng.uniform(60, 220)), int(rng.integers(3, 40)), float(rng.uniform(0, 1))
    return loose_heap(rng, (0.0, 0.0), radius, count, backs, face_share), (0.0, 0.0)


def _layout(rng: np.random.Generator, backs: list[str], wide: bool) -> Layout:
    kind = rng.choice(LAYOUT_KINDS, p=_WIDE_VIEW_ODDS if wide else _CLOSE_VIEW_ODDS)
    if kind == "centre":
        return _centre_layout(rng, backs)
    if kind in ("table", "player"):
        return _seated_layout(rng, backs, kind == "table")
    if kind == "counting":
        return _counting_layout(rng, backs)
    return _heap_layout(rng, backs)


def _card_px(rng: np.random.Generator, size: tuple[int, int]) -> float:
    """Card width in output pixels, log-uniform: from small cards on a far table to close-ups."""
    return math.exp(rng.uniform(math.log(22), math.log(200))) * size[0] / 640


def _camera(rng: np.random.Generator, focus: tuple[float, float], size: tuple[int, int], card_px: float) -> Camera:
    sensor = SENSORS[int(rng.integers(len(SENSORS)))]
    focal_35 = float(rng.choice(FOCALS_35MM))
    focal = focal_px_from_35mm(focal_35, sensor[0])
    tilt = float(45.0 * rng.beta(1.2, 2.0))
    # Output window: a crop of the sensor with the output's aspect, resized to ``size``.
    aspect = size[0] / size[1]
    crop_h = sensor[1] * float(rng.uniform(0.55, 1.0))
    crop_w = min(crop_h * aspect, sensor[0])
    crop_h = crop_w / aspect
    # off-centre windows show the lens distortion of the sensor's edges; the optical centre stays inside
    x0 = (sensor[0] - crop_w) / 2 + float(rng.uniform(-0.25, 0.25)) * min(sensor[0] - crop_w, crop_w)
    y0 = (sensor[1] - crop_h) / 2 + float(rng.uniform(-0.25, 0.25)) * min(sensor[1] - crop_h, crop_h)
    card_px_sensor = card_px * crop_w / size[0]
    distance = focal * CARD_WIDTH_MM / card_px_sensor
    k1 = float(rng.uniform(0.02, 0.12)) if focal_35 <= 20 else float(rng.uniform(-0.03, 0.05))
    target = (focus[0] + float(rng.normal(0, 40)), focus[1] + float(rng.normal(0, 40)))
    full = Camera.looking_at(
        target, distance, tilt, focal, sensor, float(rng.uniform(0, 360)), float(rng.normal(0, 2)), k1
    )
    return full.cropped(x0, y0, crop_w, crop_h, size)


def _occluders(
    rng: np.random.Generator, cards: list[PlacedCard], focus: tuple[float, float], lens_height: float
) -> list[Occluder]:
    out: list[Occluder] = []

    def near() -> tuple[float, float]:
        if cards:
            c = cards[int(rng.integers(len(cards)))].centre_mm
            return (c[0] + float(rng.normal(0, 40)), c[1] + float(rng.normal(0, 40)))
        return (focus[0] + float(rng.normal(0, 150)), focus[1] + float(rng.normal(0, 150)))

    for _ in range(int(rng.choice([0, 0, 0, 0, 1, 1, 2]))):
        # the arm reaches in from a player's seat, so it usually leaves the frame at its other end
        out.append(random_hand(rng, near(), float(rng.uniform(900, 1500)), 0.25 * lens_height))
    if rng.random() < 0.2:
        out.append(random_cup(rng, near()))
    if rng.random() < 0.15:
        out.append(random_phone(rng, near()))
    return out


FLOORS: tuple[str, ...] = ("black-laminate", "grey-cloth", "walnut-wood", "oak-wood", "gravel-photo", "beige-laminate")


def _table_top(rng: np.random.Generator, cards: list[PlacedCard]) -> tuple[tuple[float, float] | None, bool]:
    """A table just large enough for every card (and some), or none (the table fills the view)."""
    if rng.random() < 0.25:
        return None, False
    reach = np.abs(np.array([c.centre_mm for c in cards])).max(axis=0) + 80.0 if cards else np.zeros(2)
    half = np.maximum(reach + rng.uniform(60, 450, 2), rng.uniform(420, 700))
    if rng.random() < 0.3:
        side = float(max(half) * 1.15)  # a round table circumscribing the cards
        return (side, side), True
    return (float(half[0]), float(half[1])), False


def _props(rng: np.random.Generator, cards: list[PlacedCard], focus: tuple[float, float]) -> list[Prop]:
    count = int(rng.choice([0, 0, 0, 1, 1, 2, 3]))
    out = []
    for _ in range(count):
        anchor = cards[int(rng.integers(len(cards)))].centre_mm if cards else focus
        out.append(random_prop(rng, (anchor[0] + float(rng.normal(0, 150)), anchor[1] + float(rng.normal(0, 150)))))
    return out


def _effects(rng: np.random.Generator, tilt_deg: float) -> Effects:
    return Effects(
        far_blur_sigma=float(rng.uniform(0.8, 3.0)) if tilt_deg > 15 and rng.random() < 0.3 else 0.0,
        motion_blur_px=float(rng.uniform(2, 9)) if rng.random() < 0.15 else 0.0,
        motion_angle_deg=float(rng.uniform(0, 180)),
        defocus_sigma=float(rng.uniform(0.5, 2.0)) if rng.random() < 0.2 else 0.0,
        noise_scale=float(rng.uniform(0.5, 1.5)),
        jpeg_quality=int(rng.integers(35, 90)) if rng.random() < 0.3 else 0,
        sharpen=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.3 else 0.0,
        gamma=float(rng.uniform(0.8, 1.2)),
        saturation=float(rng.uniform(0.75, 1.25)),
    )


def random_scene(seed: int, split: str = "train", size: tuple[int, int] = (640, 640)) -> Scene:
    """One random table scene of the split (deterministic by seed)."""
    pool = pools(split)
    rng = scene_rng(seed, split)
    backs = _choose_backs(rng, pool, int(rng.integers(2, 13)))
    card_px = _card_px(rng, size)
    cards, focus = _layout(rng, backs, card_px * 640 / size[0] < WIDE_VIEW_CARD_PX)
    if cards and rng.random() < 0.75:
        focus = cards[int(rng.integers(len(cards)))].centre_mm  # look at the cards, not at empty table
    camera = _camera(rng, focus, size, card_px)
    table_half, table_round = _table_top(rng, cards)
    props = _props(rng, cards, focus)
    cards = _cull(cards, camera)
    lens_height = -camera.centre_mm[2]
    surface = pool.surfaces[int(rng.integers(len(pool.surfaces)))]
    light = LIGHT_PRESETS[pool.lights[int(rng.integers(len(pool.lights)))]].sample(rng)
    return Scene(
        camera=camera,
        surface=surface,
        surface_variant=int(rng.integers(VARIANTS)),
        surface_gains=tuple(float(g) for g in rng.uniform(0.8, 1.15) * rng.uniform(0.92, 1.08, 3)),  # type: ignore[arg-type]
        surface_rotation_deg=float(rng.uniform(0, 360)),
        light=light,
        cards=tuple(cards),
        occluders=tuple(_occluders(rng, cards, focus, lens_height)),
        face_style=int(rng.choice(pool.face_styles)),
        effects=_effects(rng, camera.tilt_deg),
        seed=int(rng.integers(2**31)),
        props=tuple(props),
        table_half_mm=table_half,
        table_round=table_round,
        floor=FLOORS[int(rng.integers(len(FLOORS)))],
    )


def _cull(cards: list[PlacedCard], camera: Camera) -> list[PlacedCard]:
    """Drops cards outside the frame, then keeps at most ``MAX_CARDS`` (the top ones of the pile order)."""
    if not cards:
        return []
    w, h = camera.size
    margin = 0.1 * max(w, h)
    flat = np.vstack([card.corners_mm() for card in cards])
    xyz = np.column_stack([flat, np.zeros(len(flat))])
    # behind or right under the lens: no real camera sees it
    in_front = camera.depth(xyz).reshape(-1, 4).min(axis=1) >= 50.0
    corners = camera.project(flat).reshape(-1, 4, 2)
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    inside = (hi[:, 0] >= -margin) & (hi[:, 1] >= -margin) & (lo[:, 0] <= w + margin) & (lo[:, 1] <= h + margin)
    kept = [card for card, keep in zip(cards, in_front & inside, strict=True) if keep]
    return kept[-MAX_CARDS:]

"""Frames of a round video: a cached background of the cards at rest, moving cards and hands on top.

Rendering every frame from scratch costs a whole scene per frame. Here the table (surface through the
camera) is drawn once; the cards at rest are composited onto it once and kept as the *background*, with
its id mask. A card coming to rest or lifted off re-renders only the box it (and its shadow) covers, from
the table up with the cards that reach into that box, in their order; so does a card deep in a squared pile
when it stops or starts showing (the deepest ones are skipped). That is exact: any frame equals a full
render of its state, so a chunk of frames can start anywhere (a worker renders its chunk from a full render).

Per frame: the moving cards and the hands are composited into a copy of the background's box they cover;
the light (shading, white balance and the drifting exposure) turns the float canvas into 8-bit; the shake
homography moves the picture (and the id mask, for exact visible fractions); a little sensor noise is
added. Labels are every card with at least one pixel showing: corners in frame pixels, identity, visible
fraction.

>>> from referee.simulator import Round
>>> from vision.render.art import FlatArt
>>> from vision.render.video_timeline import Timeline
>>> timeline = Timeline.from_trace(Round(("red-red", "blue-blue"), seed=3).play().trace_json())
>>> look = VideoLook.for_timeline(timeline, seed=1, size=(320, 180))
>>> renderer = FrameRenderer(timeline, look, FlatArt(), fps=30.0)
>>> frame = renderer.render(0)
>>> frame.image.shape, len(frame.labels) > 10
((180, 320, 3), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.render.art import ArtSource
from vision.render.layers import OCCLUDER_ID, Layer, Shadow, composite
from vision.render.lighting import Light
from vision.render.table import draw_table, surface_tile
from vision.render.video_look import VideoLook
from vision.render.video_motion import HandSprite, grip_direction, motion_blur
from vision.render.video_timeline import Rest, Timeline, apply_change, frame_of

Image = npt.NDArray[np.uint8]
Float = npt.NDArray[np.float32]
Ids = npt.NDArray[np.uint16]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 on the canvas

NOISE_BANK_PAD = 16
BURIED_UNDER = 3
SHUTTER = 0.5
"""Exposure time as a share of the frame interval (1/60 s at 30 fps): how long moving things smear."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One rendered frame: the picture (BGR), its id mask, the table-to-pixel homography and the labels."""

    index: int
    image: Image
    ids: Ids
    homography: npt.NDArray[np.float64]
    labels: tuple[dict[str, Any], ...]

    def to_json(self, fps: float) -> dict[str, Any]:
        return {
            "frame": self.index,
            "t": round(self.index / fps, 4),
            "homography": [[float(f"{v:.6g}") for v in row] for row in self.homography],
            "cards": list(self.labels),
        }


@dataclass(frozen=True, eq=False)
class _Moving:
    """Something drawn over the background this frame: a card in flight (``card`` set) or a hand."""

    layer: Layer | None
    shadow: Shadow
    box: Box | None
    card: int | None
    placed: _Placed | None = None
    face_up: bool = True


@dataclass
class _Placed:
    """A card drawn on the canvas: its layer, shadow, the box it influences and its canvas corners."""

    layer: Layer | None
    shadow: Shadow
    box: Box | None
    corners: npt.NDArray[np.float64]


class FrameRenderer:
    """Renders frames of one timeline in any order; consecutive frames reuse the background."""

    def __init__(self, timeline: Timeline, look: VideoLook, art: ArtSource, fps: float = 30.0) -> None:
        self.timeline = timeline
        self.look = look
        self.art = art
        self.fps = fps
        cam = look.camera
        w, h = cam.size
        amplitude = sum(abs(a) for a in (*look.shake.pitch.amplitudes, *look.shake.yaw.amplitudes))
        self.margin = 4 + math.ceil(cam.fx * math.tan(math.radians(amplitude)) + 0.5 * amplitude / 57.3 * w)
        m = self.margin
        self.canvas_cam = cam.shifted(m, m, (w + 2 * m, h + 2 * m))
        centre = cam.unproject([[w / 2, h / 2]])[0]
        self.ppm = cam.scale_px_per_mm((float(centre[0]), float(centre[1])))
        tile = surface_tile(look.surface, look.surface_variant)
        size = self.canvas_cam.size
        homography = self.canvas_cam.homography()
        self.table = draw_table(size, homography, tile, self.ppm, look.surface_gains, look.surface_rotation_deg)
        light = look.light
        self.lightmap = (light.shading(size)[..., None] * np.asarray(light.gains, np.float32)).astype(np.float32)
        self.glare = _glare_layers(light, size)
        self.tone = _tone(look.gamma, look.saturation)
        self.tints = np.random.default_rng([look.seed, 7]).uniform(0.94, 1.05, len(timeline.cards))
        bank = np.random.default_rng([look.seed, 11]).normal(
            0.0, look.noise, (h + NOISE_BANK_PAD, w + NOISE_BANK_PAD, 3)
        )
        self.noise_up = np.clip(bank, 0, 255).astype(np.uint8)
        self.noise_down = np.clip(-bank, 0, 255).astype(np.uint8)
        self.sprites = [HandSprite(arm, self.ppm) for arm in look.arms]
        self._frame = -1
        self._applied = 0
        self._state: dict[int, Rest] = {}
        self._placed: dict[int, _Placed] = {}
        self._hidden: set[int] = set()
        self.background = self.table.copy()
        self.background_ids = np.zeros(self.table.shape[:2], np.uint16)

    # ------------------------------------------------------------------------------------------ cards

    def _place(self, card: int, rest: Rest, width_factor: float = 1.0) -> _Placed:
        back, face = self.timeline.cards[card]
        pose = rest.pose
        half_w, half_h = CARD_WIDTH_MM / 2 * width_factor, CARD_HEIGHT_MM / 2
        a = math.radians(pose.angle)
        c, s = math.cos(a), math.sin(a)
        local = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
        xy = local @ np.array([[c, s], [-s, c]]) + [pose.x, pose.y]
        corners = self.canvas_cam.project_undistorted(np.column_stack([xy, np.full(4, -pose.lift)]))
        light = self.look.light
        dx, dy = light.shadow_offset_px(pose.lift + 1.0, self.ppm)
        sigma = min(light.shadow_softness_mm, 1.5) * self.ppm * 0.6
        shadow = Shadow(dx, dy, sigma, light.shadow_opacity * 0.7)
        layer = self._card_layer(corners, back, face if rest.face_up else None, float(self.tints[card]))
        return _Placed(layer, shadow, _influence(layer, shadow, self.canvas_cam.size), corners)

    def _card_layer(self, dst: npt.NDArray[np.float64], back: str, face: Any, tint: float) -> Layer | None:
        w, h = self.canvas_cam.size
        x0, y0 = np.floor(dst.min(axis=0)).astype(int)
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
        if x0 >= x1 or y0 >= y1:
            return None
        height_px = max(np.linalg.norm(dst[3] - dst[0]), np.linalg.norm(dst[2] - dst[1]))
        if face is None:
            picture = self.art.back(back, int(height_px))
        else:
            picture = self.art.face(face, self.look.face_style, int(height_px))
        ah, aw = picture.shape[:2]
        src = np.array([[0, 0], [aw, 0], [aw, ah], [0, ah]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
        warped = cv2.warpPerspective(picture, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        return Layer(x0, y0, warped[..., :3].astype(np.float32) * tint, warped[..., 3].astype(np.float32) / 255.0)

    # ------------------------------------------------------------------------------------------ background

    def _rebuild(self, frame: int) -> None:
        self._state = self.timeline.resting_at(frame, self.fps)
        self._applied = sum(1 for c in self.timeline.changes if frame_of(c.t, self.fps) <= frame)
        self._placed = {card: self._place(card, rest) for card, rest in self._state.items()}
        self._hidden = self._buried()
        self.background = self.table.copy()
        self.background_ids = np.zeros(self.table.shape[:2], np.uint16)
        for card, placed in self._placed.items():
            if placed.layer is not None and card not in self._hidden:
                composite(self.background, self.background_ids, placed.layer, card + 1, placed.shadow)

    def _advance(self, frame: int) -> None:
        """Applies the changes up to ``frame``: every box a card leaves, enters, or stops or starts showing
        in (a pile grew over it) is drawn again."""
        changes = self.timeline.changes
        dirty: set[Box] = set()
        start = self._applied
        while self._applied < len(changes) and frame_of(changes[self._applied].t, self.fps) <= frame:
            change = changes[self._applied]
            self._applied += 1
            old = self._placed.pop(change.card, None)
            if old is not None and old.box is not None:
                dirty.add(old.box)
            apply_change(self._state, change)
            if change.rest is not None:
                placed = self._place(change.card, change.rest)
                self._placed[change.card] = placed
                if placed.box is not None:
                    dirty.add(placed.box)
        if self._applied == start:
            return
        hidden = self._buried()
        for card in hidden ^ self._hidden:
            placed_card = self._placed.get(card)
            if placed_card is not None and placed_card.box is not None:
                dirty.add(placed_card.box)
        self._hidden = hidden
        for box in sorted(dirty):
            self._redraw(box)

    def _redraw(self, box: Box) -> None:
        """Draws the box again from the table up with every card reaching into it, in order (exact)."""
        x0, y0, x1, y1 = box
        canvas = self.background[y0:y1, x0:x1]
        ids = self.background_ids[y0:y1, x0:x1]
        canvas[:] = self.table[y0:y1, x0:x1]
        ids[:] = 0
        for card, placed in self._placed.items():
            if card in self._hidden or placed.layer is None or placed.box is None:
                continue
            if _overlap(placed.box, box):
                composite(canvas, ids, _shift(placed.layer, x0, y0), card + 1, placed.shadow)

    def _buried(self) -> set[int]:
        """Cards deep in a squared pile (``BURIED_UNDER`` cards lie on them in the very same place): they
        cannot show, so redrawing a box skips them (the hand pile holds up to 27 cards)."""
        above: dict[tuple[float, float, float], int] = {}
        buried = set()
        for card, rest in reversed(self._state.items()):
            key = (rest.pose.x, rest.pose.y, rest.pose.angle)
            count = above.get(key, 0)
            if count >= BURIED_UNDER:
                buried.add(card)
            above[key] = count + 1
        return buried

    # ------------------------------------------------------------------------------------------ frames

    def render(self, index: int) -> Frame:
        """Frame ``index`` (shows the moment ``index / fps``)."""
        if index != self._frame + 1 or self._frame < 0:
            self._rebuild(index)
        else:
            self._advance(index)
        self._frame = index
        t = index / self.fps
        moving = self._moving(index, t)
        canvas_ids = self.background_ids
        exposure = self.look.drift.exposure(t)
        lit = np.asarray(cv2.multiply(self.background, self.lightmap, scale=exposure, dtype=cv2.CV_8U), np.uint8)
        box = _union([m.box for m in moving if m.box is not None])
        if box is not None:
            x0, y0, x1, y1 = box
            work = self.background[y0:y1, x0:x1].copy()
            work_ids = self.background_ids[y0:y1, x0:x1].copy()
            for item in moving:
                if item.layer is not None:
                    layer_id = OCCLUDER_ID if item.card is None else item.card + 1
                    composite(work, work_ids, _shift(item.layer, x0, y0), layer_id, item.shadow)
            lit[y0:y1, x0:x1] = cv2.multiply(work, self.lightmap[y0:y1, x0:x1], scale=exposure, dtype=cv2.CV_8U)
            canvas_ids = self.background_ids.copy()
            canvas_ids[y0:y1, x0:x1] = work_ids
        if self.glare is not None:
            everywhere, on_cards = self.glare
            lit = np.asarray(cv2.add(lit, everywhere), np.uint8)
            cards = ((canvas_ids > 0) & (canvas_ids != OCCLUDER_ID)).view(np.uint8)
            cv2.add(lit, on_cards, dst=lit, mask=cards)
        colour, curve = self.tone
        if colour is not None:
            lit = np.asarray(cv2.transform(lit, colour), np.uint8)
        if curve is not None:
            lit = np.asarray(cv2.LUT(lit, curve), np.uint8)
        matrix = self._frame_matrix(t)
        image, ids = self._to_frame(lit, canvas_ids, matrix)
        image = self._add_noise(image, index)
        labels = self._labels(ids, matrix, moving)
        return Frame(index, image, ids, matrix @ self.canvas_cam.homography(), labels)

    def _moving(self, index: int, t: float) -> list[_Moving]:
        """Cards in flight (the oldest first), then the hands."""
        out: list[_Moving] = []
        size = self.canvas_cam.size
        for flight in self.timeline.flights:
            if frame_of(flight.t0, self.fps) > index:
                break
            if index >= frame_of(flight.t1, self.fps):
                continue
            pose, face_up, width = flight.at(t)
            placed = self._place(flight.card, Rest(pose, face_up), width)
            before, after = (flight.at(t + dt)[0] for dt in self._exposure)
            layer = self._smear(placed.layer, (before.x, before.y, before.lift), (after.x, after.y, after.lift))
            box = _influence(layer, placed.shadow, size)
            out.append(_Moving(layer, placed.shadow, box, flight.card, placed, face_up))
        light = self.look.light
        for track in self.timeline.hands:
            grip = track.at(t)
            if grip is None:
                continue
            direction = grip_direction(self.timeline.seats[track.seat], grip)
            hand = self.sprites[track.seat].layer(self.canvas_cam, grip, direction)
            start, end = (track.at(t + dt) or grip for dt in self._exposure)
            hand = self._smear(hand, start, end)
            dx, dy = light.shadow_offset_px(grip[2], self.ppm)
            sigma = light.shadow_softness_mm * self.ppm * (1 + grip[2] / 40.0)
            shadow = Shadow(dx, dy, sigma, light.shadow_opacity)
            out.append(_Moving(hand, shadow, _influence(hand, shadow, size), None))
        return out

    @property
    def _exposure(self) -> tuple[float, float]:
        """When the shutter opens and closes, relative to the frame's moment."""
        half = SHUTTER / self.fps / 2
        return -half, half

    def _smear(
        self, layer: Layer | None, start: tuple[float, float, float], end: tuple[float, float, float]
    ) -> Layer | None:
        """Motion blur of a layer whose point moved from ``start`` to ``end`` (x, y, height mm) while exposed."""
        if layer is None:
            return None
        a, b = self.canvas_cam.project_undistorted([[start[0], start[1], -start[2]], [end[0], end[1], -end[2]]])
        return motion_blur(layer, float(b[0] - a[0]), float(b[1] - a[1]))

    def _frame_matrix(self, t: float) -> npt.NDArray[np.float64]:
        """Canvas pixels to frame pixels: drop the margin, then the camera's wobble."""
        cam = self.look.camera
        shift = np.array([[1.0, 0.0, -self.margin], [0.0, 1.0, -self.margin], [0.0, 0.0, 1.0]])
        return np.asarray(self.look.shake.matrix(t, cam.fx, cam.cx, cam.cy) @ shift, dtype=np.float64)

    def _to_frame(self, lit: Image, ids: Ids, matrix: npt.NDArray[np.float64]) -> tuple[Image, Ids]:
        w, h = self.look.camera.size
        if (
            np.allclose(matrix[:, :2], np.eye(3)[:, :2])
            and float(matrix[0, 2]).is_integer()
            and float(matrix[1, 2]).is_integer()
        ):
            x, y = -int(matrix[0, 2]), -int(matrix[1, 2])
            return lit[y : y + h, x : x + w].copy(), ids[y : y + h, x : x + w].copy()
        image = cv2.warpPerspective(lit, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        frame_ids = cv2.warpPerspective(ids, matrix, (w, h), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(image, np.uint8), np.asarray(frame_ids, np.uint16)

    def _add_noise(self, image: Image, index: int) -> Image:
        h, w = image.shape[:2]
        rng = np.random.default_rng([self.look.seed, 13, index])
        y, x = (int(v) for v in rng.integers(0, NOISE_BANK_PAD, 2))
        brighter = cv2.add(image, self.noise_up[y : y + h, x : x + w])
        return np.asarray(cv2.subtract(brighter, self.noise_down[y : y + h, x : x + w]), np.uint8)

    def _labels(self, ids: Ids, matrix: npt.NDArray[np.float64], moving: list[_Moving]) -> tuple[dict[str, Any], ...]:
        faces = {card: rest.face_up for card, rest in self._state.items()}
        entries = list(self._placed.items())
        for item in moving:
            if item.card is not None and item.placed is not None:
                entries.append((item.card, item.placed))
                faces[item.card] = item.face_up
        if not entries:
            return ()
        counts = np.bincount(ids.ravel(), minlength=OCCLUDER_ID + 1)
        shown = [(card, placed) for card, placed in entries if counts[card + 1] > 0]
        if not shown:
            return ()
        canvas_corners = np.vstack([placed.corners for _, placed in shown]).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(canvas_corners, matrix).reshape(-1, 4, 2)
        x, y = corners[:, :, 0], corners[:, :, 1]
        areas = np.abs(0.5 * (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
        pixels = np.array([counts[card + 1] for card, _ in shown], np.float64)
        visible = np.round(np.minimum(1.0, pixels / np.maximum(areas, 1e-9)), 3).tolist()
        rounded = np.round(corners, 1).tolist()
        moving_cards = {item.card for item in moving if item.card is not None}
        labels = []
        for k, (card, _) in enumerate(shown):
            back, face = self.timeline.cards[card]
            face_up = faces[card]
            labels.append(
                {
                    "id": card,
                    "kind": "face" if face_up else "back",
                    "colour": face.colour.value if face_up else None,
                    "number": face.number if face_up else None,
                    "back": None if face_up else back,
                    "owner": back,
                    "corners": rounded[k],
                    "visible": visible[k],
                    "moving": card in moving_cards,
                }
            )
        return tuple(labels)


def _tone(gamma: float, saturation: float) -> tuple[npt.NDArray[np.float32] | None, Image | None]:
    """The camera's colour matrix (saturation about the grey of each pixel) and tone curve (a lookup
    table); None where it changes nothing."""
    colour = None
    if saturation != 1.0:
        colour = (np.eye(3) * saturation + (1.0 - saturation) / 3.0).astype(np.float32)
    curve = None
    if gamma != 1.0:
        curve = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma + 0.5, 0, 255).astype(np.uint8)
    return colour, curve


def _glare_layers(light: Light, size: tuple[int, int]) -> tuple[Image, Image] | None:
    """The lamp's reflection as two 8-bit layers to add: a faint one everywhere (cloth and wood shine a
    little) and a strong one on the glossy cards only."""
    if light.glare <= 0:
        return None
    glare = light.glare_map(size)[..., None] * np.ones(3, np.float32)
    return (np.clip(glare * 30.0, 0, 255).astype(np.uint8), np.clip(glare * 110.0, 0, 255).astype(np.uint8))


def _influence(layer: Layer | None, shadow: Shadow, size: tuple[int, int]) -> Box | None:
    """The canvas box that a layer and its shadow can change (clipped to the canvas)."""
    if layer is None:
        return None
    h, w = layer.alpha.shape
    pad = int(3 * shadow.sigma + max(abs(shadow.dx), abs(shadow.dy))) + 3
    x0, y0 = max(layer.x0 - pad, 0), max(layer.y0 - pad, 0)
    x1, y1 = min(layer.x0 + w + pad, size[0]), min(layer.y0 + h + pad, size[1])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _union(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _shift(layer: Layer, dx: int, dy: int) -> Layer:
    """The same layer on a canvas whose origin is (dx, dy) of the full one."""
    return Layer(layer.x0 - dx, layer.y0 - dy, layer.bgr, layer.alpha)

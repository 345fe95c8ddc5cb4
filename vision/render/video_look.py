"""How a round video looks: the camera's view of the table, the surface, the light, the players' arms, the
shake, the exposure drift and the camera's tone, all drawn from one seed.

The default view (``centre``) is a phone above the table: it frames the centre zone and every player's
places (and the lines of leftovers laid out after the round) as the tilted camera really sees them, laid
the way round that frames them closest (two players: one at each end of the picture's width), but never so
far that a card gets narrower than :data:`MIN_CARD_PX` at 1280 pixels wide.

>>> from referee.simulator import Round
>>> from vision.render.video_timeline import Timeline
>>> timeline = Timeline.from_trace(Round(("red-red", "blue-blue"), seed=3).play().trace_json())
>>> look = VideoLook.for_timeline(timeline, seed=1)
>>> look.camera.size, len(look.arms)
((1280, 720), 2)
>>> VideoLook.for_timeline(timeline, seed=1) == look
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.render.camera import Camera, focal_px_from_35mm
from vision.render.generate import pools
from vision.render.lighting import LIGHT_PRESETS, Light
from vision.render.table import HELDOUT_SURFACES, VARIANTS, VIDEO_SURFACES
from vision.render.video_motion import Arm, Drift, Shake
from vision.render.video_timeline import Timeline

VIEWS: tuple[str, ...] = ("centre", "table")
LOOKS: tuple[str, ...] = ("train", "heldout")
"""Where a video's table surface, light and face print style are drawn from: the pools the detector and
recogniser are trained on, or those they never see (:func:`vision.render.generate.pools`' splits), to measure the
referee on tables it has not met."""
PHONE_FOCAL_35MM = 26.0
MIN_CARD_PX = 40.0
YAW_STEP_DEG = 5
"""The turns about the vertical tried when framing (degrees)."""


@dataclass(frozen=True)
class VideoLook:
    """How a round video looks, all of it drawn from one seed: camera, table, light, arms, shake, drift."""

    camera: Camera
    surface: str
    surface_variant: int
    surface_gains: tuple[float, float, float]
    surface_rotation_deg: float
    light: Light
    face_style: int
    arms: tuple[Arm, ...]
    shake: Shake
    drift: Drift
    noise: float
    seed: int
    gamma: float = 1.0
    """The camera's tone curve (< 1 brighter mid-tones), as the still scenes draw it."""
    saturation: float = 1.0
    """The camera's colour processing (1: as lit)."""

    @classmethod
    def for_timeline(
        cls,
        timeline: Timeline,
        seed: int,
        size: tuple[int, int] = (1280, 720),
        view: str = "centre",
        tilt_deg: float | None = None,
        surface: str | None = None,
        light: str | None = None,
        shake_deg: float = 0.12,
        look: str = "train",
    ) -> VideoLook:
        """A look for ``timeline``: ``view`` ``centre`` frames the centre zone and the spreads generously (a
        phone above the table), ``table`` the whole table; ``look`` (see :data:`LOOKS`) the pools the surface,
        light and face print style are drawn from where ``surface`` and ``light`` do not name them."""
        if look not in LOOKS:
            raise ValueError(f"unknown look {look!r}: expected one of {', '.join(LOOKS)}")
        pool = pools(look)
        rng = np.random.default_rng([0x51DE0, seed])
        tilt = float(rng.uniform(4.0, 14.0)) if tilt_deg is None else tilt_deg
        roll = float(rng.normal(0, 1.5))
        surfaces = HELDOUT_SURFACES if look == "heldout" else VIDEO_SURFACES  # no still scene's check cloths
        surface = surface or surfaces[int(rng.integers(len(surfaces)))]
        preset = LIGHT_PRESETS[light or pool.lights[int(rng.integers(len(pool.lights)))]]
        styles = pool.face_styles
        drawn = {
            "surface_variant": int(rng.integers(VARIANTS)),
            "surface_gains": tuple(float(g) for g in rng.uniform(0.85, 1.1) * rng.uniform(0.95, 1.05, 3)),
            "surface_rotation_deg": float(rng.uniform(0, 360)),
            "light": preset.sample(rng),
            "face_style": styles[int(rng.integers(len(styles)))],
            "arms": tuple(Arm.random(rng) for _ in timeline.seats),
            "shake": Shake.random(rng, shake_deg) if shake_deg > 0 else Shake.still(),
            "drift": Drift.random(rng),
            "noise": float(rng.uniform(1.0, 2.5)),
            "gamma": float(rng.uniform(0.8, 1.2)),
            "saturation": float(rng.uniform(0.8, 1.2)),
        }
        turned = bool(rng.integers(2))  # drawn last: every other draw stays what an older seed drew
        camera = frame_camera(timeline, size, view, tilt, roll, turned)
        return cls(camera=camera, surface=surface, seed=int(seed), **drawn)  # type: ignore[arg-type]


def frame_camera(
    timeline: Timeline, size: tuple[int, int], view: str, tilt_deg: float, roll_deg: float, turned: bool = False
) -> Camera:
    """A phone-like camera (26 mm lens) above the table, far enough to frame the view.

    ``centre`` frames the centre zone and every player's places (where the counting spreads go too), but
    never so far that a card gets narrower than :data:`MIN_CARD_PX` (at 1280 wide): on a big table the
    farthest places leave the picture. ``table`` frames the whole table. The phone lies the way round that
    frames it all closest, as a player setting it up would lay it (two players: the long side from one to
    the other), ``turned`` half a turn (which end of the table is the picture's top is anyone's choice).
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}: expected one of {', '.join(VIEWS)}")
    width = size[0]
    ring = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    if view == "centre":
        zone = timeline.centre_radius * np.column_stack([np.cos(ring), np.sin(ring)])
        points = np.vstack([zone, np.asarray(timeline.landmarks, np.float64).reshape(-1, 2)])
        margin = 0.6 * CARD_HEIGHT_MM
    else:
        points = timeline.table_radius * np.column_stack([np.cos(ring), np.sin(ring)])
        margin = 0.0
    # the points grown by the margin, as a camera must see them
    offsets = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * margin
    seen = (points[:, None, :] + offsets[None, :, :]).reshape(-1, 2)
    focal = focal_px_from_35mm(PHONE_FOCAL_35MM, width)
    framings = [_framing(seen, float(yaw), tilt_deg, roll_deg, focal, size) for yaw in range(0, 180, YAW_STEP_DEG)]
    distance, target, yaw = min(framings)  # the closest framing shows the cards largest
    if turned:  # tilted, the camera sees its near side larger: fit again from the other end
        distance, target, yaw = _framing(seen, yaw + 180.0, tilt_deg, roll_deg, focal, size)
    least = MIN_CARD_PX / CARD_WIDTH_MM * width / 1280.0
    if view == "centre" and focal / distance < least:
        distance = focal / least  # closer: the middle of it all stays in view, the farthest places leave it
    return Camera.looking_at(target, distance, tilt_deg, focal, size, yaw, roll_deg)


def _framing(
    seen: npt.NDArray[np.float64], yaw: float, tilt: float, roll: float, focal: float, size: tuple[int, int]
) -> tuple[float, tuple[float, float], float]:
    """How far a camera turned by ``yaw`` must stand to frame ``seen`` (table points), and where it looks."""
    width, height = size
    low, high = seen.min(axis=0), seen.max(axis=0)
    target = (float(low[0] + high[0]) / 2, float(low[1] + high[1]) / 2)
    distance = focal * float(np.hypot(*(high - low))) / min(width, height)  # far enough for any yaw
    for _ in range(5):  # fit what the turned, tilted camera really sees (its near side larger)
        camera = Camera.looking_at(target, distance, tilt, focal, size, yaw, roll)
        px = camera.project(seen)
        lo, hi = px.min(axis=0), px.max(axis=0)
        distance *= max((hi[0] - lo[0]) / width, (hi[1] - lo[1]) / height)
        middle = camera.unproject([(lo + hi) / 2])[0]
        target = (float(middle[0]), float(middle[1]))
    return distance, target, yaw

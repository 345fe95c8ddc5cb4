"""Room light: named presets (daylight, warm lamp, office, dim evening...) sampled into concrete values.

A :class:`LightPreset` holds ranges; :meth:`LightPreset.sample` draws one :class:`Light` (plain numbers),
which a scene applies: shadows while compositing, then shading (gradient, spot, vignette), white balance
and exposure over the whole frame, glare on the glossy cards, and sensor noise that grows in low light.

>>> light = LIGHT_PRESETS["warm-lamp"].sample(np.random.default_rng(0))
>>> light.preset, light.gains[2] > light.gains[0]   # warm: more red than blue (BGR)
('warm-lamp', True)
>>> sorted(set(HELDOUT_LIGHTS) - set(LIGHT_PRESETS))
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Float = npt.NDArray[np.float32]
Range = tuple[float, float]


@dataclass(frozen=True)
class Light:
    """One concrete light. Gains are BGR multipliers; directions are radians in the image plane."""

    preset: str
    gains: tuple[float, float, float]
    exposure: float
    gradient: float  # brightness change across the frame (0: flat)
    gradient_angle: float
    spot: float  # extra brightness of a round hot spot (0: none)
    spot_centre: tuple[float, float]  # in frame fractions
    spot_radius: float  # in frame fractions
    vignette: float
    shadow_angle: float
    shadow_slope: float  # shadow offset per millimetre of height
    shadow_softness_mm: float
    shadow_opacity: float
    glare: float  # peak added brightness of a specular highlight on glossy cards (0: none)
    glare_centre: tuple[float, float]
    glare_size: float  # in frame fractions
    noise: float  # sensor noise sigma in grey levels (at exposure 1)

    def shadow_offset_px(self, height_mm: float, px_per_mm: float) -> tuple[float, float]:
        d = self.shadow_slope * height_mm * px_per_mm
        return d * math.cos(self.shadow_angle), d * math.sin(self.shadow_angle)

    def shading(self, size: tuple[int, int]) -> Float:
        """Per-pixel brightness factor (h x w), computed on a small grid and resized (light varies slowly)."""
        w, h = size
        gw, gh = 48, max(2, round(48 * h / max(w, 1)))
        y, x = np.mgrid[0:gh, 0:gw].astype(np.float32)
        x, y = x / (gw - 1), y / (gh - 1)
        along = (x - 0.5) * math.cos(self.gradient_angle) + (y - 0.5) * math.sin(self.gradient_angle)
        factor = 1.0 + self.gradient * along
        sx, sy = self.spot_centre
        factor += self.spot * np.exp(-((x - sx) ** 2 + (y - sy) ** 2) / (2 * self.spot_radius**2))
        factor *= 1.0 - self.vignette * ((x - 0.5) ** 2 + (y - 0.5) ** 2) * 2
        factor = np.clip(factor * self.exposure, 0.05, 3.0).astype(np.float32)
        return cv2.resize(factor, (w, h), interpolation=cv2.INTER_LINEAR)

    def glare_map(self, size: tuple[int, int]) -> Float:
        """Added brightness of the specular highlight (h x w, 0..glare), an elongated soft blob."""
        w, h = size
        if self.glare <= 0:
            return np.zeros((h, w), np.float32)
        gw, gh = 64, max(2, round(64 * h / max(w, 1)))
        y, x = np.mgrid[0:gh, 0:gw].astype(np.float32)
        x, y = x / (gw - 1) - self.glare_centre[0], y / (gh - 1) - self.glare_centre[1]
        a = self.shadow_angle
        u = x * math.cos(a) + y * math.sin(a)
        v = -x * math.sin(a) + y * math.cos(a)
        blob = np.exp(-(u**2) / (2 * (self.glare_size * 2.2) ** 2) - v**2 / (2 * self.glare_size**2))
        return cv2.resize((self.glare * blob).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


@dataclass(frozen=True)
class LightPreset:
    """Ranges from which a :class:`Light` is drawn; ``kelvin`` sets the white balance (warm < 5000 < cold)."""

    name: str
    kelvin: Range
    exposure: Range
    gradient: Range
    spot: Range
    vignette: Range
    shadow_slope: Range
    shadow_softness_mm: Range
    shadow_opacity: Range
    glare: Range
    glare_chance: float
    noise: Range

    def sample(self, rng: np.random.Generator) -> Light:
        def u(r: Range) -> float:
            return float(rng.uniform(r[0], r[1]))

        has_glare = rng.random() < self.glare_chance
        return Light(
            preset=self.name,
            gains=kelvin_gains(u(self.kelvin)),
            exposure=u(self.exposure),
            gradient=u(self.gradient),
            gradient_angle=float(rng.uniform(0, 2 * math.pi)),
            spot=u(self.spot),
            spot_centre=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
            spot_radius=float(rng.uniform(0.2, 0.5)),
            vignette=u(self.vignette),
            shadow_angle=float(rng.uniform(0, 2 * math.pi)),
            shadow_slope=u(self.shadow_slope),
            shadow_softness_mm=u(self.shadow_softness_mm),
            shadow_opacity=u(self.shadow_opacity),
            glare=u(self.glare) if has_glare else 0.0,
            glare_centre=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
            glare_size=float(rng.uniform(0.04, 0.12)),
            noise=u(self.noise),
        )


def kelvin_gains(kelvin: float) -> tuple[float, float, float]:
    """BGR gains of a light of colour temperature ``kelvin`` seen by a camera balanced for about 5000 K.

    A rough fit of black-body colour, normalised so green is 1; the camera's auto white balance is
    imperfect, which is what these gains model.

    >>> b, g, r = kelvin_gains(3000.0)
    >>> r > g > b
    True
    """
    t = kelvin / 5000.0
    red = 1.0 + 0.35 * (1.0 - t)
    blue = 1.0 - 0.45 * (1.0 - t)
    return (float(np.clip(blue, 0.5, 1.4)), 1.0, float(np.clip(red, 0.7, 1.4)))


def _p(name: str, **ranges: object) -> LightPreset:
    return LightPreset(name=name, **ranges)  # type: ignore[arg-type]


LIGHT_PRESETS: dict[str, LightPreset] = {
    p.name: p
    for p in (
        _p("daylight-window", kelvin=(5200, 6500), exposure=(0.95, 1.2), gradient=(0.2, 0.6), spot=(0, 0.1),
           vignette=(0, 0.15), shadow_slope=(0.3, 0.9), shadow_softness_mm=(1, 4), shadow_opacity=(0.25, 0.5),
           glare=(0.2, 0.5), glare_chance=0.4, noise=(1, 3)),
        _p("warm-lamp", kelvin=(2700, 3500), exposure=(0.8, 1.05), gradient=(0.05, 0.3), spot=(0.1, 0.4),
           vignette=(0.1, 0.35), shadow_slope=(0.2, 0.6), shadow_softness_mm=(1, 3), shadow_opacity=(0.3, 0.55),
           glare=(0.3, 0.7), glare_chance=0.6, noise=(2, 5)),
        _p("office-fluorescent", kelvin=(4000, 5000), exposure=(1.0, 1.2), gradient=(0, 0.15), spot=(0, 0.05),
           vignette=(0, 0.1), shadow_slope=(0.05, 0.2), shadow_softness_mm=(3, 8), shadow_opacity=(0.15, 0.35),
           glare=(0.3, 0.6), glare_chance=0.5, noise=(1, 3)),
        _p("overcast", kelvin=(6000, 7500), exposure=(0.85, 1.05), gradient=(0.05, 0.25), spot=(0, 0.05),
           vignette=(0, 0.2), shadow_slope=(0.05, 0.15), shadow_softness_mm=(4, 10), shadow_opacity=(0.1, 0.3),
           glare=(0.1, 0.3), glare_chance=0.2, noise=(2, 4)),
        _p("dim-evening", kelvin=(2800, 3800), exposure=(0.45, 0.7), gradient=(0.1, 0.4), spot=(0.1, 0.5),
           vignette=(0.2, 0.45), shadow_slope=(0.2, 0.5), shadow_softness_mm=(2, 6), shadow_opacity=(0.3, 0.5),
           glare=(0.2, 0.5), glare_chance=0.4, noise=(5, 10)),
        _p("led-cold", kelvin=(6500, 8500), exposure=(0.95, 1.2), gradient=(0.05, 0.3), spot=(0.05, 0.3),
           vignette=(0.05, 0.2), shadow_slope=(0.3, 0.8), shadow_softness_mm=(0.5, 2), shadow_opacity=(0.35, 0.6),
           glare=(0.4, 0.8), glare_chance=0.6, noise=(1, 3)),
        _p("candle-dim", kelvin=(1900, 2600), exposure=(0.4, 0.6), gradient=(0.2, 0.5), spot=(0.2, 0.6),
           vignette=(0.3, 0.5), shadow_slope=(0.3, 0.8), shadow_softness_mm=(2, 5), shadow_opacity=(0.35, 0.6),
           glare=(0.2, 0.5), glare_chance=0.3, noise=(6, 12)),
        _p("spot-overhead", kelvin=(3500, 5500), exposure=(0.7, 0.95), gradient=(0, 0.1), spot=(0.4, 0.9),
           vignette=(0.2, 0.45), shadow_slope=(0.05, 0.2), shadow_softness_mm=(0.5, 2), shadow_opacity=(0.4, 0.6),
           glare=(0.4, 0.9), glare_chance=0.7, noise=(2, 6)),
    )
}  # fmt: skip

# Presets that training never sees (evaluation of generalisation to new rooms).
HELDOUT_LIGHTS: tuple[str, ...] = ("candle-dim", "spot-overhead")
TRAIN_LIGHTS: tuple[str, ...] = tuple(n for n in LIGHT_PRESETS if n not in HELDOUT_LIGHTS)


def apply_light(image: Float, light: Light, card_mask: npt.NDArray[np.bool_]) -> Float:
    """Shading, white balance and glare over a float BGR frame (0..255), in place where possible."""
    h, w = image.shape[:2]
    factor = light.shading((w, h))
    image *= factor[..., None] * np.asarray(light.gains, np.float32)
    if light.glare > 0:
        glare = light.glare_map((w, h))
        # Glossy card stock reflects the lamp; the table (cloth, wood) much less.
        glare *= np.where(card_mask, 1.0, 0.25).astype(np.float32)
        image += glare[..., None] * (255.0 - np.minimum(image, 255.0))
    return image

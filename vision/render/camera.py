"""A pinhole camera over the table plane, with radial lens distortion.

The table plane is in millimetres: origin at the table centre, x to the right and y down as seen from above,
z pointing into the table. A camera is aimed at a target point on the table from a distance, tilted away
from straight down (0 degrees) towards the far side, and turned about the vertical (yaw).

Rendering happens in an *undistorted* canvas (where straight edges stay straight, so a card is a
homography of its art); :meth:`Camera.distortion_maps` then bends that canvas into the final frame, and
:meth:`Camera.project` gives the exact distorted pixel of any table point, which is what labels use.

>>> cam = Camera.looking_at((0.0, 0.0), distance_mm=800.0, tilt_deg=0.0, focal_px=800.0, size=(640, 480))
>>> [round(float(v), 1) for v in cam.project([[0.0, 0.0], [100.0, 0.0]])[:, 0]]
[320.0, 420.0]
>>> cam.tilt_deg, cam.size
(0.0, (640, 480))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

# The 35 mm film width: a "28 mm lens" means a horizontal field of view as on full-frame film.
_FULL_FRAME_WIDTH_MM = 36.0


def focal_px_from_35mm(focal_35mm: float, width_px: int) -> float:
    """Pixel focal length of a lens given as its 35 mm-equivalent focal length.

    >>> round(focal_px_from_35mm(36.0, 1280))
    1280
    """
    return focal_35mm / _FULL_FRAME_WIDTH_MM * width_px


def _rot_x(a: float) -> FloatArray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def _rot_z(a: float) -> FloatArray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


@dataclass(frozen=True)
class Camera:
    """Intrinsics, pose and distortion of one view; ``size`` is the frame in pixels (width, height).

    ``k1``/``k2`` map distorted to undistorted normalised radii: ``r_u = r_d (1 + k1 r_d^2 + k2 r_d^4)``,
    so positive ``k1`` is barrel distortion (a wide webcam) and the remap needs no iteration.
    """

    size: tuple[int, int]
    fx: float
    fy: float
    cx: float
    cy: float
    rotation: tuple[tuple[float, ...], ...]  # camera-to-world, 3x3
    centre_mm: tuple[float, float, float]  # camera position in table millimetres (z < 0: above the table)
    tilt_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0

    @classmethod
    def looking_at(
        cls,
        target_mm: tuple[float, float],
        distance_mm: float,
        tilt_deg: float,
        focal_px: float,
        size: tuple[int, int],
        yaw_deg: float = 0.0,
        roll_deg: float = 0.0,
        k1: float = 0.0,
        k2: float = 0.0,
    ) -> Camera:
        """A camera whose optical axis meets the table at ``target_mm`` after ``distance_mm``."""
        cam_to_world = _rot_z(math.radians(yaw_deg)) @ _rot_x(math.radians(tilt_deg)) @ _rot_z(math.radians(roll_deg))
        forward = cam_to_world[:, 2]
        centre = np.array([target_mm[0], target_mm[1], 0.0]) - distance_mm * forward
        width, height = size
        return cls(
            size=(int(width), int(height)),
            fx=float(focal_px),
            fy=float(focal_px),
            cx=width / 2.0,
            cy=height / 2.0,
            rotation=tuple(tuple(float(v) for v in row) for row in cam_to_world),
            centre_mm=(float(centre[0]), float(centre[1]), float(centre[2])),
            tilt_deg=float(tilt_deg),
            k1=float(k1),
            k2=float(k2),
        )

    @property
    def intrinsics(self) -> FloatArray:
        return np.array([[self.fx, 0, self.cx], [0, self.fy, self.cy], [0, 0, 1]], dtype=np.float64)

    def homography(self, plane_z_mm: float = 0.0) -> FloatArray:
        """Table millimetres to undistorted pixels of this camera's frame (``plane_z_mm`` > 0: below the table)."""
        world_to_cam = np.asarray(self.rotation, dtype=np.float64).T
        t = world_to_cam @ (np.array([0.0, 0.0, plane_z_mm]) - np.asarray(self.centre_mm, dtype=np.float64))
        extrinsic = np.column_stack([world_to_cam[:, 0], world_to_cam[:, 1], t])
        h = self.intrinsics @ extrinsic
        return np.asarray(h / h[2, 2], dtype=np.float64)

    def cropped(self, x0: float, y0: float, width: float, height: float, out_size: tuple[int, int]) -> Camera:
        """The camera whose frame is the window (x0, y0, width, height) of this one, resized to ``out_size``.

        Exactly what cropping and resizing the picture does, so labels stay exact.
        """
        sx, sy = out_size[0] / width, out_size[1] / height
        return replace(
            self,
            size=(int(out_size[0]), int(out_size[1])),
            fx=self.fx * sx,
            fy=self.fy * sy,
            cx=(self.cx - x0) * sx,
            cy=(self.cy - y0) * sy,
        )

    def shifted(self, dx: float, dy: float, size: tuple[int, int]) -> Camera:
        """The same view on a larger canvas whose origin is (-dx, -dy) in this frame (a margin)."""
        return replace(self, size=size, cx=self.cx + dx, cy=self.cy + dy)

    @property
    def distorted(self) -> bool:
        return self.k1 != 0.0 or self.k2 != 0.0

    def _undistort_factor(self, r2: FloatArray) -> FloatArray:
        return np.asarray(1.0 + self.k1 * r2 + self.k2 * r2 * r2, dtype=np.float64)

    def distort_pixels(self, undistorted: npt.ArrayLike) -> FloatArray:
        """Undistorted pixels to the pixels of the real (distorted) frame, by fixed-point iteration."""
        pts = np.asarray(undistorted, dtype=np.float64).reshape(-1, 2)
        if not self.distorted:
            return pts.copy()
        xu = (pts[:, 0] - self.cx) / self.fx
        yu = (pts[:, 1] - self.cy) / self.fy
        xd, yd = xu.copy(), yu.copy()
        for _ in range(20):
            factor = self._undistort_factor(xd * xd + yd * yd)
            xd, yd = xu / factor, yu / factor
        return np.column_stack([xd * self.fx + self.cx, yd * self.fy + self.cy])

    def project(self, points_mm: npt.ArrayLike) -> FloatArray:
        """Table points (N x 2, millimetres) to pixels of the final, distorted frame."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        undistorted = cv2.perspectiveTransform(pts, self.homography()).reshape(-1, 2)
        return self.distort_pixels(undistorted)

    def project_undistorted(self, points_xyz: npt.ArrayLike) -> FloatArray:
        """3-D table points (N x 3 mm; z < 0 is above the table) to undistorted pixels of this frame."""
        pts = np.asarray(points_xyz, dtype=np.float64).reshape(-1, 3)
        cam = (pts - np.asarray(self.centre_mm)) @ np.asarray(self.rotation, dtype=np.float64)
        z = np.maximum(cam[:, 2], 1e-6)
        return np.column_stack([self.fx * cam[:, 0] / z + self.cx, self.fy * cam[:, 1] / z + self.cy])

    def depth(self, points_xyz: npt.ArrayLike) -> FloatArray:
        """Distance of 3-D table points along the optical axis (negative: behind the camera)."""
        pts = np.asarray(points_xyz, dtype=np.float64).reshape(-1, 3)
        return np.asarray((pts - np.asarray(self.centre_mm)) @ np.asarray(self.rotation, dtype=np.float64)[:, 2])

    def unproject(self, pixels: npt.ArrayLike) -> FloatArray:
        """Undistorted pixels back to table millimetres (for framing and textures)."""
        pts = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, np.linalg.inv(self.homography())).reshape(-1, 2))

    def distortion_margin(self) -> tuple[int, int]:
        """How far (x, y pixels) outside the frame the undistorted canvas must reach to fill the frame."""
        if not self.distorted:
            return 0, 0
        w, h = self.size
        border = np.array([[0, 0], [w, 0], [0, h], [w, h], [w / 2, 0], [0, h / 2], [w, h / 2], [w / 2, h]], float)
        src = self._undistorted_source(border[:, 0], border[:, 1])
        mx = max(0.0, float(-src[0].min()), float(src[0].max() - w))
        my = max(0.0, float(-src[1].min()), float(src[1].max() - h))
        return math.ceil(mx) + 2, math.ceil(my) + 2

    def _undistorted_source(self, u: FloatArray, v: FloatArray) -> tuple[FloatArray, FloatArray]:
        xd = (u - self.cx) / self.fx
        yd = (v - self.cy) / self.fy
        factor = self._undistort_factor(xd * xd + yd * yd)
        return xd * factor * self.fx + self.cx, yd * factor * self.fy + self.cy

    def distortion_maps(self, margin: tuple[int, int]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """cv2.remap maps from a canvas with ``margin`` around the frame to the distorted frame."""
        w, h = self.size
        xd = ((np.arange(w, dtype=np.float32) - self.cx) / self.fx)[None, :]
        yd = ((np.arange(h, dtype=np.float32) - self.cy) / self.fy)[:, None]
        r2 = xd * xd + yd * yd
        factor = 1.0 + np.float32(self.k1) * r2 + np.float32(self.k2) * r2 * r2
        map_x = xd * factor * np.float32(self.fx) + np.float32(self.cx + margin[0])
        map_y = yd * factor * np.float32(self.fy) + np.float32(self.cy + margin[1])
        return map_x.astype(np.float32), map_y.astype(np.float32)

    def footprint_mm(self, margin: tuple[int, int] = (0, 0)) -> FloatArray:
        """The table quadrilateral (4 x 2 mm) seen by the frame plus ``margin``, clockwise from top-left."""
        w, h = self.size
        mx, my = margin
        corners = np.array([[-mx, -my], [w + mx, -my], [w + mx, h + my], [-mx, h + my]], dtype=np.float64)
        return self.unproject(corners)

    def scale_px_per_mm(self, point_mm: tuple[float, float]) -> float:
        """Approximate pixels per millimetre near a table point (for choosing texture and art sizes)."""
        x, y = point_mm
        pts = self.project([[x, y], [x + 10.0, y], [x, y + 10.0]])
        return float(max(np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[0])) / 10.0)

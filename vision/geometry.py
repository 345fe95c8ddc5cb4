"""Table geometry: the homography between image pixels and the table plane (millimetres), and the zones on it.

Stack positions and distances are measured on the table plane, never in pixels, so a gate of 30 mm means the
same near the camera as far from it. The plane is found automatically from the cards themselves: every card is
a 59 x 91 mm rectangle, so the homography is the one that makes every detected card quad a rectangle of that
size (:func:`fit_from_cards`). A small calibration file can override it with four image points of known table
position (:func:`load_calibration`).

Table frame: origin at the point under the image centre (the camera aims at the centre of the table), ``x`` to
the right and ``y`` down as the camera sees it, the frame of :mod:`referee.sightings`.

>>> geometry = TableGeometry.from_points([[0, 0], [100, 0], [100, 100], [0, 100]],
...                                      [[0, 0], [50, 0], [50, 50], [0, 50]])
>>> geometry.to_table([[100, 100]]).round(6).tolist()
[[50.0, 50.0]]
>>> geometry.to_image([[25, 0]]).round(6).tolist()
[[50.0, 0.0]]
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.errors import LigrettoError

FloatArray = npt.NDArray[np.float64]
Point = tuple[float, float]

# The card seen from above, corners clockwise from its top-left, centred on the origin.
_CARD = np.array(
    [
        [-CARD_WIDTH_MM / 2, -CARD_HEIGHT_MM / 2],
        [CARD_WIDTH_MM / 2, -CARD_HEIGHT_MM / 2],
        [CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2],
        [-CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2],
    ]
)
MAX_FIT_CARDS = 240
_CARD_HALF_DIAGONAL = math.hypot(CARD_WIDTH_MM, CARD_HEIGHT_MM) / 2


class CalibrationError(LigrettoError):
    """A calibration file is missing, malformed, or its points do not define a plane."""


class NoTableError(LigrettoError):
    """No cards (so no table plane) could be found in the input."""

    exit_code = 4


# ------------------------------------------------------------------------------------------------ zones


@dataclass(frozen=True)
class Zones:
    """Regions of the table plane: the centre (where stacks are built) and the seats (players' places).

    ``centre`` is a polygon (None: the whole view is the centre, as when the camera sees only the centre).

    >>> zones = Zones.centre_disc(200.0)
    >>> len(zones.centre), zones.contains_centre((0.0, 150.0)), zones.contains_centre((0.0, 250.0))
    (32, True, False)
    """

    centre: tuple[Point, ...] | None = None
    seats: tuple[tuple[Point, ...], ...] = ()

    @classmethod
    def centre_disc(cls, radius: float, at: Point = (0.0, 0.0), sides: int = 32) -> Zones:
        """A centre zone that is a disc of ``radius`` mm (a polygon of ``sides`` sides) around ``at``."""
        corners = tuple(
            (at[0] + radius * math.cos(2 * math.pi * i / sides), at[1] + radius * math.sin(2 * math.pi * i / sides))
            for i in range(sides)
        )
        return cls(centre=corners)

    def contains_centre(self, point: Point) -> bool:
        if self.centre is None:
            return True
        inside = cv2.pointPolygonTest(np.asarray(self.centre, np.float32).reshape(-1, 1, 2), point, False)
        return bool(inside >= 0)


# --------------------------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class TableGeometry:
    """The homography image -> table plane, its inverse, how it was found and the zones.

    ``residual_mm``: for a fit from cards, the RMS distance of the mapped card corners from true 59 x 91 mm
    rectangles (how well the plane explains the cards); 0 for a manual calibration.
    """

    image_to_table: FloatArray
    source: str = "manual"
    residual_mm: float = 0.0
    cards_used: int = 0
    zones: Zones = field(default_factory=Zones)

    def __post_init__(self) -> None:
        matrix = np.asarray(self.image_to_table, np.float64)
        if matrix.shape != (3, 3) or not np.isfinite(matrix).all() or abs(np.linalg.det(matrix)) < 1e-12:
            raise CalibrationError("the table homography must be an invertible 3x3 matrix")
        object.__setattr__(self, "image_to_table", matrix / matrix[2, 2])

    @property
    def table_to_image(self) -> FloatArray:
        inverse = np.linalg.inv(self.image_to_table)
        return np.asarray(inverse / inverse[2, 2], np.float64)

    @classmethod
    def from_points(cls, image_points: npt.ArrayLike, table_points: npt.ArrayLike, **kwargs: Any) -> TableGeometry:
        """The homography through four (or more) image points of known table position (in mm)."""
        src = np.asarray(image_points, np.float64).reshape(-1, 2)
        dst = np.asarray(table_points, np.float64).reshape(-1, 2)
        if len(src) < 4 or len(src) != len(dst):
            raise CalibrationError(f"a calibration needs 4 image points and 4 table points, not {len(src)}/{len(dst)}")
        if _degenerate(src) or _degenerate(dst):
            raise CalibrationError("calibration points must not have three on one line")
        matrix, _ = cv2.findHomography(src, dst, 0)
        if matrix is None:
            raise CalibrationError("the calibration points do not define a plane")
        return cls(np.asarray(matrix, np.float64), **kwargs)

    def to_table(self, points: npt.ArrayLike) -> FloatArray:
        """(..., 2) image pixels -> table millimetres."""
        return _apply(self.image_to_table, points)

    def to_image(self, points: npt.ArrayLike) -> FloatArray:
        """(..., 2) table millimetres -> image pixels."""
        return _apply(self.table_to_image, points)

    def with_zones(self, zones: Zones) -> TableGeometry:
        return TableGeometry(self.image_to_table, self.source, self.residual_mm, self.cards_used, zones)

    def mm_per_pixel(self, at: Point) -> float:
        """The scale near image point ``at`` (mean of the two axes)."""
        x, y = at
        mapped = self.to_table([[x, y], [x + 1, y], [x, y + 1]])
        return float((np.linalg.norm(mapped[1] - mapped[0]) + np.linalg.norm(mapped[2] - mapped[0])) / 2)

    def card_width_px(self) -> float:
        """How wide a card lying in the middle of the centre zone (the table's origin without one) is in the
        picture, in pixels.

        >>> TableGeometry(np.diag([0.5, 0.5, 1.0])).card_width_px()   # 2 px a millimetre
        118.0
        """
        middle = np.mean(np.asarray(self.zones.centre), axis=0) if self.zones.centre else np.zeros(2)
        at = self.to_image(middle.reshape(1, 2))[0]
        return float(CARD_WIDTH_MM / self.mm_per_pixel((float(at[0]), float(at[1]))))

    def to_json(self) -> dict[str, Any]:
        return {
            "image_to_table": [[round(float(v), 9) for v in row] for row in self.image_to_table],
            "source": self.source,
            "residual_mm": round(self.residual_mm, 3),
            "cards_used": self.cards_used,
            "centre_zone": [[round(x, 1), round(y, 1)] for x, y in self.zones.centre] if self.zones.centre else None,
        }


def _apply(matrix: FloatArray, points: npt.ArrayLike) -> FloatArray:
    pts = np.asarray(points, np.float64)
    flat = pts.reshape(-1, 2)
    homogeneous = np.c_[flat, np.ones(len(flat))] @ matrix.T
    mapped = homogeneous[:, :2] / homogeneous[:, 2:3]
    return np.asarray(mapped.reshape(pts.shape), np.float64)


def _degenerate(points: FloatArray) -> bool:
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            for k in range(j + 1, len(points)):
                a, b, c = points[i], points[j], points[k]
                cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
                if abs(cross) < 1e-6 * max(1.0, float(np.ptp(points)) ** 2):
                    return True
    return False


# ------------------------------------------------------------------------------------- fit from cards


def fit_from_cards(
    quads: npt.ArrayLike,
    image_size: tuple[int, int],
    *,
    outlier_mm: float = 3.0,
) -> TableGeometry:
    """The homography that makes each card quad (N, 4, 2; image pixels) a 59 x 91 mm rectangle.

    Each card's pose on the table is unknown, so it is fitted with the plane: for a candidate homography every
    card is mapped to the table and the nearest true card rectangle (Procrustes) gives its residual. The table
    frame is fixed by the image (its centre is the origin, its x axis the table's), which leaves five
    parameters: scale, aspect and shear (affine, well seen from one card) and the two perspective terms (seen
    only when the cards spread over the image). Cards that fit badly after a first pass (one held in a hand
    above the table, a quad the detector got wrong) are left out of a second.

    Raises :class:`NoTableError` when there are no usable quads.
    """
    cards = _usable_quads(quads)
    if not len(cards):
        raise NoTableError("no cards found to measure the table plane from")
    if len(cards) > MAX_FIT_CARDS:  # enough to pin the plane down; more only costs time
        cards = cards[np.random.default_rng(0).choice(len(cards), MAX_FIT_CARDS, replace=False)]
    # Work in normalised image coordinates (centre 0, half-size 1) so every parameter has the same scale.
    half = max(image_size) / 2.0
    normalise = np.array(
        [[1 / half, 0, -image_size[0] / 2 / half], [0, 1 / half, -image_size[1] / 2 / half], [0, 0, 1]]
    )
    unit = _apply(normalise, cards)
    projective = _spread(cards) > 0.2 * max(image_size) and len(cards) >= 2
    params = _fit(unit, _scale_start(unit), projective)
    errors = _card_errors(params, unit)
    keep = errors <= max(outlier_mm, 3.0 * float(np.median(errors)))
    if not keep.all() and keep.sum() >= 1:
        params = _fit(unit[keep], params, projective)
    matrix = _matrix(params) @ normalise
    residual = float(np.sqrt(np.mean(_card_errors(params, unit[keep]) ** 2)))
    return TableGeometry(
        np.asarray(matrix / matrix[2, 2], np.float64), source="cards", residual_mm=residual, cards_used=int(keep.sum())
    )


def _fit(cards: FloatArray, start: FloatArray, projective: bool) -> FloatArray:
    """Affine first (a, b, e), then, if ``projective``, the best of several perspective starts.

    A plane seen nearly straight on has a two-fold ambiguity (which way it tilts), and from the affine start the
    solver may slide into the wrong one; starting from tilts in eight directions finds the right basin.
    """
    from scipy.optimize import least_squares  # imported here: scipy costs ~0.8 s at CLI start-up

    params = np.r_[start[:3], 0.0, 0.0]
    for _ in range(2):  # the corner labelling (which edge is short) is re-decided once the plane is better known
        shifts = _labelling(_matrix(params), cards)
        affine = least_squares(_residuals, params[:3], args=(cards, shifts, False), method="lm").x
        params = np.r_[affine, 0.0, 0.0]
    if not projective:
        return params
    best, best_cost = params, math.inf
    starts = [params] + [np.r_[params[:3], 0.3 * math.cos(a), 0.3 * math.sin(a)] for a in np.arange(8) * math.pi / 4]
    for candidate in starts:
        for _ in range(2):
            shifts = _labelling(_matrix(candidate), cards)
            fit = least_squares(_residuals, candidate, args=(cards, shifts, True), method="lm")
            if not np.isfinite(fit.x).all():
                break
            candidate = fit.x
        cost = float(np.sum(_residuals(candidate, cards, _labelling(_matrix(candidate), cards), True) ** 2))
        if cost < best_cost:
            best, best_cost = candidate, cost
    return best


def _scale_start(cards: FloatArray) -> FloatArray:
    """Millimetres per normalised unit from the largest card's area; no shear."""
    areas = np.array([abs(cv2.contourArea(q.astype(np.float32))) for q in cards])
    scale = math.sqrt(CARD_WIDTH_MM * CARD_HEIGHT_MM / max(float(areas.max()), 1e-12))
    return np.array([scale, 0.0, scale])


def _matrix(params: FloatArray) -> FloatArray:
    """The homography of the five free parameters: the image centre maps to the origin (no c, f) and the
    image x axis to the table x axis there (no d)."""
    a, b, e, g, h = params
    return np.array([[a, b, 0.0], [0.0, e, 0.0], [g, h, 1.0]])


def _residuals(params: FloatArray, cards: FloatArray, shifts: npt.NDArray[np.intp], projective: bool) -> FloatArray:
    return _residuals_of(_matrix(params if projective else np.r_[params, 0.0, 0.0]), cards, shifts)


def _card_errors(params: FloatArray, cards: FloatArray) -> FloatArray:
    """RMS corner error of each card (mm)."""
    matrix = _matrix(params)
    errors = _residuals_of(matrix, cards, _labelling(matrix, cards)).reshape(-1, 8)
    return np.asarray(np.sqrt((errors**2).mean(axis=1)), np.float64)


def _usable_quads(quads: npt.ArrayLike) -> FloatArray:
    cards = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if not len(cards):
        return cards
    signed = np.array([cv2.contourArea(q.astype(np.float32), oriented=True) for q in cards])
    # the contract is clockwise on screen; a quad listed the other way round is the same card
    cards = np.where((signed < 0)[:, None, None], cards[:, ::-1], cards)
    return cards[np.isfinite(cards).all(axis=(1, 2)) & (np.abs(signed) > 25.0)]


def _spread(cards: FloatArray) -> float:
    centres = cards.mean(axis=1)
    return float(np.ptp(centres[:, 0]) + np.ptp(centres[:, 1]))


def _labelling(matrix: FloatArray, cards: FloatArray) -> npt.NDArray[np.intp]:
    """Per card, 0 when its first quad edge maps to a short card edge, else 1."""
    mapped = _apply(matrix, cards)
    first = np.linalg.norm(mapped[:, 1] - mapped[:, 0], axis=1) + np.linalg.norm(mapped[:, 3] - mapped[:, 2], axis=1)
    second = np.linalg.norm(mapped[:, 2] - mapped[:, 1], axis=1) + np.linalg.norm(mapped[:, 0] - mapped[:, 3], axis=1)
    return np.where(first <= second, 0, 1).astype(np.intp)


def _residuals_of(matrix: FloatArray, cards: FloatArray, shifts: npt.NDArray[np.intp]) -> FloatArray:
    """(N * 8,) offsets of each mapped card from the nearest true card rectangle labelled from its shift."""
    mapped = _apply(matrix, cards)
    centred = mapped - mapped.mean(axis=1, keepdims=True)
    templates = np.where(shifts[:, None, None] == 0, _CARD[None], np.roll(_CARD, 1, axis=0)[None])
    # 2D Procrustes without scale, per card: the rotation that best aligns the template with the corners
    m = np.einsum("nki,nkj->nij", centred, templates)
    angle = np.arctan2(m[:, 1, 0] - m[:, 0, 1], m[:, 0, 0] + m[:, 1, 1])
    cos_a, sin_a = np.cos(angle)[:, None], np.sin(angle)[:, None]
    turned = np.stack(
        [templates[..., 0] * cos_a - templates[..., 1] * sin_a, templates[..., 0] * sin_a + templates[..., 1] * cos_a],
        axis=-1,
    )
    return np.asarray((centred - turned).reshape(-1), np.float64)


def centre_zone_from_seats(geometry: TableGeometry, seat_quads: npt.ArrayLike, *, minimum: float = 150.0) -> Zones:
    """The centre zone: the table inside the ring of cards already lying at the start (players' rows and piles),
    kept a card's reach away from them.

    The region is the convex hull of those cards, shrunk by a card's reach and less a disc round each: it
    follows the players wherever they sit and however the camera is aimed. (A disc round the cards' mean,
    reaching to the nearest card, was the first version: with three players whose rows lie unevenly, it left
    out a stack lying between two rows.)
    To that is added the disc round their middle (the centroid of their hull) reaching short of the nearest card
    by a reach: two players face each other across the centre and stack beside it too, where the hull of their
    two rows does not reach (a seeded two-player round lost a whole stack lying 35 mm beside the hull; with 1.5
    reaches and the cards' mean as the middle, seeds 99000 eight players and 99203 two players each lost a stack
    of nine cards: in oracle mode, seeds 99000-99001, plays 320 -> 329 of 329).
    When the cards enclose too little for that (one row in view, or players huddled), the zone is a disc round
    their middle, at least ``minimum`` mm across; with no such cards in view (a camera that frames only the
    centre), the whole view is the centre.

    >>> g = TableGeometry(np.eye(3))
    >>> seats = [_CARD + [x, y] for x, y in ((0, 400), (0, -400), (400, 0), (-400, 0))]
    >>> zones = centre_zone_from_seats(g, seats)
    >>> [zones.contains_centre(p) for p in ((0.0, 0.0), (0.0, 250.0), (0.0, 345.0), (250.0, 250.0))]
    [True, True, False, False]
    """
    quads = np.asarray(seat_quads, np.float64).reshape(-1, 4, 2)
    if not len(quads):
        return Zones()
    centres = geometry.to_table(quads.mean(axis=1))
    clearance = _CARD_HALF_DIAGONAL + 10.0
    middle = _middle_of(centres)
    nearest = float(np.min(np.hypot(centres[:, 0] - middle[0], centres[:, 1] - middle[1])))
    ring = _inside_the_ring(centres, clearance, disc=(middle, nearest - 1.0 * clearance))
    if ring is not None and _polygon_area(ring) >= math.pi * minimum**2:
        return Zones(centre=ring)
    radius = max(minimum, nearest - clearance)
    return Zones.centre_disc(radius, at=(float(middle[0]), float(middle[1])))


_ZONE_MM_PER_PX = 2.0


def _middle_of(centres: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The middle of the table the cards ring: the centroid of their hull, not the cards' mean, which leans
    towards the seats where more cards were found (seed 99203, two players: 9 cards found in one row and 5 in
    the other put the mean 110 mm off the middle, and a stack beside the rows' ends out of the centre).

    >>> rows = np.array([[x, 300.0] for x in range(-200, 201, 50)] + [[x, -300.0] for x in (-200.0, 0.0, 200.0)])
    >>> _middle_of(rows).round(1).tolist(), rows.mean(axis=0).round(1).tolist()
    ([0.0, 0.0], [0.0, 150.0])
    """
    if len(centres) >= 3:
        hull = cv2.convexHull(centres.astype(np.float32)).reshape(-1, 2)
        moments = cv2.moments(hull)
        if moments["m00"] > 1.0:
            return np.array([moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]])
    return np.asarray(centres.mean(axis=0), np.float64)


def _inside_the_ring(
    centres: npt.NDArray[np.float64], clearance: float, disc: tuple[npt.NDArray[np.float64], float] | None = None
) -> tuple[Point, ...] | None:
    """The hull of ``centres`` shrunk by ``clearance``, joined with ``disc`` (middle, radius), less a disc of
    ``clearance`` round each card, as a polygon (None: nothing enclosed).

    Drawn on a 2 mm raster, which is far finer than where a card may lie; the largest piece is kept."""
    if len(centres) < 3:
        return None
    low, high = centres.min(axis=0), centres.max(axis=0)
    if disc is not None and disc[1] > 0:
        low, high = np.minimum(low, disc[0] - disc[1]), np.maximum(high, disc[0] + disc[1])
    origin = low - 2 * _ZONE_MM_PER_PX
    points = (centres - origin) / _ZONE_MM_PER_PX
    size = np.ceil((high - origin) / _ZONE_MM_PER_PX).astype(int) + 4
    mask = np.zeros((int(size[1]), int(size[0])), np.uint8)
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 255)
    reach = round(clearance / _ZONE_MM_PER_PX)
    # a card's reach inside the hull's edges (the rows lie along them, and change as cards are played from
    # them) and round every card (a pile or a row card lying inside the hull)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    inner = np.ascontiguousarray(cv2.erode(mask, kernel), np.uint8)
    if disc is not None and disc[1] > 0:
        at = (disc[0] - origin) / _ZONE_MM_PER_PX
        cv2.circle(inner, (round(float(at[0])), round(float(at[1]))), round(disc[1] / _ZONE_MM_PER_PX), 255, -1)
    for x, y in points:
        cv2.circle(inner, (round(x), round(y)), reach, 0, -1)
    contours, _ = cv2.findContours(inner, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    largest = max(contours, key=cv2.contourArea)
    outline = cv2.approxPolyDP(largest, 1.0, True).reshape(-1, 2).astype(np.float64)
    if len(outline) < 3:
        return None
    table = outline * _ZONE_MM_PER_PX + origin
    return tuple((float(x), float(y)) for x, y in table)


def _polygon_area(polygon: tuple[Point, ...]) -> float:
    return float(cv2.contourArea(np.asarray(polygon, np.float32).reshape(-1, 1, 2)))


# ---------------------------------------------------------------------------------------- calibration file

CALIBRATION_EXAMPLE = (
    '{"image_points": [[x, y], x4], "table_points": [[x_mm, y_mm], x4], "centre_radius_mm": 300 (optional)}'
)


def load_calibration(path: str | Path) -> TableGeometry:
    """A manual calibration: four image points and where they lie on the table (mm), optionally the centre zone.

    The file is JSON: ``{"image_points": [[x, y] x4], "table_points": [[x, y] x4]}``, with optional
    ``"centre_radius_mm": R`` (a disc round the origin) or ``"centre_zone": [[x, y], ...]`` (a polygon in mm).
    """
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"cannot read calibration file {file}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CalibrationError(f"calibration file {file} is not JSON ({exc})") from None
    return calibration_from_json(data, name=str(file))


def calibration_from_json(data: Any, *, name: str = "calibration") -> TableGeometry:
    if not isinstance(data, dict):
        raise CalibrationError(f"{name}: expected an object like {CALIBRATION_EXAMPLE}")
    image_points = _points(data, "image_points", name)
    table_points = _points(data, "table_points", name)
    geometry = TableGeometry.from_points(image_points, table_points, source="manual")
    return geometry.with_zones(_zones(data, name))


def _points(data: dict[str, Any], key: str, name: str) -> list[list[float]]:
    value = data.get(key)
    ok = (
        isinstance(value, list)
        and len(value) == 4
        and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) and math.isfinite(v) for v in p)
            for p in value
        )
    )
    if not ok:
        raise CalibrationError(f"{name}: {key!r} must be 4 points [x, y], e.g. {CALIBRATION_EXAMPLE}")
    return [[float(v) for v in p] for p in value]  # type: ignore[union-attr]


def _zones(data: dict[str, Any], name: str) -> Zones:
    radius = data.get("centre_radius_mm")
    polygon = data.get("centre_zone")
    if radius is not None:
        if not isinstance(radius, int | float) or radius <= 0:
            raise CalibrationError(f"{name}: centre_radius_mm must be a positive number of millimetres")
        return Zones.centre_disc(float(radius))
    if polygon is not None:
        if not isinstance(polygon, list) or len(polygon) < 3:
            raise CalibrationError(f"{name}: centre_zone must be a polygon of at least 3 points [x, y] in mm")
        try:
            return Zones(centre=tuple((float(p[0]), float(p[1])) for p in polygon))
        except (TypeError, ValueError, IndexError):
            raise CalibrationError(f"{name}: centre_zone must be a list of points [x, y] in mm") from None
    return Zones()


def save_calibration(path: str | Path, image_points: Sequence[Point], table_points: Sequence[Point]) -> None:
    """Writes a calibration file that :func:`load_calibration` reads back."""
    data = {"image_points": [list(p) for p in image_points], "table_points": [list(p) for p in table_points]}
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

"""Thorough detection for stills and the end-of-round count: several passes of the detector, the boxes fused.

One pass letterboxes the whole frame into the network's 640 x 384 input (a 1280 x 720 frame at scale 0.5), so a
small card is tiny at inference. Where time allows, :class:`ThoroughDetector` also reads the frame zoomed in:
at zoom ``z`` the frame is cut into overlapping windows that each fill the input at ``z`` times the one-pass
scale (zoom 2 on a 1280 x 720 frame: 3 x 3 windows of 640 x 384 pixels at full resolution), optionally also
mirrored left to right. The boxes of all passes are fused by :func:`fuse_passes`.

    detector = ThoroughDetector(OnnxDetector(), ThoroughPlan(zooms=(1.0, 2.0)))
    detections = detector(cv2.imread("centre.jpg"))
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.detect import Detector
from vision.detect.fuse import Pass, fuse_passes
from vision.detect.onnx_detector import Letterbox, read_turned, turned_for
from vision.detect.windows import Window, windows
from vision.detections import CardDetections

Image = npt.NDArray[np.uint8]
EDGE_PX = 3.0  # network pixels: a box this close to a window's inner border is a card cut by it


@dataclass(frozen=True)
class ThoroughPlan:
    """Which passes to run: ``zooms`` (multiples of the one-pass scale; 1 is the whole frame in one pass),
    ``flip`` (each also mirrored left to right), the IoU above which boxes of two passes are one card, and
    ``vote``: how a fused card's confidence comes from its boxes (:func:`vision.detect.fuse.fuse_passes`), and
    ``conf``: the operating confidence for the fused cards (votes run lower than one pass's scores: on held-out
    scenes 0.35 gave higher precision and recall than one pass at its usual 0.4).

    >>> ThoroughPlan.parse("1,2")
    ThoroughPlan(zooms=(1.0, 2.0), flip=False, iou=0.55, vote='all', conf=0.35)
    >>> ThoroughPlan.parse("1, 1.5", flip=True).passes(1280, 720)
    10
    """

    zooms: tuple[float, ...] = (1.0, 1.5)
    flip: bool = True
    iou: float = 0.55
    vote: str = "all"
    conf: float = 0.35

    @classmethod
    def parse(cls, zooms: str, flip: bool = False, iou: float = 0.55, vote: str = "all") -> ThoroughPlan:
        """A plan from a comma-separated list of zooms such as ``"1,1.5,2"``."""
        try:
            values = tuple(float(z) for z in zooms.split(",") if z.strip())
        except ValueError:
            raise ValueError(f"zooms must be numbers separated by commas, like 1,2 (got {zooms!r})") from None
        if not values or any(not 1 <= z <= 4 for z in values):  # below 1 the letterbox would fill the input anyway
            raise ValueError(f"each zoom must lie between 1 and 4 (got {zooms!r})")
        return cls(values, flip, iou, vote)

    def passes(self, width: int, height: int) -> int:
        """How many detector runs one ``width`` x ``height`` image costs."""
        return sum(len(windows(width, height, z)) for z in self.zooms) * (2 if self.flip else 1)


STILLS_PLAN = ThoroughPlan(zooms=(1.0, 1.5), flip=True)
"""``ligretto detect`` and ``ligretto score`` by default: the best mAP of the plans measured on held-out scenes
(models/README.md), and the most backs found without false ones in the sample round's last frames."""
COUNTING_PLAN = ThoroughPlan(zooms=(1.0, 2.0), flip=False)
"""The end-of-round count's frames (few, and every small fanned card counts): the whole frame, then 3x3 windows
at 2x zoom, the same 10 passes as :data:`STILLS_PLAN`. At 1.5x a leftover line's white and pale backs, 40 px wide,
were boxed under 0.35 or not at all (seed 101008, four players: none of a white red-black line of 9); at 2x they
are, with more boxes per card, which the count's leftover lines no longer take one by one. 34 rendered two- and
four-player rounds (seeds 101000-101033) replayed with each plan: players' scores exact 84 -> 87 of 122, leftover
cards miscounted 15 -> 12, centre cards 32 -> 30; the plays and rulings the same. Before the count measured a
line with unseen ends (:attr:`vision.shingles.Shingles.seen`) this plan lost: 82 -> 79 on 33 of them."""
OPENING_PLAN = ThoroughPlan(zooms=(1.0, 2.0), flip=False)
"""The opening frames, which the seats are learnt from: a hand stack 40 px wide can be missed at every scale up to
1.5x (seeds 100601 and 100606, four players: the red-black hand on a striped and a dotted cloth, found at 2x at
0.66) and its seat is then nobody's. On the first frames of 28 rendered four- and eight-player rounds (115 backs,
534 faces at least a quarter visible): 113 backs found against the counting plan's 110, 48 boxes on nothing
against 55, in 256 ms against 311 (development script ``out/dev/openplan.py``)."""


class ThoroughDetector:
    """A detector run over several zooms (and mirror images) of one frame, its boxes fused into one set.

    ``workers``: how many passes run at once, each on its own thread (``detector`` must allow calls from several
    threads, as an onnxruntime session does). Ten passes of a 1280 x 720 frame on the 2-core machine: 76 ms on
    two threads with a one-thread network each, against 112 ms one after another with a two-thread network (the
    passes are small, and a network's operators split over two cores wait on each other)."""

    def __init__(
        self, detector: Detector, plan: ThoroughPlan | None = None, conf: float = 0.0, workers: int = 1
    ) -> None:
        self.detector = detector
        self.plan = plan or ThoroughPlan()
        self.conf = conf
        self.workers = max(1, workers)
        self.input_size: tuple[int, int] = getattr(detector, "input_size", (384, 640))
        self._pool = ThreadPoolExecutor(self.workers, "thorough") if self.workers > 1 else None

    def __call__(self, image: Image) -> CardDetections:
        """The fused cards of every pass. A portrait picture is read turned a quarter, so that its windows are cut
        as a landscape one's (:func:`vision.detect.onnx_detector.read_turned`)."""
        height, width = image.shape[:2]
        if turned_for(height, width, self.input_size):
            return read_turned(lambda turned, _: self(turned), image)
        reads = [
            (window, zoom, mirrored)
            for zoom in self.plan.zooms
            for window in windows(width, height, zoom, self.input_size)
            for mirrored in ((False, True) if self.plan.flip else (False,))
        ]
        if self._pool is None:
            passes = [self._read(image, *read) for read in reads]
        else:  # in the plan's order, whichever thread read each: the fused boxes are the same either way
            passes = list(self._pool.map(lambda read: self._read(image, *read), reads))
        fused = fuse_passes(passes, self.plan.iou, self.plan.vote)
        return fused[fused.confidence >= self.conf]

    def _read(self, image: Image, window: Window, zoom: float, mirrored: bool = False) -> Pass:
        crop = image[window.y0 : window.y0 + window.height, window.x0 : window.x0 + window.width]
        if mirrored:
            crop = np.ascontiguousarray(crop[:, ::-1])
        found = self.detector(crop)
        corners = found.corners
        if mirrored:  # mirror back; the corner order turns anticlockwise, so swap left and right corners
            corners = np.stack([window.width - corners[..., 0], corners[..., 1]], axis=-1)[:, [1, 0, 3, 2]]
        scale = Letterbox.fit(window.height, window.width, self.input_size).scale
        keep = ~_cut(corners, window, image.shape[1], image.shape[0], EDGE_PX / scale)
        corners = corners + np.asarray([window.x0, window.y0], np.float32)
        return Pass(CardDetections.from_quads(corners[keep], found.kind[keep], found.confidence[keep]), window, zoom)


def _cut(corners: npt.NDArray[np.float32], window: Window, width: int, height: int, margin: float) -> np.ndarray:
    """Which boxes reach a border of the window that lies inside the image: cards cut by the window, whose
    boxes cover only the piece inside (a neighbouring window or the whole-frame pass sees them whole).

    >>> quads = np.asarray([[[10, 10], [50, 10], [50, 90], [10, 90]], [[600, 10], [639, 10], [639, 90], [600, 90]]])
    >>> _cut(quads, Window(0, 0, 640, 384), 1280, 720, 3.0).tolist()
    [False, True]
    """
    if not len(corners):
        return np.zeros(0, bool)
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    left, top, right, bottom = window.inner_edges(width, height)
    return (
        (left & (lo[:, 0] < margin))
        | (top & (lo[:, 1] < margin))
        | (right & (hi[:, 0] > window.width - margin))
        | (bottom & (hi[:, 1] > window.height - margin))
    )

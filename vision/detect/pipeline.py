"""Detect, then recognise: the two vision stages every command runs, with the time each took.

    see = CardReader.load(catalogue=None)     # models/detector.onnx + the recogniser's models
    reading = see(cv2.imread("table.jpg"))
    reading.detections.cards_json(), reading.detect_ms, reading.recognise_ms

The recogniser is optional: without its models the cards keep unknown identities and ``warning`` says why,
so detection alone still works (and can be measured) on a checkout without recogniser models.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.detect import Detector, load_detector
from vision.detect.thorough import ThoroughDetector, ThoroughPlan
from vision.detections import CardDetections

Image = npt.NDArray[np.uint8]
PASS_CONF = 0.1  # in thorough mode, each pass's confidence floor
Recognise = Any  # callable (image, CardDetections) -> CardDetections; vision.recognise.Recogniser


@dataclass(frozen=True)
class Reading:
    """The cards found in one image and the milliseconds each stage took."""

    detections: CardDetections
    detect_ms: float
    recognise_ms: float

    @property
    def total_ms(self) -> float:
        return self.detect_ms + self.recognise_ms


@dataclass(frozen=True)
class CardReader:
    """A detector and, when its models are present, the recogniser."""

    detector: Detector
    recogniser: Recognise | None
    warning: str | None = None

    @classmethod
    def load(
        cls,
        backend: str = "onnx",
        model: str | Path | None = None,
        conf: float = 0.4,
        catalogue: Any = None,
        recognise: bool = True,
        thorough: ThoroughPlan | None = None,
        threads: int | None = None,
    ) -> CardReader:
        """Loads the detector (``backend``: onnx or ultralytics) and, if ``recognise``, the recogniser.

        ``thorough``: run the detector over several zooms of each image (:mod:`vision.detect.thorough`);
        ``threads``: the detector's onnxruntime threads (None: one per core; thorough: how many passes run at once,
        each on one thread)."""
        if thorough is None:
            detector = load_detector(backend, model, conf, threads)
        elif backend == "onnx":  # passes side by side, a network thread each (see ThoroughDetector)
            network = load_detector(backend, model, min(conf, PASS_CONF), threads=1)
            detector = ThoroughDetector(network, thorough, conf=conf, workers=threads or os.cpu_count() or 1)
        else:  # each pass keeps its weaker boxes too: the passes' vote decides
            detector = ThoroughDetector(load_detector(backend, model, min(conf, PASS_CONF)), thorough, conf=conf)
        if not recognise:
            return cls(detector, None)
        try:
            return cls(detector, _recogniser_class()(catalogue=catalogue))
        except (ImportError, AttributeError, FileNotFoundError, OSError) as exc:
            return cls(detector, None, warning=f"identities left unknown: the recogniser is not available ({exc})")

    def __call__(self, image: Image) -> Reading:
        start = time.perf_counter()
        detections = self.detector(image)
        found = time.perf_counter()
        if self.recogniser is not None:
            detections = self.recogniser(image, detections)
        done = time.perf_counter()
        return Reading(detections, (found - start) * 1000, (done - found) * 1000)


def _recogniser_class() -> Any:
    # The recogniser package may export its class at the top or only in its module; accept either.
    import vision.recognise

    found = getattr(vision.recognise, "Recogniser", None)
    if found is None:
        from vision.recognise.recogniser import Recogniser as found
    return found

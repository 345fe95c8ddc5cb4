"""Which thorough plan? Several plans scored on the same labelled scenes, each at several operating confidences.

Each plan's detections are computed once per image (one detector, one thread, one process) and scored at every
confidence, so plans compare at equal precision as well as at equal threshold:

    python -m vision.detect.compare_plans --data datasets/generated/heldout --limit 100 \\
        one 1:flip 1,1.5 1,1.5:flip 1,2:flip:zoom

A plan is ``one`` (a single pass) or ``ZOOMS[:flip][:all|zoom|best][:iou=X]`` (see
:class:`vision.detect.thorough.ThoroughPlan`). The times printed include fusing the low-confidence boxes that
mAP needs; at the operating floor a thorough reading costs less (models/README.md).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.detect import Detector
from vision.detect.onnx_detector import DEFAULT_MODEL, OnnxDetector
from vision.detect.pipeline import CardReader
from vision.detect.thorough import ThoroughDetector, ThoroughPlan
from vision.detections import CardDetections
from vision.evaluate import Summary, evaluate
from vision.evaluate.run import CURVE_CONF


def plan_from(spec: str) -> ThoroughPlan | None:
    """``one`` -> None; ``1,1.5:flip:all:iou=0.6`` -> that plan.

    >>> plan_from("1,1.5:flip:zoom:iou=0.6")
    ThoroughPlan(zooms=(1.0, 1.5), flip=True, iou=0.6, vote='zoom', conf=0.35)
    >>> plan_from("one") is None
    True
    """
    if spec == "one":
        return None
    zooms, *options = spec.split(":")
    vote = next((o for o in options if o in ("all", "zoom", "best")), "all")
    iou = float(next((o[4:] for o in options if o.startswith("iou=")), 0.55))
    return ThoroughPlan.parse(zooms, flip="flip" in options, iou=iou, vote=vote)


class Remembering:
    """A detector that answers each image once and remembers (the same detections at every confidence)."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.answers: dict[int, CardDetections] = {}
        self.ms: list[float] = []

    def __call__(self, image: npt.NDArray[np.uint8]) -> CardDetections:
        key = hash(image[::37, ::41].tobytes())
        if key not in self.answers:
            start = time.perf_counter()
            self.answers[key] = self.detector(image)
            self.ms.append((time.perf_counter() - start) * 1000)
        return self.answers[key]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plans", nargs="+", help="one | ZOOMS[:flip][:all|zoom|best][:iou=X]")
    parser.add_argument("--data", type=Path, default=Path("datasets/generated/heldout"))
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--confs", default="0.3,0.35,0.4,0.5", help="operating confidences (comma-separated)")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    args = parser.parse_args(argv)
    base = OnnxDetector(args.model, conf=CURVE_CONF, threads=1)
    for spec in args.plans:
        plan = plan_from(spec)
        detector = Remembering(base if plan is None else ThoroughDetector(base, plan))
        for conf in (float(c) for c in args.confs.split(",")):
            summary = evaluate(args.data, None, args.limit, conf, CardReader(detector, None))
            print(f"{spec:18} conf {conf:<5} {_figures(summary)} | ms median {np.median(detector.ms):.0f}", flush=True)


def _figures(s: Summary) -> str:
    vis, width = s.recall_by_visibility, s.recall_by_width
    return (
        f"mAP50 {s.map50:.3f} mAP50-95 {s.map50_95:.3f} P {100 * s.precision.value:.1f} "
        f"R {100 * s.recall.value:.1f} | visible >=50% {100 * vis['>=50%'].value:.1f} "
        f"25-50% {100 * vis['25-50%'].value:.1f} 15-25% {100 * vis['15-25%'].value:.1f} | width <50px "
        f"{100 * width['<50px'].value:.1f} 50-80px {100 * width['50-80px'].value:.1f} >=80px "
        f"{100 * width['>=80px'].value:.1f}"
    )


if __name__ == "__main__":
    main()

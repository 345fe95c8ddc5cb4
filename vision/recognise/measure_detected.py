"""The recogniser through the shipped detector's boxes, with and without the candidate search, in one process.

Runs ``ligretto eval``'s scoring twice over the same labelled scenes, the same detector and the same networks:
once reading each detection through its own box only, once with :mod:`vision.recognise.quads`' candidates
(the shipped default), and prints both identity figures and the recogniser's milliseconds per image (median
and 90th percentile; the ratio is the figure to quote on a loaded machine). Choose settings on train-split
renders (``ligretto synth images --split train``), not on the held-out scenes.

    python -m vision.recognise.measure_detected datasets/generated/heldout --limit 100
    python -m vision.recognise.measure_detected datasets/generated/heldout --limit 100 --faces-only

``--faces-only`` times what a replay recognises on every frame during play (faces; backs are counted at the
end of a round).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.detect import Detector, load_detector
from vision.detect.pipeline import CardReader
from vision.detections import FACE, CardDetections
from vision.evaluate import evaluate
from vision.evaluate.run import CURVE_CONF
from vision.evaluate.scoring import Summary
from vision.recognise.models import BACKS_MODEL, FACES_MODEL
from vision.recognise.recogniser import Recogniser


def lines(name: str, summary: Summary) -> list[str]:
    """The identity figures and the recogniser's time of one run, one line each."""
    ms = summary.recognise_ms
    return [
        f"{name}: face identity (>=60% vis.) {summary.face_identity}",
        f"{name}: back identity (>=60% vis.) {summary.back_identity}; 15-60% vis. {summary.back_identity_partly}",
        f"{name}: strangers named {summary.strangers_named}; 6/9 confusions {summary.six_nine_confusion}",
        f"{name}: recognise ms median / p90 {ms[0]:.1f} / {ms[1]:.1f}",
    ]


def _faces_of(detector: Detector) -> Detector:
    def faces(image: npt.NDArray[np.uint8]) -> CardDetections:
        detections = detector(image)
        return detections[detections.kind == FACE]

    return faces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="dataset folder written by 'ligretto synth images'")
    parser.add_argument("--limit", type=int, help="at most this many scenes (in name order)")
    parser.add_argument("--faces-model", type=Path, default=FACES_MODEL)
    parser.add_argument("--backs-model", type=Path, default=BACKS_MODEL)
    parser.add_argument(
        "--faces-only", action="store_true", help="drop the backs the detector finds (a frame during play)"
    )
    args = parser.parse_args()
    found = load_detector("onnx", None, CURVE_CONF)
    detector = _faces_of(found) if args.faces_only else found
    medians = []
    for name, search in (("own box", False), ("searched", True)):
        recogniser = Recogniser(faces_model=args.faces_model, backs_model=args.backs_model, search=search)
        summary = evaluate(args.data, None, args.limit, 0.4, CardReader(detector, recogniser))
        print("\n".join(lines(name, summary)), flush=True)
        medians.append(summary.recognise_ms[0])
    print(f"searched / own box, recognise ms median: {medians[1] / max(medians[0], 1e-9):.2f}x")


if __name__ == "__main__":
    main()

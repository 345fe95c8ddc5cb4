"""Faces read in a rendered round's frames, against the truth, by how each face's colour fit turned out.

Held-out scenes hold few stacks; a round in play is mostly stacks of one colour, where a face's colour fit can
take the cards under the top as well (:attr:`vision.recognise.refine.FaceFit.one_card` false). This reads every
``--every``-th frame of rendered rounds (``ligretto synth video`` writes the truth, ``VIDEO.frames.jsonl``,
beside each video) with the shipped detector and recogniser, matches each face found to the card it boxes (the
truth card of the largest rotated IoU, at least ``MIN_IOU``, with the part of the card inside the picture, as the
detector learnt to box it), keeps the still faces at least ``--min-visible`` visible, and prints per kind of fit
(none, one card, several cards) how many were read, how many wrongly, how many wrongly at ``SURE`` or surer
(what the referee cannot vote away), and how many rightly that surely; then the same for the faces the
picture's edge cuts (a seat's row at the border), whatever their fit.

    python -m vision.recognise.measure_replay                       # the committed sample round
    python -m vision.recognise.measure_replay out/eval/videos/p4-s100002-m0.05-x1-1280x720-fast.mp4 --every 5
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from referee.cards import COLOURS
from vision.detect import load_detector
from vision.detect.geometry import polygon_iou
from vision.detections import FACE
from vision.oracle import truth_frames_path
from vision.recognise.recogniser import Recogniser
from vision.render.export import frame_box

SAMPLE = Path("datasets/samples/round.mp4")
MIN_IOU = 0.6
SURE = 0.8
FITS = ("no fit", "one card", "several cards")
EDGE = "cut by edge"


def measure(videos: Sequence[Path], every: int = 5, min_visible: float = 0.6, quiet: bool = False) -> Counter[str]:
    """Counts keyed ``"<fit>|read"``, ``"<fit>|wrong"``, ``"<fit>|wrong_sure"``, ``"<fit>|right_sure"``, and the
    same for ``EDGE`` (faces the picture's edge cuts, also counted under their fit)."""
    detector = load_detector("onnx")
    recogniser = Recogniser()
    counts: Counter[str] = Counter()
    for video in videos:
        truth_path = truth_frames_path(video)
        if not truth_path.exists():
            raise SystemExit(f"error: {truth_path} not found: measure rendered rounds (ligretto synth video)")
        truth = [json.loads(line) for line in truth_path.open()]
        capture = cv2.VideoCapture(str(video))
        if not capture.isOpened():
            raise SystemExit(f"error: {video} cannot be read as a video")
        for index in tqdm(range(len(truth)), desc=video.name, unit="frame", disable=quiet):
            ok, image = capture.read()
            if not ok:
                break
            if index % every == 0:
                picture = np.asarray(image, np.uint8)
                counts.update(_frame_counts(picture, truth[index]["cards"], detector, recogniser, min_visible))
    return counts


def _frame_counts(
    image: npt.NDArray[np.uint8], cards: Iterable[dict[str, Any]], detector: Any, recogniser: Recogniser, floor: float
) -> Counter[str]:
    found = detector(image)
    fits = recogniser.fits(image, found)
    read = recogniser(image, found, fits=fits)
    size = (image.shape[1], image.shape[0])
    # each card as the detector learnt to box it: the part inside the picture
    shown = [(frame_box(card["corners"], size), card) for card in cards if card["visible"] > 0.02]
    counts: Counter[str] = Counter()
    for i in np.flatnonzero(read.kind == FACE):
        centre = found.corners[i].mean(axis=0)
        near = [(box, c) for box, c in shown if np.hypot(*(box.mean(axis=0) - centre)) < 60]
        if not near:
            continue
        overlap, box, card = max(((polygon_iou(b, found.corners[i]), b, c) for b, c in near), key=lambda p: p[0])
        if card["kind"] != "face" or card["moving"] or card["visible"] < floor or overlap < MIN_IOU:
            continue
        fit = fits[i]
        kind = FITS[0] if fit is None else FITS[1] if fit.one_card else FITS[2]
        cut = not np.allclose(box, np.asarray(card["corners"], np.float64))
        colour = COLOURS[read.colour[i]].value if read.colour[i] >= 0 else None
        right = (colour, int(read.number[i])) == (card["colour"], card["number"])
        sure = float(read.identity_confidence[i]) >= SURE
        for key in (kind, EDGE) if cut else (kind,):
            counts.update({f"{key}|read": 1, f"{key}|wrong": not right})
            counts.update({f"{key}|wrong_sure": not right and sure, f"{key}|right_sure": right and sure})
    return counts


def lines(counts: Counter[str]) -> list[str]:
    """One line per kind of fit, then all faces, then those the picture's edge cuts."""
    out = []
    for kind in (*FITS, "all", EDGE):
        keys = FITS if kind == "all" else (kind,)
        read, wrong, wrong_sure, right_sure = (
            sum(counts[f"{k}|{what}"] for k in keys) for what in ("read", "wrong", "wrong_sure", "right_sure")
        )
        share = f"{100 * (read - wrong) / read:.2f} %" if read else "n/a"
        out.append(
            f"{kind:>13}: {read} faces read, right {share}; wrong {wrong} ({wrong_sure} at >= {SURE}); "
            f"right at >= {SURE}: {right_sure}"
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("videos", type=Path, nargs="*", default=[SAMPLE], help=f"rendered rounds (default {SAMPLE})")
    parser.add_argument("--every", type=int, default=5, help="read every N-th frame (default 5)")
    parser.add_argument("--min-visible", type=float, default=0.6, help="faces at least this visible (default 0.6)")
    args = parser.parse_args(argv)
    if args.every < 1:
        parser.error("--every must be 1 or more")
    print("\n".join(lines(measure(args.videos, args.every, args.min_visible))))


if __name__ == "__main__":
    main()

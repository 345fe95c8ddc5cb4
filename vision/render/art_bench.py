"""Speed of the card art: milliseconds per face and per back, warm (cached print) and cold (new style).

python -m vision.render.art_bench --height 120 --n 4000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from referee.backs import Catalogue
from referee.cards import FULL_SET
from vision.render.back_art import BackLook, render_back
from vision.render.card_art import FaceStyle, render_face


def _ms_per_call(calls: int, run: Callable[[int], object]) -> tuple[float, float]:
    """(wall, CPU) milliseconds per call; CPU time is the fairer figure on a machine shared with other jobs."""
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(calls):
        run(i)
    return (time.perf_counter() - start) * 1000 / calls, (time.process_time() - cpu) * 1000 / calls


def bench(height: int = 120, n: int = 4000, styles: int = 8) -> dict[str, tuple[float, float]]:
    """ms per card for: faces and backs with the print cached (the usual case: a style per deck or scene),
    and faces and backs of a style never seen before (every print drawn from scratch)."""
    rng = np.random.default_rng(0)
    face_styles = [FaceStyle.random(np.random.default_rng(s)) for s in range(styles)]
    looks = [BackLook.for_design(d) for d in Catalogue.default()]
    for style in face_styles:  # warm-up: fill the caches
        for card in FULL_SET:
            render_face(card, height, rng, style)
    for look in looks:
        render_back(look, height, rng)
    results = {
        "face_warm": _ms_per_call(n, lambda i: render_face(FULL_SET[i % 40], height, rng, face_styles[i % styles])),
        "back_warm": _ms_per_call(n, lambda i: render_back(looks[i % len(looks)], height, rng)),
    }
    cold = max(n // 20, 20)
    fresh_styles = [FaceStyle.random(np.random.default_rng(10_000 + i)) for i in range(cold)]
    fresh_looks = [BackLook.random(np.random.default_rng(10_000 + i)) for i in range(cold)]
    results["face_cold"] = _ms_per_call(cold, lambda i: render_face(FULL_SET[i % 40], height, rng, fresh_styles[i]))
    results["back_cold"] = _ms_per_call(cold, lambda i: render_back(fresh_looks[i], height, rng))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--height", type=int, default=120, help="card height in pixels (default 120)")
    parser.add_argument("--n", type=int, default=4000, help="warm renders per kind (default 4000)")
    args = parser.parse_args(argv)
    for name, (wall, cpu) in bench(args.height, args.n).items():
        print(f"{name:14s} {wall:7.3f} ms/card wall, {cpu:7.3f} ms/card CPU, at height {args.height}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

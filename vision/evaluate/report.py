"""Writing an evaluation out: the printed table, the per-image CSV and the confusion-matrix PNG."""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from referee.cards import FULL_SET
from vision.evaluate.scoring import UNKNOWN, ImageRow, Summary


def table(summary: Summary) -> str:
    """The figures as aligned text lines."""
    lines = [
        f"images                      {summary.images}",
        f"labelled cards              {summary.cards}",
        f"mAP50-95                    {summary.map50_95:.4f}  "
        + "  ".join(f"{k} {v:.4f}" for k, v in summary.ap50_95_by_kind.items()),
        f"mAP50                       {summary.map50:.4f}",
        f"precision                   {summary.precision}",
        f"recall (all)                {summary.recall}",
    ]
    lines += [f"recall, visible {name:11} {rate}" for name, rate in summary.recall_by_visibility.items()]
    lines += [f"recall, width {name:13} {rate}" for name, rate in summary.recall_by_width.items()]
    lines += [
        f"face identity (>=60% vis.)  {summary.face_identity}",
        f"6/9 confusions              {summary.six_nine_confusion}",
        f"back identity (>=60% vis.)  {summary.back_identity}",
        f"back identity (15-60% vis.) {summary.back_identity_partly}",
        f"strangers named (not in catalogue) {summary.strangers_named}",
        f"detect ms median / p90      {summary.detect_ms[0]:.1f} / {summary.detect_ms[1]:.1f}",
        f"recognise ms median / p90   {summary.recognise_ms[0]:.1f} / {summary.recognise_ms[1]:.1f}",
    ]
    return "\n".join(lines)


def write_csv(rows: Sequence[ImageRow], path: Path) -> None:
    """One row per image: counts of each kind of mistake, what they were, and the stage timings."""
    names = [f.name for f in dataclasses.fields(ImageRow)]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(names)
        for row in rows:
            writer.writerow([getattr(row, n) for n in names])


def confusion_png(summary: Summary, path: Path) -> None:
    """Two confusion matrices (faces: 40 cards + unknown; backs: every id seen + unknown), row-normalised."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    faces = [str(card) for card in FULL_SET] + [UNKNOWN]
    backs = [*sorted({t for t, _ in summary.back_pairs} | {p for _, p in summary.back_pairs} - {UNKNOWN}), UNKNOWN]
    figure, axes = plt.subplots(1, 2, figsize=(22, 10), gridspec_kw={"width_ratios": [3, 2]})
    _draw(axes[0], summary.face_pairs, faces, "faces: truth (rows) vs read (columns)")
    _draw(axes[1], summary.back_pairs, backs, "backs: truth (rows) vs read (columns)")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)


def _draw(axis: object, pairs: list[tuple[str, str]], labels: list[str], title: str) -> None:
    index = {name: i for i, name in enumerate(labels)}
    counts = np.zeros((len(labels), len(labels)))
    for truth, read in pairs:
        counts[index.get(truth, len(labels) - 1), index.get(read, len(labels) - 1)] += 1
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    ax = axis  # a matplotlib Axes
    ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)  # type: ignore[attr-defined]
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)  # type: ignore[attr-defined]
    ax.set_yticks(range(len(labels)), labels, fontsize=7)  # type: ignore[attr-defined]
    ax.set_title(title)  # type: ignore[attr-defined]
    for r, c in zip(*np.nonzero((counts > 0) & ~np.eye(len(labels), dtype=bool)), strict=True):
        ax.text(c, r, int(counts[r, c]), ha="center", va="center", fontsize=6, color="red")  # type: ignore[attr-defined]

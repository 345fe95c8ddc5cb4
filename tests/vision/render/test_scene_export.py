"""The dataset on disk: OBB labels ultralytics accepts, JSON labels, crops with their CSV, by seed, from the CLI."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from referee.cli.main import main
from vision.render.dataset import build_dataset, render_example
from vision.render.export import frame_box, obb_line

SIZE = (192, 192)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth")
    build_dataset(out, n=6, seed=40, split="train", size=SIZE, workers=2, progress=False)
    return out


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "dataset.yaml"
    }


def test_same_seed_same_picture_and_labels() -> None:
    (_, a), (_, b) = render_example(7, "train", SIZE), render_example(7, "train", SIZE)
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels
    _, other = render_example(8, "train", SIZE)
    assert not np.array_equal(a.image, other.image)


def test_two_workers_write_exactly_what_one_writes(dataset: Path, tmp_path: Path) -> None:
    build_dataset(tmp_path, n=6, seed=40, split="train", size=SIZE, workers=1, progress=False)
    assert _digest(tmp_path) == _digest(dataset)


def test_ultralytics_accepts_every_obb_label_file(dataset: Path) -> None:
    from ultralytics.data.utils import verify_image_label

    labels = sorted((dataset / "labels" / "train").glob("*.txt"))
    assert len(labels) == 6
    for label in labels:
        image = dataset / "images" / "train" / f"{label.stem}.jpg"
        result = verify_image_label((str(image), str(label), "", False, 2, 0, 0, False))
        corrupt, message = result[8], result[9]
        assert corrupt == 0, message
    lines = [line.split() for p in labels for line in p.read_text().splitlines()]
    assert lines and all(len(line) == 9 and line[0] in ("0", "1") for line in lines)
    assert all(0.0 <= float(v) <= 1.0 for line in lines for v in line[1:])


def test_json_labels_follow_the_detect_contract(dataset: Path) -> None:
    record = json.loads((dataset / "scenes" / "train" / "train_00000040.json").read_text())
    assert (record["width"], record["height"]) == SIZE
    assert record["image"] == "images/train/train_00000040.jpg"
    for card in record["cards"]:
        assert card["kind"] in ("face", "back")
        assert len(card["corners"]) == 4
        assert 0.0 <= card["visible"] <= 1.0
        if card["kind"] == "face":
            assert card["colour"] in ("red", "yellow", "green", "blue") and 1 <= card["number"] <= 10
            assert card["back"] is None
        else:
            assert card["colour"] is None and card["back"] == card["owner"]


def test_every_crop_is_listed_with_its_identity(dataset: Path) -> None:
    with (dataset / "crops" / "train.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    files = sorted(p.name for p in (dataset / "crops" / "train").glob("*.png"))
    assert sorted(Path(row["crop"]).name for row in rows) == files
    assert all(float(row["visible"]) >= 0.3 for row in rows)
    assert all((row["kind"] == "face") == bool(row["colour"]) for row in rows)


def test_dataset_yaml_names_the_two_classes(dataset: Path) -> None:
    text = (dataset / "dataset.yaml").read_text()
    assert "train: images/train" in text and "0: face" in text and "1: back" in text


def test_a_card_half_out_of_the_frame_is_boxed_inside_it() -> None:
    box = frame_box([[-50, 10], [50, 10], [50, 110], [-50, 110]], (200, 200))
    assert box[:, 0].min() == pytest.approx(0.0) and box[:, 0].max() == pytest.approx(50.0)
    line = obb_line(1, box, (200, 200)).split()
    assert line[0] == "1" and all(0.0 <= float(v) <= 1.0 for v in line[1:])


def test_the_committed_dataset_config_points_at_generated_data() -> None:
    config = Path(__file__).resolve().parents[3] / "datasets" / "ligretto-obb.yaml"
    text = config.read_text()
    assert "generated/ligretto-obb" in text and "0: face" in text and "1: back" in text


def test_cli_writes_a_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["synth", "images", "--n", "2", "--seed", "3", "--size", "128", "--workers", "1", "--quiet",
                 "--split", "heldout", "--out", str(tmp_path)])  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "images" / "heldout").iterdir()) == [
        "heldout_00000003.jpg",
        "heldout_00000004.jpg",
    ]
    assert "wrote 2 images" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--n", "0"], "--n must be at least 1"),
        (["--size", "12"], "must be 64..4096"),
        (["--size", "big"], "must be a number"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--min-visible", "2"], "--min-visible must be 0..1"),
    ],
)
def test_cli_bad_options_give_one_line_and_a_nonzero_exit(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["synth", "images", "--out", str(tmp_path), "--quiet", *args])
    err = capsys.readouterr().err
    assert code != 0
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_cannot_write_into_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code = main(["synth", "images", "--n", "1", "--out", str(blocker / "sub"), "--quiet"])
    assert code != 0 and "cannot create output folder" in capsys.readouterr().err


def test_bench_reports_rates_without_judging_them() -> None:
    from vision.render.bench import bench_images

    figures = bench_images(n=2, size=128, workers=1, warmup=0)
    assert figures["images"] == 2 and figures["size"] == "128x128"
    assert figures["images_per_s"] > 0 and figures["cpu_ms_per_image"] > 0


def test_stills_come_with_their_labels(tmp_path: Path) -> None:
    from vision.render.samples import write_stills

    [still] = write_stills(tmp_path, [2], size=(320, 180))
    record = json.loads(still.with_suffix(".json").read_text())
    assert record["image"] == still.name and (record["width"], record["height"]) == (320, 180)
    assert all(len(card["corners"]) == 4 for card in record["cards"])

"""Enrolling a back from photos: finding the one back, refusing unusable photos, updating the catalogue."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from referee.backs import Catalogue
from referee.cards import Card
from referee.cli.main import main
from referee.errors import InputFileError
from vision.recognise.backs import BackEmbedder
from vision.recognise.enrol import EnrolmentError, card_quads, enrol, find_back
from vision.recognise.photos import card_quad, place, table
from vision.render.back_art import BackLook, render_back
from vision.render.card_art import render_face


class NeverAFace:
    """Stands in for the face network where a test is about geometry only."""

    def read(self, crops: np.ndarray) -> SimpleNamespace:
        return SimpleNamespace(face=np.zeros(len(crops), np.float32))


def back_photo(path: Path, cards: list[tuple[tuple[float, float], float]], seed: int = 3, face: bool = False) -> Path:
    """A photo of backs (or one face) of the random design ``seed`` at (centre, angle) on a plain table."""
    rng = np.random.default_rng(seed)
    look = BackLook.random(np.random.default_rng([seed, 13]))
    photo = table()
    for centre, angle in cards:
        art = render_face(Card.parse("g6"), 300, rng) if face else render_back(look, 300, rng)
        place(photo, art, card_quad(centre, 180, angle))
    cv2.imwrite(str(path), photo)
    return path


@pytest.mark.parametrize("angle", [0.0, 25.0, 90.0, 160.0])
def test_outline_finder_returns_the_card_as_a_portrait_quad(angle: float) -> None:
    photo = table()
    place(photo, render_back(BackLook.random(np.random.default_rng(1)), 300, np.random.default_rng(0)),
          truth := card_quad((320, 240), 180, angle))  # fmt: skip
    (quad,) = card_quads(photo)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    assert sides[0] < sides[1]  # the top edge is a short side
    nearest = [np.linalg.norm(truth - corner, axis=1).min() for corner in quad]
    assert max(nearest) < 8


@pytest.mark.parametrize(
    ("cards", "face", "message"),
    [
        ([], False, "no card found"),
        ([((180, 240), 0.0), ((460, 240), 10.0)], False, "shows 2 cards"),
    ],
)
def test_unusable_photos_are_refused_with_the_reason(
    tmp_path: Path, cards: list[tuple[tuple[float, float], float]], face: bool, message: str
) -> None:
    path = back_photo(tmp_path / "photo.png", cards, face=face)
    with pytest.raises(EnrolmentError, match=message):
        find_back("photo.png", cv2.imread(str(path)), NeverAFace())  # type: ignore[arg-type]


def test_a_face_is_refused_by_the_face_network(tmp_path: Path, shipped_models: None) -> None:
    from vision.recognise.faces import FaceReader

    path = back_photo(tmp_path / "face.png", [((320, 240), 5.0)], face=True)
    with pytest.raises(EnrolmentError, match="shows a face"):
        find_back("face.png", cv2.imread(str(path)), FaceReader())


def test_first_enrolment_creates_the_catalogue_and_a_known_name_is_replaced(tmp_path: Path, tiny_models: Path) -> None:
    embedder = BackEmbedder(tiny_models / "recogniser-backs.onnx")
    photos = [back_photo(tmp_path / f"p{i}.png", [((320, 240), 30.0 * i)]) for i in range(3)]
    file = tmp_path / "backs.json"
    first = enrol(photos, "Grandma's Blue", file, embedder, NeverAFace())  # type: ignore[arg-type]
    assert not first.replaced and first.design.id == "grandma-s-blue" and first.design.name == "Grandma's Blue"
    assert len(first.design.appearance) == 3 and len(first.design.appearance[0]) == embedder.dimension
    second = enrol(photos[:1], "red-pink", file, embedder, NeverAFace())  # type: ignore[arg-type]
    catalogue = Catalogue.load(file)
    assert second.replaced and len(catalogue) == 13
    assert catalogue["red-pink"].box == "red" and len(catalogue["red-pink"].appearance) == 1


@pytest.mark.parametrize("count", [0, 6])
def test_enrolment_needs_one_to_five_photos(tmp_path: Path, count: int, tiny_models: Path) -> None:
    embedder = BackEmbedder(tiny_models / "recogniser-backs.onnx")
    with pytest.raises(EnrolmentError, match="1 to 5 photos"):
        enrol([tmp_path / "x.png"] * count, "x", tmp_path / "c.json", embedder, NeverAFace())  # type: ignore[arg-type]


def test_an_unreadable_photo_names_the_file(tmp_path: Path, tiny_models: Path) -> None:
    (tmp_path / "broken.jpg").write_bytes(b"not a picture")
    embedder = BackEmbedder(tiny_models / "recogniser-backs.onnx")
    with pytest.raises(InputFileError, match=r"broken\.jpg"):
        enrol([tmp_path / "broken.jpg"], "x", tmp_path / "c.json", embedder, NeverAFace())  # type: ignore[arg-type]
    assert not (tmp_path / "c.json").exists()


def test_cli_enrols_and_reports(tmp_path: Path, shipped_models: None, capsys: pytest.CaptureFixture[str]) -> None:
    photos = [str(back_photo(tmp_path / f"p{i}.png", [((320, 240), 40.0 * i)], seed=5)) for i in range(2)]
    file = tmp_path / "mine.json"
    assert main(["backs", "enrol", *photos, "--name", "Our Backs", "--catalogue", str(file), "--no-detector"]) == 0
    out = capsys.readouterr().out
    assert "added 'our-backs' (2 photos)" in out and "most similar other design" in out
    assert [b["id"] for b in json.loads(file.read_text())["backs"]][-1] == "our-backs"


def test_cli_refusal_is_one_line_and_saves_nothing(
    tmp_path: Path, shipped_models: None, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = str(back_photo(tmp_path / "two.png", [((180, 240), 0.0), ((460, 240), 0.0)]))
    code = main(["backs", "enrol", photo, "--name", "x", "--catalogue", str(tmp_path / "c.json"), "--no-detector"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "shows 2 cards" in err
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize(
    ("centres", "expected"),
    [
        ([(320, 240)], 1),
        ([(320, 240), (326, 236), (314, 245)], 1),  # one close-up card boxed three times over
        ([(180, 240), (460, 240)], 2),
        ([(180, 240), (185, 242), (460, 240)], 2),
    ],
)
def test_overlapping_detections_of_one_card_count_once(centres: list[tuple[float, float]], expected: int) -> None:
    from vision.detections import BACK, CardDetections
    from vision.recognise.enrol import distinct_cards

    quads = [card_quad(c, 180, 0.0) for c in centres]
    found = CardDetections.from_quads(quads, [BACK] * len(quads), np.linspace(0.9, 0.5, len(quads)))
    assert len(distinct_cards(found)) == expected

"""Back designs and catalogues: the default 12 backs, the file format, enrolment replacing a design."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.backs import (
    DEFAULT_BACKS,
    DEFAULT_CATALOGUE_PATH,
    BackDesign,
    Catalogue,
    back_id_from_name,
    catalogue_file,
)
from referee.errors import CatalogueError, NotationError, SetupError


def test_the_default_catalogue_holds_the_twelve_backs_of_three_boxes() -> None:
    catalogue = Catalogue.default()
    assert len(catalogue) == 12 == len(set(catalogue.ids))
    assert {b.box for b in catalogue} == {"red", "blue", "green"}
    for box in ("red", "blue", "green"):
        assert sum(1 for b in catalogue if b.box == box) == 4


@pytest.mark.parametrize("lettering", ["purple", "green"])
def test_a_lettering_colour_in_two_boxes_differs_by_symbol(lettering: str) -> None:
    twins = [b for b in DEFAULT_BACKS if b.lettering == lettering]
    assert len(twins) == 2
    assert twins[0].symbol != twins[1].symbol and twins[0].id != twins[1].id


def test_a_catalogue_file_round_trips(tmp_path: Path) -> None:
    enrolled = BackDesign("grandmas-blue", name="Grandma's blue", appearance=((0.25, 0.5), (0.75, 1.0)))
    catalogue = Catalogue.default().with_design(enrolled)
    path = tmp_path / "nested" / "catalogue.json"
    catalogue.save(path)
    loaded = Catalogue.load(path)
    assert loaded == catalogue
    assert loaded["grandmas-blue"].appearance == ((0.25, 0.5), (0.75, 1.0))
    assert loaded["grandmas-blue"].label == "Grandma's blue" and loaded["grandmas-blue"].enrolled
    assert not (tmp_path / "nested" / "catalogue.json.tmp").exists()


def test_enrolling_photos_of_a_known_back_replaces_its_look_and_keeps_its_description() -> None:
    photos = ((0.1, 0.2, 0.3),)
    catalogue = Catalogue.default().with_design(BackDesign("blue-orange", appearance=photos))
    assert len(catalogue) == 12
    back = catalogue["blue-orange"]
    assert (back.box, back.symbol, back.lettering, back.appearance) == ("blue", "balls", "orange", photos)
    assert catalogue.ids == Catalogue.default().ids  # replaced in place, order kept
    assert not Catalogue.default()["blue-orange"].enrolled  # the original catalogue is unchanged


def test_a_new_back_is_added_at_the_end() -> None:
    catalogue = Catalogue.default().with_design(BackDesign("holiday-deck"))
    assert catalogue.ids[-1] == "holiday-deck" and len(catalogue) == 13


def test_load_or_default_falls_back_to_the_twelve_backs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert Catalogue.load_or_default(None) == Catalogue.default()
    assert Catalogue.load_or_default(tmp_path / "absent.json") == Catalogue.default()
    assert catalogue_file() is None


def test_the_enrolled_catalogue_of_the_working_folder_is_the_one_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    enrolled = Catalogue.default().with_design(BackDesign("holiday-deck"))
    enrolled.save(DEFAULT_CATALOGUE_PATH)
    assert catalogue_file() == DEFAULT_CATALOGUE_PATH
    assert Catalogue.in_use() == Catalogue.load_or_default() == enrolled
    Catalogue.default().save(tmp_path / "mine.json")
    assert Catalogue.in_use(tmp_path / "mine.json") == Catalogue.default()  # --catalogue wins


def test_a_catalogue_named_on_the_command_line_must_be_readable(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match=r"cannot read catalogue .*absent\.json"):
        Catalogue.in_use(tmp_path / "absent.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "object with a list of backs"),
        ('{"backs": {}}', "object with a list of backs"),
        ('{"version": 7, "backs": []}', "version 7"),
        ('{"backs": [{"box": "red"}]}', "must be an object with an id"),
        ('{"backs": [{"id": "Bad Id!"}]}', "back id 'Bad Id!'"),
        ('{"backs": [{"id": "a"}, {"id": "a"}]}', "duplicate back 'a'"),
        ('{"backs": [{"id": "a", "appearance": [["x"]]}]}', "appearance must be lists of numbers"),
    ],
)
def test_a_malformed_catalogue_names_the_file_and_the_problem(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "backs.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogueError, match=message) as caught:
        Catalogue.load(path)
    assert str(path) in str(caught.value)


def test_an_unreadable_catalogue_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="cannot read catalogue"):
        Catalogue.load(tmp_path / "missing.json")
    with pytest.raises(CatalogueError, match="cannot read catalogue"):
        Catalogue.load(tmp_path)  # a directory


def test_an_unknown_back_lists_the_known_ones() -> None:
    with pytest.raises(CatalogueError, match="unknown back 'nobody'; known: red-red"):
        Catalogue.default()["nobody"]


def test_duplicate_backs_cannot_make_a_catalogue() -> None:
    with pytest.raises(SetupError, match="duplicate back"):
        Catalogue([BackDesign("a"), BackDesign("a")])


@pytest.mark.parametrize(
    ("name", "back_id"), [("Grandma's Blue", "grandma-s-blue"), ("  Holiday 2024 ", "holiday-2024"), ("X", "x")]
)
def test_a_users_name_becomes_a_back_id(name: str, back_id: str) -> None:
    assert back_id_from_name(name) == back_id


@pytest.mark.parametrize("name", ["", "!!!", "   "])
def test_a_name_without_letters_or_digits_is_refused(name: str) -> None:
    with pytest.raises(NotationError):
        back_id_from_name(name)


def test_the_json_of_a_design_omits_what_is_empty() -> None:
    assert BackDesign("a").to_json() == {"id": "a", "box": "custom", "symbol": "unknown", "lettering": "unknown"}
    assert json.loads(json.dumps(Catalogue.default().to_json()))["version"] == 1

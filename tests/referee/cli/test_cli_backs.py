"""``ligretto backs list``: the catalogue in play; a bad catalogue gives one error line and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.backs import DEFAULT_CATALOGUE_PATH, BackDesign, Catalogue
from referee.cli.main import main


def test_backs_list_without_a_catalogue_file_shows_the_built_in_twelve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["backs", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("catalogue: built-in")
    assert lines[1].split() == ["id", "box", "symbol", "lettering", "photos", "name"]
    assert [line.split()[0] for line in lines[2:-1]] == list(Catalogue.default().ids)
    assert lines[-1] == "12 backs"


def test_backs_list_shows_the_catalogue_enrolment_wrote_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Catalogue.default().with_design(BackDesign("grandma", name="Grandma")).save(DEFAULT_CATALOGUE_PATH)
    assert main(["backs", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"catalogue: {DEFAULT_CATALOGUE_PATH}"
    assert lines[-2].split()[0] == "grandma" and lines[-1] == "13 backs"
    assert main(["backs", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["catalogue"] == str(DEFAULT_CATALOGUE_PATH) and len(listed["backs"]) == 13


def test_backs_list_reads_a_catalogue_file_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "backs.json"
    Catalogue.default().with_design(BackDesign("grandma", name="Grandma", appearance=((1.0, 2.0),))).save(path)
    assert main(["backs", "list", "--catalogue", str(path), "--json"]) == 0
    backs = json.loads(capsys.readouterr().out)["backs"]
    assert len(backs) == 13
    assert backs[-1] == {
        "id": "grandma",
        "box": "custom",
        "symbol": "unknown",
        "lettering": "unknown",
        "name": "Grandma",
        "photos": 1,
    }


def test_backs_without_an_action_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backs"]) == 2
    assert "list" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read catalogue"),
        ("{broken", "is not valid JSON"),
        ('{"backs": [{"id": "a"}, {"id": "a"}]}', "duplicate back 'a'"),
        ('{"backs": "all of them"}', "a list of backs"),
    ],
)
def test_an_unreadable_or_malformed_catalogue_is_one_clear_error_line(
    tmp_path: Path, content: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "backs.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["backs", "list", "--catalogue", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("ligretto: error: ") and message in captured.err and str(path) in captured.err

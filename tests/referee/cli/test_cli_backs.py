"""``ligretto backs list``: the catalogue in play; a bad catalogue gives one error line and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.backs import BackDesign, Catalogue
from referee.cli.main import main


def test_backs_list_shows_the_default_twelve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backs", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "box", "symbol", "lettering", "photos", "name"]
    assert [line.split()[0] for line in lines[1:-1]] == list(Catalogue.default().ids)
    assert lines[-1] == "12 backs"


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

"""Health, the OpenAPI schema, the token on control and upload endpoints, players, sessions and backs."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from referee.service.deps import get_settings
from referee.service.main import create_app
from referee.service.settings import Settings

CONTROLS = [
    ("post", "/api/rounds", None),
    ("post", "/api/rounds/current/stop", None),
    ("post", "/api/rounds/current/count", None),
    ("post", "/api/players", {"back": "red-red", "name": "Ada"}),
    ("post", "/api/sessions", {"name": "x"}),
    ("post", "/api/backs/enrol", {"name": "mine"}),
]


def test_health_says_the_pipeline_runs(make_client) -> None:
    health = make_client().get("/api/health").json()
    assert health["status"] == "ok" and health["pipeline"] is True and health["schema_version"] >= 1


def test_the_openapi_schema_documents_the_api(make_client) -> None:
    paths = make_client().get("/openapi.json").json()["paths"]
    for path in (
        "/api/health",
        "/api/state",
        "/api/rounds",
        "/api/rounds/current/stop",
        "/api/rounds/current/count",
        "/api/sessions/{session_id}/scores",
        "/api/events/log",
        "/api/replays",
        "/api/sessions/{session_id}/export.csv",
    ):
        assert path in paths, path
    assert "/api/events" in make_client().get("/openapi.json").json()["info"]["description"]


@pytest.mark.parametrize(("method", "path", "body"), CONTROLS)
def test_with_a_token_every_control_needs_it(make_client, method: str, path: str, body) -> None:
    client = make_client()
    client.app.dependency_overrides[get_settings] = lambda: Settings(token="s3cret")
    answer = getattr(client, method)(path, json=body) if body else getattr(client, method)(path)
    assert answer.status_code == 401
    wrong = getattr(client, method)(path, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401


@pytest.mark.parametrize(
    "how",
    [
        {"headers": {"Authorization": "Bearer s3cret"}},
        {"headers": {"X-Ligretto-Token": "s3cret"}},
        {"params": {"token": "s3cret"}},
    ],
)
def test_the_token_opens_the_controls(make_client, how) -> None:
    client = make_client(speed=1.0)
    client.app.dependency_overrides[get_settings] = lambda: Settings(token="s3cret")
    assert client.post("/api/rounds", **how).status_code == 201


def test_reading_needs_no_token(make_client) -> None:
    client = make_client()
    client.app.dependency_overrides[get_settings] = lambda: Settings(token="s3cret")
    for path in ("/api/health", "/api/state", "/api/sessions", "/api/backs", "/"):
        assert client.get(path).status_code == 200, path


def test_players_are_seated_renamed_and_unseated(make_client) -> None:
    client = make_client()
    assert client.post("/api/players", json={"back": "red-red", "name": "Ada"}).status_code == 201
    assert client.put("/api/players/red-red", json={"name": "Ada L."}).json() == {"back": "red-red", "name": "Ada L."}
    assert client.get("/api/players").json() == [{"back": "red-red", "name": "Ada L."}]
    assert client.delete("/api/players/red-red").status_code == 204
    assert client.delete("/api/players/red-red").status_code == 404
    assert client.put("/api/players/blue-blue", json={"name": "x"}).status_code == 404


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"back": "../etc/passwd", "name": "x"}, 422),
        ({"back": "Red Red", "name": "x"}, 422),
        ({"back": "red-red", "name": ""}, 422),
        ({"back": "red-red", "name": "x" * 41}, 422),
    ],
)
def test_bad_players_are_refused(make_client, body, status) -> None:
    assert make_client().post("/api/players", json=body).status_code == status


def test_a_new_session_becomes_current_and_joins_the_history(make_client) -> None:
    client = make_client()
    first = client.get("/api/state").json()["session"]
    created = client.post("/api/sessions", json={"name": "Friday", "rounds": None, "target": 50})
    assert created.status_code == 201
    session = created.json()
    assert (session["rounds"], session["target"]) == (None, 50)
    assert client.get("/api/state").json()["session"]["id"] == session["id"]
    assert [s["id"] for s in client.get("/api/sessions").json()] == [session["id"], first["id"]]
    assert client.get(f"/api/sessions/{session['id']}/scores").json()["settings"] == {"rounds": None, "target": 50}


@pytest.mark.parametrize(
    "body", [{"name": "x", "rounds": None, "target": None}, {"name": "x", "rounds": 0}, {"name": ""}]
)
def test_a_match_without_an_end_is_refused(make_client, body) -> None:
    assert make_client().post("/api/sessions", json=body).status_code == 422


def test_an_unknown_session_is_404(make_client) -> None:
    client = make_client()
    for path in (
        "/api/sessions/99",
        "/api/sessions/99/scores",
        "/api/sessions/99/events",
        "/api/sessions/99/export.csv",
    ):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["detail"] == "no session 99", path


def test_the_backs_list_the_default_catalogue(make_client) -> None:
    backs = make_client().get("/api/backs").json()
    assert len(backs) == 12 and {"red-red", "blue-purple", "green-brown"} <= {b["id"] for b in backs}


def test_enrolment_needs_a_picture_first(make_client) -> None:
    answer = make_client().post("/api/backs/enrol", json={"name": "grandma"})
    assert answer.status_code == 400 and "no camera picture yet" in answer.json()["detail"]


def test_the_page_and_its_files_are_served_locally(make_client) -> None:
    client = make_client()
    page = client.get("/").text
    assert '<script src="/static/app.js">' in page and "https://" not in page
    for name in ("app.js", "style.css"):
        body = client.get(f"/static/{name}").text
        assert "https://" not in body and "http://" not in body.replace("http://www.w3.org/2000/svg", "")


def test_an_app_without_the_pipeline_answers_503_for_the_table(tmp_path) -> None:
    app = create_app(Settings(run_pipeline=False, db=tmp_path / "t.db", data_dir=tmp_path / "d"))
    with TestClient(app) as client:
        assert client.get("/api/health").json()["pipeline"] is False
        assert client.get("/api/state").status_code == 503


def test_an_app_listening_beyond_localhost_needs_a_token(tmp_path) -> None:
    from referee.errors import SetupError

    with pytest.raises(SetupError, match="set a token"):
        create_app(Settings(host="0.0.0.0", run_pipeline=False, db=tmp_path / "t.db"))
    assert create_app(Settings(host="0.0.0.0", token="s3cret", run_pipeline=False, db=tmp_path / "t.db"))

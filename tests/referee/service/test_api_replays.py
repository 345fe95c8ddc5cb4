"""Replay uploads: type and size limits, server-chosen file names, progress, the summary and the report."""

from __future__ import annotations

from pathlib import Path

import pytest


def _upload(client, video: tuple[str, bytes], labels: tuple[str, bytes] | None = None):
    files = {"video": (video[0], video[1], "video/mp4")}
    if labels is not None:
        files["labels"] = (labels[0], labels[1], "application/x-ndjson")
    return client.post("/api/replays", files=files)


def test_an_uploaded_round_with_labels_is_replayed_with_a_report(make_client, wait_for, clip) -> None:
    client = make_client()
    answer = _upload(client, ("my round.mp4", clip["video"].read_bytes()), ("l.jsonl", clip["frames"].read_bytes()))
    assert answer.status_code == 202
    job = answer.json()
    assert job["oracle"] is True and job["name"] == "my round.mp4"
    done = wait_for(client, lambda j: j["status"] in ("done", "failed"), path=f"/api/replays/{job['id']}")
    assert done["status"] == "done", done["message"]
    assert done["progress"] == 1.0 and done["summary"]["scores"] == {"red-red": -1, "blue-blue": 2}
    report = client.get(done["report"])
    assert report.status_code == 200 and report.headers["content-type"].startswith("text/html")
    assert [j["id"] for j in client.get("/api/replays").json()] == [job["id"]]


@pytest.mark.parametrize(
    ("name", "content", "status", "says"),
    [
        ("notes.txt", b"hello", 415, "not a video file"),
        ("fake.mp4", b"<html>not a video</html>", 415, "does not look like a video"),
        ("../../etc/passwd.mp4", b"<html>", 415, "does not look like a video"),
    ],
)
def test_what_is_not_a_video_is_refused(make_client, tmp_path: Path, name, content, status, says) -> None:
    client = make_client()
    answer = _upload(client, (name, content))
    assert answer.status_code == status and says in answer.json()["detail"]
    assert not list((tmp_path / "data" / "replays").glob("*/*"))  # nothing left behind


def test_a_file_over_the_limit_is_refused(make_client, clip) -> None:
    client = make_client(max_upload_mb=0, max_labels_mb=0)
    answer = _upload(client, ("round.mp4", clip["video"].read_bytes() + b"\0" * (2 << 20)))
    assert answer.status_code == 413


def test_labels_that_are_not_json_lines_are_refused(make_client, clip) -> None:
    answer = _upload(make_client(), ("round.mp4", clip["video"].read_bytes()), ("l.jsonl", b"garbage"))
    assert answer.status_code == 415 and "JSON Lines" in answer.json()["detail"]


def test_an_unknown_replay_is_404(make_client) -> None:
    client = make_client()
    assert client.get("/api/replays/../../etc").status_code == 404
    assert client.get("/api/replays/abc/report").status_code == 404

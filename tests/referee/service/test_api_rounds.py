"""Rounds through the API: a filmed round refereed live, its events stored and streamed, scored and exported."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

from referee.tracker.voting import VotingSettings


def _scored(state: dict) -> bool:
    return state["round"] is not None and state["round"]["done"]


def test_a_filmed_round_is_refereed_scored_and_on_the_sheet(make_client, wait_for, seat_players) -> None:
    client = make_client()
    seat_players(client)
    assert client.post("/api/rounds").json()["number"] == 1
    state = wait_for(client, _scored)

    assert [(s["top"], s["height"]) for s in state["round"]["stacks"]] == [("r3", 3), ("b2", 2)]
    sheet = client.get(f"/api/sessions/{state['session']['id']}/scores").json()
    assert sheet["rounds"][0]["scores"] == {"red-red": -1, "blue-blue": 2}
    assert sheet["totals"] == {"red-red": -1, "blue-blue": 2}
    assert sheet["players"] == [{"back": "red-red", "name": "Ada"}, {"back": "blue-blue", "name": "Bob"}]
    types = [e["event"]["type"] for e in client.get("/api/events/log").json()]
    assert types[0] == "round_started" and "illegal_play" in types and types[-1] == "round_scored"


def test_the_websocket_streams_the_stored_log_then_says_ready(make_client, wait_for, seat_players) -> None:
    client = make_client()
    client.post("/api/rounds")
    wait_for(client, _scored)
    stored = client.get("/api/events/log").json()
    with client.websocket_connect("/api/events?since=2") as ws:
        messages = [ws.receive_json() for _ in range(len(stored) - 2 + 1)]
    assert [m["seq"] for m in messages[:-1]] == [e["seq"] for e in stored[2:]]
    assert messages[-1] == {"kind": "ready", "last": stored[-1]["seq"]}
    illegal = next(m for m in messages if m.get("event", {}).get("type") == "illegal_play")
    assert illegal["event"]["card"] == {"colour": "red", "number": 5}
    assert illegal["event"]["reason"] == "wrong_number"


def test_a_second_start_while_a_round_is_in_play_is_refused(make_client, wait_for, seat_players) -> None:
    client = make_client(speed=1.0)  # the 16 s clip at its own rate: still in play right after the start
    assert client.post("/api/rounds").status_code == 201
    refused = client.post("/api/rounds")
    assert refused.status_code == 409
    assert "still in play" in refused.json()["detail"]


def test_ligretto_stop_then_counts_by_hand_score_the_round(make_client, wait_for, seat_players) -> None:
    client = make_client(speed=1.0)
    seat_players(client)
    client.post("/api/rounds")
    stop = client.post("/api/rounds/current/stop").json()
    assert [e["type"] for e in stop["events"]] == ["round_stopped"]
    assert stop["events"][0]["reason"] == "signal"
    counted = client.post(
        "/api/rounds/current/count", json={"centre": {"red-red": 7, "blue-blue": 4}, "leftover": {"red-red": 3}}
    )
    assert counted.status_code == 200
    assert counted.json()["event"]["scores"] == {"red-red": 1, "blue-blue": 4}
    state = client.get("/api/state").json()
    assert state["round"]["done"] and state["scores"]["totals"] == {"red-red": 1, "blue-blue": 4}
    again = client.post("/api/rounds/current/stop")
    assert again.status_code == 409 and "already scored" in again.json()["detail"]


def test_counting_before_anything_was_spread_says_what_to_do(make_client, wait_for, seat_players) -> None:
    client = make_client(speed=1.0)
    client.post("/api/rounds")
    answer = client.post("/api/rounds/current/count")
    assert answer.status_code == 409
    assert "gather the centre" in answer.json()["detail"]


def test_impossible_counts_are_refused_with_the_reason(make_client, wait_for, seat_players) -> None:
    client = make_client(speed=1.0)
    seat_players(client)
    client.post("/api/rounds")
    answer = client.post("/api/rounds/current/count", json={"centre": {"red-red": 41}})
    assert answer.status_code == 422
    assert "outside 0..40" in answer.json()["detail"]


def test_controls_without_a_round_say_so(make_client, wait_for, seat_players) -> None:
    client = make_client()
    for path in ("/api/rounds/current/stop", "/api/rounds/current/count"):
        answer = client.post(path)
        assert answer.status_code == 409 and answer.json()["detail"] == "no round has been started"


def test_a_one_round_match_ends_with_its_winner_and_refuses_more_rounds(make_client, wait_for, seat_players) -> None:
    client = make_client(rounds=1)
    seat_players(client)
    client.post("/api/rounds")
    state = wait_for(client, _scored)
    assert state["scores"]["complete"] and state["scores"]["winners"] == ["blue-blue"]
    assert state["scores"]["ended_by"] == "rounds"
    refused = client.post("/api/rounds")
    assert refused.status_code == 409 and "match is over" in refused.json()["detail"]


def test_rounds_accumulate_into_running_totals_for_the_chart(make_client, wait_for, seat_players) -> None:
    client = make_client()
    seat_players(client)
    for number in (1, 2):
        assert client.post("/api/rounds").json()["number"] == number
        wait_for(client, lambda s, n=number: _scored(s) and s["round"]["number"] == n)
    sheet = client.get("/api/state").json()["scores"]
    assert sheet["running_totals"] == [{"red-red": -1, "blue-blue": 2}, {"red-red": -2, "blue-blue": 4}]
    assert not sheet["complete"] and sheet["leaders"] == ["blue-blue"]


def test_exports_carry_the_sheet_and_the_log(make_client, wait_for, seat_players) -> None:
    client = make_client(rounds=1)
    seat_players(client)
    client.post("/api/players", json={"back": "red-red", "name": "=HYPERLINK(evil)"})
    client.post("/api/rounds")
    session = wait_for(client, _scored)["session"]["id"]

    rows = list(csv.reader(io.StringIO(client.get(f"/api/sessions/{session}/export.csv").text)))
    assert rows[0] == ["round", "back", "player", "centre", "leftover", "score"]
    assert ["1", "red-red", "'=HYPERLINK(evil)", "3", "2", "-1"] in rows
    assert ["winner", "blue-blue", "Bob", "", "", "2"] in rows
    data = client.get(f"/api/sessions/{session}/export.json").json()
    assert data["scores"]["winners"] == ["blue-blue"]
    assert data["events"][-1]["event"]["type"] == "round_scored"


def test_the_live_picture_shows_once_frames_flow(make_client, wait_for, seat_players) -> None:
    client = make_client(speed=1.0)
    assert client.get("/api/picture.jpg").status_code == 204  # a file camera shows nothing before a round
    client.post("/api/rounds")
    wait_for(client, lambda _: client.get("/api/picture.jpg").status_code == 200, path="/api/health")
    picture = client.get("/api/picture.jpg")
    assert picture.headers["content-type"] == "image/jpeg" and picture.content[:2] == b"\xff\xd8"


STAGES = ("picked", "read", "locked", "ruled", "stored", "sent")
"""The way of a live event, in order: its frame taken by the pipeline, read, the table locked, ruled on,
stored, sent to the viewer."""


def test_a_live_event_says_when_each_stage_of_its_way_happened(make_client, seat_players) -> None:
    client = make_client()
    seat_players(client)
    with client.websocket_connect("/api/events") as ws:
        assert ws.receive_json()["kind"] == "ready"
        client.post("/api/rounds")
        message = ws.receive_json()
        while message.get("event", {}).get("type") != "illegal_play":
            message = ws.receive_json()
    timing = message["timing"]
    assert [timing[stage] for stage in STAGES] == sorted(timing[stage] for stage in STAGES)
    assert timing["stored"] <= message["added"] <= timing["sent"]
    assert timing["frame_t"] >= message["event"]["t"]  # ruled on a frame at or after the one the card showed in
    assert timing["due"] == message["epoch"] + timing["frame_t"]


def test_the_picture_is_drawn_when_asked_and_at_most_picture_fps_times_a_second(make_client, wait_for) -> None:
    client = make_client(speed=1.0, picture_fps=0.05)  # one picture per 20 s at most
    client.post("/api/rounds")
    wait_for(client, lambda _: client.get("/api/picture.jpg").status_code == 200, path="/api/health")
    first = client.get("/api/picture.jpg").content
    wait_for(client, lambda state: state["pipeline"]["frames"] > 30)  # the camera moved on
    assert client.get("/api/picture.jpg").content == first


def test_the_live_referee_votes_on_recent_evidence_and_can_vote_as_a_replay_does(make_client) -> None:
    live = make_client().app.state.table.runner.settings.referee.tracker.voting
    assert live == replace(VotingSettings(), window_s=0.4)  # alerts within 0.3 s of the card coming down
    quicker = make_client(strict_span_s=0.17).app.state.table.runner.settings.referee.tracker.voting
    assert quicker == replace(VotingSettings(), window_s=0.4, strict_span_s=0.17)
    own = make_client(vote_window_s=None).app.state.table.runner.settings.referee.tracker.voting
    assert own == VotingSettings()

"""The auth matrix: every role against every write (and the guarded reads), in both randomness
modes. Refusals are 401 (no or unknown token) or 403 (wrong role, seat or match) and never change
the record; allowed calls are never refused for auth reasons."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .support import Match, bearer, create

ROLES = ("garbage", "spectator", "foreign", "seat0", "seat1", "recorder", "arbiter")
OK = "ok"

# action: (method, path, body, {role: expectation}); missing roles default per the NOT_AUTHENTICATED rules
ACTIONS: dict[str, tuple[str, str, dict[str, Any] | None, dict[str, Any]]] = {
    "move": (
        "POST",
        "/moves",
        {"move": {"type": "pass"}, "seat": 0},
        {"seat0": OK, "seat1": 403, "recorder": {"server": 403, "recorded": OK}, "arbiter": OK},
    ),
    "outcome": (
        "POST",
        "/outcomes",
        {"outcome": 1},
        {"seat0": 403, "seat1": 403, "recorder": {"server": 403, "recorded": OK}, "arbiter": 403},
    ),
    "undo": ("POST", "/undo-requests", {"seat": 0}, {"seat0": OK, "seat1": 403, "recorder": 403, "arbiter": OK}),
    "undo-answer": (
        "POST",
        "/undo-requests/abc/answers",
        {"accept": True},
        {"seat0": OK, "seat1": OK, "recorder": 403, "arbiter": OK},
    ),
    "redo": ("POST", "/redo", {}, {"seat0": OK, "seat1": OK, "recorder": 403, "arbiter": OK}),
    "ruling": (
        "POST",
        "/rulings",
        {"ruling": "penalty", "seat": 0, "points": 1},
        {"seat0": 403, "seat1": 403, "recorder": 403, "arbiter": OK},
    ),
    "annotate": (
        "POST",
        "/annotations",
        {"seq": 1, "text": "note"},
        {"seat0": OK, "seat1": OK, "recorder": OK, "arbiter": OK},
    ),
    "edit-annotation": (
        "PATCH",
        "/annotations/{note}",
        {"text": "edited"},
        {"seat0": OK, "seat1": 403, "recorder": 403, "arbiter": 403},
    ),
    "fork": (
        "POST",
        "/forks",
        {"at": 1},
        {"spectator": 403, "seat0": 403, "seat1": 403, "recorder": 403, "arbiter": OK},
    ),
    "read-seed": ("GET", "/seed", None, {"spectator": 403, "seat0": 403, "seat1": 403, "recorder": 403, "arbiter": OK}),
    "export-bundle": (
        "GET",
        "/bundle",
        None,
        {"spectator": 403, "seat0": 403, "seat1": 403, "recorder": 403, "arbiter": OK},
    ),
    "legal-moves": (
        "GET",
        "/legal-moves?seat=0",
        None,
        {"spectator": 403, "seat0": OK, "seat1": 403, "recorder": {"server": 403, "recorded": OK}, "arbiter": OK},
    ),
}


def expected(action: str, role: str, mode: str) -> Any:
    rules = ACTIONS[action][3]
    if role == "garbage":
        return 401
    if role == "foreign":
        return 403
    value = rules.get(role, 401 if role == "spectator" else 403)
    return value[mode] if isinstance(value, dict) else value


@pytest.fixture(scope="module")
def foreign_token(server: Any) -> str:
    with httpx.Client(base_url=server.url) as client:
        return create(client).seat(0)


def token(match: Match, role: str, foreign: str) -> str | None:
    return {
        "garbage": "rs_not-a-real-token",
        "spectator": None,
        "foreign": foreign,
        "seat0": match.seat(0),
        "seat1": match.seat(1),
        "recorder": match.recorder,
        "arbiter": match.arbiter,
    }[role]


@pytest.mark.parametrize("mode", ["server", "recorded"])
@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_auth_matrix(client: httpx.Client, foreign_token: str, action: str, mode: str) -> None:
    match = create(client, randomness=mode)
    method, suffix, body, _ = ACTIONS[action]
    if "{note}" in suffix:
        note = client.post(match.path("/annotations"), headers=bearer(match.seat(0)), json={"seq": 1, "text": "x"})
        suffix = suffix.replace("{note}", note.json()["id"])
    refused_first = sorted(ROLES, key=lambda role: expected(action, role, mode) == OK)
    for role in refused_first:
        want = expected(action, role, mode)
        before = client.get(match.path()).json()["version"]
        response = client.request(
            method, match.path(suffix), json=body, headers=bearer(token(match, role, foreign_token))
        )
        if want == OK:
            assert response.status_code not in (401, 403), (action, role, mode, response.text)
            assert response.status_code < 500
        else:
            assert response.status_code == want, (action, role, mode, response.text)
            assert response.headers["content-type"] == "application/problem+json"
            assert response.json()["status"] == want
            if want == 401:
                assert response.headers["www-authenticate"].startswith("Bearer")
            assert client.get(match.path()).json()["version"] == before, "a refused request changed the record"


def test_malformed_authorization(client: httpx.Client) -> None:
    match = create(client)
    for header in ("Basic abc", "Bearer", "token", "Bearer a b"):
        response = client.get(match.path("/state"), headers={"Authorization": header})
        assert response.status_code == 401, header
    assert client.get(match.path("/state"), headers=bearer("x" * 500)).status_code == 401


def test_each_token_sees_as_its_viewer(client: httpx.Client) -> None:
    server_match = create(client)
    recorded = create(client, randomness="recorded")
    for match, recorder_view in ((server_match, "spectator"), (recorded, "arbiter")):
        views = {
            role: client.get(match.path("/state"), headers=bearer(token(match, role, ""))).json()["viewer"]
            for role in ("spectator", "seat0", "seat1", "recorder", "arbiter")
        }
        assert views == {
            "spectator": "spectator",
            "seat0": "seat:0",
            "seat1": "seat:1",
            "recorder": recorder_view,
            "arbiter": "arbiter",
        }


def test_tokens_are_stored_only_as_hashes(client: httpx.Client, server: Any) -> None:
    import hashlib
    import sqlite3

    match = create(client)
    everything = [match.arbiter, match.recorder, match.seat(0), match.seat(1)]
    stored = b"".join(path.read_bytes() for path in server.data_dir.glob("*.sqlite3*"))
    for secret in everything:
        assert secret.encode() not in stored
    with sqlite3.connect(server.data_dir / "api.sqlite3") as connection:
        rows = dict(
            connection.execute(
                "SELECT token_hash, role FROM ringside_api_tokens WHERE match_id = ?", (match.id,)
            ).fetchall()
        )
    assert rows == {
        hashlib.sha256(secret.encode()).hexdigest(): role
        for secret, role in zip(everything, ["arbiter", "recorder", "seat", "seat"], strict=True)
    }

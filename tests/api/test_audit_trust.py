"""The audit routes over real HTTP: receipts, sealed forks, bundles as their reader may see them,
and verification computed once per record state however many ask."""

from __future__ import annotations

import httpx
import pytest

from api.verifications import Verifications
from domain.application import Ringside
from tests.support.helpers import all_at_once, new_match
from tests.support.helpers import play_to_end as play_here

from .support import Server, bearer, create, play_to_end


def test_receipts_are_checked_against_the_stored_record(client: httpx.Client) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    receipts = []
    answer = client.post(match.path("/moves"), headers=bearer(match.seat(0)), json={"move": {"type": "pass"}})
    if answer.status_code == 200:
        receipts.append(answer.json()["receipt"])
    good = client.post(match.path("/receipts"), json={"receipts": receipts}).json()
    assert good["ok"] and all(r["status"] == "holds" for r in good["receipts"])
    claimed = {**receipts[0], "seq": 10_000} if receipts else {"match_id": match.id, "seq": 1, "hash": "0" * 64,
                                                               "signature": "0" * 128, "key_id": "x"}
    checked = client.post(match.path("/receipts"), json={"receipts": [claimed]}).json()
    assert checked["receipts"][0]["status"] in ("invalid", "unknown-key")  # a forged receipt proves nothing
    assert client.post(match.path("/receipts"), json={"receipts": "no"}).status_code == 422


def test_a_finished_fork_of_a_match_in_play_is_not_public(client: httpx.Client) -> None:
    parent = create(client, options={"rounds": 1, "hand_size": 1})
    head = client.get(parent.path()).json()["version"]
    forked = client.post(parent.path("/forks"), headers=bearer(parent.arbiter), json={"at": head})
    assert forked.status_code == 201, forked.text
    fork_id = forked.json()["match_id"]
    tokens = forked.json()["tokens"]
    fork = type(parent)(fork_id, tokens, forked.json())
    play_to_end(client, fork)
    assert client.get(fork.path()).json()["status"] == "ended"
    refused = client.get(fork.path("/bundle"))
    assert refused.status_code == 403 and parent.id in refused.json()["detail"]
    assert client.post(fork.path("/forks"), json={"at": 1}).status_code == 403
    assert client.get(fork.path("/bundle"), headers=bearer(fork.arbiter)).status_code == 200
    play_to_end(client, parent)
    assert client.get(fork.path("/bundle")).status_code == 200


def test_a_spectators_bundle_holds_only_public_annotations(client: httpx.Client) -> None:
    match = create(client, options={"rounds": 1, "hand_size": 1})
    client.post(match.path("/annotations"), headers=bearer(match.arbiter),
                json={"seq": 1, "text": "arbiter's eyes only", "visibility": "arbiter"})
    client.post(match.path("/annotations"), headers=bearer(match.seat(0)), json={"seq": 1, "text": "for all"})
    play_to_end(client, match)
    public = client.get(match.path("/bundle"))
    assert "arbiter's eyes only" not in public.text and "for all" in public.text
    assert "arbiter's eyes only" in client.get(match.path("/bundle"), headers=bearer(match.arbiter)).text
    assert client.post("/verify", content=public.content).json()["ok"]


def test_keys_lists_only_what_this_server_holds(client: httpx.Client, server: Server) -> None:
    keys = client.get("/keys").json()
    assert list(keys["keys"]) == [keys["server_key_id"]]


def test_a_records_verification_is_computed_once_per_state(sqlite_app: Ringside) -> None:
    """Three parallel anonymous calls after a 47 MB import cost 39 s of CPU: the report of a record
    at a head is kept, and concurrent askers wait for the one computation."""
    match_id = new_match(sqlite_app)
    play_here(sqlite_app, match_id)
    verifications = Verifications(sqlite_app)
    version = sqlite_app.fold(match_id).seq
    reports, errors = all_at_once([lambda: verifications.report(match_id, version) for _ in range(3)])
    assert not errors and len(reports) == 3 and all(r["ok"] for r in reports)
    assert verifications.computed == 1
    from domain.kernel.viewers import Actor

    sqlite_app.annotate(match_id, 1, "new", actor=Actor.arbiter())  # a new annotation head: a new report
    assert verifications.report(match_id, version)["annotations"] == 2 and verifications.computed == 2


def test_verification_work_is_bounded(sqlite_app: Ringside) -> None:
    from api.problems import ApiProblem

    verifications = Verifications(sqlite_app, slots=1, wait_seconds=0)
    with pytest.raises(ApiProblem) as refused:
        verifications.run(lambda: verifications.run(lambda: None))
    assert refused.value.status == 503

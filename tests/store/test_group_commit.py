"""Group commit and keyed answers: concurrent commands share transactions without sharing fates,
and a request key's answer is committed with its events or not at all (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from domain.application import Accepted, RequestKey, Ringside
from domain.kernel.errors import ConflictError, RingsideError
from domain.kernel.viewers import Actor
from domain.store.group_commit import GroupCommit
from domain.store.recorders import Answer
from tests.support.helpers import all_at_once, assert_linear_and_verified, new_match


def _key(scope: str, fingerprint: str = "request-1") -> RequestKey:
    return RequestKey(scope, fingerprint, lambda accepted: (200, {"version": accepted.version}))


def test_moves_on_many_matches_commit_together_and_all_land(app: Ringside, monkeypatch: Any) -> None:
    """Sixteen solo matches moved at once from an event loop: every move is recorded once, in
    fewer transactions than moves."""
    matches = [new_match(app, players=1, variant="solo") for _ in range(16)]
    saves: list[int] = []
    save = app.save
    monkeypatch.setattr(app, "save", lambda *objs, **kwargs: saves.append(len(objs)) or save(*objs, **kwargs))

    async def play_all() -> list[Accepted]:
        return await asyncio.gather(*(app.submit_move_async(match_id, 0, {"type": "pass"}) for match_id in matches))

    accepted = asyncio.run(play_all())
    assert len(accepted) == 16 and len(saves) < 16 and sum(saves) == 16
    for match_id in matches:
        assert [e.kind for e in app.entries(match_id)].count("move") == 1
        assert_linear_and_verified(app, match_id)


def test_a_conflict_in_a_batch_fails_only_its_own_command(app: Ringside) -> None:
    """Two saves of the same version of one match and one of another, in one batch: the batch is
    refused, then retried one by one, so exactly one of the twins fails and the bystander lands."""
    twin_id = new_match(app, players=1, variant="solo")
    bystander_id = new_match(app, players=1, variant="solo")
    heads = {match_id: app.fold(match_id).seq for match_id in (twin_id, bystander_id)}
    commits = GroupCommit(app)
    copies = [app._matches.for_command(twin_id, fresh=True) for _ in range(2)]
    bystander = app._matches.for_command(bystander_id, fresh=True)
    for match in (*copies, bystander):
        app._append(match, "move", Actor.player(0), {"seat": 0, "move": {"type": "pass"}})
    jobs = [commits._job(match) for match in (*copies, bystander)]
    commits._commit(jobs)
    outcomes = [job.error for job in jobs]
    assert sum(isinstance(outcome, IntegrityError) for outcome in outcomes[:2]) == 1
    assert outcomes[2] is None
    app._matches = type(app._matches)(app, app.CACHE_SIZE)  # forget the copies: read the store
    assert app.fold(bystander_id).seq == heads[bystander_id] + 1 and app.fold(twin_id).seq == heads[twin_id] + 1


def test_an_answer_is_stored_with_the_events_it_reports(app: Ringside) -> None:
    match_id = new_match(app, players=1, variant="solo")
    accepted = app.submit_move(match_id, 0, {"type": "pass"}, key=_key("scope-1"))
    stored = app.answer("scope-1")
    assert stored is not None and (stored.scope, stored.fingerprint, stored.status) == ("scope-1", "request-1", 200)
    assert json.loads(stored.body) == {"version": accepted.version}
    assert accepted.answer == stored


def test_a_key_already_answered_commits_nothing(app: Ringside) -> None:
    """The answer's primary key refuses the whole transaction: the move is not recorded."""
    match_id = new_match(app, players=1, variant="solo")
    app.submit_move(match_id, 0, {"type": "pass"}, key=_key("scope-2"))
    head = app.fold(match_id).seq
    with pytest.raises(ConflictError):
        app.submit_move(match_id, 0, {"type": "vote", "choice": "high"}, key=_key("scope-2", "request-2"))
    with pytest.raises(ConflictError):  # with a version too, as the API sends it
        app.submit_move(match_id, 0, {"type": "vote", "choice": "high"}, expected_version=head,
                        key=_key("scope-2", "request-2"))
    assert app.fold(match_id).seq == head
    assert app.answer("scope-2") is not None and app.answer("scope-2").fingerprint == "request-1"  # type: ignore[union-attr]


def test_a_refusal_is_kept_only_while_the_key_is_unused(app: Ringside) -> None:
    app.record_answer(Answer("scope-3", "request-1", 422, '{"code": "illegal-move"}'))
    app.record_answer(Answer("scope-3", "request-1", 409, '{"code": "stale-version"}'))
    stored = app.answer("scope-3")
    assert stored is not None and stored.status == 422


def test_the_async_driver_records_like_the_blocking_one(app: Ringside) -> None:
    match_id = new_match(app, players=1, variant="solo")

    async def play() -> Accepted:
        return await app.submit_move_async(match_id, 0, {"type": "pass"}, expected_version=app.fold(match_id).seq,
                                           key=_key("scope-4"))

    accepted = asyncio.run(play())
    assert app.fold(match_id).seq == accepted.version and app.answer("scope-4") == accepted.answer
    assert_linear_and_verified(app, match_id)


@pytest.fixture
def twin_apps(request: pytest.FixtureRequest, tmp_path: Any, test_key: Any) -> Any:
    """Two applications on one store, as two worker processes would be."""
    from domain.kernel.clock import FixedStepClock

    store = request.getfixturevalue("postgres_url") if request.param == "postgres" else str(tmp_path / "shared")
    apps = [Ringside.open(data_dir=tmp_path / name, store=store, key=test_key, clock=FixedStepClock())
            for name in ("a", "b")]
    yield apps
    for each in apps:
        each.close()


@pytest.mark.parametrize("twin_apps", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
def test_one_key_sent_to_two_workers_at_once_applies_once(twin_apps: list[Ringside]) -> None:
    """Each worker runs the request; the store lets one transaction through and the other learns
    (as a RingsideError, never a store error) that the key is answered."""
    first, second = twin_apps
    for round_ in range(6):
        match_id = new_match(first, players=1, variant="solo")
        second.fold(match_id)  # both workers have the match cached at the same version
        accepted, refused = all_at_once([lambda app=app, n=round_, m=match_id: app.submit_move(
            m, 0, {"type": "pass"}, key=_key(f"race-{n}")) for app in twin_apps])
        assert len(accepted) == 1 and len(refused) == 1, (accepted, refused)
        assert isinstance(refused[0], RingsideError), refused[0]
        assert [e.kind for e in first.entries(match_id)].count("move") == 1
        assert first.answer(f"race-{round_}") == accepted[0].answer


def test_a_batch_save_reports_the_notification_ids_the_store_gave(app: Ringside) -> None:
    """One multi-row INSERT for a whole batch (SQLite): the IDs it reports for each event are the
    ones the notification log then shows, in the same order."""
    matches = [app._matches.for_command(new_match(app, players=1, variant="solo"), fresh=True) for _ in range(3)]
    for match in matches:
        for _ in range(2):
            app._append(match, "move", Actor.player(0), {"seat": 0, "move": {"type": "pass"}})
    recordings = app.save(*matches)
    reported = [(r.notification.id, r.domain_event.originator_id, r.domain_event.originator_version)
                for r in recordings]
    stored = app.recorder.select_notifications(start=reported[0][0], limit=len(reported))
    assert len(reported) == 6
    assert reported == [(n.id, uuid.UUID(str(n.originator_id)), n.originator_version) for n in stored]

"""`GET /stats`: what this worker's group commit has saved, the number the write benchmark's
batched anchor is taken from (benchmarks/bench_api.py)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from fastapi.testclient import TestClient

from api.app import create_app
from domain.application import Ringside
from domain.store.group_commit import CommitStats, GroupCommit

from .support import bearer, create


def _counts(client: TestClient) -> tuple[int, int]:
    answer = client.get("/stats")
    assert answer.status_code == 200 and answer.json()["worker"] == os.getpid()
    commits = answer.json()["group_commit"]
    return commits["batches"], commits["commands"]


def test_each_move_on_the_event_loop_is_counted_in_its_batch(sqlite_app: Ringside) -> None:
    client = TestClient(create_app(sqlite_app))
    match = create(client, players=["solo"], variant="solo")  # type: ignore[arg-type]
    assert _counts(client) == (0, 0)  # creating a match saves in its own thread, not in a batch
    version = match.data["version"]
    for move in ({"type": "pass"}, {"type": "vote", "choice": "high"}):
        answer = client.post(match.path("/moves"), json={"move": move, "expected_version": version},
                             headers=bearer(match.seat(0)))
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    assert _counts(client) == (2, 2)  # one client: every move a transaction of its own


class Counter(Aggregate):
    class Ticked(Aggregate.Event):
        pass

    def tick(self) -> None:
        self.trigger_event(self.Ticked)


def test_commands_waiting_together_share_a_batch_and_are_counted_as_such(tmp_path: Path) -> None:
    """The first command holds the writer (its save waits on a gate); three more queue meanwhile
    and go into the next transaction together: two batches, four commands."""
    app = Application[UUID](env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                 "SQLITE_DBNAME": str(tmp_path / "store.sqlite3")})
    counters = [Counter() for _ in range(4)]
    app.save(*counters)
    for counter in counters:
        counter.tick()
    gate = threading.Event()
    saving = threading.Event()
    save = app.save

    def gated(*objs: Any, **kwargs: Any) -> Any:
        if not gate.is_set():
            saving.set()
            gate.wait(30)
        return save(*objs, **kwargs)

    app.save = gated  # type: ignore[method-assign]
    commits = GroupCommit(app)

    async def run() -> None:
        first = asyncio.ensure_future(commits.commit(counters[0]))
        while not saving.is_set():  # the writer is in the first save
            await asyncio.sleep(0.001)
        rest = [asyncio.ensure_future(commits.commit(counter)) for counter in counters[1:]]
        await asyncio.sleep(0)  # each has queued its job
        gate.set()
        await asyncio.gather(first, *rest)

    try:
        asyncio.run(run())
    finally:
        gate.set()
        commits.close()
        app.close()
    assert commits.stats == CommitStats(batches=2, commands=4) and commits.stats.mean_batch == 2.0
    assert CommitStats().mean_batch == 0.0

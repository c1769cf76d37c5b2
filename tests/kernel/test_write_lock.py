"""The embedded store's writer lock: one holder at a time across lock objects (as across worker
processes, each of which opens its own), released however the holder leaves."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from domain.write_lock import WriteLock


def test_holders_never_overlap_across_lock_objects(tmp_path: Path) -> None:
    """Four holders, each with its own lock object (its own open file, like another process):
    the unguarded read-modify-write below loses no update and never sees a second holder."""
    path = tmp_path / "store.lock"
    state = {"count": 0, "inside": 0, "most_inside": 0}

    def work(lock: WriteLock) -> None:
        for _ in range(50):
            with lock.held():
                state["inside"] += 1
                state["most_inside"] = max(state["most_inside"], state["inside"])
                seen = state["count"]
                time.sleep(0.0002)  # let the other threads run while the lock is held
                state["count"] = seen + 1
                state["inside"] -= 1

    locks = [WriteLock(path) for _ in range(4)]
    threads = [threading.Thread(target=work, args=(lock,)) for lock in locks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for lock in locks:
        lock.close()
    assert state == {"count": 200, "inside": 0, "most_inside": 1}


def test_the_lock_is_released_when_the_holder_fails(tmp_path: Path) -> None:
    first, second = WriteLock(tmp_path / "store.lock"), WriteLock(tmp_path / "store.lock")
    with pytest.raises(RuntimeError), first.held():
        raise RuntimeError("the save failed")
    acquired = threading.Event()

    def take() -> None:
        with second.held():
            acquired.set()

    thread = threading.Thread(target=take)
    thread.start()
    assert acquired.wait(5)
    thread.join()
    first.close()
    second.close()


def test_a_lock_that_cannot_be_taken_fails_the_batch_not_the_writer(tmp_path: Path) -> None:
    """The lock file's folder is gone: each waiting command gets the error, and the writer thread
    lives on to save the next batch once the folder is back."""
    import asyncio

    from domain.application import Ringside
    from tests.support.helpers import new_match

    app = Ringside.open(data_dir=tmp_path / "data")
    try:
        match_id = new_match(app, players=1, variant="solo")
        assert app._write_lock is not None
        app._write_lock.close()
        app._write_lock.path = tmp_path / "missing" / "store.lock"

        async def move() -> object:
            return await app.submit_move_async(match_id, 0, {"type": "pass"})

        with pytest.raises(FileNotFoundError):
            asyncio.run(move())
        app._write_lock.path = tmp_path / "data" / "ringside.lock"
        assert asyncio.run(move()) is not None
    finally:
        app.close()

"""The embedded store's writer lock: one holder at a time across lock objects (as across worker
processes, each of which opens its own), released however the holder leaves."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from domain.store.write_lock import WriteLock


@pytest.mark.parametrize("wait", ["kernel", "poll"])
def test_holders_never_overlap_across_lock_objects(tmp_path: Path, wait: str) -> None:
    """Four holders, each with its own lock object (its own open file, like another process):
    the unguarded read-modify-write below loses no update and never sees a second holder. A
    waiter blocks in the kernel where it can (POSIX), else polls (Windows): both are checked."""
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
    for lock in locks:
        if wait == "poll":
            lock._wait = None
        else:
            assert lock._wait is not None
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


HOLDER = """
import sys, time
from pathlib import Path
from domain.store.write_lock import WriteLock

lock, counter = WriteLock(Path(sys.argv[1])), Path(sys.argv[2])
for _ in range(40):
    with lock.held():
        seen = int(counter.read_text() or 0)
        time.sleep(0.001)  # the other process tries to take the lock meanwhile
        counter.write_text(str(seen + 1))
lock.close()
"""


def test_holders_never_overlap_across_processes(tmp_path: Path) -> None:
    """Two processes, each with its own lock on the same file, read-modify-write one counter
    file: no update is lost, so each waited (blocking) while the other held the lock."""
    import subprocess
    import sys

    counter = tmp_path / "counter"
    counter.write_text("0")
    root = Path(__file__).resolve().parents[2]
    processes = [subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "store.lock"), str(counter)],
                                  cwd=root) for _ in range(2)]
    assert [process.wait(timeout=120) for process in processes] == [0, 0]
    assert counter.read_text() == "80"


def test_the_lock_file_is_created_for_its_owner_only(tmp_path: Path) -> None:
    """Whatever the umask, and an existing lock file left readable by others is tightened."""
    import os
    import stat

    old = os.umask(0)
    try:
        fresh, older = tmp_path / "fresh.lock", tmp_path / "older.lock"
        older.write_text("")
        older.chmod(0o666)
        for path in (fresh, older):
            lock = WriteLock(path)
            with lock.held():
                pass
            lock.close()
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        os.umask(old)

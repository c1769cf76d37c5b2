"""One writer at a time across the processes that share an embedded SQLite store.

Why: SQLite lets one transaction write at a time and makes the others poll. Its busy handler
sleeps 1, 2, 5, 10 ms and more between tries, so two server workers that write at once lose
milliseconds per commit to sleeping, and their group commits shrink. A lock on a file beside the
database queues the writers instead. PostgreSQL queues writers itself and needs none of this.

The lock is `filelock`'s native primitive on a descriptor kept open: `flock` on POSIX,
`LockFileEx` on Windows (the `fcntl` lock this replaced made every local-store command fail
there). filelock waits for a lock held elsewhere by polling. Where the system can wait in the
kernel (`flock` without LOCK_NB, POSIX), a writer that finds the lock taken waits there instead:
it wakes as soon as the lock is released, without the GIL, which is what made this lock worth
having (two workers: 823 -> 999 moves/s). filelock's own FileLock, polling every millisecond,
gave fewer moves per second with two workers than the kernel's wait in each of five runs
taken in turn (328-665 against 573-920, on a loaded machine; benchmarks/bench_api.py).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from .files import CLOEXEC, FILE_MODE, tighten_descriptor

POLL_SECONDS = 0.001
"""Where the kernel cannot wait for the lock: how often a writer that waits for another process
tries again (a commit holds the lock for about a millisecond)."""


def _kernel_wait() -> Callable[[int], None] | None:
    """A blocking wait for the same lock filelock takes, where the system has one."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    return lambda descriptor: fcntl.flock(descriptor, fcntl.LOCK_EX)


class WriteLock:
    """An exclusive lock held across processes (on the file `path`, created owner-only) and across
    this process's threads. Taking it blocks until it is free; leaving the `held()` block,
    however it is left, releases it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._wait = _kernel_wait()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        from filelock import lock_descriptor, unlock_descriptor  # here: a process that only reads never loads it

        with self._threads:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | CLOEXEC, FILE_MODE)
                tighten_descriptor(self._fd)  # one an older version made readable by others
            if not lock_descriptor(self._fd, blocking=False):
                if self._wait is not None:
                    self._wait(self._fd)
                else:
                    lock_descriptor(self._fd, poll_interval=POLL_SECONDS)
            try:
                yield
            finally:
                unlock_descriptor(self._fd)

    def close(self) -> None:
        with self._threads:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

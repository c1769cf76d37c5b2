"""One writer at a time across the processes that share an embedded SQLite store.

Why: SQLite lets one transaction write at a time and makes the others poll. Its busy handler
sleeps 1, 2, 5, 10 ms and more between tries, so two server workers that write at once lose
milliseconds per commit to sleeping, and their group commits shrink. An advisory `flock` on a file
beside the database queues the writers in the kernel instead: the next one wakes as soon as the
lock is released. The blocking wait runs without the GIL. PostgreSQL queues writers itself and
needs none of this.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from .files import tighten_descriptor


class WriteLock:
    """A lock held across processes (by `flock` on `path`) and across this process's threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._fd: int | None = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                tighten_descriptor(self._fd)  # one an older version made readable by others
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        with self._threads:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

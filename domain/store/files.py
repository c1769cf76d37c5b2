"""The store's files are for its owner only.

The data directory holds what nobody else may read: the SQLite record (the secret seeds of the
matches in play, every hidden draw), its journals, the side tables, the writer lock and the
server's signing key. The directory is created 0700 and every file in it 0600, whatever the
umask; a directory or file that an older version created readable by others is tightened when
the application opens it. Tightening only ever takes access away (a read-only directory stays
read-only).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
"""Not inherited by child processes (POSIX; Windows has no such flag and needs none here)."""
JOURNALS = ("-wal", "-shm", "-journal")
"""What SQLite keeps beside a database file (it creates them with the database file's mode)."""



def private_directory(path: Path) -> None:
    """Create `path` for the owner only (parents as the umask says), or tighten an existing one."""
    path.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    tighten(path)


def private_database(path: Path) -> None:
    """Make sure the SQLite file `path` is the owner's only: created empty (an empty file is an
    empty database) with mode 0600 before SQLite opens it, so that its journals get that mode
    too; or, if it exists, it and its journals tightened."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | CLOEXEC, FILE_MODE))
    except FileExistsError:
        tighten(path)
    for suffix in JOURNALS:
        journal = path.with_name(path.name + suffix)
        if journal.exists():
            tighten(journal)


def tighten(path: Path) -> None:
    """Take group's and others' access away from an existing file or directory (never adds any).
    A file we do not own cannot be changed: that is logged, not fatal."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            path.chmod(mode & ~0o077)
    except FileNotFoundError:
        return
    except PermissionError as error:
        import logging  # only to warn: a process that has nothing to say never loads it

        logging.getLogger("ringside.files").warning("cannot make %s private to its owner: %s", path, error.strerror)


def tighten_descriptor(descriptor: int) -> None:
    """`tighten`, for a file already open (where the system can change an open file's mode:
    Windows before Python 3.13 cannot, and its files have no group or other bits to take away)."""
    if not hasattr(os, "fchmod"):
        return
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(os.fstat(descriptor).st_mode)
        if mode & 0o077:
            os.fchmod(descriptor, mode & ~0o077)

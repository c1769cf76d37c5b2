"""Failures of the store that are nobody's input: telling them apart from bugs.

A full disk (or a full quota, or a database at its size limit) refuses every write until someone
frees space. Callers answer it as such ("storage full": HTTP 507, a clear CLI message) rather than
as an opaque internal error, and never as a refusal of the request (a retry may well succeed).
"""

from __future__ import annotations

import errno
import sqlite3

STORAGE_FULL_SQLSTATE = "53100"
"""PostgreSQL's disk_full (psycopg.errors.DiskFull)."""


def storage_full(error: BaseException | None) -> bool:
    """Whether `error`, or what caused it (eventsourcing wraps the driver's errors), says that
    the store has no room left: SQLite's SQLITE_FULL ("database or disk is full", also at its
    max_page_count), PostgreSQL's DiskFull, or the file system's ENOSPC / EDQUOT."""
    seen: set[int] = set()
    pending = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, sqlite3.Error) and (
                getattr(current, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
                or "database or disk is full" in str(current)):
            return True
        if getattr(current, "sqlstate", None) == STORAGE_FULL_SQLSTATE:
            return True
        if isinstance(current, OSError) and current.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        pending += [current.__cause__, current.__context__,
                    *(arg for arg in current.args if isinstance(arg, BaseException))]
    return False

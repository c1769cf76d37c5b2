"""`python -m tests.support.small_disk --port ... --data-dir ...`: the API server on an embedded
store that can hold only so much, as on a disk that fills up (`... small_disk ringside ARGS`: the
CLI on such a store).

Every connection to the record's SQLite file is opened with `PRAGMA max_page_count` set to
RINGSIDE_TEST_MAX_PAGES, so that once the file has that many pages every write fails with the
very error a full disk gives (SQLITE_FULL, "database or disk is full")."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

_connect = sqlite3.connect


def _limited(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    connection = _connect(*args, **kwargs)
    database = str(kwargs.get("database", args[0] if args else ""))
    if database.endswith("ringside.sqlite3"):
        connection.execute(f"PRAGMA max_page_count = {int(os.environ['RINGSIDE_TEST_MAX_PAGES'])}")
    return connection


sqlite3.connect = _limited  # type: ignore[assignment]

if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["ringside"]:
        from replay_cli.main import cli

        cli(sys.argv[2:], prog_name="ringside")
    else:
        from api.__main__ import main

        main()

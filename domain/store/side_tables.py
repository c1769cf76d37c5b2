"""Small SQL tables kept beside the event store: read models, and the API's tokens and idempotency.

One mechanism for both stores: on SQLite, a file of their own in the data directory (WAL, shared by
every process on the host, one connection per thread); on PostgreSQL, the same database and schema
as the records, through a small connection pool, so every worker on every host sees the same rows.
Statements are written once with `?` placeholders and a `{p}` table prefix.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .files import private_database, private_directory
from .settings import StoreSettings, StoreSetupError


class SideTables:
    def __init__(self, settings: StoreSettings, sqlite_file: str, setup: list[str], lock_key: int) -> None:
        """Open the tables and create them if needed (`lock_key` serialises creation on PostgreSQL)."""
        self._pool: Any = None
        self._sqlite_path: Path | None = None
        if settings.is_postgres:
            import psycopg_pool

            schema = settings.postgres_schema()
            self.prefix = f'"{schema}".' if schema else ""
            self.placeholder = "%s"
            self._pool = psycopg_pool.ConnectionPool(settings.postgres_conninfo(), min_size=1, max_size=10,
                                                     open=True)
        else:
            self.prefix = ""
            self.placeholder = "?"
            self._sqlite_path = settings.data_dir / sqlite_file
            private_directory(self._sqlite_path.parent)
            private_database(self._sqlite_path)  # its journals take its mode: owner only
            self._local = threading.local()
        try:
            with self.transaction() as tx:
                if self._pool is not None:
                    tx.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key,))
                for statement in setup:
                    tx.execute(self.sql(statement))
        except sqlite3.DatabaseError as error:  # damaged, read-only or not a database: say which file
            if self._pool is None:
                raise StoreSetupError(f"cannot open {self._sqlite_path}: {error}") from None
            raise

    @property
    def is_postgres(self) -> bool:
        return self._pool is not None

    def sql(self, statement: str) -> str:
        """A statement written with `?` and `{p}` in this store's dialect."""
        return statement.replace("{p}", self.prefix).replace("?", self.placeholder)

    def _sqlite(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            assert self._sqlite_path is not None
            connection = sqlite3.connect(self._sqlite_path, timeout=30, isolation_level=None,
                                         check_same_thread=False)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            self._local.connection = connection
        return connection

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A cursor in one transaction."""
        if self._pool is not None:
            with self._pool.connection() as connection, connection.transaction(), \
                    connection.cursor() as cursor:
                yield cursor
            return
        cursor = self._sqlite().cursor()
        cursor.execute("BEGIN IMMEDIATE")
        try:
            yield cursor
        except BaseException:
            cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()

"""The API's own small table, kept beside the match store: the hashes of the tokens it minted.

On SQLite it lives in `api.sqlite3` in the data directory (WAL, shared by every worker on the
host); on PostgreSQL in the same database and schema as the records, so every worker on every host
sees the same tokens. Only SHA-256 hashes of tokens are stored. (The answers to idempotency keys
are kept by the application, in the same transaction as the events they answer.)
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from domain.store.settings import StoreSettings
from domain.store.side_tables import SideTables

_TOKENS = """CREATE TABLE IF NOT EXISTS {p}ringside_api_tokens (
    token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, role TEXT NOT NULL, seat INTEGER,
    created_at DOUBLE PRECISION NOT NULL)"""


_ACCOUNTS = """CREATE TABLE IF NOT EXISTS {p}ringside_api_accounts (
    token_hash TEXT PRIMARY KEY, name TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)"""
_IMPORTS = """CREATE TABLE IF NOT EXISTS {p}ringside_api_imports (
    match_id TEXT PRIMARY KEY, account TEXT NOT NULL, imported_at DOUBLE PRECISION NOT NULL)"""


@dataclass(frozen=True)
class TokenRecord:
    match_id: str
    role: str
    seat: int | None


class ApiStore:
    """The token table on SQLite or PostgreSQL (same statements, two placeholders)."""

    def __init__(self, settings: StoreSettings) -> None:
        self._cache: dict[str, TokenRecord] = {}
        self._cache_lock = threading.Lock()
        self._tables = SideTables(settings, "api.sqlite3", [_TOKENS, _ACCOUNTS, _IMPORTS], lock_key=7403612)

    def _tx(self) -> Any:
        return self._tables.transaction()

    def _sql(self, sql: str) -> str:
        return self._tables.sql(sql)

    def close(self) -> None:
        self._tables.close()

    # ---- tokens ------------------------------------------------------------------------
    def add_tokens(self, match_id: str, tokens: list[tuple[str, str, int | None]]) -> None:
        """Store (hash, role, seat) for each token of a match."""
        now = time.time()
        with self._tx() as tx:
            for token_hash, role, seat in tokens:
                tx.execute(self._sql("INSERT INTO {p}ringside_api_tokens (token_hash, match_id, role, seat, "
                                     "created_at) VALUES (?, ?, ?, ?, ?)"),
                           (token_hash, match_id, role, seat, now))

    def remove_tokens(self, match_id: str) -> None:
        """Drop the tokens minted for a match that was then refused."""
        with self._tx() as tx:
            tx.execute(self._sql("DELETE FROM {p}ringside_api_tokens WHERE match_id = ?"), (match_id,))

    def token(self, token_hash: str) -> TokenRecord | None:
        cached = self._cache.get(token_hash)
        if cached is not None:
            return cached
        with self._tx() as tx:
            tx.execute(self._sql("SELECT match_id, role, seat FROM {p}ringside_api_tokens WHERE token_hash = ?"),
                       (token_hash,))
            row = tx.fetchone()
        if row is None:
            return None
        record = TokenRecord(str(row[0]), str(row[1]), None if row[2] is None else int(row[2]))
        with self._cache_lock:
            if len(self._cache) > 100_000:
                self._cache.clear()
            self._cache[token_hash] = record
        return record

    # ---- accounts (server-wide principals: who imports records) ------------------------
    def add_account(self, name: str, token_hash: str) -> None:
        with self._tx() as tx:
            tx.execute(self._sql("INSERT INTO {p}ringside_api_accounts (token_hash, name, created_at) "
                                 "VALUES (?, ?, ?)"), (token_hash, name, time.time()))

    def account(self, token_hash: str) -> str | None:
        """The name of the account a token belongs to, or None."""
        with self._tx() as tx:
            tx.execute(self._sql("SELECT name FROM {p}ringside_api_accounts WHERE token_hash = ?"), (token_hash,))
            row = tx.fetchone()
        return None if row is None else str(row[0])

    def record_import(self, match_id: str, account: str) -> None:
        with self._tx() as tx:
            tx.execute(self._sql("INSERT INTO {p}ringside_api_imports (match_id, account, imported_at) "
                                 "VALUES (?, ?, ?) ON CONFLICT (match_id) DO NOTHING"),
                       (match_id, account, time.time()))

    def importer(self, match_id: str) -> str | None:
        """The account that imported a match, or None if it was not imported through the API."""
        with self._tx() as tx:
            tx.execute(self._sql("SELECT account FROM {p}ringside_api_imports WHERE match_id = ?"), (match_id,))
            row = tx.fetchone()
        return None if row is None else str(row[0])

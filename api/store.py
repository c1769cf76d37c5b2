"""The API's own small tables, kept beside the match store: token hashes and idempotency results.

On SQLite they live in `api.sqlite3` in the data directory (WAL, shared by every worker on the
host); on PostgreSQL in the same database and schema as the records, so every worker on every host
sees the same tokens and the same idempotency claims. Only SHA-256 hashes of tokens are stored.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from domain.settings import StoreSettings
from domain.side_tables import SideTables

_TOKENS = """CREATE TABLE IF NOT EXISTS {p}ringside_api_tokens (
    token_hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, role TEXT NOT NULL, seat INTEGER,
    created_at DOUBLE PRECISION NOT NULL)"""
_IDEMPOTENCY = """CREATE TABLE IF NOT EXISTS {p}ringside_api_idempotency (
    scope TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status INTEGER, body TEXT,
    claimed_at DOUBLE PRECISION NOT NULL, completed_at DOUBLE PRECISION)"""


@dataclass(frozen=True)
class TokenRecord:
    match_id: str
    role: str
    seat: int | None


@dataclass(frozen=True)
class Claim:
    """The state of an idempotency key: newly claimed by us, done, pending elsewhere, or mismatched."""

    state: str  # "claimed", "done", "pending", "mismatch"
    status: int | None = None
    body: str | None = None
    claimed_at: float = 0.0


class ApiStore:
    """Token and idempotency tables on SQLite or PostgreSQL (same statements, two placeholders)."""

    def __init__(self, settings: StoreSettings) -> None:
        self._cache: dict[str, TokenRecord] = {}
        self._cache_lock = threading.Lock()
        self._tables = SideTables(settings, "api.sqlite3", [_TOKENS, _IDEMPOTENCY], lock_key=7403612)

    def _tx(self, flush: bool = True) -> Any:
        """A transaction. `flush=False` (idempotency rows on PostgreSQL) skips waiting for the WAL
        flush: the move's own synchronous commit that follows a claim flushes the claim with it,
        and a completion lost in a database crash only leaves a claim that refuses re-execution."""
        return self._tables.transaction(flush)

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

    # ---- idempotency -------------------------------------------------------------------
    def claim(self, scope: str, fingerprint: str) -> Claim:
        """Claim a key for one execution, or say what an earlier request with it did."""
        now = time.time()
        with self._tx(flush=False) as tx:
            tx.execute(self._sql("INSERT INTO {p}ringside_api_idempotency (scope, fingerprint, claimed_at) "
                                 "VALUES (?, ?, ?) ON CONFLICT (scope) DO NOTHING"), (scope, fingerprint, now))
            if tx.rowcount == 1:
                return Claim("claimed", claimed_at=now)
            tx.execute(self._sql("SELECT fingerprint, status, body, claimed_at FROM {p}ringside_api_idempotency "
                                 "WHERE scope = ?"), (scope,))
            row = tx.fetchone()
        if row is None:  # pragma: no cover - a claim is never deleted
            return Claim("pending", claimed_at=now)
        if row[0] != fingerprint:
            return Claim("mismatch")
        if row[1] is None:
            return Claim("pending", claimed_at=float(row[3]))
        return Claim("done", int(row[1]), str(row[2]), float(row[3]))

    def complete(self, scope: str, status: int, body: str) -> None:
        with self._tx(flush=False) as tx:
            tx.execute(self._sql("UPDATE {p}ringside_api_idempotency SET status = ?, body = ?, completed_at = ? "
                                 "WHERE scope = ?"), (status, body, time.time(), scope))

    def lookup(self, scope: str) -> Claim | None:
        with self._tx() as tx:
            tx.execute(self._sql("SELECT fingerprint, status, body, claimed_at FROM {p}ringside_api_idempotency "
                                 "WHERE scope = ?"), (scope,))
            row = tx.fetchone()
        if row is None:
            return None
        if row[1] is None:
            return Claim("pending", claimed_at=float(row[3]))
        return Claim("done", int(row[1]), str(row[2]), float(row[3]))

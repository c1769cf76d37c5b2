"""The match index: a read model for listing and searching matches without folding any of them.

It is a projection of the application's notification log (every stored event, in order) into one
table, with a tracking position stored in the same transaction as the rows it produced, so a
crash between writes can neither skip nor double an event. Any process can catch it up; updates
are idempotent (a row only moves forward in version), so several workers sharing PostgreSQL may
pull at once.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from typing import Any, Protocol

from eventsourcing.application import Application
from eventsourcing.utils import TopicError

from ..kernel import record
from ..kernel.record import Entry
from .settings import StoreSettings
from .side_tables import SideTables


def content_errors() -> tuple[type[Exception], ...]:
    """What a record's content can make projecting it raise: a field of the wrong shape, or a
    value the database refuses. Not the store's own failures (OperationalError: down, locked,
    full), which must never make the read model skip an event. psycopg's are among them only once
    a PostgreSQL store has loaded it: a process on SQLite never imports psycopg (a third of a short
    command's start-up), and cannot meet its errors."""
    errors: tuple[type[Exception], ...] = _BASE_ERRORS
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None:
        errors += (psycopg.DataError, psycopg.IntegrityError, psycopg.ProgrammingError)
    return errors


_BASE_ERRORS: tuple[type[Exception], ...] = (
    KeyError, IndexError, TypeError, ValueError, AttributeError, sqlite3.InterfaceError, sqlite3.DataError,
    sqlite3.IntegrityError, sqlite3.ProgrammingError, TopicError)


def _text(value: Any, default: str = "") -> str:
    """Text as the table can store it on both stores: a string without NULs and valid UTF-8
    (a lone surrogate becomes U+FFFD); anything else is `default`."""
    if not isinstance(value, str):
        return default
    value = value.replace("\x00", "")
    return value if value.isascii() else value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


COLUMNS = ("match_id", "game", "variant", "status", "players", "created_at", "last_activity", "version",
           "fork_of", "randomness", "winners", "recorded_by", "setup")

TABLE = "ringside_matches_v3"
"""Versioned: a new column is a new table under a new tracking name, rebuilt from the notification
log on first use (v2 added `recorded_by`, the key that signed the created event; v3 `setup`,
"position" for a match that starts from a position, "standard" for one from the setup)."""
TRACKING = "matches_v3"

SETUP = [
    f"""CREATE TABLE IF NOT EXISTS {{p}}{TABLE} (
    match_id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, status TEXT NOT NULL,
    players TEXT NOT NULL, players_search TEXT NOT NULL, created_at TEXT NOT NULL,
    last_activity TEXT NOT NULL, version INTEGER NOT NULL, fork_of TEXT, randomness TEXT NOT NULL,
    winners TEXT, recorded_by TEXT, setup TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS {p}ringside_index_tracking (name TEXT PRIMARY KEY, position BIGINT NOT NULL)",
    f"INSERT INTO {{p}}ringside_index_tracking (name, position) VALUES ('{TRACKING}', 0) ON CONFLICT DO NOTHING",
]


class _Tx(Protocol):
    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any: ...


class MatchIndex:
    """Catch-up projection of match events into a searchable table."""

    BATCH = 500

    def __init__(self, app: Application[Any], settings: StoreSettings) -> None:
        self.app = app
        self.tables = SideTables(settings, "index.sqlite3", SETUP, lock_key=7403611)
        self._lock = threading.Lock()

    def _sql(self, sql: str) -> str:
        return self.tables.sql(sql.replace("{matches}", "{p}" + TABLE)
                               .replace("{tracking}", "{p}ringside_index_tracking"))

    def close(self) -> None:
        self.tables.close()

    def pull(self) -> int:
        """Project every notification after the tracked position; returns how many were read.

        A record it cannot project (a hostile or damaged one: a field of the wrong shape, text the
        database refuses) never stops the read model: such a batch is projected again one event
        at a time, each in a savepoint, the event that fails is logged and skipped, and the
        tracking position moves past it. Failures of the store itself (it is down, the disk is
        full) are not the record's: they propagate, and the next pull tries again."""
        total = 0
        with self._lock:
            while True:
                try:
                    read = self._pull_batch(careful=False)
                except content_errors():
                    read = self._pull_batch(careful=True)
                if not read:
                    return total
                total += read

    def _pull_batch(self, careful: bool) -> int:
        """One batch of notifications after the tracked position, in one transaction with the
        new position; `careful` projects each event in a savepoint and skips the ones that fail."""
        with self.tables.transaction() as tx:
            lock = " FOR UPDATE" if self.tables.is_postgres else ""
            tx.execute(self._sql("SELECT position FROM {tracking} WHERE name = '" + TRACKING + "'" + lock))
            position = int(tx.fetchone()[0])
            notifications = self.app.recorder.select_notifications(
                start=position, limit=self.BATCH, inclusive_of_start=False)
            if not notifications:
                return 0
            for notification in notifications:
                if not notification.topic.startswith("ringside.match.") or \
                        notification.topic.startswith("ringside.match.snapshot"):
                    continue
                if not careful:
                    self._project(tx, self._entry(notification))
                    continue
                tx.execute("SAVEPOINT ringside_index_entry")
                try:
                    self._project(tx, self._entry(notification))
                except content_errors() as error:
                    tx.execute("ROLLBACK TO SAVEPOINT ringside_index_entry")
                    import logging  # only to warn: a process that has nothing to say never loads it

                    logging.getLogger("ringside.index").warning(
                        "the match index skips notification %s (%s): it cannot be projected (%s: %s)",
                        notification.id, notification.topic, type(error).__name__, error)
                tx.execute("RELEASE SAVEPOINT ringside_index_entry")
            tx.execute(self._sql("UPDATE {tracking} SET position = ? WHERE name = ?"),
                       (notifications[-1].id, TRACKING))
            return len(notifications)

    def _entry(self, notification: Any) -> Entry:
        event = self.app.mapper.to_domain_event(notification)
        return Entry.from_json(event.entry)  # type: ignore[attr-defined]

    def _project(self, tx: _Tx, entry: Entry) -> None:
        """One entry into the table, with the fields it can read: every value is checked for its
        type and its text made storable (no NUL, which PostgreSQL's text refuses), so that an
        odd record (an imported one, signed elsewhere) is listed rather than stopping the list."""
        stream, at, seq = _text(entry.stream), _text(entry.at), entry.seq
        if not stream or not isinstance(seq, int) or isinstance(seq, bool):
            raise ValueError("the entry has no match ID or sequence number")
        payload = entry.payload if isinstance(entry.payload, dict) else {}
        if entry.kind == record.CREATED:
            seats = payload.get("seats")
            players = [_text(seat.get("player"), "?") if isinstance(seat, dict) else "?"
                       for seat in (seats if isinstance(seats, list) else [])]
            fork_of = payload.get("fork_of")
            parent = None if fork_of is None else _text(fork_of.get("match_id")) if isinstance(fork_of, dict) else ""
            tx.execute(self._sql(
                "INSERT INTO {matches} (match_id, game, variant, status, players, players_search, created_at,"
                " last_activity, version, fork_of, randomness, winners, recorded_by, setup)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (match_id) DO NOTHING"),
                (stream, _text(payload.get("game"), "?"), _text(payload.get("variant"), "?"), "active",
                 json.dumps(players), "\n".join(p.lower() for p in players), at, at, seq, parent,
                 _text(payload.get("randomness"), "?"), None, _text(entry.key),
                 "position" if "position" in payload else "standard"))
            return
        tx.execute(self._sql(
            "UPDATE {matches} SET last_activity = ?, version = ? WHERE match_id = ? AND version < ?"),
            (at, seq, stream, seq))
        if entry.kind == record.ENDED:
            result = payload.get("result")
            winners = result.get("winners") if isinstance(result, dict) else None
            seats = [w for w in winners if isinstance(w, int) and not isinstance(w, bool)] \
                if isinstance(winners, list) else []
            tx.execute(self._sql("UPDATE {matches} SET status = 'ended', winners = ? WHERE match_id = ?"),
                       (json.dumps(seats), stream))

    def search(self, game: str | None = None, status: str | None = None, player: str | None = None,
               since: str | None = None, until: str | None = None, limit: int = 50,
               offset: int = 0) -> list[dict[str, Any]]:
        """Matches newest first, filtered; dates compare as ISO-8601 UTC text."""
        self.pull()
        clauses, params = [], []  # type: list[str], list[Any]
        for column, value in (("game", game), ("status", status)):
            if value:
                clauses.append(f"{column} = ?")
                params.append(_text(value))  # as the rows were stored
        if player:
            clauses.append("players_search LIKE ?")
            params.append(f"%{_text(player).lower()}%")
        if since:
            clauses.append("created_at >= ?")
            params.append(_text(since))
        if until:
            clauses.append("created_at < ?")
            params.append(_text(until))
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        sql = self._sql(f"SELECT {', '.join(COLUMNS)} FROM {{matches}} {where} "
                        "ORDER BY created_at DESC, match_id LIMIT ? OFFSET ?")
        with self.tables.transaction() as tx:
            tx.execute(sql, (*params, limit, offset))
            rows = tx.fetchall()
        result = []
        for row in rows:
            item = dict(zip(COLUMNS, row, strict=True))
            item["players"] = json.loads(item["players"])
            item["winners"] = json.loads(item["winners"]) if item["winners"] else None
            item["official"] = item["fork_of"] is None
            result.append(item)
        return result

"""The match index: a read model for listing and searching matches without folding any of them.

It is a projection of the application's notification log (every stored event, in order) into one
table, with a tracking position stored in the same transaction as the rows it produced, so a
crash between writes can neither skip nor double an event. Any process can catch it up; updates
are idempotent (a row only moves forward in version), so several workers sharing PostgreSQL may
pull at once.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Protocol

from eventsourcing.application import Application

from .kernel import record
from .kernel.record import Entry
from .settings import StoreSettings
from .side_tables import SideTables

COLUMNS = ("match_id", "game", "variant", "status", "players", "created_at", "last_activity", "version",
           "fork_of", "randomness", "winners", "recorded_by")

TABLE = "ringside_matches_v2"
"""Versioned: a new column is a new table under a new tracking name, rebuilt from the notification
log on first use (v2 added `recorded_by`, the key that signed the created event)."""
TRACKING = "matches_v2"

SETUP = [
    f"""CREATE TABLE IF NOT EXISTS {{p}}{TABLE} (
    match_id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, status TEXT NOT NULL,
    players TEXT NOT NULL, players_search TEXT NOT NULL, created_at TEXT NOT NULL,
    last_activity TEXT NOT NULL, version INTEGER NOT NULL, fork_of TEXT, randomness TEXT NOT NULL,
    winners TEXT, recorded_by TEXT)""",
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
        """Project every notification after the tracked position; returns how many were read."""
        total = 0
        with self._lock:
            while True:
                with self.tables.transaction() as tx:
                    lock = " FOR UPDATE" if self.tables.is_postgres else ""
                    tx.execute(self._sql("SELECT position FROM {tracking} WHERE name = '" + TRACKING + "'" + lock))
                    position = int(tx.fetchone()[0])
                    notifications = self.app.recorder.select_notifications(
                        start=position, limit=self.BATCH, inclusive_of_start=False)
                    if not notifications:
                        return total
                    for notification in notifications:
                        if notification.topic.startswith("ringside.match.") and \
                                not notification.topic.startswith("ringside.match.snapshot"):
                            event = self.app.mapper.to_domain_event(notification)
                            self._project(tx, Entry.from_json(event.entry))  # type: ignore[attr-defined]
                    tx.execute(self._sql("UPDATE {tracking} SET position = ? WHERE name = ?"),
                               (notifications[-1].id, TRACKING))
                    total += len(notifications)

    def _project(self, tx: _Tx, entry: Entry) -> None:
        if entry.kind == record.CREATED:
            header = entry.payload
            players = [seat["player"] for seat in header["seats"]]
            fork_of = header.get("fork_of")
            tx.execute(self._sql(
                "INSERT INTO {matches} (match_id, game, variant, status, players, players_search, created_at,"
                " last_activity, version, fork_of, randomness, winners, recorded_by)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (match_id) DO NOTHING"),
                (entry.stream, header["game"], header["variant"], "active", json.dumps(players),
                 "\n".join(p.lower() for p in players), entry.at, entry.at, entry.seq,
                 fork_of["match_id"] if fork_of else None, header["randomness"], None, entry.key))
            return
        tx.execute(self._sql(
            "UPDATE {matches} SET last_activity = ?, version = ? WHERE match_id = ? AND version < ?"),
            (entry.at, entry.seq, entry.stream, entry.seq))
        if entry.kind == record.ENDED:
            tx.execute(self._sql("UPDATE {matches} SET status = 'ended', winners = ? WHERE match_id = ?"),
                       (json.dumps(entry.payload["result"]["winners"]), entry.stream))

    def search(self, game: str | None = None, status: str | None = None, player: str | None = None,
               since: str | None = None, until: str | None = None, limit: int = 50,
               offset: int = 0) -> list[dict[str, Any]]:
        """Matches newest first, filtered; dates compare as ISO-8601 UTC text."""
        self.pull()
        clauses, params = [], []  # type: list[str], list[Any]
        for column, value in (("game", game), ("status", status)):
            if value:
                clauses.append(f"{column} = ?")
                params.append(value)
        if player:
            clauses.append("players_search LIKE ?")
            params.append(f"%{player.lower()}%")
        if since:
            clauses.append("created_at >= ?")
            params.append(since)
        if until:
            clauses.append("created_at < ?")
            params.append(until)
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

"""The event store's recorders, extended with one table: the stored answers to keyed requests.

A client that retries a write with the same idempotency key must get the first answer, and the
write must never apply twice, even when the retry reaches another worker while the first attempt
is still running, or after a crash. The answer is therefore written in the *same transaction* as
the events it answers (eventsourcing's `_insert_events` hooks, the ones its process recorders use
for tracking records): either both are committed or neither is. A second attempt with the same key
fails on the answer's primary key, and its caller replays the stored answer instead.

Each answer carries the time it was stored (`answered_at`, UTC text), so that answers can be
forgotten after a retention period (`prune_answers`): a retry with an older key then runs again,
as a new request. Tables from before that column get it added, empty, when the store opens; such
answers count as older than any cutoff.

Selected through eventsourcing's `APPLICATION_RECORDER_TOPIC` (see `settings.py`), for SQLite and
PostgreSQL alike. The PostgreSQL recorder is in `postgres_recorder.py`, so that a process on the
embedded store never imports psycopg (a third of a short command's start-up).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor

from ..kernel.clock import Clock, utc_now

ANSWERS_TABLE = "ringside_answers"
ROWS_PER_STATEMENT = 200
"""Rows per multi-row INSERT: 800 bound values, far below SQLite's limit of 32,766."""


@dataclass(frozen=True)
class Answer:
    """The answer to one keyed request. `scope` names the key (hashed with its caller and target);
    `fingerprint` the request it was first used for; `final` answers were written with the changes
    they report (a duplicate key refuses the whole transaction), others (refusals, which change
    nothing) are only kept if the key was still unused."""

    scope: str
    fingerprint: str
    status: int
    body: str
    final: bool = True


class AnswerRecorder(ABC):
    """What both recorders offer beyond eventsourcing's."""

    clock: Clock = staticmethod(utc_now)
    """When an answer is stored and what retention counts from; injectable (tests set their own,
    so nothing sleeps against a cutoff). Not the record's clock: answers are not part of it."""

    @abstractmethod
    def select_answer(self, scope: str) -> Answer | None:
        """The answer stored under `scope`, if any."""

    @abstractmethod
    def prune_answers(self, before: str) -> int:
        """Forget the answers stored before `before` (UTC text, as `answered_at`); how many."""


def _answers(kwargs: dict[str, Any]) -> Sequence[Answer]:
    answers: Sequence[Answer] = kwargs.get("answers") or ()
    return answers


def _originator(originator_id: Any) -> str:
    return originator_id.hex if isinstance(originator_id, UUID) else str(originator_id)


def _chunks(rows: list[tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    return [rows[start:start + ROWS_PER_STATEMENT] for start in range(0, len(rows), ROWS_PER_STATEMENT)]


def _insert_rows(c: SQLiteCursor, head: str, rows: list[tuple[Any, ...]]) -> None:
    """One multi-row INSERT: `head` (up to VALUES) and a placeholder group per row."""
    group = f"({','.join('?' * len(rows[0]))})"
    c.execute(f"{head} {', '.join([group] * len(rows))}", [value for row in rows for value in row])


def _answer(scope: Any, fingerprint: Any, status: Any, body: Any) -> Answer:
    return Answer(str(scope), str(fingerprint), int(status), str(body))


class SQLiteRecorder(SQLiteApplicationRecorder, AnswerRecorder):
    """The SQLite application recorder with the answers table in the same database file."""

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(),
                f"CREATE TABLE IF NOT EXISTS {ANSWERS_TABLE} (scope TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
                "status INTEGER NOT NULL, body TEXT NOT NULL, answered_at TEXT)"]

    def _create_table(self, c: SQLiteCursor) -> None:
        super()._create_table(c)
        c.execute(f"PRAGMA table_info({ANSWERS_TABLE})")
        if "answered_at" not in {row[1] for row in c.fetchall()}:  # a table from before retention
            c.execute(f"ALTER TABLE {ANSWERS_TABLE} ADD COLUMN answered_at TEXT")
        c.execute(f"CREATE INDEX IF NOT EXISTS {ANSWERS_TABLE}_answered_at ON {ANSWERS_TABLE} (answered_at)")

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[Any], **kwargs: Any) -> Sequence[int] | None:
        """All the events in one statement, then the answers in one statement per kind; returns the
        events' notification IDs (rowids).

        Why not eventsourcing's insert, one statement per event: each statement releases the GIL
        and must win it back from the event loop. The group-commit writer lost about 0.4 ms per
        statement that way, 6 of the 9 ms of a batch. A batch is one transaction under SQLite's
        single-writer lock, so the rows of one INSERT get consecutive rowids: one more than the
        largest, row by row. The last one is `lastrowid`."""
        notification_ids: list[int] = []
        for chunk in _chunks([(_originator(event.originator_id), event.originator_version, event.topic, event.state)
                              for event in stored_events]):
            _insert_rows(c, f"INSERT INTO {self.events_table_name} VALUES", chunk)
            last = int(c.lastrowid)
            notification_ids.extend(range(last - len(chunk) + 1, last + 1))
        answered_at = self.clock()
        for final, verb in ((True, "INSERT"), (False, "INSERT OR IGNORE")):
            rows = [(answer.scope, answer.fingerprint, answer.status, answer.body, answered_at)
                    for answer in _answers(kwargs) if answer.final is final]
            for chunk in _chunks(rows):
                _insert_rows(c, f"{verb} INTO {ANSWERS_TABLE} (scope, fingerprint, status, body, answered_at) VALUES",
                             chunk)
        return notification_ids

    def select_answer(self, scope: str) -> Answer | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT scope, fingerprint, status, body FROM {ANSWERS_TABLE} WHERE scope = ?", (scope,))
            row = c.fetchone()
        return None if row is None else _answer(*row)

    def prune_answers(self, before: str) -> int:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {ANSWERS_TABLE} WHERE answered_at IS NULL OR answered_at < ?", (before,))
            c.execute("SELECT changes()")
            return int(c.fetchone()[0])

"""The PostgreSQL application recorder with the answers to keyed requests in the same schema
(recorders.py says why the answers are written in the events' transaction).

Apart from recorders.py so that only a process on PostgreSQL imports psycopg: `settings.py` names
this module in eventsourcing's `APPLICATION_RECORDER_TOPIC`, which imports it when the store opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

from .recorders import ANSWERS_TABLE, Answer, AnswerRecorder, _answer, _answers


class PostgresRecorder(PostgresApplicationRecorder, AnswerRecorder):
    """The PostgreSQL application recorder with the answers table in the same schema."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        from psycopg.sql import SQL, Identifier

        table = SQL("{schema}.{table}").format(schema=Identifier(self.datastore.schema),
                                               table=Identifier(ANSWERS_TABLE))
        index = Identifier(f"{ANSWERS_TABLE}_answered_at")
        self.sql_create_statements += [
            SQL("CREATE TABLE IF NOT EXISTS {table} (scope text PRIMARY KEY, fingerprint text NOT NULL, "
                "status integer NOT NULL, body text NOT NULL, answered_at text)").format(table=table),
            SQL("ALTER TABLE {table} ADD COLUMN IF NOT EXISTS answered_at text").format(table=table),
            SQL("CREATE INDEX IF NOT EXISTS {index} ON {table} (answered_at)").format(index=index, table=table),
        ]
        insert = SQL("INSERT INTO {table} (scope, fingerprint, status, body, answered_at) "
                     "VALUES (%s, %s, %s, %s, %s)").format(table=table)
        self._insert_final = insert
        self._insert_unless_answered = insert + SQL(" ON CONFLICT (scope) DO NOTHING")
        self._select_answer = SQL("SELECT scope, fingerprint, status, body FROM {table} WHERE scope = %s").format(
            table=table)
        self._prune = SQL("DELETE FROM {table} WHERE answered_at IS NULL OR answered_at < %s").format(table=table)

    def _insert_events(self, curs: Any, stored_events: Sequence[Any], **kwargs: Any) -> None:
        """Answers that come without events (refusals: never a conflict) go in here."""
        super()._insert_events(curs, stored_events, **kwargs)
        if not stored_events:
            self._insert_answers(curs, _answers(kwargs))

    def _insert_stored_events(self, curs: Any, stored_events: Sequence[Any], **kwargs: Any) -> None:
        """Answers that report events go in after them (the events table is locked by then, so
        every writer takes its locks in the same order), on a cursor of their own (the events'
        cursor still has to return their notification IDs), and before the pipeline's sync: a
        duplicate key surfaces there as the `IntegrityError` of the whole transaction."""
        super()._insert_stored_events(curs, stored_events, **kwargs)
        with curs.connection.cursor() as answers_cursor:
            self._insert_answers(answers_cursor, _answers(kwargs))

    def _insert_answers(self, curs: Any, answers: Sequence[Answer]) -> None:
        answered_at = self.clock()
        for answer in answers:
            curs.execute(self._insert_final if answer.final else self._insert_unless_answered,
                         (answer.scope, answer.fingerprint, answer.status, answer.body, answered_at), prepare=True)

    def select_answer(self, scope: str) -> Answer | None:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._select_answer, (scope,), prepare=True)
            row = curs.fetchone()
        return None if row is None else _answer(row["scope"], row["fingerprint"], row["status"], row["body"])

    def prune_answers(self, before: str) -> int:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._prune, (before,))
            return int(curs.rowcount)

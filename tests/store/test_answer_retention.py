"""Answers to idempotency keys are kept for a retention period, then forgotten (SQLite and
PostgreSQL); stores from before the retention column are migrated when they open."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from domain.application import RequestKey, Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import StaleVersionError
from domain.kernel.integrity import ServerKey
from domain.store.recorders import ANSWERS_TABLE, Answer, AnswerRecorder
from domain.store.retention import format_duration, parse_duration
from tests.support.helpers import new_match


def _key(scope: str) -> RequestKey:
    return RequestKey(scope, "request-1", lambda accepted: (200, {"version": accepted.version}))


def test_answers_older_than_the_retention_are_forgotten(app: Ringside) -> None:
    clock = FixedStepClock()
    recorder = app.recorder
    assert isinstance(recorder, AnswerRecorder)
    recorder.clock = clock  # no sleeping against a cutoff: the answers' clock is moved on
    match_id = new_match(app, players=1, variant="solo")
    app.submit_move(match_id, 0, {"type": "pass"}, key=_key("old-move"))
    app.record_answer(Answer("old-refusal", "request-1", 422, '{"code": "illegal-move"}'))
    clock.advance(timedelta(milliseconds=50))
    app.submit_move(match_id, 0, {"type": "vote", "choice": "high"}, key=_key("new-move"))
    assert app.prune_answers(timedelta(days=1)) == 0  # nothing is that old
    assert app.prune_answers(timedelta(milliseconds=30)) == 2
    assert app.answer("old-move") is None and app.answer("old-refusal") is None
    assert app.answer("new-move") is not None  # younger than the cutoff: kept
    assert app.prune_answers(timedelta(0)) == 1 and app.answer("new-move") is None
    assert app.fold(match_id).seq >= 3  # the record itself is untouched


def test_a_forgotten_key_runs_again_and_a_versioned_retry_is_refused_as_stale(app: Ringside) -> None:
    match_id = new_match(app, players=1, variant="solo")
    version = app.fold(match_id).seq
    app.submit_move(match_id, 0, {"type": "pass"}, expected_version=version, key=_key("retried"))
    app.prune_answers(timedelta(0))
    with pytest.raises(StaleVersionError) as refused:
        app.submit_move(match_id, 0, {"type": "pass"}, expected_version=version, key=_key("retried"))
    assert refused.value.current == version + 1
    assert [entry.kind for entry in app.entries(match_id)].count("move") == 1


def test_a_store_from_before_retention_gets_the_column_and_its_old_answers_count_as_oldest(
        tmp_path: Path, test_key: ServerKey) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "ringside.sqlite3") as db:  # the answers table as earlier versions made it
        db.execute(f"CREATE TABLE {ANSWERS_TABLE} (scope TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, "
                   "status INTEGER NOT NULL, body TEXT NOT NULL)")
        db.execute(f"INSERT INTO {ANSWERS_TABLE} VALUES ('legacy', 'request-1', 200, '{{}}')")
    app = Ringside.open(data_dir=data, key=test_key)
    try:
        assert app.answer("legacy") == Answer("legacy", "request-1", 200, "{}")
        match_id = new_match(app, players=1, variant="solo")
        app.submit_move(match_id, 0, {"type": "pass"}, key=_key("fresh"))
        assert app.prune_answers(timedelta(days=365)) == 1
        assert app.answer("legacy") is None and app.answer("fresh") is not None
    finally:
        app.close()


@pytest.mark.postgres
def test_a_postgres_store_from_before_retention_is_migrated(tmp_path: Path, postgres_url: str,
                                                            test_key: ServerKey) -> None:
    import psycopg

    from tests.conftest import _conninfo

    schema = postgres_url.split("schema=")[1]
    with psycopg.connect(_conninfo(postgres_url.split("?")[0]), autocommit=True) as connection:
        connection.execute(f'CREATE TABLE "{schema}".{ANSWERS_TABLE} (scope text PRIMARY KEY, '
                           "fingerprint text NOT NULL, status integer NOT NULL, body text NOT NULL)")
        connection.execute(f"INSERT INTO \"{schema}\".{ANSWERS_TABLE} VALUES ('legacy', 'request-1', 200, '{{}}')")
    app = Ringside.open(data_dir=tmp_path / "data", store=postgres_url, key=test_key)
    try:
        assert app.answer("legacy") == Answer("legacy", "request-1", 200, "{}")
        assert app.prune_answers(timedelta(days=365)) == 1 and app.answer("legacy") is None
    finally:
        app.close()


@pytest.mark.parametrize(("text", "expected"), [
    ("90s", timedelta(seconds=90)), ("30m", timedelta(minutes=30)), ("24h", timedelta(hours=24)),
    ("7d", timedelta(days=7)), ("2w", timedelta(weeks=2)), ("1d12h", timedelta(days=1, hours=12)),
    (" 0s ", timedelta(0)), ("1D 2H", timedelta(days=1, hours=2)),
])
def test_durations_as_operators_write_them(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected
    assert parse_duration(format_duration(expected)) == expected


@pytest.mark.parametrize("text", ["", "7", "d", "7 days", "1.5h", "-1d", "1d junk", "1x"])
def test_anything_else_is_refused_with_the_forms_it_takes(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration(text)

"""Shared fixtures: the test-only game, applications on SQLite and on PostgreSQL.

The PostgreSQL fixtures use the server at RINGSIDE_TEST_POSTGRES (default
postgresql://postgres@127.0.0.1:5432/postgres), each test in a fresh schema that is dropped after.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from tests.support.games import install_test_games

install_test_games()  # every installed game, and the test-only one as a plugin
POSTGRES_URL = os.environ.get("RINGSIDE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(_conninfo(POSTGRES_URL), connect_timeout=3):
            return True
    except Exception:
        return False


def _conninfo(url: str) -> str:
    from domain.store.settings import StoreSettings

    return StoreSettings(Path("."), url.split("?")[0]).postgres_conninfo()


@pytest.fixture
def test_key() -> ServerKey:
    return ServerKey.from_seed(b"ringside-tests")


@pytest.fixture
def sqlite_app(tmp_path: Path, test_key: ServerKey) -> Iterator[Ringside]:
    app = Ringside.open(data_dir=tmp_path / "data", key=test_key, clock=FixedStepClock())
    yield app
    app.close()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema on the test PostgreSQL server, dropped afterwards."""
    if not postgres_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {POSTGRES_URL} (CI must start it)")
        pytest.skip("PostgreSQL is not reachable")
    import psycopg

    schema = f"rs_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_conninfo(POSTGRES_URL), autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    yield f"{POSTGRES_URL}?schema={schema}"
    with psycopg.connect(_conninfo(POSTGRES_URL), autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def postgres_app(tmp_path: Path, postgres_url: str, test_key: ServerKey) -> Iterator[Ringside]:
    app = Ringside.open(data_dir=tmp_path / "data", store=postgres_url, key=test_key, clock=FixedStepClock())
    yield app
    app.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def app(request: pytest.FixtureRequest) -> Ringside:
    """The application on each supported store."""
    fixture: Ringside = request.getfixturevalue(f"{request.param}_app")
    return fixture

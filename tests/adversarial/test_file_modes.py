"""The store's files are its owner's only: the data directory 0700, every file in it 0600 (the
SQLite record and its journals, the side tables and theirs, the writer lock, the signing key),
whatever the umask, on a fresh store and on one an older version left readable by anyone.

The record holds the secret seeds of matches in play and every hidden draw: any local user who
could read the files could read every hand."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.store import ApiStore
from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.viewers import Actor
from domain.store.settings import StoreSettings
from tests.api.support import Server, bearer, create
from tests.support.helpers import new_match

EVERY_FILE = {"ringside.sqlite3", "ringside.sqlite3-wal", "ringside.sqlite3-shm", "index.sqlite3",
              "index.sqlite3-wal", "index.sqlite3-shm", "api.sqlite3", "api.sqlite3-wal", "api.sqlite3-shm",
              "ringside.lock", "server-key.pem"}


@pytest.fixture(autouse=True)
def permissive_umask() -> Iterator[None]:
    """The umask most systems have (022): what made the files world-readable."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def modes(directory: Path) -> dict[str, str]:
    return {path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in [directory, *directory.iterdir()]}


def _use(data_dir: Path) -> None:
    """Open the store the way a server does and write to every file of it."""
    app = Ringside.open(data_dir=data_dir, clock=FixedStepClock())
    tokens = ApiStore(app.settings)
    try:
        match_id = new_match(app)
        app.annotate(match_id, 1, "hm", actor=Actor.player(0))
        app.list_matches()
        tokens.add_tokens(str(match_id), [(f"hash-{match_id}", "arbiter", None)])
        assert set(os.listdir(data_dir)) >= EVERY_FILE, sorted(os.listdir(data_dir))
        found = modes(data_dir)
        assert found.pop(data_dir.name) == "0o700"
        assert found == dict.fromkeys(found, "0o600"), found
    finally:
        tokens.close()
        app.close()


def test_a_new_store_is_its_owners_only(tmp_path: Path) -> None:
    _use(tmp_path / "data" / "nested")
    assert oct(stat.S_IMODE((tmp_path / "data").stat().st_mode)) == "0o755"  # parents keep the umask's mode


def test_a_store_an_older_version_left_open_is_tightened_when_opened(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _use(data_dir)
    data_dir.chmod(0o755)
    for path in data_dir.iterdir():
        path.chmod(0o644)
    assert set(modes(data_dir).values()) == {"0o755", "0o644"}
    _use(data_dir)


def test_tightening_never_grants_access(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _use(data_dir)
    key = data_dir / "server-key.pem"
    key.chmod(0o444)
    Ringside.open(data_dir=data_dir).close()
    assert oct(stat.S_IMODE(key.stat().st_mode)) == "0o400"  # read-only stays read-only


def test_the_served_store_is_its_owners_only(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            match = create(client)
            client.post(match.path("/annotations"), json={"seq": 1, "text": "x"}, headers=bearer(match.seat(0)))
            client.get("/matches")
            found = modes(server.data_dir)
    finally:
        server.stop()
    assert set(found) >= EVERY_FILE, sorted(found)
    assert found.pop("data") == "0o700"
    assert found == dict.fromkeys(found, "0o600"), found


@pytest.mark.postgres
def test_on_postgresql_the_data_directory_and_key_are_the_owners_only(tmp_path: Path, postgres_url: str) -> None:
    data_dir = tmp_path / "data"
    app = Ringside(StoreSettings.resolve(data_dir, postgres_url))
    app.close()
    assert modes(data_dir) == {"data": "0o700", "server-key.pem": "0o600"}

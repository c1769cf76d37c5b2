"""A PostgreSQL URL becomes a connection string that keeps every character of its parts: the side
tables (tokens, answers to idempotency keys) connect with it, beside eventsourcing's own pool."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from domain.store.settings import StoreSettings

AWKWARD = "it's a \\secret pass"
"""A space, a quote and a backslash: each means something to libpq's key=value syntax."""


def test_the_conninfo_keeps_a_password_with_a_space_a_quote_and_a_backslash() -> None:
    from psycopg.conninfo import conninfo_to_dict

    url = f"postgresql://o'brien:{quote(AWKWARD, safe='')}@db.example:6543/records?schema=tour"
    parsed = conninfo_to_dict(StoreSettings(Path("."), url).postgres_conninfo())
    assert parsed == {"host": "db.example", "port": "6543", "dbname": "records", "user": "o'brien",
                      "password": AWKWARD}
    # unencoded, as people type it into RINGSIDE_DATABASE_URL, the URL still reads the same
    raw = f"postgresql://ringside:{AWKWARD}@db.example/records"
    assert conninfo_to_dict(StoreSettings(Path("."), raw).postgres_conninfo())["password"] == AWKWARD


def test_without_a_password_none_is_sent() -> None:
    from psycopg.conninfo import conninfo_to_dict

    parsed = conninfo_to_dict(StoreSettings(Path("."), "postgresql://ringside@127.0.0.1/db").postgres_conninfo())
    assert "password" not in parsed


@pytest.fixture
def awkward_role(postgres_url: str) -> Iterator[tuple[str, str]]:
    """A login role whose name and password hold a space, a quote and a backslash, and the test
    schema, owned by it. (The local server trusts 127.0.0.1, so the password is not checked: the
    role name, which the server reports back, shows that the string reached it intact.)"""
    import psycopg
    from psycopg import sql

    from tests.conftest import POSTGRES_URL, _conninfo

    role = f"rs {uuid.uuid4().hex[:8]} o'neil\\x"
    schema = postgres_url.split("schema=")[1]
    with psycopg.connect(_conninfo(POSTGRES_URL), autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role),
                                                                               sql.Literal(AWKWARD)))
        connection.execute(sql.SQL("GRANT ALL ON SCHEMA {} TO {}").format(sql.Identifier(schema),
                                                                           sql.Identifier(role)))
    try:
        yield role, schema
    finally:
        with psycopg.connect(_conninfo(POSTGRES_URL), autocommit=True) as connection:
            connection.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            connection.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.mark.postgres
def test_a_store_opens_on_postgresql_with_an_awkward_role_and_password(awkward_role: tuple[str, str],
                                                                       tmp_path: Path) -> None:
    import psycopg

    from api.store import ApiStore
    from domain.application import Ringside
    from tests.conftest import POSTGRES_URL
    from tests.support.helpers import new_match

    role, schema = awkward_role
    server = POSTGRES_URL.split("@", 1)[1].split("?")[0]
    url = f"postgresql://{quote(role, safe='')}:{quote(AWKWARD, safe='')}@{server}?schema={schema}"
    settings = StoreSettings.resolve(tmp_path / "data", url)
    with psycopg.connect(settings.postgres_conninfo()) as connection:
        assert connection.execute("SELECT current_user").fetchone() == (role,)
    app = Ringside(settings)
    tokens = ApiStore(settings)  # the side tables' pool connects with the conninfo
    try:
        match_id = new_match(app)
        tokens.add_tokens(str(match_id), [(f"hash-{match_id}", "arbiter", None)])
        assert app.list_matches()
    finally:
        tokens.close()
        app.close()

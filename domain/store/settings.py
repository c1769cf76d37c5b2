"""Where Ringside keeps its data: one place that turns settings into eventsourcing's environment.

Default: an embedded SQLite file in the data directory (zero setup). With a postgresql:// URL
(RINGSIDE_DATABASE_URL or the --store flag) every worker on every host shares one PostgreSQL.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from .files import JOURNALS, private_database, private_directory, tighten

STORE_FILES = ("ringside.sqlite3", "index.sqlite3", "api.sqlite3", "ringside.lock", "server-key.pem")


class StoreSetupError(Exception):
    """The store cannot be opened as configured: a data directory that cannot be created or
    written, a damaged file in it, a database that cannot be reached. The message is one line
    that names the path (or server) and what is wrong with it."""


def default_data_dir() -> Path:
    configured = os.environ.get("RINGSIDE_DATA_DIR")
    if configured:
        return Path(configured)
    from platformdirs import user_data_dir  # only here: with RINGSIDE_DATA_DIR set, a command never loads it

    return Path(user_data_dir("ringside", appauthor=False))


@dataclass(frozen=True)
class StoreSettings:
    """Resolved storage: the data directory (keys, SQLite files) and an optional PostgreSQL URL."""

    data_dir: Path
    database_url: str | None = None

    @classmethod
    def resolve(cls, data_dir: Path | str | None = None, store: str | None = None) -> StoreSettings:
        """`store` may be a postgresql:// URL or a path to a SQLite file's directory."""
        url = store if store and store.startswith(("postgresql://", "postgres://")) else None
        if store and url is None:
            data_dir = Path(store)
        url = url or os.environ.get("RINGSIDE_DATABASE_URL") or None
        return cls(Path(data_dir) if data_dir else default_data_dir(), url)

    @property
    def is_postgres(self) -> bool:
        return self.database_url is not None

    def sqlite_path(self) -> Path:
        return self.data_dir / "ringside.sqlite3"

    def describe(self) -> str:
        """Where the store is, for messages (a PostgreSQL URL without its password)."""
        if self.database_url is None:
            return f"SQLite in {self.data_dir}"
        parts = urlparse(self.database_url)
        return f"PostgreSQL at {parts.hostname or '127.0.0.1'}:{parts.port or 5432}/{parts.path.lstrip('/')}"

    def prepare_data_dir(self) -> None:
        """The data directory, created for the owner only (or tightened), checked to be usable:
        raises StoreSetupError naming the directory or file that is not."""
        directory = self.data_dir
        try:
            private_directory(directory)
        except FileExistsError:
            raise StoreSetupError(f"the data directory {directory} exists but is not a directory") from None
        except OSError as error:
            raise StoreSetupError(f"cannot create the data directory {directory}: "
                                  f"{error.strerror or error}") from None
        if not directory.is_dir():
            raise StoreSetupError(f"the data directory {directory} is not a directory")
        if self.database_url is not None:  # only the signing key lives here
            tighten(directory / "server-key.pem")
            return
        if not os.access(directory, os.W_OK | os.X_OK):
            raise StoreSetupError(f"the data directory {directory} is not writable: the store, its journals and "
                                  "lock file are written there (make it writable by this user, or use --store)")
        for name in STORE_FILES:
            for path in (directory / name, *(directory / f"{name}{suffix}" for suffix in JOURNALS)):
                if path.is_dir():
                    raise StoreSetupError(f"{path} is a directory, where the store keeps a file")
                if path.exists() and not os.access(path, os.R_OK | (0 if name == "server-key.pem" else os.W_OK)):
                    raise StoreSetupError(f"{path} is not readable and writable by this user")
                tighten(path)  # one an older version made readable by others

    def open_error(self, error: BaseException) -> StoreSetupError:
        """Why opening the store failed, as one line naming the file (or server) and the fault."""
        from ..kernel.integrity import ServerKey

        if isinstance(error, StoreSetupError):
            return error
        if isinstance(error, ServerKey.FileError):
            return StoreSetupError(str(error))
        lines = str(error).strip().splitlines()
        text = lines[0] if lines else type(error).__name__
        if self.database_url is None:
            store = self.sqlite_path()
            if "file is not a database" in text:
                return StoreSetupError(f"{store} is not an SQLite database (damaged, or another file): "
                                       "restore it from a backup")
            if "readonly database" in text or "unable to open database file" in text:
                return StoreSetupError(f"the store {store} cannot be opened for writing ({text}): check that "
                                       f"{self.data_dir} and its files are writable by this user")
        return StoreSetupError(f"cannot open the store ({self.describe()}): {text}")

    def eventsourcing_env(self) -> dict[str, str]:
        """eventsourcing's environment; the data directory is prepared first (owner only, usable)."""
        self.prepare_data_dir()
        if self.database_url is None:
            try:
                private_database(self.sqlite_path())
            except OSError as error:
                raise StoreSetupError(f"cannot create the store {self.sqlite_path()}: "
                                      f"{error.strerror or error}") from None
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.sqlite_path()),
                "SQLITE_LOCK_TIMEOUT": "30",
                "APPLICATION_RECORDER_TOPIC": "domain.store.recorders:SQLiteRecorder",
            }
        return self._postgres_env()

    def _postgres_env(self) -> dict[str, str]:
        assert self.database_url is not None
        parts = urlparse(self.database_url)
        query = parse_qs(parts.query)
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": (parts.path or "/postgres").lstrip("/") or "postgres",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
            "POSTGRES_POOL_SIZE": "5",
            "POSTGRES_MAX_OVERFLOW": "10",
            "APPLICATION_RECORDER_TOPIC": "domain.store.postgres_recorder:PostgresRecorder",
        }
        if "schema" in query:
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        return env

    def postgres_conninfo(self) -> str:
        """A libpq connection string for the URL's server, database, user and password, quoted by
        psycopg: a password with a space, a quote or a backslash would break a string joined by
        hand (libpq splits on spaces and reads quotes and backslashes as escapes)."""
        from psycopg.conninfo import make_conninfo

        env = self._postgres_env()
        return make_conninfo(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], dbname=env["POSTGRES_DBNAME"],
                             user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"] or None)

    def postgres_schema(self) -> str | None:
        return self._postgres_env().get("POSTGRES_SCHEMA")

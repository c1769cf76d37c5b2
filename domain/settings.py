"""Where Ringside keeps its data: one place that turns settings into eventsourcing's environment.

Default: an embedded SQLite file in the data directory (zero setup). With a postgresql:// URL
(RINGSIDE_DATABASE_URL or the --store flag) every worker on every host shares one PostgreSQL.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from platformdirs import user_data_dir


def default_data_dir() -> Path:
    configured = os.environ.get("RINGSIDE_DATA_DIR")
    return Path(configured) if configured else Path(user_data_dir("ringside", appauthor=False))


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

    def eventsourcing_env(self) -> dict[str, str]:
        if self.database_url is None:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.sqlite_path()),
                "SQLITE_LOCK_TIMEOUT": "30",
                "APPLICATION_RECORDER_TOPIC": "domain.recorders:SQLiteRecorder",
            }
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
            "APPLICATION_RECORDER_TOPIC": "domain.recorders:PostgresRecorder",
        }
        if "schema" in query:
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        return env

    def postgres_conninfo(self) -> str:
        env = self.eventsourcing_env()
        return (f"host={env['POSTGRES_HOST']} port={env['POSTGRES_PORT']} dbname={env['POSTGRES_DBNAME']} "
                f"user={env['POSTGRES_USER']}" + (f" password={env['POSTGRES_PASSWORD']}"
                                                   if env["POSTGRES_PASSWORD"] else ""))

    def postgres_schema(self) -> str | None:
        return self.eventsourcing_env().get("POSTGRES_SCHEMA")

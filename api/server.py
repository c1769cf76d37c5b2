"""Serve the API with uvicorn: `run()` is what `python -m api` and `ringside serve` call."""

from __future__ import annotations

import os
from pathlib import Path

import uvicorn

from domain.settings import StoreSettings


def prepare(settings: StoreSettings) -> None:
    """Create the signing key, the tables and the read model once, before several workers start
    and would otherwise race to create them."""
    from domain.application import Ringside

    from .store import ApiStore

    ringside = Ringside(settings)
    ApiStore(settings).close()
    ringside.close()


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: Path | str | None = None,
        store: str | None = None, workers: int = 1, log_level: str = "warning") -> None:
    """Start the server (blocking) and print its URL. Several workers share the store; each opens
    its own Ringside application."""
    settings = StoreSettings.resolve(data_dir, store)
    os.environ["RINGSIDE_DATA_DIR"] = str(settings.data_dir)
    if settings.database_url:
        os.environ["RINGSIDE_DATABASE_URL"] = settings.database_url
    if workers > 1:
        prepare(settings)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = "PostgreSQL" if settings.is_postgres else f"SQLite in {settings.data_dir}"
    print(f"Ringside API on http://{shown}:{port}  (docs: http://{shown}:{port}/docs; store: {where})",
          flush=True)
    uvicorn.run("api.app:app_from_env", factory=True, host=host, port=port, workers=max(1, workers),
                log_level=log_level, timeout_graceful_shutdown=3)

"""Serve the API with uvicorn: `run()` is what `python -m api` and `ringside serve` call."""

from __future__ import annotations

import os
from pathlib import Path

import uvicorn

from domain.settings import StoreSettings


def prepare(settings: StoreSettings) -> None:
    """Open the store once before serving: it creates the signing key, the tables and the read
    model before several workers start and would otherwise race to create them, and it finds a
    store that cannot be opened (an unwritable data directory, a damaged key file, a database
    out of reach) before uvicorn does, which would answer with a traceback. Raises
    StoreSetupError: one line that names the file or server and what is wrong."""
    from domain.application import Ringside

    from .store import ApiStore

    try:
        ringside = Ringside(settings)
        try:
            ApiStore(settings).close()
        finally:
            ringside.close()
    except Exception as error:
        if os.environ.get("RINGSIDE_DEBUG"):
            raise
        raise settings.open_error(error) from None


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: Path | str | None = None,
        store: str | None = None, workers: int = 1, log_level: str = "warning") -> None:
    """Start the server (blocking) and print its URL. Several workers share the store; each opens
    its own Ringside application. A store that cannot be opened raises StoreSetupError first."""
    settings = StoreSettings.resolve(data_dir, store)
    os.environ["RINGSIDE_DATA_DIR"] = str(settings.data_dir)
    if settings.database_url:
        os.environ["RINGSIDE_DATABASE_URL"] = settings.database_url
    prepare(settings)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = "PostgreSQL" if settings.is_postgres else f"SQLite in {settings.data_dir}"
    print(f"Ringside API on http://{shown}:{port}  (docs: http://{shown}:{port}/docs; store: {where})",
          flush=True)
    uvicorn.run("api.app:app_from_env", factory=True, host=host, port=port, workers=max(1, workers),
                log_level=log_level, timeout_graceful_shutdown=3)

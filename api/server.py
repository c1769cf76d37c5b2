"""Serve the API with uvicorn: `run()` is what `python -m api` and `ringside serve` call."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import uvicorn

from domain.store.settings import StoreSettings


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


class ListenError(Exception):
    """The server cannot listen where it was asked to: the port is taken (another server), not
    allowed (below 1024 without privileges) or the host is not this machine's. One line naming
    host:port, with what to do."""


def check_listen(host: str, port: int) -> None:
    """Raise ListenError if uvicorn could not listen on host:port, before anything is printed:
    uvicorn would find out only after the URL is shown, log an error of its own and exit 3.

    Binds each address the host stands for, as uvicorn does (SO_REUSEADDR on POSIX, so a port
    left in TIME_WAIT by a server just stopped counts as free, as it does for uvicorn), then lets
    go of it for uvicorn to take. A program that takes the port in between is reported by uvicorn
    as before."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as error:
        raise ListenError(f"cannot listen on {where}: {error.strerror or error} (is {host} a name or address of "
                          "this machine? see --host)") from None
    unavailable = 0
    for family, kind, protocol, _, address in addresses:
        with socket.socket(family, kind, protocol) as probe:
            if os.name != "nt":
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise ListenError(f"port {port} is already in use on {host} (another Ringside or other server?): "
                                      "stop it, or choose another port with --port") from None
                if error.errno == errno.EADDRNOTAVAIL and len(addresses) > 1:
                    unavailable += 1  # as asyncio does: that family (IPv6, often) is not enabled here
                    continue
                if error.errno == errno.EACCES:
                    raise ListenError(f"not allowed to listen on {where} (ports below 1024 need privileges): "
                                      "choose another port with --port") from None
                raise ListenError(f"cannot listen on {where}: {error.strerror or error} (see --host and --port)") \
                    from None
    if unavailable == len(addresses):
        raise ListenError(f"cannot listen on {where}: no address of it is this machine's (see --host)")


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: Path | str | None = None,
        store: str | None = None, workers: int = 1, log_level: str = "warning") -> None:
    """Start the server (blocking) and print its URL. Several workers share the store; each opens
    its own Ringside application. A store that cannot be opened raises StoreSetupError, and an
    address that cannot be listened on ListenError, before the URL is printed."""
    settings = StoreSettings.resolve(data_dir, store)
    os.environ["RINGSIDE_DATA_DIR"] = str(settings.data_dir)
    if settings.database_url:
        os.environ["RINGSIDE_DATABASE_URL"] = settings.database_url
    prepare(settings)
    check_listen(host, port)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = "PostgreSQL" if settings.is_postgres else f"SQLite in {settings.data_dir}"
    print(f"Ringside API on http://{shown}:{port}  (docs: http://{shown}:{port}/docs; store: {where})",
          flush=True)
    # access lines are logged at info: below that level uvicorn would still format each one's fields
    access_log = log_level.lower() in ("trace", "debug", "info")
    uvicorn.run("api.app:app_from_env", factory=True, host=host, port=port, workers=max(1, workers),
                log_level=log_level, access_log=access_log, timeout_graceful_shutdown=3)

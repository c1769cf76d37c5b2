"""Where the CLI's verification takes its trust from: the local server's own keys, keys the user
pins (`--trust`, `--trust-file`) and the keys a server publishes (`--trust-server URL`).

Nothing a bundle carries is ever trusted by itself: a bundle proves its integrity, not its origin.
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.kernel.integrity import ServerKey, load_retired_keys
from domain.kernel.trust import Trust, TrustError, read_trust_file
from domain.store.settings import StoreSettings

from .output import CliError


def local_trust(store: str | None, warn: bool = True) -> Trust:
    """The keys of the server whose data directory this CLI uses, if it has any (none is created:
    verifying a file must not mint a key)."""
    data_dir = StoreSettings.resolve(None, store).data_dir
    trust = Trust()
    path = data_dir / "server-key.pem"
    try:
        if path.is_file():
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if isinstance(private, Ed25519PrivateKey):
                trust.add(ServerKey(private).public_hex, "this server")
        for key in load_retired_keys(data_dir).values():
            trust.add(key.public_hex, "this server (retired key)")
    except (OSError, ValueError, TypeError) as error:  # an unreadable local key trusts nothing
        import click

        if warn:
            click.echo(f"ringside: warning: the server key in {data_dir} cannot be read ({error}): no local key is "
                       "trusted; pinned keys still apply", err=True)
    return trust


def server_trust(url: str) -> Trust:
    """The keys a Ringside server publishes at GET /keys."""
    import httpx

    try:
        response = httpx.get(url.rstrip("/") + "/keys", timeout=10)
        response.raise_for_status()
        data = response.json()
        keys = data["keys"] if isinstance(data, dict) and isinstance(data.get("keys"), dict) else None
        if keys is None:
            raise ValueError("no keys in the answer")
        return Trust.of(keys, f"server {url}")
    except (httpx.HTTPError, ValueError, KeyError, TrustError) as error:
        raise CliError(f"cannot read the keys published by {url}: {error}") from None


def cli_trust(store: str | None, pinned: tuple[str, ...], files: tuple[Path, ...], servers: tuple[str, ...],
              warn: bool = True) -> Trust:
    trust = local_trust(store, warn)
    for public_hex in pinned:
        try:
            trust.add(public_hex, "pinned")
        except TrustError as error:
            raise CliError(f"--trust: {error}") from None
    for path in files:
        try:
            trust = trust.merge(read_trust_file(path.read_text(encoding="utf-8"), f"trust file {path}"))
        except (OSError, UnicodeDecodeError) as error:
            raise CliError(f"cannot read the trust file {path}: {error}") from None
        except TrustError as error:
            raise CliError(str(error)) from None
    for url in servers:
        trust = trust.merge(server_trust(url))
    return trust

"""Remote mode: the same commands against a Ringside server (placeholder until the API lands)."""

from __future__ import annotations

from .output import CliError
from .source import Source


def RemoteSource(url: str, token: str | None) -> Source:
    raise CliError("remote mode is not available yet")

"""Output helpers: one console (colour off when piped or NO_COLOR), JSON for scripts, and the
CLI's error type, which always prints as one line on stderr with a meaningful exit status.

Exit statuses: 0 ok; 1 refused by the rules or the record does not hold (verification); 2 bad
usage or bad input (unknown match, unreadable file, bad option); 3 an internal error.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click
from rich.console import Console

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

_console: Console | None = None
_no_color = False


def set_no_color(value: bool) -> None:
    global _console, _no_color
    _no_color = value
    _console = None


def console() -> Console:
    """The stdout console. Rich turns colour off when stdout is not a terminal; NO_COLOR and
    --no-color turn it off everywhere."""
    global _console
    if _console is None or _console.file is not sys.stdout:
        no_color = _no_color or "NO_COLOR" in os.environ
        probe = Console(file=sys.stdout)
        width = None if probe.is_terminal or "COLUMNS" in os.environ else 160
        _console = Console(file=sys.stdout, no_color=no_color, highlight=False, markup=False, soft_wrap=True,
                           width=width, color_system=None if no_color else "auto")
    return _console


def print_json(data: Any) -> None:
    """JSON for scripts: plain, stable key order, never coloured."""
    click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, default=str))


class CliError(click.ClickException):
    """An error shown as one line on stderr: `ringside: error: <message>`."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(" ".join(message.split()))
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: Any = None) -> None:
        click.echo(f"ringside: error: {self.message}", err=True)


def compact(value: Any, limit: int = 100) -> str:
    """A value as short one-line JSON (strings bare), cut at `limit` characters."""
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False,
                                                          sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"

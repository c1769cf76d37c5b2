"""The `ringside` process's entry point (the console script and `python -m replay_cli`).

Why not `cli` itself: a command is a short-lived process, and most of what it creates are the
modules, classes and functions its imports make, alive until it exits. Python's cyclic garbage
collector walks those again and again while they are imported (they never become garbage), and
once more at exit, which cost `ringside show --at N` a fifth of its CPU time. So the collector
is off while the CLI's modules load; what they made is then moved out of its reach
(`gc.freeze`) and it runs as usual for the command itself, whose own garbage it still collects;
at exit everything left is frozen too, so the final pass does not walk it. Tests that call `cli`
in their own process are not affected.
"""

from __future__ import annotations

import gc
from typing import Any


def main(*args: Any, **kwargs: Any) -> Any:
    """Run the CLI (the arguments are click's: `prog_name`, `args`, ...)."""
    gc.disable()
    try:
        from .main import cli
    finally:
        gc.freeze()
        gc.enable()
    try:
        return cli(*args, **kwargs)
    finally:
        gc.freeze()

"""The test-only game, installed as a plugin: its metadata folder on the path, then the entry points.

Why not register it by hand: the product finds games only through the `ringside.games` entry
points, so the tests install theirs the same way and exercise that path in every process they run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from domain.plugins import install_games

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "support" / "plugins"
PYTHONPATH = os.pathsep.join((str(ROOT), str(PLUGINS)))
"""The PYTHONPATH of the servers and commands the tests start: the checkout and the test plugin."""


def install_test_games() -> None:
    """Put the test plugin's metadata on sys.path and register every installed game."""
    if str(PLUGINS) not in sys.path:
        sys.path.append(str(PLUGINS))
    install_games()

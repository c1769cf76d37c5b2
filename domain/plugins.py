"""The games this installation has, added to the kernel's registry at the composition root.

Every game is a distribution's entry point in the `ringside.games` group, naming its ruleset
object (or a class to construct): Ringside's own games are declared in its `pyproject.toml`, and a
separately installed package declares its own the same way:

    [project.entry-points."ringside.games"]
    my-game = "my_package.rules:RULESET"

The service, the CLI and the tests call `install_games()` before they look a game up. A game that
fails to load is reported once and left out, so one broken plugin never takes the others down.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .kernel.contract import Ruleset
from .kernel.registry import register

GROUP = "ringside.games"
_refused: set[str] = set()


def install_games() -> None:
    """Register every installed game (idempotent: a game already registered stays as it is)."""
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        if point.name in _refused:
            continue
        try:
            register(_ruleset(point))
        except Exception as exc:  # a plugin's fault, whatever it is, must not stop the service
            _refused.add(point.name)
            import logging  # only to warn: a process that has nothing to say never loads it

            logging.getLogger("ringside.plugins").warning("game %r (%s) not loaded: %s", point.name, point.value, exc)


def _ruleset(point: EntryPoint) -> Ruleset[Any, Any]:
    loaded = point.load()
    ruleset = loaded() if isinstance(loaded, type) else loaded
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{point.value} is not a Ruleset")
    if ruleset.name != point.name:
        raise ValueError(f"entry point {point.name!r} names a ruleset called {ruleset.name!r}")
    return ruleset

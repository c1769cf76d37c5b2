"""Which games a command registers: every installed game, or only the one its match is played in.

Why: registering a game imports its engine, and the engines are most of what a command imports
(Circus Train's alone takes longer to import than `show --at N` takes to rebuild a Carcassonne
position). A command that reads one match (`show`, `step`) needs only that match's game, so it
registers the game the record names and no other; anything unexpected (an unknown name, a plugin
that does not load) falls back to `install_games`, which registers every game and reports a broken
one as it always does, so errors read the same either way.
"""

from __future__ import annotations

from typing import Any

ONE_MATCH_COMMANDS = frozenset({"show", "step"})
"""The commands that register only their match's game (`ensure_game`), not every game up front."""


def install_all() -> None:
    from domain.plugins import install_games

    install_games()


def ensure_game(name: Any) -> None:
    """Register the game called `name` from its `ringside.games` entry point alone, if it is not
    registered yet; failing that, every installed game."""
    from domain.kernel.registry import all_games

    if isinstance(name, str) and name in all_games():
        return
    if isinstance(name, str) and _install_one(name):
        return
    install_all()


def _install_one(name: str) -> bool:
    from importlib.metadata import entry_points

    from domain.kernel.contract import Ruleset
    from domain.kernel.registry import register
    from domain.plugins import GROUP

    points = list(entry_points(group=GROUP, name=name))
    if len(points) != 1:
        return False
    try:
        loaded = points[0].load()
        ruleset = loaded() if isinstance(loaded, type) else loaded
        if not isinstance(ruleset, Ruleset) or ruleset.name != name:
            return False
        register(ruleset)
    except Exception:  # install_games reports it (and leaves it out) the way it always does
        return False
    return True

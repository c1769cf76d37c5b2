"""The registry of games: name -> ruleset. The API, CLI and conformance suite iterate it."""

from __future__ import annotations

import importlib
import os
from typing import Any

from .contract import Ruleset
from .errors import UnknownGameError

_REGISTRY: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Add a game. Re-registering the same name with another engine is a programming error."""
    existing = _REGISTRY.get(ruleset.name)
    if existing is not None and type(existing) is not type(ruleset):
        raise ValueError(f"game {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get_game(name: str) -> Ruleset[Any, Any]:
    _load_builtin_games()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):  # TypeError: not a name at all (a list, an object)
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None


def all_games() -> dict[str, Ruleset[Any, Any]]:
    _load_builtin_games()
    return dict(sorted(_REGISTRY.items()))


def _load_builtin_games() -> None:
    """Import domain.games so the product games register themselves, and any extra game modules
    named in RINGSIDE_EXTRA_GAMES (comma-separated module paths; used to serve test games)."""
    import domain.games  # noqa: F401

    for module in filter(None, (m.strip() for m in os.environ.get("RINGSIDE_EXTRA_GAMES", "").split(","))):
        importlib.import_module(module)

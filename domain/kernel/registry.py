"""The registry of games: name -> ruleset. The API, CLI and conformance suite read it.

Why a plain table: the kernel must not know which games exist, or it imports the games that import
it. Games are added at the composition root (`domain.plugins.install_games`, from the
`ringside.games` entry points), so a separately installed package adds a game with no change here.
"""

from __future__ import annotations

from typing import Any

from .contract import Ruleset
from .errors import UnknownGameError

_REGISTRY: dict[str, Ruleset[Any, Any]] = {}


def register(ruleset: Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    """Add a game. Re-registering the same name with another engine is a programming error."""
    existing = _REGISTRY.get(ruleset.name)
    if existing is not None and type(existing) is not type(ruleset):
        raise ValueError(f"game {ruleset.name!r} is already registered")
    if existing is None:
        _REGISTRY[ruleset.name] = ruleset
    return _REGISTRY[ruleset.name]


def get_game(name: str) -> Ruleset[Any, Any]:
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):  # TypeError: not a name at all (a list, an object)
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None


def all_games() -> dict[str, Ruleset[Any, Any]]:
    return dict(sorted(_REGISTRY.items()))

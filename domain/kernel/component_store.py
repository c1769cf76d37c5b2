"""Where folds find a custom component set by its content hash.

The default set ships in each game's package. A match played with another set records that set's
hash; the set itself is kept by the application (and carried in bundles) and registered here, so
any fold of that match, in any process, gets the exact pieces back. A loader hook lets the
application fetch a set from storage the first time a process needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock
from typing import Any

from .components import ComponentSet
from .contract import Ruleset
from .errors import InvalidComponentsError

_SETS: dict[tuple[str, str], ComponentSet] = {}
_LOCK = Lock()
_loaders: list[Callable[[str, str], Any | None]] = []


def remember(ruleset: Ruleset[Any, Any], components: ComponentSet) -> str:
    """Keep a set available to folds in this process; returns its hash."""
    key = components.content_hash()
    with _LOCK:
        _SETS[(ruleset.name, key)] = components
    return key


def known(ruleset: Ruleset[Any, Any], content_hash: str) -> ComponentSet | None:
    """The set already at hand under this hash, without asking the loaders: the game's default, or
    one remembered in this process; None otherwise.

    Why: verification reads each bundle's set and checks its canonical hash against the created
    event's. Data with that hash is, byte for byte, the content of the set remembered under it, so
    validating it and hashing the validated set again (1–2 ms for a real game's set, every
    bundle) would only rebuild the same set."""
    default, default_hash = default_components(ruleset)
    if default_hash == content_hash:
        return default
    with _LOCK:
        return _SETS.get((ruleset.name, content_hash))


_DEFAULTS: dict[tuple[str, str], tuple[ComponentSet, str]] = {}


def default_components(ruleset: Ruleset[Any, Any]) -> tuple[ComponentSet, str]:
    """A game's default set and its hash, computed once per process (hashing a large set per fold
    would dominate time travel)."""
    key = (ruleset.name, ruleset.engine_version)
    found = _DEFAULTS.get(key)
    if found is None:
        components = ruleset.default_components()
        found = _DEFAULTS[key] = (components, components.content_hash())
    return found


def add_loader(loader: Callable[[str, str], Any | None]) -> None:
    """Register a function (game, hash) -> component JSON or None, consulted on a miss."""
    if loader not in _loaders:
        _loaders.append(loader)


def remove_loader(loader: Callable[[str, str], Any | None]) -> None:
    if loader in _loaders:
        _loaders.remove(loader)


def lookup(ruleset: Ruleset[Any, Any], content_hash: str) -> ComponentSet:
    with _LOCK:
        found = _SETS.get((ruleset.name, content_hash))
    if found is not None:
        return found
    for loader in list(_loaders):
        data = loader(ruleset.name, content_hash)
        if data is not None:
            components = ruleset.components_model.model_validate(data)
            if components.content_hash() == content_hash:
                remember(ruleset, components)
                return components
    raise InvalidComponentsError(
        f"component set {content_hash[:12]}… for {ruleset.name} is not known here; import it first"
    )

"""Component sets: a game's physical pieces (tiles, maps, cards, tracks) as validated data.

A game never hard-codes its pieces: it declares a pydantic schema, ships a default set as JSON in
its package, and accepts any other set that validates. The content hash of the set a match used is
written into the match's created event, so a replay knows exactly which pieces were on the table.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .canonical import digest
from .errors import InvalidComponentsError
from .strict import LAZY


class ComponentPart(BaseModel):
    """Base of every piece inside a component set (a tile type, a city, a card face, a constant).

    Why one base: a part is data read from a file, so a misspelt field must be refused, not
    silently dropped (`extra="forbid"`), and the engines share parts between states and matches,
    so nothing may change one after loading (`frozen`). Every game's parts inherit this instead
    of restating the config, so the two rules hold for every game alike.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)


class ComponentSet(BaseModel):
    """Base of every game's component schema. Immutable once loaded."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)

    name: str = "default"
    """A human name for this set (e.g. "default", "real-faces-2nd-edition")."""

    def content(self) -> dict[str, Any]:
        """The set as canonical JSON data (what the hash is taken over)."""
        return self.model_dump(mode="json")

    def content_hash(self) -> str:
        return digest(self.content())


C = TypeVar("C", bound=ComponentSet)


def load_components(model: type[C], data: Any) -> C:
    """Validate data against the game's schema, turning pydantic's error into a typed one."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(root)"
        raise InvalidComponentsError(
            f"component set is invalid at {where}: {first['msg']}",
            errors=len(error.errors()),
        ) from None


def load_packaged(model: type[C], package: str, filename: str) -> C:
    """Load a component set shipped as JSON data inside a game package."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return load_components(model, json.loads(text))

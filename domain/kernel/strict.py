"""The base of the record's typed payloads: strict, closed, immutable pydantic models.

Why strict: a record is JSON that anyone may have written, and verification must read exactly what
is there. A seat `true` or `"0"` is not seat 0, and a payload with a field the application never
writes is not one it wrote, so integers are integers (booleans and floats refused) and unknown
fields are refused. The models only type a payload: hashing and signing keep the payload's own
dict, so a record's canonical bytes never depend on how it was parsed.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

LAZY = ConfigDict(defer_build=True)
"""The config of every kernel and game model and adapter: its validator is built when it is first
used, not when its module is imported. Why: a process that reads one position (`ringside show`)
imports the modules of every payload, ruling, header and position model but validates with a few
of them, and building the others cost it 8 % of its instructions. Nothing else changes: a model's
checks are the same, built on first use."""


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, **LAZY)


def _given(value: Any) -> Any:
    if value is None:  # absent and null are two different records: only absent is ever written
        raise ValueError("is null (an optional field is left out, never null)")
    return value


NotNull = BeforeValidator(_given)
"""For optional fields (`Annotated[str | None, NotNull] = None`): absent is None, null is refused."""

OptionalText = Annotated[str | None, NotNull]
OptionalTexts = Annotated[list[str] | None, NotNull]


def first_errors(error: ValidationError, depth: int = 0) -> dict[str, str]:
    """The fields a model refused (the location's part at `depth`; the whole input when it has
    none), each with its first reason, in the order the model lists its fields."""
    found: dict[str, str] = {}
    for item in error.errors():
        location = item["loc"]
        found.setdefault(str(location[depth]) if len(location) > depth else "", item["msg"])
    return found

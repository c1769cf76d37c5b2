"""Arbiters' rulings: what each kind records, when an arbiter may make it, and how one ends a match.

Why one module: the application checks a ruling before it records it, and verification checks
every ruling of a record it is handed at the point where it stands. Both call `check_ruling`, so a
ruling the application records is one its verification accepts, and a forged one is refused by
the same words the application would have refused it with.

The kinds (docs/architecture.md, "Rulings"): `correction` (retract from an event), `penalty` (a
score line with rule `RULING`), `forfeit` (ends the match, the seat ranked last),
`adjudicated-result` (ends with given ranks), `illegal-move-stands` (applies a move without
validation). Each is a pydantic model with strict integers; a ruling's payload is their union,
told apart by its `ruling` field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from .contract import Result
from .errors import InvalidRequestError
from .strict import LAZY, OptionalText, Strict, first_errors

if TYPE_CHECKING:
    from .fold import MatchFold

RULING_KINDS = ("correction", "penalty", "forfeit", "adjudicated-result", "illegal-move-stands")
ENDING = ("forfeit", "adjudicated-result")
"""The rulings that end the match: the ended event must follow at once."""

FIELDS: dict[str, tuple[str, ...]] = {
    "correction": ("from_seq",),
    "penalty": ("seat", "points"),
    "forfeit": ("seat",),
    "adjudicated-result": ("ranks",),
    "illegal-move-stands": ("seat", "move"),
}
"""Each kind's own fields, in the order they are checked (and its refusal worded)."""


class _Ruling(Strict):
    """What every ruling records besides its kind's own fields: the arbiter's note."""

    note: str = ""


class Correction(_Ruling):
    ruling: Literal["correction"]
    from_seq: int


class Penalty(_Ruling):
    ruling: Literal["penalty"]
    seat: int
    points: int


class Forfeit(_Ruling):
    ruling: Literal["forfeit"]
    seat: int


class AdjudicatedResult(_Ruling):
    ruling: Literal["adjudicated-result"]
    ranks: list[int]


class IllegalMoveStands(_Ruling):
    """The move is the game's move as JSON: the engine applies it without validating it (the
    ruling's point). The salt is there when the move is secret, as the seat's own would have been."""

    ruling: Literal["illegal-move-stands"]
    seat: int
    move: Any
    salt: OptionalText = None


Ruling = Annotated[Correction | Penalty | Forfeit | AdjudicatedResult | IllegalMoveStands,
                   Field(discriminator="ruling")]
RULING: TypeAdapter[Correction | Penalty | Forfeit | AdjudicatedResult | IllegalMoveStands] = TypeAdapter(
    Ruling, config=ConfigDict(**LAZY))
"""Validates a ruling event's payload."""


def requested(request: Mapping[str, Any], note: str) -> dict[str, Any]:
    """The payload of the ruling an arbiter asks for: its kind, the note and the kind's own fields
    (anything else in the request is not recorded)."""
    kind = request.get("ruling")
    own = FIELDS.get(kind, ()) if isinstance(kind, str) else ()
    return {"ruling": kind, "note": note, **{name: request.get(name) for name in own}}


def check_ruling(fold: MatchFold, payload: Mapping[str, Any]) -> Correction | Penalty | Forfeit | \
        AdjudicatedResult | IllegalMoveStands:
    """The ruling, if an arbiter may make it at this point of the match; else MatchOverError (the
    match is over) or InvalidRequestError naming the first field that is wrong, in the order the
    kind's fields are checked."""
    fold.check_active()
    try:
        parsed: Correction | Penalty | Forfeit | AdjudicatedResult | IllegalMoveStands | None = \
            RULING.validate_python(payload)
    except ValidationError as error:
        parsed, mistyped = None, _mistyped(error)
    else:
        mistyped = {}
    kind = payload.get("ruling")
    if "ruling" in mistyped or not isinstance(kind, str) or kind not in FIELDS:
        raise InvalidRequestError(
            "ruling must be correction, penalty, forfeit, adjudicated-result or illegal-move-stands")
    for name in FIELDS[kind]:
        problem = _field_problem(fold, kind, name, payload.get(name), name in mistyped)
        if problem is not None:
            raise InvalidRequestError(problem)
    if parsed is None:  # a field outside the kind's own: the note, the salt, or one it does not hold
        name, message = next(iter(mistyped.items()))
        raise InvalidRequestError(f"the {kind} ruling is malformed ({name}: {message})")
    return parsed


def _mistyped(error: ValidationError) -> dict[str, str]:
    """The payload fields the model refused, with why ("ruling" when the kind itself is not one:
    the union's errors are located under the kind, so a field is the location's second part)."""
    return {name or "ruling": message for name, message in first_errors(error, depth=1).items()}


def _field_problem(fold: MatchFold, kind: str, name: str, value: Any, mistyped: bool) -> str | None:
    seats = fold.seats
    if name == "seat":
        if mistyped or not 0 <= value < seats:
            return f"seat must be 0..{seats - 1}"
        if kind == "illegal-move-stands" and (fold.decision.chance is not None or value not in fold.decision.seats):
            return f"seat {value} is not to act now"
    elif name in ("points", "from_seq") and mistyped:
        return f"{name} must be a whole number"
    elif name == "from_seq" and not any(step.seq == value for step in fold.steps):
        return f"event {value} is not an effective move or outcome"
    elif name == "ranks" and (mistyped or len(value) != seats or not all(1 <= rank <= seats for rank in value)):
        return f"ranks must list a rank 1..{seats} for each seat"
    return None


def ending_result(fold: MatchFold, reason: str) -> Result:
    """The result of a match that ends now for `reason`: as the rules give it when it is
    completed; by the ranks of the adjudicated result, or with the forfeiting seat ranked last,
    when the ruling just made ends it."""
    ruling = fold.last_ruling
    ranks = ruling.get("ranks") if reason == "adjudicated-result" else None
    forfeits = (ruling["seat"],) if reason == "forfeit" and "seat" in ruling else ()
    return fold.result(reason, ranks, forfeits)

"""The created event's header: what it holds, typed, and the rules it keeps.

Why one module: the application checks a new match's terms (variant, seats, randomness, undo and
entropy policy) before it writes the created event, and verification checks the created event of
every record it is handed against the same rules. Both call the rules here; each refusal carries
the application's error and verification's finding (see refusal.py), so neither wording drifts
from the rule. `header_problem` is the whole check of a header as written, run by the application
on the header it is about to sign and by verification on the header it reads.

The model only types the header. Hashing keeps the header's own dict, so the canonical bytes of a
record never depend on how it was parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import ValidationError

from .contract import Ruleset, VariantInfo
from .errors import InvalidRequestError, InvalidSeatsError, UnknownVariantError
from .refusal import Refusal
from .strict import NotNull, OptionalText, Strict, first_errors
from .undo import UNDO_POLICIES, UndoPolicy

Randomness = Literal["server", "recorded"]
RANDOMNESS: tuple[str, ...] = get_args(Randomness)
ENTROPY_FROM = ("seats",)
"""The entropy policies besides the default (absent: the entropy given at creation is all)."""


class SeatEntry(Strict):
    seat: int
    player: str


class ComponentsRef(Strict):
    """The component set a match uses, named by its content hash (the bundle carries the set)."""

    name: str
    hash: str


class PreludeStep(Strict):
    """One step a fork inherits from its parent: a move, a forced move (a ruling) or a chance outcome."""

    kind: Literal["move", "forced", "chance"]
    seat: int | None
    data: Any


class InheritedPenalty(Strict):
    """A penalty of a fork's parent, with the sequence number of the parent's ruling."""

    seat: int
    points: int
    reason: str
    seq: int


class CreatedHeader(Strict):
    """The created event's payload, field by field as the application writes it."""

    match_id: str
    game: str
    variant: str
    options: dict[str, Any]
    seats: list[SeatEntry]
    engine_version: str
    components: ComponentsRef
    randomness: Randomness
    seed_commitment: str
    entropy: list[str]
    undo_policy: UndoPolicy
    fork_of: dict[str, Any] | None
    """The parent (match, position, head hash) of a fork. Any object: readers show it, never follow it blindly."""
    prelude: list[PreludeStep]
    title: str
    salt: OptionalText = None
    """Only with a prelude or a position: either may hold hidden parts, and the salt keeps them from
    being guessed."""
    penalties: list[InheritedPenalty] = []
    entropy_from: Annotated[Literal["seats"] | None, NotNull] = None
    """Absent (None) in every record whose entropy is all given at creation."""
    position: Annotated[dict[str, Any] | None, NotNull] = None
    """The game's position the match starts from (docs/positions.md); absent for the standard setup.
    Its contents are the game's position model's to check, which the fold does when it starts."""


def variant_refusal(ruleset: Ruleset[Any, Any], variant: Any) -> Refusal | None:
    if isinstance(variant, str) and variant in ruleset.variants:
        return None
    return Refusal(UnknownVariantError(f"{ruleset.name} has no variant {variant!r} "
                                       f"(variants: {', '.join(ruleset.variants)})"),
                   f"variant {variant!r} is not one of {ruleset.name}'s")


def seats_refusal(ruleset: Ruleset[Any, Any], variant: str, seats: int) -> Refusal | None:
    info = ruleset.variants[variant]
    if info.min_seats <= seats <= info.max_seats:
        return None
    return Refusal(InvalidSeatsError(f"{ruleset.name} {variant} is played by {info.min_seats}–{info.max_seats} "
                                     f"players, not {seats}"), _seats_finding(info))


def _seats_finding(info: VariantInfo) -> str:
    return f"seats are not {info.min_seats}–{info.max_seats} numbered seats with their players"


_TERMS_FINDING = "randomness or undo policy is not one there is"
_ENTROPY_FINDING = "entropy policy is not 'seats' in a server-mode match"


def randomness_refusal(randomness: Any) -> Refusal | None:
    if randomness in RANDOMNESS:
        return None
    return Refusal(InvalidRequestError("randomness must be 'server' or 'recorded'"), _TERMS_FINDING)


def undo_policy_refusal(policy: Any) -> Refusal | None:
    if policy in UNDO_POLICIES:
        return None
    return Refusal(InvalidRequestError(f"undo policy must be one of {', '.join(UNDO_POLICIES)}"), _TERMS_FINDING)


def entropy_policy_refusal(entropy_from: Any, randomness: Any) -> Refusal | None:
    """Seat entropy (`entropy_from: "seats"`) is for outcomes the server draws; None: the default."""
    if entropy_from is None:
        return None
    if entropy_from not in ENTROPY_FROM:
        return Refusal(InvalidRequestError(
            "entropy_from must be 'seats' (or left out: the entropy given at creation only)"), _ENTROPY_FINDING)
    if randomness != "server":
        return Refusal(InvalidRequestError(
            "seat entropy is for outcomes the server draws: a match in recorded mode takes its outcomes "
            "from the table, so it cannot take entropy from its seats (use randomness 'server')"), _ENTROPY_FINDING)
    return None


def header_problem(header: Mapping[str, Any], ruleset: Ruleset[Any, Any]) -> str | None:
    """What in a created event is not what the application records, or None. The first fault is
    named, in the order these checks have always run (verification reports it as "the created
    event's <problem>")."""
    mistyped = _mistyped(header)
    variant = header.get("variant")
    refused = variant_refusal(ruleset, variant)
    if refused is not None:
        return refused.finding
    info = ruleset.variants[str(variant)]
    seats = header.get("seats")
    if "seats" in mistyped or not isinstance(seats, list) or seats_refusal(ruleset, str(variant), len(seats)) \
            or any(entry["seat"] != number for number, entry in enumerate(seats)):
        return _seats_finding(info)
    refused = randomness_refusal(header.get("randomness")) or undo_policy_refusal(header.get("undo_policy"))
    if refused is not None:
        return refused.finding
    if "entropy" in mistyped:
        return "players' entropy is not a list of strings"
    refused = entropy_policy_refusal(header.get("entropy_from"), header["randomness"])
    if "entropy_from" in mistyped or refused is not None:
        return _ENTROPY_FINDING
    if "components" in mistyped:
        return "component set is not named by its hash"
    if "prelude" in mistyped:
        return "prelude is not a list of steps"
    if "fork_of" in mistyped or "seed_commitment" in mistyped:
        return "fork or seed commitment is malformed"
    if "position" in header and ("position" in mistyped or ruleset.position_model is None):
        return "position is not an object of the game's position format"
    penalties = header.get("penalties", [])
    if "penalties" in mistyped or any(not 0 <= penalty["seat"] < len(seats) for penalty in penalties) \
            or (penalties and header["fork_of"] is None):
        return "inherited penalties are malformed (or not a fork's)"
    if mistyped:  # a field no older check named (the title, the salt, one a created event does not hold)
        name, message = next(iter(mistyped.items()))
        return f"{name} is malformed ({message})"
    return None


def _mistyped(header: Mapping[str, Any]) -> dict[str, str]:
    """The header's fields the model refuses, each with the first reason."""
    try:
        CreatedHeader.model_validate(header)
    except ValidationError as error:
        return first_errors(error)
    return {}

"""Typed errors: every refusal says, in words a person understands, what was wrong.

Each error carries a stable `code` (for the API's problem+json and the CLI's exit status) and,
for rule violations, the rule ID it breaks. Raising one of these never leaves the record changed:
commands validate everything before they append.
"""

from __future__ import annotations

from typing import Any


class RingsideError(Exception):
    """Base of every error a user can cause. `code` is stable; `message` is for people."""

    code = "error"
    status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class IllegalMoveError(RingsideError):
    """A move the rules forbid. `rule` is the rule ID (e.g. "CB-3.1") that it breaks."""

    code = "illegal-move"
    status = 422

    def __init__(self, rule: str, reason: str, **details: Any) -> None:
        super().__init__(f"{reason} ({rule})", rule=rule, reason=reason, **details)
        self.rule = rule
        self.reason = reason


class MalformedMoveError(RingsideError):
    """The move is not a move of this game at all (unknown type, missing or wrong field)."""

    code = "malformed-move"
    status = 422


class NotYourTurnError(RingsideError):
    code = "not-your-turn"
    status = 409


class ChancePendingError(RingsideError):
    code = "chance-pending"
    status = 409


class MatchOverError(RingsideError):
    code = "match-over"
    status = 409


class UnknownGameError(RingsideError):
    code = "unknown-game"
    status = 404


class UnknownVariantError(RingsideError):
    code = "unknown-variant"
    status = 422


class InvalidOptionsError(RingsideError):
    code = "invalid-options"
    status = 422


class InvalidComponentsError(RingsideError):
    code = "invalid-components"
    status = 422


class InvalidSeatsError(RingsideError):
    code = "invalid-seats"
    status = 422


class MatchNotFoundError(RingsideError):
    code = "match-not-found"
    status = 404


class NotFoundError(RingsideError):
    code = "not-found"
    status = 404


class StaleVersionError(RingsideError):
    """The caller's expected version is not the record's head: someone else appended first."""

    code = "stale-version"
    status = 409

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the match is at version {current}, not {expected}: reload and try again",
            expected=expected,
            current=current,
        )
        self.current = current


class ConflictError(RingsideError):
    """Concurrent appends kept colliding after retries."""

    code = "conflict"
    status = 409


class UndoRefusedError(RingsideError):
    code = "undo-refused"
    status = 409


class EntropyRefusedError(RingsideError):
    """Entropy a seat cannot add now: the match takes none from its seats, the seat already added
    its own, or the first chance outcome was drawn."""

    code = "entropy-refused"
    status = 409


class ImpossibleOutcomeError(RingsideError):
    """A recorded chance outcome that cannot have happened (e.g. a tile no longer in the stack)."""

    code = "impossible-outcome"
    status = 422


class EngineVersionError(RingsideError):
    """The record was made under another rules-engine version than this server runs."""

    code = "engine-version"
    status = 409


class ForbiddenError(RingsideError):
    code = "forbidden"
    status = 403


class InvalidRequestError(RingsideError):
    code = "invalid-request"
    status = 422


class BundleError(RingsideError):
    """A bundle that cannot be read at all (not JSON Lines, wrong format or version)."""

    code = "invalid-bundle"
    status = 422


class InvalidPositionError(RingsideError):
    """A position a match cannot start from: not in the game's position format, or inconsistent
    with the game's components and invariants. `path` names the field (`board.3.rotation`, or
    `(position)` for the whole) and `rule` the rule or invariant it breaks (a game's rule ID, or
    the kernel's `POSITION` when no one rule of the game says it)."""

    code = "invalid-position"
    status = 422

    def __init__(self, path: str, rule: str, reason: str) -> None:
        super().__init__(f"position {path}: {reason} ({rule})", path=path, rule=rule, reason=reason)
        self.path = path
        self.rule = rule
        self.reason = reason


class PositionUnavailableError(RingsideError):
    """The state at this point is not one the game's position format describes (the middle of a
    turn, a finished match), or the game has no position format."""

    code = "no-position"
    status = 409

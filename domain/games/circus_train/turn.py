"""A seat's decision as the ruleset calls it: the legal moves, the checks of a move (each refusal
names its rule) and the move's effect, run on to the next decision.

Each goes through the kernel's machine to the row of the step at the head of the agenda (tasks.py),
whose handlers are in decisions.py (events.py for event cards). The names below them that the bots
and tests read are re-exported here.
"""

from __future__ import annotations

from domain.kernel.agenda import Step

from .board import change_reputation
from .limits import allowance, hire_range, perform_error, special_price
from .state import State
from .tasks import AGENDA


def legal_moves(state: State, seat: int) -> list[object]:
    """Every legal move of `seat` now (none when the decision is another's, or chance's)."""
    return AGENDA.legal_moves(state, seat)


def validate(state: State, seat: int, move: object) -> None:
    """Raise IllegalMoveError naming the rule broken, or return if the move is legal now."""
    AGENDA.validate(state, seat, move)


def apply(state: State, seat: int, move: object) -> State:
    """The state after a validated move, run to the next decision."""
    return AGENDA.apply(state, seat, move)


def waiting_rule(step: Step) -> str:
    """The rule that gives the pending decision to someone else (a seat or chance): turn order in
    the Ringmaster Phase (CT-7.1), the setup order, the chooser of fired talent's city, the draw or
    roll that comes first."""
    return AGENDA.waiting_rule(step) or "CT-7.1"


__all__ = [
    "allowance",
    "apply",
    "change_reputation",
    "hire_range",
    "legal_moves",
    "perform_error",
    "special_price",
    "validate",
    "waiting_rule",
]

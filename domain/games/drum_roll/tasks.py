"""The table of step kinds: one row per kind of task on the Drum Roll agenda, and the machine that
runs them (the kernel's `Agenda`, domain/kernel/agenda.py and docs/agenda.md).

Built so far: the setup (DR-2, DR-22; handlers in flow.py). The kinds are stored in every state:
renaming one changes every state hash (bump `engine_version` if that is ever done).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Agenda, Auto, Chance, Choice, Row, Step
from domain.kernel.errors import IllegalMoveError

from . import flow
from . import moves as mv
from .state import State


def out_of_step(state: State, seat: int, step: Step, move: object, asks: str) -> IllegalMoveError:
    """A move the decision in progress does not take: cite the rule that says when such a move is made."""
    now = f"now you must {asks}"
    if isinstance(move, mv.KeepPerformer):
        return IllegalMoveError("DR-2.9", f"a drawn performer is kept only in the opening draft; {now}")
    if isinstance(move, mv.TakeCubes):
        return IllegalMoveError("DR-2.10", f"starting cubes are taken only at setup; {now}")
    return IllegalMoveError("DR-2.1", now)


ROWS: tuple[Row[State, Any], ...] = (
    # ---- setup (DR-2, DR-22) ---------------------------------------------------------------
    Chance("draw_helper", flow.helper_spec, flow.resolve_helper, rule="DR-2.4"),
    Chance("draw_performer", flow.performer_spec, flow.resolve_performer, rule="DR-2.5"),
    Chance("draw_region", flow.region_spec, flow.resolve_region, rule="DR-2.8"),
    Auto("regions_out", flow.regions_out),
    Chance("draft_draw", flow.draft_spec, flow.resolve_draft, rule="DR-2.9"),
    Choice("keep_performer", (mv.KeepPerformer,), flow.keep_legal, flow.keep_validate, flow.keep_apply,
           rule="DR-2.9", prompt="keep one of your two drawn performers; the other goes to your left (DR-2.9)",
           asks="keep one of your drawn performers"),
    Auto("draft_reveal", flow.draft_reveal),
    Choice("starting_cubes", (mv.TakeCubes,), flow.cubes_legal, flow.cubes_validate, flow.cubes_apply,
           rule="DR-2.10", prompt="take two starting cubes from the general supply (DR-2.10)",
           asks="take your two starting cubes"),
    Auto("starting_money", flow.starting_money),
    Chance("start_player", flow.start_spec, flow.resolve_start, rule="DR-2.12"),
    Auto("given_start", flow.given_start),
)

AGENDA: Agenda[State, Any] = Agenda(ROWS, over_rule="DR-3.5", out_of_step=out_of_step)
"""The machine over the table, which the ruleset (rules.py) calls for each decision, move and outcome."""

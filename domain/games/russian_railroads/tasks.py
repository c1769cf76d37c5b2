"""The table of step kinds: one row per kind of task on the Russian Railroads agenda, and the machine
that runs them (the kernel's `Agenda`, domain/kernel/agenda.py and docs/agenda.md).

The game's structure is data (RR-4.2): numbered rounds (six or seven by player count, RR-3.1), each
a program of phases; the action phase is a rotation in turn order until everyone has passed
(RR-12.1 to RR-12.3). A turn is a sequence of small decisions: the action space and its payment,
then each part of the action, each with the benefits it triggers, before the next (RR-5.7).

Handlers: the setup's draws and the round's closing phases in course.py, the turn in actions.py, an
action's parts in parts.py. A decision with a single possible move is made by itself (`forced`), so
a record holds only real choices. The kinds are stored in every state: renaming one changes every
state hash (bump `engine_version` if that is ever done).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from domain.kernel.agenda import Agenda, Auto, Chance, Choice, Row, Step, ordered, parts_of, program, rotation, rounds
from domain.kernel.errors import IllegalMoveError

from . import actions as ac
from . import course
from . import moves as mv
from . import parts as pt
from .effects import part_label
from .state import State

Needed = Callable[[State, Step], bool]
Otherwise = Callable[[State, Step], State]


def forced(legal: Callable[[State, int, Step], Sequence[Any]], otherwise: Otherwise) -> tuple[Needed, Otherwise]:
    """`needed` and `otherwise` for a decision that asks only when there is more than one way."""

    def needed(state: State, step: Step) -> bool:
        return len(legal(state, pt.seat_of(step), step)) > 1

    return needed, otherwise


def out_of_step(state: State, seat: int, step: Step, move: object, asks: str) -> IllegalMoveError:
    """A move the decision in progress does not take: cite the rule that says when such a move is made."""
    now = f"now you must {asks}"
    if step.kind == "action" and isinstance(move, (mv.Advance, mv.MoveMarker, mv.PlaceLocomotive, mv.TakeFactory)):
        return IllegalMoveError("RR-5.7", f"first choose which part of the action comes next; {now}")
    if isinstance(move, mv.Place):
        if step.kind == "reuse_worker":
            return IllegalMoveError("RR-12.13", now)
        return IllegalMoveError("RR-5.4", f"one action a turn: finish the one in progress; {now}")
    if isinstance(move, mv.Pass):
        return IllegalMoveError("RR-12.3", f"a player passes instead of an action, not in the middle of one; {now}")
    if isinstance(move, mv.DraftBonus):
        return IllegalMoveError("RR-2.20", f"starting bonus cards are taken only at setup; {now}")
    if isinstance(move, mv.NextPart):
        return IllegalMoveError("RR-5.7", f"there are no parts to order now; {now}")
    if isinstance(move, (mv.TakeBonusCard, mv.TakeBonusVP)):
        return IllegalMoveError("RR-21.2", f"a final bonus card is taken only when an effect gives one; {now}")
    if isinstance(move, mv.ChooseToken):
        return IllegalMoveError("RR-19.1", f"a bonus token is gained only on a token space; {now}")
    if isinstance(move, mv.ChooseCard):
        return IllegalMoveError("RR-20.1", f"a face-up card is gained only through bonus token T7; {now}")
    if isinstance(move, mv.Repeat):
        return IllegalMoveError("RR-22.7", f"a repeat needs a repeat action; {now}")
    if isinstance(move, (mv.PlaceLocomotive, mv.TakeFactory)):
        return IllegalMoveError("RR-7.1", f"a locomotive or factory comes from an action that gives one; {now}")
    if isinstance(move, mv.MoveMarker):
        return IllegalMoveError("RR-9.1", f"an industry marker moves only with an industry advancement; {now}")
    if isinstance(move, mv.Advance):
        return IllegalMoveError("RR-6.2", f"a track moves only with a track advancement; {now}")
    return IllegalMoveError("RR-5.1", now)


def by_label(row: Choice[State, Any]) -> Choice[State, Any]:
    """RR-5.7: parts that differ only in what the player cannot see (the black worker's extra black
    advancement may be lost, the action's own may not, RR-20.3) are alike to the player: one move
    for them, and no decision when only such parts are left."""

    def legal(state: State, seat: int, step: Step) -> list[Any]:
        moves = list(row.legal(state, seat, step))
        return [move for index, move in enumerate(moves) if move not in moves[:index]]

    def needed(state: State, step: Step) -> bool:
        return len({part_label(part) for part in parts_of(step)}) > 1

    return replace(row, legal=legal, needed=needed)


ADVANCE = forced(pt.advance_legal, pt.advance_otherwise)
INDUSTRY = forced(pt.industry_legal, pt.industry_otherwise)
TAKE = forced(pt.take_legal, pt.take_otherwise)
DISPLACED = forced(pt.displaced_legal, pt.displaced_otherwise)
REPEAT = forced(pt.repeat_legal, pt.repeat_otherwise)


def _drop_or_fail(rule: str, reason: str) -> Callable[[State, Step], State]:
    def otherwise(state: State, step: Step) -> State:
        return pt.skip_or_fail(state, step, rule, reason)

    return otherwise


ROWS: tuple[Row[State, Any], ...] = (
    # ---- setup (RR-2, RR-3) -----------------------------------------------------------------
    Chance("remove_bonus", course.removal_spec, course.resolve_removal, rule="RR-2.3"),
    Chance("place_engineer", course.engineer_spec, course.resolve_engineer, rule="RR-2.8"),
    Chance("deal", course.deal_spec, course.resolve_deal, rule="RR-2.18"),
    Auto("drafts", course.drafts),
    Choice("draft", (mv.DraftBonus,), pt.draft_legal, pt.draft_validate, pt.draft_apply, rule="RR-2.20",
           prompt="take a starting bonus card (RR-2.20)", asks="take a starting bonus card"),
    # ---- rounds (RR-4.2) ---------------------------------------------------------------------
    rounds("game", "round", last=lambda state, step: state.rounds),
    program("round", ["round_start", "actions", "reorganise", "reuse", "scoring", "cleanup"]),
    Auto("round_start", course.round_start),
    rotation("actions", "turn", order=lambda state, step: state.order(),
             active=lambda state, seat: not state.players[seat].passed),
    Choice("turn", (mv.Place, mv.Pass), ac.turn_legal, ac.turn_validate, ac.turn_apply, whole=True, rule="RR-12.1",
           prompt="take an action or pass (RR-5.1)", asks="take an action or pass"),
    Auto("reorganise", course.reorganise),
    Auto("reuse", course.reuse),
    Choice("reuse_worker", (mv.Place, mv.Decline), ac.reuse_legal, ac.reuse_validate, ac.reuse_apply, whole=True,
           rule="RR-12.13", prompt="move your turn-order worker to a free single-worker space, or decline (RR-12.13)",
           asks="move your turn-order worker or decline"),
    Auto("scoring", course.scoring_phase),
    Auto("cleanup", course.cleanup),
    Auto("final_scoring", course.final_scoring),
    # ---- an action's parts (RR-5.7) and what they trigger --------------------------------------
    by_label(ordered("action", accepts=(mv.NextPart,), choose=pt.next_part, picks=pt.picks, order_rule="RR-5.7",
                     rule="RR-5.7", prompt="choose the part of the action to do next (RR-5.7)",
                     asks="choose the next part of the action")),
    Choice("advance", (mv.Advance, mv.Decline), pt.advance_legal, pt.advance_validate, pt.advance_apply,
           needed=ADVANCE[0], otherwise=ADVANCE[1], rule="RR-6.3",
           prompt="choose the track to advance (RR-6.3)", asks="choose the track to advance"),
    Auto("specials", pt.specials),
    Choice("industry", (mv.MoveMarker,), pt.industry_legal, pt.industry_validate, pt.industry_apply,
           needed=INDUSTRY[0], otherwise=INDUSTRY[1], rule="RR-19.4",
           prompt="choose the industry marker to move (RR-19.4)", asks="choose the industry marker to move"),
    Auto("multiplier", pt.multiplier),
    Auto("gain", pt.gain),
    Choice("take", (mv.PlaceLocomotive, mv.TakeFactory), pt.take_legal, pt.take_validate, pt.take_apply,
           needed=TAKE[0], otherwise=TAKE[1], rule="RR-7.1",
           prompt="place the locomotive or take the factory (RR-7.4, RR-8.3)",
           asks="place the locomotive or take a factory"),
    Choice("displaced", (mv.PlaceLocomotive,), pt.displaced_legal, pt.displaced_validate, pt.displaced_apply,
           needed=DISPLACED[0], otherwise=DISPLACED[1], rule="RR-7.6",
           prompt="place the displaced locomotive on another railway (RR-7.6)",
           asks="place the displaced locomotive"),
    Choice("token", (mv.ChooseToken,), pt.token_legal, pt.token_validate, pt.token_apply,
           needed=lambda state, step: bool(pt.token_legal(state, pt.seat_of(step), step)),
           rule="RR-13.9", prompt="choose a bonus token (RR-19.1)", asks="choose a bonus token"),
    Choice("face_up", (mv.ChooseCard,), pt.face_up_legal, pt.face_up_validate, pt.face_up_apply,
           needed=pt.face_up_needed, otherwise=_drop_or_fail("RR-20.7", "no face-up card can be performed in full"),
           rule="RR-19.8", prompt="choose a face-up card (RR-19.8)", asks="choose a face-up card"),
    Choice("final_bonus", (mv.TakeBonusCard, mv.TakeBonusVP), pt.final_bonus_legal, pt.final_bonus_validate,
           pt.final_bonus_apply, rule="RR-21.2", prompt="take a final bonus card or 10 VP (RR-21.2)",
           asks="take a final bonus card or 10 VP"),
    Choice("repeat", (mv.Repeat,), pt.repeat_legal, pt.repeat_validate, pt.repeat_apply,
           needed=REPEAT[0], otherwise=REPEAT[1], rule="RR-22.7",
           prompt="choose the action to repeat (RR-22.7)", asks="choose the action to repeat"),
    Choice("again", (mv.NextPart,), pt.again_legal, pt.again_validate, pt.again_apply, rule="RR-20.2",
           prompt="choose the action to do a second time (RR-20.2)", asks="choose the action to do again"),
)

def position_key(state: State) -> tuple[Any, ...]:
    """The state as the all-or-nothing search tells positions apart (orders of advancements and
    benefits often meet in the same position): everything but the score lines, which decide nothing."""
    return (state.agenda, tuple(p.key() for p in state.players), state.placements, tuple(state.stacks.items()),
            state.pool, state.strip, state.multipliers_left, state.face_up, state.bonus_deck, state.round)


AGENDA: Agenda[State, Any] = Agenda(ROWS, over_rule="RR-17.1", out_of_step=out_of_step, probe_budget=200_000,
                                    probe_key=position_key)
"""The machine over the table, which the ruleset (rules.py) calls for each decision, move and outcome."""

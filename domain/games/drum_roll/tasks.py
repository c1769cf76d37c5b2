"""The table of step kinds: one row per kind of task on the Drum Roll agenda, and the machine that
runs them (the kernel's `Agenda`, domain/kernel/agenda.py and docs/agenda.md).

Built so far: the setup (DR-2, DR-22; handlers in flow.py), a preparation round's action phase
(DR-4 to DR-7; actions.py), investment cards and the hand limit (DR-21; cards.py,
investments.py) and the sharing phase (DR-8; sharing.py), the end of round and the bank
clerk (DR-9, DR-3.3; round_end.py), the votes (DR-10; vote.py), and each performance: the show
organiser's return before it (DR-19.2; performance_end.py), each seat's performers, their rewards
and the region bonus (DR-11, DR-15, DR-17, DR-18, DR-20; performance.py, rewards.py, circus.py),
Longer applause (DR-21.14; applause.py), the wage payment (DR-12; wages.py), the end of
performance (DR-13; performance_end.py) and after the third the end of the game (DR-14;
end_of_game.py), after which the agenda runs out and the match ends. The kinds are stored in
every state:
renaming one changes every state hash (bump `engine_version` if that is ever done).
"""

from __future__ import annotations

from typing import Any

from domain.kernel.agenda import Agenda, Auto, Chance, Choice, Row, Step, each_seat, program, resolution, rotation
from domain.kernel.errors import IllegalMoveError

from . import actions as ac
from . import applause as ap
from . import cards as cd
from . import end_of_game as eg
from . import flow
from . import investments as inv
from . import moves as mv
from . import performance as pf
from . import performance_end as pe
from . import rewards as rw
from . import round_end as rnd
from . import sharing as sh
from . import vote as vt
from . import wages as wg
from .state import RESOLVE, State

OUT_OF_STEP: tuple[tuple[tuple[type, ...], str, str], ...] = (
    ((mv.KeepPerformer,), "DR-2.9", "a drawn performer is kept only in the opening draft"),
    ((mv.TakeCubes,), "DR-2.10", "starting cubes are taken only at setup"),
    ((mv.PlaceMarker, mv.PassMarker), "DR-4.1", "markers are placed in turn in the action phase"),
    ((mv.HirePerformer,), "DR-5.11", "a performer is hired when your Hire performer marker resolves"),
    ((mv.HireHelper,), "DR-5.13", "a helper is hired when your Hire helper marker resolves"),
    ((mv.Decline,), "DR-5.18", "only a placed hire can be declined, when it resolves"),
    ((mv.PlaceCube,), "DR-8.1", "cubes go onto performers in your turn of the sharing phase"),
    ((mv.ExchangeCube, mv.DoneSharing), "DR-8.6", "exchanges are made in your turn of the sharing phase"),
    ((mv.Deposit,), "DR-3.3", "money is deposited on the bank clerk at a round's start"),
    ((mv.ReturnOrganiser,), "DR-19.2", "the show organiser is returned at a round's end or just before a performance"),
    ((mv.CastVote,), "DR-10.1", "votes are cast after rounds 5 and 6"),
    ((mv.PlayDoubleVote,), "DR-10.3", "a Double vote card is played after a vote is revealed"),
    ((mv.Perform,), "DR-11.2", "you choose which performer performs next in your own performance"),
    ((mv.ChooseDazzling,), "DR-11.6", "a dazzling performer's reward or flip is chosen when it performs"),
    ((mv.TakeRewardCube,), "DR-18.5", "a reward cube's colour is chosen when the reward is gained"),
    ((mv.KeepInvestment,), "DR-18.9", "investment cards are kept from a look at the deck a reward gives"),
    ((mv.TakeTrailer,), "DR-20.6", "a trailer is placed when a reward or card gives one"),
    ((mv.PayCubes, mv.SkipWage, mv.DeclineReward), "DR-11.4", "rewards are used when a performer performs"),
    ((mv.PlayLongerApplause, mv.DoneApplause), "DR-21.14",
     "Longer applause is played in your own performance, after your performers"),
    ((mv.PlayInvestment,), "DR-21.2",
     "investment cards are played in your own placement turn, hire, sharing turn or hand-limit decision"),
    ((mv.DiscardInvestment,), "DR-21.4", "investment cards are discarded only from a hand over its limit"),
)
"""Per kind of move: the rule that says when it is made, and when, for a move made out of step."""


def out_of_step(state: State, seat: int, step: Step, move: object, asks: str) -> IllegalMoveError:
    """A move the decision in progress does not take: cite the rule that says when such a move is made."""
    now = f"now you must {asks}"
    for kinds, rule, when in OUT_OF_STEP:
        if isinstance(move, kinds):
            return IllegalMoveError(rule, f"{when}; {now}")
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
    # ---- a preparation round's action phase (DR-4 to DR-7) -------------------------------------
    program("prep_round", ["round_start", "bank_clerk", "placement", RESOLVE, "upkeep", "sharing",
                           "after_sharing"]),  # DR-4.1, DR-3.3, DR-3.2, DR-3.4
    Auto("bank_clerk", rnd.bank_clerk),  # DR-3.3
    Choice("deposit", (mv.Deposit,), rnd.deposit_legal, rnd.deposit_validate, rnd.deposit_apply,
           needed=rnd.deposit_needed, rule="DR-3.3",
           prompt="deposit money on the bank clerk (0 for none; DR-19.6)", asks="deposit money on the bank clerk"),
    Auto("round_start", ac.round_start),
    rotation("placement", "place_marker", order=ac.placement_order, active=ac.has_markers),  # DR-4.1
    Choice("place_marker", (mv.PlaceMarker, mv.PassMarker, mv.PlayInvestment),
           *cd.offering(ac.place_legal, ac.place_validate, ac.place_apply),  # DR-21.2
           needed=ac.place_needed, otherwise=ac.forced_pass, rule="DR-4.1",
           prompt="place an action marker or pass with it, or play an investment card (DR-4.1, DR-21.2)",
           asks="place an action marker or pass"),
    resolution(RESOLVE, ac.ORDER),  # DR-6.1
    Auto(ac.CUBE, ac.take_cube),
    Auto(ac.TICKET, ac.sell_ticket),
    Chance(ac.INVESTMENT, ac.investment_spec, ac.resolve_investment, rule="DR-5.8"),
    Choice(inv.HAND_LIMIT, (mv.DiscardInvestment, mv.PlayInvestment), cd.limit_legal, cd.limit_validate,
           cd.limit_apply, needed=cd.limit_needed, rule="DR-21.4",
           prompt="your investment hand is over its limit: play or discard one card (DR-21.4, DR-21.5)",
           asks="play or discard an investment card down to your hand limit"),
    Choice(ac.HIRE_PERFORMER, (mv.HirePerformer, mv.Decline, mv.PlayInvestment),
           *cd.offering(ac.hire_performer_legal, ac.hire_performer_validate, ac.hire_performer_apply),  # DR-21.2
           needed=ac.hire_performer_needed, rule="DR-6.1",
           prompt="hire a performer from the row, play an investment card, or decline (DR-5.11, DR-21.2)",
           asks="hire a performer or decline"),
    Choice(ac.HIRE_HELPER, (mv.HireHelper, mv.Decline, mv.PlayInvestment),
           *cd.offering(ac.hire_helper_legal, ac.hire_helper_validate, ac.hire_helper_apply),  # DR-21.2
           needed=ac.hire_helper_needed, rule="DR-6.1",
           prompt="hire a helper from the row, play an investment card, or decline (DR-5.13, DR-21.2)",
           asks="hire a helper or decline"),
    Auto("upkeep", ac.upkeep),  # DR-7.1
    # ---- the sharing phase (DR-8, DR-19.3, DR-19.7 to DR-19.9) --------------------------------
    each_seat("sharing", "share", order=sh.sharing_order),  # DR-8.8, AMB-41
    Choice("share", (mv.PlaceCube, mv.ExchangeCube, mv.DoneSharing, mv.PlayInvestment),
           *cd.offering(sh.share_legal, sh.share_validate, sh.share_apply),  # DR-21.2
           needed=sh.share_needed, rule="DR-8.8",
           prompt="place a cube on one of your performers, make an agent or secretary exchange, play an "
                  "investment card, or finish (DR-8, DR-21.2)",
           asks="place cubes, exchange, or finish sharing"),
    # ---- after the sharing phase, the end of round (DR-3.4, DR-9, AMB-6) --------------------------
    Auto("after_sharing", rnd.after_sharing),
    program("end_of_round", ["organiser", "refill_helpers", "refill_performers", "pass_start"]),  # DR-9.1 to DR-9.6
    Auto("organiser", rnd.organiser),  # DR-9.1, AMB-15
    Choice("return_organiser", (mv.ReturnOrganiser,), rnd.organiser_legal, rnd.organiser_validate,
           rnd.organiser_apply, rule="DR-9.1",
           prompt="return the show organiser to the helper row and start the next round, or keep it (DR-19.2)",
           asks="return the show organiser or keep it"),
    Auto("refill_helpers", rnd.refill_helpers),  # DR-9.2, DR-9.4
    Chance("refill_helper", flow.helper_spec, flow.resolve_helper, rule="DR-9.2"),
    Auto("refill_performers", rnd.refill_performers),  # DR-9.3, DR-9.4
    Chance("refill_performer", rnd.refill_performer_spec, rnd.resolve_refill_performer, rule="DR-9.3"),
    Auto("pass_start", rnd.pass_start),  # DR-9.5, DR-9.6
    # ---- the vote (DR-10, DR-21.18, DR-22.5) and the performance (DR-3.5) -----------------------
    Auto("vote", vt.vote),
    Choice("ballot", (mv.CastVote,), vt.ballot_legal, vt.ballot_validate, vt.ballot_apply, rule="DR-10.2",
           prompt="vote to postpone the performance or to perform now; secret until all have voted (DR-10.2)",
           asks="cast your vote"),
    Choice("double_vote", (mv.PlayDoubleVote,), vt.double_legal, vt.double_validate, vt.double_apply,
           needed=vt.double_needed, rule="DR-10.3",
           prompt="play a Double vote card so your vote counts twice, or not (DR-21.18)",
           asks="play a Double vote card or not"),
    Auto("count_votes", vt.count_votes),  # DR-10.4 to DR-10.7
    # ---- the performance (DR-11, DR-15, DR-17, DR-18, DR-20, DR-21.14) ------------------------------
    Auto("performance", pf.begin),  # DR-3.5, DR-11.1
    program("seat_performance", pf.SEAT_PHASES),  # DR-11.2, DR-11.12, DR-11.11, DR-11.13
    Choice("perform_next", (mv.Perform,), pf.next_legal, pf.next_validate, pf.next_apply,
           needed=pf.next_needed, otherwise=pf.next_otherwise, rule="DR-11.2",
           prompt="choose which of your performers performs next (DR-11.2)", asks="choose your next performer"),
    Auto("perform_card", pf.perform_card),  # DR-11.3 to DR-11.9, DR-17.4
    Choice("dazzling", (mv.ChooseDazzling,), pf.dazzling_legal, pf.dazzling_validate, pf.dazzling_apply,
           rule="DR-11.6", prompt="a dazzling performance: take its reward, or flip the card for its fame (DR-11.6)",
           asks="take the dazzling reward or flip"),
    Auto("reward", rw.reward),  # DR-11.4 to DR-11.7, DR-18
    Choice("reward_cube", (mv.TakeRewardCube,), rw.cube_legal, rw.cube_validate, rw.cube_apply,
           needed=rw.cube_needed, otherwise=rw.cube_otherwise, rule="DR-18.5",
           prompt="choose the colour of a reward cube (DR-18.5)", asks="choose a reward cube's colour"),
    Auto("look", rw.look),  # DR-18.2, DR-18.9
    Chance("look_draw", rw.look_spec, rw.look_resolve, rule="DR-18.9"),
    Choice("look_keep", (mv.KeepInvestment,), rw.keep_legal, rw.keep_validate, rw.keep_apply,
           needed=rw.keep_needed, otherwise=rw.keep_otherwise, rule="DR-18.9",
           prompt="keep an investment card you are looking at; the rest go under the deck (DR-18.9)",
           asks="keep an investment card you are looking at"),
    Choice("reward_trailer", (mv.TakeTrailer, mv.DeclineReward), rw.trailer_legal, rw.trailer_validate,
           rw.trailer_apply, needed=rw.trailer_needed, rule="DR-20.6",
           prompt="pay for a trailer and place it, or decline (DR-20.6)", asks="place a trailer or decline"),
    Choice("reward_payment", (mv.PayCubes, mv.DeclineReward), rw.payment_legal, rw.payment_validate,
           rw.payment_apply, needed=rw.payment_needed, rule="DR-18.6",
           prompt="pay cubes for this reward, or decline it (DR-18.6, DR-18.8)", asks="pay cubes or decline"),
    Choice(rw.SKIP_WAGE, (mv.SkipWage, mv.DeclineReward), rw.skip_legal, rw.skip_validate, rw.skip_apply,
           needed=rw.skip_needed, rule="DR-18.8",
           prompt="choose a card of your circus whose wage is skipped this performance (DR-18.8)",
           asks="choose the card whose wage is skipped"),
    Choice("applause", (mv.PlayLongerApplause, mv.DoneApplause), ap.applause_legal, ap.applause_validate,
           ap.applause_apply, needed=ap.applause_needed, rule="DR-21.14",
           prompt="play a Longer applause card for this performance, or finish (DR-21.14)",
           asks="play Longer applause or finish"),
    Auto("region_bonus", pf.region_bonus),  # DR-11.11, DR-15
    Auto("show_helpers", pf.show_helpers),  # DR-11.13, DR-19.4, DR-19.5
    # ---- around a performance: the organiser, wages, end of performance or of the game ------------
    Auto("organiser_before_show", pe.organiser_before_show),  # DR-19.2, AMB-15
    Choice("return_organiser_before_show", (mv.ReturnOrganiser,), rnd.organiser_legal, rnd.organiser_validate,
           rnd.organiser_apply, rule="DR-19.2",
           prompt="return the show organiser to the helper row and start the next performance's first round, "
                  "or keep it (DR-19.2)",
           asks="return the show organiser or keep it"),
    Auto("wages", wg.wages),  # DR-12
    Auto("after_performance", pe.after_performance),  # DR-3.5, AMB-27
    program("end_of_performance", ["discard_rows", "refill_helpers", "refill_performers", "next_performance",
                                   "pass_regions", "reset_tickets", "next_start_player"]),  # DR-13.1 to DR-13.5
    Auto("discard_rows", pe.discard_rows),  # DR-13.1
    Auto("next_performance", pe.next_performance),  # DR-13.2
    Auto("pass_regions", pe.pass_regions),  # DR-13.3, DR-22.2
    Auto("reset_tickets", pe.reset_tickets),  # DR-13.4
    Auto("next_start_player", pe.next_start_player),  # DR-13.5
    Auto("end_of_game", eg.end_of_game),  # DR-14
)

AGENDA: Agenda[State, Any] = Agenda(ROWS, over_rule="DR-14.1", out_of_step=out_of_step)
"""The machine over the table, which the ruleset (rules.py) calls for each decision, move and outcome."""

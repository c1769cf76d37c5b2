"""The table of step kinds: one row per kind of task on the Circus Train agenda, and the machine
that runs them (the kernel's `Agenda`, domain/kernel/agenda.py and docs/agenda.md).

A row says everything about its kind in one place: whether it runs by itself, waits for chance or
for a seat; its handlers; the rule that makes it someone else's moment; what it asks. Adding a
kind of step is adding a row here and its handlers beside the others of its sort:
- automatic and chance steps: course.py (events.py for event cards);
- a seat's decisions: decisions.py (events.py for event cards);
- refusals of moves made at the wrong moment: refusals.py.

The kinds are the stored task codes of every record, `{"t": kind, ...}`: renaming one changes
the state encoding, and with it every state hash (bump `engine_version` if that is ever done).
"""

from __future__ import annotations

from domain.kernel.agenda import Agenda, Auto, Chance, Choice, Row, each_seat

from . import course
from . import decisions as d
from . import events as ev
from . import moves as mv
from .board import destination_spec
from .refusals import die_rule, out_of_step
from .state import State

EVENT_MOVES = (mv.BlockLink, mv.ReturnTalent, mv.Pass)
"""An event's decision is answered under its own rule (CT-21.18) by any event move or a pass."""

ROWS: tuple[Row[State, object], ...] = (
    # ---- setup (section 5) ---------------------------------------------------------------
    Chance("first_player", course.first_player_spec, course.resolve_first_player, rule="CT-5.12"),
    Auto("picks", course.picks),
    Choice("pick", (mv.PickTalent,), d.pick_moves, d.validate_pick, d.apply_pick, rule="CT-5.14",
           prompt="pick a starting talent (CT-5.14)", asks="pick a starting talent"),
    Auto("init_requests", course.init_requests),
    Chance("init_card", destination_spec, course.resolve_init_card, rule="CT-5.15"),
    Chance("init_counter", course.initial_request_spec, course.resolve_init_counter, rule="CT-5.15"),
    Chance("fill_card", destination_spec, course.resolve_fill_card, rule="CT-5.16"),
    each_seat("starts", "start", order=course.turn_order),
    Choice("start", (mv.ChooseStart,), d.start_moves, d.validate_start, d.apply_start, rule="CT-5.20",
           prompt="choose a start city (CT-5.20)", asks="place your train on a start city"),
    # ---- the week: Ringmaster and Roustabout Phases (sections 6, 12), month ends (15) ---------
    Auto("round", course.play_round),
    Auto("fill", course.fill),
    Chance("news_draw", course.local_news_spec, course.resolve_news_draw, rule="CT-13.1"),
    Chance("news_card", destination_spec, course.resolve_news_card, rule="CT-13.1"),
    Chance("news_redraw", course.local_news_spec, course.resolve_news_redraw, rule="CT-13.1"),
    Chance("sc_second", course.local_news_spec, course.resolve_sc_second, rule="CT-21.4"),
    Auto("roustabout", course.roustabout),
    Auto("advance_week", course.advance_week),
    Auto("month_end", course.month_end),
    Choice("long_steal", (mv.LongSteal, mv.Pass), d.long_steal_moves, d.validate_long_steal, d.apply_long_steal,
           needed=d.long_steal_needed, rule="CT-15.2", prompt="long-month steal (CT-15.2)",
           asks="take one talent from an opponent or pass"),
    Auto("season_change", course.season_change),
    # ---- a turn (sections 7 to 11, 19, 21) ---------------------------------------------------
    Choice("turn", (mv.PlayCard, mv.PocketWages, mv.UseSam), d.turn_moves, d.validate_turn, d.apply_turn, rule="CT-7.1",
           prompt="play an action card (CT-7.2)", asks="play an action card"),
    Auto("arrive", course.arrive),
    Choice("claim", (mv.ClaimCharacter, mv.Pass), d.claim_moves, d.nothing, d.apply_claim, needed=d.claim_needed,
           rule="CT-7.1", prompt="claim the Special Character? (CT-21.6)",
           asks="claim the Special Character or pass"),
    Choice("ph", (mv.Perform, mv.Hire, mv.Pass), d.ph_moves, d.validate_ph, d.apply_ph, needed=d.ph_needed,
           rule="CT-7.1", prompt="perform or hire (CT-0.10)", asks="perform or hire"),
    Choice("hire_more", (mv.Hire, mv.Pass), d.hire_more_moves, d.validate_hire_more, d.apply_hire_more,
           needed=d.hire_more_needed, rule="CT-7.1", prompt="hire another talent or stop (CT-9.23)",
           asks="hire another talent here or stop"),
    Chance("die", course.die_spec, d.resolve_roll, rule=die_rule),
    Choice("buy", (mv.BuyAfterFailure, mv.Pass), d.buy_moves, d.validate_buy, d.apply_buy, needed=d.buy_needed,
           rule="CT-7.1", prompt="buy the talent for $10 after the failed roll? (CT-9.22)",
           asks="buy the talent for $10 or pass"),
    Choice("special", (mv.Hire, mv.Steal, mv.BuyFromPool, mv.Pass), d.special_moves, d.validate_special,
           d.apply_special, rule="CT-7.1", prompt="Special Hire (CT-10.2)", asks="make a Special Hire or pass"),
    Auto("steal_done", course.steal_done),
    Auto("wages", course.wages),
    Choice("keep", (mv.KeepTalent,), d.keep_moves, d.validate_keep, d.apply_keep, rule="CT-7.1",
           prompt="choose the talent you keep and pay (CT-11.3)", asks="choose the talent you keep and pay"),
    Choice("fired_city", (mv.SendFired,), d.fired_city_moves, d.validate_fired_city, d.apply_fired_city,
           rule="CT-11.4", prompt="choose the city that receives the fired talent (CT-11.4)",
           asks="choose the city for the fired talent"),
    Choice("rest", (mv.RestBonus, mv.Pass), d.rest_moves, d.validate_rest, d.apply_rest, needed=d.rest_needed,
           rule="CT-7.1", prompt="Rest bonus in Canada (CT-19.11)", asks="choose the Rest bonus or pass"),
    Auto("end_turn", course.end_turn),
    # ---- event cards (CT-21.17 to CT-21.19) ----------------------------------------------------
    Chance("event_draw", ev.event_card_spec, ev.resolve_event_card, rule="CT-21.18"),
    Chance("event_dest", destination_spec, ev.resolve_event_destination, rule="CT-21.18"),
    Choice("block_link", EVENT_MOVES, ev.block_link_moves, ev.validate_block_link, ev.apply_block_link,
           needed=ev.block_link_needed, rule="CT-21.18", prompt="block a rail link (event card)",
           asks="block a rail link"),
    Choice("return", EVENT_MOVES, ev.return_moves, ev.validate_return, ev.apply_return, needed=ev.return_needed,
           rule="CT-21.18", prompt="return a talent counter (event card)", asks="return one talent counter"),
)

AGENDA: Agenda[State, object] = Agenda(ROWS, over_rule="CT-6.2", out_of_step=out_of_step)
"""The machine over the table: what the ruleset's decision, legal moves, validation, moves and
chance outcomes go through: the ruleset (rules.py) calls it for each."""

CHANCE_TASKS = AGENDA.kinds(Chance)
MOVE_TASKS = AGENDA.kinds(Choice)

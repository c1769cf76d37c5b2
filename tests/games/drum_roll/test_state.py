"""The state's JSON encoding round-trips: a set-up state and a hand-built mid-game one."""

from __future__ import annotations

import json

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.state import FameEntry, HandCard, Hired, Player, RowCard
from domain.kernel.agenda import Step, hold
from domain.kernel.values import evolve

from .builders import config, until_move


def round_trip(state):  # type: ignore[no-untyped-def]
    data = RULESET.encode_state(state)
    text = json.dumps(data, sort_keys=True)
    back = RULESET.decode_state(json.loads(text), state.config)
    assert back == state
    assert RULESET.encode_state(back) == data
    assert RULESET.state_hash(back) == RULESET.state_hash(state)
    return back


def test_a_set_up_state_round_trips() -> None:
    state = until_move(RULESET.setup(config(4)))
    assert state.agenda and state.agenda[0].kind == "keep_performer"
    round_trip(state)


def test_a_mid_game_state_round_trips() -> None:
    state = until_move(RULESET.setup(config(3)))
    mid = Player(
        money=7, fame=-2, deposit=4, ticket=3, cubes={"red": 2, "blue": 0},
        ledger=(FameEntry(-2, "DR-11.8", "fired", "no performance", 1, (("card", "P07"),)),),
        skipped=("P10",),
        performers=(Hired("P10", cubes=(("red",), ("yellow",), ()), flipped=None, trailer=True, level=2,
                          performed=1),
                    Hired("P41", cubes=(("white",), ("yellow",), ("red",)), flipped=2,
                          shares_trailer_of=None),
                    Hired("P12", shares_trailer_of="P41")),
        helpers=("H05", "H06"), hand=(HandCard("I08", 1), HandCard("I15")), region="rome", markers=2,
    )
    state = evolve(state, performance=2, round=6, start_player=1, players=(mid, *state.players[1:]),
                   performer_row=(RowCard("P20", 3), RowCard("P30")), helper_row=(RowCard("H09", 1),),
                   performer_discard=("P01",), helper_discard=("H02",), investment_discard=("I27",),
                   investment_bottom=("I03", "I01"),
                   cubes={"white": 20, "yellow": 19, "green": 25, "blue": 24, "red": 21},
                   discounts=40, trailers=16, votes=("perform", None, "postpone"),
                   agenda=(Step("resolve"), Step("round_end", round=6)))
    state = hold(state, "resolve", Step("cube", seat=0, colour="red"))
    state = hold(state, "resolve", Step("ticket", seat=1))
    assert [step.kind for step in state.placements()] == ["cube", "ticket"]
    back = round_trip(state)
    assert back.players[0].performers[1].flipped == 2
    assert back.players[0].performers[2].shares_trailer_of == "P41"
    assert back.placements()[0]["colour"] == "red"
    assert back.players[0].ledger[0].refs == (("card", "P07"),) and back.investment_bottom == ("I03", "I01")


def test_gain_fame_keeps_the_ledger_and_the_track_in_step() -> None:
    state = until_move(RULESET.setup(config(3)))
    state = state.gain_fame(1, 3, "DR-11.6", "flip", "flipped", card="P05")
    state = state.gain_fame(1, -4, "DR-12.3", "wages", "4 coins short")
    player = state.players[1]
    assert player.fame == -1 == sum(entry.points for entry in player.ledger)
    assert [entry.rule for entry in player.ledger] == ["DR-11.6", "DR-12.3"]
    assert state.gain_fame(1, 0, "DR-12.3", "wages") is state

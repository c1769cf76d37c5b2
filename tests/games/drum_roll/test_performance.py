"""The performance (DR-11, DR-15, DR-17, DR-19.4, DR-19.5, DR-21.14): the order of seats and
performers, levels, each level's reward and fame, dazzling performers' flips, firing with
severance, performers flipped earlier, the region bonus (EX-4 and both readings of AMB-14), the
brass band and popcorn seller, and Longer applause. The reward effects are in test_rewards.py,
trailers in test_circus.py. Tables are built by `performing.show` (seat 1 performs first)."""

from __future__ import annotations

import pytest

from domain.games.drum_roll import RULESET
from domain.games.drum_roll.performance import level_of
from domain.games.drum_roll.state import HandCard, Hired, State
from domain.kernel.agenda import Step

from .builders import config, illegal, move
from .performing import SEAT, circus_of, hired, show, total_cubes


def perform(state: State, card: str, seat: int = SEAT) -> State:
    return move(state, seat, {"type": "perform", "card": card})


def dazzle(state: State, flip: bool, seat: int = SEAT) -> State:
    return move(state, seat, {"type": "choose_dazzling", "flip": flip})


# ---- order (DR-11.1, DR-11.2) -----------------------------------------------------------------


def test_dr_11_1_amb_38_seats_perform_clockwise_from_the_start_player() -> None:
    """Rules: DR-11.1."""
    two = (hired("P10", 1), hired("P11", 1))
    state = show(*two, others={0: (hired("P12", 1), hired("P13", 1)), 2: (hired("P14", 1), hired("P15", 1))})
    seen = []
    for _ in range(3):
        seat = RULESET.decision(state).seats[0]
        seen.append(seat)
        first = RULESET.legal_moves(state, seat)[0]
        state = RULESET.apply(state, seat, first)  # the other performer then goes by itself
    assert seen == [1, 2, 0]
    assert state.over  # the builder plays the seats' performances alone (performing.show)
    assert [p.money for p in state.players] == [10 + 2 + 2, 10 + 2 + 2, 10 + 3 + 3]


def test_dr_11_2_the_seat_chooses_the_order_and_each_performer_resolves_in_full() -> None:
    state = show(hired("P19", 1), hired("P10", 1))  # a juggler's cube choice, an acrobat's money
    assert RULESET.legal_moves(state, SEAT) == [RULESET.parse_move({"type": "perform", "card": "P19"}),
                                                RULESET.parse_move({"type": "perform", "card": "P10"})]
    state = perform(state, "P19")
    # the juggler's reward is chosen before the acrobat performs (DR-11.2)
    assert state.agenda[0].kind == "reward_cube" and state.players[SEAT].money == 10
    state = move(state, SEAT, {"type": "take_reward_cube", "colour": "blue"})
    assert state.over and state.players[SEAT].money == 12  # the last performer went by itself
    assert state.players[SEAT].cubes == {"blue": 1}


def test_dr_11_2_dr_11_10_refusals_name_the_rule() -> None:
    state = show(hired("P10", 1), hired("P11", 1), hired("P12", 3, flipped=1), performance=2)
    illegal(state, SEAT, {"type": "perform", "card": "P20"}, "DR-11.2")  # not in the circus
    illegal(state, SEAT, {"type": "perform", "card": "P12"}, "DR-11.10")  # flipped earlier
    assert state.over is False and len(RULESET.legal_moves(state, SEAT)) == 2  # P12 is not offered
    illegal(show(hired("P10", 1), hired("P11", 1), hired("P13", 1)), SEAT,
            {"type": "play_longer_applause", "card": "I09"}, "DR-21.14")  # out of step: after the performers
    other = show(hired("P10", 1), hired("P11", 1))
    illegal(other, 0, {"type": "perform", "card": "P10"}, "DR-11.2")  # not seat 0's performance


def test_dr_11_2_a_performer_performs_once_per_performance() -> None:
    state = show(hired("P10", 1), hired("P11", 1), hired("P12", 1))
    state = perform(state, "P10")
    illegal(state, SEAT, {"type": "perform", "card": "P10"}, "DR-11.2")


# ---- levels (DR-17.3 to DR-17.5, EX-3) --------------------------------------------------------


@pytest.mark.parametrize(("cubes", "level"), [
    (((), (), ()), 0),
    ((("red",), (), ()), 1),
    ((("red",), ("yellow",), ()), 2),
    ((("red",), ("yellow",), ("white",)), 3),
    (((), ("yellow",), ("white",)), 0),  # EX-3: white and yellow first, red still missing
    ((("red",), (), ("white",)), 1),  # DR-17.4: a higher level does not skip a missing one
])
def test_dr_17_4_dr_17_5_ex_3_the_level_is_the_run_of_filled_levels_from_the_first(
        cubes: tuple[tuple[str, ...], ...], level: int) -> None:
    """Rules: DR-17.4, DR-17.5."""
    state = show()
    assert level_of(state, Hired("P10", cubes=cubes)) == level  # the Tightrope Walker: red, yellow, white


def test_ex_3_cubes_placed_out_of_order_then_completed_give_a_dazzling_performance() -> None:
    state = show(Hired("P10", cubes=(("red",), ("yellow",), ("white",))))
    assert state.agenda[0] == Step("dazzling", seat=SEAT, card="P10")


# ---- rewards and fame of each level (DR-11.4 to DR-11.7, DR-17.1) -----------------------------


def test_dr_11_4_dr_11_7_a_weak_performance_gives_its_own_reward_only() -> None:
    """Rules: DR-11.4, DR-11.7."""
    state = show(hired("P10", 1))
    assert state.players[SEAT].money == 12 and state.players[SEAT].fame == 0
    assert (circus_of(state)["P10"].level, circus_of(state)["P10"].performed) == (1, 1)  # DR-11.14


def test_dr_11_5_dr_11_7_amb_9_a_good_performance_gives_its_reward_not_the_weak_one_too() -> None:
    """Rules: DR-11.5, DR-11.7."""
    state = show(hired("P10", 2))
    assert state.players[SEAT].money == 13  # 3, not 2 + 3
    assert circus_of(state)["P10"].level == 2


def test_dr_17_1_a_level_gives_its_printed_fame_with_its_reward() -> None:
    state = dazzle(show(hired("P18", 3)), flip=False)  # dazzling: 7 money and 1 fame
    player = state.players[SEAT]
    assert (player.money, player.fame) == (17, 1)
    entry = player.ledger[-1]
    assert (entry.points, entry.rule, entry.category) == (1, "DR-17.1", "performance")
    assert dict(entry.refs) == {"card": "P18"}


def test_dr_11_6_ex_2_a_dazzling_performer_takes_its_reward_and_keeps_its_cubes() -> None:
    """Rules: DR-11.6."""
    state = show(hired("P10", 3))
    assert RULESET.legal_moves(state, SEAT) == [RULESET.parse_move({"type": "choose_dazzling", "flip": False}),
                                                RULESET.parse_move({"type": "choose_dazzling", "flip": True})]
    state = dazzle(state, flip=False)
    card = circus_of(state)["P10"]
    assert state.players[SEAT].money == 15 and state.players[SEAT].fame == 0  # EX-2: 5 money
    assert card.cubes == (("red",), ("yellow",), ("white",)) and card.flipped is None and card.level == 3


def test_dr_11_6_dr_17_6_ex_2_or_flips_for_its_flip_fame() -> None:
    state = show(hired("P10", 3, trailer=True))
    red = state.cubes["red"]
    state = dazzle(state, flip=True)
    card = circus_of(state)["P10"]
    assert state.players[SEAT].fame == 2 and state.players[SEAT].money == 10  # EX-2: 2 fame, no money
    assert card.flipped == 1 and card.cubes == ((), (), ()) and (card.level, card.performed) == (3, 1)
    assert card.trailer  # DR-20.5
    assert state.cubes["red"] == red + 1 and total_cubes(state) == 125  # DR-17.6: cubes to the supply
    entry = state.players[SEAT].ledger[-1]
    assert (entry.rule, entry.category) == ("DR-11.6", "flip")


def test_dr_11_10_dr_17_7_amb_10_a_performer_flipped_earlier_does_not_perform_and_is_not_fired() -> None:
    """Rules: DR-11.10, DR-17.7."""
    state = show(hired("P10", 0, flipped=1, level=3, performed=1), performance=2)
    assert state.over  # nothing to decide
    card = circus_of(state)["P10"]
    assert (card.level, card.performed, card.flipped) == (3, 1, 1)  # its record is the earlier one
    assert state.players[SEAT].money == 10 and state.players[SEAT].fame == 0
    assert state.performer_discard == ()


@pytest.mark.parametrize(("bizarre", "fame"), [(1, 1), (2, 2), (3, 4), (4, 4)])
def test_dr_18_4_a_bizarre_performers_flip_fame_depends_on_how_many_the_circus_holds(bizarre: int, fame: int) -> None:
    """Rules: DR-18.4."""
    others = [hired(card, 0, flipped=1) for card in ("P38", "P39", "P40")[: bizarre - 1]]
    state = dazzle(show(hired("P37", 3), *others, performance=2), flip=True)  # P37's table: 1, 2, 4
    assert state.players[SEAT].fame == fame


# ---- firing (DR-11.8, DR-11.9) ----------------------------------------------------------------


def test_dr_11_8_ex_3_a_performer_with_no_level_is_fired_with_severance_and_a_fame() -> None:
    # EX-3: white and yellow are on the Tightrope Walker, red (its first level) is missing
    state = show(Hired("P10", cubes=((), ("yellow",), ("white",))), hired("P11", 1))
    state = perform(state, "P10")
    player = state.players[SEAT]
    assert "P10" not in circus_of(state) and state.performer_discard[-1] == "P10"
    assert player.money == 10 - 2 + 2 and player.fame == -1  # severance 2 (printed cost); P11 paid 2
    assert state.cubes["yellow"] == 25 - 0 and state.cubes["white"] == 25 - 1  # P10's cubes back; P11's stay
    assert total_cubes(state) == 125
    assert [(e.points, e.rule, e.category) for e in player.ledger] == [(-1, "DR-11.8", "fired")]


def test_dr_11_9_amb_12_a_short_severance_costs_a_fame_per_coin_unpaid() -> None:
    state = show(hired("P16", 0), money=1)  # printed cost 5
    player = state.players[SEAT]
    assert player.money == 0 and player.fame == -1 - 4
    assert [(e.points, e.rule, e.category) for e in player.ledger] == [(-1, "DR-11.8", "fired"),
                                                                       (-4, "DR-11.9", "severance")]


# ---- the region bonus (DR-11.11, DR-15, EX-4, AMB-14) -----------------------------------------


def test_dr_15_2_ex_4_moscow_gives_4_fame_for_3_magicians_and_2_trainers() -> None:
    # the magicians and trainers were flipped in an earlier performance: nothing to decide now
    circus = [hired(card, 0, flipped=1) for card in ("P01", "P02", "P03", "P28", "P29")]
    state = show(*circus, region="moscow", performance=2)
    assert state.players[SEAT].fame == 4
    assert [(e.points, e.rule, e.category, dict(e.refs)) for e in state.players[SEAT].ledger] == [
        (2, "DR-15.2", "region", {"region": "moscow"}), (2, "DR-15.2", "region", {"region": "moscow"})]


def test_dr_15_4_ex_4_moscow_counts_the_same_when_they_all_perform() -> None:
    """Rules: DR-15.4."""
    circus = [hired(card, 1) for card in ("P01", "P02", "P03", "P28", "P29")]  # all weak
    state = show(*circus, region="moscow")  # the trainers' conversions need cubes: none to pay
    while not state.over:
        decision = RULESET.decision(state)
        if decision.chance is not None:  # each magician looks at 1 card and keeps it
            state = RULESET.resolve(state, decision.chance.outcomes[0][0])
        else:
            state = RULESET.apply(state, SEAT, RULESET.legal_moves(state, SEAT)[-1])
    assert len(circus_of(state)) == 5 and len(state.players[SEAT].hand) == 3
    assert state.players[SEAT].fame == 4
    assert [e.detail for e in state.players[SEAT].ledger] == ["Moscow: 3 × Magician", "Moscow: 2 × Animal Tamer"]


def test_ex_4_one_magician_and_one_trainer_give_nothing() -> None:
    state = show(hired("P01", 0, flipped=1), hired("P28", 0, flipped=1), region="moscow", performance=2)
    assert state.players[SEAT].fame == 0


def region_table() -> State:
    """Moscow: two magicians flipped earlier, one to be fired now, two trainers performing weak
    (their conversion is not offered: no cubes to pay)."""
    circus = (hired("P01", 0, flipped=1), hired("P02", 0, flipped=1), hired("P03", 0),
              hired("P28", 1), hired("P29", 1))
    return show(*circus, region="moscow", performance=2)


def test_dr_15_4_amb_14_the_region_counts_the_circus_after_performing_flipped_in_fired_out() -> None:
    """Rules: DR-15.4."""
    state = region_table()
    state = perform(state, "P03")  # fired: -1, severance 3 paid
    state = perform(state, "P28")  # the other trainer goes by itself
    assert state.over
    regions = [e.points for e in state.players[SEAT].ledger if e.category == "region"]
    assert regions == [2, 2]  # 2 magicians (flipped, counted; the fired one gone), 2 trainers


def test_dr_15_4_amb_14_the_other_reading_counts_only_the_performers_that_performed() -> None:
    """Rules: DR-15.4."""
    state = RULESET.decode_state(RULESET.encode_state(region_table()),
                                 config(3, start_player=1, region_count="performed_only"))
    state = perform(perform(state, "P03"), "P28")
    regions = [e.points for e in state.players[SEAT].ledger if e.category == "region"]
    assert regions == [2]  # the magicians flipped earlier did not perform: only the trainers count


# ---- brass band and popcorn seller (DR-11.13, DR-19.4, DR-19.5) -------------------------------


def test_dr_11_13_dr_19_4_dr_19_5_brass_band_fame_and_popcorn_money_at_the_end_of_the_performance() -> None:
    """Rules: DR-11.13, DR-19.5."""
    state = show(hired("P10", 1), helpers=("H03", "H04"))
    player = state.players[SEAT]
    assert (player.money, player.fame) == (10 + 2 + 3, 2)
    assert [(e.points, e.rule, e.category, dict(e.refs)) for e in player.ledger] == [
        (2, "DR-19.4", "helper", {"card": "H03"})]
    assert [p.fame for p in state.players] == [0, 2, 0]  # their owner's only


# ---- Longer applause (DR-21.14, AMB-22) -------------------------------------------------------


def applause_table() -> State:
    """Four acrobats: P10 and P11 dazzling, P12 weak, P13 good; a Longer applause (acrobat) in hand."""
    return show(hired("P10", 3), hired("P11", 3), hired("P12", 1), hired("P13", 2), hand=("I09", "I08"))


def performed_all(state: State) -> State:
    state = perform(state, "P10")
    state = dazzle(state, flip=False)
    state = perform(state, "P11")
    state = dazzle(state, flip=True)  # a flip counts as dazzling
    state = perform(state, "P12")
    return state  # P13 goes by itself


def test_dr_21_14_amb_22_longer_applause_counts_dazzling_and_weak_performers_of_its_type() -> None:
    state = performed_all(applause_table())
    assert state.agenda[0].kind == "applause"  # after the performers, before the region bonus
    assert [m.model_dump() for m in RULESET.legal_moves(state, SEAT)] == [
        {"type": "play_longer_applause", "card": "I09"}, {"type": "play_longer_applause", "card": "I08"},
        {"type": "done_applause"}]
    before = state.players[SEAT].fame  # 2 from the flip
    state = move(state, SEAT, {"type": "play_longer_applause", "card": "I09"})
    player = state.players[SEAT]
    assert player.fame == before + 2 - 1  # 2 dazzling (one flipped), 1 weak, good counts 0
    assert [(e.points, e.rule, e.category) for e in player.ledger[-2:]] == [(2, "DR-21.14", "applause"),
                                                                            (-1, "DR-21.14", "applause")]
    assert player.hand == (HandCard("I08"),) and state.investment_discard == ("I09",)  # DR-21.6: used up
    illegal(state, SEAT, {"type": "play_longer_applause", "card": "I09"}, "DR-21.14")
    state = move(state, SEAT, {"type": "play_longer_applause", "card": "I08"})  # no magicians: 0
    assert state.players[SEAT].fame == before + 1 and state.over


def test_dr_21_14_longer_applause_may_be_kept_and_is_not_asked_without_one() -> None:
    """Rules: DR-21.14."""
    state = performed_all(applause_table())
    state = move(state, SEAT, {"type": "done_applause"})
    assert state.over and state.players[SEAT].hand == (HandCard("I09"), HandCard("I08"))
    assert show(hired("P10", 1)).over  # an empty hand: no question


def test_dr_21_14_any_hand_is_asked_so_the_question_reveals_no_card() -> None:
    state = show(hired("P10", 1), hand=("I25",))  # a Double vote only
    assert state.agenda[0].kind == "applause"
    assert [m.model_dump() for m in RULESET.legal_moves(state, SEAT)] == [{"type": "done_applause"}]
    illegal(state, SEAT, {"type": "play_longer_applause", "card": "I25"}, "DR-21.14")
    assert move(state, SEAT, {"type": "done_applause"}).over


# ---- the performance step (DR-3.5) ------------------------------------------------------------


def test_dr_3_5_dr_19_2_the_performance_is_the_organiser_then_each_seats_part_then_wages_and_the_end() -> None:
    """Rules: DR-3.5, DR-19.2."""
    from domain.games.drum_roll.performance import begin

    state = show(hired("P10", 1))
    begun = begin(state, Step("performance"))
    assert begun.agenda[:6] == (Step("organiser_before_show"), Step("seat_performance", seat=1),
                                Step("seat_performance", seat=2), Step("seat_performance", seat=0),
                                Step("wages"), Step("after_performance"))


def test_dr_18_8_no_wage_skip_carries_over_into_a_new_performance() -> None:
    """Rules: DR-18.8."""
    state = show(hired("P10", 1))
    state = state.with_player(SEAT, skipped=("P10",))
    from domain.games.drum_roll.performance import begin

    assert begin(state, Step("performance")).players[SEAT].skipped == ()


@pytest.mark.parametrize(("data", "rule"), [
    ({"type": "choose_dazzling", "flip": True}, "DR-11.6"),
    ({"type": "take_reward_cube", "colour": "red"}, "DR-18.5"),
    ({"type": "keep_investment", "index": 0}, "DR-18.9"),
    ({"type": "take_trailer", "performer": "P10"}, "DR-20.6"),
    ({"type": "pay_cubes", "cubes": ["red"]}, "DR-11.4"),
    ({"type": "skip_wage", "card": "P10"}, "DR-11.4"),
    ({"type": "decline_reward"}, "DR-11.4"),
    ({"type": "done_applause"}, "DR-21.14"),
    ({"type": "done_sharing"}, "DR-8.6"),
])
def test_moves_out_of_step_cite_the_rule_that_says_when_they_are_made(data: dict[str, object], rule: str) -> None:
    state = show(hired("P10", 1), hired("P11", 1))  # waiting for seat 1's next performer
    illegal(state, SEAT, data, rule)
    illegal(state, SEAT, {"type": "cast_vote", "postpone": True}, "DR-10.1")


def test_dr_11_2_no_performer_performs_before_the_performance() -> None:
    from .test_sharing import sharing

    illegal(sharing(), SEAT, {"type": "perform", "card": "P07"}, "DR-11.2")
    illegal(sharing(), SEAT, {"type": "play_longer_applause", "card": "I09"}, "DR-21.14")

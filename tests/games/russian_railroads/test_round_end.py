"""The end of a round as it happens in play: scoring after the reorganisation and the turn-order
worker's move (RR-14.1, AMB-19), in the order TS, SP, KV, industry (RR-14.2); cleanup (§15); the
last round (§16); the end of the match and its final scoring (§17).

The first tests play a real setup (chance decided by its first outcomes: turn-order card n to
seat n - 1) through round 1 with chosen moves; the others start from built tables with the
round's own steps on the agenda.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.russian_railroads import RULESET
from domain.games.russian_railroads import moves as mv
from domain.games.russian_railroads.components import default_components
from domain.games.russian_railroads.scoring import final_lines, round_lines
from domain.games.russian_railroads.state import Placement, State
from domain.games.russian_railroads.tasks import AGENDA
from domain.kernel.agenda import Step
from domain.kernel.viewers import Viewer

from .builders import KV, TS, table
from .late_drive import at_turn, match, play, refused, started, waiting

COMPONENTS = default_components()
PASS_VP = COMPONENTS.constants.pass_vp


def place(space: str, workers: int = 1, **paid: int) -> mv.Place:
    return mv.Place(space=space, workers=workers, **paid)


def round_one() -> tuple[State, State]:
    """Round 1 of a 4-seat match up to the turn-order worker's move, and the same state after it
    (seat 1 claimed first place and moves its worker to the 1-worker locomotive space, #2 on KV)."""
    state = started(4, draft=("S4", "S2", "S3"))  # seat 3 ruble, seat 2 industry, seat 1 multiplier
    state = play(state,
                 place("rubles"),                     # seat 0: +2 rubles
                 place("turn_order_1"),               # seat 1 claims position 1
                 place("temporary_workers"),          # seat 2 takes both temporary workers
                 mv.Place(space="hire", rubles=1),    # seat 3 hires the engineer on the hiring space
                 mv.Place(space="industry_1", rubles=1),  # seat 0 pays a ruble
                 mv.Pass(),                           # seat 1 (position 2)
                 mv.Place(space="multiplier", temporary=1),  # seat 2 uses one temporary worker
                 mv.Pass(), mv.Pass(), mv.Pass())     # seats 3, 0, 2
    assert state.agenda[0].kind == "reuse_worker" and waiting(state) == 1
    after = play(state, place("locomotive_1"), mv.PlaceLocomotive(railway=KV, slot=0))
    return state, after


def test_rr_12_4_rr_12_10_rr_14_1_amb_19_scoring_comes_after_the_reorganisation_and_the_reuse() -> None:
    """RR-14.1, AMB-19: the order is reorganised and the turn-order worker's action done before the
    round is scored, so the #2 it took scores its Kiev star 1 this round (RR-13.8)."""
    before, after = round_one()
    assert before.positions == (2, 1, 3, 4)  # reorganised before the reuse (RR-12.10)
    assert not any(line.rule.startswith("RR-14") or line.rule == "RR-13.8" for line in before.lines)
    assert [(line.seat, line.rule, line.points) for line in before.lines] == [
        (1, "RR-12.4", PASS_VP[1]), (3, "RR-12.4", PASS_VP[3]), (2, "RR-12.4", PASS_VP[2])]
    round_1 = [(line.rule, line.points) for line in after.lines if line.seat == 1 and line.refs.get("round") == 1
               and line.category != "immediate"]
    assert round_1 == [("RR-13.8", 1)]  # its TS #1 reaches only a black space; its marker is on the start
    assert after.round == 2 and waiting(after) == 1  # RR-15.6: the new order plays from round 2


def test_rr_14_2_every_seat_scores_ts_sp_kv_then_industry_added_to_the_score() -> None:
    """RR-14.2: the round's lines are exactly the scoring of each seat, railway by railway and then
    industry, appended once every seat has passed and the reuse is done."""
    before, after = round_one()
    scored = [line for line in after.lines[len(before.lines):] if line.category != "immediate"]
    assert scored == list(round_lines(after, 1))  # cleanup leaves what scoring reads (RR-15.7)
    assert {line.seat for line in scored} == {0, 1, 2}
    order = [railway.id for railway in COMPONENTS.railways]
    for seat in range(4):
        kinds = [line.refs.get("railway", "industry") for line in scored if line.seat == seat]
        ranks = [order.index(k) if k in order else len(order) for k in kinds]
        assert ranks == sorted(ranks)
    sheet = RULESET.score(after)
    assert [sheet.totals()[seat] for seat in range(4)] == [
        sum(line.points for line in after.lines if line.seat == seat) for seat in range(4)]


def test_rr_15_1_rr_15_2_rr_15_3_rr_15_7_cleanup_after_round_one() -> None:
    """RR-15.1: every worker back to its owner; RR-15.2: rubles placed are spent; RR-15.3: the
    temporary workers go back, used or not; RR-15.7: everything else stays, hired engineers too."""
    before, after = round_one()
    start = started(4, draft=("S4", "S2", "S3"))
    rubles = [p.rubles for p in start.players]
    assert [p.workers for p in after.players] == [p.workers for p in start.players]
    assert [p.rubles for p in after.players] == [rubles[0] + 2 - 1, rubles[1], rubles[2], rubles[3] - 1]
    assert [p.temporary for p in after.players] == [0, 0, 0, 0]
    assert before.players[2].temporary == 1
    assert after.placements == ()
    assert after.players[3].engineers == (start.strip[-1],)
    assert after.players[1].locomotives[KV] == (2,)
    assert after.players[2].multipliers == 1 and after.players[1].multipliers == 1  # space and card S3
    assert [p.passed for p in after.players] == [False] * 4


def test_rr_15_4_engineers_move_right_and_the_unhired_one_leaves() -> None:
    """RR-15.4: every engineer moves one space right; one left on the hiring space goes to the box.
    RR-15.5: the round numbers under the spaces are information only: any round moves them alike."""
    strip = ("E1", "E3", "E4", "E8", "E2", "E5", "E7")
    for round_no in (1, 4, 6):
        state = AGENDA.advance(table(4, strip=strip, round=round_no).with_agenda((Step("cleanup"),
                                                                                 Step("turn", seat=0))))
        assert state.strip == (None, "E1", "E3", "E4", "E8", "E2", "E5")
    _, after = round_one()
    start = started(4, draft=("S4", "S2", "S3"))
    assert after.strip == (None, *start.strip[:-2], start.strip[-2])  # the hired one had left already


def test_rr_15_1_the_black_worker_comes_back_and_rubles_on_own_engineers_are_spent() -> None:
    """RR-15.1: the black worker returns to its owner's supply; RR-15.2: a ruble on an own engineer
    goes to the supply like any other."""
    placements = (Placement("black_3", 0, workers=1, black=1), Placement("E5", 0, rubles=1),
                  Placement("rubles", 1, temporary=1))
    seat0 = {"workers": 4, "rubles": 0, "black_worker": True, "black_in_supply": False, "engineers": ("E5",)}
    state = table(4, {0: seat0, 1: {"temporary": 1}}, placements=placements)
    state = AGENDA.advance(state.with_agenda((Step("cleanup"), Step("turn", seat=0))))
    seat = state.players[0]
    assert (seat.workers, seat.rubles, seat.black_in_supply, seat.engineers) == (5, 0, True, ("E5",))
    assert state.players[1].temporary == 0 and state.players[1].workers == COMPONENTS.for_players(4).workers


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([s.id for s in COMPONENTS.spaces]), st.integers(0, 3),
                          st.integers(0, 2), st.integers(0, 3), st.integers(0, 3)), max_size=10))
def test_rr_15_1_rr_15_3_cleanup_returns_exactly_the_workers_placed(placed: list[tuple[str, int, int, int, int]]
                                                                    ) -> None:
    """RR-15.1 to RR-15.3 as a property: whatever lies on the spaces, each seat gets back exactly
    the own workers it placed, no rubles, no temporary workers, and the spaces are cleared."""
    placements = tuple(Placement(space, seat, workers, temporary, 0, rubles)
                       for space, seat, workers, temporary, rubles in placed)
    state = table(4, {seat: {"workers": 1, "rubles": 2, "temporary": 1} for seat in range(4)},
                  placements=placements)
    after = AGENDA.advance(state.with_agenda((Step("cleanup"), Step("turn", seat=0))))
    for seat in range(4):
        back = sum(p.workers for p in placements if p.seat == seat)
        assert after.players[seat].workers == 1 + back
        assert after.players[seat].rubles == 2
        assert after.players[seat].temporary == 0
    assert after.placements == ()


# ---- the last round (§16) ------------------------------------------------------------------------


def last_round(**player: Any) -> State:
    return at_turn(table(4, {0: player}, round=COMPONENTS.for_players(4).rounds))


def test_rr_16_1_rr_16_2_the_marker_covers_the_turn_order_spaces_and_opens_three_industry() -> None:
    """RR-16.1: in the last round the turn-order spaces cannot be used; RR-16.2: the last-round
    action (3 industry advancements, its cost a fill-in read from the set) is open instead, and only
    then."""
    space = COMPONENTS.space("last_round")
    state = last_round()
    refused(state, place("turn_order_1"), "RR-16.1")
    legal = {m.space for m in RULESET.legal_moves(state, 0) if isinstance(m, mv.Place)}
    assert "last_round" in legal and not legal & {"turn_order_1", "turn_order_2"}
    state = play(state, place("last_round", workers=space.workers))
    assert state.players[0].markers == (3,)
    refused(at_turn(state, 1), place("last_round", workers=space.workers), "RR-5.3")
    early = at_turn(table(4))
    refused(early, place("last_round", workers=space.workers), "RR-16.2")


def test_rr_16_3_rr_17_1_the_last_round_has_no_reorganisation_passing_still_pays_then_final_scoring() -> None:
    """RR-16.3: nobody can claim a position, so the order stays; passing still earns the card's VP.
    RR-17.1: after the last round's scoring comes the final scoring, cards then majority, and the
    match ends; RR-17.2, RR-21.3: the face-down cards are revealed and scored only then."""
    rounds = COMPONENTS.for_players(4).rounds
    players = {0: {"bonus_cards": ("B1",)}, 1: {"engineers": ("E3", "E9")}, 2: {"engineers": ("E12",)},
               3: {"bonus_cards": ("B7",)}}
    state = table(4, players, round=rounds, positions=(3, 1, 4, 2))
    state = AGENDA.advance(state.with_agenda((Step("round", round=rounds), Step("final_scoring"))))
    assert waiting(state) == 1
    state = play(state, mv.Pass(), mv.Pass(), mv.Pass(), mv.Pass())
    assert state.over
    assert state.positions == (3, 1, 4, 2)
    assert [(line.seat, line.points) for line in state.lines if line.rule == "RR-12.4"] == [
        (3, PASS_VP[1]), (0, PASS_VP[2]), (2, PASS_VP[3])]
    finals = state.lines[-len(final_lines(state)):]
    assert [(line.seat, line.rule, line.points) for line in finals] == [
        (0, "RR-21.4", 15), (3, "RR-21.10", 0), (1, "RR-17.4", 40), (2, "RR-17.4", 20)]  # AMB-24: B7 alone loses ties
    assert not RULESET.legal_moves(state, 0)
    assert [line.rule for line in state.lines[:-len(finals)]].count("RR-21.4") == 0
    assert RULESET.view(state, Viewer.of_seat(1))["players"][0]["bonus_cards"] == ["B1"]


def test_rr_14_5_rr_14_8_rr_14_10_the_played_scoring_phase_uses_colours_stars_and_the_medal() -> None:
    """The last round's scoring phase as played: RR-14.5 each colour its value (brown 2, grey 1 on
    the Kiev spaces within reach), RR-14.10 black spaces nothing, RR-14.8 the Kiev stars and the
    medal's 20 added to the Kiev line's round."""
    rounds = COMPONENTS.for_players(4).rounds
    seat = {"tracks": {**table(4).players[0].tracks, KV: {"black": 6, "grey": 5, "brown": 2}},
            "locomotives": {TS: (1,), KV: (6,)}, "medal": True, "tokens": ("T6",)}
    state = table(4, {0: seat}, round=rounds)
    state = AGENDA.advance(state.with_agenda((Step("round", round=rounds), Step("final_scoring"))))
    state = play(state, *[mv.Pass()] * 4)
    kiev = [(line.rule, line.points) for line in state.lines if line.seat == 0 and line.refs.get("railway") == KV]
    stars = sum(s.vp for s in COMPONENTS.railway(KV).specials if s.benefit == "star" and s.space <= 6)
    assert kiev == [("RR-14.4", 2 + 2 + 1 + 1 + 1), ("RR-13.8", stars), ("RR-19.7", 20)]


def test_rr_17_2_rr_17_3_b7_gives_second_place_on_an_engineer_tie_only_with_a_tile() -> None:
    """RR-17.3, AMB-24: B7 counts as one engineer; a tie is won by the highest real engineer, so
    a seat with a tile and B7 beats a seat with two tiles of lower value. Played to the end."""
    rounds = COMPONENTS.for_players(4).rounds
    high = max(COMPONENTS.engineers, key=lambda e: e.value).id
    low = sorted(COMPONENTS.engineers, key=lambda e: e.value)[:2]
    players = {0: {"engineers": tuple(e.id for e in low)}, 1: {"engineers": (high,), "bonus_cards": ("B7",)}}
    state = AGENDA.advance(table(4, players, round=rounds).with_agenda((Step("round", round=rounds),
                                                                        Step("final_scoring"))))
    state = play(state, *[mv.Pass()] * 4)
    majority = [(line.seat, line.points) for line in state.lines if line.rule == "RR-17.4"]
    assert majority == [(1, 40), (0, 20)]


def test_rr_17_1_rr_17_5_a_bot_played_match_ends_with_the_final_scoring_after_every_round() -> None:
    """A whole 3-seat match by the seeded random policy: each round scored in turn (RR-14.1), the
    final scoring last (RR-17.1), the sheet's totals the lines' sums and the winners the top
    total (RR-17.5); the card taken face down stays hidden from the other seats' and spectators'
    views at every later position and shows to all at the end (RR-17.2)."""
    played = match(3, 7)
    final = played.final
    assert final.over and final.round == COMPONENTS.for_players(3).rounds
    rounds = [line.refs["round"] for line in final.lines if line.category != "immediate" and "round" in line.refs]
    assert rounds == sorted(rounds) and set(rounds) <= set(range(1, final.round + 1))
    tail = final_lines(final)
    assert tuple(final.lines[len(final.lines) - len(tail):]) == tuple(tail)
    assert all(line.rule.startswith(("RR-21.", "RR-17.4")) for line in tail)
    sheet = RULESET.score(final)
    totals = sheet.totals()
    assert list(totals) == [sum(line.points for line in final.lines if line.seat == seat) for seat in range(3)]
    taken = [(index, seat, move.card) for index, (_, seat, move) in enumerate(played.history)
             if isinstance(move, mv.TakeBonusCard)]
    assert taken  # seed 7: a final bonus card is taken face down (RR-21.2)
    index, owner, card = taken[0]
    for state, _, _ in played.history[index + 1:]:
        for viewer in [Viewer.of_seat(seat) for seat in range(3) if seat != owner] + [Viewer.spectator()]:
            assert RULESET.view(state, viewer)["players"][owner]["bonus_cards"] == {
                "count": len(state.players[owner].bonus_cards)}
        assert card in RULESET.view(state, Viewer.of_seat(owner))["players"][owner]["bonus_cards"]
    assert card in RULESET.view(final, Viewer.of_seat((owner + 1) % 3))["players"][owner]["bonus_cards"]
    best = max(totals)
    assert set(RULESET.result(final, sheet).winners()) == {seat for seat, total in enumerate(totals) if total == best}

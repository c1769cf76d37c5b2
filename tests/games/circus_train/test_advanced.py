"""The advanced game (section 19): reputation, replaying, pocketing wages, Rest, wage penalties,
the parade, hiring and stealing against reputation, and the extra final awards."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.moves import (
    Hire,
    KeepTalent,
    LongSteal,
    PlayCard,
    PocketWages,
    RestBonus,
    Steal,
)
from domain.games.circus_train.scoring import final_scoring

from .helpers import R, agenda, empty_board, illegal, legal_types, play, player, roll, settle, started, turn_of


def adv(seats: int = 3, week: int = 1, **options: object):  # type: ignore[no-untyped-def]
    state = empty_board(started(seats, "advanced", start="toronto", **options))
    state = replace(state, week=week)
    for seat in range(seats):
        state = player(state, seat, city="toronto", money=0, vp=0)
    return turn_of(state, 0)


def test_reputation_column() -> None:
    """CT-19.1, CT-19.2, CT-19.3 (A-26): levels 1-6, start at 5, level n hires on n or less; the marker
    never leaves the column."""
    from domain.games.circus_train.board import change_reputation
    from domain.games.circus_train.limits import hire_range
    state = adv()
    assert state.players[0].reputation == 5 and hire_range(state, 0) == 5
    assert change_reputation(state, 0, +3).players[0].reputation == 6
    assert change_reputation(state, 0, -9).players[0].reputation == 1


def test_turn_alternatives() -> None:
    """CT-19.4: play a card, replay a discarded one, or pocket wages."""
    state = player(adv(), 0, discard=("fast_transit",))
    assert {"play_card", "pocket_wages"} <= legal_types(state, 0)
    assert any(m.source == "replay" for m in R.legal_moves(state, 0) if m.type == "play_card")  # type: ignore[attr-defined]


def test_replay_costs() -> None:
    """CT-19.5, CT-19.6, CT-19.7 (A-23): 2 reputation in April-July, 4 VP in August-September; the
    card stays in the discard pile and the hand is unchanged."""
    state = player(adv(), 0, discard=("fast_transit",))
    after = play(state, 0, PlayCard(card="fast_transit", source="replay"))
    p = after.players[0]
    assert p.reputation == 3 and p.discard == ("fast_transit",) and p.hand == state.players[0].hand
    low = player(state, 0, reputation=2)
    illegal(low, 0, PlayCard(card="fast_transit", source="replay"), "CT-19.6")
    august = player(replace(state, week=18), 0, vp=3)
    illegal(august, 0, PlayCard(card="fast_transit", source="replay"), "CT-19.6")
    paid = play(player(august, 0, vp=6), 0, PlayCard(card="fast_transit", source="replay"))
    assert paid.players[0].vp == 2 and paid.players[0].reputation == 5
    illegal(state, 0, PlayCard(card="hold", source="replay"), "CT-19.5")


def test_replay_is_advanced_only() -> None:
    """CT-19.4: the basic game has no replay."""
    state = player(turn_of(empty_board(started(3)), 0), 0, discard=("fast_transit",))
    illegal(state, 0, PlayCard(card="fast_transit", source="replay"), "CT-19.4")


def test_pocketing_wages() -> None:
    """CT-19.8, CT-19.9 (A-24): $5 per bill, -1 reputation each, 1 to (level - bottom) bills, April-July."""
    state = adv()
    after = play(state, 0, PocketWages(bills=2))
    assert after.players[0].money == 10 and after.players[0].reputation == 3
    illegal(state, 0, PocketWages(bills=5), "CT-19.8")
    illegal(player(state, 0, reputation=1), 0, PocketWages(bills=1), "CT-19.9")
    illegal(replace(state, week=18), 0, PocketWages(bills=1), "CT-19.9")


def test_rest_card() -> None:
    """CT-7.12, CT-19.10, CT-19.11, CT-19.12 (A-25, A-40): Rest takes no action; it stays in the
    deck; never in week 1; in Canada a free Clown or Acrobat or +1 reputation."""
    state = adv(week=0)
    assert "rest" in state.players[0].hand
    illegal(state, 0, PlayCard(card="rest"), "CT-19.12")
    state = replace(state, week=2)
    rested = play(state, 0, PlayCard(card="rest"))
    assert legal_types(rested, 0) == {"rest_bonus", "pass"}
    got = play(rested, 0, RestBonus(bonus="acrobat"))
    assert got.players[0].count("acrobat") == state.players[0].count("acrobat") + 1
    illegal(rested, 0, RestBonus(bonus="elephant"), "CT-19.11")
    away = play(player(state, 0, city="boston"), 0, PlayCard(card="rest"))
    assert away.over  # no bonus outside Canada


def test_wage_penalties_and_release() -> None:
    """CT-19.13, CT-19.14, CT-19.15: talent may be released on purpose; each removal costs 1
    reputation (April-July) or 3 VP (August-September); removed talent goes to the pool."""
    state = player(adv(), 0, money=50, circus=("acrobat", "clown", "elephant"))
    state = replace(state, talents={"boston": ("horse",)})
    paid = play(state, 0, PlayCard(card="wage_transit"))
    assert paid.head()["t"] == "keep"  # type: ignore[index]
    kept = play(paid, 0, KeepTalent(talents=("clown",)))
    p = kept.players[0]
    assert p.money == 49 and p.reputation == 3 and kept.talents == {"boston": ("horse",)}
    assert kept.pool["elephant"] == state.pool["elephant"] + 1
    august = play(play(player(replace(state, week=18), 0, vp=10), 0, PlayCard(card="wage_transit")),
                  0, KeepTalent(talents=("clown",)))
    assert august.players[0].vp == 4 and august.lines[-1].rule == "CT-19.15"


def test_circus_parade() -> None:
    """CT-19.16, CT-19.17: Basic Transit's third choice: $10 for +1 reputation or +2 VP."""
    state = player(adv(), 0, money=10, reputation=4)
    rep = play(state, 0, PlayCard(card="basic_transit", option="parade", parade_reward="reputation"))
    assert rep.players[0].reputation == 5 and rep.players[0].money == 0
    vp = play(state, 0, PlayCard(card="basic_transit", option="parade", parade_reward="vp"))
    assert vp.players[0].vp == 2 and vp.lines[-1].rule == "CT-19.16"
    illegal(player(state, 0, money=9), 0, PlayCard(card="basic_transit", option="parade",
                                                   parade_reward="vp"), "CT-19.17")
    basic = player(turn_of(empty_board(started(3)), 0), 0, money=10)
    illegal(basic, 0, PlayCard(card="basic_transit", option="parade", parade_reward="vp"), "CT-19.16")


def test_hiring_with_reputation() -> None:
    """CT-19.18: a hire succeeds within the reputation range (level 5: 1-5)."""
    state = replace(adv(), talents={"toronto": ("horse",)})
    state = play(play(state, 0, PlayCard(card="hold")), 0, Hire(talent="horse"))
    assert roll(state, 5).players[0].count("horse") == 1


def test_stealing_with_reputation() -> None:
    """CT-19.19: the thief's range, +1 to each roll against a more reputed victim."""
    state = player(player(adv(), 0, reputation=4), 1, reputation=6, circus=("clown", "elephant"))
    state = play(play(state, 0, PlayCard(card="overnight_hire")), 0, Steal(victim=1, talents=("elephant",)))
    assert roll(state, 4).players[0].count("elephant") == 0  # 4 + 1 > 4
    assert roll(state, 3).players[0].count("elephant") == 1


def test_long_month_steal_against_reputation() -> None:
    """CT-19.21: the lowest player may take only from a player of equal or lower reputation."""
    state = adv()
    for seat, (vp, rep) in enumerate(((5, 5), (1, 3), (5, 2))):
        state = player(state, seat, vp=vp, reputation=rep, best=10, requests=(), circus=("clown",))
    state = settle(agenda(replace(state, week=9), {"t": "month_end", "month": 1}))
    assert state.head()["t"] == "long_steal"  # type: ignore[index]
    illegal(state, 1, LongSteal(victim=0, talent="clown"), "CT-19.21")
    R.validate(state, 1, LongSteal(victim=2, talent="clown"))


def test_advanced_final_awards() -> None:
    """CT-19.22, CT-17.6, CT-17.8 (A-27, A-28): Most Money needs level 5 (no passing down); Highest
    Reputation is step 7."""
    state = adv()
    state = player(state, 0, money=50, reputation=4, circus=("clown", "horse", "big_cat", "elephant"))
    state = player(state, 1, money=40, reputation=6, circus=("clown", "horse", "big_cat", "elephant"))
    state = player(state, 2, money=0, reputation=6, circus=("clown", "horse", "big_cat", "elephant"))
    after = final_scoring(state)
    money = [sum(x.points for x in after.lines if x.seat == s and x.category == "most_money") for s in range(3)]
    reputation = [sum(x.points for x in after.lines if x.seat == s and x.category == "highest_reputation")
                  for s in range(3)]
    assert money == [0, 0, 0] and reputation == [0, 2, 2]
    assert after.lines[-1].rule == "CT-19.22"

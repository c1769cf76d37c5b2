"""The Ringmaster Phase: action cards, movement, performing, hiring, Special Hire and wages
(sections 7-11)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.limits import perform_error
from domain.games.circus_train.moves import (
    BuyAfterFailure,
    BuyFromPool,
    Hire,
    KeepTalent,
    Pass,
    Perform,
    PlayCard,
    SendFired,
    Steal,
)

from .helpers import R, agenda, empty_board, illegal, legal_types, play, player, roll, started, turn_of


def base(seats: int = 3, variant: str = "basic", **options: object):  # type: ignore[no-untyped-def]
    state = empty_board(started(seats, variant, start="toronto", **options))
    for seat in range(seats):
        state = player(state, seat, city="toronto", money=0)
    return turn_of(state, 0)


def test_must_play_a_card_from_hand() -> None:
    """CT-7.2: a card from hand is compulsory; a card not in hand or a pass is refused."""
    state = base()
    illegal(state, 0, Pass(), "CT-7.2")
    state = player(state, 0, hand=("hold",), discard=("fast_transit",))
    illegal(state, 0, PlayCard(card="fast_transit"), "CT-7.2")
    illegal(state, 0, PlayCard(card="no_such_card"), "CT-7.2")


def test_last_card_refills_hand() -> None:
    """CT-7.4: playing the last card takes back the whole discard pile, the card included."""
    state = player(base(), 0, hand=("hold",), discard=("fast_transit", "rapid_transit"))
    after = play(state, 0, PlayCard(card="hold"))
    assert after.players[0].hand == ("fast_transit", "hold", "rapid_transit")
    assert after.players[0].discard == () and after.players[0].refill_week == 0


def test_movement_allowances() -> None:
    """CT-7.5, CT-7.6, CT-7.7, CT-7.10, CT-7.11, CT-7.9, CT-8.1: 5 / 3 / 2 / 2 / 2 / 0 cities; 0 allowed."""
    state = base()
    six = ("buffalo", "syracuse", "albany", "boston", "montreal", "toronto")
    illegal(state, 0, PlayCard(card="fast_transit", path=six), "CT-7.5")
    R.validate(state, 0, PlayCard(card="fast_transit", path=six[:5]))
    illegal(state, 0, PlayCard(card="rapid_transit", path=six[:4]), "CT-7.6")
    illegal(state, 0, PlayCard(card="overnight_transit", path=six[:3]), "CT-7.7")
    illegal(state, 0, PlayCard(card="overnight_hire", path=six[:3]), "CT-7.10")
    illegal(state, 0, PlayCard(card="wage_transit", path=six[:3]), "CT-7.11")
    illegal(state, 0, PlayCard(card="hold", path=six[:1]), "CT-7.9")
    for card in ("fast_transit", "rapid_transit", "overnight_transit", "overnight_hire", "wage_transit", "hold"):
        R.validate(state, 0, PlayCard(card=card))


def test_rail_connections() -> None:
    """CT-8.2, CT-8.4: only along rail links; other trains never block."""
    state = base()
    illegal(state, 0, PlayCard(card="fast_transit", path=("boston",)), "CT-8.2")
    illegal(state, 0, PlayCard(card="fast_transit", path=("atlantis",)), "CT-8.2")
    state = player(state, 1, city="buffalo")
    after = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo",)))
    assert after.players[0].city == after.players[1].city == "buffalo"


def test_basic_transit_options() -> None:
    """CT-7.8, CT-8.1 (A-5): move exactly 1, or Perform/Hire where possible, never both."""
    state = base()
    illegal(state, 0, PlayCard(card="basic_transit"), "CT-7.8")
    illegal(state, 0, PlayCard(card="basic_transit", option="move"), "CT-7.8")
    illegal(state, 0, PlayCard(card="basic_transit", option="move", path=("buffalo", "syracuse")), "CT-7.8")
    illegal(state, 0, PlayCard(card="basic_transit", option="perform_hire"), "CT-7.8")
    illegal(state, 0, PlayCard(card="basic_transit", option="perform_hire", path=("buffalo",)), "CT-7.8")
    illegal(state, 0, PlayCard(card="fast_transit", option="move"), "CT-7.8")
    state = replace(state, talents={"toronto": ("horse",)})
    after = play(state, 0, PlayCard(card="basic_transit", option="perform_hire"))
    assert legal_types(after, 0) == {"hire"}  # the chosen Perform/Hire must be taken


def test_overnight_transit_then_optional_perform_hire() -> None:
    """CT-7.7, CT-0.10, CT-7.13 (A-5, A-9): move first, then perform OR hire, or pass; no more moving."""
    state = replace(base(), news={"buffalo": "LN01"}, talents={"buffalo": ("horse",)})
    after = play(state, 0, PlayCard(card="overnight_transit", path=("buffalo",)))
    assert legal_types(after, 0) == {"perform", "hire", "pass"}
    performed = play(after, 0, Perform())
    assert performed.over  # one action only: no hire after the performance, no further movement
    assert performed.talents == {"buffalo": ("horse",)}


def test_points_counter_needs_a_movement_ending_there() -> None:
    """CT-13.6, CT-0.14, CT-8.3, CT-8.5, CT-8.6 (A-4): passing through or moving 0 collects nothing;
    ending a move there (even a round trip back) collects the VP and removes the counter."""
    state = replace(base(), news={"buffalo": "LN27", "toronto": "LN25"})
    through = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo", "syracuse")))
    assert "buffalo" in through.news and through.players[0].vp == 0
    stay = play(state, 0, PlayCard(card="rapid_transit"))
    assert "toronto" in stay.news
    round_trip = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo", "toronto")))
    assert "toronto" not in round_trip.news and round_trip.players[0].vp == 2
    arrive = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo",)))
    assert arrive.players[0].vp == 3 and "buffalo" not in arrive.news
    assert [line.rule for line in arrive.lines] == ["CT-13.6"]


def test_performance_money_and_counter() -> None:
    """CT-9.1, CT-9.7, CT-9.9, CT-9.10, CT-9.11, CT-15.4: perform even without requested talent; take
    the counter; money by the request's colour whatever the month; +$10 for a new best; no VP."""
    state = replace(base(), news={"toronto": "LN01"})
    state = player(state, 0, circus=("clown",), best=1)
    after = play(play(state, 0, PlayCard(card="hold")), 0, Perform())
    p = after.players[0]
    assert p.best == 2 and p.requests == ("LN01",) and "toronto" not in after.news
    assert p.money == 5 + 10 and p.vp == 0 and after.lines == ()
    yellow = replace(state, news={"toronto": "LN28"}, week=20)
    yellow = player(yellow, 0, best=100)
    got = play(play(yellow, 0, PlayCard(card="hold")), 0, Perform()).players[0]
    assert got.money == 10 and got.best == 100
    red = replace(state, news={"toronto": "LN55"})
    red = player(red, 0, best=100)
    assert play(play(red, 0, PlayCard(card="hold")), 0, Perform()).players[0].money == 20


def test_perform_needs_a_request() -> None:
    """CT-9.1: no request in the city, no performance."""
    state = replace(base(), talents={"toronto": ("horse",)})
    after = play(state, 0, PlayCard(card="hold"))
    illegal(after, 0, Perform(), "CT-9.1")


def test_two_week_show() -> None:
    """CT-9.13, CT-9.14, CT-9.15, CT-9.19: start (no score, marker placed, turn ends), then complete on
    the next turn in the same city with any Perform/Hire; the level is worked out then."""
    state = replace(base(), news={"toronto": "LN65"}, week=20)
    state = player(state, 0, circus=("clown", "elephant"), best=10)
    started_show = play(play(state, 0, PlayCard(card="hold")), 0, Perform())
    p = started_show.players[0]
    assert p.show == "toronto" and p.requests == () and p.money == 0 and "toronto" in started_show.news
    nxt = turn_of(started_show, 0)
    nxt = player(nxt, 0, show_fresh=False)
    done = play(play(nxt, 0, PlayCard(card="overnight_transit")), 0, Perform())
    q = done.players[0]
    assert q.show is None and q.requests == ("LN65",) and q.best == 10 + 10 + 4 and q.money == 20 + 10


def test_two_week_show_abandoned_and_reserved() -> None:
    """CT-9.16, CT-9.17 (A-7): a next turn without completing abandons the show; meanwhile nobody
    else may perform that request."""
    state = replace(base(), news={"toronto": "LN65"}, week=20)
    state = player(state, 0, show="toronto", show_fresh=False)
    other = player(state, 1, city="toronto")
    error = perform_error(other, 1)
    assert error is not None and error.rule == "CT-9.17"
    assert agenda(other, {"t": "ph", "seat": 1, "optional": True}).over  # nothing to perform or hire
    moved = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo",)))
    assert moved.players[0].show is None and "toronto" in moved.news


def test_two_week_show_interrupted_by_replacement() -> None:
    """CT-9.18, CT-13.3: a replacement of the show's request removes the marker."""
    from domain.games.circus_train.flow import place_counter
    state = replace(base(), news={"toronto": "LN65"}, week=20)
    state = player(state, 0, show="toronto", show_fresh=False)
    after = place_counter(state, "LN66", "toronto")
    assert after.players[0].show is None and after.news["toronto"] == "LN66"


def test_hiring_sequence() -> None:
    """CT-9.20, CT-9.21, CT-9.22, CT-9.23, CT-9.24 (A-8): one counter at a time, 1-4 hires, a failure
    may be bought for $10, each counter tried once per action, then stop or go on."""
    state = replace(base(), talents={"toronto": ("elephant", "horse", "horse")})
    state = player(state, 0, money=10)
    state = play(state, 0, PlayCard(card="hold"))
    state = play(state, 0, Hire(talent="horse"))
    spec = R.decision(state).chance
    assert spec is not None and spec.kind == "die:hire" and [o for o, _ in spec.outcomes] == [1, 2, 3, 4, 5, 6]
    state = roll(state, 4)
    assert state.players[0].count("horse") == 1 and state.talents["toronto"] == ("elephant", "horse")
    state = play(state, 0, Hire(talent="horse"))
    state = roll(state, 5)
    assert legal_types(state, 0) == {"buy_after_failure", "pass"}
    state = play(state, 0, BuyAfterFailure())
    assert state.players[0].count("horse") == 2 and state.players[0].money == 0
    state = play(state, 0, Hire(talent="elephant"))
    state = roll(state, 6)  # no money: no purchase offered
    assert state.talents["toronto"] == ("elephant",) and state.over


def test_each_counter_tried_once() -> None:
    """CT-9.23, CT-0.11: a failed counter cannot be retried in the same action; buying needs $10."""
    state = replace(base(), talents={"toronto": ("horse", "elephant")})
    state = play(play(state, 0, PlayCard(card="hold")), 0, Hire(talent="horse"))
    state = roll(state, 6)
    assert state.head()["t"] == "hire_more"  # type: ignore[index]
    illegal(state, 0, Hire(talent="horse"), "CT-9.23")
    illegal(state, 0, Hire(talent="big_cat"), "CT-9.20")
    buy = replace(state, agenda=({"t": "buy", "seat": 0, "talent": "horse"},))
    illegal(buy, 0, BuyAfterFailure(), "CT-0.11")


def test_special_hire_options() -> None:
    """CT-10.1, CT-10.2, CT-10.3, CT-11.8 (A-11): after Overnight Hire's move: hire, steal from a train
    here, or buy exactly one talent at the month's price ($5 / $10 / $20)."""
    state = replace(base(), talents={"toronto": ("horse",)})
    state = player(player(state, 0, money=5), 1, circus=("acrobat", "clown"))
    state = play(state, 0, PlayCard(card="overnight_hire"))
    assert legal_types(state, 0) == {"hire", "steal", "buy_from_pool", "pass"}
    bought = play(state, 0, BuyFromPool(talent="elephant"))
    assert bought.players[0].count("elephant") == 1 and bought.players[0].money == 0
    assert bought.pool["elephant"] == 5
    june = replace(state, week=9)
    error = illegal(june, 0, BuyFromPool(talent="elephant"), "CT-0.11")  # $10 in June; $5 does not pay it
    assert "costs $10" in error.reason
    august = player(replace(state, week=18), 0, money=20)
    R.validate(august, 0, BuyFromPool(talent="elephant"))
    illegal(august, 0, BuyFromPool(talent="dragon"), "CT-10.2")


def test_steal() -> None:
    """CT-10.4, CT-10.5 (A-3, A-10): up to 2 counters from one player here, a roll each (1-4), no
    purchase; a robbed victim discards Overnight Hire from hand."""
    state = player(base(), 1, circus=("acrobat", "clown", "elephant"), hand=("overnight_hire",),
                   discard=("hold",))
    state = play(state, 0, PlayCard(card="overnight_hire"))
    illegal(state, 0, Steal(victim=1, talents=("acrobat", "clown", "elephant")), "CT-10.4")
    illegal(state, 0, Steal(victim=0, talents=("clown",)), "CT-10.4")
    illegal(player(state, 1, city="buffalo"), 0, Steal(victim=1, talents=("clown",)), "CT-10.2")
    state = play(state, 0, Steal(victim=1, talents=("acrobat", "elephant")))
    assert R.decision(state).chance.kind == "die:steal"  # type: ignore[union-attr]
    state = roll(state, 5, 4)
    victim = state.players[1]
    assert victim.circus == ("acrobat", "clown") and state.players[0].count("elephant") == 1
    assert victim.hand == ("hold", "overnight_hire") and victim.discard == ()  # emptied hand refilled


def test_failed_steal_keeps_victim_card() -> None:
    """CT-10.5, CT-10.6: nothing stolen, nothing discarded."""
    state = player(base(), 1, circus=("clown",), hand=("hold", "overnight_hire"))
    state = play(play(state, 0, PlayCard(card="overnight_hire")), 0, Steal(victim=1, talents=("clown",)))
    state = roll(state, 6)
    assert state.players[1].hand == ("hold", "overnight_hire") and state.players[1].circus == ("clown",)


def test_wages_paid_in_full() -> None:
    """CT-11.1, CT-11.2, CT-11.6: Wage & Transit pays every counter's wage after the move."""
    state = player(base(), 0, money=20, circus=("acrobat", "clown", "elephant"))
    after = play(state, 0, PlayCard(card="wage_transit", path=("buffalo",)))
    assert after.players[0].money == 20 - 16 and after.players[0].circus == ("acrobat", "clown", "elephant")


def test_firing_destination() -> None:
    """CT-11.3, CT-11.4, CT-11.5: the fired group goes to the only talent city, or the player to the
    right chooses among several, or back to the pool when no city holds talent."""
    state = player(base(), 0, money=1, circus=("acrobat", "clown"))
    none = play(play(state, 0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("clown",)))
    assert none.pool["acrobat"] == state.pool["acrobat"] + 1
    one = replace(state, talents={"boston": ("horse",)})
    one = play(play(one, 0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("clown",)))
    assert one.talents["boston"] == ("acrobat", "horse") and one.counter_cities() == 1
    two = replace(state, talents={"boston": ("horse",), "chicago": ("freak",)})
    two = play(play(two, 0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("clown",)))
    assert R.decision(two).seats == (2,)  # the player to the right of seat 0 in a 3-player game
    illegal(two, 2, SendFired(city="toronto"), "CT-11.4")
    sent = play(two, 2, SendFired(city="chicago"))
    assert sent.talents["chicago"] == ("acrobat", "freak")

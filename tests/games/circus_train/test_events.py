"""Every event-card effect of the default set (all fill-ins, CT-21.19), revealed in a crafted
position (CT-21.18): what changes at once, what lasts until the next month end, and its expiry."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.events import expire, reveal
from domain.games.circus_train.limits import allowance, hire_range, perform_error, special_price
from domain.games.circus_train.moves import BlockLink, Perform, PlayCard, ReturnTalent
from domain.games.circus_train.scoring import performance_level, wage_bill

from .helpers import R, empty_board, illegal, play, player, roll, started, turn_of


def table(seats: int = 3, variant: str = "basic"):  # type: ignore[no-untyped-def]
    state = empty_board(started(seats, variant, start="toronto", event_cards=True))
    for seat in range(seats):
        state = player(state, seat, city="toronto", money=20, vp=seat, best=10, requests=(),
                       circus=("clown",))
    deck = tuple(sorted(d.id for d in state.catalog.components.destination_cards))
    return replace(state, agenda=(), deck=deck, dest_discard=())


def test_wage_events() -> None:
    """EV01 Heat Wave, EV02 Feed Shortage (CT-21.18): wages rise while the card is in force."""
    state = player(table(), 0, circus=("big_cat", "clown", "horse"))
    assert wage_bill(state, 0) == 19
    assert wage_bill(reveal(state, "EV01"), 0) == 21
    assert wage_bill(reveal(state, "EV02"), 0) == 21
    assert wage_bill(expire(reveal(state, "EV01")), 0) == 19


def test_performance_events() -> None:
    """EV03 money, EV07 penalised cities, EV08/EV09 bonuses up, EV10 Freaks worth nothing."""
    state = replace(table(), news={"toronto": "LN01", "boston": "LN06", "chicago": "LN12", "albany": "LN02"})
    state = player(state, 0, circus=("acrobat", "clown", "freak"), best=50)
    request = state.catalog.request
    assert performance_level(reveal(state, "EV09"), 0, request("LN01")) == 2 + 5 + 2
    assert performance_level(reveal(state, "EV08"), 0, request("LN02")) == 1 + 5 + 2
    assert performance_level(reveal(state, "EV10"), 0, request("LN06")) == 3 + 2
    rival = reveal(state, "EV07")
    assert sorted(rival.marks["penalised"]) == ["boston", "chicago"]
    assert performance_level(rival, 0, request("LN06"), city="boston") == 3 + 2 + 3 - 5
    bumper = turn_of(reveal(state, "EV03"), 0)
    paid = play(play(bumper, 0, PlayCard(card="hold")), 0, Perform())
    assert paid.players[0].money == 20 + 5 + 5


def test_blocking_events() -> None:
    """EV04 Rail Strike (chooser: fewest VP), EV05 Washed-Out Bridge (a drawn city's link, first
    player), EV06 Quarantine (no performing or hiring in a drawn city)."""
    state = table()
    strike = reveal(state, "EV04")
    assert strike.head() == {"t": "block_link", "seat": 0, "left": 2, "city": None}
    bridge = reveal(state, "EV05")
    assert R.decision(bridge).chance.kind == "destination_card"  # type: ignore[union-attr]
    bridge = R.resolve(bridge, "dest_buffalo")
    assert bridge.head() == {"t": "block_link", "seat": state.first, "left": 1, "city": "buffalo"}
    illegal(bridge, state.first, BlockLink(a="albany", b="boston"), "CT-21.18")
    blocked = play(bridge, state.first, BlockLink(a="buffalo", b="toronto"))
    assert blocked.marks["blocked_links"] == [["buffalo", "toronto"]]
    quarantine = R.resolve(reveal(replace(state, news={"boston": "LN01"}), "EV06"), "dest_boston")
    assert quarantine.marks["blocked_city"] == "boston"
    there = player(quarantine, 1, city="boston")
    error = perform_error(there, 1)
    assert error is not None and error.rule == "CT-21.18"


def test_money_and_vp_events() -> None:
    """EV11 Big Top Fire, EV12 Windfall, EV16 Newspaper Rave (ties: nobody), EV25 Sponsorship."""
    state = table()
    fire = reveal(state, "EV11")
    assert [p.money for p in fire.players] == [20, 20, 10]
    windfall = reveal(state, "EV12")
    assert [p.money for p in windfall.players] == [35, 20, 20]
    rave = reveal(player(state, 1, best=40), "EV16")
    assert rave.players[1].vp == 3 and rave.lines[-1].rule == "CT-21.18"
    assert reveal(state, "EV16").lines == ()
    sponsor = reveal(player(state, 2, requests=("LN01",) * 7), "EV25")
    assert [p.money for p in sponsor.players] == [20, 20, 30]


def test_talent_loss_events() -> None:
    """EV13 Talent Walkout, EV14/EV15 loss rolls, EV26 Payroll Dispute."""
    state = table()
    rampage = reveal(player(state, 1, circus=("clown", "elephant")), "EV14")
    assert R.decision(rampage).chance.kind == "die:event_loss"  # type: ignore[union-attr]
    assert roll(rampage, 5).players[1].circus == ("clown",)
    assert roll(rampage, 4).players[1].circus == ("clown", "elephant")
    escape = reveal(player(state, 2, circus=("big_cat", "clown")), "EV15")
    assert roll(escape, 6).players[2].circus == ("clown",)
    payroll = reveal(player(state, 0, money=1, circus=("acrobat", "clown", "clown")), "EV26")
    assert payroll.players[0].money == 0 and payroll.head() == {"t": "return", "seat": 0, "left": 2}
    after = play(play(payroll, 0, ReturnTalent(talent="acrobat")), 0, ReturnTalent(talent="clown"))
    assert after.players[0].circus == ("clown",)
    illegal(payroll, 0, ReturnTalent(talent="elephant"), "CT-21.18")


def test_movement_and_price_events() -> None:
    """EV17 Favourable Weather, EV18 Muddy Lots (never below 1), EV20/EV21 prices, EV22/EV23 rolls."""
    state = table()
    cards = state.catalog.cards
    assert allowance(reveal(state, "EV17"), 0, cards["fast_transit"]) == (0, 6)
    assert allowance(reveal(state, "EV17"), 0, cards["wage_transit"]) == (0, 2)
    muddy = reveal(state, "EV18")
    assert allowance(muddy, 0, cards["rapid_transit"]) == (0, 2)
    assert allowance(muddy, 0, cards["basic_transit"]) == (1, 1)
    assert allowance(muddy, 0, cards["hold"]) == (0, 0)
    assert special_price(reveal(state, "EV20")) == 3 and special_price(reveal(state, "EV21")) == 10
    assert hire_range(reveal(state, "EV22"), 0) == 5 and hire_range(reveal(state, "EV23"), 0) == 3


def test_placement_and_canada_events() -> None:
    """EV19 Stranded Performers (talent into two drawn cities), EV24 Revenue Agents (basic: $5;
    advanced: 1 reputation) for trains in Canada."""
    state = table()
    stranded = reveal(state, "EV19")
    stranded = R.resolve(R.resolve(stranded, "dest_boston"), "dest_chicago")
    assert stranded.talents == {"boston": ("acrobat", "clown"), "chicago": ("acrobat", "clown")}
    agents = reveal(player(state, 2, city="boston"), "EV24")
    assert [p.money for p in agents.players] == [15, 15, 20]
    advanced = reveal(table(3, "advanced"), "EV24")
    assert [p.reputation for p in advanced.players] == [4, 4, 4]


def test_event_expires_at_month_end() -> None:
    """CT-21.18: the card in force and its markers are discarded at the next month end."""
    state = reveal(table(), "EV06")
    state = R.resolve(state, "dest_boston")
    assert state.event == "EV06" and state.marks
    gone = expire(state)
    assert gone.event is None and gone.marks == {} and gone.events_drawn == 1

"""Optional rules (section 21): Special Characters, event cards and the simpler variant."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain.games.circus_train.flow import place_counter
from domain.games.circus_train.moves import (
    BlockLink,
    BuyFromPool,
    ClaimCharacter,
    Hire,
    KeepTalent,
    LongSteal,
    Pass,
    Perform,
    PlayCard,
    ReturnTalent,
    SendFired,
    Steal,
    UseSam,
)
from domain.games.circus_train.scoring import performance_level, wage_bill
from domain.kernel.errors import InvalidOptionsError

from .helpers import R, agenda, cfg, empty_board, illegal, legal_types, play, player, roll, settle, started, turn_of


def sc(seats: int = 3, variant: str = "basic", week: int = 1, **options: object):  # type: ignore[no-untyped-def]
    state = empty_board(started(seats, variant, start="toronto", special_characters=True, **options))
    state = replace(state, week=week)
    for seat in range(seats):
        state = player(state, seat, city="toronto", money=0)
    return turn_of(state, 0)


def test_options_are_selectable() -> None:
    """CT-21.1: each optional rule is an option of the match; unknown options are refused."""
    options = R.parse_options({"special_characters": True, "event_cards": True, "simpler": False})
    assert options.special_characters and options.event_cards  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionsError):
        R.parse_options({"dragons": True})


def test_characters_in_the_bags() -> None:
    """CT-21.2, CT-21.3, CT-5.9 (A-35): four SCs in the green bag, two in the yellow; the bag change
    takes undrawn ones out of the game."""
    state = started(3, special_characters=True)
    catalog = state.catalog
    green = {catalog.counters[c].character for c in catalog.season_counters(1, True)  # type: ignore[union-attr]
             if catalog.is_character_counter(c)}
    assert green == {"brakeman_bill", "ringmaster_ronald", "smuggler_sam", "engineer_eddie"}
    yellow = {catalog.counters[c].character for c in catalog.season_counters(2, True)  # type: ignore[union-attr]
              if catalog.is_character_counter(c)}
    assert yellow == {"big_bertha", "trainer_ted"}
    changed = settle(agenda(replace(state, week=9), {"t": "season_change"}))
    assert not any(catalog.counters[c].season == 1 for c in changed.bag)


def test_drawing_a_character() -> None:
    """CT-21.4, CT-13.7: an SC brings a second counter to the same city; a second SC goes back."""
    state = replace(sc(), bag=("LN02", "LN83"))
    state = place_counter(state, "LN82", "boston")
    assert state.characters == {"boston": "brakeman_bill"} and state.head()["t"] == "sc_second"  # type: ignore[index]
    paired = R.resolve(state, "LN02")
    assert paired.news == {"boston": "LN02"} and paired.characters == {"boston": "brakeman_bill"}
    alone = R.resolve(state, "LN83")
    assert alone.characters == {"boston": "brakeman_bill"} and "LN83" in alone.bag and "boston" not in alone.news


def test_lone_character_to_reserve() -> None:
    """CT-21.5, CT-21.7 (A-35): at the end of a turn an SC alone in its city goes to the reserve; a
    replacement also sends it there; a city with an SC is a counter city."""
    state = replace(sc(), characters={"boston": "brakeman_bill", "chicago": "big_bertha"},
                    news={"chicago": "LN01"})
    assert state.counter_cities() == 2
    after = play(state, 0, PlayCard(card="hold"))
    assert after.characters == {"chicago": "big_bertha"} and after.reserve == ("brakeman_bill",)
    replaced = place_counter(state, "LN02", "chicago")
    assert "big_bertha" in replaced.reserve


# A 3-player basic game with Special Characters, entered draw by draw as a table would see it: the
# first player is seat 1; Brakeman Bill is drawn for Buffalo and brings the request LN04 with him
# (CT-21.4); no Bankrupt Circus comes up, so Bill is the only talent counter on the board.
SC_SETUP: list[tuple[object, object]] = [
    ("chance", 1),
    (1, {"type": "pick_talent", "talent": "acrobat"}), (1, {"type": "pick_talent", "talent": "acrobat"}),
    (2, {"type": "pick_talent", "talent": "horse"}), (2, {"type": "pick_talent", "talent": "freak"}),
    (0, {"type": "pick_talent", "talent": "freak"}), (0, {"type": "pick_talent", "talent": "freak"}),
    ("chance", "dest_richmond"), ("chance", "LN01"), ("chance", "dest_boston"), ("chance", "LN02"),
    ("chance", "dest_chicago"), ("chance", "LN03"),
    ("chance", "dest_buffalo"), ("chance", "LN82"), ("chance", "LN04"),
    ("chance", "dest_detroit"), ("chance", "LN23"), ("chance", "dest_albany"), ("chance", "LN05"),
    ("chance", "dest_cleveland"), ("chance", "LN06"), ("chance", "dest_pittsburgh"), ("chance", "LN07"),
    (1, {"type": "choose_start", "city": "toronto"}), (2, {"type": "choose_start", "city": "toronto"}),
    (0, {"type": "choose_start", "city": "montreal"}),
]


def entered(steps: list[tuple[object, object]], seats: int = 3, **options: object):  # type: ignore[no-untyped-def]
    """Replay recorded steps: each chance outcome must have been drawable, each move legal."""
    state = R.setup(cfg(seats, "basic", **options))
    for actor, data in steps:
        decision = R.decision(state)
        if actor == "chance":
            assert decision.chance is not None and decision.chance.weight_of(data) > 0, (data, state.head())
            state = R.resolve(state, data)
        else:
            assert decision.seats == (actor,), (actor, data, state.head())
            state = play(state, int(actor), R.parse_move(data))  # type: ignore[call-overload]
    return state


def test_fired_talent_joins_a_special_characters_city() -> None:
    """CT-11.4, CT-21.7, CT-0.9, CT-11.5: an SC on the board is a talent counter, so when Brakeman Bill's
    Buffalo is the only city holding talent, the whole fired group joins him there, not the pool;
    Buffalo was already a counter city, so the count stays at 8."""
    state = entered(SC_SETUP, special_characters=True)
    assert state.characters == {"buffalo": "brakeman_bill"} and state.news["buffalo"] == "LN04"
    assert state.talents == {} and state.talent_cities() == ("buffalo",) and state.counter_cities() == 8
    assert state.players[1].circus == ("acrobat", "acrobat", "clown") and state.players[1].money == 0
    pool = dict(state.pool)
    state = entered([*SC_SETUP, (1, {"type": "play_card", "card": "wage_transit", "path": []}),
                     (1, {"type": "keep_talent", "talents": []})], special_characters=True)
    assert state.players[1].circus == () and state.players[1].money == 0  # $0 pays nothing: all fired
    assert state.talents == {"buffalo": ("acrobat", "acrobat", "clown")}
    assert state.pool == pool  # nothing went back to the Talent Pool
    assert state.characters == {"buffalo": "brakeman_bill"} and state.counter_cities() == 8
    assert state.head() == {"t": "turn", "seat": 2}


def test_fired_talent_choice_includes_a_special_characters_city() -> None:
    """CT-11.4, CT-21.7, CT-0.5: with talent in Buffalo (Brakeman Bill) and in Detroit (a Bankrupt
    Circus's Freak), the player to the firing player's right chooses between those two cities."""
    steps = [step if step != ("chance", "LN23") else ("chance", "LN16") for step in SC_SETUP]
    state = entered([*steps, (1, {"type": "play_card", "card": "wage_transit", "path": []}),
                     (1, {"type": "keep_talent", "talents": []})], special_characters=True)
    assert state.talent_cities() == ("buffalo", "detroit")
    assert R.decision(state).seats == (0,)  # seat 0 plays just before seat 1
    assert [m.city for m in R.legal_moves(state, 0)] == ["buffalo", "detroit"]  # type: ignore[attr-defined]
    illegal(state, 0, SendFired(city="montreal"), "CT-11.4")
    sent = play(state, 0, SendFired(city="buffalo"))
    assert sent.talents == {"buffalo": ("acrobat", "acrobat", "clown"), "detroit": ("freak",)}


def test_claiming() -> None:
    """CT-21.6, CT-9.25, CT-19.20 (A-41): end a move in the SC's city, roll 1-4 (reputation range in
    the advanced game); a failure cannot be bought; an SC is never hired."""
    state = replace(sc(), characters={"buffalo": "smuggler_sam"}, news={"buffalo": "LN01"})
    state = play(state, 0, PlayCard(card="overnight_transit", path=("buffalo",)))
    assert legal_types(state, 0) == {"claim_character", "pass"}
    claimed = roll(play(state, 0, ClaimCharacter()), 4)
    assert "smuggler_sam" in claimed.players[0].circus and claimed.characters == {}
    failed = roll(play(state, 0, ClaimCharacter()), 5)
    assert failed.characters == {"buffalo": "smuggler_sam"} and "buy_after_failure" not in legal_types(failed, 0)
    hire = agenda(replace(state, talents={"buffalo": ("horse",)}), {"t": "ph", "seat": 0, "optional": True})
    illegal(hire, 0, Hire(talent="smuggler_sam"), "CT-9.25")
    stay = play(replace(sc(), characters={"toronto": "smuggler_sam"}, news={"toronto": "LN01"}), 0,
                PlayCard(card="hold"))
    assert "claim_character" not in legal_types(stay, 0)
    adv = replace(sc(variant="advanced"), characters={"buffalo": "big_bertha"}, news={"buffalo": "LN01"})
    adv = play(adv, 0, PlayCard(card="overnight_transit", path=("buffalo",)))
    assert "big_bertha" in roll(play(adv, 0, ClaimCharacter()), 5).players[0].circus


def test_characters_draw_no_wage_and_have_no_type() -> None:
    """CT-21.7, CT-21.8, CT-11.7: an SC adds no bonus and draws no wage; it is never fired."""
    state = player(sc(), 0, circus=("brakeman_bill", "clown"), money=0)
    assert wage_bill(state, 0) == 1
    paid = play(state, 0, PlayCard(card="wage_transit"))
    assert paid.head()["t"] == "keep"  # type: ignore[index]
    after = play(paid, 0, KeepTalent(talents=()))
    assert after.players[0].circus == ("brakeman_bill",)


def test_buying_a_character() -> None:
    """CT-21.9, CT-10.3 (A-34): in August/September a reserve SC may be bought at $20."""
    state = player(replace(sc(week=18), reserve=("engineer_eddie",)), 0, money=20)
    state = play(state, 0, PlayCard(card="overnight_hire"))
    bought = play(state, 0, BuyFromPool(talent="engineer_eddie"))
    assert "engineer_eddie" in bought.players[0].circus and bought.reserve == ()
    july = player(replace(sc(week=14), reserve=("engineer_eddie",)), 0, money=20)
    july = play(july, 0, PlayCard(card="overnight_hire"))
    illegal(july, 0, BuyFromPool(talent="engineer_eddie"), "CT-21.9")


def test_losing_a_character() -> None:
    """CT-21.10, CT-10.4 (A-10): an SC can be stolen (counting toward the 2) or taken at a long month."""
    state = player(sc(), 1, circus=("big_bertha", "clown", "horse"))
    state = play(state, 0, PlayCard(card="overnight_hire"))
    illegal(state, 0, Steal(victim=1, talents=("big_bertha", "clown", "horse")), "CT-10.4")
    stolen = roll(play(state, 0, Steal(victim=1, talents=("big_bertha",))), 1)
    assert "big_bertha" in stolen.players[0].circus
    long = agenda(player(sc(), 1, circus=("big_bertha",)), {"t": "long_steal", "seat": 0})
    assert "big_bertha" in play(long, 0, LongSteal(victim=1, talent="big_bertha")).players[0].circus


def test_brakeman_bill() -> None:
    """CT-21.11 (A-37): one extra city on every movement; Basic Transit may then move 1 or 2."""
    state = player(sc(), 0, circus=("brakeman_bill", "clown"))
    R.validate(state, 0, PlayCard(card="rapid_transit", path=("buffalo", "syracuse", "albany", "boston")))
    R.validate(state, 0, PlayCard(card="basic_transit", option="move", path=("buffalo", "syracuse")))
    R.validate(state, 0, PlayCard(card="basic_transit", option="move", path=("buffalo",)))
    illegal(state, 0, PlayCard(card="hold", path=("buffalo",)), "CT-7.9")


def test_ringmaster_ronald() -> None:
    """CT-21.12 (A-32): the owner may declare Clowns or Acrobats famous with at least one."""
    state = replace(sc(), news={"toronto": "LN02"})
    state = player(state, 0, circus=("acrobat", "clown", "ringmaster_ronald"))
    request = state.catalog.request("LN02")  # base 1, clown 3, acrobat 2
    assert performance_level(state, 0, request, "clown") == 1 + 6 + 2
    ph = play(state, 0, PlayCard(card="hold"))
    assert any(getattr(m, "famous", None) == "acrobat" for m in R.legal_moves(ph, 0))
    plain = player(ph, 0, circus=("acrobat", "clown"))
    illegal(plain, 0, Perform(famous="clown"), "CT-21.12")


def test_smuggler_sam() -> None:
    """CT-21.13 (A-33): once, a hire with no roll (Special Hire too), or +1 reputation in the advanced
    game; Sam then goes to the reserve."""
    state = replace(player(sc(), 0, circus=("clown", "smuggler_sam")), talents={"toronto": ("elephant",)})
    state = play(state, 0, PlayCard(card="overnight_hire"))
    after = play(state, 0, Hire(talent="elephant", sam=True))
    assert after.players[0].circus == ("clown", "elephant") and after.reserve == ("smuggler_sam",)
    adv = player(sc(variant="advanced"), 0, circus=("clown", "smuggler_sam"), reputation=4)
    used = play(adv, 0, UseSam())
    assert used.players[0].reputation == 5 and used.head()["t"] == "turn"  # type: ignore[index]
    illegal(player(sc(), 0, circus=("clown", "smuggler_sam")), 0, UseSam(), "CT-21.13")


def test_engineer_eddie() -> None:
    """CT-21.14: once, play a card from the discard pile at no cost; it stays there; Eddie to reserve."""
    state = player(sc(), 0, circus=("clown", "engineer_eddie"), discard=("fast_transit",))
    after = play(state, 0, PlayCard(card="fast_transit", source="eddie", path=("buffalo",)))
    p = after.players[0]
    assert p.discard == ("fast_transit",) and p.circus == ("clown",) and after.reserve == ("engineer_eddie",)
    illegal(player(state, 0, circus=("clown",)), 0, PlayCard(card="fast_transit", source="eddie"), "CT-21.14")


def test_big_bertha_and_trainer_ted() -> None:
    """CT-21.15, CT-21.16 (A-31): +10 to every performance; each Elephant's wage $1 less."""
    state = player(sc(), 0, circus=("acrobat", "big_bertha"), requests=())
    assert performance_level(state, 0, state.catalog.request("LN01")) == 2 + 5 + 10
    ted = player(sc(), 0, circus=("elephant", "elephant", "trainer_ted"))
    assert wage_bill(ted, 0) == 22


def test_event_cards() -> None:
    """CT-21.17, CT-21.18, CT-21.19, CT-5.21 (A-38): 5 events a game from the eligible cards, one
    revealed after each month end April-August; its effect lasts to the next month end."""
    state = started(1, "solitaire", event_cards=True)
    assert "EV04" not in state.events_left and len(state.events_left) == 22
    state = started(3, event_cards=True)
    assert len(state.events_left) == 26
    for seat in range(3):
        state = player(state, seat, vp=seat, best=10, requests=(), circus=("clown",))
    state = agenda(replace(state, week=4), {"t": "month_end", "month": 0}, {"t": "round"})
    spec = R.decision(state).chance
    assert spec is not None and spec.kind == "event_card"
    state = R.resolve(state, "EV03")
    assert state.event == "EV03" and state.events_drawn == 1
    from domain.games.circus_train.events import reveal
    from domain.games.circus_train.limits import special_price
    price = reveal(replace(state, week=18), "EV20")
    assert special_price(price) == 10
    strike = reveal(replace(state, week=9, agenda=()), "EV04")
    chooser = strike.head()["seat"]  # type: ignore[index]
    assert chooser == 0 and strike.head()["t"] == "block_link"  # type: ignore[index]
    blocked = play(play(strike, 0, BlockLink(a="toronto", b="buffalo")), 0, BlockLink(a="albany", b="boston"))
    mover = turn_of(player(blocked, 1, city="toronto"), 1)
    illegal(mover, 1, PlayCard(card="rapid_transit", path=("buffalo",)), "CT-21.18")
    walkout = reveal(replace(player(state, 2, circus=("clown",) * 6), agenda=()), "EV13")
    assert walkout.head() == {"t": "return", "seat": 2, "left": 1}
    assert play(walkout, 2, ReturnTalent(talent="clown")).players[2].circus == ("clown",) * 5


def test_simpler_variant() -> None:
    """CT-21.20, CT-21.21 (A-36): no Wage & Transit, no VP, no month-end or final scoring, no steal;
    Points counters give nothing; the best marker wins, then money, then requests."""
    state = started(3, simpler=True)
    assert "wage_transit" not in state.players[0].hand
    state = empty_board(state)
    for seat in range(3):
        state = player(state, seat, best=10 + seat, vp=0, money=0, requests=(), city="toronto")
    state = replace(state, news={"buffalo": "LN27"})
    moved = play(turn_of(state, 0), 0, PlayCard(card="rapid_transit", path=("buffalo",)))
    assert moved.players[0].vp == 0 and "buffalo" not in moved.news
    end = settle(agenda(replace(state, week=27), {"t": "month_end", "month": 5}))
    assert end.lines == () and end.over
    sheet = R.score(end)
    assert sheet.totals() == (10, 11, 12) and sheet.lines[0].rule == "CT-21.20"
    assert R.result(end, sheet).ranks == (3, 2, 1)
    may = settle(agenda(player(replace(state, week=9), 0, vp=0), {"t": "month_end", "month": 1}))
    assert all(task["t"] != "long_steal" for task in may.agenda)
    _ = Pass


def test_simpler_variant_has_no_events() -> None:
    """CT-21.20: the simpler variant uses no event cards even when they are selected."""
    state = started(3, simpler=True, event_cards=True)
    assert state.events_left == ()


def test_basic_transit_with_every_link_blocked() -> None:
    """CT-7.2, CT-7.8, CT-21.18: when an event blocks every link and nothing can be performed or hired,
    Basic Transit is still playable, for nothing."""
    state = replace(sc(), marks={"blocked_links": [["duluth", "minneapolis"], ["duluth", "winnipeg"]]})
    state = player(state, 0, city="duluth", hand=("basic_transit",))
    moves = R.legal_moves(state, 0)
    assert [(m.option, m.path) for m in moves] == [("move", ())]  # type: ignore[attr-defined]
    after = play(state, 0, moves[0])
    assert after.players[0].city == "duluth"

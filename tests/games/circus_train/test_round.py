"""The Roustabout Phase, replenishment, limits, month and season events (sections 12-15)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.flow import place_counter
from domain.games.circus_train.moves import LongSteal, Pass

from .helpers import R, agenda, empty_board, illegal, play, player, settle, started


def roustabout(state, week: int):  # type: ignore[no-untyped-def]
    return agenda(replace(state, week=week), {"t": "roustabout"})


def test_replenish_to_quota_then_advance() -> None:
    """CT-12.2, CT-12.3, CT-12.4, CT-13.1, CT-13.4: draw a counter, turn a card for its city, place it,
    until the quota (8 in April) is met; then the calendar advances one week."""
    fresh = started(3)
    deck = tuple(sorted(d.id for d in fresh.catalog.components.destination_cards))
    state = replace(empty_board(fresh), bag=("LN01", "LN02"), deck=deck, dest_discard=())
    state = agenda(state, {"t": "roustabout"})
    assert R.decision(state).chance.kind == "local_news"  # type: ignore[union-attr]
    state = R.resolve(state, "LN02")
    assert R.decision(state).chance.kind == "destination_card"  # type: ignore[union-attr]
    state = R.resolve(state, "dest_boston")
    assert state.news["boston"] == "LN02" and "dest_boston" in state.dest_discard
    state = settle(state, ["LN01", "dest_chicago"])
    assert state.week == 1 and state.bag == ()  # CT-14.3: an empty bag stops the drawing


def test_quota_by_month() -> None:
    """CT-12.3, CT-15.5: quotas 8 / 10 / 12 by season, checked at the start of each round too."""
    from domain.games.circus_train.flow import quota
    state = started(3)
    assert [quota(replace(state, week=w)) for w in (0, 4, 9, 13, 18, 26)] == [8, 8, 10, 10, 12, 12]
    round_start = agenda(replace(state, week=9), {"t": "round"})
    assert R.decision(round_start).chance is not None  # below 10: draws before the first turn


def test_replacement_clears_the_city() -> None:
    """CT-13.2, CT-14.5 (A-22): an occupied city loses everything (news leaves the game, talent
    returns to the pool); the count of counter cities does not grow."""
    state = replace(empty_board(started(3)), news={"boston": "LN01"}, talents={"boston": ("horse",)})
    pool = state.pool["horse"]
    after = place_counter(state, "LN02", "boston")
    assert after.news == {"boston": "LN02"} and after.talents == {} and after.pool["horse"] == pool + 1
    assert after.counter_cities() == 1


def test_bankrupt_circus_and_shortage() -> None:
    """CT-13.5, CT-14.1, CT-14.2: talent shown goes to the city from the pool; when the pool lacks all
    of it the counter leaves and another is drawn for the same city without a new card."""
    state = empty_board(started(3))
    partial = place_counter(replace(state, pool={**state.pool, "acrobat": 0}), "LN15", "boston")
    assert partial.talents == {"boston": ("clown",)}
    short = replace(state, pool={**state.pool, "freak": 0}, bag=("LN02",))
    short = place_counter(short, "LN16", "boston")
    assert short.head() == {"t": "news_redraw", "city": "boston", "clear": True}
    spec = R.decision(short).chance
    assert spec is not None and spec.kind == "local_news"
    done = R.resolve(short, "LN02")
    assert done.news == {"boston": "LN02"}


def test_destination_deck_reshuffles() -> None:
    """CT-14.4: an empty deck takes back the discard pile (the next draws are from the whole pile)."""
    from domain.games.circus_train.flow import draw_destination
    state = replace(started(3), deck=("dest_boston",), dest_discard=("dest_chicago", "dest_duluth"))
    after, city = draw_destination(state, "dest_boston")
    assert city == "boston" and after.deck == ("dest_boston", "dest_chicago", "dest_duluth")
    assert after.dest_discard == ()


def test_month_end_passes_first_player_and_steal() -> None:
    """CT-15.1, CT-15.2, CT-12.5, CT-15.7 (A-13): after May's scoring the First Player marker passes
    left and the lone lowest-VP player may take one counter from any opponent."""
    state = started(3)
    first = state.first
    for seat, vp in enumerate((5, 1, 5)):
        state = player(state, seat, vp=vp, best=10, requests=(), circus=("clown",))
    state = player(state, 0, circus=("clown", "elephant"))
    state = agenda(replace(state, week=9), {"t": "month_end", "month": 1}, {"t": "round"})
    state = settle(state)
    assert state.first == (first + 1) % 3
    assert state.head() == {"t": "long_steal", "seat": 1}
    illegal(state, 1, LongSteal(victim=1, talent="clown"), "CT-15.2")
    illegal(state, 1, LongSteal(victim=0, talent="horse"), "CT-15.2")
    after = play(state, 1, LongSteal(victim=0, talent="elephant"))
    assert after.players[1].count("elephant") == 1 and after.players[0].count("elephant") == 0
    assert R.decision(after).chance is not None  # CT-15.3: the season change draws follow


def test_no_steal_on_a_tie_or_short_month() -> None:
    """CT-15.2: a tie for fewest skips the steal; short months have none."""
    state = started(3)
    for seat in range(3):
        state = player(state, seat, vp=2, best=10, requests=())
    tie = settle(agenda(replace(state, week=9), {"t": "month_end", "month": 1}))
    assert all(task["t"] != "long_steal" for task in tie.agenda)
    state = player(state, 2, vp=0)
    april = settle(agenda(replace(state, week=4), {"t": "month_end", "month": 0}))
    assert all(task["t"] != "long_steal" for task in april.agenda)
    declined = play(settle(agenda(replace(state, week=9), {"t": "month_end", "month": 1})), 2, Pass())
    assert declined.players[2].circus == state.players[2].circus


def test_season_change() -> None:
    """CT-15.3 (A-14, A-15), CT-12.5, CT-14.3: at the end of May the green counters left in the bag
    leave the game, the yellow ones come in, and draws continue up to the new quota of 10."""
    state = empty_board(started(3))
    state = replace(state, news={f"c{i}": "LN01" for i in range(8)})
    deck = tuple(sorted(d.id for d in state.catalog.components.destination_cards))
    state = agenda(replace(state, week=9, deck=deck, dest_discard=()), {"t": "season_change"})
    assert all(state.catalog.counters[c].season == 2 for c in state.bag)
    assert len(state.bag) == 27
    state = settle(state, ["LN28", "dest_boston", "LN29", "dest_chicago"])
    assert state.counter_cities() == 10 and not state.lines


def test_game_ends_after_september() -> None:
    """CT-6.2, CT-15.6, CT-17.1: September's month end scores, then final scoring, then the end."""
    state = started(3)
    for seat in range(3):
        state = player(state, seat, vp=0, best=10 + seat, requests=(), circus=("clown",), money=0)
    state = agenda(replace(state, week=27), {"t": "month_end", "month": 5}, {"t": "round"})
    state = settle(state)
    assert state.over and R.decision(state).over
    rules = [line.rule for line in state.lines]
    assert rules.index("CT-16.4") < rules.index("CT-17.5")

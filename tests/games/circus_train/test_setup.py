"""Definitions, components and setup: sections 0, 2-6 and the data behind them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from domain.games.circus_train.components import (
    BankruptCounter,
    CharacterCounter,
    PointsCounter,
    RequestCounter,
)
from domain.games.circus_train.moves import ChooseStart, PickTalent
from domain.games.circus_train.state import PlayerState
from domain.kernel.viewers import Viewer

from .helpers import R, cfg, illegal, play, settle, started


def test_player_counts_and_variants() -> None:
    """CT-0.1, CT-3.3, CT-5.22: 1-5 players; N = 1 is solitaire; basic and advanced versions."""
    assert {(v, i.min_seats, i.max_seats) for v, i in R.variants.items()} == {
        ("basic", 2, 5), ("advanced", 2, 5), ("solitaire", 1, 1), ("solitaire-advanced", 1, 1)}
    assert started(1, "solitaire").solitaire and not started(2).solitaire


def test_calendar_and_seasons() -> None:
    """CT-0.3, CT-0.4, CT-3.2, CT-5.8: six months, 27 weeks, long months May/July/August, 3 seasons."""
    catalog = started(3).catalog
    months = [(m.name, m.weeks, m.season, m.long_month) for m in catalog.months]
    assert months == [("April", 4, 1, False), ("May", 5, 1, True), ("June", 4, 2, False),
                      ("July", 5, 2, True), ("August", 5, 3, True), ("September", 4, 3, False)]
    assert catalog.total_weeks == 27
    state = started(3)
    assert state.week == 0 and state.month.name == "April"


def test_direction_and_right_hand_player() -> None:
    """CT-0.5, CT-7.1, CT-7.3: play passes left; the player to the right plays just before you."""
    state = started(4)
    assert [state.right_of(s) for s in range(4)] == [3, 0, 1, 2]
    assert started(2).right_of(0) == 1
    assert started(1, "solitaire").right_of(0) == 0
    turns = [task["seat"] for task in state.agenda if task["t"] == "turn"]
    assert turns == [(state.first + i) % 4 for i in range(4)]


def test_talent_types_and_counter_kinds() -> None:
    """CT-0.6, CT-4.2, CT-0.8, CT-4.1, CT-2.1: 7 talent types (3 animals), 3 counter kinds plus 6 SCs,
    87 counters in three season colours, 66 talent counters, 24 destination and 26 event cards."""
    components = started(3).catalog.components
    assert [t.id for t in components.talent_types] == [
        "clown", "acrobat", "freak", "horse", "cannonball", "big_cat", "elephant"]
    assert {t.id for t in components.talent_types if t.is_animal} == {"horse", "big_cat", "elephant"}
    kinds = Counter(type(c) for c in components.local_news)
    assert kinds[CharacterCounter] == 6 and sum(kinds.values()) == 87
    assert {RequestCounter, BankruptCounter, PointsCounter} <= set(kinds)
    assert {c.season for c in components.local_news} == {1, 2, 3}
    assert sum(t.counters for t in components.talent_types) == 66
    assert len(components.destination_cards) == 24 and len(components.event_cards) == 26
    assert sum(c.copies for c in components.action_cards) == 9


def test_player_pieces_and_reference_card() -> None:
    """CT-2.2, CT-2.3, CT-4.3, CT-5.2, CT-5.5, CT-5.6, CT-5.7, CT-19.1: each player has a train, VP
    marker on 0, Best Performance marker on 10, an unused Two-Week marker; reputation only in the
    advanced game (advanced side of the reference card) starting on level 5; one six-sided die."""
    state = started(3)
    for p in state.players:
        assert p.city is not None and p.vp == 0 and p.best == 10 and p.show is None and p.reputation == 0
    advanced = started(3, "advanced")
    assert all(p.reputation == 5 for p in advanced.players)
    from domain.games.circus_train.flow import DIE
    assert [face for face, _ in DIE] == [1, 2, 3, 4, 5, 6]  # CT-0.13


def test_starting_circus_and_picks() -> None:
    """CT-5.3, CT-5.14, CT-5.10, CT-0.7: a Clown plus two picks among Acrobat, Freak, Horse."""
    state = R.setup(cfg(3))
    state = settle(state, [1])  # CT-5.12: the first player drawn at random
    assert state.first == 1 and state.head() == {"t": "pick", "seat": 1, "left": 2}
    illegal(state, 1, PickTalent(talent="elephant"), "CT-5.14")
    state = play(state, 1, PickTalent(talent="horse"))
    state = play(state, 1, PickTalent(talent="horse"))
    assert state.players[1].circus == ("clown", "horse", "horse")
    assert state.pool["horse"] == 8 and state.pool["clown"] == 14 - 3
    assert state.head()["seat"] == 2  # type: ignore[index]


def test_pick_refused_when_pool_is_empty() -> None:
    """CT-5.14, CT-14.1: a type with none left in the pool cannot be picked."""
    state = settle(R.setup(cfg(3)), [0])
    state = replace(state, pool={**state.pool, "freak": 0})
    illegal(state, 0, PickTalent(talent="freak"), "CT-14.1")


def test_hand_sizes() -> None:
    """CT-5.4, CT-5.21, CT-19.10, CT-20.1: 8 / 7 cards basic, 9 / 8 advanced; Rest only advanced,
    Overnight Hire only with 3+ players."""
    assert len(started(3).players[0].hand) == 8
    assert len(started(2).players[0].hand) == 7
    assert len(started(1, "solitaire").players[0].hand) == 7
    assert len(started(4, "advanced").players[0].hand) == 9
    assert len(started(2, "advanced").players[0].hand) == 8
    assert len(started(1, "solitaire-advanced").players[0].hand) == 8
    assert "rest" not in started(3).players[0].hand and "overnight_hire" not in started(2).players[0].hand
    assert started(3).players[0].hand.count("basic_transit") == 2


def test_bag_deck_and_money() -> None:
    """CT-5.9, CT-5.11, CT-5.18, CT-5.19, CT-0.11 (A-1), CT-5.13: green counters in the bag without
    Special Characters; the 24-card deck; turned-up cards on the discard pile; $0 each; no event."""
    state = started(3)
    catalog = state.catalog
    assert all(catalog.counters[c].season == 1 and not catalog.is_character_counter(c) for c in state.bag)
    assert len(state.deck) + len(state.dest_discard) == 24 and state.dest_discard
    assert all(p.money == 0 for p in state.players)
    assert state.event is None and state.marks == {}


def test_initial_requests_draw_only_requests() -> None:
    """CT-5.15 (A-2): the redraw until a request is drawn is one draw among the bag's requests."""
    state = settle(R.setup(cfg(3)), [0])
    for seat in (0, 0, 1, 1, 2, 2):
        state = play(state, seat, PickTalent(talent="acrobat"))
    decision = R.decision(state)
    assert decision.chance is not None and decision.chance.kind == "destination_card"
    state = R.resolve(state, "dest_richmond")
    spec = R.decision(state).chance
    assert spec is not None and spec.kind == "initial_request"
    assert all(state.catalog.is_request(o) for o, _ in spec.outcomes)
    state = R.resolve(state, "LN01")
    assert state.news == {"richmond": "LN01"}


def test_setup_fills_eight_counter_cities() -> None:
    """CT-5.16, CT-0.9, CT-5.17: after the requests, cities are filled to 8 counter cities; a
    Bankrupt Circus puts its talent in the city and leaves the game."""
    state = settle(R.setup(cfg(3)), [0])
    for seat in (0, 0, 1, 1, 2, 2):
        state = play(state, seat, PickTalent(talent="acrobat"))
    outcomes = ["dest_richmond", "LN01", "dest_boston", "LN02", "dest_chicago", "LN03",
                "dest_duluth", "LN15"]
    state = settle(state, outcomes)
    assert state.talents["duluth"] == ("acrobat", "clown") and "LN15" not in state.bag
    assert state.counter_cities() == 8
    assert state.head()["t"] == "start"  # type: ignore[index]


def test_start_cities() -> None:
    """CT-5.20, CT-8.4: trains start in Winnipeg, Toronto or Montreal and may share a city."""
    state = R.setup(cfg(2))
    while state.head()["t"] != "start":  # type: ignore[index]
        state = settle(state)
        task = state.head()
        if task["t"] == "pick":  # type: ignore[index]
            state = play(state, task["seat"], PickTalent(talent="freak"))  # type: ignore[index]
    seat = state.head()["seat"]  # type: ignore[index]
    illegal(state, seat, ChooseStart(city="boston"), "CT-5.20")
    assert {m.city for m in R.legal_moves(state, seat)} == {"winnipeg", "toronto", "montreal"}  # type: ignore[attr-defined]
    state = play(state, seat, ChooseStart(city="toronto"))
    state = play(state, 1 - seat, ChooseStart(city="toronto"))
    assert {p.city for p in state.players} == {"toronto"}


def test_everything_is_public_but_bag_and_deck() -> None:
    """CT-0.15 (A-6), CT-0.7: hands, discards, money and circuses are public; the bag, the deck and
    the event deck show only their counts to everyone but an arbiter."""
    state = started(3, event_cards=True)
    seen = R.view(state, Viewer.spectator())
    assert seen["players"][1]["hand"] == list(state.players[1].hand)
    assert seen["players"][1]["money"] == 0 and seen["players"][1]["circus"]
    assert seen["bag"] == {"count": len(state.bag)} and seen["deck"] == {"count": len(state.deck)}
    assert seen["events_left"] == {"count": len(state.events_left)}
    assert R.view(state, Viewer.arbiter())["bag"] == list(state.bag)
    assert R.view(state, Viewer.of_seat(0))["bag"] == seen["bag"]


def test_round_structure() -> None:
    """CT-0.2, CT-6.1, CT-12.1: a round is one turn per player then the Roustabout Phase."""
    state = started(3)
    kinds = [task["t"] for task in state.agenda]
    assert kinds[:4] == ["turn", "turn", "turn", "roustabout"]


def test_state_encoding_round_trip() -> None:
    """CT-0.15: the whole state, hands and discards included, survives JSON."""
    state = started(3)
    data = R.encode_state(state)
    assert R.encode_state(R.decode_state(data, state.config)) == data
    assert PlayerState.from_json(state.players[0].to_json()) == state.players[0]


def test_greatest_show_wins() -> None:
    """CT-1.1, CT-3.1, CT-18.1: the player with the most VP is ranked first."""
    from domain.kernel.driver import play as drive
    match = drive(R, cfg(3), seed=3)
    totals = R.score(match.state).totals()
    result = R.result(match.state, R.score(match.state))
    assert all(result.ranks[s] == 1 for s in range(3) if totals[s] == max(totals)) or len(set(totals)) < 3


def test_board() -> None:
    """CT-5.1, D-1: the board's map: cities joined by rail links, every city reachable from the start
    cities, the three Canadian start cities."""
    catalog = started(3).catalog
    seen = {"toronto"}
    frontier = ["toronto"]
    while frontier:
        for nxt in catalog.neighbours[frontier.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    assert seen == set(catalog.cities) and len(seen) == 27
    assert catalog.start_cities == ("montreal", "toronto", "winnipeg") and catalog.canada == set(catalog.start_cities)


def test_another_component_set_plays_without_code_changes() -> None:
    """CT-2.1, CT-11.6, D-1..D-7: the engine is data-driven: a set with another map link, another
    wage, fewer destination cards and a different counter mix loads and plays to the end."""
    from domain.kernel.components import load_components
    from domain.kernel.contract import MatchConfig
    from domain.kernel.driver import play as drive

    data = R.default_components().content()
    data["name"] = "variant-test"
    data["links"] = [*data["links"], {"a": "winnipeg", "b": "chicago", "confidence": "filled-in"}]
    data["talent_types"][0]["wage"] = 2
    data["destination_cards"] = data["destination_cards"][:20]
    data["local_news"] = [c for c in data["local_news"] if c["id"] not in ("LN23", "LN24")]
    components = load_components(R.components_model, data)
    assert components.content_hash() != R.default_components().content_hash()
    config = MatchConfig("basic", R.parse_options({}), 3, components)
    match = drive(R, config, seed=5)
    assert R.decision(match.state).over
    assert "chicago" in match.state.catalog.neighbours["winnipeg"]
    assert R.view(match.state, Viewer.spectator())["components"] == "variant-test"


def test_invalid_component_set_is_refused() -> None:
    """D-1: a link to an unknown city is refused when the set is loaded."""
    import pytest

    from domain.kernel.components import load_components
    from domain.kernel.errors import InvalidComponentsError

    data = R.default_components().content()
    data["links"] = [*data["links"], {"a": "winnipeg", "b": "atlantis"}]
    with pytest.raises(InvalidComponentsError):
        load_components(R.components_model, data)

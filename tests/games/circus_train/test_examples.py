"""The rulebook's worked examples EX-1..EX-6 and the digest's illustrations IL-1..IL-4, exactly."""

from __future__ import annotations

from domain.games.circus_train.moves import KeepTalent, Perform, PlayCard
from domain.games.circus_train.scoring import month_end_scoring, performance_level, place_awards, wage_bill

from .helpers import R, agenda, empty_board, illegal, play, player, started


def test_ex1_four_requests_on_four_cities() -> None:
    """EX-1, CT-5.15: with 4 players, 4 Performance Requests lie on 4 different cities."""
    state = started(4)
    catalog = state.catalog
    request_cities = [city for city, c in state.news.items() if catalog.is_request(c)]
    assert len(request_cities) >= 4 and len(set(request_cities)) == len(request_cities)


def _dana(state, circus, held=()):  # type: ignore[no-untyped-def]
    return player(state, 0, circus=tuple(sorted(circus)), requests=tuple(held))


def test_ex2_richmond_request() -> None:
    """EX-2, CT-9.2, CT-9.3, CT-9.5, CT-9.6: base 2, Acrobats +5, Cannonballs +3."""
    state = started(3)
    request = state.catalog.request("LN01")
    assert (request.base_points, request.bonuses) == (2, {"acrobat": 5, "cannonball": 3})
    assert performance_level(_dana(state, ["acrobat"]), 0, request) == 7
    assert performance_level(_dana(state, ["acrobat", "cannonball"]), 0, request) == 10
    assert performance_level(_dana(state, ["acrobat"], ["LN04"]), 0, request) == 9


def test_ex3_famous_cannonballs() -> None:
    """EX-3, CT-9.4: famous (3 counters) doubles the bonus: 2 + 5 + 6 + 2 = 15."""
    state = _dana(started(3), ["acrobat", "cannonball", "cannonball", "cannonball"], ["LN04"])
    assert performance_level(state, 0, state.catalog.request("LN01")) == 15


def test_il1_two_acrobats_are_not_famous() -> None:
    """IL-1, CT-9.3, CT-9.4: 2 Acrobats score like 1; 3 double the bonus."""
    state = started(3)
    request = state.catalog.request("LN01")
    assert performance_level(_dana(state, ["acrobat", "acrobat"]), 0, request) == 7
    assert performance_level(_dana(state, ["acrobat"] * 3), 0, request) == 12


def test_ex4_most_talent() -> None:
    """EX-4, CT-16.1, CT-16.2: Barbara 4, Frank 5, John 0 for Most Talent."""
    state = started(3)
    circuses = [
        ["elephant"] * 4 + ["acrobat"] * 2 + ["clown"] * 2,
        ["elephant"] * 2 + ["big_cat"] * 2 + ["clown"] * 3,
        ["freak"] + ["acrobat"] * 2 + ["clown"] * 2,
    ]
    for seat, circus in enumerate(circuses):
        state = player(state, seat, circus=tuple(sorted(circus)), best=10, requests=())
    after = month_end_scoring(state, 1)
    talent = [sum(line.points for line in after.lines if line.seat == seat and line.rule == "CT-16.1")
              for seat in range(3)]
    assert talent == [4, 5, 0]


def test_ex5_tie_for_first() -> None:
    """EX-5, CT-16.5: two tie for 1st: (7 + 4) / 2 = 5 each; the next is 3rd with 2."""
    assert place_awards([30, 30, 20], (7, 4, 2), 1) == [5, 5, 2]


def test_il4_tie_cases() -> None:
    """IL-4, CT-16.5, CT-16.6: shared places round down; a tie for 3rd gets 1 each."""
    assert place_awards([9, 9, 9, 1], (7, 4, 2), 1) == [4, 4, 4, 0]
    assert place_awards([9, 5, 5, 1], (7, 4, 2), 1) == [7, 3, 3, 0]
    assert place_awards([9, 8, 5, 5, 5], (7, 4, 2), 1) == [7, 4, 1, 1, 1]
    assert place_awards([9, 9, 9, 9], (7, 4, 2), 1) == [3, 3, 3, 3]


def test_il2_firing_choices() -> None:
    """IL-2, CT-11.3 (A-12): $12 against Elephant 12, 2 Acrobats 3 and a Clown 1."""
    state = started(3)
    state = player(state, 0, money=12, circus=("acrobat", "acrobat", "clown", "elephant"))
    state = agenda(state, {"t": "keep", "seat": 0})
    R.validate(state, 0, KeepTalent(talents=("elephant",)))
    R.validate(state, 0, KeepTalent(talents=("acrobat", "acrobat", "clown")))
    illegal(state, 0, KeepTalent(talents=("clown",)), "CT-11.3")
    kept = play(state, 0, KeepTalent(talents=("elephant",)))
    assert kept.players[0].money == 0 and kept.players[0].circus == ("elephant",)


def test_il3_wage_bill() -> None:
    """IL-3, CT-11.6, CT-20.4: 1 Clown + 2 Acrobats cost $7, $14 in solitaire."""
    state = player(started(3), 0, circus=("acrobat", "acrobat", "clown"))
    assert wage_bill(state, 0) == 7
    solo = player(started(1, "solitaire"), 0, circus=("acrobat", "acrobat", "clown"))
    assert wage_bill(solo, 0) == 14


def test_ex6_solitaire_points_counter() -> None:
    """EX-6, CT-20.5, CT-13.6: a 3-point Points counter is worth 3 x $5 = $15 in solitaire."""
    state = empty_board(started(1, "solitaire", start="toronto"))
    state = player(state, 0, money=0)
    state = agenda(state, {"t": "turn", "seat": 0})
    from dataclasses import replace
    state = replace(state, news={"buffalo": "LN27"})
    assert state.catalog.counters["LN27"].victory_points == 3  # type: ignore[union-attr]
    after = play(state, 0, PlayCard(card="rapid_transit", path=("buffalo",)))
    assert after.players[0].money == 15 and "buffalo" not in after.news


def test_ex2_performed_in_play() -> None:
    """EX-2 through a real Perform/Hire: Dana at Richmond with 1 Acrobat and a held base-2 request."""
    from dataclasses import replace
    state = empty_board(started(3))
    state = replace(state, news={"richmond": "LN01"})
    state = player(state, 0, city="richmond", circus=("acrobat", "clown"), requests=("LN04",), best=5, money=0)
    state = agenda(state, {"t": "turn", "seat": 0})
    state = play(state, 0, PlayCard(card="hold"))
    raised = play(state, 0, Perform())
    dana = raised.players[0]
    assert dana.best == 9 and dana.requests == ("LN04", "LN01")
    assert dana.money == 5 + 10  # CT-9.10 green $5, CT-9.11 +$10 for raising the marker
    kept = play(player(state, 0, best=10), 0, Perform()).players[0]
    assert kept.best == 10 and kept.money == 5  # CT-9.8: only a strictly higher level moves it

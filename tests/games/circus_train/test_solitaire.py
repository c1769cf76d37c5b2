"""The solitaire game (section 20)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.moves import KeepTalent, Perform, PlayCard, PocketWages, SendFired

from .helpers import R, agenda, empty_board, illegal, legal_types, play, player, settle, started, turn_of


def solo(variant: str = "solitaire", week: int = 1, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    state = empty_board(started(1, variant, start="toronto", **(options or {})))
    state = player(replace(state, week=week), 0, city="toronto", money=0)
    return turn_of(state, 0)


def test_solitaire_setup() -> None:
    """CT-20.1, CT-20.2: one initial request, 7 cards (no Overnight Hire), no VP or Best Performance
    in the score: money is the measure."""
    state = started(1, "solitaire")
    catalog = state.catalog
    assert sum(1 for c in state.news.values() if catalog.is_request(c)) >= 1
    assert "overnight_hire" not in state.players[0].hand and len(state.players[0].hand) == 7
    sheet = R.score(player(state, 0, money=42, vp=9))
    assert sheet.totals() == (42,) and sheet.lines[0].rule == "CT-20.2"


def test_solitaire_performance_money() -> None:
    """CT-20.3, CT-9.12: $1 per point of Performance Level instead of the colour money."""
    state = replace(solo(), news={"toronto": "LN01"})
    state = player(state, 0, circus=("acrobat", "clown"))
    after = play(play(state, 0, PlayCard(card="hold")), 0, Perform())
    assert after.players[0].money == 7


def test_solitaire_wages_doubled() -> None:
    """CT-20.4, CT-11.6, CT-20.11 (A-19): wages doubled; the solitaire player chooses the city for
    their own fired talent."""
    state = player(solo(), 0, money=20, circus=("acrobat", "clown"))
    assert play(state, 0, PlayCard(card="wage_transit")).players[0].money == 20 - 8
    short = replace(player(state, 0, money=3), talents={"boston": ("horse",), "chicago": ("freak",)})
    short = play(play(short, 0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("clown",)))
    assert R.decision(short).seats == (0,)
    assert play(short, 0, SendFired(city="boston")).talents["boston"] == ("acrobat", "horse")


def test_vp_become_money() -> None:
    """CT-20.5: VP gains and costs are $5 each (a parade for 2 VP returns $10)."""
    state = player(solo("solitaire-advanced"), 0, money=10)
    after = play(state, 0, PlayCard(card="basic_transit", option="parade", parade_reward="vp"))
    assert after.players[0].money == 10 and after.lines == ()


def test_no_pocketing_and_replay_price() -> None:
    """CT-20.6, CT-20.7: no pocketing in solitaire; a replay costs $20 and 2 reputation in any month."""
    state = player(solo("solitaire-advanced"), 0, discard=("fast_transit",), money=19)
    illegal(state, 0, PocketWages(bills=1), "CT-20.6")
    illegal(state, 0, PlayCard(card="fast_transit", source="replay"), "CT-20.7")
    rich = player(state, 0, money=20)
    after = play(rich, 0, PlayCard(card="fast_transit", source="replay"))
    assert after.players[0].money == 0 and after.players[0].reputation == 3
    assert "pocket_wages" not in legal_types(rich, 0)


def game_end(state, **changes):  # type: ignore[no-untyped-def]
    """September's month end (the last of the game) from a crafted position, through the real flow."""
    state = player(replace(state, week=27), 0, **changes)
    return settle(agenda(state, {"t": "month_end", "month": 5}))


def band(state) -> str:  # type: ignore[no-untyped-def]
    return R.result(state, R.score(state)).tiebreaks[0]


def test_il5_month_end() -> None:
    """IL-5, CT-16.11, CT-16.1, CT-16.2, CT-20.5 (A-29): 3 Clowns, 2 Acrobats, 1 Horse and 1 Elephant pay
    (3 + 2) x $5 = $25 at a month end; the single Horse and Elephant pay nothing. April is scored the
    same way (no April award with one player, CT-16.8), and the Best Performance marker pays nothing."""
    circus = ("acrobat", "acrobat", "clown", "clown", "clown", "elephant", "horse")
    state = player(solo(), 0, circus=circus, money=4, best=60, requests=("LN01",))
    may = settle(agenda(replace(state, week=9), {"t": "month_end", "month": 1}))
    assert may.players[0].money == 4 + 25 and may.lines == ()
    april = settle(agenda(replace(state, week=4), {"t": "month_end", "month": 0}))
    assert april.players[0].money == 4 + 25
    assert all(task["t"] != "long_steal" for task in may.agenda)  # CT-15.2: no steal with one player


def test_il5_end_of_game() -> None:
    """IL-5, CT-20.8, CT-20.10, CT-20.9, CT-17.3, CT-17.5, CT-17.6, CT-17.7 (A-29, A-17): $200, a Clown
    and an Acrobat, no request. Wages $2 + $6 leave $192; Most Clowns +$25 = $217; No Animals 3 x -$25
    = $142; Most Money +$25 = $167; no request, nothing more. $167 is a Draw."""
    end = game_end(solo(), money=200, circus=("acrobat", "clown"), requests=())
    assert end.over and end.players[0].money == 167 and end.players[0].circus == ("acrobat", "clown")
    assert band(end) == "Draw" and end.lines == ()
    assert R.score(end).lines[0].rule == "CT-20.9" and R.score(end).totals() == (167,)


def test_end_of_game_order_and_unpaid_wages() -> None:
    """CT-15.6, CT-16.11, CT-20.8, CT-20.10 (A-29, A-30): September's Most Talent comes first, then the
    wages, then the awards, which read the money as it stands. $20 and 2 Clowns, a Horse, a Big Cat, an
    Elephant, one request: Most Talent 2 x $5 = $30; wages $4 + $12 + $24 + $24 = $64 take all $30 and
    fire nothing; Most Clowns +$25; no animal missing; Most Money +$25 ($25 is above $0); Most
    Performances +$25: $75, a Collapse. The earlier reading ends on $0."""
    circus = ("big_cat", "clown", "clown", "elephant", "horse")
    end = game_end(solo(), money=20, circus=circus, requests=("LN01",))
    assert end.players[0].money == 75 and end.players[0].circus == circus and band(end) == "Collapse"
    old = game_end(solo(options={"solitaire_scoring": "none"}), money=20, circus=circus, requests=("LN01",))
    assert old.players[0].money == 0 and old.players[0].circus == circus and band(old) == "Collapse"


def test_lost_points_cost_at_most_the_money() -> None:
    """CT-20.5, CT-20.10, CT-17.4, CT-17.5, CT-0.11: each lost VP costs $5, or what money is left. $30
    and one Acrobat: wages $6 leave $24; No Clowns -$15 = $9; no Horse takes the last $9 (not $25);
    no Big Cat and no Elephant find $0; Most Money needs more than $0 (A-17): final $0."""
    end = game_end(solo(), money=30, circus=("acrobat",), requests=())
    assert end.players[0].money == 0 and band(end) == "Collapse"
    rich = game_end(solo(), money=130, circus=("acrobat",), requests=())
    assert rich.players[0].money == 130 - 6 - 15 - 75 + 25  # $59


def test_advanced_solitaire_end_of_game() -> None:
    """CT-20.10, CT-19.22, CT-20.8 (A-29, A-28): the advanced game adds Step 7, Highest Reputation,
    always +$25 for a lone player, and Most Money needs reputation level 5. $100, a Clown, a Horse, a
    Big Cat, an Elephant, one request, level 5: wages $2 + $12 + $24 + $24 = $62 leave $38; Most
    Clowns +$25 = $63; Most Money +$25 = $88; Most Performances +$25 = $113; Highest Reputation +$25 =
    $138, a Defeat. At level 4 Most Money pays nothing: $113."""
    circus = ("big_cat", "clown", "elephant", "horse")
    state = solo("solitaire-advanced")
    end = game_end(state, money=100, circus=circus, requests=("LN01",), reputation=5)
    assert end.players[0].money == 138 and band(end) == "Defeat"
    low = game_end(state, money=100, circus=circus, requests=("LN01",), reputation=4)
    assert low.players[0].money == 113
    old = game_end(solo("solitaire-advanced", options={"solitaire_scoring": "none"}), money=100, circus=circus,
                   requests=("LN01",), reputation=5)
    assert old.players[0].money == 38


def test_earlier_reading_as_an_option() -> None:
    """CT-20.8, CT-20.9 (A-29 (a), A-30 before 2026-12-01): with solitaire_scoring "none", no
    month-end or final scoring: IL-5's $200 ends on $192 after the wages alone, a Victory; $5 against
    $8 of wages ends on $0, with no talent fired, a Collapse."""
    state = player(solo(options={"solitaire_scoring": "none"}), 0, money=200, circus=("acrobat", "clown"),
                   requests=())
    end = game_end(state)
    assert end.over and end.players[0].money == 192 and end.lines == ()
    assert band(end) == "Victory" and R.score(end).lines[0].rule == "CT-20.9"
    broke = game_end(state, money=5)
    assert broke.players[0].money == 0 and broke.players[0].circus == ("acrobat", "clown")
    assert band(broke) == "Collapse"
    may = settle(agenda(player(replace(state, week=9), 0, circus=("horse",) * 3), {"t": "month_end", "month": 1}))
    assert may.players[0].money == 200

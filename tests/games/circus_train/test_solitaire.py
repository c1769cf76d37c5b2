"""The solitaire game (section 20)."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.moves import KeepTalent, Perform, PlayCard, PocketWages, SendFired

from .helpers import R, agenda, empty_board, illegal, legal_types, play, player, settle, started, turn_of


def solo(variant: str = "solitaire", week: int = 1):  # type: ignore[no-untyped-def]
    state = empty_board(started(1, variant, start="toronto"))
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


def test_end_of_game_wages_and_result() -> None:
    """CT-20.8, CT-20.9, CT-20.10 (A-29, A-30): final doubled wages, no firing; the success table;
    no month-end, final scoring or steal."""
    state = player(solo(), 0, money=200, circus=("acrobat", "clown"), requests=())
    end = settle(agenda(replace(state, week=27), {"t": "month_end", "month": 5}))
    assert end.over and end.players[0].money == 192 and end.lines == ()
    assert R.result(end, R.score(end)).tiebreaks == ("Victory",)
    assert R.score(end).lines[0].rule == "CT-20.9"
    broke = settle(agenda(replace(player(state, 0, money=5), week=27), {"t": "month_end", "month": 5}))
    assert broke.players[0].money == 0 and broke.players[0].circus == ("acrobat", "clown")
    assert R.result(broke, R.score(broke)).tiebreaks == ("Collapse",)
    may = settle(agenda(replace(state, week=9), {"t": "month_end", "month": 1}))
    assert all(task["t"] != "long_steal" for task in may.agenda)

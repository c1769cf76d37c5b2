"""End-of-month and final scoring, winning and tie-breaks (sections 16-18), and the VP floor."""

from __future__ import annotations

from dataclasses import replace

from domain.games.circus_train.scoring import final_scoring, gain_vp, month_end_scoring
from domain.kernel.contract import ScoreLine

from .helpers import R, player, started


def board(seats: int, variant: str = "basic", **options: object):  # type: ignore[no-untyped-def]
    state = started(seats, variant, **options)
    for seat in range(seats):
        state = player(state, seat, vp=0, best=10, requests=(), circus=("clown",), money=0)
    return state


def points(state, rule: str) -> list[int]:  # type: ignore[no-untyped-def]
    return [sum(line.points for line in state.lines if line.seat == seat and line.rule == rule)
            for seat in range(state.seats)]


def test_most_talent_needs_two_and_no_tie() -> None:
    """CT-16.1, CT-16.2, CT-16.3: a lone leader with 2+ scores the count; Special Characters don't count."""
    state = board(3, special_characters=True)
    state = player(state, 0, circus=("brakeman_bill", "clown", "horse", "horse"))
    state = player(state, 1, circus=("clown", "freak"))
    state = player(state, 2, circus=("big_bertha", "clown"))
    assert points(month_end_scoring(state, 1), "CT-16.1") == [2, 0, 0]


def test_best_performance_places() -> None:
    """CT-16.4, CT-16.5, CT-16.9, CT-16.10: 7 / 4 / 2 by marker; markers on the starting 10 ranked too;
    the markers are not changed."""
    state = board(4)
    for seat, best in enumerate((30, 20, 10, 5)):
        state = player(state, seat, best=best)
    after = month_end_scoring(state, 1)
    assert points(after, "CT-16.4") == [7, 4, 2, 0]
    assert [p.best for p in after.players] == [30, 20, 10, 5]


def test_third_place_tie_gets_one() -> None:
    """CT-16.6: every player tied for 3rd gets 1 VP."""
    state = board(5)
    for seat, best in enumerate((30, 20, 10, 10, 10)):
        state = player(state, seat, best=best)
    assert points(month_end_scoring(state, 2), "CT-16.4") == [7, 4, 1, 1, 1]


def test_two_players() -> None:
    """CT-16.7 (A-16): only the higher marker scores, 4 VP; a tie gives 2 each; April too."""
    state = board(2)
    state = player(state, 0, best=30)
    assert points(month_end_scoring(state, 0), "CT-16.7") == [4, 0]
    assert points(month_end_scoring(board(2), 2), "CT-16.7") == [2, 2]


def test_april_award() -> None:
    """CT-16.8 (A-42): in April with 3+ players, everyone who performed gets 5 VP instead of 7/4/2."""
    state = board(3)
    state = player(state, 0, best=30, requests=("LN01",))
    state = player(state, 1, best=20, requests=("LN02",))
    after = month_end_scoring(state, 0)
    assert points(after, "CT-16.8") == [5, 5, 0] and points(after, "CT-16.4") == [0, 0, 0]


def test_month_scoring_in_solitaire() -> None:
    """CT-16.11, CT-20.5, CT-20.10 (A-29 (b)): in solitaire only Most Talent is scored at a month end,
    $5 a VP: 3 Horses pay $15; nothing for the Best Performance marker, and no VP or score line. Under
    the option's earlier reading (A-29 (a)) nothing is scored."""
    state = board(1, "solitaire")
    state = player(state, 0, circus=("horse", "horse", "horse"), best=40)
    after = month_end_scoring(state, 1)
    assert after.players[0].money == 15 and after.players[0].vp == 0 and after.lines == ()
    unscored = board(1, "solitaire", solitaire_scoring="none")
    unscored = player(unscored, 0, circus=("horse", "horse", "horse"), best=40)
    assert month_end_scoring(unscored, 1) == unscored


def test_final_scoring_steps() -> None:
    """CT-17.1, CT-17.3, CT-17.4, CT-17.5, CT-17.6, CT-17.7, CT-17.8 (A-17): the steps in order."""
    state = board(3)
    state = player(state, 0, circus=("clown", "clown", "elephant", "horse", "big_cat"), money=30,
                   requests=("LN01", "LN02"))
    state = player(state, 1, circus=("acrobat", "horse"), money=30, requests=("LN03",), vp=20)
    state = player(state, 2, circus=("clown",), money=0)
    after = final_scoring(state)
    assert points(after, "CT-17.3") == [5, 0, 0]
    assert points(after, "CT-17.4") == [0, -3, 0]
    assert points(after, "CT-17.5") == [0, -10, 0]  # seat 2 is already at 0: floored
    assert points(after, "CT-17.6") == [2, 2, 0]
    assert points(after, "CT-17.7") == [5, 0, 0]
    assert [line.rule for line in after.lines if line.seat == 0] == ["CT-17.3", "CT-17.6", "CT-17.7"]
    assert all(line.rule != "CT-19.22" for line in after.lines)  # step 7 is advanced only


def test_vp_floor() -> None:
    """CT-0.12 (A-21): VP never drop below 0; the line records what was actually lost."""
    state = player(board(3), 0, vp=2)
    after = gain_vp(state, 0, -5, "test", "CT-0.12")
    assert after.players[0].vp == 0 and after.lines[-1].points == -2


def test_two_player_taxes() -> None:
    """CT-17.2 (A-18): with 2 players, still holding Wage & Transit costs 3 VP and double wages;
    a hand refilled by the final week's last card does not count."""
    state = board(2)
    state = player(state, 0, vp=10, money=5, circus=("acrobat", "clown"), hand=("wage_transit",))
    state = player(state, 1, vp=10, money=50, circus=("clown",), hand=("hold", "wage_transit"),
                   refill_week=26)
    after = final_scoring(state)
    assert points(after, "CT-17.2") == [-3, 0]
    assert after.players[0].money == 0 and after.players[1].money == 50


def test_tie_breaks() -> None:
    """CT-18.1, CT-18.2 (A-39): most VP, then Best Performance, money, requests; still tied shares."""
    state = board(3)
    state = replace(state, over=True, lines=tuple(ScoreLine(seat, 10, "x", "CT-16.1") for seat in range(3)))
    state = player(state, 0, vp=10, best=40, money=5)
    state = player(state, 1, vp=10, best=40, money=9)
    state = player(state, 2, vp=10, best=50, money=0)
    result = R.result(state, R.score(state))
    assert result.ranks == (3, 2, 1)
    state = player(state, 1, money=5)
    state = player(state, 2, best=40, money=5)
    assert R.result(state, R.score(state)).ranks == (1, 1, 1)


def test_score_lines_explain_totals() -> None:
    """CT-18.3, CT-3.1: every VP on the track is a score line with its rule; Best Performance values
    are kept apart from VP (they often pass 100)."""
    from domain.kernel.driver import play as drive

    from .helpers import cfg
    match = drive(R, cfg(4), seed=11)
    sheet = R.score(match.state)
    assert sheet.totals() == tuple(p.vp for p in match.state.players)
    assert {line.rule for line in sheet.lines} <= {
        "CT-13.6", "CT-16.1", "CT-16.4", "CT-16.8", "CT-17.3", "CT-17.4", "CT-17.5", "CT-17.6", "CT-17.7"}

"""Refusals name the rule the move breaks, not the rule of the step in progress (issue 12).

A move of a kind the pending decision does not take is refused under the rule that says when such
a move may be made: buying for $10 after a failed hire with no money breaks CT-0.11, buying a Special
Character whose claim failed breaks CT-21.6, performing after a hire breaks CT-0.10 (A-9), and so
on. Each case below is one refusal; "was" notes what it cited before (one was not refused at all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from domain.games.circus_train.moves import (
    BlockLink,
    BuyAfterFailure,
    BuyFromPool,
    ChooseStart,
    ClaimCharacter,
    Hire,
    KeepTalent,
    LongSteal,
    Pass,
    Perform,
    PickTalent,
    PlayCard,
    PocketWages,
    RestBonus,
    ReturnTalent,
    SendFired,
    Steal,
    UseSam,
)
from domain.games.circus_train.state import State

from .helpers import R, agenda, cfg, empty_board, illegal, play, player, roll, settle, started, turn_of


def table(seats: int = 3, variant: str = "basic", **options: Any) -> State:
    """Every train in Toronto with $0, an empty board, seat 0 to play."""
    state = empty_board(started(seats, variant, start="toronto", **options))
    for seat in range(seats):
        state = player(state, seat, city="toronto", money=0)
    return turn_of(state, 0)


def hiring(money: int, face: int) -> State:
    """Hold in Toronto (a Horse and an Elephant there), a hire of the Horse rolled `face`."""
    state = player(replace(table(), talents={"toronto": ("elephant", "horse")}), 0, money=money)
    return roll(play(play(state, 0, PlayCard(card="hold")), 0, Hire(talent="horse")), face)


def failed_claim(card: str, seats: int = 3, variant: str = "basic") -> State:
    """Brakeman Bill and the request LN04 in Buffalo; seat 0 moves there with `card`, tries to claim
    Bill and rolls a 6 (CT-21.6: the claim fails and Bill stays)."""
    state = replace(table(seats, variant, special_characters=True), characters={"buffalo": "brakeman_bill"},
                    news={"buffalo": "LN04"})
    state = agenda(state, {"t": "turn", "seat": 0}, {"t": "turn", "seat": 0})
    state = play(state, 0, PlayCard(card=card, path=("buffalo",)))
    assert state.head()["t"] == "claim"  # type: ignore[index]
    state = roll(play(state, 0, ClaimCharacter()), 6)
    assert state.characters == {"buffalo": "brakeman_bill"}
    return state


def at_perform_hire(variant: str = "basic", **options: Any) -> State:
    """Hold played in Toronto, where a request lies: the Perform/Hire decision is pending."""
    state = replace(table(variant=variant, **options), news={"toronto": "LN01"})
    state = play(state, 0, PlayCard(card="hold"))
    assert state.head() == {"t": "ph", "seat": 0, "optional": True}
    return state


def wages_short() -> State:
    """Wage & Transit played with $1 for an Acrobat and a Clown: the keep decision is pending."""
    state = player(table(), 0, money=1, circus=("acrobat", "clown"))
    state = play(state, 0, PlayCard(card="wage_transit"))
    assert state.head()["t"] == "keep"  # type: ignore[index]
    return state


def special_hire() -> State:
    state = replace(table(), news={"toronto": "LN01"})
    state = play(state, 0, PlayCard(card="overnight_hire"))
    assert state.head() == {"t": "special", "seat": 0}
    return state


Case = tuple[str, Callable[[], State], int, Any, str]

CASES: list[Case] = [
    # the $10 purchase outside its moment (CT-9.22)
    ("CT-0.11 buy after a failed hire with $0 (was CT-9.23)", lambda: hiring(0, 6), 0, BuyAfterFailure(),
     "CT-0.11"),
    ("CT-9.22 buy after declining the purchase (was CT-9.23)",
     lambda: play(hiring(10, 6), 0, Pass()), 0, BuyAfterFailure(), "CT-9.22"),
    ("CT-9.22 buy after a successful hire (was CT-9.23)", lambda: hiring(10, 1), 0, BuyAfterFailure(), "CT-9.22"),
    ("CT-9.22 buy at the start of a turn (was CT-7.2)", table, 0, BuyAfterFailure(), "CT-9.22"),
    ("CT-21.6 buy a Special Character after a failed claim, next turn (was CT-7.2)",
     lambda: failed_claim("fast_transit", 1, "solitaire"), 0, BuyAfterFailure(), "CT-21.6"),
    ("CT-21.6 buy a Special Character after a failed claim, Perform/Hire next (was CT-0.10)",
     lambda: failed_claim("overnight_transit"), 0, BuyAfterFailure(), "CT-21.6"),
    ("CT-21.6 buy a Special Character after a failed claim, Special Hire next (was CT-10.2)",
     lambda: failed_claim("overnight_hire"), 0, BuyAfterFailure(), "CT-21.6"),
    # performing and hiring outside a Perform/Hire action
    ("CT-0.10 perform after a hire (was CT-9.23)", lambda: hiring(10, 1), 0, Perform(), "CT-0.10"),
    ("CT-0.10 perform during a Special Hire (was CT-10.2)", special_hire, 0, Perform(), "CT-0.10"),
    ("CT-9.1 perform instead of playing a card (was CT-7.2)", table, 0, Perform(), "CT-9.1"),
    ("CT-9.20 hire instead of playing a card (was CT-7.2)", table, 0, Hire(talent="horse"), "CT-9.20"),
    ("CT-9.22 hire again before deciding the purchase (unchanged, kept as a guard)",
     lambda: hiring(10, 6), 0, Hire(talent="elephant"), "CT-9.22"),
    # a second card, and turn-only choices, in the middle of a turn
    ("CT-7.2 a second card during the Perform/Hire (was CT-0.10)", at_perform_hire, 0, PlayCard(card="fast_transit"),
     "CT-7.2"),
    ("CT-19.4 a second card during the Perform/Hire, advanced (was CT-0.10)",
     lambda: at_perform_hire("advanced"), 0, PlayCard(card="fast_transit"), "CT-19.4"),
    ("CT-19.4 pocketing wages during the Perform/Hire (was CT-0.10)",
     lambda: at_perform_hire("advanced"), 0, PocketWages(bills=1), "CT-19.4"),
    ("CT-21.13 spending Smuggler Sam during the Perform/Hire (was CT-0.10)",
     lambda: at_perform_hire("advanced", special_characters=True), 0, UseSam(), "CT-21.13"),
    ("CT-21.6 a claim where no movement ended (was CT-0.10)", at_perform_hire, 0, ClaimCharacter(), "CT-21.6"),
    ("CT-21.6 a claim instead of playing a card (was CT-7.2)", table, 0, ClaimCharacter(), "CT-21.6"),
    ("CT-10.1 a steal during the Perform/Hire (was CT-0.10)", at_perform_hire, 0,
     Steal(victim=1, talents=("clown",)), "CT-10.1"),
    ("CT-10.1 a pool purchase instead of playing a card (was CT-7.2)", table, 0, BuyFromPool(talent="clown"),
     "CT-10.1"),
    ("CT-11.1 wages instead of playing a card (was CT-7.2)", table, 0, KeepTalent(talents=()), "CT-11.1"),
    ("CT-11.4 a city for fired talent when none was fired (was CT-7.2)", table, 0, SendFired(city="toronto"),
     "CT-11.4"),
    ("CT-15.2 a long-month steal during a turn (was CT-7.2)", table, 0, LongSteal(victim=1, talent="clown"),
     "CT-15.2"),
    ("CT-19.11 a Rest bonus without Rest (was CT-7.2)", table, 0, RestBonus(bonus="clown"), "CT-19.11"),
    ("CT-5.14 a starting pick during play (was CT-7.2)", table, 0, PickTalent(talent="horse"), "CT-5.14"),
    ("CT-5.20 a start city during play (was CT-7.2)", table, 0, ChooseStart(city="montreal"), "CT-5.20"),
    ("CT-21.18 an event's decision when no event asks (was CT-7.2)", table, 0,
     BlockLink(a="buffalo", b="toronto"), "CT-21.18"),
    ("CT-21.18 an event's talent return when no event asks (was CT-7.2)", table, 0,
     ReturnTalent(talent="clown"), "CT-21.18"),
    ("CT-7.2 a card during an event's decision (was CT-21.18)",
     lambda: agenda(table(event_cards=True), {"t": "block_link", "seat": 0, "left": 1, "city": None}), 0,
     PlayCard(card="hold"), "CT-7.2"),
    ("CT-21.8 keeping a Special Character at wages (was CT-11.3)",
     lambda: play(player(table(special_characters=True), 0, money=1, circus=("acrobat", "brakeman_bill", "clown")),
                  0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("brakeman_bill", "clown")), "CT-21.8"),
    ("CT-11.3 keeping talent not owned (unchanged, kept as a guard)", wages_short, 0,
     KeepTalent(talents=("horse",)), "CT-11.3"),
    # passing where nothing may be passed
    ("CT-11.1 passing the wages (was CT-11.3)", wages_short, 0, Pass(), "CT-11.1"),
    ("CT-19.4 passing a turn, advanced (was CT-7.2)", lambda: table(variant="advanced"), 0, Pass(), "CT-19.4"),
    ("CT-7.8 passing the Perform/Hire Basic Transit chose (was accepted)",
     lambda: play(replace(table(), talents={"toronto": ("horse",)}), 0,
                  PlayCard(card="basic_transit", option="perform_hire")), 0, Pass(), "CT-7.8"),
    # the wrong rule inside a card's own checks
    ("CT-19.4 a replay in the basic game (was CT-19.5)", table, 0, PlayCard(card="hold", source="replay"), "CT-19.4"),
    ("CT-19.16 a parade with a movement (was CT-7.8)", lambda: player(table(variant="advanced"), 0, money=10), 0,
     PlayCard(card="basic_transit", option="parade", parade_reward="vp", path=("buffalo",)), "CT-19.16"),
    ("CT-0.11 a pool purchase without the money (was CT-10.3)",
     lambda: play(player(table(), 0, money=4), 0, PlayCard(card="overnight_hire")), 0,
     BuyFromPool(talent="clown"), "CT-0.11"),
]


@pytest.mark.parametrize(("build", "seat", "move", "rule"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_refusal_names_the_rule_broken(build: Callable[[], State], seat: int, move: Any, rule: str) -> None:
    """CT-0.11, CT-9.22, CT-21.6, CT-0.10, CT-9.1, CT-9.20, CT-7.2, CT-19.4, CT-21.13, CT-10.1, CT-11.1,
    CT-11.4, CT-15.2, CT-19.11, CT-5.14, CT-5.20, CT-21.18, CT-21.8, CT-11.3, CT-7.8, CT-19.16: one
    refusal each."""
    illegal(build(), seat, move, rule)


def test_buy_after_failure_still_accepted_at_its_moment() -> None:
    """CT-9.22: right after the failed roll, with $10, the purchase is taken; the refusal cases above
    change nothing for the move at its moment."""
    state = play(hiring(10, 6), 0, BuyAfterFailure())
    assert state.players[0].count("horse") == 1 and state.players[0].money == 0
    assert state.talents == {"toronto": ("elephant",)}


def test_waiting_for_someone_else() -> None:
    """CT-5.14, CT-11.4, CT-9.21, CT-7.1: a move while the decision is another's cites the rule that
    gives it to them: the setup pick order, the player to the right choosing a city for fired talent,
    the hire roll that comes first, turn order."""
    setup = settle(R.setup(cfg(3)), [1])
    assert R.decision(setup).seats == (1,)
    illegal(setup, 0, PickTalent(talent="horse"), "CT-5.14")  # was CT-7.1
    fired = replace(player(table(), 0, money=1, circus=("acrobat", "clown")),
                    talents={"boston": ("horse",), "chicago": ("freak",)})
    fired = play(play(fired, 0, PlayCard(card="wage_transit")), 0, KeepTalent(talents=("clown",)))
    assert R.decision(fired).seats == (2,)
    illegal(fired, 0, SendFired(city="boston"), "CT-11.4")  # was CT-7.1
    rolling = play(play(replace(table(), talents={"toronto": ("horse",)}), 0, PlayCard(card="hold")), 0,
                   Hire(talent="horse"))
    assert R.decision(rolling).chance is not None
    illegal(rolling, 0, BuyAfterFailure(), "CT-9.21")  # was CT-7.1
    illegal(table(), 1, PlayCard(card="hold"), "CT-7.1")

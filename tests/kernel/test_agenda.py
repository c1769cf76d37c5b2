"""The kernel's agenda (domain/kernel/agenda.py): steps as canonical JSON, the machine over a table
of step kinds, and the shapes the new games need (phases and rounds as data, ordered composite
actions, all-or-nothing actions, place now and resolve later), on a small synthetic game.

The synthetic game, "Harvest" (rule IDs SG-x.y), is written only with the machine:
- SG-1.1 The game is `of` rounds (`rounds`); a round is income, market, resolution, vote, tally,
  clean-up (`program`).
- SG-1.2 Income: every seat collects 1 coin, in seat order (`each_seat`).
- SG-2.1 Market: turns go round the table until everyone has passed (`rotation`). On a turn a seat
  places a worker on the field or the stall (at most two a round; the second ends its market),
  builds, or passes.
- SG-3.1 A worker on the field is resolved later: a die (1-3) gives that many coins.
- SG-3.2 A build costs 2 coins and scores 3 points; it is done in full or not at all
  (`all_or_nothing`): a seat that cannot pay cannot build.
- SG-4.1 A worker on the stall is resolved later, after every field (`hold`, `resolution`), as a
  trade of two parts in the order its owner picks (`ordered`): sell (+2 coins) and buy (pay 1,
  score 2). The trade is done in full: with no coin, the owner must sell first.
- SG-5.1 Every seat votes "high" or "low" at once and in secret (several owners, `secret`);
  seats in a strict majority score 1.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from domain.kernel.agenda import (
    WHOLE,
    Agenda,
    AgendaError,
    Auto,
    Chance,
    Choice,
    Step,
    all_or_nothing,
    composite,
    decode_agenda,
    each_seat,
    encode_agenda,
    held,
    hold,
    ordered,
    program,
    resolution,
    rotation,
    rounds,
)
from domain.kernel.canonical import NotCanonicalError, digest, encode, normalize
from domain.kernel.contract import ChanceSpec
from domain.kernel.errors import IllegalMoveError

# ---- the synthetic game ---------------------------------------------------------------------


class Move(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Place(Move):
    space: str  # "field" or "stall"


class Build(Move):
    pass


class Pass(Move):
    pass


class Pick(Move):
    part: str


class Vote(Move):
    choice: str


@dataclass(frozen=True)
class Farm:
    seats: int
    coins: tuple[int, ...]
    points: tuple[int, ...]
    placed: tuple[int, ...]
    passed: tuple[bool, ...]
    votes: tuple[str | None, ...]
    agenda: tuple[Step, ...]
    over: bool = False

    def with_agenda(self, agenda: tuple[Step, ...]) -> Farm:
        return replace(self, agenda=agenda)

    def ended(self) -> Farm:
        return replace(self, over=True)

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "coins": list(self.coins), "points": list(self.points),
                "placed": list(self.placed), "passed": list(self.passed), "votes": list(self.votes),
                "agenda": encode_agenda(self.agenda), "over": self.over}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Farm:
        return cls(data["seats"], tuple(data["coins"]), tuple(data["points"]), tuple(data["placed"]),
                   tuple(data["passed"]), tuple(data["votes"]), decode_agenda(data["agenda"]), data["over"])

    def add(self, seat: int, coins: int = 0, points: int = 0) -> Farm:
        return replace(self, coins=_bump(self.coins, seat, coins), points=_bump(self.points, seat, points))


def _bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(value + delta if index == seat else value for index, value in enumerate(values))


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return tuple(value if index == seat else old for index, old in enumerate(values))


def start(seats: int, of: int) -> Farm:
    return Farm(seats, (0,) * seats, (0,) * seats, (0,) * seats, (False,) * seats, (None,) * seats,
                (Step("game", of=of),))


def seat_order(state: Farm, step: Step) -> range:
    return range(state.seats)


def market_moves(state: Farm, seat: int, step: Step) -> list[Move]:
    moves: list[Move] = []
    if state.placed[seat] < 2:
        moves += [Place(space="field"), Place(space="stall")]
    return [*moves, Build(), Pass()]


def validate_market(state: Farm, seat: int, step: Step, move: Move) -> None:
    if isinstance(move, Place):
        if move.space not in ("field", "stall"):
            raise IllegalMoveError("SG-2.1", f"there is no {move.space!r} to place on")
        if state.placed[seat] >= 2:
            raise IllegalMoveError("SG-2.1", "two workers a round at most")


def apply_market(state: Farm, seat: int, step: Step, move: Move) -> Farm:
    if isinstance(move, Place):
        placement = Step("harvest", seat=seat) if move.space == "field" else Step("trade_action", seat=seat)
        state = hold(state, "resolve", placement)
        state = replace(state, placed=_bump(state.placed, seat, 1))
        if state.placed[seat] == 2:
            state = replace(state, passed=_set(state.passed, seat, True))
        return state
    if isinstance(move, Build):
        return state.with_agenda((*all_or_nothing("SG-3.2", Step("pay", seat=seat, coins=2),
                                                  Step("score", seat=seat, points=3)), *state.agenda))
    return replace(state, passed=_set(state.passed, seat, True))


def pay(state: Farm, step: Step) -> Farm:
    seat, coins = step["seat"], step["coins"]
    if state.coins[seat] < coins:
        raise IllegalMoveError(str(step.get("rule", "SG-3.2")), f"seat {seat} cannot pay {coins} coins")
    return state.add(seat, coins=-coins)


def score(state: Farm, step: Step) -> Farm:
    return state.add(step["seat"], points=step["points"])


def trade_action(state: Farm, step: Step) -> Farm:
    seat = step["seat"]
    trade = composite("trade", seat, [Step("sell", seat=seat), Step("buy", seat=seat)])
    return state.with_agenda((*all_or_nothing("SG-4.1", trade), *state.agenda))


def buy(state: Farm, step: Step) -> Farm:
    seat = step["seat"]
    return state.with_agenda((Step("pay", seat=seat, coins=1, rule="SG-4.1"), Step("score", seat=seat, points=2),
                              *state.agenda))


def sell(state: Farm, step: Step) -> Farm:
    return state.add(step["seat"], coins=2)


def die(state: Farm, step: Step) -> ChanceSpec:
    return ChanceSpec("harvest", ((1, 1), (2, 1), (3, 1)))


def harvest(state: Farm, step: Step, outcome: Any) -> Farm:
    return state.add(step["seat"], coins=int(outcome))


def voters(state: Farm, step: Step) -> tuple[int, ...]:
    return tuple(seat for seat, vote in enumerate(state.votes) if vote is None)


def vote_moves(state: Farm, seat: int, step: Step) -> list[Move]:
    return [Vote(choice="high"), Vote(choice="low")]


def validate_vote(state: Farm, seat: int, step: Step, move: Move) -> None:
    assert isinstance(move, Vote)
    if move.choice not in ("high", "low"):
        raise IllegalMoveError("SG-5.1", "vote high or low")


def apply_vote(state: Farm, seat: int, step: Step, move: Move) -> Farm:
    assert isinstance(move, Vote)
    state = replace(state, votes=_set(state.votes, seat, move.choice))
    return state.with_agenda((step, *state.agenda)) if None in state.votes else state


def tally(state: Farm, step: Step) -> Farm:
    highs = state.votes.count("high")
    lows = state.seats - highs
    winner = "high" if highs > lows else "low" if lows > highs else None
    for seat, vote in enumerate(state.votes):
        if winner is not None and vote == winner:
            state = state.add(seat, points=1)
    return replace(state, votes=(None,) * state.seats)


def cleanup(state: Farm, step: Step) -> Farm:
    return replace(state, placed=(0,) * state.seats, passed=(False,) * state.seats)


def out_of_step(state: Farm, seat: int, step: Step, move: Move, asks: str) -> IllegalMoveError:
    return IllegalMoveError("SG-0.1", f"{type(move).__name__} is not made now; now you must {asks}")


ROWS = (
    rounds("game", "round", last=lambda state, step: step["of"]),
    program("round", ["income", "market", "resolve", "vote", "tally", "cleanup"]),
    each_seat("income", "collect", order=seat_order),
    Auto("collect", lambda state, step: state.add(step["seat"], coins=1)),
    rotation("market", "market_turn", order=seat_order, active=lambda state, seat: not state.passed[seat]),
    Choice("market_turn", (Place, Build, Pass), market_moves, validate_market, apply_market, rule="SG-2.1",
           prompt="place, build or pass (SG-2.1)", asks="place, build or pass", whole=True),
    Auto("pay", pay),
    Auto("score", score),
    resolution("resolve", ("harvest", "trade_action")),
    Chance("harvest", die, harvest, rule="SG-3.1"),
    Auto("trade_action", trade_action),
    ordered("trade", accepts=(Pick,), choose=lambda part: Pick(part=part.kind),
            picks=lambda move, part: move.part == part.kind, order_rule="SG-4.1", rule="SG-4.1",
            prompt="sell or buy first (SG-4.1)", asks="pick the trade's next part"),
    Auto("sell", sell),
    Auto("buy", buy),
    Choice("vote", (Vote,), vote_moves, validate_vote, apply_vote, owners=voters, rule="SG-5.1", secret=True,
           prompt="vote high or low (SG-5.1)", asks="vote"),
    Auto("tally", tally),
    Auto("cleanup", cleanup),
)
MACHINE: Agenda[Farm, Move] = Agenda(ROWS, over_rule="SG-1.1", out_of_step=out_of_step)


def run(seats: int, of: int, seed: int) -> tuple[Farm, list[str]]:
    """Play Harvest to the end with seeded choices, checking at every decision that the state
    encodes and decodes to itself, that every legal move validates and that moves of other kinds
    are refused; returns the end and a trace of (state digest, decision, choice)."""
    rng = random.Random(seed)
    state = MACHINE.advance(start(seats, of))
    trace: list[str] = []
    for _ in range(10_000):
        data = state.to_json()
        assert Farm.from_json(json.loads(encode(data))) == state
        decision = MACHINE.decision(state)
        trace.append(digest(data) + json.dumps(decision.to_json(), sort_keys=True))
        if decision.over:
            return state, trace
        if decision.chance is not None:
            outcome = decision.chance.pick(rng.randrange(decision.chance.total_weight()))
            trace.append(f"chance {outcome}")
            state = MACHINE.resolve(state, outcome)
            continue
        seat = decision.seats[0]
        moves = MACHINE.legal_moves(state, seat)
        assert moves, f"seat {seat} has no legal move at {state.agenda[0]!r}"
        for move in moves:
            MACHINE.validate(state, seat, move)
        for other in set(range(seats)) - set(decision.seats):
            assert MACHINE.legal_moves(state, other) == []
        move = moves[rng.randrange(len(moves))]
        trace.append(f"{seat} {move!r}")
        state = MACHINE.apply(state, seat, move)
    raise AssertionError("Harvest did not end")


# ---- steps ----------------------------------------------------------------------------------


def test_a_step_reads_as_its_record_and_compares_with_it() -> None:
    step = Step("block_link", seat=0, left=2, city=None, group=["horse", "clown"])
    assert step["t"] == step.kind == "block_link" and step["seat"] == 0 and step.seat == 0
    assert step.get("missing") is None and "city" in step and len(step) == 5
    assert list(step) == ["t", "seat", "left", "city", "group"]
    assert step == {"t": "block_link", "seat": 0, "left": 2, "city": None, "group": ["horse", "clown"]}
    assert step != {"t": "block_link", "seat": 1, "left": 2, "city": None, "group": ["horse", "clown"]}
    assert step.to_json() == {"t": "block_link", "seat": 0, "left": 2, "city": None, "group": ["horse", "clown"]}
    assert step.but(left=1) == {**step.to_json(), "left": 1} and step["left"] == 2
    assert hash(step) == hash(Step.of(step.to_json())) and step == Step.of(step.to_json())
    assert Step.of(step) is step and Step("x").seat is None and Step("x", seat=True).seat is None


def test_a_step_cannot_be_changed_under_a_state_that_shares_it() -> None:
    group = ["horse"]
    step = Step("fired_city", seat=1, group=group, then={"t": "ph", "seat": 1})
    group.append("clown")
    assert step["group"] == ("horse",)
    with pytest.raises(AttributeError):
        step.kind = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        step["then"]["seat"] = 2  # type: ignore[index]
    with pytest.raises(AttributeError):
        step["group"].append("x")  # type: ignore[union-attr]
    assert copy.deepcopy(step) is step and copy.copy(step) is step
    assert pickle.loads(pickle.dumps(step)) == step


def test_a_step_holds_only_canonical_json() -> None:
    with pytest.raises(NotCanonicalError, match="floats"):
        Step("die", seat=0, odds=0.5)
    with pytest.raises(NotCanonicalError, match="keys must be strings"):
        Step("x", table={1: "one"})
    with pytest.raises(NotCanonicalError):
        Step("x", what=object())
    with pytest.raises(AgendaError):
        Step("")
    with pytest.raises(AgendaError):
        Step.of({"seat": 0})
    with pytest.raises(AgendaError):
        Step.of({"t": 3})
    with pytest.raises(AgendaError):
        Step("x", **{"t": "y"})
    assert Step("x", name="e\u0301") == {"t": "x", "name": "\u00e9"}  # NFC, as canonical JSON


JSON_SCALARS = (st.none() | st.booleans() | st.integers()
                | st.text(st.characters(blacklist_categories=("Cs",)), max_size=6))
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), max_size=4), inner, max_size=3),
    max_leaves=12,
)
RECORDS = st.builds(
    lambda kind, fields: {"t": kind, **fields},
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8),
    st.dictionaries(st.text(max_size=6).filter(lambda key: key != "t"), JSON_VALUES, max_size=4),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(RECORDS, max_size=6))
def test_agendas_round_trip_through_canonical_json(records: list[dict[str, Any]]) -> None:
    """Every JSON step record reads into a step that encodes to the same canonical bytes, and an
    agenda decodes from its stored form (even after a trip through the canonical bytes) to itself."""
    agenda = decode_agenda(records)
    assert [step.to_json() for step in agenda] == [normalize(record) for record in records]
    assert encode(encode_agenda(agenda)) == encode(records)
    again = decode_agenda(json.loads(encode(encode_agenda(agenda))))
    assert again == agenda and [hash(step) for step in again] == [hash(step) for step in agenda]


# ---- the machine --------------------------------------------------------------------------------


def test_a_table_names_each_kind_once() -> None:
    with pytest.raises(AgendaError, match="twice"):
        Agenda([Auto("a", score), Auto("a", score)], over_rule="SG-1.1", out_of_step=out_of_step)
    with pytest.raises(AgendaError, match="kernel's"):
        Agenda([Auto(WHOLE, score)], over_rule="SG-1.1", out_of_step=out_of_step)
    with pytest.raises(AgendaError, match="unknown step kind 'nope'"):
        MACHINE.advance(start(2, 1).with_agenda((Step("nope"),)))
    assert MACHINE.kinds(Chance) == {"harvest"}
    assert {"market_turn", "trade", "vote"} == MACHINE.kinds(Choice)


def test_phases_and_rounds_are_data() -> None:
    """SG-1.1, SG-1.2: a round's program pushes its phases with the round's fields; income is a step
    per seat; the rounds end after `of`."""
    state = MACHINE.advance(start(3, 2))
    assert state.coins == (1, 1, 1)
    assert state.agenda[0] == {"t": "market_turn", "seat": 0, "of": 2, "round": 1}
    assert [step.kind for step in state.agenda] == ["market_turn", "market", "resolve", "vote", "tally", "cleanup",
                                                    "game"]
    assert state.agenda[1] == {"t": "market", "at": 1, "of": 2, "round": 1}
    assert state.agenda[-1] == {"t": "game", "of": 2, "round": 2}
    decision = MACHINE.decision(state)
    assert decision.seats == (0,) and decision.prompt == "place, build or pass (SG-2.1)"


def test_rounds_can_be_decided_as_play_goes() -> None:
    """DR-3.4's shape: another round only while `more` says so."""
    machine: Agenda[Farm, Move] = Agenda([
        rounds("game", "collect", more=lambda state, number: state.coins[0] < 3, field="n"),
        Auto("collect", lambda state, step: state.add(0, coins=step["n"])),
    ], over_rule="SG-1.1", out_of_step=out_of_step)
    end = machine.advance(start(1, 0))
    assert end.over and end.coins == (3,) and end.agenda == ()  # 1 + 2, then no third round


def test_a_rotation_skips_who_has_passed_and_goes_round() -> None:
    """RR-12.1, RR-12.2's shape: the turn goes round the table past those who passed, until nobody
    is left."""
    state = MACHINE.advance(start(3, 1))
    state = MACHINE.apply(state, 0, Pass())
    assert MACHINE.head(state) == {"t": "market_turn", "seat": 1, "of": 1, "round": 1}
    state = MACHINE.apply(state, 1, Place(space="field"))
    state = MACHINE.apply(state, 2, Pass())
    assert MACHINE.decision(state).seats == (1,)  # seat 0 and 2 passed: back round to seat 1
    state = MACHINE.apply(state, 1, Pass())
    assert MACHINE.decision(state).chance is not None  # everyone passed: the resolution


def test_refusals_name_their_rules() -> None:
    state = MACHINE.advance(start(2, 1))
    with pytest.raises(IllegalMoveError) as other:
        MACHINE.validate(state, 1, Pass())
    assert (other.value.rule, other.value.reason) == ("SG-2.1", "it is not seat 1's decision: waiting for seat 0")
    with pytest.raises(IllegalMoveError) as wrong:
        MACHINE.validate(state, 0, Vote(choice="high"))
    assert wrong.value.rule == "SG-0.1" and wrong.value.reason.endswith("now you must place, build or pass")
    with pytest.raises(IllegalMoveError) as bad:
        MACHINE.validate(state, 0, Place(space="moon"))
    assert bad.value.rule == "SG-2.1"
    with pytest.raises(IllegalMoveError) as over:
        MACHINE.validate(replace(state, over=True), 0, Pass())
    assert over.value.rule == "SG-1.1" and MACHINE.legal_moves(replace(state, over=True), 0) == []
    state = MACHINE.apply(MACHINE.apply(state, 0, Place(space="field")), 1, Pass())
    state = MACHINE.apply(state, 0, Pass())
    with pytest.raises(IllegalMoveError) as chance:
        MACHINE.validate(state, 0, Pass())
    assert (chance.value.rule, chance.value.reason) == (
        "SG-3.1", "it is not seat 0's decision: waiting for a chance outcome")


def test_placed_now_resolved_later_in_a_fixed_order() -> None:
    """DR-4.4, DR-6.1's shape (SG-3.1, SG-4.1): workers do nothing when placed; the resolution
    takes every field before any stall, each in placement order."""
    state = MACHINE.advance(start(2, 1))
    state = MACHINE.apply(state, 0, Place(space="stall"))
    state = MACHINE.apply(state, 1, Place(space="field"))
    state = MACHINE.apply(state, 0, Place(space="field"))
    assert state.coins == (1, 1)  # nothing happened yet
    assert held(state, "resolve") == (Step("trade_action", seat=0), Step("harvest", seat=1),
                                      Step("harvest", seat=0))
    state = MACHINE.apply(state, 1, Pass())
    assert [step.to_json() for step in state.agenda[:3]] == [
        {"t": "harvest", "seat": 1}, {"t": "harvest", "seat": 0}, {"t": "trade_action", "seat": 0}]
    assert MACHINE.decision(state).chance is not None
    state = MACHINE.resolve(MACHINE.resolve(state, 3), 1)
    assert state.coins == (2, 4) and MACHINE.head(state) is not None and MACHINE.head(state).kind == "trade"
    with pytest.raises(AgendaError, match="no pending 'nowhere' step"):
        hold(state, "nowhere", Step("harvest", seat=0))
    with pytest.raises(AgendaError, match="resolves harvest, trade_action, not plough"):
        MACHINE.advance(start(1, 1).with_agenda((Step("resolve", held=[{"t": "plough", "seat": 0}]),)))


def test_the_player_orders_a_composite_action_done_in_full() -> None:
    """RR-5.7 and RR-5.5's shape (SG-4.1): the owner picks the trade's parts in order, each
    finished before the next; with no coin to pay, buying first would leave the trade unfinished,
    so it is neither offered nor accepted."""
    state = MACHINE.advance(start(1, 1))
    state = MACHINE.apply(MACHINE.apply(state, 0, Place(space="stall")), 0, Pass())
    state = replace(state, coins=(0,))
    assert MACHINE.head(state) == {"t": "trade", "seat": 0, "parts": [{"t": "sell", "seat": 0},
                                                                      {"t": "buy", "seat": 0}]}
    assert MACHINE.legal_moves(state, 0) == [Pick(part="sell")]
    with pytest.raises(IllegalMoveError) as refused:
        MACHINE.validate(state, 0, Pick(part="buy"))
    assert refused.value.rule == "SG-4.1" and "in full" in refused.value.reason
    with pytest.raises(IllegalMoveError, match="not one of the parts"):
        MACHINE.validate(state, 0, Pick(part="steal"))
    rich = replace(state, coins=(5,))
    assert MACHINE.legal_moves(rich, 0) == [Pick(part="sell"), Pick(part="buy")]
    after = MACHINE.apply(rich, 0, Pick(part="buy"))  # the buy, with what it triggers, then the sell alone
    assert after.coins == (6,) and after.points == (2,) and MACHINE.head(after) is not None
    assert MACHINE.head(after).kind == "vote" and all(step.kind != WHOLE for step in after.agenda)


def test_an_all_or_nothing_action_is_legal_only_when_it_can_be_done() -> None:
    """RR-5.5's shape (SG-3.2): a build needs 2 coins; without them it is not a legal move."""
    state = MACHINE.advance(start(2, 1))
    assert state.coins == (1, 1) and Build() not in MACHINE.legal_moves(state, 0)
    with pytest.raises(IllegalMoveError) as refused:
        MACHINE.validate(state, 0, Build())
    assert refused.value.rule == "SG-3.2"
    rich = replace(state, coins=(2, 1))
    assert Build() in MACHINE.legal_moves(rich, 0)
    built = MACHINE.apply(rich, 0, Build())
    assert built.coins == (0, 1) and built.points == (3, 0) and MACHINE.decision(built).seats == (1,)
    pending = rich.with_agenda((*all_or_nothing("SG-3.2", Step("pay", seat=1, coins=2)), *rich.agenda))
    assert not MACHINE.can_finish(pending) and MACHINE.can_finish(rich)


def test_an_all_or_nothing_search_has_a_bound() -> None:
    def fan(state: Farm, seat: int, step: Step) -> list[Move]:
        return [Pick(part=str(i)) for i in range(10)]

    def deeper(state: Farm, seat: int, step: Step, move: Move) -> Farm:
        return state.with_agenda((step, *state.agenda))  # never finishes

    machine: Agenda[Farm, Move] = Agenda([
        Choice("maze", (Pick,), fan, lambda *_: None, deeper, rule="SG-0.1"),
    ], over_rule="SG-1.1", out_of_step=out_of_step, probe_budget=50)
    state = start(1, 0).with_agenda((*all_or_nothing("SG-0.1", Step("maze", seat=0)),))
    with pytest.raises(AgendaError, match="more than 50 positions"):
        machine.legal_moves(state, 0)


def test_a_secret_vote_of_everyone_at_once() -> None:
    """SG-5.1: the vote waits for every seat at once, in secret, until the last is in."""
    state = MACHINE.advance(start(3, 1))
    for seat in range(3):
        state = MACHINE.apply(state, seat, Pass())
    decision = MACHINE.decision(state)
    assert decision.seats == (0, 1, 2) and decision.secret
    state = MACHINE.apply(state, 1, Vote(choice="high"))
    assert MACHINE.decision(state).seats == (0, 2) and MACHINE.legal_moves(state, 1) == []
    with pytest.raises(IllegalMoveError, match="waiting for seats 0, 2"):
        MACHINE.validate(state, 1, Vote(choice="low"))
    nobody = replace(state, votes=("low", "high", "low"))
    with pytest.raises(AgendaError, match="decision of nobody"):
        MACHINE.decision(nobody)
    state = MACHINE.apply(MACHINE.apply(state, 0, Vote(choice="high")), 2, Vote(choice="low"))
    assert state.over and state.points == (1, 1, 0)


def test_a_choice_with_nothing_to_decide_and_a_chance_with_nothing_to_draw_are_passed_over() -> None:
    machine: Agenda[Farm, Move] = Agenda([
        Chance("empty", lambda state, step: ChanceSpec("empty", ()), harvest),
        Chance("none", lambda state, step: None, harvest),
        Choice("idle", (Pass,), market_moves, validate_market, apply_market, needed=lambda state, step: False),
        Choice("auto", (Pass,), market_moves, validate_market, apply_market, needed=lambda state, step: False,
               otherwise=lambda state, step: state.add(0, points=5)),
    ], over_rule="SG-1.1", out_of_step=out_of_step)
    end = machine.advance(start(1, 0).with_agenda(
        (Step("empty"), Step("none"), Step("idle", seat=0), Step("auto", seat=0))))
    assert end.over and end.points == (5,)
    assert machine.decision(end).over and machine.chance(end) is None and machine.owners(end) == ()


@settings(max_examples=30, deadline=None)
@given(seats=st.integers(1, 4), of=st.integers(1, 3), seed=st.integers(0, 2**32))
def test_a_synthetic_game_of_phases_runs_deterministically_to_the_end(seats: int, of: int, seed: int) -> None:
    """Harvest, played with seeded choices, ends; the same seed gives the same trace (every state's
    digest, decision and choice); every state on the way encodes and decodes to itself."""
    end, trace = run(seats, of, seed)
    assert end.over and end.agenda == ()
    assert all(placed == 0 for placed in end.placed) and all(vote is None for vote in end.votes)
    assert sum(end.points) >= 0
    again, trace_again = run(seats, of, seed)
    assert again == end and trace_again == trace

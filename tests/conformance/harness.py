"""The conformance harness: checks every registered game against the ruleset contract.

Engine tier (pure, many seeds): bots play whole matches; every step checks that legal moves
validate, random illegal moves are refused with a rule ID, apply never mutates its input, states
survive encode/decode, hidden draws and secret choices do not change what other viewers see
(a counterfactual check: the same view must come out of every possible hidden outcome), and the
match ends within the ruleset's bound. Record tier (through the application, few seeds): see
test_conformance.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from domain.kernel.canonical import digest
from domain.kernel.chance import derive_outcome
from domain.kernel.contract import ChanceSpec, MatchConfig, Ruleset
from domain.kernel.errors import IllegalMoveError, MalformedMoveError, RingsideError
from domain.kernel.registry import all_games
from domain.kernel.viewers import Viewer

RULE_ID = re.compile(r"^[A-Z]{2}-\d+\.\d+$|^[A-Z]{2,4}-[\w.-]+$")


@dataclass(frozen=True)
class Case:
    game: str
    variant: str
    seats: int
    preset: str = "standard"

    @property
    def options(self) -> dict[str, Any]:
        return dict(all_games()[self.game].option_presets()[self.preset])

    def __str__(self) -> str:
        preset = "" if self.preset == next(iter(all_games()[self.game].option_presets())) else f"-{self.preset}"
        return f"{self.game}-{self.variant}-{self.seats}p{preset}"


def cases() -> list[Case]:
    """Every registered game × variant × player count × option preset."""
    found = []
    for name, ruleset in all_games().items():
        for variant, info in ruleset.variants.items():
            for seats in range(info.min_seats, info.max_seats + 1):
                for preset in ruleset.option_presets():
                    found.append(Case(name, variant, seats, preset))
    return found


def record_cases() -> list[Case]:
    """For the slower record tier: every variant and player count with the plain options, and
    each other preset once (the default variant's smallest table)."""
    found = []
    for name, ruleset in all_games().items():
        presets = list(ruleset.option_presets())
        for case in cases():
            if case.game == name and case.preset == presets[0]:
                found.append(case)
        info = ruleset.variants[ruleset.default_variant]
        found.extend(Case(name, ruleset.default_variant, info.min_seats, preset) for preset in presets[1:])
    return found


def config_for(case: Case) -> MatchConfig[Any]:
    ruleset = all_games()[case.game]
    return MatchConfig(case.variant, ruleset.parse_options(case.options), case.seats,
                       ruleset.default_components())


def viewers(seats: int) -> list[Viewer]:
    return [Viewer.spectator(), *(Viewer.of_seat(seat) for seat in range(seats))]


def _may_see(spec: ChanceSpec, viewer: Viewer) -> bool:
    if spec.visible_to == "all" or viewer.sees_all:
        return True
    if spec.visible_to == "none":
        return False
    return viewer.kind == "seat" and viewer.seat in spec.visible_to


def _mutations(move_json: dict[str, Any], rng: random.Random) -> list[Any]:
    """Plausible wrong moves: each field nudged or replaced, a wrong type tag, garbage."""
    variants: list[Any] = [{"type": "no-such-move"}, {}, "not a move"]
    for key, value in move_json.items():
        if key == "type":
            continue
        changed = dict(move_json)
        if isinstance(value, bool):
            changed[key] = not value
        elif isinstance(value, int):
            changed[key] = value + rng.choice([-7, -1, 1, 3, 1000])
        elif isinstance(value, str):
            changed[key] = value + "?"
        else:
            changed[key] = None
        variants.append(changed)
    return variants


def check_hidden_draw(ruleset: Ruleset[Any, Any], before: Any, spec: ChanceSpec, outcome: Any,
                      after: Any, seats: int) -> None:
    """For each viewer not entitled to the draw, every other possible outcome gives the same view."""
    blind = [viewer for viewer in viewers(seats) if not _may_see(spec, viewer)]
    if not blind:
        return
    alternatives = [alt for alt, weight in spec.outcomes if weight > 0 and digest(alt) != digest(outcome)]
    for alternative in alternatives[:3]:
        other = ruleset.resolve(before, alternative)
        for viewer in blind:
            assert ruleset.view(after, viewer) == ruleset.view(other, viewer), (
                f"{viewer} can tell a hidden {spec.kind} outcome {outcome!r} from {alternative!r}")


def check_secret_move(ruleset: Ruleset[Any, Any], before: Any, seat: int, move: Any, after: Any,
                      seats: int) -> None:
    """While a secret group is incomplete, other seats cannot tell which choice a seat made."""
    if ruleset.decision(after).secret is False or not ruleset.decision(after).seats:
        return
    for alternative in ruleset.legal_moves(before, seat):
        if ruleset.dump_move(alternative) == ruleset.dump_move(move):
            continue
        other = ruleset.apply(before, seat, alternative)
        for viewer in viewers(seats):
            if viewer.is_seat(seat):
                continue
            assert ruleset.view(after, viewer) == ruleset.view(other, viewer), (
                f"{viewer} can see seat {seat}'s secret choice")
        break


def play_checked(case: Case, seed: int, deep_every: int = 7) -> tuple[str, int]:
    """Play one match with random bots and every engine-level check; returns (final hash, steps)."""
    ruleset = all_games()[case.game]
    config = config_for(case)
    rng = random.Random(seed)
    chance_seed = digest({"seed": seed, "case": str(case)})
    state = ruleset.setup(config)
    bound = ruleset.max_events(config)
    for step in range(bound + 1):
        decision = ruleset.decision(state)
        if decision.over:
            sheet = ruleset.score(state)
            assert all(RULE_ID.match(line.rule) or line.rule for line in sheet.lines)
            result = ruleset.result(state, sheet)
            assert sorted(set(result.ranks))[0] == 1
            return ruleset.state_hash(state), step
        deep = step % deep_every == 0
        if deep:
            encoded = ruleset.encode_state(state)
            assert digest(encoded) == ruleset.state_hash(state)
            assert ruleset.state_hash(ruleset.decode_state(encoded, config)) == ruleset.state_hash(state), \
                "encode/decode does not round-trip"
            for viewer in viewers(config.seats):
                view = ruleset.view(state, viewer)
                digest(view)  # views must be canonical JSON (no floats, string keys)
        if decision.chance is not None:
            spec = decision.chance
            assert spec.total_weight() > 0, f"chance event {spec.kind} with no possible outcome"
            outcome = derive_outcome(chance_seed, str(case), [], step, spec).outcome
            before_hash = ruleset.state_hash(state) if deep else None
            after = ruleset.resolve(state, outcome)
            if deep:
                assert ruleset.state_hash(state) == before_hash, "resolve mutated its input state"
            if spec.visible_to != "all":
                check_hidden_draw(ruleset, state, spec, outcome, after, config.seats)
            state = after
            continue
        assert decision.seats, "a decision with neither seats, chance nor end"
        seat = decision.seats[rng.randrange(len(decision.seats))]
        legal = list(ruleset.legal_moves(state, seat))
        assert legal, f"seat {seat} must act but has no legal move"
        legal_keys = {digest(ruleset.dump_move(m)) for m in legal}
        if deep:
            for move in legal[:60]:
                ruleset.validate(state, seat, move)
            _check_illegal(ruleset, state, seat, legal, legal_keys, decision.seats, config.seats, rng)
        move = legal[rng.randrange(len(legal))]
        ruleset.validate(state, seat, move)
        before_hash = ruleset.state_hash(state) if deep else None
        after = ruleset.apply(state, seat, move)
        if deep:
            assert ruleset.state_hash(state) == before_hash, "apply mutated its input state"
            if decision.secret:
                check_secret_move(ruleset, state, seat, move, after, config.seats)
        state = after
    raise AssertionError(f"{case} did not end within max_events={bound}")


def _check_illegal(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Any], legal_keys: set[str],
                   acting: tuple[int, ...], seats: int, rng: random.Random) -> None:
    sample = ruleset.dump_move(legal[rng.randrange(len(legal))])
    for candidate in _mutations(sample, rng):
        try:
            move = ruleset.parse_move(candidate)
        except MalformedMoveError:
            continue
        if digest(ruleset.dump_move(move)) in legal_keys:
            continue
        try:
            ruleset.validate(state, seat, move)
        except IllegalMoveError as error:
            assert RULE_ID.match(error.rule), f"illegal move refused without a rule ID: {error.rule!r}"
            assert error.reason, "illegal move refused without a reason"
            continue
        except RingsideError:
            continue
        raise AssertionError(f"validate accepted {candidate!r}, which legal_moves does not list")

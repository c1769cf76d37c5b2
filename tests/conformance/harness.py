"""The conformance harness: checks every registered game against the ruleset contract.

Engine tier (pure, many seeds): bots play whole matches; every step checks that legal moves
validate, random illegal moves are refused citing a rule the game has a text for, apply never
mutates its input, states survive encode/decode, hidden draws, secret choices and private choices
do not change what other viewers see (a counterfactual check: the same view, decision, scores and
refusals must come out of every possible hidden outcome or choice), and the match ends within the
ruleset's bound. Bots decide from their seat's view only: the same kind of
counterfactual, replayed to later decision points, must not change any bot's move
(`check_bots_blind`). Record tier (through the application, few seeds): see
test_record_conformance.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.canonical import digest
from domain.kernel.chance import derive_outcome
from domain.kernel.contract import Bot, ChanceSpec, Decision, MatchConfig, PrivateChoice, Ruleset, ScoreSheet
from domain.kernel.errors import IllegalMoveError, MalformedMoveError, RingsideError
from domain.kernel.fold import secret_group_complete
from domain.kernel.registry import all_games
from domain.kernel.rule_texts import kernel_rule_book
from domain.kernel.viewers import Viewer

RULE_ID = re.compile(r"^[A-Z]{2}-\d+\.\d+$|^[A-Z]{2,4}-[\w.-]+$")
CITED_IN_TEXT = re.compile(r"\b[A-Z]{1,4}-\d+(?:\.\d+)?\b")
"""A rule ID inside a message, prompt or tie-break text (`... (BT-5.8)`, `CT-18.2: ...`)."""


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


def other_outcomes(spec: ChanceSpec, outcome: Any, limit: int = 3) -> list[Any]:
    """The first few other possible outcomes of a chance event, in the engine's canonical order:
    the counterfactuals a hidden draw is checked against."""
    return [alt for alt, weight in spec.outcomes if weight > 0 and digest(alt) != digest(outcome)][:limit]


def other_moves(ruleset: Ruleset[Any, Any], before: Any, seat: int, move: Any, limit: int = 1) -> list[Any]:
    """The first few other legal moves of `seat`: the counterfactuals of a secret choice, and of a
    private one those with the same public part (`other_private_moves`)."""
    if ruleset.private_choice(before, seat, move) is not None:
        return other_private_moves(ruleset, before, seat, move, limit)
    chosen = ruleset.dump_move(move)
    return [alt for alt in ruleset.legal_moves(before, seat) if ruleset.dump_move(alt) != chosen][:limit]


def other_private_moves(ruleset: Ruleset[Any, Any], before: Any, seat: int, move: Any,
                        limit: int | None = None) -> list[Any]:
    """The other legal moves of `seat` that look the same as `move` to every other viewer until
    its reveal: private choices of the same kind (the same reveal point and private fields) whose
    public part is the same. A private bonus card's alternatives are the other cards; a whole
    private move's, every other private move."""
    choice = ruleset.private_choice(before, seat, move)
    assert choice is not None, "only a private choice has private alternatives"
    chosen = ruleset.dump_move(move)
    found = []
    for alt in ruleset.legal_moves(before, seat):
        dumped = ruleset.dump_move(alt)
        if dumped != chosen and ruleset.private_choice(before, seat, alt) == choice \
                and choice.public_part(dumped) == choice.public_part(chosen):
            found.append(alt)
    return found if limit is None else found[:limit]


def rule_ids(ruleset: Ruleset[Any, Any]) -> set[str]:
    """Every rule ID the game may cite: those it ships a text for, and the kernel's own."""
    return set(ruleset.rule_texts().rules) | set(kernel_rule_book().rules)


def check_hidden_draw(ruleset: Ruleset[Any, Any], before: Any, spec: ChanceSpec, outcome: Any,
                      after: Any, seats: int) -> None:
    """For each viewer not entitled to the draw, every other possible outcome gives the same view."""
    blind = [viewer for viewer in viewers(seats) if not _may_see(spec, viewer)]
    if not blind:
        return
    for alternative in other_outcomes(spec, outcome):
        other = ruleset.resolve(before, alternative)
        for viewer in blind:
            assert ruleset.view(after, viewer) == ruleset.view(other, viewer), (
                f"{viewer} can tell a hidden {spec.kind} outcome {outcome!r} from {alternative!r}")


def check_secret_move(ruleset: Ruleset[Any, Any], before: Any, seat: int, move: Any, after: Any,
                      seats: int) -> None:
    """While a secret group is incomplete, other seats cannot tell which choice a seat made."""
    if ruleset.decision(after).secret is False or not ruleset.decision(after).seats:
        return
    for alternative in other_moves(ruleset, before, seat, move):
        other = ruleset.apply(before, seat, alternative)
        for viewer in viewers(seats):
            if viewer.is_seat(seat):
                continue
            assert ruleset.view(after, viewer) == ruleset.view(other, viewer), (
                f"{viewer} can see seat {seat}'s secret choice")
        break


def _refusals(ruleset: Ruleset[Any, Any], state: Any, seat: int, candidates: list[Any]) -> list[str | None]:
    """How the engine answers each candidate move of `seat` in `state`: None when it is legal,
    else the rule and reason it gives (which must not depend on what `seat` may not know)."""
    answers: list[str | None] = []
    for candidate in candidates:
        try:
            ruleset.validate(state, seat, ruleset.parse_move(candidate))
        except RingsideError as error:
            answers.append(f"{getattr(error, 'rule', None)}: {error}")
        else:
            answers.append(None)
    return answers


def check_private_move(ruleset: Ruleset[Any, Any], before: Any, seat: int, move: Any, after: Any,
                       seats: int, rng: random.Random) -> int:
    """Until a private choice is revealed, no other viewer can tell it from the seat's other
    private choices of the same kind: the same view, the same decision (prompt included), the
    same scores, and the same answers to the next acting seat's moves, legal and illegal (an error
    message must not name another seat's private card). Returns the alternatives compared."""
    choice = ruleset.private_choice(before, seat, move)
    assert isinstance(choice, PrivateChoice)
    if choice.until in set(ruleset.reveals(after)):
        return 0  # revealed by its own step: nothing stays private
    compared = 0
    decision = ruleset.decision(after)
    acting = [other for other in decision.seats if other != seat] if decision.chance is None else []
    probes: dict[int, list[Any]] = {}
    for other_seat in acting:
        legal = [ruleset.dump_move(m) for m in ruleset.legal_moves(after, other_seat)]
        probes[other_seat] = legal[:20] + (_mutations(legal[rng.randrange(len(legal))], rng) if legal else [])
    for alternative in other_private_moves(ruleset, before, seat, move, limit=3):
        other = ruleset.apply(before, seat, alternative)
        assert choice.until not in set(ruleset.reveals(other)), "an alternative private choice revealed itself"
        for viewer in viewers(seats):
            if viewer.is_seat(seat):
                continue
            assert ruleset.view(after, viewer) == ruleset.view(other, viewer), (
                f"{viewer} can tell seat {seat}'s private choice {ruleset.dump_move(move)} from "
                f"{ruleset.dump_move(alternative)} before {choice.until!r}")
        assert ruleset.decision(after).to_json() == ruleset.decision(other).to_json(), (
            f"the decision after seat {seat}'s private choice depends on it")
        assert ruleset.score(after).to_json() == ruleset.score(other).to_json(), (
            f"the scores show seat {seat}'s private choice before {choice.until!r}")
        for other_seat, candidates in probes.items():
            assert _refusals(ruleset, after, other_seat, candidates) == \
                _refusals(ruleset, other, other_seat, candidates), (
                f"seat {other_seat}'s moves are answered differently depending on seat {seat}'s private choice")
        compared += 1
    return compared


def play_checked(case: Case, seed: int, deep_every: int = 7, cited: set[str] | None = None) -> tuple[str, int]:
    """Play one match with random bots and every engine-level check; returns (final hash, steps).

    `cited`, when given, collects every rule ID the engine showed along the way (score lines at
    each deep step and at the end, refusals of the random illegal moves, IDs named in prompts,
    reasons, details and tie-breaks): the rule-text coverage test checks that each one has a text."""
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
            known = rule_ids(ruleset)
            unknown = sorted({line.rule for line in sheet.lines if line.rule not in known})
            assert not unknown, f"score lines cite rules {unknown}, which {case.game} has no text for"
            result = ruleset.result(state, sheet)
            assert sorted(set(result.ranks))[0] == 1
            if cited is not None:
                _cite_sheet(cited, sheet)
                cited.update(id_ for text in result.tiebreaks for id_ in CITED_IN_TEXT.findall(text))
            return ruleset.state_hash(state), step
        deep = step % deep_every == 0
        if cited is not None:
            cited.update(CITED_IN_TEXT.findall(decision.prompt))
            if deep:
                _cite_sheet(cited, ruleset.score(state))
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
            _check_illegal(ruleset, state, seat, legal, legal_keys, decision.seats, config.seats, rng, cited)
        move = legal[rng.randrange(len(legal))]
        ruleset.validate(state, seat, move)
        before_hash = ruleset.state_hash(state) if deep else None
        after = ruleset.apply(state, seat, move)
        if deep:
            assert ruleset.state_hash(state) == before_hash, "apply mutated its input state"
            if decision.secret:
                check_secret_move(ruleset, state, seat, move, after, config.seats)
        if ruleset.private_choice(state, seat, move) is not None:
            check_private_move(ruleset, state, seat, move, after, config.seats, rng)
        state = after
    raise AssertionError(f"{case} did not end within max_events={bound}")


def _cite_sheet(cited: set[str], sheet: ScoreSheet) -> None:
    for line in sheet.lines:
        cited.add(line.rule)
        cited.update(CITED_IN_TEXT.findall(line.detail))


def _check_illegal(ruleset: Ruleset[Any, Any], state: Any, seat: int, legal: list[Any], legal_keys: set[str],
                   acting: tuple[int, ...], seats: int, rng: random.Random, cited: set[str] | None = None) -> None:
    """Every plausible wrong move that parses is refused as an IllegalMoveError citing a rule the
    game has a text for, with a reason: a refusal by any other error, or naming an unknown or
    mistyped rule, is a refusal the user cannot look up."""
    known = rule_ids(ruleset)
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
            assert error.rule in known, f"illegal move refused citing {error.rule!r}, which has no rule text"
            assert error.reason, "illegal move refused without a reason"
            if cited is not None:
                cited.add(error.rule)
                cited.update(CITED_IN_TEXT.findall(error.reason))
            continue
        except RingsideError as error:
            raise AssertionError(f"{candidate!r} refused as {type(error).__name__} ({error}), "
                                 "not as an illegal move citing its rule") from None
        raise AssertionError(f"validate accepted {candidate!r}, which legal_moves does not list")


# ---- bots decide from their seat's view only ---------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a bot-played match: the state it was taken in, what the match waited for, and
    what happened (a chance outcome when `seat` is None, else that seat's move model)."""

    before: Any
    decision: Decision
    seat: int | None
    data: Any


@dataclass
class BlindReport:
    """What the counterfactual bot check saw, summed over matches."""

    states: int = 0
    """Decision points where something was hidden from the acting seat."""
    alternatives: int = 0
    """Alternative states compared there (same view for the seat, other hidden information)."""
    revealed: int = 0
    """Alternatives dropped because the table could tell them apart: the varied step was hidden
    when it happened but has been revealed since (a scored Big Top token, a played card)."""
    impossible: int = 0
    """Alternatives dropped because a later step of the match was not possible in them."""
    leaks: dict[str, int] = field(default_factory=dict)
    """Per bot: decision points where some alternative changed its move."""
    examples: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = (f"{self.states} decision points, {self.alternatives} alternatives compared "
                f"({self.revealed} revealed since, {self.impossible} impossible dropped); "
                f"moves changed with hidden information: {self.leaks or 'never'}")
        return "\n".join([text, *self.examples[:5]])


Choose = Callable[[int, Any, Decision], Any]
"""What step `index` of a replay does, given the state and decision reached there."""


def hidden_from(trail: list[Step], pending: dict[int, int], seat: int,
                private: Mapping[int, tuple[int, str]] | None = None) -> list[int]:
    """Indices of the steps `seat` may not know: chance drawn face down or into another seat's
    hand (the same rule as the view check), other seats' choices in a secret group that is
    still open (`pending`, kept as the kernel's fold keeps it), and other seats' private choices
    not revealed yet (`private`: index -> seat and reveal point)."""
    viewer = Viewer.of_seat(seat)
    drawn = [index for index, step in enumerate(trail) if step.seat is None
             and step.decision.chance is not None and not _may_see(step.decision.chance, viewer)]
    chosen = [index for index, other in pending.items() if other != seat]
    kept = [index for index, (other, _) in (private or {}).items() if other != seat and index not in pending]
    return sorted(drawn + chosen + kept)


def replay(ruleset: Ruleset[Any, Any], trail: list[Step], start: int, choose: Choose) -> Any | None:
    """The state reached by playing `trail` again from step `start` with `choose` deciding each
    step (the same outcome or move, or another); None when a step is no longer possible there."""
    state = trail[start].before
    for index in range(start, len(trail)):
        step = trail[index]
        decision = ruleset.decision(state)
        data = choose(index, state, decision)
        try:
            if step.seat is None:
                spec, was = decision.chance, step.decision.chance
                if spec is None or was is None or (spec.kind, spec.visible_to) != (was.kind, was.visible_to) \
                        or spec.weight_of(data) <= 0:
                    return None
                state = ruleset.resolve(state, data)
            else:
                if step.seat not in decision.seats or decision.secret != step.decision.secret:
                    return None
                ruleset.validate(state, step.seat, data)
                state = ruleset.apply(state, step.seat, data)
        except RingsideError:
            return None
    return state


def _varied(trail: list[Step], changed: int, data: Any) -> Choose:
    return lambda index, state, decision: data if index == changed else trail[index].data


def _redrawn(ruleset: Ruleset[Any, Any], trail: list[Step], hidden: set[int], rng: random.Random) -> Choose:
    """Every hidden step drawn or chosen afresh (chance by its weights, a secret move uniformly)."""
    def choose(index: int, state: Any, decision: Decision) -> Any:
        if index not in hidden:
            return trail[index].data
        if decision.chance is not None:
            return decision.chance.pick(rng.randrange(decision.chance.total_weight()))
        seat = trail[index].seat
        moves = list(ruleset.legal_moves(state, seat)) if seat is not None else []
        if seat is not None and ruleset.private_choice(state, seat, trail[index].data) is not None:
            moves = [trail[index].data, *other_private_moves(ruleset, state, seat, trail[index].data)]
        return moves[rng.randrange(len(moves))] if moves else trail[index].data
    return choose


def counterfactual_states(ruleset: Ruleset[Any, Any], trail: list[Step], hidden: list[int],
                          rng: random.Random) -> list[tuple[int | None, Any | None]]:
    """States the match could be in had hidden steps gone otherwise: each of `hidden` varied alone
    (as the view check varies a draw: the first few other outcomes; another secret choice), then
    all of them drawn afresh at once. Pairs (the step varied alone or None, the state or None when
    a later step is impossible there)."""
    found: list[tuple[int | None, Any | None]] = []
    for index in hidden:
        step = trail[index]
        if step.seat is None:
            assert step.decision.chance is not None
            options = other_outcomes(step.decision.chance, step.data)
        else:
            options = other_moves(ruleset, step.before, step.seat, step.data)
        found.extend((index, replay(ruleset, trail, index, _varied(trail, index, option))) for option in options)
    if len(hidden) > 1:
        found.append((None, replay(ruleset, trail, hidden[0], _redrawn(ruleset, trail, set(hidden), rng))))
    return found


@dataclass
class _Blind:
    """One match's counterfactual bot check: its steps so far, the open secret group, and the
    hidden steps the table has seen since (not varied again: what the table saw stays known)."""

    ruleset: Ruleset[Any, Any]
    bots: Mapping[str, Bot]
    report: BlindReport
    depth: int
    trail: list[Step] = field(default_factory=list)
    pending: dict[int, int] = field(default_factory=dict)
    private: dict[int, tuple[int, str]] = field(default_factory=dict)
    known: set[int] = field(default_factory=set)

    def hidden(self, seat: int) -> list[int]:
        """The latest `depth` steps still hidden from `seat`."""
        return [index for index in hidden_from(self.trail, self.pending, seat, self.private)
                if index not in self.known][-self.depth:]

    def check(self, state: Any, seat: int, hidden: list[int], bot_seed: int) -> None:
        """Every bot must choose the same move, with the same generator seed, in every
        alternative state that looks the same from `seat`."""
        ruleset, report, bots = self.ruleset, self.report, self.bots
        seat_viewer, table = Viewer.of_seat(seat), Viewer.spectator()
        seen, public = ruleset.view(state, seat_viewer), ruleset.view(state, table)
        chosen = {name: ruleset.dump_move(bot(state, seat, random.Random(bot_seed))) for name, bot in bots.items()}
        seen_since: set[int | None] = set()
        still_hidden: set[int | None] = set()
        leaked: set[str] = set()
        report.states += 1
        for varied, other in counterfactual_states(ruleset, self.trail, hidden, random.Random(bot_seed)):
            if other is None:
                report.impossible += 1
                continue
            if ruleset.view(other, table) != public:
                report.revealed += 1
                seen_since.add(varied)
                continue
            if seat in ruleset.looking(state) and ruleset.view(other, seat_viewer) != seen:
                seen_since.add(varied)  # the seat looks through the pile the hidden step drew from
                continue
            still_hidden.add(varied)
            # Sanity: what the table cannot tell apart, the seat cannot either (only steps hidden
            # from it were varied), and the seat is still the one to act.
            assert ruleset.view(other, seat_viewer) == seen, f"seat {seat} sees a step hidden from it"
            assert seat in ruleset.decision(other).seats
            report.alternatives += 1
            for name, bot in bots.items():
                move = ruleset.dump_move(bot(other, seat, random.Random(bot_seed)))
                if move != chosen[name] and name not in leaked:
                    leaked.add(name)
                    report.leaks[name] = report.leaks.get(name, 0) + 1
                    report.examples.append(f"bot {name!r}, seat {seat}, step {len(self.trail)}: "
                                           f"{chosen[name]} or {move} depending on hidden information")
        self.known |= {index for index in seen_since - still_hidden if index is not None}

    def record(self, state: Any, decision: Decision, seat: int | None, data: Any) -> Any:
        """Take one step (keeping it for replays) and return the state after it."""
        self.trail.append(Step(state, decision, seat, data))
        if seat is None:
            return self._revealing(self.ruleset.resolve(state, data))
        choice = self.ruleset.private_choice(state, seat, data)
        after = self.ruleset.apply(state, seat, data)
        if choice is not None:
            self.private[len(self.trail) - 1] = (seat, choice.until)
        if decision.secret:
            self.pending[len(self.trail) - 1] = seat
            if secret_group_complete(decision, self.ruleset.decision(after), set(self.pending.values())):
                self.pending = {}
        return self._revealing(after)

    def _revealing(self, state: Any) -> Any:
        """Drop the private choices that `state` reveals (as the kernel's fold does)."""
        if self.private:
            reached = set(self.ruleset.reveals(state))
            self.private = {index: kept for index, kept in self.private.items() if kept[1] not in reached}
        return state


def check_bots_blind(case: Case, seed: int, report: BlindReport, every: int = 1, depth: int = 2,
                     bots: Mapping[str, Bot] | None = None) -> None:
    """Play a match with the bots (the game's own unless given; each seat its own, rotating with
    the seed) and, at every `every`-th decision point where something is hidden from the acting
    seat, compare every bot's move there with its moves in counterfactual states the seat cannot
    tell from it (the latest `depth` hidden steps varied)."""
    ruleset = all_games()[case.game]
    config = config_for(case)
    bots = dict(ruleset.bots() if bots is None else bots)
    names = sorted(bots)
    rng = random.Random(seed)
    chance_seed = digest({"seed": seed, "case": str(case), "check": "blind bots"})
    blind = _Blind(ruleset, bots, report, depth)
    state = ruleset.setup(config)
    eligible = 0
    for index in range(ruleset.max_events(config) + 1):
        decision = ruleset.decision(state)
        if decision.over:
            return
        if decision.chance is not None:
            outcome = derive_outcome(chance_seed, str(case), [], index, decision.chance).outcome
            state = blind.record(state, decision, None, outcome)
            continue
        seat = decision.seats[rng.randrange(len(decision.seats))]
        hidden = blind.hidden(seat)
        if hidden:
            eligible += 1
            if eligible % every == 0:
                blind.check(state, seat, hidden, seed * 100_003 + index)
        move = bots[names[(seat + seed) % len(names)]](state, seat, rng)
        state = blind.record(state, decision, seat, move)
    raise AssertionError(f"{case} did not end within max_events={ruleset.max_events(config)}")

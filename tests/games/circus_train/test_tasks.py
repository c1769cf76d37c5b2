"""The table of step kinds (tasks.py) on the kernel's agenda: every kind a match puts on the agenda
has a row; the machine's decision is the ruleset's; each row's rules are rules of the game; the
stored agenda is the task records it always was; and the package's modules import no cycle."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from domain.games.circus_train import tasks
from domain.games.circus_train.tasks import AGENDA
from domain.kernel.agenda import WHOLE, Chance, Choice, Step
from domain.kernel.chance import derive_outcome

from .helpers import R, cfg

CASES = [("basic", 3, {"special_characters": True, "event_cards": True}), ("advanced", 4, {}),
         ("solitaire-advanced", 1, {}), ("basic", 2, {"simpler": True})]


@pytest.mark.parametrize(("variant", "seats", "options"), CASES, ids=[f"{v}-{n}" for v, n, _ in CASES])
def test_the_machine_decides_as_the_ruleset(variant: str, seats: int, options: dict[str, bool]) -> None:
    """At every step of a match, the machine's decision (prompt, seats, chance) is the ruleset's,
    every step on the agenda has a row, and the agenda is stored as plain `{"t": kind}` records."""
    rng = random.Random(7)
    state = R.setup(cfg(seats, variant, **options))
    kinds: set[str] = set()
    for index in range(R.max_events(state.config)):
        for step in state.agenda:
            assert type(step) is Step and AGENDA.row(step.kind) is not None
            kinds.add(step.kind)
        stored = R.encode_state(state)["agenda"]
        assert all(type(record) is dict and isinstance(record["t"], str) for record in stored)
        decision = R.decision(state)
        assert AGENDA.decision(state) == decision
        if decision.over:
            break
        if decision.chance is not None:
            state = R.resolve(state, derive_outcome("7" * 64, "tasks", [], index, decision.chance).outcome)
        else:
            state = R.apply(state, decision.seats[0], R.random_bot(state, decision.seats[0], rng))
    assert R.decision(state).over
    assert {"round", "turn", "roustabout", "end_turn"} <= kinds


def test_every_row_cites_a_rule_of_the_game() -> None:
    book = R.rule_texts()
    for kind, row in AGENDA.rows.items():
        if kind == WHOLE:
            continue
        if isinstance(row, Choice):
            assert book.owns(AGENDA.waiting_rule(Step(kind, seat=0))), kind
            assert row.prompt and row.asks, kind
        elif isinstance(row, Chance):
            assert book.owns(AGENDA.waiting_rule(Step(kind, purpose="hire"))), kind
    assert AGENDA.waiting_rule(Step("die", purpose="steal", seat=0)) == "CT-10.4"
    assert AGENDA.waiting_rule(Step("die", purpose="other", seat=0)) == "CT-0.13"
    assert AGENDA.kinds(Chance) == tasks.CHANCE_TASKS and "die" in tasks.CHANCE_TASKS


def test_no_module_of_the_game_imports_in_a_cycle() -> None:
    """Each module of the package imports only modules below it (at the top or inside a function)."""
    package = Path(tasks.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in package.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module.split(".")[0]} if node.module else {alias.name for alias in node.names}
        graph[path.stem] = deps

    def reaches(start: str, target: str, seen: set[str]) -> bool:
        for dep in graph.get(start, set()):
            if dep == target or (dep not in seen and reaches(dep, target, seen | {dep})):
                return True
        return False

    cycles = sorted(name for name in graph if reaches(name, name, {name}))
    assert not cycles, f"modules in an import cycle: {cycles}"

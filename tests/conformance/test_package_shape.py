"""Every game has the same shape (domain/games/README.md), so a new game copies one pattern.

Two levels, each a function that returns the faults it finds (empty when the game conforms):

- `contract_faults(ruleset)`, for every registered game, the single-module test game included:
  the options model is an `OptionsModel` whose presets parse, the component model a `ComponentSet`
  whose default set loads and loads back from its own content, moves one union discriminated by
  `type` whose every move played round-trips, the bots include "random", every score line is the
  kernel's `ScoreLine`, and the game ships rule texts;
- `package_faults(package)`, for every game that is a package (every product game): the modules
  of the shape exist and hold the names the README gives, with the right kinds, and the ruleset
  uses them (its options, components, move adapter, view, score and bots are those of the package's
  modules); component parts, options and moves are built on the kernel's bases; the data files are
  there.

Both are tried on deliberately broken copies of a real game (a piece missing or of the wrong
kind), so neither can pass a game that lacks what it checks.
"""

from __future__ import annotations

import importlib
import random
import shutil
import sys
import types
import typing
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from domain.kernel.chance import derive_outcome
from domain.kernel.components import ComponentPart, ComponentSet, load_components
from domain.kernel.contract import MoveModel, OptionsModel, Ruleset, ScoreLine, ScoreSheet
from domain.kernel.driver import make_config
from domain.kernel.errors import InvalidComponentsError
from domain.kernel.registry import all_games
from domain.kernel.viewers import Viewer
from domain.plugins import GROUP

GAME_MODULES = ("components", "options", "state", "moves", "rules", "scoring", "views", "bots", "position")
"""The modules every game package has, beside `__init__.py` (which exports RULESET)."""
DATA_FILES = ("data/default.json", "data/rules.json")
TEST_GAMES = {"test-dicevote", "test-sealedbonus"}
"""Registered games that are one module, not a package: the test-only games (tests/support)."""

@dataclass(frozen=True)
class Fault:
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.check}: {self.message}"


class Faults:
    """Collects faults; `check` runs one check and turns anything it raises into a fault of that
    check, so one broken piece of a game never hides the faults of the others."""

    def __init__(self) -> None:
        self.found: list[Fault] = []

    def add(self, check: str, message: str) -> None:
        self.found.append(Fault(check, message))

    def check(self, name: str, run: Callable[[], None]) -> None:
        try:
            run()
        except Exception as exc:  # the game's fault, whatever it is, is reported, not raised
            self.add(name, f"raised {type(exc).__name__}: {exc}")


# ---- playing a game to look at its states -------------------------------------------------------


@dataclass
class Played:
    seats: int
    states: list[Any]
    moves: list[Any]


def played(ruleset: Ruleset[Any, Any], seed: int = 7, every: int = 9) -> Played:
    """A whole match of the default variant at its smallest table, random bots and seed-derived
    chance: every `every`-th state and the last one, and every move played."""
    seats = ruleset.variants[ruleset.default_variant].min_seats
    config = make_config(ruleset, seats, ruleset.default_variant)
    state = ruleset.setup(config)
    states, moves = [state], []
    rng = random.Random(seed)
    for index in range(ruleset.max_events(config) + 1):
        decision = ruleset.decision(state)
        if decision.over:
            break
        if decision.chance is not None:
            outcome = derive_outcome(f"{seed:064x}", "shape", [], index, decision.chance).outcome
            state = ruleset.resolve(state, outcome)
        else:
            seat = decision.seats[0]
            move = ruleset.random_bot(state, seat, rng)
            moves.append(move)
            state = ruleset.apply(state, seat, move)
        if index % every == 0:
            states.append(state)
    else:
        raise AssertionError(f"{ruleset.name} did not end within max_events")
    states.append(state)
    return Played(seats, states, moves)


def viewers(seats: int) -> list[Viewer]:
    return [Viewer.spectator(), Viewer.arbiter(), *(Viewer.of_seat(seat) for seat in range(seats))]


# ---- the contract level: every registered game ----------------------------------------------------


def contract_faults(ruleset: Ruleset[Any, Any]) -> list[Fault]:
    faults = Faults()

    def options() -> None:
        model = ruleset.options_model
        if not (isinstance(model, type) and issubclass(model, OptionsModel)):
            faults.add("options", f"options_model {model!r} is not an OptionsModel")
            return
        for preset in ruleset.option_presets().values():
            ruleset.parse_options(preset)  # a preset that does not parse raises: reported as a fault

    def components() -> None:
        model = ruleset.components_model
        if not (isinstance(model, type) and issubclass(model, ComponentSet)):
            faults.add("components", f"components_model {model!r} is not a ComponentSet")
            return
        default = ruleset.default_components()
        if not isinstance(default, model):
            faults.add("components", f"the default set is a {type(default).__name__}, not a {model.__name__}")
        elif load_components(model, default.content()).content_hash() != default.content_hash():
            faults.add("components", "the default set does not load back from its own content")

    def moves() -> None:
        adapter = ruleset.move_adapter
        if not isinstance(adapter, TypeAdapter):
            faults.add("moves", f"move_adapter {adapter!r} is not a pydantic TypeAdapter")
            return
        discriminator = adapter.json_schema().get("discriminator", {})
        if discriminator.get("propertyName") != "type":
            faults.add("moves", "the moves are not one union told apart by `type`")

    def bots() -> None:
        named = ruleset.bots()
        if "random" not in named:
            faults.add("bots", f"no \"random\" bot among {sorted(named)}")
        for name, bot in named.items():
            if not callable(bot):
                faults.add("bots", f"bot {name!r} is not callable")

    def rule_texts() -> None:
        if not ruleset.rule_texts().rules:
            faults.add("rule-texts", f"no rule texts ({ruleset.rule_texts_file} beside the ruleset)")

    def play() -> None:
        match = played(ruleset)
        states = match.states
        for move in match.moves:
            if ruleset.parse_move(ruleset.dump_move(move)) != move:
                faults.add("moves", f"a {type(move).__name__} played does not parse back from its JSON")
                break
        for state in states:
            sheet = ruleset.score(state)
            if not isinstance(sheet, ScoreSheet):
                faults.add("score-lines", f"score() returned a {type(sheet).__name__}, not a ScoreSheet")
                return
            wrong = [line for line in sheet.lines if not isinstance(line, ScoreLine)]
            if wrong:
                faults.add("score-lines", f"score lines must be the kernel's ScoreLine, not {type(wrong[0]).__name__}")
                return
        if not any(ruleset.score(state).lines for state in states):
            faults.add("score-lines", "a whole match scored no line: nothing checked")

    for name, run in (("options", options), ("components", components), ("moves", moves), ("bots", bots),
                      ("rule-texts", rule_texts), ("play", play)):
        faults.check(name, run)
    return faults.found


# ---- the package level: every game that is a package ------------------------------------------------


def camel(package: str) -> str:
    """The game's name in class names: `circus_train` -> `CircusTrain`."""
    return "".join(part.capitalize() for part in package.rpartition(".")[2].split("_"))


def defined_models(module: types.ModuleType) -> list[type[BaseModel]]:
    """The pydantic models a module defines (not those it imports)."""
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == module.__name__]


def union_members(union: Any) -> tuple[Any, ...]:
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    if typing.get_origin(union) in (typing.Union, types.UnionType):
        return typing.get_args(union)
    return (union,)


def package_faults(package: str) -> list[Fault]:
    faults = Faults()
    try:
        root = importlib.import_module(package)
    except Exception as exc:
        return [Fault("imports", f"{package} does not import: {type(exc).__name__}: {exc}")]
    ruleset = getattr(root, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        return [Fault("ruleset", f"{package}/__init__.py exports no RULESET (the engine its entry point names)")]
    game = camel(package)
    modules: dict[str, types.ModuleType] = {}
    for name in GAME_MODULES:
        try:
            modules[name] = importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise
            faults.add("modules", f"{name}.py is missing")

    def named(module: str, attr: str, check: str) -> Any:
        """`module.attr`, or None with a fault (none when the module itself is missing: reported)."""
        if module not in modules:
            return None
        value = getattr(modules[module], attr, None)
        if value is None:
            faults.add(check, f"{module}.py has no {attr}")
        return value

    samples: list[Played] = []

    def match() -> Played:
        if not samples:
            samples.append(played(ruleset))
        return samples[0]

    def states() -> list[Any]:
        return match().states

    def rules() -> None:
        engine = named("rules", f"{game}Rules", "rules")
        if engine is not None and type(ruleset) is not engine:
            faults.add("rules", f"RULESET is a {type(ruleset).__name__}, not rules.{game}Rules")

    def options() -> None:
        model = named("options", f"{game}Options", "options")
        if model is not None and model is not ruleset.options_model:
            faults.add("options", f"the ruleset's options_model is not options.{game}Options")

    def options_home() -> None:
        if ruleset.options_model.__module__ != f"{package}.options":
            faults.add("options-home", f"the options model is defined in {ruleset.options_model.__module__}")

    def components() -> None:
        model = named("components", f"{game}Components", "components")
        if model is not None and model is not ruleset.components_model:
            faults.add("components", f"the ruleset's components_model is not components.{game}Components")
        default = named("components", "default_components", "components")
        loader = named("components", "load_components", "components")
        if default is None or loader is None:
            return
        shipped = default()
        if shipped.content_hash() != ruleset.default_components().content_hash():
            faults.add("components", "the ruleset's default set is not components.default_components()")
        if loader(shipped.content()).content_hash() != shipped.content_hash():
            faults.add("components", "load_components does not load the default set's own content")
        try:
            loader({**shipped.content(), "no_such_part": 1})
        except InvalidComponentsError:
            pass
        else:
            faults.add("components", "load_components accepts a set with an unknown part")

    def kernel_bases() -> None:
        bases: dict[str, tuple[type[BaseModel], ...]] = {
            "components": (ComponentSet, ComponentPart), "options": (OptionsModel,), "moves": (MoveModel,)}
        for module, allowed in bases.items():
            if module not in modules:
                continue
            for model in defined_models(modules[module]):
                if not issubclass(model, allowed):
                    faults.add("kernel-bases", f"{module}.{model.__name__} is not built on "
                                               f"{' or '.join(base.__name__ for base in allowed)}")

    def moves() -> None:
        adapter = named("moves", "MOVE_ADAPTER", "moves")
        union = named("moves", f"{game}Move", "moves")
        if adapter is not None and adapter is not ruleset.move_adapter:
            faults.add("moves", "the ruleset's move_adapter is not moves.MOVE_ADAPTER")
        if union is None:
            return
        members = set(union_members(union))
        defined = {model for model in defined_models(modules["moves"]) if issubclass(model, MoveModel)}
        for model in sorted(defined - members, key=lambda m: m.__name__):
            faults.add("moves", f"{model.__name__} is a move but not in {game}Move")
        for member in sorted(members - defined, key=lambda m: getattr(m, "__name__", str(m))):
            faults.add("moves", f"{game}Move holds {member!r}, which is not a MoveModel of moves.py")
        tags: dict[str, str] = {}
        for model in sorted(members & defined, key=lambda m: m.__name__):
            field = model.model_fields.get("type")
            tag = None if field is None else field.default
            if not isinstance(tag, str) or typing.get_args(field.annotation if field else None) != (tag,):
                faults.add("moves", f"{model.__name__} has no `type` tag (a Literal with its one value as default)")
            elif tags.setdefault(tag, model.__name__) != model.__name__:
                faults.add("moves", f"{model.__name__} and {tags[tag]} share the tag {tag!r}")
        if adapter is not None:
            mapping = adapter.json_schema().get("discriminator", {}).get("mapping", {})
            if set(mapping) != set(tags):
                faults.add("moves", f"MOVE_ADAPTER parses {sorted(mapping)}, the union has {sorted(tags)}")

    def state() -> None:
        kind = type(states()[0])
        if kind.__module__ != f"{package}.state":
            faults.add("state", f"the state class is defined in {kind.__module__}, not state.py")

    def state_name() -> None:
        kind = type(states()[0])
        if kind.__name__ != f"{game}State":
            faults.add("state-name", f"the state class is {kind.__name__}, not {game}State")

    def scoring() -> None:
        sheet = named("scoring", "score_sheet", "scoring")
        overrides_result = type(ruleset).result is not Ruleset.result
        result = named("scoring", "match_result", "scoring") if overrides_result else None
        for sample in states():
            if sheet is not None and sheet(sample) != ruleset.score(sample):
                faults.add("scoring", "the ruleset's score is not scoring.score_sheet")
                return
            if result is not None and result(sample, ruleset.score(sample)) != ruleset.result(
                    sample, ruleset.score(sample)):
                faults.add("scoring", "the ruleset's result is not scoring.match_result")
                return

    def stored_score_lines() -> None:
        for sample in states():
            stored = getattr(sample, "lines", ())
            wrong = [line for line in stored if not isinstance(line, ScoreLine)]
            if wrong:
                faults.add("stored-score-lines", f"the state keeps score lines as {type(wrong[0]).__name__}, "
                                                 "not the kernel's ScoreLine")
                return

    def views() -> None:
        view = named("views", "view", "views")
        if view is None:
            return
        for sample in states():
            for viewer in viewers(match().seats):
                if view(sample, viewer) != ruleset.view(sample, viewer):
                    faults.add("views", f"the ruleset's view is not views.view (as {viewer})")
                    return

    def bots() -> None:
        factory = named("bots", "bots", "bots")
        if factory is None:
            return
        named_bots = factory(ruleset)
        if set(named_bots) != set(ruleset.bots()):
            faults.add("bots", f"bots.bots() names {sorted(named_bots)}, the ruleset {sorted(ruleset.bots())}")
        if "random" not in named_bots:
            faults.add("bots", "bots.bots() has no \"random\" bot")

    def position() -> None:
        model = named("position", f"{game}Position", "position")
        if model is not None and model is not ruleset.position_model:
            faults.add("position", f"the ruleset's position_model is not position.{game}Position")
        for hook in ("position_of", "from_position", "hide_position"):
            if named("position", hook, "position") is not None and getattr(type(ruleset), hook) is getattr(
                    Ruleset, hook):
                faults.add("position", f"the ruleset does not hand {hook} to position.{hook}")

    def data() -> None:
        for path in DATA_FILES:
            if not resources.files(package).joinpath(path).is_file():
                faults.add("data", f"{path} is missing")
        if ruleset.rule_texts_file != "data/rules.json":
            faults.add("data", f"the rule texts are in {ruleset.rule_texts_file}, not data/rules.json")

    for check, run in (("rules", rules), ("options", options), ("options-home", options_home),
                       ("components", components), ("kernel-bases", kernel_bases), ("moves", moves),
                       ("state", state), ("state-name", state_name), ("scoring", scoring),
                       ("stored-score-lines", stored_score_lines), ("views", views), ("bots", bots),
                       ("position", position), ("data", data)):
        faults.check(check, run)
    return faults.found


# ---- the registered games -------------------------------------------------------------------------


def entry_target(game: str) -> str:
    """The module an entry point of the `ringside.games` group names for `game`."""
    points = {point.value for point in entry_points(group=GROUP) if point.name == game}
    assert len(points) == 1, f"{game} has entry points {sorted(points)}"
    module, _, attr = points.pop().partition(":")
    assert attr == "RULESET", f"the entry point of {game} names {attr}, not RULESET"
    return module


def is_package(module: str) -> bool:
    return hasattr(importlib.import_module(module), "__path__")


GAMES = sorted(all_games())
PACKAGE_GAMES = [game for game in GAMES if game not in TEST_GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_every_registered_game_keeps_the_contract_shape(game: str) -> None:
    assert not contract_faults(all_games()[game])


@pytest.mark.parametrize("game", PACKAGE_GAMES)
def test_every_game_package_has_the_shape(game: str) -> None:
    package = entry_target(game)
    assert importlib.import_module(package).RULESET is all_games()[game]
    assert not [str(fault) for fault in package_faults(package)]


def test_only_the_test_game_is_a_single_module() -> None:
    """A product game cannot leave the package check by being something else: every registered game
    but the test-only one is registered as the RULESET of a package."""
    assert {game for game in GAMES if not is_package(entry_target(game))} == TEST_GAMES


# ---- broken copies of a real game ---------------------------------------------------------------------

Edit = tuple[str, str, str]
"""In file `path`, replace every occurrence of `old` (there must be one) with `new`."""
SOURCE = Path(__file__).resolve().parents[2] / "domain" / "games" / "carcassonne"
REAL_PACKAGE = "domain.games.carcassonne"


@dataclass(frozen=True)
class Breakage:
    """One piece taken out of (or spoilt in) a copy of Carcassonne, and the check that must see it."""

    name: str
    check: str
    edits: tuple[Edit, ...] = ()
    remove: tuple[str, ...] = ()
    rename: tuple[tuple[str, str], ...] = ()


BREAKAGES = [
    Breakage("no views.py", "modules", rename=(("views.py", "table.py"),),
             edits=(("rules.py", "from . import bots, codec, views\n",
                     "from . import bots, codec\nfrom . import table as views\n"),)),
    Breakage("the view function under another name", "views",
             edits=(("views.py", "def view(", "def render("), ("rules.py", "views.view(", "views.render("))),
    Breakage("no RULESET", "ruleset",
             edits=(("__init__.py", "RULESET = CarcassonneRules()", "ENGINE = CarcassonneRules()"),
                    ("__init__.py", '["RULESET", ', '["ENGINE", '))),
    Breakage("options on a plain pydantic model", "options",
             edits=(("options.py", "class CarcassonneOptions(OptionsModel):", "class CarcassonneOptions(BaseModel):"),
                    ("options.py", "from domain.kernel.contract import OptionsModel\n",
                     "from pydantic import BaseModel\n"))),
    Breakage("a component part on a base of its own", "kernel-bases",
             edits=(("components.py", "class AnimalToken(ComponentPart):", "class AnimalToken(BaseModel):"),
                    ("components.py", "from pydantic import Field, model_validator",
                     "from pydantic import BaseModel, Field, model_validator"))),
    Breakage("no component loader", "components", edits=(("components.py", "def load_components(", "def load_set("),)),
    Breakage("a default set that does not load", "components",
             edits=(("data/default.json", '"start_tile":', '"no_such_part": 1, "start_tile":'),)),
    Breakage("a move left out of the union", "moves",
             edits=(("moves.py", "| ScorePyramid | Pass\n", "| ScorePyramid\n"),)),
    Breakage("no random bot", "bots",
             edits=(("bots.py", '{"random": rules.random_bot, "greedy"', '{"greedy"'),)),
    Breakage("score lines as tuples", "score-lines",
             edits=(("scoring.py", "return ScoreSheet(state.seats, state.lines)",
                     "return ScoreSheet(state.seats, tuple((line.seat, line.points, line.category, line.rule, "
                     "line.detail) for line in state.lines))"),)),
    Breakage("no rule texts", "rule-texts", remove=("data/rules.json",)),
    Breakage("no scoring.score_sheet", "scoring",
             edits=(("scoring.py", "def score_sheet(", "def sheet_of("), ("rules.py", "score_sheet", "sheet_of"),
                    ("views.py", "score_sheet", "sheet_of"))),
]


@pytest.fixture
def copy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Breakage | None], str]]:
    """Copies Carcassonne to a fresh package (`<unique>.carcassonne`, reading its own data), with one
    breakage applied; returns the package name. The copies leave sys.modules afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def make(breakage: Breakage | None) -> str:
        root = f"shape_{uuid.uuid4().hex[:10]}"
        target = tmp_path / root / "carcassonne"
        shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns("__pycache__"))
        package = f"{root}.carcassonne"
        for path in target.rglob("*.py"):
            path.write_text(path.read_text(encoding="utf-8").replace(REAL_PACKAGE, package), encoding="utf-8")
        if breakage is not None:
            for path, old, new in breakage.edits:
                text = (target / path).read_text(encoding="utf-8")
                assert text.count(old) >= 1, f"{path} no longer holds {old!r}: update the breakage"
                (target / path).write_text(text.replace(old, new), encoding="utf-8")
            for path in breakage.remove:
                (target / path).unlink()
            for old_name, new_name in breakage.rename:
                (target / old_name).rename(target / new_name)
        made.append(root)
        importlib.invalidate_caches()
        return package

    yield make
    for name in [name for name in sys.modules if name.split(".")[0] in made]:
        del sys.modules[name]


def all_faults(package: str) -> list[Fault]:
    faults = package_faults(package)
    ruleset = getattr(sys.modules.get(package), "RULESET", None)
    if isinstance(ruleset, Ruleset):
        faults += contract_faults(ruleset)
    return faults


def test_an_unbroken_copy_of_a_game_has_no_fault(copy_game: Callable[[Breakage | None], str]) -> None:
    """The copy the breakages start from passes, so each breakage's fault is its own."""
    assert all_faults(copy_game(None)) == []


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[breakage.name for breakage in BREAKAGES])
def test_a_game_missing_a_piece_fails_the_shape(copy_game: Callable[[Breakage | None], str],
                                               breakage: Breakage) -> None:
    faults = all_faults(copy_game(breakage))
    assert breakage.check in {fault.check for fault in faults}, [str(fault) for fault in faults]


def test_the_package_list_is_what_the_readme_gives() -> None:
    """domain/games/README.md names the same modules and data files this test checks."""
    readme = (SOURCE.parent / "README.md").read_text(encoding="utf-8")
    for name in (*(f"{module}.py" for module in GAME_MODULES), "__init__.py", *DATA_FILES):
        assert f"`{name}`" in readme, f"the README does not name {name}"

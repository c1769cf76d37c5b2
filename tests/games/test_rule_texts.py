"""Every rule ID an engine can cite has a title and a text a user can read (issue 12).

Refusals, score lines, prompts and tie-breaks name rules by ID; the digests the IDs come from are
not shipped, so each game ships its own texts (`data/rules.json`). These tests keep the texts and
the engines in step from both sides:

- statically: every rule ID in a game's source (string literals other than docstrings: refusal
  rule IDs, score-line rules, messages, prompts, variant descriptions) and in its component data
  (action cards name their rule) has a text, and every text is for an ID found there, so a text
  cannot outlive its rule or carry a mistyped ID;
- dynamically: bot-played matches of every variant, player count and option preset, with the
  conformance harness's random illegal moves, show only IDs that have texts (this catches IDs
  built at run time, which no scan of literals sees);
- the kernel's own IDs (`RULING`) have texts too, and IDs are unique across games, so an ID alone
  finds its game;
- the texts are Ringside's own words: no run of 8 words is shared with the digests.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.kernel.contract import Ruleset
from domain.kernel.errors import UnknownGameError
from domain.kernel.registry import all_games
from domain.kernel.rule_texts import RuleBook, UnknownRuleError, find_rule, game_rules, kernel_rule_book, rule_title
from tests.conformance.harness import cases, play_checked

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT.parent / "shared" / "rules"
ID_IN_TEXT = re.compile(r"\b[A-Z]{1,4}-\d+(?:\.\d+)?\b")
WHOLE_ID = re.compile(r"^[A-Z]{1,4}-\d+(?:\.\d+)?$")
GAMES = sorted(all_games())


def _string_constants(path: Path) -> list[tuple[str, int]]:
    """Every string literal of a module that is not a docstring (docstrings cite rules for the
    reader of the code; users never see them), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                  and isinstance(node.value.value, str)}
    return [(node.value, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def _json_ids(value: Any) -> set[str]:
    """Rule IDs held as whole strings in component data (an action card's `rule`)."""
    if isinstance(value, dict):
        return {found for item in value.values() for found in _json_ids(item)}
    if isinstance(value, list):
        return {found for item in value for found in _json_ids(item)}
    return {value} if isinstance(value, str) and WHOLE_ID.match(value) else set()


def _sources(ruleset: Ruleset[Any, Any]) -> tuple[list[Path], list[Path]]:
    """A game's Python files and component data: its whole package for a product game, the
    module alone for a test game living among other test helpers."""
    module = Path(sys.modules[type(ruleset).__module__].__file__ or "")
    if not type(ruleset).__module__.startswith("domain.games."):
        return [module], []
    data = [path for path in sorted((module.parent / "data").glob("*.json"))
            if path.name != Path(ruleset.rule_texts_file).name]
    return sorted(module.parent.glob("*.py")), data


@cache
def statically_cited(game: str) -> dict[str, list[str]]:
    """Rule ID -> where the game's source or data names it."""
    ruleset = all_games()[game]
    code, data = _sources(ruleset)
    found: dict[str, list[str]] = {}
    for path in code:
        for text, line in _string_constants(path):
            for rule_id in ID_IN_TEXT.findall(text):
                found.setdefault(rule_id, []).append(f"{path.name}:{line}")
    for path in data:
        for rule_id in _json_ids(json.loads(path.read_text(encoding="utf-8"))):
            found.setdefault(rule_id, []).append(path.name)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_in_the_engines_source_has_a_text(game: str) -> None:
    book = all_games()[game].rule_texts()
    cited = statically_cited(game)
    assert cited, f"{game} cites no rule at all: the scan is looking in the wrong place"
    foreign = {rule_id: where for rule_id, where in cited.items() if not book.owns(rule_id)}
    assert not foreign, f"{game} cites IDs outside its prefixes {book.prefixes} (a typo?): {foreign}"
    missing = {rule_id: where for rule_id, where in cited.items() if rule_id not in book.rules}
    assert not missing, f"{game} cites rules with no text in {all_games()[game].rule_texts_file}: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_text_is_for_a_rule_the_engine_cites(game: str) -> None:
    """A text whose ID the engine no longer names (a renumbered rule, a typo) would document a
    rule users never meet: drop it, or cite the rule."""
    orphans = sorted(set(all_games()[game].rule_texts().rules) - set(statically_cited(game)))
    assert not orphans, f"{game} has texts for IDs its engine never cites: {orphans}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_shown_in_bot_played_matches_has_a_text(game: str) -> None:
    """One seeded match per variant, player count and preset, deep checks every third step: score
    lines, the rules of refused random illegal moves, and IDs in prompts, reasons and tie-breaks."""
    seen: set[str] = set()
    for case in cases():
        if case.game == game:
            play_checked(case, 1, deep_every=3, cited=seen)
    texts = set(all_games()[game].rule_texts().rules) | set(kernel_rule_book().rules)
    assert seen, f"no {game} match showed any rule"
    assert not seen - texts, f"{game} matches showed rules with no text: {sorted(seen - texts)}"
    assert seen <= set(statically_cited(game)) | set(kernel_rule_book().rules), (
        f"rules shown at run time that the source scan misses: {sorted(seen - set(statically_cited(game)))}")


def test_the_kernels_own_rule_ids_have_texts() -> None:
    """The kernel cites rules of its own in any game: an arbiter's penalty is a score line with
    rule RULING (domain/kernel/fold.py). Every ScoreLine or IllegalMoveError the kernel builds
    with a literal rule has a text, and the kernel has no text for anything else."""
    cited: set[str] = set()
    for path in sorted((ROOT / "domain" / "kernel").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            position = {"ScoreLine": 3, "IllegalMoveError": 0}.get(node.func.id)
            if position is None:
                continue
            rule = node.args[position] if len(node.args) > position else next(
                (kw.value for kw in node.keywords if kw.arg == "rule"), None)
            if isinstance(rule, ast.Constant) and isinstance(rule.value, str):
                cited.add(rule.value)
    assert "RULING" in cited
    assert set(kernel_rule_book().rules) == cited
    assert rule_title("RULING") == "Arbiter's penalty"


def test_rule_ids_and_prefixes_belong_to_one_game_each() -> None:
    """An ID alone finds its game (refusal messages and problem documents carry no game)."""
    owner: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    for game, ruleset in all_games().items():
        book = ruleset.rule_texts()
        for prefix in book.prefixes:
            assert prefixes.setdefault(prefix, game) == game, f"prefix {prefix} is used by {prefixes[prefix]} too"
        for rule_id in book.rules:
            assert owner.setdefault(rule_id, game) == game
            assert rule_id not in kernel_rule_book().rules
            assert find_rule(rule_id).game == game


@pytest.mark.parametrize("game", GAMES)
def test_texts_are_short_and_titles_fit_beside_an_id(game: str) -> None:
    for entry in game_rules(game):
        assert entry.title and entry.text
        assert len(entry.title) <= 60 and "\n" not in entry.title
        sentences = [part for part in re.split(r"(?<=[.!?])\s+", entry.text) if part]
        assert 1 <= len(sentences) <= 3, f"{entry.id}: {len(sentences)} sentences"
        assert entry.text.endswith("."), entry.id


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9$]+", text.lower())


@pytest.mark.skipif(not DIGESTS.is_dir(), reason="the rules digests are not beside this checkout")
def test_texts_are_written_in_our_own_words() -> None:
    """No text shares a run of 8 words with the digests: they are paraphrased, not copied."""
    run = 8
    digest_runs: set[tuple[str, ...]] = set()
    for path in sorted(DIGESTS.glob("*.md")):
        words = _words(path.read_text(encoding="utf-8"))
        digest_runs.update(tuple(words[i:i + run]) for i in range(len(words) - run + 1))
    copied = {}
    for game in GAMES:
        for entry in game_rules(game):
            words = _words(entry.text)
            shared = [" ".join(words[i:i + run]) for i in range(len(words) - run + 1)
                      if tuple(words[i:i + run]) in digest_runs]
            if shared:
                copied[entry.id] = shared[0]
    assert not copied, f"texts copying the digests' wording: {copied}"


# ---- the lookup -------------------------------------------------------------------------------------


def test_an_id_finds_its_text_in_any_case_and_with_its_game() -> None:
    entry = find_rule(" cb-3.2 ")
    assert (entry.id, entry.game, entry.title) == ("CB-3.2", "carcassonne", "Matching edges")
    assert find_rule("CT-9.23", "circus-train").label() == "CT-9.23 Trying more talent"
    assert find_rule("RULING", "carcassonne").game is None


def test_an_unknown_id_suggests_close_ones_of_the_game_its_prefix_names() -> None:
    with pytest.raises(UnknownRuleError) as caught:
        find_rule("CB-3.9")
    assert caught.value.details["suggestions"][:3] and all(
        s.startswith("CB-3.") for s in caught.value.details["suggestions"])
    assert "did you mean" in caught.value.message
    with pytest.raises(UnknownRuleError, match=r"it is a rule of carcassonne"):
        find_rule("CB-3.2", "circus-train")
    with pytest.raises(UnknownGameError):
        find_rule("CB-3.2", "chess")
    assert rule_title("CB-3.9") is None and rule_title("CB-3.2", "chess") is None and rule_title(None) is None


def test_rule_books_are_validated() -> None:
    """A malformed text fails when the game's texts are loaded, not later in a message."""
    good = {"title": "A rule", "text": "What it says."}
    RuleBook.model_validate({"prefixes": ["CB"], "rules": {"CB-1.1": good}})
    for bad in (
        {"prefixes": ["CB"], "rules": {"BT-1.1": good}},  # another prefix
        {"prefixes": ["CB"], "rules": {"CB-1.1": {"title": "", "text": "x."}}},
        {"prefixes": ["CB"], "rules": {"CB-1.1": {"title": "Two\nlines", "text": "x."}}},
        {"prefixes": ["CB"], "rules": {"CB-1.1": {**good, "source": "digest"}}},
        {"prefixes": ["cb"], "rules": {}},
        {"prefixes": ["CB"], "rules": {"RULING": good}},  # bare words only in the kernel's book
    ):
        with pytest.raises(ValueError):
            RuleBook.model_validate(bad)

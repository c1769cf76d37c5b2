"""Rule texts: a short title and statement, in Ringside's own words, of every rule ID an engine cites.

Refusals and score lines name the rule they apply by ID (CB-3.2, CT-9.23), because an ID is short,
stable and what tests and verification reports compare. But the rules digests those IDs come from
are not part of the product, so an ID alone is a reference nobody can follow. Each game therefore
ships a data file beside its component set (`data/rules.json`, or the file its ruleset names) that
gives every ID its engine can cite a title and a one-to-three sentence statement; the kernel ships
its own for the IDs it cites itself (`RULING`, an arbiter's penalty; `POSITION`, points carried into a
match that starts from a position). The files are validated once,
when first used, so a malformed text is a startup error rather than a broken message later.

The CLI (`ringside rule-text`), the API (`/games/{game}/rules`), refusal messages and score tables
look titles up here. Rule IDs are unique across games (each game has its own prefixes), so an ID
alone finds its game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import RingsideError
from .strict import LAZY

if TYPE_CHECKING:
    from .contract import Ruleset

PREFIX = re.compile(r"^[A-Z]{1,4}$")
NUMBERED = re.compile(r"^(?P<prefix>[A-Z]{1,4})-(?P<major>\d+)(?:\.(?P<minor>\d+))?$")
BARE = re.compile(r"^[A-Z][A-Z_]*$")
"""A kernel rule's ID (`RULING`): no prefix, since it belongs to no one game."""


class RuleText(BaseModel):
    """One rule as a user reads it: a title short enough to print beside the ID, and a statement."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)

    title: str = Field(min_length=1, max_length=60)
    text: str = Field(min_length=1, max_length=600)

    @field_validator("title", "text")
    @classmethod
    def _tidy(cls, value: str) -> str:
        # Titles are printed inside one-line messages and table cells: a stray newline or edge
        # space there would break the line a script or a person reads.
        if value != value.strip() or "\n" in value:
            raise ValueError("must be one line without leading or trailing spaces")
        return value


class RuleBook(BaseModel):
    """A game's rule texts as shipped: the ID prefixes the game uses, and a text per ID."""

    model_config = ConfigDict(frozen=True, extra="forbid", **LAZY)

    prefixes: tuple[str, ...] = ()
    rules: dict[str, RuleText] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _ids(self) -> RuleBook:
        # An ID outside the game's own prefixes is a typo or another game's rule: either way the
        # lookup by prefix would never find it, so it is refused here.
        for prefix in self.prefixes:
            if not PREFIX.match(prefix):
                raise ValueError(f"prefix {prefix!r} is not 1-4 capital letters")
        for rule_id in self.rules:
            match = NUMBERED.match(rule_id)
            if match is not None and match["prefix"] in self.prefixes:
                continue
            if not self.prefixes and BARE.match(rule_id):
                continue
            raise ValueError(f"rule ID {rule_id!r} does not have the form {'|'.join(self.prefixes) or 'NAME'}-N.M")
        return self

    def owns(self, rule_id: str) -> bool:
        """Whether an ID has one of this book's prefixes (it may still lack a text)."""
        match = NUMBERED.match(rule_id)
        return match is not None and match["prefix"] in self.prefixes

    def ids(self) -> list[str]:
        return sorted(self.rules, key=rule_sort_key)


def rule_sort_key(rule_id: str) -> tuple[Any, ...]:
    """Rulebook order: by prefix, then section and rule number as numbers (CT-9.2 before CT-9.10)."""
    match = NUMBERED.match(rule_id)
    if match is None:
        return (rule_id, -1, -1)
    return (match["prefix"], int(match["major"]), int(match["minor"] or -1))


@cache
def load_rule_book(package: str, filename: str) -> RuleBook:
    """The rule texts shipped as `filename` inside `package`, validated once and then shared.

    A package without the file has no texts (an empty book): the coverage test reports every ID
    such a game cites, while a game added outside this repository still plays."""
    try:
        source = resources.files(package).joinpath(filename)
        if not source.is_file():
            return RuleBook()
        text = source.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        return RuleBook()
    try:
        return RuleBook.model_validate(json.loads(text))
    except (ValueError, ValidationError) as error:
        raise ValueError(f"the rule texts {package}/{filename} are invalid: {error}") from None


def kernel_rule_book() -> RuleBook:
    """The IDs the kernel itself cites in any game (an arbiter's penalty line is rule `RULING`)."""
    return load_rule_book("domain.kernel", "data/rules.json")


@dataclass(frozen=True)
class RuleEntry:
    """A rule text found by ID: `game` is the game whose engine cites it, None for a kernel rule
    (valid in every game)."""

    id: str
    title: str
    text: str
    game: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "text": self.text, "game": self.game}

    def label(self) -> str:
        """The ID with its title, as printed beside each other: `CB-3.2 Matching edges`."""
        return f"{self.id} {self.title}"


class UnknownRuleError(RingsideError):
    """An ID with no rule text in the game (or in any game): close IDs are suggested."""

    code = "unknown-rule"
    status = 404


def normalise(rule_id: str) -> str:
    """IDs as users type them (`cb-3.2 `) in the form the texts use (`CB-3.2`)."""
    return rule_id.strip().upper()


def _games(game: str | None) -> dict[str, Ruleset[Any, Any]]:
    from .registry import all_games, get_game

    if game is None:
        return all_games()
    ruleset = get_game(game)
    return {ruleset.name: ruleset}


def game_rules(game: str) -> list[RuleEntry]:
    """Every rule text a match of `game` can cite: the game's own, then the kernel's."""
    ruleset = _games(game)[game]
    book = ruleset.rule_texts()
    kernel = kernel_rule_book()
    return ([RuleEntry(rule_id, book.rules[rule_id].title, book.rules[rule_id].text, ruleset.name)
             for rule_id in book.ids()]
            + [RuleEntry(rule_id, kernel.rules[rule_id].title, kernel.rules[rule_id].text, None)
               for rule_id in kernel.ids()])


def lookup(rule_id: str, game: str | None = None) -> RuleEntry | None:
    """The text of `rule_id` (in `game`, or in whichever game has it), or None."""
    wanted = normalise(rule_id)
    kernel = kernel_rule_book().rules.get(wanted)
    if kernel is not None:
        return RuleEntry(wanted, kernel.title, kernel.text, None)
    for name, ruleset in _games(game).items():
        found = ruleset.rule_texts().rules.get(wanted)
        if found is not None:
            return RuleEntry(wanted, found.title, found.text, name)
    return None


def find_rule(rule_id: str, game: str | None = None) -> RuleEntry:
    """The text of `rule_id`, or an UnknownRuleError that suggests the closest IDs of the game the
    ID's prefix points to (of every game when the prefix is nobody's)."""
    found = lookup(rule_id, game)
    if found is not None:
        return found
    import difflib  # only for a miss: a process that finds its IDs, or never looks one up, never loads it

    wanted = normalise(rule_id)
    games = _games(game)
    books = {name: ruleset.rule_texts() for name, ruleset in games.items()}
    owners = [name for name, book in books.items() if book.owns(wanted)]
    pool = [rule for name in owners or books for rule in books[name].rules]
    if not owners:
        pool.extend(kernel_rule_book().rules)
    # Within the game the prefix names, near IDs are likely what was meant (CB-3.9 for CB-3.2);
    # across games only a near miss of the form is (CT9.23), not any ID with the same digits.
    suggestions = difflib.get_close_matches(wanted, pool, n=3, cutoff=0.6 if owners else 0.8)
    where = f" in {game}" if game is not None else ""
    message = f"no rule {wanted or rule_id!r}{where}"
    elsewhere = lookup(wanted) if game is not None else None
    if elsewhere is not None:
        message += f": it is a rule of {elsewhere.game}"
    elif suggestions:
        message += f"; did you mean {', '.join(suggestions)}?"
    if elsewhere is None and not owners and not suggestions:
        prefixes = sorted({prefix for book in books.values() for prefix in book.prefixes})
        kernel = ", ".join(kernel_rule_book().ids())
        message += f"; rule IDs start with {', '.join(p + '-' for p in prefixes)} or are {kernel}"
    raise UnknownRuleError(message, suggestions=suggestions)


def game_of(rule_id: str) -> str | None:
    """The game whose prefix `rule_id` has (whether or not the ID has a text there), or None."""
    wanted = normalise(rule_id)
    owners = [name for name, ruleset in _games(None).items() if ruleset.rule_texts().owns(wanted)]
    return owners[0] if len(owners) == 1 else None


def rule_title(rule_id: str | None, game: str | None = None) -> str | None:
    """The title of `rule_id` for printing beside it, or None when it has none. Never raises: a
    message decorated with titles must still be printed when a title is missing (an unknown game,
    an engine newer than its texts)."""
    if not rule_id:
        return None
    try:
        found = lookup(rule_id, game)
    except RingsideError:
        return None
    return found.title if found is not None else None

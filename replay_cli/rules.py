"""Rule IDs with their titles, and `ringside rule-text` to read a rule's text.

Refusals, score sheets and prompts cite rules by ID (CB-3.2, CT-9.23). The rulebooks behind the IDs
are not part of the product, so the CLI prints each ID with its title and offers the text itself
(`ringside rule-text CB-3.2`); the texts ship with the games (`domain/kernel/rule_texts.py`), so
this works offline and on every source, a bundle file or a remote server alike.

(`ringside rule` is something else: an arbiter's ruling on a match.)
"""

from __future__ import annotations

import re
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from .output import EXIT_USAGE, CliError, console, print_json

ID_IN_TEXT = re.compile(r"\b[A-Z]{1,4}-\d+(?:\.\d+)?\b")


def rule_label(rule_id: Any, game: str | None = None, title: str | None = None) -> str:
    """`CB-3.2 Matching edges`: the ID with its title (`title` when the caller has it, say from a
    server's problem document), or the ID alone when it has none."""
    from domain.kernel.rule_texts import rule_title  # here: a command that prints no rule never loads the texts

    text = str(rule_id)
    title = title or rule_title(text, game)
    return f"{text} {title}" if title else text


def refusal_message(rule: str, reason: str, game: str | None = None, title: str | None = None) -> str:
    """An illegal move as one line: `illegal move (CB-3.2) Matching edges: <reason>`. The title
    follows the parenthesised ID, so `illegal move (CB-3.2)` still reads as it always has."""
    from domain.kernel.rule_texts import rule_title

    title = title or rule_title(rule, game)
    return f"illegal move ({rule}) {title}: {reason}" if title else f"illegal move ({rule}): {reason}"


def prompt_rules(summary: dict[str, Any]) -> Text | None:
    """The rules the current decision's prompt cites, titled, with where to read them; None when
    it cites none. Printed at the play prompt, where the ID alone would leave a player guessing."""
    prompt = str((summary.get("decision") or {}).get("prompt") or "")
    cited = list(dict.fromkeys(ID_IN_TEXT.findall(prompt)))
    if not cited:
        return None
    game = summary.get("game")
    labels = "; ".join(rule_label(rule_id, game) for rule_id in cited)
    return Text(f"rule {labels} (its text: ringside rule-text {cited[0]})", style="dim")


@click.command("rule-text")
@click.argument("rule_id", metavar="[ID]", required=False)
@click.option("--game", metavar="GAME",
              help="The game whose rule ID is [default: the game its prefix names]. Without ID: every rule "
                   "the game's matches can cite.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def rule_text(rule_id: str | None, game: str | None, as_json: bool) -> None:
    """What rule ID means: its title and text, as refusals and score sheets cite it.

    The ID's prefix picks the game (CB and BT Carcassonne, CT and A Circus Train); RULING is an
    arbiter's penalty in any game. An unknown ID exits with status 2 and suggests close ones.

    \b
    Examples:
      ringside rule-text CB-3.2
      ringside rule-text ct-9.23 --json
      ringside rule-text --game carcassonne
    """
    from domain.kernel.rule_texts import UnknownRuleError, find_rule, game_of, game_rules

    if rule_id is None:
        if game is None:
            raise CliError("give a rule ID (e.g. ringside rule-text CB-3.2) or --game GAME to list a game's rules "
                           "(see: ringside rule-text --help)", EXIT_USAGE)
        entries = game_rules(game)
        if as_json:
            print_json({"game": game, "rules": [entry.to_json() for entry in entries]})
            return
        table = Table(title=f"Rules cited in {game} matches", title_justify="left")
        table.add_column("rule", no_wrap=True)
        table.add_column("title")
        table.add_column("text")
        for entry in entries:
            table.add_row(entry.id, entry.title, entry.text)
        console().print(table)
        return
    try:
        entry = find_rule(rule_id, game)
    except UnknownRuleError as error:
        listing = game or game_of(rule_id) or "GAME"
        raise CliError(f"{error.message} (every rule: ringside rule-text --game {listing})", EXIT_USAGE) from None
    if as_json:
        print_json(entry.to_json())
        return
    heading = Text()
    heading.append(entry.id, style="bold")
    heading.append(f"  {entry.title}", style="bold")
    heading.append(f"  ({entry.game or 'any game: a kernel rule'})", style="dim")
    console().print(heading)
    console().print(entry.text)

"""The `ringside` command: replay, adjudicate and annotate matches from the terminal.

Every command works on the local store (default data directory; --store for another SQLite data
directory or a PostgreSQL URL), on a bundle file (give its path where a MATCH is asked for), or on
a remote server (--url and --token). See docs/cli.md.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import click
from rich.text import Text

from domain.kernel.diff import diff as diff_views
from domain.kernel.viewers import Actor, Viewer
from domain.store.retention import format_duration, parse_duration

from .context import (
    RingsideGroup,
    default_name,
    json_option,
    parse_actor,
    path_is,
    seen_as,
    settings,
    source_options,
    viewer_option,
)
from .games import ONE_MATCH_COMMANDS, install_all
from .moves import load_json, parse_int_list, parse_move, parse_pairs
from .output import EXIT_INTERNAL, EXIT_REFUSED, EXIT_USAGE, CliError, console, print_json
from .render import describe_changes
from .render.common import actor_text, event_text
from .source import LocalSource, read_bundle_file
from .views import change_lines, log_table, notes_text, print_renderables, report_view, score_table, show_state

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(name="ringside", cls=RingsideGroup, context_settings=CONTEXT)
@source_options(envvars=True)
@click.version_option(package_name="ringside", message="ringside %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Ringside: replay, adjudicate and annotate recorded tabletop matches.

    MATCH is a match ID (or a unique prefix of one) in the store, or the path of an exported
    bundle file. Exit status: 0 ok, 1 refused by the rules or the record does not verify,
    2 bad usage or input, 3 internal error.

    \b
    Examples:
      ringside games
      ringside play carcassonne -p alice -p bot
      ringside show 3f2a --at 40 --as arbiter
      ringside verify match.ringside.jsonl
      ringside --store postgresql://me@db/ringside matches
    """
    obj = settings()
    if ctx.invoked_subcommand in ONE_MATCH_COMMANDS:
        obj.one_game = True  # the match's game is registered when the match is found (games.py)
    else:
        install_all()
    ctx.call_on_close(obj.close)


# ==== catalogue and listing ===========================================================================
@cli.command()
@source_options()
@json_option
def games(as_json: bool) -> None:
    """The game catalogue: variants, seats, options and bots.

    \b
    Examples:
      ringside games
      ringside games --json
    """
    catalogue = settings().main_source().games() if settings().url else _local_games()
    if as_json:
        print_json(catalogue)
        return
    from rich.table import Table

    for game in catalogue:
        table = Table(title=f"{game['name']}: {game['title']} (engine {game.get('engine_version')})",
                      title_justify="left")
        table.add_column("variant")
        table.add_column("seats")
        table.add_column("description")
        for name, info in game["variants"].items():
            default = " (default)" if name == game.get("default_variant") else ""
            table.add_row(name + default, f"{info['min_seats']}–{info['max_seats']}", info["description"])
        console().print(table)
        options = game.get("options") or {}
        if options:
            console().print("  options: " + "; ".join(
                f"{k} ({v.get('type')}, default {json.dumps(v.get('default'))})" for k, v in options.items()))
        console().print(f"  bots: {', '.join(game.get('bots') or [])}\n")


def _local_games() -> list[dict[str, Any]]:
    from .source import catalogue

    return catalogue()


@cli.command("matches")
@source_options()
@click.option("--game", help="Only this game.")
@click.option("--status", type=click.Choice(["active", "ended"]), help="Only active or ended matches.")
@click.option("--player", help="Only matches with a player whose name contains this.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@json_option
def matches(game: str | None, status: str | None, player: str | None, limit: int, as_json: bool) -> None:
    """List matches in the store, newest first.

    \b
    Examples:
      ringside matches
      ringside matches --game carcassonne --status ended --json
    """
    rows = settings().main_source().list_matches(game=game, status=status, player=player, limit=limit)
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table(title="Matches", title_justify="left")
    table.add_column("match", no_wrap=True, min_width=36)
    for column in ("game", "variant", "players", "status", "events", "created"):
        table.add_column(column)
    for row in rows:
        players = row.get("players") or []
        names = ", ".join(p.get("player", str(p)) if isinstance(p, dict) else str(p) for p in players)
        table.add_row(str(row.get("match_id")), str(row.get("game")), str(row.get("variant", "")), names,
                      str(row.get("status")) + ("" if row.get("official", True) else " (fork)")
                      + (" (from a position)" if row.get("setup") == "position" else ""),
                      str(row.get("version", row.get("events", ""))), str(row.get("created_at", ""))[:19])
    console().print(table if rows else Text("no matches"))


# ==== creating ========================================================================================
def _players(specs: tuple[str, ...], minimum: int) -> list[str]:
    players = [spec.strip() for spec in specs if spec.strip()]
    if not players:
        players = [f"player {n + 1}" for n in range(max(minimum, 1))]
    return players


def _create_options(variant: str | None, option: tuple[str, ...], options_json: str | None,
                    randomness: str, undo_policy: str, entropy: tuple[str, ...],
                    components: Path | None, seat_entropy: bool = False) -> dict[str, Any]:
    options = parse_pairs(option)
    if options_json:
        loaded = load_json(options_json, "--options-json")
        if not isinstance(loaded, dict):
            raise CliError("--options-json must be a JSON object")
        options = {**loaded, **options}
    body: dict[str, Any] = {"variant": variant, "options": options, "randomness": randomness,
                            "undo_policy": undo_policy, "entropy": list(entropy)}
    if seat_entropy:
        body["entropy_from"] = "seats"
    if components is not None:
        try:
            text = components.read_text(encoding="utf-8")
        except (OSError, ValueError) as error:
            raise CliError(f"cannot read the component set {components}: {error}") from None
        body["components"] = load_json(text, f"the component set {components}")
    return body


def create_options(f: Any) -> Any:
    f = click.option("--components", type=click.Path(dir_okay=False, path_type=Path),
                     help="A JSON component set to play with instead of the shipped one.")(f)
    f = click.option("--seat-entropy", is_flag=True,
                     help="Every seat adds its own entropy (ringside entropy) after the seed commitment is "
                          "recorded; nothing is drawn before all of it is in (server randomness).")(f)
    f = click.option("--entropy", multiple=True, help="Players' own entropy mixed into the chance seed.")(f)
    f = click.option("--undo-policy", default="own-turn", show_default=True,
                     type=click.Choice(["none", "own-turn", "consent", "arbiter-only"]))(f)
    f = click.option("--randomness", default="server", show_default=True, type=click.Choice(["server", "recorded"]),
                     help="server: outcomes derived from a committed seed; recorded: a recorder enters them.")(f)
    f = click.option("--options-json", metavar="JSON", help="Game options as one JSON object.")(f)
    f = click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="A game option (repeatable).")(f)
    f = click.option("--variant", help="The variant (default: the game's default).")(f)
    return f


@cli.command()
@source_options()
@click.argument("game")
@click.option("-p", "--player", "players", multiple=True, metavar="NAME", help="A seat's player, in seat order.")
@create_options
@click.option("--position", "position_file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
              metavar="FILE", help="Start from the position in FILE (JSON, - for stdin; see docs/positions.md) "
                                   "instead of the setup.")
@json_option
def new(game: str, players: tuple[str, ...], variant: str | None, option: tuple[str, ...],
        options_json: str | None, randomness: str, undo_policy: str, entropy: tuple[str, ...],
        seat_entropy: bool, components: Path | None, position_file: Path | None, as_json: bool) -> None:
    """Start a match of GAME; prints its ID.

    \b
    Examples:
      ringside new carcassonne -p alice -p bob
      ringside new carcassonne -p a -p b --variant base --undo-policy consent
      ringside new carcassonne -p a -p b -o circus=false --randomness recorded --json
      ringside new carcassonne -p a -p b --seat-entropy        (then: ringside entropy MATCH --seat N TEXT)
      ringside new circus-train -p a -p b --position august.json --randomness recorded
    """
    from domain.kernel.registry import get_game

    body = _create_options(variant, option, options_json, randomness, undo_policy, entropy, components,
                           seat_entropy)
    if position_file is not None:
        body["position"] = _read_position(position_file)
    minimum = 2
    try:
        ruleset = get_game(game)
        minimum = ruleset.variants[variant or ruleset.default_variant].min_seats
    except Exception:
        pass
    accepted = settings().main_source().create(game, _players(players, minimum), **body)
    if as_json:
        print_json(accepted)
        return
    console().print(f"created {game} match {accepted['match_id']} "
                    f"(events 1..{accepted.get('version')})" + (" from a position" if position_file else ""))
    if seat_entropy:
        console().print("every seat adds its entropy before the first draw: ringside entropy MATCH --seat N TEXT")
    print_tokens(accepted)


def _read_position(path: Path) -> Any:
    """A position file's JSON (an object of the game's position format; checked by the match)."""
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, ValueError) as error:
        raise CliError(f"cannot read the position {path}: {error}") from None
    loaded = load_json(text, f"the position {path}")
    if not isinstance(loaded, dict):
        raise CliError(f"the position {path} must be a JSON object (the game's position format)")
    return loaded


def print_tokens(answer: dict[str, Any]) -> None:
    """The tokens a server minted for a new match: shown once, so print them all."""
    tokens = answer.get("tokens")
    if not tokens:
        return
    console().print("tokens (shown only now; keep them):")
    for seat in tokens.get("seats", []):
        console().print(f"  seat {seat['seat']} ({seat['player']}): {seat['token']}")
    for role in ("arbiter", "recorder"):
        if tokens.get(role):
            console().print(f"  {role}: {tokens[role]}")


# ==== reading =========================================================================================
@cli.command()
@source_options()
@click.argument("match")
@click.option("--at", type=click.IntRange(min=1), metavar="N", help="The position after event N (default: now).")
@viewer_option()
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), metavar="FILE",
              help="Write the board as an SVG picture to FILE (- for standard output) instead, as the replay "
                   "viewer draws it.")
@json_option
def show(match: str, at: int | None, viewer: Viewer, svg_file: Path | None, as_json: bool) -> None:
    """The state of MATCH at a position, as a viewer may see it.

    Carcassonne is drawn as a map of tiles and followers; other games as panels of board,
    players and scores. --svg writes the board picture the replay viewer shows instead.

    \b
    Examples:
      ringside show 3f2a
      ringside show 3f2a --at 25 --as seat:1
      ringside show 3f2a --at 25 --as seat:1 --svg board.svg
      ringside show match.ringside.jsonl --as arbiter --json
    """
    source, match_id = settings().match(match)
    view = source.state(match_id, viewer, at)
    if as_json and svg_file is None:
        print_json(view)
        return
    summary = source.summary(match_id) if at is None else source.summary_at(match_id, at)
    if svg_file is not None:
        from .viewer import write_board  # the boards are imported for --svg only: show stays a fast path

        write_board(svg_file, summary, view, seen_as(source, match_id, viewer))
        return
    show_state(summary, view, seen_as(source, match_id, viewer))


@cli.command()
@source_options()
@click.argument("match")
@click.option("--at", type=click.IntRange(min=1), metavar="N", help="The table after event N (default: now).")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write the position (JSON) to FILE instead of printing it.")
@viewer_option()
@json_option
def position(match: str, at: int | None, output: Path | None, viewer: Viewer, as_json: bool) -> None:
    """The table of MATCH at a point, in the game's position format, as a viewer may see it.

    Seen as the arbiter, it is a position a new match can start from (ringside new GAME
    --position FILE, with the same variant, options and number of players). Positions describe
    the table between the steps a player would name (Circus Train: between turns); at another
    point the command says so.

    \b
    Examples:
      ringside position 3f2a --at 40
      ringside position 3f2a --at 40 --as arbiter -o late-game.json
      ringside new carcassonne -p a -p b --position late-game.json
    """
    source, match_id = settings().match(match)
    answer = source.position(match_id, viewer, at)
    seen_as(source, match_id, viewer)
    if output is not None:
        try:
            output.write_text(json.dumps(answer["position"], indent=2, sort_keys=True, ensure_ascii=False) + "\n",
                              encoding="utf-8")
        except OSError as error:
            raise CliError(f"cannot write {output}: {error}") from None
        if as_json:
            print_json({key: value for key, value in answer.items() if key != "position"} | {"output": str(output)})
            return
        import shlex

        options = shlex.quote(json.dumps(answer["options"], sort_keys=True, separators=(",", ":")))
        console().print(f"wrote the position after event {answer['seq']} (as {answer['viewer']}) to {output}; "
                        f"start a match from it: ringside new {answer['game']} --variant {answer['variant']} "
                        f"--options-json {options} --position {shlex.quote(str(output))} "
                        f"with {answer['seats']} players (-p NAME each)")
        return
    print_json(answer if as_json else answer["position"])


def _notes_by_seq(notes: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    by_seq: dict[int, list[dict[str, Any]]] = {}
    for note in notes:
        by_seq.setdefault(int(note["seq"]), []).append(note)
    return by_seq


@cli.command()
@source_options()
@click.argument("match")
@click.option("--from", "start", default=1, show_default=True, type=click.IntRange(min=1), help="First event.")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many events.")
@viewer_option()
@json_option
def log(match: str, start: int, limit: int | None, viewer: Viewer, as_json: bool) -> None:
    """The events of MATCH: sequence numbers, actors, times, annotations; retracted moves marked.

    \b
    Examples:
      ringside log 3f2a
      ringside log 3f2a --from 40 --limit 20 --as arbiter
      ringside log match.ringside.jsonl --json
    """
    source, match_id = settings().match(match)
    events = source.log(match_id, viewer, start, limit)
    notes = _notes_by_seq(source.annotations(match_id, viewer))
    if as_json:
        print_json([{**event, "annotations": notes.get(event["seq"], [])} for event in events])
        return
    summary = source.summary(match_id)
    table = log_table(summary, events, notes, _narrated(source, match_id, summary, viewer, events))
    table.title = f"{table.title}  as {seen_as(source, match_id, viewer)}"
    console().print(table)


def _narrated(source: Any, match_id: str, summary: dict[str, Any], viewer: Viewer,
              events: list[dict[str, Any]]) -> dict[int, tuple[str, list[Text]]]:
    """The sentences and score lines of `events`. The narrator reads the log from #1, because a
    sentence may name something an earlier event says (the tile drawn before a placement)."""
    from .render.narrate import narrate_log

    if not events:
        return {}
    first, last = int(events[0]["seq"]), int(events[-1]["seq"])
    earlier = source.log(match_id, viewer, 1, first - 1) if first > 1 else []
    return narrate_log(summary, earlier + events, source.score_lines(match_id, first, last))


@cli.command()
@source_options()
@click.argument("match")
@click.option("--from", "start", type=click.IntRange(min=1), help="Start at this position [default: 1].")
@click.option("--to", "stop", type=click.IntRange(min=1), help="Batch mode: stop at this position [default: the end].")
@click.option("--interactive/--batch", default=None,
              help="Walk with keys (default when stdin is a terminal), or print every step from --from to --to.")
@click.option("--board", is_flag=True, help="Also draw the state after each step.")
@viewer_option()
@json_option
def step(match: str, start: int | None, stop: int | None, interactive: bool | None, board: bool,
         viewer: Viewer, as_json: bool) -> None:
    """Walk through MATCH one event at a time, showing what each event changed.

    Interactively: n / space / → next, p / b / ← back, g go to a position, s show the board,
    q quit. In batch mode (scripts, or stdin not a terminal) every step from --from to --to is printed.

    \b
    Examples:
      ringside step 3f2a
      ringside step 3f2a --batch --from 10 --to 20 --as seat:0
      ringside step match.ringside.jsonl --batch --json
    """
    source, match_id = settings().match(match)
    summary = source.summary(match_id)
    last = int(summary["version"])
    log_entries = source.log(match_id, viewer)
    events = {e["seq"]: e for e in log_entries}
    notes = _notes_by_seq(source.annotations(match_id, viewer))
    if interactive is None:
        interactive = sys.stdin.isatty() and not as_json
    first = start or 1
    if first > last:
        raise CliError(f"the match has {last} events, not {first}")

    def changes_at(seq: int) -> list[dict[str, Any]]:
        if seq <= 1:
            return []
        result: list[dict[str, Any]] = source.diff(match_id, seq - 1, seq, viewer)["changes"]
        return result

    from .render.narrate import narrate_log

    said = narrate_log(summary, log_entries, {})  # sentences now; score lines as each step is shown
    states: dict[int, dict[str, Any]] = {}
    sheets: dict[int, list[dict[str, Any]]] = {}

    def state_at(seq: int) -> dict[str, Any]:
        if seq not in states:
            if len(states) > 4:
                states.clear()
            states[seq] = source.state(match_id, viewer, seq)
        return states[seq]

    def scoring_at(seq: int) -> list[Text]:
        from .render.narrate import Narrator

        if seq <= 1:
            return []
        for at in (seq - 1, seq):
            if at not in sheets:
                sheets[at] = list(source.score(match_id, at)["lines"])
        return Narrator(summary).scoring(sheets[seq - 1], sheets[seq])

    def print_step(seq: int) -> None:
        entry = events.get(seq, {})
        line = Text(f"#{seq}/{last} ", style="bold")
        line.append(f"{entry.get('kind')}: {said.get(seq, (event_text(entry), []))[0]}")
        if entry.get("retracted_by") is not None:
            line.append(f"  [retracted by #{entry['retracted_by']}]", style="italic")
        console().print(line)
        if entry.get("kind") == "move" and not (entry.get("payload") or {}).get("hidden"):
            console().print(Text(f"    recorded as: {event_text(entry)}", style="dim"))
        for text in scoring_at(seq):
            console().print(Text("    ") + text)
        for note in notes.get(seq, []):
            console().print(Text("  ✎ ") + notes_text(summary, [note]))
        if seq > 1:
            before, after = state_at(seq - 1), state_at(seq)
            for text in describe_changes(summary, before, after) or change_lines(diff_views(before, after)):
                console().print(text)
        if board:
            show_state(summary, state_at(seq), seen_as(source, match_id, viewer))

    if not interactive:
        end = min(stop or last, last)
        if as_json:
            print_json([{"seq": seq, "event": events.get(seq), "annotations": notes.get(seq, []),
                         "changes": changes_at(seq)} for seq in range(first, end + 1)])
            return
        sheets.update(source.score_lines(match_id, first, end))  # one walk, not two folds a step
        for seq in range(first, end + 1):
            print_step(seq)
        return
    seq = first
    print_step(seq)
    while True:
        console().print(Text("[n]ext [p]rev [g]oto [s]how [q]uit", style="dim"))
        try:
            key = click.getchar()
        except (EOFError, click.Abort):
            return
        if key in ("q", "Q", "\x03", "\x04", ""):
            return
        if key in ("n", " ", "\r", "\n", "\x1b[C", "j"):
            if seq >= last:
                console().print("(at the last event)")
                continue
            seq += 1
        elif key in ("p", "b", "\x1b[D", "k"):
            if seq <= 1:
                console().print("(at the first event)")
                continue
            seq -= 1
        elif key == "g":
            try:
                target = click.prompt("go to position", type=click.IntRange(1, last), default=seq)
            except click.Abort:
                return
            seq = int(target)
        elif key == "s":
            show_state(summary, source.state(match_id, viewer, seq), seen_as(source, match_id, viewer))
            continue
        else:
            continue
        print_step(seq)


@cli.command()
@source_options()
@click.argument("match")
@click.argument("a", type=click.IntRange(min=1))
@click.argument("b", type=click.IntRange(min=1))
@viewer_option()
@json_option
def diff(match: str, a: int, b: int, viewer: Viewer, as_json: bool) -> None:
    """What changed in MATCH between positions A and B, as a viewer sees it.

    \b
    Examples:
      ringside diff 3f2a 10 20
      ringside diff 3f2a 1 50 --as arbiter --json
    """
    source, match_id = settings().match(match)
    if as_json:
        print_json(source.diff(match_id, a, b, viewer))
        return
    from .render.narrate import Narrator

    summary = source.summary(match_id)
    before, after = source.state(match_id, viewer, a), source.state(match_id, viewer, b)
    console().print(Text(f"changes from #{a} to #{b} as {seen_as(source, match_id, viewer)}:", style="bold"))
    described = describe_changes(summary, before, after)
    for line in described or change_lines(diff_views(before, after), limit=200):
        console().print(line)
    scored = Narrator(summary).scoring(source.score(match_id, a)["lines"], source.score(match_id, b)["lines"])
    if scored:
        console().print(Text(f"scored from #{a} to #{b}:", style="bold"))
        for line in scored:
            console().print(Text("  ") + line)
    if described is not None:
        console().print(Text("(--json lists every change as a JSON path)", style="dim"))


@cli.command()
@source_options()
@click.argument("match")
@click.option("--at", type=click.IntRange(min=1), metavar="N", help="The score sheet after event N (default: now).")
@json_option
def score(match: str, at: int | None, as_json: bool) -> None:
    """The score sheet of MATCH, every line with the rule ID that produced it, at any position.

    \b
    Examples:
      ringside score 3f2a
      ringside score 3f2a --at 120 --json
    """
    source, match_id = settings().match(match)
    sheet = source.score(match_id, at)
    if as_json:
        print_json(sheet)
        return
    print_renderables(score_table(source.summary(match_id), sheet))


# ==== commenting and adjudicating ======================================================================
@cli.command()
@source_options()
@click.argument("match")
@click.argument("seq", required=False)
@click.argument("text", required=False)
@click.option("-g", "--glyph", "glyphs", multiple=True, help="A glyph: ! ? !! ?? !? ?! (repeatable).")
@click.option("-t", "--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--visibility", default="public", show_default=True, metavar="public|seat:N|arbiter")
@click.option("--author", default=None, metavar="ACTOR",
              help="Who writes it: arbiter[:NAME], seat:N, recorder[:NAME] [default: arbiter:$USER].")
@click.option("--edit", "edit_id", metavar="ID", help="Edit annotation ID instead (give the new TEXT).")
@click.option("--list", "list_", is_flag=True, help="List the annotations instead.")
@viewer_option("arbiter")
@json_option
def annotate(match: str, seq: str | None, text: str | None, glyphs: tuple[str, ...], tags: tuple[str, ...],
             visibility: str, author: str | None, edit_id: str | None, list_: bool, viewer: Viewer,
             as_json: bool) -> None:
    """Annotate event SEQ of MATCH with TEXT (anchored to the event's hash), or list/edit notes.

    \b
    Examples:
      ringside annotate 3f2a 42 "brilliant farmer placement" -g '!!' -t endgame
      ringside annotate 3f2a 43 "should have closed the city" -g '?' --visibility seat:1
      ringside annotate 3f2a --list --json
      ringside annotate 3f2a --edit a2 "a clearer comment"
    """
    actor = parse_actor(author or f"arbiter:{default_name()}")
    if list_:
        source, match_id = settings().match(match)
        items = source.annotations(match_id, viewer)
        if as_json:
            print_json(items)
            return
        summary = source.summary(match_id)
        for item in items:
            console().print(f"#{item['seq']} [{item['id']}] {' '.join(item.get('glyphs', []))} {item['text']} "
                            f"({item.get('visibility')}; {actor_text(item.get('author') or {}, summary)})")
        if not items:
            console().print("no annotations")
        return
    source, match_id = settings().match(match)
    if edit_id is not None:
        new_text = text if text is not None else seq
        changes: dict[str, Any] = {"text": new_text, "glyphs": list(glyphs) or None, "tags": list(tags) or None,
                                   "visibility": visibility if visibility != "public" else None}
        item = source.edit_annotation(match_id, edit_id, actor, **changes)
    else:
        if seq is None or text is None:
            raise CliError("give the event number SEQ and the TEXT (or --list)")
        if not seq.isdigit() or int(seq) < 1:
            raise CliError(f"SEQ must be an event number (1, 2, ...), not {seq!r}")
        item = source.annotate(match_id, int(seq), text, actor, list(glyphs), list(tags), visibility)
    if as_json:
        print_json(item)
        return
    console().print(f"annotation {item['id']} on event #{item['seq']}")


@cli.group(cls=RingsideGroup, context_settings=CONTEXT)
def undo() -> None:
    """Take moves back: request, answer (consent or an arbiter), redo, list.

    \b
    Examples:
      ringside undo request 3f2a --seat 1
      ringside undo answer 3f2a u17 --accept --seat 0
      ringside undo answer 3f2a u17 --decline --arbiter
      ringside undo list 3f2a
    """


@undo.command("request")
@source_options()
@click.argument("match")
@click.option("--seat", required=True, type=click.IntRange(min=0), help="The seat taking its moves back.")
@click.option("--from", "from_seq", type=click.IntRange(min=1), help="From this move on [default: its last move].")
@click.option("--reason", default="", help="Why.")
@json_option
def undo_request(match: str, seat: int, from_seq: int | None, reason: str, as_json: bool) -> None:
    """Ask to take back SEAT's moves (done at once within the last barrier, else it waits for consent).

    \b
    Example:
      ringside undo request 3f2a --seat 0 --reason "misclick"
    """
    source, match_id = settings().match(match)
    result = source.request_undo(match_id, seat, from_seq, reason)
    if as_json:
        print_json(result)
        return
    appended = result.get("appended", [])
    request_id = _request_id(source, match_id, int(result["receipt"]["seq"]))
    done = len(appended) > 1
    console().print(f"undo request {request_id} recorded at #{result['receipt']['seq']}: "
                    + ("moves retracted" if done else "waiting for consent / an arbiter"))


def _request_id(source: Any, match_id: str, seq: int) -> str:
    try:
        entry = source.log(match_id, Viewer.arbiter(), seq, 1)[0]
        return str(entry["payload"]["request"])
    except Exception:
        return "?"


def _answer_actor(seat: int | None, arbiter: str | None) -> tuple[int | None, Actor]:
    if seat is not None and arbiter is not None:
        raise CliError("answer either as --seat N or as --arbiter, not both")
    if seat is None and arbiter is None:
        raise CliError("say who answers: --seat N or --arbiter [NAME]")
    if seat is not None:
        return seat, Actor.player(seat)
    return None, Actor.arbiter(arbiter or default_name())


@undo.command("answer")
@source_options()
@click.argument("match")
@click.argument("request_id")
@click.option("--accept/--decline", required=True, help="Consent or refuse.")
@click.option("--seat", type=click.IntRange(min=0), help="Answer as this seat.")
@click.option("--arbiter", is_flag=False, flag_value="", default=None, metavar="[NAME]", help="Answer as an arbiter.")
@json_option
def undo_answer(match: str, request_id: str, accept: bool, seat: int | None, arbiter: str | None,
                as_json: bool) -> None:
    """Answer undo request REQUEST_ID: a seat's consent or refusal, or an arbiter's decision.

    \b
    Examples:
      ringside undo answer 3f2a u17 --accept --seat 0
      ringside undo answer 3f2a u17 --decline --arbiter "Chief Arbiter"
    """
    source, match_id = settings().match(match)
    seat_, actor = _answer_actor(seat, arbiter)
    result = source.answer_undo(match_id, request_id, accept, seat_, actor)
    if as_json:
        print_json(result)
        return
    done = len(result.get("appended", [])) > 1
    console().print(f"answer recorded at #{result['receipt']['seq']}" + ("; moves retracted" if done else ""))


@undo.command("redo")
@source_options()
@click.argument("match")
@click.option("--seat", type=click.IntRange(min=0), help="As the seat whose moves were taken back.")
@click.option("--arbiter", is_flag=False, flag_value="", default=None, metavar="[NAME]", help="As an arbiter.")
@json_option
def undo_redo(match: str, seat: int | None, arbiter: str | None, as_json: bool) -> None:
    """Put back the moves of the last retraction (while nothing else happened since).

    \b
    Example:
      ringside undo redo 3f2a --seat 0
    """
    source, match_id = settings().match(match)
    seat_, actor = _answer_actor(seat, arbiter)
    result = source.redo(match_id, seat_, actor)
    if as_json:
        print_json(result)
        return
    console().print(f"redone at #{result['receipt']['seq']}")


@undo.command("list")
@source_options()
@click.argument("match")
@json_option
def undo_list(match: str, as_json: bool) -> None:
    """Pending undo requests of MATCH.

    \b
    Example:
      ringside undo list 3f2a
    """
    source, match_id = settings().match(match)
    pending = source.summary(match_id).get("pending_undo") or []
    if as_json:
        print_json(pending)
        return
    for item in pending:
        needs = "an arbiter" if item.get("arbiter_needed") else f"seats {item.get('consent_from')}"
        console().print(f"{item['id']}: seat {item['seat']} from #{item['from_seq']}, needs {needs}, "
                        f"answers {item.get('answers')}")
    if not pending:
        console().print("no pending undo requests")


RULINGS = ["correction", "penalty", "forfeit", "adjudicated-result", "illegal-move-stands"]


@cli.command()
@source_options()
@click.argument("match")
@click.argument("kind", type=click.Choice(RULINGS))
@click.option("--from", "from_seq", type=click.IntRange(min=1), help="correction: take back from this event.")
@click.option("--seat", type=click.IntRange(min=0), help="penalty / forfeit / illegal-move-stands: the seat.")
@click.option("--points", type=int, help="penalty: points taken off.")
@click.option("--ranks", metavar="R0,R1,...", help="adjudicated-result: a rank per seat, like 1,2 or 1,1,3.")
@click.option("--move", "move_text", metavar="MOVE", help="illegal-move-stands: the move (JSON or `type k=v`).")
@click.option("--note", default="", help="The arbiter's reasons.")
@click.option("--arbiter", default=None, metavar="NAME", help="The arbiter's name [default: $USER].")
@json_option
def rule(match: str, kind: str, from_seq: int | None, seat: int | None, points: int | None, ranks: str | None,
         move_text: str | None, note: str, arbiter: str | None, as_json: bool) -> None:
    """Record an arbiter's ruling on MATCH: correction, penalty, forfeit, adjudicated-result or
    illegal-move-stands.

    \b
    Examples:
      ringside rule 3f2a correction --from 57 --note "tile was misplaced"
      ringside rule 3f2a penalty --seat 1 --points 5 --note "slow play"
      ringside rule 3f2a forfeit --seat 2
      ringside rule 3f2a adjudicated-result --ranks 1,2
      ringside rule 3f2a illegal-move-stands --seat 0 --move 'place x=3 y=0 rotation=1'
    """
    body: dict[str, Any] = {"ruling": kind, "note": note}
    need = {"correction": ["from"], "penalty": ["seat", "points"], "forfeit": ["seat"],
            "adjudicated-result": ["ranks"], "illegal-move-stands": ["seat", "move"]}[kind]
    given = {"from": from_seq, "seat": seat, "points": points, "ranks": ranks, "move": move_text}
    missing = [f"--{name}" for name in need if given[name] is None]
    if missing:
        raise CliError(f"a {kind} ruling needs {' and '.join(missing)}")
    if from_seq is not None:
        body["from_seq"] = from_seq
    if seat is not None:
        body["seat"] = seat
    if points is not None:
        body["points"] = points
    if ranks is not None:
        body["ranks"] = parse_int_list(ranks, "--ranks")
    if move_text is not None:
        body["move"] = parse_move(move_text)
    source, match_id = settings().match(match)
    result = source.ruling(match_id, body, Actor.arbiter(arbiter or default_name()))
    if as_json:
        print_json(result)
        return
    console().print(f"{kind} ruling recorded at #{result['receipt']['seq']} (now {result.get('version')} events)")


@cli.command()
@source_options()
@click.argument("match")
@click.argument("text")
@click.option("--seat", required=True, type=click.IntRange(min=0), help="The seat whose entropy TEXT is.")
@click.option("--arbiter", "as_arbiter", is_flag=True,
              help="Enter it as an arbiter for the seat (the record says so; the arbiter can read the seed).")
@json_option
def entropy(match: str, text: str, seat: int, as_arbiter: bool, as_json: bool) -> None:
    """Add SEAT's entropy TEXT to MATCH (a match created with --seat-entropy).

    Each seat adds entropy once, before the first chance draw, after the server's seed commitment
    is in the record; when the last seat's is in, the waiting draws happen. Every outcome derives
    from the seed and all the entropy, so neither the server nor any player can choose one. TEXT
    is 1–200 characters of anything you make up; it is public once recorded.

    \b
    Examples:
      ringside entropy 3f2a --seat 0 "my cat walked on the keyboard: jkdfh"
      ringside --url https://rs.example --token rs_... entropy 3f2a --seat 1 "dice: 5 2 6 6"
      ringside entropy 3f2a --seat 1 --arbiter "for the absent player"
    """
    source, match_id = settings().match(match)
    actor = Actor("arbiter", seat, default_name()) if as_arbiter else Actor.player(seat)
    result = source.add_entropy(match_id, seat, text, actor)
    if as_json:
        print_json(result)
        return
    appended = result.get("appended", [])
    line = f"seat {seat}'s entropy recorded at #{result['receipt']['seq']}"
    if len(appended) > 1:
        line += f"; the waiting draws followed (#{appended[1]}–#{appended[-1]})"
    else:
        waiting = source.summary(match_id).get("awaiting_entropy") or []
        if waiting:
            line += f"; the first draw still waits for seats {', '.join(map(str, waiting))}"
    console().print(line)


@cli.command()
@source_options()
@click.argument("match")
@click.option("--at", required=True, type=click.IntRange(min=1), metavar="N", help="Branch after event N.")
@click.option("-p", "--player", "players", multiple=True, help="Players of the fork (default: the same).")
@json_option
def fork(match: str, at: int, players: tuple[str, ...], as_json: bool) -> None:
    """A what-if branch of MATCH from position N: a new, unofficial match.

    \b
    Examples:
      ringside fork 3f2a --at 40
      ringside fork 3f2a --at 40 -p me -p bot --json
    """
    source, match_id = settings().match(match)
    if not source.writable:
        raise CliError("forking needs the match in a store: import the bundle first (ringside import FILE)")
    result = source.fork(match_id, at, list(players) or None)
    if as_json:
        print_json(result)
        return
    console().print(f"fork {result['match_id']} of {match_id} at #{at}")
    print_tokens(result)


@cli.command()
@source_options()
@click.argument("match")
@json_option
def reveal(match: str, as_json: bool) -> None:
    """Show MATCH's chance seed: to an arbiter (your local store, or --url with the arbiter's token)
    at any time, privately; to anyone once the match is over, when the seed is in the record.
    Nothing is recorded: the end of the match publishes the seed, and publishing it earlier would
    expose every future draw.

    \b
    Examples:
      ringside reveal 3f2a
      ringside reveal 3f2a --json
    """
    source, match_id = settings().match(match)
    result = source.arbiter_seed(match_id)
    if as_json:
        print_json(result)
        return
    console().print(f"seed {result['seed']} (commitment {result['commitment']}; "
                    f"{'in the record' if result.get('revealed_in_record') else 'not yet in the record'})")


# ==== bundles and verification =========================================================================
@cli.command("export")
@source_options()
@click.argument("match")
@click.option("-o", "--output", "output", metavar="FILE",
              help="Where to write the bundle; - for stdout [default: ./<match-id>.ringside.jsonl].")
def export_(match: str, output: str | None) -> None:
    """Export MATCH as a self-contained, verifiable bundle (JSON Lines).

    \b
    Examples:
      ringside export 3f2a
      ringside export 3f2a -o final.ringside.jsonl
      ringside export 3f2a -o - | gzip > final.ringside.jsonl.gz
    """
    source, match_id = settings().match(match)
    text = source.export(match_id)
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(output or f"{match_id}.ringside.jsonl")
    try:
        path.write_text(text, encoding="utf-8", newline="")
    except OSError as error:
        raise CliError(f"cannot write {path}: {error.strerror or error}") from None
    click.echo(f"exported {match_id} to {path}", err=True)


@cli.command("import")
@source_options()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@json_option
def import_(files: tuple[Path, ...], as_json: bool) -> None:
    """Import bundle FILES into the store (each is verified first; the match keeps its ID and hashes).

    A file may be gzipped (told by its content, whatever its name), up to 256 MiB decompressed.

    \b
    Examples:
      ringside import final.ringside.jsonl
      ringside import final.ringside.jsonl.gz
      ringside --store /srv/ringside import *.ringside.jsonl --json
    """
    source = settings().main_source()
    imported = []
    for path in files:
        text = read_bundle_file(path)
        if "\r" in text:
            raise CliError(f"{path} has CRLF (or CR) line ends: a bundle is canonical JSON Lines with LF line ends, "
                           "exactly as exported (was it converted by an editor, a mail client or git's autocrlf?)")
        match_id = source.import_bundle(text)
        tokens = getattr(source, "tokens", {}).get(match_id)
        imported.append({"file": str(path), "match_id": match_id, **({"tokens": tokens} if tokens else {})})
        if not as_json:
            console().print(f"imported {path} as match {match_id}")
            print_tokens({"tokens": tokens})
    if as_json:
        print_json(imported if len(imported) > 1 else imported[0])


def _read_receipts(path: Path) -> list[Any]:
    """Receipts as JSON (one, a list, or the answers of writes) or JSON Lines of them."""
    import json

    from domain.kernel.receipts import parse_receipts

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {path}: {error}") from None
    try:
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        return parse_receipts(data)
    except (ValueError, RecursionError) as error:
        raise CliError(f"{path} holds no receipts as JSON or JSON Lines ({error})") from None


@cli.command()
@source_options()
@click.argument("targets", nargs=-1, required=True, metavar="BUNDLE|DIR|MATCH...")
@click.option("--allow-engine-mismatch", is_flag=True,
              help="Replay a record made under another rules-engine version (reported in the notes).")
@click.option("--quiet", "-q", is_flag=True,
              help="One target: its one-line summary. Many: only the failures, a line each, and the totals.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
              help="Verify many records in N processes [default: one per core].")
@click.option("--trust", "trusted", multiple=True, metavar="PUBLIC_KEY",
              help="Trust this Ed25519 public key (64 hex digits) as a record's origin (repeatable).")
@click.option("--trust-file", "trust_files", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Trust the public keys listed in FILE, one per line (`label KEY`; # comments).")
@click.option("--trust-server", "trust_servers", multiple=True, metavar="URL",
              help="Trust the keys the Ringside server at URL publishes (GET URL/keys).")
@click.option("--receipts", "receipts_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Check these receipts (JSON or JSON Lines) against the record: a receipt whose event is "
                   "missing or different proves the record changed after it was issued.")
@click.option("--thorough", is_flag=True,
              help="Check every event's signature. By default a signature is checked where nothing later "
                   "vouches for it (each key's last event in a stream, and the trailer for the bytes); "
                   "the report of any failure is the thorough one either way.")
@json_option
def verify(targets: tuple[str, ...], allow_engine_mismatch: bool, quiet: bool, jobs: int | None,
           trusted: tuple[str, ...],
           trust_files: tuple[Path, ...], trust_servers: tuple[str, ...], receipts_file: Path | None,
           thorough: bool, as_json: bool) -> None:
    """The adjudication report for bundles, directories of bundles or stored matches.

    A bundle file may be gzipped (told by its content, whatever its name), up to 256 MiB
    decompressed. A directory is searched for *.jsonl, *.ringside, *.jsonl.gz and *.ringside.gz.
    Many records are verified on every core (-j): each failure is printed as it is found, then
    one summary line (on a terminal, a progress bar with the rate and the time left meanwhile).

    Re-folds every event checking legality, the hash chain and signatures, chance outcomes
    against the revealed seed, undo authority and the final scores, then who signed the record:
    a record verifies only if it was recorded under a trusted key (this store's own server key,
    or one given with --trust, --trust-file or --trust-server). Exit 0 when every record holds
    and is trusted; 1 at the first divergence, for a record no trusted key signed, or when a
    receipt proves the record changed (the reason is printed); 2 on usage errors.

    \b
    Examples:
      ringside verify final.ringside.jsonl
      ringside verify final.ringside.jsonl.gz
      ringside verify final.ringside.jsonl --trust-server https://ringside.example.org
      ringside verify final.ringside.jsonl --receipts my-receipts.jsonl
      ringside verify 3f2a --json
      ringside verify tournament-bundles/
      ringside verify archive/ -q
    """
    from . import archive
    from .trust import cli_trust

    receipts = _read_receipts(receipts_file) if receipts_file is not None else []
    plan: list[tuple[str, Any]] = []  # (label, a directory's path, a file's path, or a stored match's (source, id))
    total = stored = 0
    for target in targets:
        path = Path(target)
        if path_is(path, "dir"):
            skipped = 0

            def note(place: str) -> None:
                nonlocal skipped
                skipped += 1
                click.echo(f"ringside: warning: skipped {place}", err=True)

            found = archive.count_bundles(path, note)
            if not found:
                raise CliError(f"no bundle files (*.jsonl, *.ringside, gzipped or not) in {path}"
                               + (f" ({skipped} places could not be read)" if skipped else ""))
            plan.append(("dir", path))
            total += found
        elif path_is(path, "file"):
            plan.append(("file", path))
            total += 1
        elif path_is(path, "exists"):
            raise CliError(f"{target} is not a regular file or directory (a FIFO, socket or device is not read)")
        elif any(sep in target for sep in ("/", "\\")) or target.endswith(archive.BUNDLE_SUFFIXES):
            raise CliError(f"no such file or directory: {target}")
        else:
            plan.append(("match", (target, *settings().match(target))))
            total += 1
            stored += 1
    # a stored match is judged with its store's own keys; a file alone needs the local key read here
    trust = cli_trust(settings().store, trusted, trust_files, trust_servers,
                      warn=all(kind != "match" for kind, _ in plan))
    if total > 1:
        keep = "all" if as_json else "summary" if quiet else "failures"
        options = archive.Options(allow_engine_mismatch, trust, tuple(receipts), keep, thorough)
        workers = jobs or archive.workers_for(total - stored)
        counts = archive.report_many(_jobs(plan), total, options, workers, as_json)
        if counts.internal:
            raise click.exceptions.Exit(EXIT_INTERNAL)
        if counts.failed:
            raise click.exceptions.Exit(EXIT_REFUSED)
        return
    kind, what = plan[0]
    if kind == "match":
        label, source, match_id = what
        report, internal = source.verify(match_id, allow_engine_mismatch, trust, receipts, thorough), False
    else:
        file = next(archive.walk_bundles(what)) if kind == "dir" else what
        label = str(file)
        report, internal = archive.verify_file(file, allow_engine_mismatch, trust, receipts, thorough)
    if as_json:
        print_json(report)
    elif quiet:
        console().print(str(report.get("summary")))
    else:
        console().print(report_view(report, label))
    if internal:
        raise click.exceptions.Exit(EXIT_INTERNAL)
    if not report.get("ok"):
        raise click.exceptions.Exit(EXIT_REFUSED)


def _jobs(plan: list[tuple[str, Any]]) -> Iterator[Any]:
    """The records of the targets, in order: a directory's walked as the workers take them."""
    from .archive import Job, walk_bundles

    for kind, what in plan:
        if kind == "dir":
            yield from (Job(str(path), path) for path in walk_bundles(what))
        elif kind == "file":
            yield Job(str(what), what)
        else:
            label, source, match_id = what
            yield Job(label, source=source, match_id=match_id)


class Duration(click.ParamType):
    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> timedelta:
        if isinstance(value, timedelta):
            return value
        try:
            return parse_duration(str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


@cli.group(cls=RingsideGroup, context_settings=CONTEXT)
def accounts() -> None:
    """Server-wide accounts: the principals who may import records over the API.

    Importing vouches for nothing: an imported record is marked imported, keeps its signers, and
    its importer may read it and annotate it under the account's name; no seat or arbiter token
    is minted for it.
    """


@accounts.command("add")
@source_options()
@click.argument("name")
@json_option
def accounts_add(name: str, as_json: bool) -> None:
    """Create account NAME and print its token (shown only now; only its hash is stored).

    \b
    Examples:
      ringside accounts add archive-team
      curl -X POST $API/bundles -H "authorization: Bearer $TOKEN" --data-binary @final.ringside.jsonl
    """
    from api.auth import hash_token, new_token
    from api.store import ApiStore

    if not name.strip() or len(name) > 80 or any(ord(c) < 32 for c in name):
        raise CliError("an account name is 1–80 printable characters", EXIT_USAGE)
    source = settings().main_source()
    if not isinstance(source, LocalSource):
        raise CliError("accounts are created in a store (--store or the data directory), not over --url", EXIT_USAGE)
    token = new_token()
    store = ApiStore(source.app.settings)
    try:
        store.add_account(name.strip(), hash_token(token))
    finally:
        store.close()
    if as_json:
        print_json({"account": name.strip(), "token": token})
    else:
        console().print(f"account {name.strip()}: token {token}\n(shown only now; send it as 'Authorization: Bearer "
                        "<token>' to import bundles)")


@cli.command("rotate-key")
@source_options()
@json_option
def rotate_key(as_json: bool) -> None:
    """Retire this server's signing key and create a new one (stop the server first).

    The old key is kept, owner-only, in `retired-keys/` of the data directory: records it signed
    still verify against this server's keys, and the first event appended to each of them is a
    key-rotated event, signed by the old key, that hands the record to the new one.
    """
    from domain.kernel.integrity import rotate_server_key
    from domain.store.settings import StoreSettings

    if settings().url:
        raise CliError("a server's key is rotated where its data directory is, not over --url", EXIT_USAGE)
    directory = StoreSettings.resolve(None, settings().store).data_dir
    try:
        old, new = rotate_server_key(directory)
    except (OSError, ValueError) as error:
        raise CliError(f"cannot rotate the key in {directory}: {error}") from None
    if as_json:
        print_json({"retired": old.key_id, "current": new.key_id, "public_key": new.public_hex})
    else:
        console().print(f"retired key {old.key_id}; signing with {new.key_id} (public key {new.public_hex})")


@cli.command("prune-answers")
@source_options()
@click.option("--older-than", "older_than", required=True, type=Duration(), metavar="DURATION",
              help="Forget answers stored longer ago than this: 90s, 30m, 24h, 7d, 2w.")
@json_option
def prune_answers(older_than: timedelta, as_json: bool) -> None:
    """Forget the stored answers to idempotency keys older than DURATION.

    A client that retries with such a key runs its request again, as new: a move sent with its
    expected version is then refused as stale, never applied twice. Run this from cron, or let the
    server prune by itself (RINGSIDE_ANSWER_RETENTION=7d).

    \b
    Examples:
      ringside prune-answers --older-than 7d
      ringside --store postgresql://ringside@db/ringside prune-answers --older-than 24h --json
    """
    source = settings().main_source()
    if not isinstance(source, LocalSource):
        raise CliError("answers are pruned in a store (--store or the data directory), not over --url", EXIT_USAGE)
    pruned = source.app.prune_answers(older_than)
    if as_json:
        print_json({"pruned": pruned, "older_than_seconds": int(older_than.total_seconds())})
    else:
        console().print(f"forgot {pruned} stored answer{'' if pruned == 1 else 's'} older than "
                        f"{format_duration(older_than)}")


# ==== serving ==========================================================================================
@cli.command()
@source_options()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (on one host they share the SQLite store; across hosts use PostgreSQL).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Data directory (keys, SQLite) [default: RINGSIDE_DATA_DIR or the user data folder].")
def serve(host: str, port: int, workers: int, data_dir: Path | None) -> None:
    """Start the HTTP API on the store; prints its URL once it can listen there.

    A store that cannot be opened, or a port already in use (or not allowed), is one line on
    stderr and exit 2, before any URL.

    \b
    Examples:
      ringside serve
      ringside serve --host 0.0.0.0 --port 8080 --store postgresql://ringside@db/ringside --workers 4
    """
    try:
        from api.server import ListenError, run
    except ImportError as error:
        raise CliError(f"the HTTP API is not available in this installation ({error})", EXIT_USAGE) from None
    from domain.store.settings import StoreSetupError

    obj = settings()
    store = obj.store
    if data_dir is None and store and not store.startswith(("postgresql://", "postgres://")):
        data_dir, store = Path(store), None
    try:
        run(host=host, port=port, data_dir=data_dir, store=store, workers=workers)
    except (StoreSetupError, ListenError) as error:
        raise CliError(str(error), EXIT_USAGE) from None


from .rules import rule_text  # noqa: E402

cli.add_command(rule_text)
cli.add_lazy_command("play", "replay_cli.play:play")  # imported when run or listed: no other command needs it
cli.add_lazy_command("simulate", "replay_cli.play:simulate")
cli.add_lazy_command("view", "replay_cli.viewer:view")  # the replay viewer's page; imports the API when run


def main() -> None:  # pragma: no cover - console entry point alias
    cli()

"""`play` (a match at the terminal: human seats prompted, bots in the others) and `simulate`
(N bot matches, to the store or to bundle files)."""

from __future__ import annotations

import random
import secrets
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import click
from rich.text import Text

from domain.kernel.errors import RingsideError
from domain.kernel.viewers import Actor, Viewer

from .context import settings, source_options, translate
from .moves import move_types, parse_move
from .output import CliError, console, print_json
from .render import distinct_moves
from .render.common import event_text, move_text, player_name
from .rules import prompt_rules
from .source import LocalSource, Source, deterministic_seed
from .views import score_table, show_state

MAX_STEPS = 200_000
PROMPT_COMMANDS = ("board", "moves", "score", "log", "undo", "help", "quit")
PROMPT_HELP = ("Type a move: its number, the shorthand shown (e.g. `place x=1 y=0 rotation=2`) or JSON.\n"
               "Commands: board, moves, score, log, undo (take back your last move), help, quit.")


def _seat_specs(specs: tuple[str, ...], default_bot: str) -> tuple[list[str], dict[int, str]]:
    """Players from -p specs: NAME is a human, `bot` or `bot:NAME` a bot. Returns names and bots."""
    names: list[str] = []
    bots: dict[int, str] = {}
    for seat, spec in enumerate(specs):
        spec = spec.strip()
        if spec.lower() == "bot" or spec.lower().startswith("bot:"):
            bot = spec.partition(":")[2] or default_bot
            bots[seat] = bot
            names.append(f"bot:{bot}")
        else:
            names.append(spec)
    return names, bots


def _print_new_events(source: Source, match_id: str, after: int, viewer: Viewer) -> int:
    events = source.log(match_id, viewer, after + 1)
    for entry in events:
        console().print(Text(f"  #{entry['seq']} {event_text(entry)}", style="dim"))
    return int(events[-1]["seq"]) if events else after


@click.command()
@source_options()
@click.argument("target", metavar="GAME|MATCH")
@click.option("-p", "--player", "players", multiple=True, metavar="NAME|bot[:BOT]",
              help="A new match's seats in order: a player's name (prompted) or bot / bot:NAME.")
@click.option("--human", "humans", multiple=True, type=click.IntRange(min=0), metavar="SEAT",
              help="Resuming: the seats you play (default: seats whose player is not a bot:...).")
@click.option("--watch", is_flag=True, help="Bots play every seat (you watch).")
@click.option("--bot", "default_bot", default="random", show_default=True, help="The bot for bot seats.")
@click.option("--seed", default=0, show_default=True, help="Seed of the bots' choices.")
@click.option("--max-moves", type=click.IntRange(min=1), help="Stop after this many moves.")
@click.option("--no-board", is_flag=True, help="Do not draw the state before each of your moves.")
@click.option("--quiet", "-q", is_flag=True, help="Do not print every event as it happens.")
@click.option("--variant", help="New match: the variant.")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="New match: a game option.")
@click.option("--randomness", default="server", show_default=True, type=click.Choice(["server", "recorded"]),
              help="New match: recorded means you enter each chance outcome.")
@click.option("--undo-policy", default="own-turn", show_default=True,
              type=click.Choice(["none", "own-turn", "consent", "arbiter-only"]))
@click.option("--seat-entropy", is_flag=True,
              help="New match: every seat adds its own entropy before the first draw (you are asked for "
                   "yours; bots make theirs up).")
def play(target: str, players: tuple[str, ...], humans: tuple[int, ...], watch: bool, default_bot: str, seed: int,
         max_moves: int | None, no_board: bool, quiet: bool, variant: str | None, option: tuple[str, ...],
         randomness: str, undo_policy: str, seat_entropy: bool) -> None:
    """Play GAME (a new match) or MATCH (resume) at the terminal.

    Your seats are prompted with the legal moves listed; an illegal move is explained with the
    rule it breaks and you try again. Bots play the other seats.

    \b
    Examples:
      ringside play carcassonne -p alice -p bot
      ringside play carcassonne -p alice -p bob --variant base       (hot seat)
      ringside play carcassonne -p bot -p bot:random -q             (watch two bots)
      ringside play 3f2a --human 1                                  (resume, playing seat 1)
      ringside play 3f2a --watch                                    (bots finish it)
      ringside play carcassonne -p alice -p bot --seat-entropy      (each seat adds entropy first)
    """
    from .moves import parse_pairs
    from .source import catalogue

    obj = settings()
    game_names = {game["name"] for game in catalogue()}
    if target in game_names and not Path(target).exists():
        source = obj.main_source()
        specs = players or ("you", "bot")
        names, bots = _seat_specs(specs, default_bot)
        created = source.create(target, names, variant=variant, options=parse_pairs(option),
                                randomness=randomness, undo_policy=undo_policy,
                                **({"entropy_from": "seats"} if seat_entropy else {}))
        match_id = str(created["match_id"])
        human_seats = [] if watch else [seat for seat in range(len(names)) if seat not in bots]
        bots = {seat: bots.get(seat, default_bot) for seat in range(len(names)) if seat not in human_seats}
        again = _again(source, match_id, names, human_seats)
        if created.get("tokens"):
            from .main import print_tokens

            console().print(f"match {match_id} ({target})")
            print_tokens(created)
            console().print(f"resume with: {again}")
        else:
            console().print(f"match {match_id} ({target}); resume with: {again}")
    else:
        if players:
            raise CliError("-p/--player is for a new match; to resume give --human SEAT")
        source, match_id = obj.match(target)
        if not source.writable:
            raise CliError("a bundle cannot be played on: import it first (ringside import FILE)")
        summary = source.summary(match_id)
        seats = summary["seats"]
        if watch:
            human_seats = []
        elif humans:
            human_seats = sorted(set(humans))
            bad = [s for s in human_seats if s >= len(seats)]
            if bad:
                raise CliError(f"this match has seats 0..{len(seats) - 1}, not {bad[0]}")
        else:
            human_seats = [s["seat"] for s in seats if not str(s["player"]).startswith("bot")]
        bots = {s["seat"]: (str(s["player"]).partition(":")[2] or default_bot)
                for s in seats if s["seat"] not in human_seats}
        again = _again(source, match_id, [str(s["player"]) for s in seats], human_seats)
    _play_loop(source, match_id, human_seats, bots, random.Random(seed), max_moves, no_board, quiet, again)


def _again(source: Source, match_id: str, names: list[str], humans: list[int]) -> str:
    """The command that goes on with this match as this one did: the same store or server (over
    --url with the token that may act for every seat) and the same human seats."""
    default = [seat for seat, name in enumerate(names) if not name.lower().startswith("bot")]
    flags = "" if humans == default else " --watch" if not humans else "".join(f" --human {s}" for s in humans)
    return f"{source.command(match_id, acting=True)} play {match_id}{flags}"


def _play_loop(source: Source, match_id: str, humans: list[int], bots: dict[int, str], rng: random.Random,
               max_moves: int | None, no_board: bool, quiet: bool, again: str) -> None:
    watch = Viewer.of_seat(humans[0]) if len(humans) == 1 else Viewer.spectator()
    seen = 0 if quiet else _print_new_events(source, match_id, 0, watch)
    moves = 0
    last_human: int | None = None
    for _ in range(MAX_STEPS):
        summary = source.summary(match_id)
        if summary["status"] != "active":
            break
        if max_moves is not None and moves >= max_moves:
            console().print(f"stopped after {moves} moves at #{summary['version']}; resume with: {again}")
            return
        decision = summary.get("decision") or {}
        if decision.get("awaiting_entropy"):
            if not _add_entropy(source, match_id, summary, decision["awaiting_entropy"], humans, bots, again):
                return
        elif decision.get("chance"):
            if summary.get("randomness") != "recorded":
                raise CliError("the match waits for a chance outcome the server should have drawn")
            if not _record_outcome(source, match_id, summary, humans, rng, again):
                return
        else:
            seats = list(decision.get("seats", []))
            bot_seats = [s for s in seats if s not in humans]
            if bot_seats:
                seat = bot_seats[0]
                source.bot_move(match_id, seat, bots.get(seat, "random"), rng)
            elif seats:
                if len(humans) > 1 and seats[0] != last_human and console().is_terminal:
                    # hot seat: hide the previous player's hidden information before handing over
                    console().clear()
                    click.pause(f"seat {seats[0]} ({player_name(summary, seats[0])}): press any key to see your seat")
                last_human = seats[0]
                if not _human_turn(source, match_id, summary, seats[0], no_board, again):
                    return
            else:
                raise CliError("nobody is to act and the match is not over")
            moves += 1
        if not quiet:
            seen = _print_new_events(source, match_id, seen, watch)
    summary = source.summary(match_id)
    if summary["status"] == "active":
        raise CliError(f"stopped after {MAX_STEPS} steps without an end")
    end = summary.get("end") or {}
    result = end.get("result", {})
    winners = ", ".join(f"{player_name(summary, s)} (seat {s})" for s in result.get("winners", []))
    console().print(Text(f"match over ({end.get('reason')}): totals {result.get('totals')}; won by {winners}",
                         style="bold"))
    reader = source.command(match_id)
    console().print(f"match {match_id}: {reader} log {match_id[:8]} / {reader} verify {match_id[:8]}")


def _add_entropy(source: Source, match_id: str, summary: dict[str, Any], seats: list[int], humans: list[int],
                 bots: dict[int, str], again: str) -> bool:
    """The entropy the first draw waits for: asked of each human seat, made up for each bot seat.
    False when the player quits."""
    for seat in seats:
        if seat not in humans:
            source.add_entropy(match_id, seat, secrets.token_hex(16), Actor("bot", seat, bots.get(seat, "random")))
            continue
        console().print(f"seat {seat} ({player_name(summary, seat)}): the server has committed to its seed; "
                        "type some entropy of your own (1–200 characters, anything; it is public once recorded)")
        while True:
            try:
                text = click.prompt(f"seat {seat} entropy", prompt_suffix="> ")
            except click.Abort:
                console().print(f"\nstopped; resume with: {again}")
                return False
            try:
                source.add_entropy(match_id, seat, text.strip(), Actor.player(seat))
                break
            except RingsideError as error:
                console().print(Text(translate(error).message, style="red"))
            except CliError as error:
                console().print(Text(error.message, style="red"))
    return True


def _record_outcome(source: Source, match_id: str, summary: dict[str, Any], humans: list[int],
                    rng: random.Random, again: str) -> bool:
    """The recorder enters the chance outcome (a bot's pick when nobody plays here), each possible
    one listed with what the component set says of it. False when the player quits."""
    outcomes = source.chance_outcomes(match_id)
    kind = (summary.get("decision") or {}).get("chance", {}).get("kind")
    if not humans:
        source.submit_outcome(match_id, outcomes[rng.randrange(len(outcomes))])
        return True
    console().print(f"chance: {kind}. Possible outcomes:")
    described = _descriptions(source.components(match_id))
    for index, outcome in enumerate(outcomes, start=1):
        about = described.get(outcome) if isinstance(outcome, str) else None
        console().print(f"  {index:>3}. {move_text(outcome)}" + (f"  {about}" if about else ""))
    while True:
        try:
            text = click.prompt("outcome (number or JSON; quit)", prompt_suffix="> ")
        except click.Abort:
            console().print(f"\nstopped; resume with: {again}")
            return False
        if text.strip().lower() in ("q", "quit", "exit"):
            console().print(f"stopped; resume with: {again}")
            return False
        try:
            value = outcomes[int(text) - 1] if text.strip().isdigit() and 0 < int(text) <= len(outcomes) \
                else parse_move(text) if text.strip()[:1] in "{[\"" else _plain(text)
            source.submit_outcome(match_id, value)
            return True
        except RingsideError as error:
            console().print(Text(translate(error).message, style="red"))
        except CliError as error:
            console().print(Text(error.message, style="red"))


def _descriptions(content: Any) -> dict[str, str]:
    """What the component set says of each of its pieces that has an `id`: its description, or its
    name and text (a Carcassonne tile: `Monastery with a road leaving south`)."""
    found: dict[str, str] = {}
    pending = [content]
    while pending:
        item = pending.pop()
        if isinstance(item, list):
            pending.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        pending.extend(item.values())
        if isinstance(item.get("id"), str) and item["id"] not in found:
            words = [item[key] for key in ("description", "name", "text") if isinstance(item.get(key), str)]
            if any(word.strip() for word in words):
                found[item["id"]] = ": ".join(word.strip() for word in words if word.strip())
    return found


def _plain(text: str) -> Any:
    from .moves import parse_value

    return parse_value(text.strip())


def _list_moves(legal: list[dict[str, Any]], limit: int = 80) -> None:
    console().print(f"{len(legal)} legal moves:")
    for index, move in enumerate(legal[:limit], start=1):
        console().print(f"  {index:>3}. {move_text(move)}")
    if len(legal) > limit:
        console().print(f"  … {len(legal) - limit} more (type a move as shown to play one not listed)")


def _human_turn(source: Source, match_id: str, summary: dict[str, Any], seat: int, no_board: bool,
                again: str) -> bool:
    """Prompt `seat` until it makes a legal move. False when the player quits."""
    viewer = Viewer.of_seat(seat)
    if not no_board:
        show_state(summary, source.state(match_id, viewer), str(viewer))
    # placements that lie alike (a symmetric tile turned half way round) are listed once; any can be typed
    legal = distinct_moves(summary, source.state(match_id, viewer), source.legal_moves(match_id, seat))
    _list_moves(legal)
    cited = prompt_rules(summary)
    if cited is not None:
        console().print(cited)
    name = player_name(summary, seat)
    while True:
        try:
            text = click.prompt(f"seat {seat} ({name}) move", prompt_suffix="> ")
        except click.Abort:
            console().print(f"\nstopped; resume with: {again}")
            return False
        command = text.strip().lower()
        if command in ("q", "quit", "exit"):
            console().print(f"stopped; resume with: {again}")
            return False
        if command in ("?", "h", "help"):
            console().print(PROMPT_HELP)
            continue
        if command == "board":
            show_state(source.summary(match_id), source.state(match_id, viewer), str(viewer))
            continue
        if command == "moves":
            _list_moves(legal, limit=10_000)
            continue
        if command == "score":
            for item in score_table(summary, source.score(match_id)):
                console().print(item)
            continue
        if command == "log":
            for entry in source.log(match_id, viewer)[-15:]:
                console().print(f"  #{entry['seq']} {event_text(entry)}")
            continue
        try:
            if command == "undo":
                source.request_undo(match_id, seat, None, "taken back at the terminal")
                console().print("undo requested")
                return True
            words = text.split()
            typed = {"type": words[0]} if words and text.strip()[0] not in "{[\"" and not words[0].isdigit() else None
            move = typed if _unknown_type(typed, source, summary, legal) else parse_move(text, legal)
            unknown = _unknown_type(move, source, summary, legal)
            if unknown:
                console().print(Text(unknown, style="red"))
                continue
            source.submit_move(match_id, seat, move)
            return True
        except RingsideError as error:
            console().print(Text(translate(error).message, style="red"))
        except CliError as error:
            console().print(Text(error.message, style="red"))


def _unknown_type(move: Any, source: Source, summary: dict[str, Any], legal: list[dict[str, Any]]) -> str | None:
    """One readable line for a word that is neither a prompt command nor a move type of the game:
    the move types and the prompt's commands that exist (None when `move`'s type is one)."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return None
    types = move_types(source.move_schema(str(summary["game"])))
    if not types or move["type"] in types:
        return None
    now = list(dict.fromkeys(str(m.get("type")) for m in legal))
    return (f"no command or move {move['type']!r}: moves are {', '.join(types)}"
            + (f" (legal now: {', '.join(now)})" if now else "")
            + f"; commands are {', '.join(PROMPT_COMMANDS)}; or type the number of a listed move")


@click.command()
@source_options()
@click.argument("game")
@click.option("-n", "--count", default=10, show_default=True, type=click.IntRange(1, 100_000), help="Matches.")
@click.option("--players", "seats", default=None, type=click.IntRange(1, 64), help="Seats per match [default: min].")
@click.option("--variant", help="The variant [default: the game's default].")
@click.option("-o", "--option", multiple=True, metavar="KEY=VALUE", help="A game option (repeatable).")
@click.option("--bot", default="random", show_default=True, help="The bot playing every seat.")
@click.option("--seed", type=int, default=None,
              help="Reproducible run: the same seed gives the same matches, match IDs included "
                   "(local store only; use a fresh store or --out).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write each match as a bundle into this directory instead of keeping it in the store.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def simulate(game: str, count: int, seats: int | None, variant: str | None, option: tuple[str, ...],
             bot: str, seed: int | None, out: Path | None, as_json: bool) -> None:
    """Play COUNT bot matches of GAME, into the store or (--out) as bundle files.

    \b
    Examples:
      ringside simulate carcassonne -n 20
      ringside simulate carcassonne -n 100 --variant base --players 4 --out bundles/
      ringside simulate carcassonne -n 5 --seed 7 --json
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from domain.kernel.registry import get_game

    from .moves import parse_pairs

    ruleset = get_game(game)
    chosen = variant or ruleset.default_variant
    if chosen not in ruleset.variants:
        raise CliError(f"{game} has no variant {chosen!r} (variants: {', '.join(ruleset.variants)})")
    info = ruleset.variants[chosen]
    n_seats = seats or info.min_seats
    if not info.min_seats <= n_seats <= info.max_seats:
        fitting = [name for name, v in ruleset.variants.items() if v.min_seats <= n_seats <= v.max_seats]
        if variant is not None or not fitting:
            raise CliError(f"{game} {chosen} is played by {info.min_seats}–{info.max_seats} players, not {n_seats}"
                           + (f"; for {n_seats}: --variant {' or '.join(fitting)}" if fitting else ""))
        click.echo(f"ringside: note: {game}'s default variant {chosen} is for {info.min_seats}–{info.max_seats} "
                   f"players, so {fitting[0]} is simulated for {n_seats} (choose with --variant: "
                   f"{', '.join(fitting)})", err=True)
        chosen = fitting[0]
    variant = chosen
    if bot not in ruleset.bots():
        raise CliError(f"{game} has no bot {bot!r} (bots: {', '.join(sorted(ruleset.bots()))})")
    options = parse_pairs(option)
    obj = settings()
    temp: str | None = None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CliError(f"cannot create {out}: {error.strerror or error}") from None
    if out is not None and not obj.url:
        temp = tempfile.mkdtemp(prefix="ringside-simulate-")
        source: Source = LocalSource(store=temp)
        obj.sources.append(source)
    else:
        source = obj.main_source()
    local = isinstance(source, LocalSource)
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        with Progress(TextColumn(f"simulating {game}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console(), disable=as_json or not console().is_terminal) as progress:
            task = progress.add_task("", total=count)
            for index in range(count):
                extra: dict[str, Any] = {}
                if local and seed is not None:
                    extra = {"seed": deterministic_seed(seed, index),
                             "match_id": uuid.uuid5(uuid.NAMESPACE_URL, f"ringside-simulate:{game}:{seed}:{index}")}
                created = source.create(game, [f"bot:{bot}"] * n_seats, variant=variant, options=options, **extra)
                match_id = str(created["match_id"])
                rng = random.Random(f"{seed}:{index}") if seed is not None else random.Random()
                for _ in range(MAX_STEPS):
                    summary = source.summary(match_id)
                    if summary["status"] != "active":
                        break
                    decision = summary.get("decision") or {}
                    if not decision.get("seats"):
                        raise CliError(f"match {match_id} waits for nobody but is not over")
                    source.bot_move(match_id, decision["seats"][0], bot, rng)
                end = summary.get("end") or {}
                result = {"match_id": match_id, "events": summary["version"],
                          "totals": end.get("result", {}).get("totals"),
                          "winners": end.get("result", {}).get("winners", [])}
                if out is not None:
                    path = out / f"{match_id}.ringside.jsonl"
                    try:
                        path.write_text(source.export(match_id), encoding="utf-8", newline="")
                    except OSError as error:
                        raise CliError(f"cannot write {path}: {error.strerror or error}") from None
                    result["bundle"] = str(path)
                results.append(result)
                progress.advance(task)
    finally:
        if temp is not None:
            source.close()
            shutil.rmtree(temp, ignore_errors=True)
    wins = [sum(1 for r in results if seat in (r["winners"] or [])) for seat in range(n_seats)]
    shared = [r for r in results if len(r["winners"] or []) > 1]
    shared_wins = [sum(1 for r in shared if seat in r["winners"]) for seat in range(n_seats)]
    report = {"game": game, "variant": variant, "seats": n_seats, "matches": len(results),
              "mean_events": round(sum(r["events"] for r in results) / len(results), 1),
              "wins_by_seat": wins, "shared_wins_by_seat": shared_wins, "shared_first_places": len(shared),
              "seconds": round(time.monotonic() - started, 2),
              "stored": out is None or bool(obj.url), "results": results}
    if as_json:
        print_json(report)
        return
    where = f"bundles in {out}" if out is not None else "matches in the store"
    if obj.url:
        where += f" (kept on {obj.url})"
    ties = ""
    if shared:
        ties = (f" ({len(shared)} of the {len(results)} matches ended in a shared first place, which counts as "
                f"a win for each seat that shared it: shared wins by seat {shared_wins})")
    console().print(f"{len(results)} {game} ({variant}) {where}; mean {report['mean_events']} events; "
                    f"wins by seat {wins}{ties}; {report['seconds']} s")

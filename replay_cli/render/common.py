"""Pieces every renderer uses: the header line, the players-and-scores table, move and event text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.table import Table
from rich.text import Text

from ..output import compact

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")


_COMPONENTS: dict[tuple[str, str], Any] = {}


def components_of(summary: dict[str, Any]) -> Any | None:
    """The component set the match records (by its hash): the game's shipped set, or another one
    this process was given (a bundle carries its set; a store loads its own). None when it is not
    known here: renderers then print the pieces' IDs rather than guess their faces from another
    set. A summary that names no set (a hand-made one) gets the shipped set."""
    game = str(summary.get("game", ""))
    wanted = str((summary.get("components") or {}).get("hash") or "")
    found = _COMPONENTS.get((game, wanted))
    if found is not None:
        return found
    try:
        from domain.kernel import component_store
        from domain.kernel.registry import get_game

        ruleset = get_game(game)
        shipped = ruleset.default_components()
        found = shipped if not wanted or shipped.content_hash() == wanted else component_store.lookup(ruleset, wanted)
    except Exception:
        return None
    _COMPONENTS[(game, wanted)] = found
    return found



def known_components(summary: dict[str, Any], state: dict[str, Any], model: type[Any], shipped: Any) -> Any:
    """The match's component set for a game renderer: the recorded one when this process knows it
    (`components_of`), else `shipped` (the game's default set, given by its renderer) when the
    match names that set or none, as while the game is not registered in this process; any other
    set raises ValueError, and render_state falls back to the generic panels."""
    found = components_of(summary)
    if isinstance(found, model):
        return found
    wanted = (summary.get("components") or {}).get("hash")
    if (not wanted or wanted == shipped.content_hash()) and state.get("components", shipped.name) == shipped.name:
        return shipped
    raise ValueError("the match's component set is not known here")


def seat_style(seat: int | None) -> str:
    return "bold" if seat is None else SEAT_STYLES[seat % len(SEAT_STYLES)]


def player_name(summary: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "-"
    for item in summary.get("seats", []):
        if item.get("seat") == seat:
            return str(item.get("player", seat))
    return f"seat {seat}"


def seat_label(summary: dict[str, Any], seat: Any) -> str:
    """`seat 0 (ann)`: the seat number the record uses and its player's name (public)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return f"seat {seat}"
    name = player_name(summary, seat)
    return f"seat {seat} ({name})" if name not in ("-", f"seat {seat}") else f"seat {seat}"


def move_text(move: Any) -> str:
    """A move as `type key=value ...`: the same shorthand the play prompt accepts."""
    if not isinstance(move, dict):
        return compact(move)
    parts = [str(move.get("type", "?"))] if "type" in move else []
    for key, value in sorted(move.items()):  # sorted: the same text from a store, a bundle or a server
        if key == "type":
            continue
        parts.append(f"{key}={compact(value, 40)}")
    return " ".join(parts) or "{}"


def actor_text(actor: dict[str, Any], summary: dict[str, Any] | None = None) -> str:
    """Who acted, as a person says it: `seat 0 (ann)`, `arbiter root`, `annotator archive`,
    `bot random (seat 1)`. With the match's summary a seat is named by its player too (names are
    public: they are in the created event)."""
    kind = actor.get("kind", "?")
    if kind == "seat":
        return seat_label(summary or {}, actor.get("seat"))
    if kind == "bot":
        return f"bot {actor.get('name') or ''} (seat {actor.get('seat')})".replace("  ", " ")
    if kind in ("arbiter", "recorder", "substitute", "annotator"):
        name = actor.get("name")
        seat = f" for seat {actor['seat']}" if actor.get("seat") is not None else ""
        return f"{kind} {name}{seat}" if name else f"{kind}{seat}"
    return str(kind)


def event_text(entry: dict[str, Any]) -> str:
    """One line saying what an event (as redacted for the viewer) records."""
    kind = entry.get("kind")
    p = entry.get("payload", {})
    if kind == "created":
        players = ", ".join(f"{s['seat']}:{s['player']}" for s in p.get("seats", []))
        fork = f"; fork of {p['fork_of']['match_id'][:8]} at {p['fork_of']['seq']}" if p.get("fork_of") else ""
        return f"{p.get('game')} ({p.get('variant')}), seats {players}; {p.get('randomness')} randomness{fork}"
    if kind == "move":
        if p.get("hidden"):
            return f"seat {p.get('seat')}: (hidden until revealed)"
        return f"seat {p.get('seat')}: {move_text(p.get('move'))}"
    if kind == "chance":
        if p.get("hidden"):
            return f"{p.get('kind')}: (face down)"
        return f"{p.get('kind')} → {compact(p.get('outcome'), 60)}"
    if kind == "undo-requested":
        who = "arbiter" if p.get("arbiter_needed") else (
            "consent of seats " + ",".join(map(str, p.get("consent_from", []))) if p.get("consent_from") else "")
        tail = f", needs {who}" if who else ""
        return f"seat {p.get('seat')} asks to take back from #{p.get('from_seq')} (request {p.get('request')}{tail})"
    if kind == "undo-answered":
        who = "arbiter" if p.get("seat") is None else f"seat {p.get('seat')}"
        return f"{who} {'accepts' if p.get('accept') else 'declines'} undo request {p.get('request')}"
    if kind == "retracted":
        return f"moves from #{p.get('from_seq')} retracted ({p.get('authority')})"
    if kind == "redone":
        return f"retraction #{p.get('retraction')} redone"
    if kind == "entropy-added":
        actor = entry.get("actor") or {}
        by = " (entered by an arbiter)" if actor.get("kind") == "arbiter" else ""
        return f"seat {p.get('seat')} adds entropy {compact(p.get('entropy'), 60)}{by}"
    if kind == "seed-revealed":
        return f"seed revealed: {str(p.get('seed', ''))[:16]}…"
    if kind == "ruling":
        detail = {k: v for k, v in p.items() if k not in ("ruling", "note") and v not in (None, "")}
        note = f" — {p['note']}" if p.get("note") else ""
        extra = " ".join(f"{k}={compact(v, 40)}" for k, v in detail.items())
        return f"ruling: {p.get('ruling')} {extra}{note}".strip()
    if kind == "ended":
        result = p.get("result", {})
        winners = ", ".join(str(s) for s in result.get("winners", []))
        return f"ended ({p.get('reason')}): totals {result.get('totals')}, winner seat {winners}"
    return compact(p, 80)


def time_text(at: str | None) -> str:
    if not at:
        return ""
    return at.replace("T", " ")[:19]


def decision_text(summary: dict[str, Any], view: dict[str, Any]) -> Text:
    status = view.get("status", summary.get("status"))
    decision = view.get("decision") or {}
    if status != "active" or decision.get("over"):
        end = view.get("end") or summary.get("end") or {}
        result = end.get("result", {}) if isinstance(end, dict) else {}
        winners = ", ".join(player_name(summary, s) for s in result.get("winners", []))
        reason = end.get("reason", "over") if isinstance(end, dict) else "over"
        return Text(f"match over ({reason})" + (f": won by {winners}" if winners else ""), style="bold")
    if decision.get("chance"):
        awaiting = decision.get("awaiting_entropy")
        after = f"; drawn once seats {', '.join(map(str, awaiting))} add their entropy" if awaiting else ""
        return Text(f"waiting for chance: {decision['chance'].get('kind')} ({decision.get('prompt', '')}){after}")
    seats = decision.get("seats", [])
    who = ", ".join(f"seat {s} ({player_name(summary, s)})" for s in seats)
    secret = " [secret, simultaneous]" if decision.get("secret") else ""
    return Text(f"to act: {who}: {decision.get('prompt', '')}{secret}")


def header(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> Text:
    text = Text()
    text.append(f"{summary.get('game')} ", style="bold")
    text.append(f"({summary.get('variant')}) ")
    text.append(f"match {str(summary.get('match_id', ''))[:8]} ")
    text.append(f"at #{view.get('seq')}", style="bold")
    if summary.get("version") is not None:
        text.append(f" of {summary.get('version')}")
    if viewer:
        text.append(f"  as {viewer}")
    if summary.get("fork_of"):
        text.append("  [fork: unofficial]", style="italic")
    return text


def players_table(summary: dict[str, Any], view: dict[str, Any],
                  extra: dict[str, list[Any]] | None = None) -> Table:
    """Seats, players, scores and any per-seat columns the renderer adds."""
    table = Table(title="Players", title_justify="left", expand=False)
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("score", justify="right")
    for name in extra or {}:
        table.add_column(name)
    scores = view.get("scores") or []
    decision = view.get("decision") or {}
    for item in summary.get("seats", []):
        seat = item["seat"]
        marker = " ◀" if seat in decision.get("seats", []) else ""
        row: list[Text | str] = [Text(str(seat), style=seat_style(seat)), Text(str(item["player"]) + marker),
               str(scores[seat]) if seat < len(scores) else ""]
        for values in (extra or {}).values():
            row.append(compact(values[seat], 60) if seat < len(values) else "")
        table.add_row(*row)
    return table


Add = Callable[..., None]
"""How a game's change describer adds a line: `add(text)`, or `add(text, style)` (yellow by default)."""


def seat_changes(summary: dict[str, Any], before: dict[str, Any], after: dict[str, Any], *,
                 table: Callable[[dict[str, Any], dict[str, Any], Add], None],
                 seat: Callable[[int, dict[str, Any], dict[str, Any], Add], None],
                 score: Callable[[int, int, int], str | None]) -> list[Text]:
    """What changed between two views of a game whose state has a `players` list, in the order
    its describer lists it: the table (`table(old, new, add)`), then each seat
    (`seat(seat, was, now, add)`, `was` empty for a seat the old view lacks), then each changed
    score (`score(seat, was, now)`, a line or None to say nothing), then who acts next."""
    old, new = before.get("state") or {}, after.get("state") or {}
    out: list[Text] = []

    def add(text: str, style: str = "yellow") -> None:
        out.append(Text(f"  {text}", style=style))

    table(old, new, add)
    old_players = old.get("players") or []
    for index, player in enumerate(new["players"]):
        seat(index, old_players[index] if index < len(old_players) else {}, player, add)
    old_scores = before.get("scores") or []
    for index, total in enumerate(after.get("scores") or []):
        was = old_scores[index] if index < len(old_scores) else None
        line = score(index, was, total) if was is not None and total != was else None
        if line:
            add(line)
    if before.get("decision") != after.get("decision"):
        add(decision_text(summary, after).plain, "dim")
    return out or [Text("  (no visible change)", style="dim")]

"""Printing reports and tables: state, log, score sheet, changes, verification report."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .output import compact, console
from .render import render_state
from .render.common import actor_text, event_text, player_name, time_text
from .rules import rule_label


def print_renderables(items: list[RenderableType]) -> None:
    out = console()
    for item in items:
        out.print(item)


def show_state(summary: dict[str, Any], view: dict[str, Any], viewer: str) -> None:
    from .render.common import header

    items = render_state(summary, view, viewer)
    if items:
        items[0] = header(summary, view, viewer)
    print_renderables(items)


def log_table(summary: dict[str, Any], events: list[dict[str, Any]],
              notes: dict[int, list[dict[str, Any]]],
              said: dict[int, tuple[str, list[Text]]] | None = None) -> Table:
    """The log as a table. `said` holds each event's sentence and score lines (narrate_log); an
    event missing from it is shown as the record's own short form."""
    table = Table(title=f"Log of {summary.get('game')} match {summary.get('match_id')}", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("time")
    table.add_column("kind")
    table.add_column("actor")
    table.add_column("what happened")
    table.add_column("notes")
    for entry in events:
        seq = entry["seq"]
        retracted = entry.get("retracted_by")
        sentence, scoring = (said or {}).get(seq, (event_text(entry), []))
        what = Text(sentence)
        if retracted is not None:
            what.stylize("strike dim")
            what.append(f"  [retracted by #{retracted}]", style="italic")
        if entry.get("redacted"):
            what.stylize("dim")
        for line in scoring:
            what.append("\n")
            what.append_text(Text("  ") + line)
            if retracted is not None:  # the points went with the move
                what.stylize("strike dim", len(what) - len(line) - 2)
        table.add_row(str(seq), _when(entry), str(entry.get("kind")),
                      actor_text(entry.get("actor", {}), summary), what, notes_text(summary, notes.get(seq, [])))
    return table


def _when(entry: dict[str, Any]) -> str:
    when = time_text(entry.get("at"))
    claimed = (entry.get("payload") or {}).get("claimed_at")
    if claimed:
        when += f"\n(claimed {time_text(str(claimed))})"
    return when


def notes_text(summary: dict[str, Any], notes: list[dict[str, Any]]) -> Text:
    """Annotations of one event: glyphs, text, tags, visibility when not public, and the author by
    name (`arbiter root`, `seat 0 (ann)`), not as the record's JSON."""
    comments = Text()
    for note in notes:
        if comments:
            comments.append("\n")
        comments.append(" ".join(note.get("glyphs", [])) + " " if note.get("glyphs") else "", style="bold")
        comments.append(str(note.get("text", "")))
        tags = note.get("tags") or []
        if tags:
            comments.append(f" #{' #'.join(tags)}", style="dim")
        if note.get("visibility") != "public":
            comments.append(f" ({note.get('visibility')})", style="dim")
        comments.append(f" — {actor_text(note.get('author') or {}, summary)}", style="dim italic")
    return comments


def score_table(summary: dict[str, Any], sheet: dict[str, Any]) -> list[RenderableType]:
    totals = Table(title=f"Scores at #{sheet.get('seq')}", title_justify="left")
    totals.add_column("seat", justify="right")
    totals.add_column("player")
    totals.add_column("total", justify="right")
    for seat, total in enumerate(sheet.get("totals", [])):
        totals.add_row(str(seat), player_name(summary, seat), str(total))
    lines = Table(title="Score sheet (every line with the rule that scored it)", title_justify="left")
    lines.add_column("seat", justify="right")
    lines.add_column("points", justify="right")
    lines.add_column("category")
    lines.add_column("rule")
    lines.add_column("detail")
    game = summary.get("game")
    for line in sheet.get("lines", []):  # each rule with its title: the ID alone means nothing to a player
        lines.add_row(str(line.get("seat")), str(line.get("points")), str(line.get("category")),
                      rule_label(line.get("rule"), game), str(line.get("detail", "")))
    out: list[RenderableType] = [totals, lines if sheet.get("lines") else Text("(no scoring lines yet)")]
    end = sheet.get("end")
    if end:
        result = end.get("result", {})
        out.append(Text(f"final ({end.get('reason')}): ranks {result.get('ranks')}, "
                        f"winners {result.get('winners')}, tie-breaks {result.get('tiebreaks')}"))
    return out


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def change_lines(changes: list[dict[str, Any]], limit: int = 60) -> list[Text]:
    """Changes as readable lines; lists that grew or shrank are shown item by item."""
    out: list[Text] = []
    for change in changes:
        path, op = change["path"], change["op"]
        if path == "/seq":
            continue
        before, after = change.get("before"), change.get("after")
        if op == "changed" and isinstance(before, list) and isinstance(after, list):
            old = {_key(item) for item in before}
            new = {_key(item) for item in after}
            for item in after:
                if _key(item) not in old:
                    out.append(Text(f"  + {path}: {compact(item, 100)}", style="green"))
            for item in before:
                if _key(item) not in new:
                    out.append(Text(f"  - {path}: {compact(item, 100)}", style="red"))
            continue
        if op == "added":
            out.append(Text(f"  + {path}: {compact(after, 100)}", style="green"))
        elif op == "removed":
            out.append(Text(f"  - {path}: {compact(before, 100)}", style="red"))
        else:
            out.append(Text(f"  ~ {path}: {compact(before, 50)} → {compact(after, 50)}", style="yellow"))
    if len(out) > limit:
        hidden = len(out) - limit
        out = [*out[:limit], Text(f"  … and {hidden} more changes (use --json for all)", style="dim")]
    return out or [Text("  (no visible change)", style="dim")]


def report_view(report: dict[str, Any], source: str = "") -> RenderableType:
    """The adjudication report, human-readable."""
    ok = report.get("ok")
    untrusted = not ok and (report.get("divergence") or {}).get("check") == "trust"
    title = Text()
    title.append("VERIFIED" if ok else "NOT TRUSTED" if untrusted else "DIVERGENCE",
                 style="bold green" if ok else "bold red")
    title.append(f"  {source}" if source else "")
    parts: list[RenderableType] = [title]
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("match", str(report.get("match_id")))
    facts.add_row("game", str(report.get("game")))
    facts.add_row("events", str(report.get("events")))
    facts.add_row("annotation events", str(report.get("annotations")))
    checked = report.get("checked") or {}
    facts.add_row("checks passed", ", ".join(f"{k} {v}" for k, v in sorted(checked.items())) or "none")
    facts.add_row("signing keys", ", ".join(report.get("keys") or []) or "none")
    for signer in report.get("signers") or []:
        trusted = f"trusted: {signer['trusted_as']}" if signer.get("trusted") else "NOT trusted"
        facts.add_row(f"signer {signer['key_id']}", f"{signer.get('signed', '')} ({trusted})")
    for receipt in report.get("receipts") or []:
        facts.add_row(f"receipt {receipt.get('seq')}", f"{receipt.get('status')}: {receipt.get('message')}")
    if report.get("final_state_hash"):
        facts.add_row("final state hash", str(report.get("final_state_hash")))
    parts.append(facts)
    for note in report.get("notes") or []:
        parts.append(Text(f"note: {note}", style="italic"))
    divergence = report.get("divergence")
    if divergence:
        where = "bundle" if divergence.get("seq") is None else (
            f"annotation event {divergence['seq']}" if divergence.get("stream") == "annotations"
            else f"event {divergence['seq']}")
        block = Table.grid(padding=(0, 2))
        block.add_column(style="bold red")
        block.add_column()
        block.add_row("first divergence", where)
        block.add_row("check", str(divergence.get("check")))
        block.add_row("rule", str(divergence.get("rule") or "-"))
        block.add_row("what", str(divergence.get("message")))
        block.add_row("expected", compact(divergence.get("expected"), 200))
        block.add_row("recorded", compact(divergence.get("actual"), 200))
        parts.append(block)
    parts.append(Text(str(report.get("summary", ""))))
    return Group(*parts)

"""The viewer's pages as HTML: the match list (the start page) and a match page's frame.

Why server-rendered with escaped strings and no template engine: two pages, every value written
through `escape`, and nothing to install. The match page's frame holds only public facts (the
summary's game, players and status); everything that depends on the viewer (the board, the log,
the hand) is fetched by `static/viewer.js` with the viewer's own token, so the HTML is the same
for everyone and a token never reaches the server in a URL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any
from urllib.parse import urlencode

STATIC = "viewer-static"
"""Where the page's script and style sheet are served from (relative to the API's root)."""

LIST_LINKS = (("docs", "API docs"), ("redoc", "reference"), ("games", "games"), ("matches", "matches (JSON)"),
              ("keys", "keys"), ("health", "health"))
"""The API's main routes, linked from the start page (as before the viewer took it over)."""


def _page(title: str, body: str, *, root: str, scripts: Iterable[str] = (), body_attrs: str = "") -> str:
    """A whole document: `root` is the relative way back to the API's root ("" or "../")."""
    script_tags = "".join(f'<script src="{root}{STATIC}/{name}" defer></script>' for name in scripts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="referrer" content="no-referrer">\n'
            f'<link rel="icon" href="{root}docs-assets/favicon.png">\n'
            f'<link rel="stylesheet" href="{root}{STATIC}/viewer.css">\n{script_tags}\n'
            f"<title>{escape(title)}</title>\n</head>\n<body{body_attrs}>\n{body}\n</body>\n</html>\n")


def _options(choices: Iterable[tuple[str, str]], chosen: str | None) -> str:
    return "".join(f'<option value="{escape(value)}"{" selected" if value == (chosen or "") else ""}>'
                   f"{escape(label)}</option>" for value, label in choices)


def match_list(rows: list[dict[str, Any]], filters: Mapping[str, str | None], games: list[tuple[str, str]], *,
               offset: int, limit: int, more: bool, title: str) -> str:
    """The start page: the filters, one row per match (newest first), the pages, the API's links."""
    form = (
        '<form class="filters" method="get" action="" aria-label="Filter matches">'
        '<label>Game <select name="game">' + _options([("", "any game"), *games], filters.get("game")) +
        '</select></label>'
        '<label>Status <select name="status">' +
        _options([("", "any"), ("active", "in play"), ("ended", "ended")], filters.get("status")) + '</select></label>'
        f'<label>Player <input name="player" value="{escape(filters.get("player") or "")}" maxlength="80" '
        'placeholder="part of a name"></label>'
        f'<label>From <input type="date" name="since" value="{escape(filters.get("since") or "")}"></label>'
        f'<label>Until <input type="date" name="until" value="{escape(filters.get("until") or "")}"></label>'
        '<button type="submit">Filter</button> <a href="./">clear</a></form>')
    if rows:
        body_rows = "".join(_row(row) for row in rows)
        table = ('<table class="matches"><caption class="sr-only">Matches, newest first</caption><thead><tr>'
                 '<th scope="col">Match</th><th scope="col">Game</th><th scope="col">Players</th>'
                 '<th scope="col">Status</th><th scope="col">Events</th><th scope="col">Started</th></tr></thead>'
                 f"<tbody>{body_rows}</tbody></table>")
    else:
        table = '<p class="empty">No match matches these filters.</p>'
    kept = {key: value for key, value in filters.items() if value}
    pages = []
    if offset > 0:
        pages.append(f'<a rel="prev" href="?{escape(urlencode({**kept, "offset": max(0, offset - limit)}))}">'
                     "← newer</a>")
    pages.append(f"<span>matches {offset + 1 if rows else offset}–{offset + len(rows)}</span>")
    if more:
        pages.append(f'<a rel="next" href="?{escape(urlencode({**kept, "offset": offset + limit}))}">older →</a>')
    links = " · ".join(f'<a href="{href}">{escape(label)}</a>' for href, label in LIST_LINKS)
    body = (f'<header class="top"><h1>{escape(title)}</h1><p>Replays of the matches recorded here: open one to '
            "scrub through it step by step, as a spectator, a seat or the arbiter.</p></header>"
            f'<main id="main">{form}{table}<nav class="pages" aria-label="Pages">{" ".join(pages)}</nav></main>'
            f'<footer><nav aria-label="API">The HTTP API: {links}. The <code>ringside</code> command works with '
            "it too (<code>ringside --url URL matches</code>, <code>ringside view MATCH</code>).</nav></footer>")
    return _page(f"{title}: matches", body, root="")


def _row(row: dict[str, Any]) -> str:
    match_id = str(row.get("match_id", ""))
    players = ", ".join(str(name) for name in row.get("players") or [])
    status = "in play" if row.get("status") == "active" else "ended"
    if row.get("status") != "active" and row.get("winners"):
        status += " (won by " + ", ".join(
            str((row.get("players") or [])[seat]) if isinstance(seat, int) and seat < len(row.get("players") or [])
            else str(seat) for seat in row["winners"]) + ")"
    flags = [flag for flag, on in (("fork", row.get("fork_of")), ("imported", row.get("imported")),
                                   ("from a position", row.get("setup") == "position")) if on]
    flag_text = f' <span class="flag">{escape(", ".join(flags))}</span>' if flags else ""
    return (f'<tr><td><a href="view/{escape(match_id)}"><code>{escape(match_id[:8])}</code></a>{flag_text}</td>'
            f'<td>{escape(str(row.get("game", "")))} <span class="muted">{escape(str(row.get("variant", "")))}</span>'
            f"</td><td>{escape(players)}</td>"
            f'<td class="status-{escape(str(row.get("status", "")))}">{escape(status)}</td>'
            f'<td class="num">{int(row.get("version") or 0)}</td>'
            f'<td><time datetime="{escape(str(row.get("created_at", "")))}">'
            f'{escape(str(row.get("created_at", "")).replace("T", " ")[:16])}</time></td></tr>')


def match_page(summary: dict[str, Any], at: int | None, *, title: str) -> str:
    """A match page's frame: the public facts, the regions the script fills, and the controls.
    The script reads the match, the head and the asked step from the body's data attributes."""
    match_id = str(summary["match_id"])
    players = "".join(f'<li class="seat-{int(seat.get("seat", i))}"><span class="swatch" aria-hidden="true">'
                      f'</span>{escape(str(seat.get("player", "")))}</li>'
                      for i, seat in enumerate(summary.get("seats") or []))
    version = int(summary.get("version") or 1)
    step = min(max(at or version, 1), version)
    status = "in play" if summary.get("status") == "active" else "ended"
    fork = summary.get("fork_of") if isinstance(summary.get("fork_of"), dict) else None
    flags = [text for text, on in (
        ("imported: recorded elsewhere, never official here", summary.get("imported")),
        (f"a fork of {str((fork or {}).get('match_id', ''))[:8]} after #{(fork or {}).get('seq')} (unofficial)", fork),
        ("starts from a given position", summary.get("setup") == "position")) if on]
    flag_text = "".join(f' · <span class="flag">{escape(text)}</span>' for text in flags)
    attrs = (f' data-match="{escape(match_id)}" data-game="{escape(str(summary.get("game", "")))}"'
             f' data-version="{version}" data-at="{step}" data-status="{escape(str(summary.get("status", "")))}"')
    body = f"""<a class="skip" href="#board">Skip to the board</a>
<header class="top match">
  <p class="crumbs"><a href="../">All matches</a></p>
  <h1>{escape(str(summary.get("game", "")))} <span class="muted">{escape(str(summary.get("variant", "")))}</span>
    <code title="{escape(match_id)}">{escape(match_id[:8])}</code></h1>
  <ul class="players" aria-label="Players">{players}</ul>
  <p class="facts"><span id="status" data-status="{escape(str(summary.get("status", "")))}">{escape(status)}</span>
{flag_text}
    <span id="live" class="live" hidden>● live</span>
    · <span id="viewer" data-viewer="spectator">viewing as a spectator</span></p>
  <form id="token-form" class="token" autocomplete="off" aria-label="View as a seat or the arbiter">
    <label for="token">Token <span class="muted">(a seat's or the arbiter's; none: spectator)</span></label>
    <input id="token" name="token" type="password" spellcheck="false" placeholder="rs_…" autocomplete="off">
    <button type="submit">View</button> <button type="button" id="forget">Spectator</button>
    <span id="token-error" class="error" role="alert"></span>
  </form>
</header>
<main id="main" class="match-grid">
  <section class="stage" aria-label="Board and position">
    <div class="controls" role="group" aria-label="Step through the match">
      <button type="button" id="first" aria-label="First step (Home)">|◀</button>
      <button type="button" id="prev-round" aria-label="Previous round (Shift+Page Up or [)" hidden>◀ round</button>
      <button type="button" id="prev-turn" aria-label="Previous turn (Page Up)">◀◀</button>
      <button type="button" id="prev" aria-label="Previous step (←)">◀</button>
      <input type="range" id="slider" min="1" max="{version}" value="{step}" step="1"
             aria-label="Step" aria-valuemin="1" aria-valuemax="{version}" aria-valuenow="{step}">
      <button type="button" id="next" aria-label="Next step (→)">▶</button>
      <button type="button" id="next-turn" aria-label="Next turn (Page Down)">▶▶</button>
      <button type="button" id="next-round" aria-label="Next round (Shift+Page Down or ])" hidden>round ▶</button>
      <button type="button" id="last" aria-label="Last step (End)">▶|</button>
      <output id="step" for="slider" aria-live="polite" data-seq="{step}">step {step} of {version}</output>
    </div>
    <p id="sentence" class="sentence" aria-live="polite"></p>
    <p id="prompt" class="prompt"></p>
    <noscript><p>This page draws the match with JavaScript. Without it:
      <a href="../matches/{escape(match_id)}/board.svg?at={step}">the board at step {step}</a> (SVG),
      <a href="{escape(match_id)}/log">the narrated log</a> (JSON).</p></noscript>
    <div id="board" class="board-box" tabindex="-1" aria-label="Board"></div>
    <p class="board-tools"><button type="button" id="zoom" aria-pressed="false">Show the board at full size</button>
      <button type="button" id="copy">Copy the link to this step</button> <span id="copied" role="status"></span></p>
    <section id="scores" aria-label="Scores"><table class="scores"><caption>Scores</caption><tbody></tbody></table>
    </section>
    <section id="yours-box" aria-labelledby="yours-title" hidden>
      <h2 id="yours-title">Only you see</h2><dl id="yours" class="paths"></dl></section>
  </section>
  <section class="side" aria-label="The record">
    <details open id="log-box"><summary><h2>Log</h2></summary>
      <ol id="log" class="log" aria-label="Events"></ol></details>
    <details open id="notes-box"><summary><h2>Annotations at this step</h2></summary>
      <ul id="notes" class="notes"></ul></details>
    <details open id="changes-box"><summary><h2>Change from the previous step</h2></summary>
      <ul id="said" class="said"></ul><ul id="scored" class="scored"></ul>
      <details id="paths-box"><summary>the JSON paths</summary><dl id="changes" class="paths"></dl></details>
    </details>
    <details id="sheet-box"><summary><h2>Score sheet</h2></summary>
      <table id="sheet" class="sheet"><thead><tr><th scope="col">Seat</th><th scope="col">Points</th>
      <th scope="col">For</th><th scope="col">Rule</th></tr></thead><tbody></tbody></table></details>
    <details id="audit-box"><summary><h2>Audit</h2></summary>
      <p><button type="button" id="verify">Verify the record</button></p>
      <div id="report" aria-live="polite"></div>
      <form id="receipts-form" class="receipts" aria-label="Check receipts">
        <label for="receipts">Receipts (JSON: one receipt, a list, or write answers)</label>
        <textarea id="receipts" rows="4" spellcheck="false"></textarea>
        <label>or a file <input type="file" id="receipts-file" accept=".json,.jsonl,application/json"></label>
        <button type="submit">Check receipts</button>
      </form>
      <div id="receipt-report" aria-live="polite"></div>
    </details>
  </section>
</main>
<footer><p>Keys: ← → one step · Home / End first and last · Page Up / Page Down one turn (a turn starts when
another seat moves) · Shift+Page Up / Shift+Page Down, or [ / ], one round (in a game that has rounds, as
it counts them). The URL keeps the step (<code>?at=N</code>): copy it to link this position. A token
given as <code>#token=…</code> is kept in this tab only and taken out of the address at once.</p></footer>"""
    return _page(f"{summary.get('game', 'match')} {match_id[:8]}: {title}", body, root="../",
                 scripts=["viewer.js"], body_attrs=attrs)


def not_found(message: str, *, root: str) -> str:
    return _page("Not found", f'<main id="main"><h1>Not found</h1><p>{escape(message)}</p>'
                              f'<p><a href="{root}">All matches</a></p></main>', root=root)

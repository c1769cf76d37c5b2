"""Drum Roll's board as SVG, drawn from one viewer's view (issue 17).

What it shows, top to bottom: the round and phase (setup; performance p of 3 and its preparation
round; the action, sharing, end-of-round, vote, performance, wages phases) with the decision in
progress and who is to move; the performers and helpers for hire with their effective and printed
costs and discount tokens (DR-7.1); the general supply, the decks as counts and the discard piles,
the vote's ballots as the viewer may see them (DR-10.2); the action board's spaces with this
round's markers in stack order (DR-4.2, DR-5.3); the ticket track with each seat's ticket cube
(DR-5.5); the regions with their bonuses and holders (DR-15, DR-22.1); then one panel per seat:
score, money, deposit on the bank clerk, fame, ticket, region, cubes, markers left, each hired
performer with its cubes level by level against the level's need, its trailer and flip, the
helpers, and the investment hand.

Why it is safe to show anyone: it reads the view and nothing else. A hand, a deck, a draft or a
look the view holds as `{"count": n}` is drawn as backs and a number, so a spectator's drawing
holds no card id the spectator's view does not; the seat's own hand (and every hand, for the
arbiter) is a list in its view and is drawn face up. The component set (names, costs, levels)
comes from the match's recorded set (`known_components`); a set this process does not know makes
`draw` raise, and the registry falls back to the generic drawing. Pure: the same view gives the
same bytes.

Data attributes, for tests and the page to compare with the state API:

- root `<svg>`: `data-game="drum-roll"`, `data-seq`, `data-performance`, `data-round`,
  `data-phase`, `data-to-move` (the deciding seats, space separated).
- the players panel of each seat, `<g data-seat="N" data-score="T">` (T = `view["scores"][N]`);
  inside it, the money coin `data-money` (with `data-seat`), `data-fame` and `data-deposit` on
  the facts line, `data-cubes="white:1 yellow:0 ..."` on the cube supply;
- each hired performer `<g data-performer="ID" data-seat="N">` (and `data-flipped` = the
  performance it was flipped in, `data-trailer` when it has its own trailer);
- each helper in a circus `data-helper="ID"` with `data-seat`;
- each seat's hand `<g data-hand="N" data-hand-count="C">`, and in it each face-up card
  `data-card="ID"` with `data-seat` and `data-used` (only where the view lists the hand);
- the rows: `data-row-performer="ID"` / `data-row-helper="ID"` with `data-discounts`;
- the action board's spaces `data-space="red|ticket|..."` with `data-markers` (seats bottom first);
- ticket cubes `data-ticket="K" data-seat="N"`; region tokens `data-region="ID" data-seat="N"`;
  the general supply's cube counts `data-supply="colour"`; sections `data-section`.
"""

from __future__ import annotations

from typing import Any

from .drum_roll_parts import Table, fit, wrap
from .svg import Element, document, el, group, seat_colour, text

WIDTH = 1280
MARGIN = 16
GAP = 12
LEFT = 806
"""The rows' column: five performer cards side by side (the widest row, four players)."""

PHASES: dict[str, str] = {
    **dict.fromkeys(("draw_helper", "draw_performer", "draw_region", "regions_out", "draft_draw", "keep_performer",
                     "draft_reveal", "starting_cubes", "starting_money", "start_player", "given_start"), "setup"),
    **dict.fromkeys(("prep_round", "round_start", "bank_clerk", "deposit"), "start of the round"),
    **dict.fromkeys(("placement", "place_marker"), "action phase: placing markers"),
    **dict.fromkeys(("resolve", "cube", "ticket", "investment", "hire_performer", "hire_helper", "upkeep"),
                    "action phase: resolution"),
    **dict.fromkeys(("sharing", "share", "after_sharing"), "sharing phase"),
    **dict.fromkeys(("end_of_round", "organiser", "return_organiser", "refill_helpers", "refill_helper",
                     "refill_performers", "refill_performer", "pass_start"), "end of the round"),
    **dict.fromkeys(("vote", "ballot", "double_vote", "count_votes"), "vote on the performance"),
    **dict.fromkeys(("organiser_before_show", "return_organiser_before_show", "performance", "seat_performance",
                     "perform_next", "perform_card", "dazzling", "reward", "reward_cube", "look", "look_draw",
                     "look_keep", "reward_trailer", "reward_payment", "skip_wage", "applause", "region_bonus",
                     "show_helpers"), "performance"),
    "wages": "wages",
    **dict.fromkeys(("after_performance", "end_of_performance", "discard_rows", "next_performance", "pass_regions",
                     "reset_tickets", "next_start_player"), "end of the performance"),
    "end_of_game": "end of the game",
}
"""The phase each agenda step kind belongs to (tasks.py); `hand_limit` belongs to whatever follows."""


def phase(table: Table) -> str:
    """The phase the match is in, read from its agenda's head (the first step with a phase)."""
    if table.state.get("over") or (table.view.get("decision") or {}).get("over"):
        return "game over"
    for step in table.state.get("agenda") or []:
        kind = step.get("t") if isinstance(step, dict) else None
        if isinstance(kind, str) and kind in PHASES:
            return PHASES[kind]
    return "setup" if not table.state.get("performance") else ""


def round_text(table: Table) -> str:
    """`Performance 2 of 3 · preparation round 4 · sharing phase` (DR-3, DR-9.5)."""
    performance, round_ = int(table.state.get("performance") or 0), int(table.state.get("round") or 0)
    constants = table.c.constants
    words = [] if not performance else [f"Performance {performance} of {constants.performances}"]
    if performance and round_:
        words.append(f"preparation round {round_}")
    words.append(phase(table) or "setup")
    return " · ".join(words)


def decision_text(table: Table) -> str:
    """The decision in progress as the view states it: who decides and the prompt, or chance."""
    decision = table.view.get("decision") or {}
    if decision.get("over") or table.view.get("status") not in (None, "active"):
        return result_text(table) if decision.get("over") else f"The match is {table.view.get('status')}."
    if decision.get("chance"):
        return f"Chance: {decision.get('prompt') or decision['chance'].get('kind')}"
    seats = [seat for seat in decision.get("seats") or [] if isinstance(seat, int)]
    who = ", ".join(f"{table.name(seat)} (seat {seat})" for seat in seats) or "nobody"
    return f"{who} to decide: {decision.get('prompt', '')}".strip()


def result_text(table: Table) -> str:
    """The end as the view states it: the winners by name (DR-14.10 breaks ties)."""
    result = (table.view.get("end") or {}).get("result") or {}
    winners = [seat for seat in result.get("winners") or [] if isinstance(seat, int)]
    if not winners:
        return "The match is over."
    names = " and ".join(f"{table.name(seat)} (seat {seat})" for seat in winners)
    return f"The match is over: {names} {'wins' if len(winners) == 1 else 'share the win'}."


def header(table: Table) -> tuple[Element, float]:
    """The title band: step and round on the left, the decision on the right."""
    seq = table.view.get("seq", 0)
    parts: list[Element] = [
        el("rect", x=0, y=0, width=WIDTH, height=66, fill="#2b2233"),
        text(MARGIN, 28, "Drum Roll", fill="#ffd75e", font_size=22, font_weight=700),
        text(MARGIN + 128, 28, f"step {seq}", fill="#d9d2e3", font_size=14),
        text(MARGIN, 54, fit(round_text(table), 740, 15), fill="#ffffff", font_size=15, font_weight=600),
    ]
    start = table.state.get("start_player")
    if isinstance(start, int):
        parts.append(text(MARGIN + 200, 28, fit(f"★ start player: {table.name(start)} (seat {start})", 480, 13),
                          fill="#d9d2e3", font_size=13))
    lines = wrap(decision_text(table), 460, 12, 3)
    box_y = 33 - len(lines) * 8
    parts.append(el("rect", x=WIDTH - MARGIN - 476, y=box_y - 6, width=476, height=len(lines) * 16 + 10, rx=6,
                    fill="#3d3247"))
    for index, line in enumerate(lines):
        parts.append(text(WIDTH - MARGIN - 468, box_y + 10 + index * 16, line, fill="#ffffff", font_size=12))
    for index, seat in enumerate(sorted(table.moving)):
        parts.append(el("circle", cx=WIDTH - MARGIN - 490 - index * 16, cy=33, r=6, fill=seat_colour(seat),
                        stroke="#ffffff"))
    return group(parts, data_section="header"), 66


def market(table: Table, top: float) -> tuple[list[Element], float]:
    """The shared table in two columns: the rows and the supply left, the boards right."""
    from .drum_roll_market import action_board, helper_row, performer_row, regions, supply, ticket_track

    right_x, right_w = MARGIN + LEFT + GAP, WIDTH - 2 * MARGIN - LEFT - GAP
    parts: list[Element] = []
    y = top
    for section in (performer_row, helper_row, supply):
        drawn, height = section(table, MARGIN, y, LEFT)
        parts.append(drawn)
        y += height + GAP
    left_end = y
    y = top
    for section in (action_board, ticket_track, regions):
        drawn, height = section(table, right_x, y, right_w)
        parts.append(drawn)
        y += height + GAP
    return parts, max(left_end, y)


def circuses(table: Table, top: float) -> tuple[list[Element], float]:
    """One panel per seat, two to a line, each line as tall as its taller panel."""
    from .drum_roll_circus import circus

    width = (WIDTH - 2 * MARGIN - GAP) / 2
    parts: list[Element] = []
    y = top
    for first in range(0, table.seats, 2):
        tallest = 0.0
        for seat in range(first, min(first + 2, table.seats)):
            drawn, height = circus(table, MARGIN + (seat - first) * (width + GAP), y, width, seat)
            parts.append(drawn)
            tallest = max(tallest, height)
        y += tallest + GAP
    return parts, y


def draw(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    """The board of `view` (as `viewer` sees the match `summary` describes) as a whole `<svg>`."""
    from domain.games.drum_roll.components import DrumRollComponents, default_components
    from replay_cli.render.common import known_components

    state = view.get("state") or {}
    players = state.get("players")
    if not isinstance(players, list) or not players or "performer_row" not in state:
        raise ValueError("not a Drum Roll view")  # the registry draws the generic board instead
    table = Table(summary, view, known_components(summary, state, DrumRollComponents, default_components()))
    top, top_height = header(table)
    shared, y = market(table, top_height + GAP)
    seats, height = circuses(table, y)
    background = el("rect", x=0, y=0, width=WIDTH, height=height + MARGIN, fill="#fdfbf6")
    seq = int(view.get("seq", 0) or 0)
    label = f"Drum Roll at step {seq}, {round_text(table)}" + (f", as {viewer}" if viewer else "")
    return document(WIDTH, height + MARGIN - GAP, [background, top, *shared, *seats], label=label,
                    attrs={"data-game": "drum-roll", "data-seq": seq,
                           "data-performance": int(state.get("performance") or 0),
                           "data-round": int(state.get("round") or 0), "data-phase": phase(table),
                           "data-to-move": " ".join(map(str, sorted(table.moving)))})

"""Russian Railroads as SVG, drawn from one viewer's view: the main board (round track, turn order,
the decision, every action space with the workers and rubles on it, the engineer area and the
general supply) above the players' boards (three railways with their track markers, locomotives
and multipliers, the industry track with factories and markers, workers, rubles, engineers,
bonus tokens, final bonus cards and the score by category).

Why from the view alone: `draw` reads nothing but `view` (what `state_view` gives the viewer) and
the public component set the match names, so what the viewer may not know cannot be drawn. Another
seat's final bonus cards and the final bonus deck are counts in a seat's or spectator's view and
are drawn as card backs (RR-21.2); the cards removed unseen at setup and the engineers left in
decks X and Y appear only in the arbiter's view, and so only in the arbiter's drawing (RR-2.3,
RR-2.8). The drawing is pure: the same view gives the same bytes.

Data attributes, for tests and the page to compare with the state API:

- root `<svg data-game="russian-railroads" data-seq="N">`.
- each seat's board `<g data-seat="N" data-score="T" data-player="name">`, T = `view["scores"][N]`.
  Inside it:
  - track markers `data-line` (railway id) `data-colour` `data-space` (0: acquired, beside the
    railway, RR-0.3), one per marker the seat owns;
  - locomotives `data-line` `data-locomotive` (value); each railway `<g data-railway data-reach>`;
  - `data-multipliers` (placed count) with one `data-multiplier` (the space doubled) per multiplier;
  - industry markers `data-industry-marker` (0, 1) `data-place` (index on the lane); factories
    `data-gap` (1..) `data-factory` (the locomotive value on its face);
  - `data-workers` `data-reserve` `data-temporary` `data-rubles` on the supply row;
  - engineers `data-engineer`, bonus tokens used `data-token`, special spaces `data-special`
    (`railway:space`, `data-gained` once gained);
  - final bonus cards: a group `data-bonus-count`, and one `data-card` per card: its id where
    the view shows the face, `back` where it shows a count.
- workers and rubles on action spaces `<g data-seat data-space data-workers>` (plus
  `data-temporary`, `data-black`, `data-rubles` when non-zero), `data-space` the action space id or,
  for a seat's own engineer (RR-0.7), the engineer id; each action space `<g data-action="id"
  data-open>`; engineer slots `data-slot` `data-engineer`.
- the header: rounds `data-round` (`data-current` on this one), turn order `data-turn-order`
  `data-seat` `data-passed`, the decision `data-decision` (the seats to act, `over` or `none`).
- the supply: `data-stack` `data-count`, `data-pool`, `data-multipliers-left`, `data-face-up`,
  `data-starting`, the deck's `data-deck-count`; cards the view shows face up in the deck or as
  removed carry `data-card` and `data-pile` (`deck`, `removed`).
"""

from __future__ import annotations

from typing import Any

from .russian_railroads_pieces import STYLE, lines_of
from .russian_railroads_player import BOARD_W, board_height, player_board
from .russian_railroads_seen import MARGIN, WIDTH, Seen
from .russian_railroads_table import HEADER_H, action_spaces, board_background, engineer_area, header, supply
from .svg import Element, document, el


def draw(summary: dict[str, Any], view: dict[str, Any], viewer: str | None = None) -> str:
    """The SVG of `view` as `viewer` sees the match `summary` describes; a view that is not a
    Russian Railroads view raises ValueError (the registry then draws the generic board)."""
    seen = _seen(summary, view, viewer)
    parts, height = _layout(seen)
    seq = int(view.get("seq", 0) or 0)
    return document(WIDTH, height, [board_background(height), el("style", [STYLE]), *parts],
                    label=_label(seen, seq), attrs={"data-game": "russian-railroads", "data-seq": seq})


def _seen(summary: dict[str, Any], view: dict[str, Any], viewer: str | None) -> Seen:
    """The view with the match's component set and industry lane (RR-9.2 as the options read it)."""
    from domain.games.russian_railroads.components import RussianRailroadsComponents, default_components
    from replay_cli.render.common import known_components
    from replay_cli.render.russian_railroads import industry_lane

    state = view.get("state") or {}
    players = state.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, dict) and "tracks" in p
                                                                 for p in players):
        raise ValueError("not a Russian Railroads view")
    components = known_components(summary, state, RussianRailroadsComponents, default_components())
    first_gap = str((summary.get("options") or {}).get("industry_first_gap") or "after_four_spaces")
    return Seen(summary, view, viewer, components, industry_lane(components, first_gap))


def _layout(seen: Seen) -> tuple[list[Element], float]:
    """The main board on top, then the players' boards two to a row, in seat order."""
    parts: list[Element] = [header(seen)]
    spaces, spaces_h = action_spaces(seen, HEADER_H + 4)
    parts.append(spaces)
    y = HEADER_H + 4 + spaces_h + 12
    engineers, engineers_h, right = engineer_area(seen, y)
    parts += [engineers, supply(seen, right + 18, y)]
    y += engineers_h + 20
    board_h = board_height(seen)
    for seat in range(seen.seats):
        column, row = seat % 2, seat // 2
        parts.append(player_board(seen, seat, MARGIN + column * (BOARD_W + MARGIN), y + row * (board_h + MARGIN)))
    y += (seen.seats + 1) // 2 * (board_h + MARGIN)
    parts += lines_of(MARGIN, y + 4, LEGEND, 200, step=12, most=2, class_="label")
    return parts, y + 24


LEGEND = ("Tinted space: scores as the marker ahead of it (RR-14.4) · faded: past the locomotives' reach, scores "
          "nothing (RR-14.3) · red arrow: the reach (RR-0.6) · red dot: the locomotives must reach that special "
          "space too · ✓ gained · purple: factories · triangles: industry markers · ringed pieces: temporary or "
          "black workers and rubles placed by that seat")


def _label(seen: Seen, seq: int) -> str:
    """The drawing's accessible name: the step, the round and each seat's score."""
    state = seen.state
    where = f"round {state.get('round')} of {state.get('rounds')}" if state.get("round") else "setup"
    scores = ", ".join(f"{seen.name(seat)} {seen.score(seat)} VP" for seat in range(seen.seats))
    return f"Russian Railroads at step {seq}, {where}: {scores}"

"""Scoring: completed features during play, the circus, pyramids, and final scoring.

Every point becomes a `ScoreLine` with the rule that awards it and refs naming the tiles and
figures involved, so a total can always be explained line by line. The functions work on a
`Ledger`, a private working copy of the parts of the state that scoring changes; the caller
freezes it into the next state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from domain.kernel.canonical import JSON
from domain.kernel.contract import ScoreLine, ScoreSheet
from domain.kernel.values import evolve

from .catalog import Pos, RotatedTile, area3
from .features import Feature, bordering_cities, explore
from .state import CarcassonneState, Follower, Node

ROAD_PER_TILE = 1
CITY_PER_TILE = 2
CITY_PER_PENNANT = 2
MONASTERY_COMPLETE = 9
FARMER_PER_CITY = 3
ACROBAT_POINTS = 5
RINGMASTER_PER_TILE = 2


def score_sheet(state: CarcassonneState) -> ScoreSheet:
    """Every line scored so far (the ruleset's `score`): the state keeps them as they were scored."""
    return ScoreSheet(state.seats, state.lines)


def pos_ref(pos: Pos) -> list[int]:
    return [pos[0], pos[1]]


def follower_ref(node: Node, follower: Follower) -> list[JSON]:
    """A figure in a score line's refs, compactly: [x, y, segment, seat, figure]."""
    return [node[0], node[1], node[2], follower.seat, follower.figure]


@dataclass
class Ledger:
    """Mutable working copy used inside one transition; never shared between states."""

    followers: dict[Node, Follower]
    pyramids: dict[Pos, tuple[int, ...]]
    supply: list[int]
    ringmaster_home: list[bool]
    lines: list[ScoreLine]

    @classmethod
    def of(cls, state: CarcassonneState) -> Ledger:
        return cls(dict(state.followers), dict(state.pyramids), list(state.supply),
                   list(state.ringmaster_home), list(state.lines))

    def freeze(self, state: CarcassonneState, **changes: object) -> CarcassonneState:
        return evolve(
            state,
            followers=self.followers,
            pyramids=self.pyramids,
            supply=tuple(self.supply),
            ringmaster_home=tuple(self.ringmaster_home),
            lines=tuple(self.lines),
            **changes,
        )

    def give_back(self, node: Node) -> None:
        """Return the figure on `node` to its owner's supply (CB-5.7)."""
        follower = self.followers.pop(node)
        if follower.figure == "ringmaster":
            self.ringmaster_home[follower.seat] = True
        else:
            self.supply[follower.seat] += 1


def majority(figures: list[tuple[Node, Follower]]) -> list[int]:
    """Seats with the most figures on a feature; ties all win (CB-5.5). A ringmaster counts as
    one normal meeple (BT-7.3)."""
    counts: dict[int, int] = {}
    for _, follower in figures:
        counts[follower.seat] = counts.get(follower.seat, 0) + 1
    if not counts:
        return []
    best = max(counts.values())
    return sorted(seat for seat, count in counts.items() if count == best)


def ringmaster_tiles(board: Mapping[Pos, RotatedTile], pos: Pos) -> list[Pos]:
    """Circus and acrobat tiles on or around `pos` (BT-7.4, AMB-5, AMB-16). The Big Top and
    acrobats do not matter (BT-7.6)."""
    return [p for p in area3(pos) if p in board and board[p].kind in ("circus", "acrobat")]


def feature_points(board: Mapping[Pos, RotatedTile], feature: Feature, final: bool) -> tuple[int, str, str]:
    """Points, rule and detail of a feature (completed in play, or incomplete at the end)."""
    tiles = len(feature.tiles)
    if feature.kind == "road":
        return tiles * ROAD_PER_TILE, ("CB-6.2" if final else "CB-5.2"), f"road of {tiles} tiles"
    if feature.kind == "city":
        if final:
            detail = f"incomplete city of {tiles} tiles, {feature.pennants} pennants"
            return tiles + feature.pennants, "CB-6.2", detail
        points = tiles * CITY_PER_TILE + feature.pennants * CITY_PER_PENNANT
        return points, "CB-5.3", f"city of {tiles} tiles, {feature.pennants} pennants"
    if feature.kind == "monastery":
        if final:
            return tiles, "CB-6.2", f"incomplete monastery with {tiles - 1} neighbours"
        return MONASTERY_COMPLETE, "CB-5.4", "completed monastery"
    cities = [city for city in bordering_cities(board, feature) if city.complete]
    detail = f"field bordering {len(cities)} completed cities"
    return FARMER_PER_CITY * len(cities), "CB-6.3", detail


def score_feature(ledger: Ledger, board: Mapping[Pos, RotatedTile], feature: Feature, final: bool) -> None:
    """Score one feature for its majority, then each ringmaster's bonus, then (during play)
    return its figures (CB-5.5, CB-5.7, BT-7.4, BT-8.3)."""
    figures = feature.followers(ledger.followers)
    if not figures:
        return
    points, rule, detail = feature_points(board, feature, final)
    refs: dict[str, JSON] = {
        "tiles": [pos_ref(p) for p in feature.tiles],
        "followers": [follower_ref(n, f) for n, f in figures],
        "feature": [feature.key[0], feature.key[1], feature.key[2]],
    }
    if feature.kind == "field":
        cities = [city for city in bordering_cities(board, feature) if city.complete]
        refs["cities"] = [[city.key[0], city.key[1], city.key[2]] for city in cities]
    category = "farm" if feature.kind == "field" else feature.kind
    for seat in majority(figures):
        if points:
            ledger.lines.append(ScoreLine(seat, points, category, rule, detail, refs))
    for node, follower in figures:
        if follower.figure != "ringmaster":
            continue
        around = ringmaster_tiles(board, (node[0], node[1]))
        if around:
            ledger.lines.append(ScoreLine(
                follower.seat, RINGMASTER_PER_TILE * len(around), "ringmaster",
                "BT-8.3" if final else "BT-7.4",
                f"ringmaster beside {len(around)} circus/acrobat tiles",
                {"tiles": [pos_ref(p) for p in around], "followers": [follower_ref(node, follower)]},
            ))
    if not final:
        for node, _ in figures:
            ledger.give_back(node)


def score_completed(ledger: Ledger, board: Mapping[Pos, RotatedTile], pos: Pos) -> None:
    """Step 3 (CB-5.1): every feature the tile at `pos` completed, in a fixed order: its own
    cities and roads, then the monasteries of its 3x3 area."""
    tile = board[pos]
    done: set[Node] = set()
    for segment in tile.segments:
        if segment.kind not in ("city", "road"):
            continue
        node = (pos[0], pos[1], segment.id)
        if node in done:
            continue
        feature = explore(board, node)
        done.update(feature.nodes)
        if feature.complete:
            score_feature(ledger, board, feature, final=False)
    for around in area3(pos):
        other = board.get(around)
        monastery = other.monastery if other is not None else None
        if monastery is None:
            continue
        node = (around[0], around[1], monastery.id)
        if node in ledger.followers:
            feature = explore(board, node)
            if feature.complete:
                score_feature(ledger, board, feature, final=False)


def score_circus(ledger: Ledger, big_top: Pos, animal: str, value: int, final: bool) -> None:
    """Every figure on the Big Top tile or around it scores the token's value for its owner,
    whatever its role, and stays (BT-4.3 to BT-4.7; BT-8.1 at the end)."""
    area = set(area3(big_top))
    counts: dict[int, list[JSON]] = {}
    for node in sorted(ledger.followers):
        if node[:2] in area:
            follower = ledger.followers[node]
            counts.setdefault(follower.seat, []).append(follower_ref(node, follower))
    for pos in sorted(ledger.pyramids):
        if pos in area:
            for level, seat in enumerate(ledger.pyramids[pos]):
                counts.setdefault(seat, []).append([pos[0], pos[1], f"acrobat{level + 1}", seat, "acrobat"])
    for seat in sorted(counts):
        figures = counts[seat]
        ledger.lines.append(ScoreLine(
            seat, value * len(figures), "circus", "BT-8.1" if final else "BT-4.3",
            f"{animal} ({value}) x {len(figures)} meeples around the Big Top",
            {"tiles": [pos_ref(big_top)], "token": animal, "followers": figures},
        ))


def circus_figures(line: ScoreLine) -> int:
    """How many figures a circus line scored the token's value for (0 for any other line): the
    line's points are that count times the value (BT-4.4), so a planner that does not know the
    token can value the line at its expected value."""
    if line.category != "circus":
        return 0
    figures = line.refs.get("followers")
    return len(figures) if isinstance(figures, list) else 0


def score_pyramid(ledger: Ledger, pos: Pos) -> None:
    """A complete pyramid scored instead of a figure placement: 5 per acrobat, acrobats go home
    (BT-6.2)."""
    acrobats = ledger.pyramids.pop(pos)
    for seat in sorted(set(acrobats)):
        count = acrobats.count(seat)
        ledger.lines.append(ScoreLine(
            seat, ACROBAT_POINTS * count, "pyramid", "BT-6.2", f"{count} acrobats in a scored pyramid",
            {"tiles": [pos_ref(pos)], "acrobats": list(acrobats)},
        ))
        ledger.supply[seat] += count


def final_scoring(ledger: Ledger, state: CarcassonneState) -> None:
    """Game end: the circus once more (BT-8.1), then incomplete features and fields (CB-6.2,
    CB-6.3) with ringmaster bonuses (BT-8.3), then every acrobat (BT-8.2)."""
    board = state.board
    if state.big_top is not None and state.big_top_token is not None:
        animal = state.big_top_token
        score_circus(ledger, state.big_top, animal, state.catalog.token_values[animal], final=True)
    done: set[Node] = set()
    for node in sorted(ledger.followers):
        if node in done:
            continue
        feature = explore(board, node)
        done.update(feature.nodes)
        score_feature(ledger, board, feature, final=True)
    for pos in sorted(ledger.pyramids):
        acrobats = ledger.pyramids[pos]
        for seat in sorted(set(acrobats)):
            count = acrobats.count(seat)
            ledger.lines.append(ScoreLine(
                seat, ACROBAT_POINTS * count, "acrobat", "BT-8.2", f"{count} acrobats at game end",
                {"tiles": [pos_ref(pos)], "acrobats": list(acrobats)},
            ))

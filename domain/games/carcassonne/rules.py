"""The Carcassonne + Under the Big Top ruleset: the turn as a sequence of decisions.

draw (chance, CB-3.3 redraws) -> place (CB-3) -> figure step (CB-4, BT-5, BT-6, BT-7) ->
scoring (CB-5, then BT-4 after a circus tile) -> animal token (chance, BT-3.5 / BT-4.8) ->
next seat; when the stack is empty, final scoring (BT-8, CB-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, ClassVar, cast

from domain.kernel.canonical import JSON
from domain.kernel.components import ComponentSet
from domain.kernel.contract import (
    Bot,
    ChanceSpec,
    Decision,
    MatchConfig,
    OptionsModel,
    Ruleset,
    ScoreSheet,
    VariantInfo,
    Visibility,
)
from domain.kernel.errors import IllegalMoveError, ImpossibleOutcomeError, InvalidSeatsError
from domain.kernel.values import evolve
from domain.kernel.viewers import Viewer

from . import bots, codec, views
from .board import fits, mismatch, placeable, placements
from .catalog import DX, DY, area3, catalog_for
from .components import CarcassonneComponents, default_components
from .features import explore
from .moves import MOVE_ADAPTER, CarcassonneMove, Pass, PlaceAcrobat, PlaceFollower, PlaceTile, ScorePyramid
from .options import CarcassonneOptions, parts_of
from .position import CarcassonnePosition, from_position, hide_position, position_of
from .scoring import Ledger, final_scoring, score_circus, score_completed, score_pyramid, score_sheet
from .state import CarcassonneState, Follower, Parts

PYRAMID_SIZE = 3
_count = itemgetter(1)
"""A (tile or token, count) pair's count: the pairs kept for a draw are those with some left."""
BASE_SEATS = 5
BIG_TOP_SEATS = 6


def tile_kinds(parts: Parts) -> set[str]:
    """Tile kinds shuffled into the stack (BT-2.2): base tiles plus the parts in play."""
    return {"base"} | ({"circus"} if parts.circus else set()) | ({"acrobat"} if parts.acrobats else set())


class CarcassonneRules(Ruleset[CarcassonneState, CarcassonneMove]):
    name: ClassVar[str] = "carcassonne"
    title: ClassVar[str] = "Carcassonne (with Under the Big Top)"
    engine_version: ClassVar[str] = "1.0.0"
    rule_prefix: ClassVar[str] = "CB/BT"
    variants: ClassVar[Mapping[str, VariantInfo]] = {
        "base": VariantInfo("The base game: 72 tiles, 7 meeples each", 2, BASE_SEATS),
        "big-top": VariantInfo(
            "Under the Big Top in full: circus tiles, animal tokens and the Big Top; acrobat tiles; "
            "ringmasters (one per colour, six colours)", 2, BIG_TOP_SEATS),
        "big-top-circus": VariantInfo(
            "Base game plus the circus tiles, animal tokens and Big Top", 2, BASE_SEATS),
        "big-top-acrobats": VariantInfo("Base game plus the acrobat tiles", 2, BASE_SEATS),
        "big-top-ringmasters": VariantInfo("Base game plus one ringmaster per player", 2, BIG_TOP_SEATS),
    }
    default_variant: ClassVar[str] = "big-top"
    options_model: ClassVar[type[OptionsModel]] = CarcassonneOptions
    components_model: ClassVar[type[ComponentSet]] = CarcassonneComponents
    move_adapter: ClassVar[Any] = MOVE_ADAPTER

    # ---- components and setup -------------------------------------------------------
    def default_components(self) -> ComponentSet:
        return default_components()

    def setup(self, config: MatchConfig[CarcassonneState]) -> CarcassonneState:
        components = cast(CarcassonneComponents, config.components)
        catalog = catalog_for(components)
        parts = parts_of(config.variant, config.options)
        if config.seats > BIG_TOP_SEATS or (config.seats > BASE_SEATS and not parts.ringmasters):
            raise InvalidSeatsError(
                f"{config.seats} seats need a sixth colour, which only the ringmasters part brings (BT-1.4)")
        kinds = tile_kinds(parts)
        stack = {tile.id: tile.count - tile.start_copies for tile in components.tiles if tile.kind in kinds}
        tokens = {t.animal: t.count for t in components.animal_tokens} if parts.circus else {}
        start = (0, 0)
        return CarcassonneState(
            seats=config.seats,
            parts=parts,
            catalog=catalog,
            board={start: catalog.get(components.start_tile, 0)},
            order=(start,),
            stack={tile: count for tile, count in stack.items() if count},
            tokens=tokens,
            phase="draw",
            seat=0,
            turn=1,
            current_tile=None,
            placed=None,
            followers={},
            pyramids={},
            supply=(components.followers_per_player,) * config.seats,
            ringmaster_home=(parts.ringmasters,) * config.seats,
            big_top=None,
            big_top_token=None,
            revealed=(),
            discarded=(),
            lines=(),
        )

    # ---- decisions and legal moves -----------------------------------------------------
    def decision(self, state: CarcassonneState) -> Decision:
        if state.phase == "draw":
            outcomes = tuple(filter(_count, sorted(state.stack.items())))  # the tiles left, by count
            return Decision.of_chance(ChanceSpec("tile", outcomes, "all"), f"seat {state.seat} draws a tile")
        if state.phase == "token":
            outcomes = tuple(filter(_count, sorted(state.tokens.items())))
            # Face down (BT-3.7), except after the last tile: the game then ends at once and the
            # circus is scored with this very token (BT-8.1), so it is revealed as it is drawn.
            visible: Visibility = "none" if state.tiles_left() else "all"
            return Decision.of_chance(ChanceSpec("animal-token", outcomes, visible),
                                      "a face-down animal token goes under the Big Top")
        if state.phase == "place":
            return Decision.to_move(state.seat, prompt=f"place tile {state.current_tile}")
        if state.phase == "figure":
            # a pyramid is only offered with the acrobats (BT-6.2): the base game's prompt says nothing of it
            options = "place a figure, score a pyramid or pass" if state.parts.acrobats else "place a figure or pass"
            return Decision.to_move(state.seat, prompt=options)
        return Decision.finished()

    def legal_moves(self, state: CarcassonneState, seat: int) -> Sequence[CarcassonneMove]:
        if seat != state.seat:
            return []
        if state.phase == "place" and state.current_tile is not None:
            return [PlaceTile(x=pos[0], y=pos[1], rotation=rotation)
                    for pos, rotation in placements(state.board, state.catalog, state.current_tile)]
        if state.phase == "figure":
            return self._figure_moves(state)
        return []

    def _figure_moves(self, state: CarcassonneState) -> list[CarcassonneMove]:
        assert state.placed is not None
        seat, (x, y) = state.seat, state.placed
        moves: list[CarcassonneMove] = [Pass()]
        has_meeple = state.supply[seat] > 0
        has_ringmaster = state.parts.ringmasters and state.ringmaster_home[seat]
        if has_meeple or has_ringmaster:
            claimed = state.followers
            for segment in state.board[(x, y)].segments:
                node = (x, y, segment.id)
                if claimed and any(n in claimed for n in explore(state.board, node).nodes):
                    continue
                if has_meeple:
                    moves.append(PlaceFollower(segment=segment.id))
                if has_ringmaster:
                    moves.append(PlaceFollower(segment=segment.id, figure="ringmaster"))
        if state.parts.acrobats:
            if has_meeple:
                for pos in area3((x, y)):
                    tile = state.board.get(pos)
                    if (tile is not None and tile.kind == "acrobat"
                            and len(state.pyramids.get(pos, ())) < PYRAMID_SIZE):
                        moves.append(PlaceAcrobat(x=pos[0], y=pos[1]))
            for pos, acrobats in sorted(state.pyramids.items()):
                if len(acrobats) == PYRAMID_SIZE:
                    moves.append(ScorePyramid(x=pos[0], y=pos[1]))
        return moves

    # ---- validation ---------------------------------------------------------------------
    def validate(self, state: CarcassonneState, seat: int, move: CarcassonneMove) -> None:
        if state.phase == "over":
            raise IllegalMoveError("CB-6.1", "the game is over")
        if seat != state.seat:
            raise IllegalMoveError("CB-1.3", f"it is seat {state.seat}'s turn")
        if state.phase == "place":
            if not isinstance(move, PlaceTile):
                raise IllegalMoveError("CB-2.1", "the drawn tile must be placed first")
            self._validate_place(state, move)
            return
        if state.phase != "figure":
            raise IllegalMoveError("CB-2.1", "a tile must be drawn first")
        if isinstance(move, PlaceTile):
            raise IllegalMoveError("CB-2.1", "a tile was already placed this turn; now place a figure or pass")
        if isinstance(move, PlaceFollower):
            self._validate_follower(state, move)
        elif isinstance(move, PlaceAcrobat):
            self._validate_acrobat(state, move)
        elif isinstance(move, ScorePyramid):
            self._validate_pyramid(state, move)

    def _validate_place(self, state: CarcassonneState, move: PlaceTile) -> None:
        assert state.current_tile is not None
        pos = (move.x, move.y)
        if pos in state.board:
            raise IllegalMoveError("CB-3.4", f"a tile already lies at ({move.x}, {move.y})")
        if not any((move.x + DX[side], move.y + DY[side]) in state.board for side in range(4)):
            raise IllegalMoveError("CB-3.1",
                           "the tile must share an edge with a tile on the map; a corner is not enough")
        rotated = state.catalog.get(state.current_tile, move.rotation)
        problem = mismatch(state.board, rotated, pos)
        if problem is not None:
            raise IllegalMoveError("CB-3.2", problem)

    def _validate_follower(self, state: CarcassonneState, move: PlaceFollower) -> None:
        assert state.placed is not None
        tile = state.board[state.placed]
        if move.segment not in tile.by_id:
            if tile.kind == "circus" and move.segment.startswith("circus"):
                raise IllegalMoveError("BT-3.3", "no figure may be placed on the circus space")
            if tile.kind == "acrobat" and move.segment.startswith("acrobat"):
                raise IllegalMoveError("BT-5.2", "an acrobat is placed with an acrobat move, on a pyramid")
            raise IllegalMoveError("CB-4.2", f"tile {tile.type_id} has no feature {move.segment!r} "
                                     f"(it has {', '.join(s.id for s in tile.segments)})")
        if move.figure == "ringmaster":
            if not state.parts.ringmasters:
                raise IllegalMoveError("BT-2.1", "the ringmasters are not part of this game")
            if not state.ringmaster_home[state.seat]:
                raise IllegalMoveError("BT-7.1", "your only ringmaster is already on the board")
        elif state.supply[state.seat] == 0:
            raise IllegalMoveError("CB-4.4", "you have no meeple left in your supply")
        node = (state.placed[0], state.placed[1], move.segment)
        if any(n in state.followers for n in explore(state.board, node).nodes):
            kind = tile.by_id[move.segment].kind
            raise IllegalMoveError("CB-4.3", f"that {kind} already holds a figure, on this tile or further along")

    def _validate_acrobat(self, state: CarcassonneState, move: PlaceAcrobat) -> None:
        assert state.placed is not None
        if not state.parts.acrobats:
            raise IllegalMoveError("BT-2.1", "the acrobat tiles are not part of this game")
        if move.figure == "ringmaster":
            raise IllegalMoveError("BT-7.3", "the ringmaster may not be an acrobat (BT-5.8)")
        pos = (move.x, move.y)
        tile = state.board.get(pos)
        if tile is None or tile.kind != "acrobat":
            raise IllegalMoveError("BT-5.2", f"there is no acrobat tile at ({move.x}, {move.y})")
        if pos not in area3(state.placed):
            raise IllegalMoveError("BT-5.3", "an acrobat goes only on the tile just placed or an acrobat tile "
                                     "touching it, orthogonally or diagonally")
        if len(state.pyramids.get(pos, ())) >= PYRAMID_SIZE:
            raise IllegalMoveError("BT-5.6", "that pyramid is complete: no more acrobats fit until it is scored")
        if state.supply[state.seat] == 0:
            raise IllegalMoveError("CB-4.4", "you have no meeple left in your supply")

    def _validate_pyramid(self, state: CarcassonneState, move: ScorePyramid) -> None:
        if not state.parts.acrobats:
            raise IllegalMoveError("BT-2.1", "the acrobat tiles are not part of this game")
        acrobats = state.pyramids.get((move.x, move.y), ())
        if len(acrobats) < PYRAMID_SIZE:
            raise IllegalMoveError("BT-6.1", f"the pyramid at ({move.x}, {move.y}) holds {len(acrobats)} acrobats, "
                                     "not 3: only a complete pyramid can be scored")

    # ---- transitions -----------------------------------------------------------------------
    def apply(self, state: CarcassonneState, seat: int, move: CarcassonneMove) -> CarcassonneState:
        if isinstance(move, PlaceTile):
            assert state.current_tile is not None
            pos = (move.x, move.y)
            board = dict(state.board)
            board[pos] = state.catalog.get(state.current_tile, move.rotation)
            return evolve(state, board=board, order=(*state.order, pos), placed=pos, phase="figure")
        assert state.placed is not None
        ledger = Ledger.of(state)
        if isinstance(move, PlaceFollower):
            node = (state.placed[0], state.placed[1], move.segment)
            ledger.followers[node] = Follower(seat, move.figure)
            if move.figure == "ringmaster":
                ledger.ringmaster_home[seat] = False
            else:
                ledger.supply[seat] -= 1
        elif isinstance(move, PlaceAcrobat):
            pos = (move.x, move.y)
            ledger.pyramids[pos] = (*ledger.pyramids.get(pos, ()), seat)
            ledger.supply[seat] -= 1
        elif isinstance(move, ScorePyramid):
            score_pyramid(ledger, (move.x, move.y))
        return self._scoring_step(state, ledger)

    def _scoring_step(self, state: CarcassonneState, ledger: Ledger) -> CarcassonneState:
        """CB-5 for the placed tile, then the circus (BT-4.1 to BT-4.8) after a circus tile."""
        assert state.placed is not None
        score_completed(ledger, state.board, state.placed)
        circus_placed = state.parts.circus and state.board[state.placed].kind == "circus"
        if not circus_placed:
            return self._end_turn(ledger.freeze(state))
        revealed = state.revealed
        if state.big_top is not None and state.big_top_token is not None:
            animal = state.big_top_token
            score_circus(ledger, state.big_top, animal, state.catalog.token_values[animal], final=False)
            revealed = (*revealed, animal)
        after = ledger.freeze(state, revealed=revealed, big_top_token=None)
        if after.tokens_left() == 0:  # only with a custom set; the components forbid it (BT-4.10)
            return self._end_turn(evolve(after, big_top=None))
        return evolve(after, phase="token")

    def _end_turn(self, state: CarcassonneState) -> CarcassonneState:
        after = evolve(state, phase="draw", seat=(state.seat + 1) % state.seats, turn=state.turn + 1,
                        placed=None, current_tile=None)
        return self._maybe_finish(after)

    def _maybe_finish(self, state: CarcassonneState) -> CarcassonneState:
        """The game ends after the turn of the last tile (CB-6.1); then final scoring."""
        if state.tiles_left():
            return state
        ledger = Ledger.of(state)
        final_scoring(ledger, state)
        revealed = state.revealed + ((state.big_top_token,) if state.big_top_token else ())
        return ledger.freeze(state, phase="over", revealed=revealed, big_top_token=None)

    def resolve(self, state: CarcassonneState, outcome: JSON) -> CarcassonneState:
        if state.phase == "draw":
            if not isinstance(outcome, str) or state.stack.get(outcome, 0) <= 0:
                raise ImpossibleOutcomeError(f"tile {outcome!r} is not left in the stack")
            stack = dict(state.stack)
            stack[outcome] -= 1
            if not stack[outcome]:
                del stack[outcome]
            if placeable(state.board, state.catalog, outcome):
                return evolve(state, stack=stack, phase="place", current_tile=outcome)
            # CB-3.3: the tile fits nowhere, so it leaves the game and the same seat draws again.
            return self._maybe_finish(evolve(state, stack=stack, discarded=(*state.discarded, outcome)))
        if state.phase == "token":
            if not isinstance(outcome, str) or state.tokens.get(outcome, 0) <= 0:
                raise ImpossibleOutcomeError(f"animal token {outcome!r} is not left in the stack")
            tokens = dict(state.tokens)
            tokens[outcome] -= 1
            if not tokens[outcome]:
                del tokens[outcome]
            return self._end_turn(evolve(state, tokens=tokens, big_top=state.placed, big_top_token=outcome))
        raise ImpossibleOutcomeError("no chance event is pending")

    # ---- reading ------------------------------------------------------------------------
    def view(self, state: CarcassonneState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def round_of(self, state: CarcassonneState) -> int | None:
        """CB-1.3: seats take turns clockwise from the first seat (seat 0: the one to lay the first
        tile), so a round is one turn of every seat and turn t is in round (t - 1) // seats + 1.
        A turn counts from its first move, the tile laid (CB-2.1), as the viewer's turn starts do:
        while its seat draws (again, after a tile that fits nowhere, CB-3.3) the turn before still
        runs, and after the last turn (CB-6.1) the count stays at it. None before the first tile."""
        begun = state.turn if state.phase in ("figure", "token") else state.turn - 1
        return (begun - 1) // state.seats + 1 if begun >= 1 else None

    def score(self, state: CarcassonneState) -> ScoreSheet:
        return score_sheet(state)

    def encode_state(self, state: CarcassonneState) -> JSON:
        return codec.encode(state)

    def decode_state(self, data: JSON, config: MatchConfig[CarcassonneState]) -> CarcassonneState:
        return codec.decode(data, catalog_for(cast(CarcassonneComponents, config.components)))

    def max_events(self, config: MatchConfig[CarcassonneState]) -> int:
        """Per tile: a draw, a placement, a figure step and at most one token draw."""
        components = cast(CarcassonneComponents, config.components)
        parts = parts_of(config.variant, config.options)
        kinds = tile_kinds(parts)
        tiles = sum(tile.count - tile.start_copies for tile in components.tiles if tile.kind in kinds)
        return 4 * tiles + 1

    position_model: ClassVar[type[CarcassonnePosition]] = CarcassonnePosition

    def position_of(self, state: CarcassonneState) -> dict[str, Any]:
        return position_of(state)

    def from_position(self, config: MatchConfig[CarcassonneState], position: Any) -> CarcassonneState:
        return from_position(self.setup(config), position)

    def hide_position(self, position: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return hide_position(position, viewer)

    def bots(self) -> dict[str, Bot]:
        return bots.bots(self)

    # ---- helpers for tools and tests -------------------------------------------------------
    def fits_at(self, state: CarcassonneState, tile_id: str, x: int, y: int, rotation: int) -> bool:
        return (x, y) not in state.board and fits(state.board, state.catalog.get(tile_id, rotation), (x, y))

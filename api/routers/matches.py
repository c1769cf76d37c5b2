"""Matches: create (tokens shown once), list and filter, summary, and every read as the caller's
viewer: state at any position, diff, decision and legal moves, the event log, the score sheet, the
live stream, and forks."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from uuid import UUID, uuid4

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import Response, StreamingResponse

from domain.application import Accepted, decision_json
from domain.kernel.positions import position_view

from ..auth import Principal, forbidden, hash_token, new_token
from ..context import ApiContext, caller, check_unsealed, context, redacted_events
from ..problems import ApiProblem
from ..schemas import (
    MAX_INT,
    CreateMatch,
    DecisionOut,
    DiffOut,
    ForkIn,
    LegalMovesOut,
    LogOut,
    MatchCreated,
    MatchList,
    MatchSummary,
    PositionOut,
    ScoreOut,
    StateOut,
    UndoList,
)
from ..stream import MatchStream
from . import READ, WRITE, problems

router = APIRouter(prefix="/matches", tags=["matches"])
Ctx = Annotated[ApiContext, Depends(context)]
Caller = Annotated[Principal, Depends(caller)]
At = Annotated[int | None, Query(ge=1, le=MAX_INT, description="a sequence number (default: the head)")]


def mint_tokens(ctx: ApiContext, match_id: UUID, players: list[str]) -> dict[str, Any]:
    """New tokens for a match: stored hashed, returned in clear exactly once."""
    seat_tokens = [new_token() for _ in players]
    seats = [{"seat": seat, "player": name.strip(), "token": seat_tokens[seat]} for seat, name in enumerate(players)]
    arbiter, recorder = new_token(), new_token()
    rows: list[tuple[str, str, int | None]] = [(hash_token(token), "seat", seat)
                                               for seat, token in enumerate(seat_tokens)]
    rows += [(hash_token(arbiter), "arbiter", None), (hash_token(recorder), "recorder", None)]
    ctx.store.add_tokens(str(match_id), rows)
    return {"seats": seats, "arbiter": arbiter, "recorder": recorder}


def created_body(ctx: ApiContext, accepted: Accepted, tokens: dict[str, Any]) -> dict[str, Any]:
    match_id = UUID(accepted.receipt.match_id)
    return {"match_id": str(match_id), "version": accepted.version, "receipt": accepted.receipt.to_json(),
            "tokens": tokens, "summary": ctx.ringside.summary(match_id)}


@router.post("", status_code=201, response_model=MatchCreated, responses=problems(404, 422),
             summary="Create a match; the seat, arbiter and recorder tokens are shown only in this answer")
def create_match(body: CreateMatch, ctx: Ctx) -> dict[str, Any]:
    match_id = uuid4()
    tokens = mint_tokens(ctx, match_id, body.players)
    try:
        accepted = ctx.ringside.create_match(
            body.game, body.players, variant=body.variant, options=body.options, randomness=body.randomness,
            undo_policy=body.undo_policy, entropy=body.entropy, entropy_from=body.entropy_from,
            components=body.components, match_id=match_id, title=body.title, position=body.position)
    except Exception:
        ctx.store.remove_tokens(str(match_id))  # the match was refused: its tokens open nothing
        raise
    return created_body(ctx, accepted, tokens)


def _iso(value: datetime | None) -> str | None:
    """A filter date as the read model's ISO-8601 UTC text (naive dates are taken as UTC)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@router.get("", response_model=MatchList, responses=problems(422),
            summary="List and filter matches (from the read model, newest first)")
def list_matches(
    ctx: Ctx,
    game: Annotated[str | None, Query(max_length=64)] = None,
    status: Literal["active", "ended"] | None = None,
    player: Annotated[str | None, Query(max_length=80, description="part of a player's name")] = None,
    since: Annotated[datetime | None, Query(description="created at or after (ISO 8601)")] = None,
    until: Annotated[datetime | None, Query(description="created before (ISO 8601)")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    matches = ctx.ringside.list_matches(game=game, status=status, player=player, since=_iso(since),
                                        until=_iso(until), limit=limit, offset=offset)
    return {"matches": matches, "limit": limit, "offset": offset}


@router.get("/{match_id}", response_model=MatchSummary, responses=READ, summary="One match's summary")
def match_summary(match_id: UUID, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    return ctx.ringside.summary(match_id)


@router.get("/{match_id}/state", response_model=StateOut, responses=READ,
            summary="The state as the caller may see it, at the head or at any sequence number")
def state(match_id: UUID, ctx: Ctx, principal: Caller, at: At = None) -> dict[str, Any]:
    viewer = principal.viewer(ctx.ringside.fold(match_id))
    return {**ctx.ringside.state(match_id, viewer, at), "viewer": str(viewer)}


@router.get("/{match_id}/board.svg", response_class=Response, responses={
    **READ, 200: {"content": {"image/svg+xml": {"schema": {"type": "string"}}}, "description": "the board as SVG"}},
            summary="The board drawn as SVG, as the caller may see it, at the head or at any sequence number")
def board_svg(match_id: UUID, ctx: Ctx, principal: Caller, at: At = None) -> Response:
    """Drawn from exactly the view `/state` answers with (the game's board module sees nothing
    else), so the picture never shows what the caller's viewer may not know. Private: a seat's
    picture holds its hand, so no shared cache may keep it."""
    from ..viewer.boards import draw_board  # the boards are imported by the first drawing, not at start

    viewer = principal.viewer(ctx.ringside.fold(match_id))
    view = {**ctx.ringside.state(match_id, viewer, at), "viewer": str(viewer)}
    svg = draw_board(ctx.ringside.summary(match_id), view, str(viewer))
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "private, no-cache"})


@router.get("/{match_id}/position", response_model=PositionOut, responses={**READ, **problems(409)},
            summary="The table at the head or at any sequence number in the game's position format, as the caller "
                    "may see it (409 no-position where the format describes none: mid-turn, or the end)")
def position(match_id: UUID, ctx: Ctx, principal: Caller, at: At = None) -> dict[str, Any]:
    viewer = principal.viewer(ctx.ringside.fold(match_id))
    return position_view(ctx.ringside.fold(match_id, at), viewer)


@router.get("/{match_id}/diff", response_model=DiffOut, responses=READ,
            summary="What changed between two positions, as the caller may see them")
def state_diff(match_id: UUID, ctx: Ctx, principal: Caller,
               from_: Annotated[int, Query(alias="from", ge=1, le=MAX_INT)],
               to: Annotated[int | None, Query(ge=1, le=MAX_INT, description="default: the head")] = None,
               ) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    viewer = principal.viewer(fold)
    return {**ctx.ringside.diff(match_id, from_, to or fold.seq, viewer), "viewer": str(viewer)}


def _actable_seats(principal: Principal, seats: tuple[int, ...], recorded: bool) -> list[int]:
    if principal.role == "seat":
        return [seat for seat in seats if seat == principal.seat]
    if principal.role == "arbiter" or (principal.role == "recorder" and recorded):
        return list(seats)
    return []


@router.get("/{match_id}/decision", response_model=DecisionOut, responses=READ,
            summary="What the match waits for now, and the caller's legal moves")
def decision(match_id: UUID, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    viewer = principal.viewer(fold)
    active = fold.status == "active"
    current = fold.decision
    moves: dict[str, list[dict[str, Any]]] = {}
    if active and current.chance is None:
        for seat in _actable_seats(principal, current.seats, fold.randomness == "recorded"):
            moves[str(seat)] = [fold.ruleset.dump_move(move) for move in fold.ruleset.legal_moves(fold.state, seat)]
    chance = None
    if active and current.chance is not None and viewer.sees_all:
        chance = [{"outcome": outcome, "weight": weight} for outcome, weight in current.chance.outcomes]
    return {"match_id": str(match_id), "version": fold.seq, "status": fold.status,
            "decision": decision_json(fold) if active else {"over": True, "seats": []},
            "viewer": str(viewer), "legal_moves": moves, "chance_outcomes": chance}


@router.get("/{match_id}/legal-moves", response_model=LegalMovesOut, responses=READ,
            summary="One seat's legal moves now (the seat's own token, the arbiter, or a recorder in "
                    "recorded mode)")
def legal_moves(match_id: UUID, ctx: Ctx, principal: Caller,
                seat: Annotated[int | None, Query(ge=0, le=64, description="default: the caller's seat")] = None,
                ) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    if seat is None:
        if principal.role != "seat":
            raise ApiProblem(422, "seat-required", "name the seat (query parameter seat)",
                             errors=[{"field": "query.seat", "message": "required unless a seat token"}])
        seat = principal.seat
    assert seat is not None
    if seat >= fold.seats:
        raise ApiProblem(422, "invalid-seat", f"seat must be 0..{fold.seats - 1}",
                         errors=[{"field": "query.seat", "message": f"0..{fold.seats - 1}"}])
    if seat not in _actable_seats(principal, tuple(range(fold.seats)), fold.randomness == "recorded"):
        if not principal.authenticated:
            raise forbidden("a spectator cannot see a seat's legal moves (they may reveal its hidden hand)")
        raise forbidden(f"this {principal.role} token cannot see seat {seat}'s legal moves")
    moves = ctx.ringside.legal_moves(match_id, seat)
    return {"match_id": str(match_id), "version": fold.seq, "seat": seat, "moves": moves}


@router.get("/{match_id}/events", response_model=LogOut, responses=READ,
            summary="The event log, paged and redacted for the caller")
def events(match_id: UUID, ctx: Ctx, principal: Caller,
           start: Annotated[int, Query(ge=1, le=MAX_INT)] = 1,
           limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    viewer = principal.viewer(fold)
    stop = min(start + limit - 1, fold.seq)
    entries = ctx.ringside.entries(match_id, start, stop) if start <= fold.seq else []
    return {"match_id": str(match_id), "version": fold.seq, "start": start,
            "events": redacted_events(fold, entries, viewer),
            "next": stop + 1 if stop < fold.seq else None, "viewer": str(viewer)}


@router.get("/{match_id}/score", response_model=ScoreOut, responses=READ,
            summary="The score sheet: every line with the rule ID that produced it")
def score(match_id: UUID, ctx: Ctx, principal: Caller, at: At = None) -> dict[str, Any]:
    return ctx.ringside.score(match_id, at)


@router.get("/{match_id}/stream", responses={**READ, 200: {"content": {"text/event-stream": {}},
                                                              "description": "server-sent events"}},
            response_class=StreamingResponse,
            summary="Live stream (server-sent events) of new entries and of the annotations, redacted for the caller")
def stream(match_id: UUID, ctx: Ctx, principal: Caller,
           after: Annotated[int | None, Query(ge=0, le=MAX_INT,
                                              description="send entries after this seq (default: the head)")] = None,
           last_event_id: Annotated[str | None, Header(max_length=20)] = None) -> StreamingResponse:
    fold = ctx.ringside.fold(match_id)
    if after is None and last_event_id is not None and last_event_id.strip().isdigit():
        after = int(last_event_id.strip())
    start = fold.seq if after is None else min(after, fold.seq)
    source = MatchStream(ctx, match_id, principal, start)
    return StreamingResponse(source.frames(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/{match_id}/undo-requests", response_model=UndoList, responses=READ,
            summary="Every undo request of the match with its answers and status")
def undo_requests(match_id: UUID, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    return {"requests": [request.to_json() for request in fold.undo.values()]}


@router.post("/{match_id}/forks", status_code=201, response_model=MatchCreated, responses=WRITE,
             summary="A what-if branch from any position, as a new unofficial match with its own tokens")
def fork(match_id: UUID, body: ForkIn, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    if principal.role != "arbiter":  # a fork carries every hidden draw and secret choice up to its position
        check_unsealed(ctx, match_id, fold.status, "fork")
    players = body.players or [seat["player"] for seat in fold.header["seats"]]
    accepted = ctx.ringside.fork(match_id, body.at, body.players, randomness=body.randomness,
                                 actor=principal.actor() if principal.authenticated else None)
    tokens = mint_tokens(ctx, UUID(accepted.receipt.match_id), players)
    return created_body(ctx, accepted, tokens)

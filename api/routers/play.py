"""Writes on a match: moves, chance outcomes, seat entropy, the undo protocol, redo, rulings and the seed.

Every write accepts an `Idempotency-Key` header: a retry with the same key (same token, same
request) returns the first answer and never applies twice. Moves and outcomes also take
`expected_version`: if the match moved on, the answer is 409 with the current version.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Body, Depends, Header, Path, Request
from fastapi.responses import Response

from domain.application import Accepted, RequestKey
from domain.kernel.viewers import Actor

from .. import idempotency
from ..auth import Principal, forbidden, unauthorized
from ..context import ApiContext, accepted_answer, caller, context
from ..schemas import AcceptedOut, EntropyIn, MoveIn, OutcomeIn, RedoIn, RulingIn, SeedOut, UndoAnswerIn, UndoIn
from . import READ, WRITE

MATCH_PATH = "/matches/{match_id}"
MOVES_PATH = "/moves"
OUTCOMES_PATH = "/outcomes"
"""The paths of the two hot writes, under MATCH_PATH: `api.hot_path` matches requests by these."""

router = APIRouter(prefix=MATCH_PATH, tags=["play"])
Ctx = Annotated[ApiContext, Depends(context)]
Caller = Annotated[Principal, Depends(caller)]
IdempotencyKey = Annotated[str | None, Header(alias=idempotency.KEY_HEADER, max_length=idempotency.MAX_KEY_LENGTH,
                                              description="retries with the same key apply at most once")]
ACCEPTED = {"model": AcceptedOut, "description": "accepted: the receipt, new version and appended entries"}


@router.post(MOVES_PATH, response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="Submit a move (as the caller's seat, or for a seat as arbiter / recorder)")
async def submit_move(match_id: UUID, body: MoveIn, request: Request, ctx: Ctx, principal: Caller,
                      sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    """Usually answered by `api.hot_path` before FastAPI routes it; this route documents it and
    answers what the hot path hands on (a body it cannot parse gets FastAPI's own 422)."""
    return await move_answer(ctx, request, match_id, body, principal, idempotency_key, sent)


async def move_answer(ctx: ApiContext, request: Request, match_id: UUID, body: MoveIn, principal: Principal,
                      idempotency_key: str | None, sent: bytes) -> Response:
    """The hot path runs on the event loop: the rules check is CPU work that a thread-pool hop would
    only add to, and the wait for the group commit holds no thread."""
    async def execute(key: RequestKey | None) -> Accepted:
        fold = ctx.ringside.known_fold(match_id)  # only its fixed randomness mode is consulted
        seat, actor = principal.act_for_seat(fold, body.seat, "submitting a move", recorder_allowed=True)
        return await ctx.ringside.submit_move_async(match_id, seat, body.move, actor=actor,
                                                    expected_version=body.expected_version,
                                                    claimed_at=body.claimed_at, key=key)

    return await idempotency.run_async(ctx, request, principal, idempotency_key, sent, body,
                                       execute, accepted_answer(ctx, match_id, principal))


@router.post(OUTCOMES_PATH, response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="Enter a chance outcome as it happened at the table (recorder, recorded mode)")
async def submit_outcome(match_id: UUID, body: OutcomeIn, request: Request, ctx: Ctx, principal: Caller,
                         sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    """Usually answered by `api.hot_path`, like moves."""
    return await outcome_answer(ctx, request, match_id, body, principal, idempotency_key, sent)


async def outcome_answer(ctx: ApiContext, request: Request, match_id: UUID, body: OutcomeIn, principal: Principal,
                         idempotency_key: str | None, sent: bytes) -> Response:
    principal.require("recorder", action="entering a chance outcome")

    async def execute(key: RequestKey | None) -> Accepted:
        return await ctx.ringside.submit_outcome_async(match_id, body.outcome, actor=Actor("recorder"),
                                                       expected_version=body.expected_version, key=key)

    return await idempotency.run_async(ctx, request, principal, idempotency_key, sent, body,
                                       execute, accepted_answer(ctx, match_id, principal))


@router.post("/entropy", response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="Add a seat's entropy (matches created with entropy_from 'seats': once per seat, before "
                     "the first draw; the last seat's lets the waiting draws happen)")
def add_entropy(match_id: UUID, body: EntropyIn, request: Request, ctx: Ctx, principal: Caller,
                sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    """The seat token adds its own seat's entropy; the arbiter adds it for a seat it names."""
    def execute(key: RequestKey | None) -> Accepted:
        fold = ctx.ringside.fold(match_id)
        seat, actor = principal.act_for_seat(fold, body.seat, "adding entropy")
        return ctx.ringside.add_entropy(match_id, seat, body.entropy, actor=actor, key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           accepted_answer(ctx, match_id, principal))


@router.post("/undo-requests", response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="Ask to take back a seat's moves (granted at once within the last barrier)")
def request_undo(match_id: UUID, body: UndoIn, request: Request, ctx: Ctx, principal: Caller,
                 sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    def execute(key: RequestKey | None) -> Accepted:
        fold = ctx.ringside.fold(match_id)
        seat, actor = principal.act_for_seat(fold, body.seat, "asking for an undo")
        return ctx.ringside.request_undo(match_id, seat, body.from_seq, actor=actor, reason=body.reason, key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           accepted_answer(ctx, match_id, principal))


@router.post("/undo-requests/{request_id}/answers", response_model=AcceptedOut,
             responses={**WRITE, 200: ACCEPTED},
             summary="Consent to (or refuse) an undo request as a seat, or decide it as the arbiter")
def answer_undo(match_id: UUID, request_id: Annotated[str, Path(max_length=64)], body: UndoAnswerIn,
                request: Request, ctx: Ctx, principal: Caller,
                sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    if not principal.authenticated:
        raise unauthorized("answering an undo request needs a seat or arbiter token")
    if principal.role not in ("seat", "arbiter"):
        raise forbidden(f"a {principal.role} token cannot answer undo requests")

    def execute(key: RequestKey | None) -> Accepted:
        seat = principal.seat if principal.role == "seat" else None
        if seat is not None and body.seat is not None and body.seat != seat:
            raise forbidden("a seat token answers only for its own seat")
        return ctx.ringside.answer_undo(match_id, request_id, body.accept, seat=seat,
                                        actor=principal.actor(), key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           accepted_answer(ctx, match_id, principal))


@router.post("/redo", response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="Put back the moves of the last retraction (their seat, or the arbiter)")
def redo(match_id: UUID, request: Request, ctx: Ctx, principal: Caller, sent: idempotency.SentBody,
         body: RedoIn | None = None, idempotency_key: IdempotencyKey = None) -> Response:
    body = body or RedoIn()
    if not principal.authenticated:
        raise unauthorized("redo needs a seat or arbiter token")
    if principal.role not in ("seat", "arbiter"):
        raise forbidden(f"a {principal.role} token cannot redo moves")

    def execute(key: RequestKey | None) -> Accepted:
        if principal.role == "seat":
            if body.seat is not None and body.seat != principal.seat:
                raise forbidden("a seat token acts only for its own seat")
            return ctx.ringside.redo(match_id, seat=principal.seat, actor=principal.actor(), key=key)
        return ctx.ringside.redo(match_id, seat=None, actor=Actor.arbiter(), key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           accepted_answer(ctx, match_id, principal))


@router.post("/rulings", response_model=AcceptedOut, responses={**WRITE, 200: ACCEPTED},
             summary="An arbiter's ruling: correction, penalty, forfeit, adjudicated result, illegal move stands")
def ruling(match_id: UUID, body: Annotated[RulingIn, Body()], request: Request, ctx: Ctx, principal: Caller,
           sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    principal.require("arbiter", action="making a ruling")
    payload = body.model_dump(mode="json")

    def execute(key: RequestKey | None) -> Accepted:
        return ctx.ringside.make_ruling(match_id, payload, actor=Actor.arbiter(), key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           accepted_answer(ctx, match_id, principal))


@router.get("/seed", response_model=SeedOut, responses=READ,
            summary="The match seed: to the arbiter at any time (privately), to anyone once revealed")
def seed(match_id: UUID, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    if principal.role == "arbiter":
        return ctx.ringside.seed_for_arbiter(match_id)
    if fold.seed is None:
        if not principal.authenticated:
            raise forbidden("the seed stays secret until it is revealed at the end of the match")
        raise forbidden("only the arbiter may read the seed before it is revealed")
    return {"seed": fold.seed, "commitment": fold.header["seed_commitment"], "revealed_in_record": True}


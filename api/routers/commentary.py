"""Annotations: commentary anchored to an event and its hash, in their own stream per match.

Any token holder may annotate (the token's role is the author); only the author may edit; each
caller lists only what its visibility allows (public, its own seat, or everything as arbiter).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response

from domain.application import RequestKey

from .. import idempotency
from ..auth import Principal, unauthorized
from ..context import ApiContext, caller, context
from ..schemas import AnnotationEdit, AnnotationIn, AnnotationList, AnnotationOut
from . import READ, WRITE
from .play import IdempotencyKey

router = APIRouter(prefix="/matches/{match_id}/annotations", tags=["annotations"])
Ctx = Annotated[ApiContext, Depends(context)]
Caller = Annotated[Principal, Depends(caller)]


@router.get("", response_model=AnnotationList, responses=READ, summary="Annotations the caller may see")
def list_annotations(match_id: UUID, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    viewer = principal.viewer(ctx.ringside.fold(match_id))
    return {"annotations": ctx.ringside.annotations(match_id, viewer)}


@router.post("", status_code=201, response_model=AnnotationOut, responses=WRITE,
             summary="Annotate an event (any token; the token's role is the author)")
def add_annotation(match_id: UUID, body: AnnotationIn, request: Request, ctx: Ctx, principal: Caller,
                   sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    if not principal.authenticated:
        raise unauthorized("annotating needs a token, so that only you can edit it later")

    def execute(key: RequestKey | None) -> dict[str, Any]:
        return ctx.ringside.annotate(match_id, body.seq, body.text, actor=principal.actor(), glyphs=body.glyphs,
                                     tags=body.tags, visibility=body.visibility, key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           lambda annotation: (201, annotation))


@router.patch("/{annotation_id}", response_model=AnnotationOut, responses=WRITE,
              summary="Edit your own annotation")
def edit_annotation(match_id: UUID, body: AnnotationEdit, request: Request, ctx: Ctx, principal: Caller,
                    annotation_id: Annotated[str, Path(max_length=64)],
                    sent: idempotency.SentBody, idempotency_key: IdempotencyKey = None) -> Response:
    if not principal.authenticated:
        raise unauthorized("editing an annotation needs its author's token")

    def execute(key: RequestKey | None) -> dict[str, Any]:
        ctx.ringside.fold(match_id)
        return ctx.ringside.edit_annotation(match_id, annotation_id, actor=principal.actor(), text=body.text,
                                            glyphs=body.glyphs, tags=body.tags, visibility=body.visibility,
                                            key=key)

    return idempotency.run(ctx, request, principal, idempotency_key, sent, body, execute,
                           lambda annotation: (200, annotation))

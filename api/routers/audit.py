"""Audit: export and import bundles, verification reports, the server's public keys."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.requests import ClientDisconnect

from domain.kernel.verification import verify_bundle

from ..auth import Principal, forbidden
from ..context import ApiContext, caller, context
from ..problems import ApiProblem
from ..schemas import ImportedOut, KeysOut, VerificationOut
from . import READ, problems
from .matches import mint_tokens

router = APIRouter(tags=["audit"])
Ctx = Annotated[ApiContext, Depends(context)]
Caller = Annotated[Principal, Depends(caller)]
BUNDLE_MEDIA_TYPE = "application/x-ndjson"
BUNDLE_BODY = {"requestBody": {"required": True, "content": {
    BUNDLE_MEDIA_TYPE: {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}}}}}


async def _bundle_text(request: Request, limit: int) -> str:
    """The uploaded bundle, read as it arrives up to the limit (which `BodyLimit` also enforces
    while the body is received, answering 413 and ending the read as a disconnect)."""
    data = bytearray()
    try:
        async for chunk in request.stream():
            data.extend(chunk)
            if len(data) > limit:
                raise ApiProblem(413, "too-large", f"a bundle may be at most {limit} bytes")
    except ClientDisconnect:  # the client went away, or was answered 413 already
        raise ApiProblem(400, "incomplete-body", "the request body ended before it was complete") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiProblem(422, "invalid-bundle", "a bundle is UTF-8 JSON Lines text") from None


@router.get("/matches/{match_id}/bundle", response_class=Response, responses={
    **READ, 200: {"content": {BUNDLE_MEDIA_TYPE: {"schema": {"type": "string"}}},
                  "description": "the self-contained bundle (JSON Lines)"}},
            summary="Export the match as a bundle (the arbiter at any time; anyone once it is over)")
def export_bundle(match_id: UUID, ctx: Ctx, principal: Caller) -> Response:
    fold = ctx.ringside.fold(match_id)
    if fold.status == "active" and principal.role != "arbiter":
        raise forbidden("the bundle holds every hidden draw and secret choice: only the arbiter may "
                        "export a match in play (anyone may export a finished one)")
    text = ctx.ringside.export_bundle(match_id)
    return Response(text, media_type=BUNDLE_MEDIA_TYPE,
                    headers={"Content-Disposition": f'attachment; filename="{match_id}.ringside.jsonl"'})


@router.post("/bundles", status_code=201, response_model=ImportedOut, responses=problems(413, 422),
             openapi_extra=BUNDLE_BODY,
             summary="Import a bundle: it must verify; the match is stored exactly as exported, with new tokens")
async def import_bundle(request: Request, ctx: Ctx) -> dict[str, Any]:
    import anyio

    text = await _bundle_text(request, ctx.settings.max_bundle_bytes)

    def work() -> dict[str, Any]:
        match_id = ctx.ringside.import_bundle(text)
        summary = ctx.ringside.summary(match_id)
        tokens = mint_tokens(ctx, match_id, [seat["player"] for seat in summary["seats"]])
        return {"match_id": str(match_id), "tokens": tokens, "summary": summary}

    return await anyio.to_thread.run_sync(work)


@router.post("/verify", response_model=VerificationOut, responses=problems(413, 422),
             openapi_extra=BUNDLE_BODY, summary="Verify an uploaded bundle offline (nothing is stored)")
async def verify_upload(request: Request, ctx: Ctx) -> dict[str, Any]:
    import anyio

    text = await _bundle_text(request, ctx.settings.max_bundle_bytes)
    report = await anyio.to_thread.run_sync(lambda: verify_bundle(text))
    data: dict[str, Any] = report.to_json()
    return data


@router.get("/matches/{match_id}/verification", response_model=VerificationOut, responses={
    **READ, 200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                  "description": "the report (JSON, or a human-readable text with ?format=text)"}},
            summary="Re-fold and check the whole stored record: legality, hash chain, signatures, seed, scores")
def verification(match_id: UUID, ctx: Ctx, principal: Caller,
                 format: Literal["json", "text"] = "json") -> Any:
    fold = ctx.ringside.fold(match_id)
    report: dict[str, Any] = ctx.ringside.verify_match(match_id).to_json()
    if fold.status == "active" and principal.role != "arbiter":
        # an unsalted hash of the whole state (hands, stacks) could be matched against guesses
        report["final_state_hash"] = None
        divergence = report.get("divergence")
        if divergence:
            divergence["expected"] = divergence["actual"] = None  # may describe hidden state
    if format == "text":
        return PlainTextResponse(report_text(report))
    return report


def report_text(report: dict[str, Any]) -> str:
    """The verification report for people."""
    lines = [report["summary"], f"match {report['match_id']} ({report['game']}): {report['events']} events, "
             f"{report['annotations']} annotation events"]
    lines += [f"  checked {name}: {count}" for name, count in sorted(report["checked"].items())]
    lines += [f"  note: {note}" for note in report["notes"]]
    divergence = report.get("divergence")
    if divergence:
        lines.append(f"first divergence: {divergence['check']} at event {divergence['seq']} "
                     f"({divergence['stream']}){' rule ' + divergence['rule'] if divergence['rule'] else ''}")
        lines.append(f"  {divergence['message']}")
        if divergence["expected"] is not None or divergence["actual"] is not None:
            lines.append(f"  expected: {json.dumps(divergence['expected'])}")
            lines.append(f"  actual:   {json.dumps(divergence['actual'])}")
    if report.get("final_state_hash"):
        lines.append(f"final state hash: {report['final_state_hash']}")
    lines.append(f"keys: {', '.join(report['keys'])}")
    return "\n".join(lines) + "\n"


@router.get("/keys", response_model=KeysOut, summary="The server's public signing key and every key it trusts")
def keys(ctx: Ctx) -> dict[str, Any]:
    key = ctx.ringside.key
    return {"server_key_id": key.key_id, "server_public_key": key.public_hex, "keys": ctx.ringside.public_keys()}

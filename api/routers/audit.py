"""Audit: export and import bundles, verification reports, the server's public keys."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from uuid import UUID

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.requests import ClientDisconnect

from domain.kernel.verification import verify_bundle

from ..auth import Principal, account_for
from ..context import ApiContext, caller, check_unsealed, context
from ..problems import ApiProblem
from ..schemas import ImportedOut, KeysOut, ReceiptsIn, VerificationOut
from . import READ, problems

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
    if principal.role != "arbiter":
        check_unsealed(ctx, match_id, fold.status, "export")
    text = ctx.ringside.export_bundle(match_id, principal.viewer(fold))
    return Response(text, media_type=BUNDLE_MEDIA_TYPE,
                    headers={"Content-Disposition": f'attachment; filename="{match_id}.ringside.jsonl"'})


@router.post("/bundles", status_code=201, response_model=ImportedOut, responses=problems(401, 403, 413, 422),
             openapi_extra=BUNDLE_BODY,
             summary="Import a bundle (an account token): it must be intact; it is stored as exported, "
                     "marked imported, and vouched for by nobody")
async def import_bundle(request: Request, ctx: Ctx) -> dict[str, Any]:
    """Importing vouches for nothing: the record keeps its signers (the summary says whether this
    server holds any of their keys), no seat or arbiter token is minted, and the importing account
    may read it and annotate it under its own name."""
    import anyio

    account = account_for(ctx.store, request, "importing a bundle")
    text = await _bundle_text(request, ctx.settings.max_bundle_bytes)

    def work() -> dict[str, Any]:
        match_id = ctx.ringside.import_bundle(text)
        ctx.store.record_import(str(match_id), account)
        return {"match_id": str(match_id), "imported_by": account, "summary": ctx.ringside.summary(match_id)}

    return await anyio.to_thread.run_sync(work)


@router.post("/verify", response_model=VerificationOut, responses=problems(413, 422, 503),
             openapi_extra=BUNDLE_BODY,
             summary="Verify an uploaded bundle against this server's keys (nothing is stored)")
async def verify_upload(request: Request, ctx: Ctx) -> dict[str, Any]:
    import anyio

    text = await _bundle_text(request, ctx.settings.max_bundle_bytes)
    report = await anyio.to_thread.run_sync(
        lambda: ctx.verifications.run(lambda: verify_bundle(text, trust=ctx.ringside.trust())))
    data: dict[str, Any] = report.to_json()
    return data


@router.get("/matches/{match_id}/verification", response_model=VerificationOut, responses={
    **READ, 200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                  "description": "the report (JSON, or a human-readable text with ?format=text)"}},
            summary="Re-fold and check the whole stored record: legality, hash chain, signatures, seed, scores")
def verification(match_id: UUID, ctx: Ctx, principal: Caller,
                 format: Literal["json", "text"] = "json") -> Any:
    fold = ctx.ringside.fold(match_id)
    report = ctx.verifications.report(match_id, fold.seq)
    if principal.role != "arbiter" and (fold.status == "active" or ctx.ringside.sealed_by(match_id)):
        hide_hidden(report)
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
    for signer in report.get("signers", []):
        trusted = f"trusted: {signer['trusted_as']}" if signer["trusted"] else "NOT trusted"
        lines.append(f"signed by {signer['key_id']} ({signer['signed']}; {trusted})")
    for receipt in report.get("receipts", []):
        lines.append(f"receipt for event {receipt['seq']}: {receipt['status']}: {receipt['message']}")
    return "\n".join(lines) + "\n"


@router.post("/matches/{match_id}/receipts", response_model=VerificationOut, responses={**READ, **problems(422)},
             summary="Check players' receipts against the stored record: a receipt whose event is missing or "
                     "different proves the record changed after it was issued")
def check_receipts(match_id: UUID, body: ReceiptsIn, ctx: Ctx, principal: Caller) -> dict[str, Any]:
    fold = ctx.ringside.fold(match_id)
    report: dict[str, Any] = ctx.ringside.verify_match(match_id, receipts=body.receipts).to_json()
    if principal.role != "arbiter" and (fold.status == "active" or ctx.ringside.sealed_by(match_id)):
        hide_hidden(report)
    return report


def hide_hidden(report: dict[str, Any]) -> None:
    """What a report may show of a record whose hidden information is still hidden: an unsalted hash
    of the whole state (hands, stacks) could be matched against guesses, and a divergence's values
    may describe hidden state."""
    report["final_state_hash"] = None
    divergence = report.get("divergence")
    if divergence:
        divergence["expected"] = divergence["actual"] = None


@router.get("/keys", response_model=KeysOut,
            summary="The keys this server holds (its current signing key and those it retired): the keys to "
                    "trust for records it wrote. Keys of imported records are not listed")
def keys(ctx: Ctx) -> dict[str, Any]:
    key = ctx.ringside.key
    return {"server_key_id": key.key_id, "server_public_key": key.public_hex, "keys": ctx.ringside.own_keys()}

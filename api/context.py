"""What every request handler shares: the one Ringside application of this worker process, the
API's own tables and settings, plus small helpers that turn kernel results into response bodies."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from uuid import UUID

from fastapi import Request

from domain.application import Accepted, Ringside
from domain.kernel.fold import MatchFold
from domain.kernel.redaction import redact
from domain.kernel.viewers import Viewer
from domain.store.retention import parse_duration

from .auth import Principal, forbidden, principal_for
from .store import ApiStore
from .verifications import Verifications


@dataclass
class ApiSettings:
    """Tunables of the HTTP layer (the store itself is configured on the Ringside application)."""

    stream_poll_seconds: float = 0.2
    stream_heartbeat_seconds: float = 15.0
    stream_max_seconds: float = 3600.0
    max_bundle_bytes: int = 50_000_000
    max_body_bytes: int = 1_000_000
    extra: dict[str, Any] = field(default_factory=dict)
    opentelemetry: bool = False
    """FastAPI's native OpenTelemetry hooks (RINGSIDE_OPENTELEMETRY=1). Off by default: unconfigured,
    they export nothing yet look up the global providers on every request. On, moves and outcomes
    also go through FastAPI's stack (no `api.hot_path`), so that they are traced like the rest."""
    answer_retention: timedelta | None = None
    """Forget answers to idempotency keys older than this (RINGSIDE_ANSWER_RETENTION, e.g. 7d);
    None keeps them until `ringside prune-answers`."""

    @classmethod
    def from_env(cls) -> ApiSettings:
        retention = os.environ.get("RINGSIDE_ANSWER_RETENTION", "").strip()
        return cls(opentelemetry=os.environ.get("RINGSIDE_OPENTELEMETRY") == "1",
                   answer_retention=parse_duration(retention) if retention else None)


@dataclass
class ApiContext:
    ringside: Ringside
    store: ApiStore
    settings: ApiSettings
    verifications: Verifications = field(init=False)

    def __post_init__(self) -> None:
        self.verifications = Verifications(self.ringside)


async def context(request: Request) -> ApiContext:
    """The worker's context (async: a plain lookup, no thread-pool hop)."""
    ctx: ApiContext = request.app.state.ctx
    return ctx


async def caller(request: Request, match_id: UUID) -> Principal:
    """The principal of a request on one match (a FastAPI dependency). Token records are cached
    in the process after their first lookup, so this rarely touches the store."""
    ctx: ApiContext = request.app.state.ctx
    return principal_for(ctx.store, request, match_id)


def redacted_events(fold: MatchFold, entries: Any, viewer: Viewer) -> list[dict[str, Any]]:
    return [redact(entry, fold, viewer) for entry in entries if entry.seq <= fold.seq]


def accepted_answer(ctx: ApiContext, match_id: UUID,
                    principal: Principal) -> Callable[[Accepted], tuple[int, dict[str, Any]]]:
    """How a write answers an accepted command (and what is stored under its idempotency key)."""
    return lambda accepted: (200, accepted_body(ctx, match_id, accepted, principal))


def accepted_body(ctx: ApiContext, match_id: UUID, accepted: Accepted, principal: Principal) -> dict[str, Any]:
    """The answer to an accepted command: receipt, new version and the appended entries as the
    caller may see them (redacted against a fold at least as new as the entries)."""
    fold = accepted.fold or ctx.ringside.fold(match_id)
    viewer = principal.viewer(fold)
    return {**accepted.to_json(), "events": redacted_events(fold, accepted.entries, viewer)}


def check_unsealed(ctx: ApiContext, match_id: UUID, status: str, action: str) -> None:
    """Refuse a non-arbiter what would show hidden information that is still hidden: the whole
    record of a match in play, or of a fork whose ancestor in play it replays."""
    if status == "active":
        raise forbidden(f"the record holds every hidden draw and secret choice: only the arbiter may {action} a "
                        f"match in play (anyone may {action} a finished one)")
    sealed_by = ctx.ringside.sealed_by(match_id)
    if sealed_by is not None:
        raise forbidden(f"this fork replays hidden draws and secret choices of match {sealed_by}, which is still "
                        f"in play: only the fork's arbiter may {action} it until that match ends")

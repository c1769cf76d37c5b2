"""Bearer tokens: who is calling, as which viewer, and what they may do.

Creating a match mints one token per seat, one arbiter token and one recorder token, shows them
once and stores only their SHA-256 hashes. Every request's viewer comes from its token: none means
a spectator. A token belongs to one match; using it on another is refused (403), an unknown or
malformed token is 401.

Roles:
- seat N: sees its own hidden information, acts only for seat N;
- arbiter: sees everything, rules, reveals, answers undo requests, and may act for any seat
  (recorded as actor "arbiter" with that seat);
- recorder: submits chance outcomes in recorded mode and transcribes moves for any seat there
  (recorded as actor "recorder"); as a viewer it sees what it typed in, i.e. everything, in
  recorded mode, and only public information in server mode;
- spectator (no token): reads public information, writes nothing;
- account: a server-wide token the operator creates (`ringside accounts add NAME`) for whoever
  imports records. Importing vouches for nothing and grants no role in the record: on a match
  it imported, the account reads as a spectator and annotates under its own name.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from uuid import UUID

from fastapi import Request

from domain.kernel.fold import MatchFold
from domain.kernel.viewers import Actor, Viewer

from .problems import ApiProblem
from .store import ApiStore

TOKEN_PREFIX = "rs_"


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Principal:
    """The caller of one request on one match."""

    role: str  # "spectator", "seat", "arbiter", "recorder", "annotator"
    seat: int | None = None
    token_hash: str | None = None
    name: str | None = None
    """The account's name, for an annotator."""

    @property
    def authenticated(self) -> bool:
        return self.role != "spectator"

    def viewer(self, fold: MatchFold) -> Viewer:
        if self.role == "seat" and self.seat is not None:
            return Viewer.of_seat(self.seat)
        if self.role == "arbiter" or (self.role == "recorder" and fold.randomness == "recorded"):
            return Viewer.arbiter()
        return Viewer.spectator()

    def actor(self) -> Actor:
        """The actor for actions that are the caller's own (annotations, answers)."""
        if self.role == "seat" and self.seat is not None:
            return Actor.player(self.seat)
        if self.role == "arbiter":
            return Actor.arbiter()
        if self.role == "recorder":
            return Actor("recorder")
        if self.role == "annotator":
            return Actor("annotator", name=self.name)
        raise forbidden("spectators cannot write: send a seat, arbiter or recorder token")

    def require(self, *roles: str, action: str) -> None:
        if not self.authenticated:
            raise unauthorized(f"{action} needs a token (Authorization: Bearer ...)")
        if self.role not in roles:
            allowed = " or ".join(roles)
            raise forbidden(f"{action} is for the {allowed} token, not a {self.role} token")

    def act_for_seat(self, fold: MatchFold, seat: int | None, action: str,
                     recorder_allowed: bool = False) -> tuple[int, Actor]:
        """The seat acted for and the actor to record, or a 401/403."""
        if not self.authenticated:
            raise unauthorized(f"{action} needs a token (Authorization: Bearer ...)")
        if self.role == "seat":
            assert self.seat is not None
            if seat is not None and seat != self.seat:
                raise forbidden(f"a seat token acts only for its own seat ({self.seat}), not seat {seat}")
            return self.seat, Actor.player(self.seat)
        if self.role == "arbiter":
            if seat is None:
                raise ApiProblem(422, "seat-required", "an arbiter acting for a seat must name the seat",
                                 errors=[{"field": "body.seat", "message": "required for an arbiter"}])
            return seat, Actor("arbiter", seat)
        if self.role == "recorder" and recorder_allowed:
            if fold.randomness != "recorded":
                raise forbidden("a recorder transcribes only matches in recorded mode")
            if seat is None:
                raise ApiProblem(422, "seat-required", "a recorder transcribing a move must name the seat",
                                 errors=[{"field": "body.seat", "message": "required for a recorder"}])
            return seat, Actor("recorder", seat)
        raise forbidden(f"{action} is not something a {self.role} token may do")


def unauthorized(detail: str) -> ApiProblem:
    return ApiProblem(401, "unauthorized", detail, headers={"WWW-Authenticate": 'Bearer realm="ringside"'})


def forbidden(detail: str) -> ApiProblem:
    return ApiProblem(403, "forbidden", detail)


def bearer(request: Request) -> str | None:
    return bearer_token(request.headers.get("authorization"))


def bearer_token(header: str | None) -> str | None:
    """The token of an Authorization header's value (None without the header), or a 401."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def principal_for(store: ApiStore, request: Request, match_id: UUID) -> Principal:
    return principal_of(store, request.headers.get("authorization"), match_id)


def principal_of(store: ApiStore, authorization: str | None, match_id: UUID) -> Principal:
    """The principal for an Authorization header's value (its first one, as Starlette reads it)."""
    token = bearer_token(authorization)
    if token is None:
        return Principal("spectator")
    if len(token) > 200:
        raise unauthorized("unknown token")
    token_hash = hash_token(token)
    record = store.token(token_hash)
    if record is None:
        account = store.account(token_hash)
        if account is None:
            raise unauthorized("unknown token")
        # an account reads any match as a spectator; it annotates only those it imported
        role = "annotator" if store.importer(str(match_id)) == account else "spectator"
        return Principal(role, None, token_hash, account)
    if record.match_id != str(match_id):
        raise forbidden("this token belongs to another match")
    return Principal(record.role, record.seat, token_hash)


def account_for(store: ApiStore, request: Request, action: str) -> str:
    """The account behind a request's server-wide token (401 without one, 403 for a match's token)."""
    token = bearer(request)
    if token is None:
        raise unauthorized(f"{action} needs an account token (Authorization: Bearer ...; the operator creates "
                           "one with `ringside accounts add NAME`)")
    token_hash = hash_token(token)
    account = store.account(token_hash) if len(token) <= 200 else None
    if account is None:
        if len(token) <= 200 and store.token(token_hash) is not None:
            raise forbidden(f"{action} needs an account token, not a match's token")
        raise unauthorized("unknown token")
    return account

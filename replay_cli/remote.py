"""Remote mode: every command against a Ringside HTTP API server (--url, --token), over httpx.

This module is the only place that knows the API's routes. The server decides who the caller is
from the bearer token (a seat, the arbiter, the recorder, or a spectator without one), so a remote
read shows what that token may see, whatever --as says. Tokens are per match: the tokens the
server mints when this CLI creates, forks or imports a match are kept for the rest of the command,
so `ringside --url ... play carcassonne -p me -p bot` acts for each seat with that seat's token.

Every write on a match goes with a fresh `Idempotency-Key`, and transient failures (a dropped
connection, a timeout, 502/503/504, 429 or 503 with Retry-After) are retried by httpx-retries'
transport with the very same request, key included: the server answers a retry of a write it
already carried out with the stored answer, so a write is never applied twice. Creating, forking
and importing a match carry no key (their answers hold tokens, which the server never stores), so
they are retried only when the connection could not even be opened.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import httpx
from httpx_retries import Retry, RetryTransport

from domain.kernel.canonical import JSON
from domain.kernel.trust import Trust
from domain.kernel.viewers import Actor, Viewer

from .output import EXIT_REFUSED, EXIT_USAGE, CliError
from .rules import refusal_message
from .source import Source

USAGE_STATUSES = {400, 404, 413, 422}

RETRIES = 4
"""Attempts after the first one, for a request that failed transiently."""
RETRY_STATUSES = (429, 502, 503, 504)
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout)
"""Failures before the request left: safe to retry even a request without an Idempotency-Key."""


class _ConnectOnly(Retry):
    """Retries only a connection that could not be opened: for the writes that carry no key."""

    def is_retryable_status_code(self, status_code: int) -> bool:
        return False


RETRY_KWARGS: dict[str, Any] = {
    "total": RETRIES, "backoff_factor": 0.25, "respect_retry_after_header": True,
    "max_backoff_wait": 30.0, "total_timeout": 60.0}
"""Waits of 0.5, 1, 2, 4 s (with jitter), or what Retry-After says (at most 30 s at a time and
60 s in all)."""
RETRY = Retry(allowed_methods=["GET", "HEAD", "POST", "PATCH"], status_forcelist=RETRY_STATUSES, **RETRY_KWARGS)
CONNECT_ONLY = _ConnectOnly(allowed_methods=["POST"], retry_on_exceptions=NOT_SENT, **RETRY_KWARGS)


class RemoteSource(Source):
    kind = "remote"

    def __init__(self, url: str, token: str | None = None, timeout: float = 60.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        if not url.startswith(("http://", "https://")):
            raise CliError(f"--url must be an http:// or https:// address, not {url!r}")
        self.url = url.rstrip("/")
        self.token = token
        retrying = RetryTransport(transport=transport or httpx.HTTPTransport(), retry=RETRY)
        self.client = httpx.Client(base_url=self.url, timeout=timeout, transport=retrying)
        self.tokens: dict[str, dict[str, Any]] = {}
        self._answered_as: dict[str, str] = {}
        self._move_schemas: dict[str, dict[str, Any]] = {}

    def close(self) -> None:
        self.client.close()

    def components(self, match_id: str) -> dict[str, Any] | None:
        """The game's shipped component set, when the match plays with it (the server publishes no
        other match's set outside its bundle)."""
        summary = self.summary(match_id)
        shipped = self._json("GET", f"/games/{summary['game']}/components")
        played = (summary.get("components") or {}).get("hash")
        content = shipped.get("content") if isinstance(shipped, dict) else None
        return content if played == shipped.get("content_hash") and isinstance(content, dict) else None

    def move_schema(self, game: str) -> dict[str, Any]:
        if game not in self._move_schemas:
            self._move_schemas[game] = self._json("GET", f"/games/{game}/move-schema")
        return self._move_schemas[game]

    def answered_as(self, match_id: str, viewer: Viewer) -> str:
        """Whom the server says it answered the last read of this match for (its `viewer`): the
        token decides, not the viewer asked for."""
        return self._answered_as.get(match_id) or str(viewer)

    def _note_viewer(self, match_id: str, answer: Any) -> None:
        if isinstance(answer, dict) and isinstance(answer.get("viewer"), str):
            self._answered_as[match_id] = answer["viewer"]

    def command(self, match_id: str, acting: bool = False) -> str:
        """`ringside --url URL`, and when `acting`, `--token` with the arbiter's token of a match
        created here (the one token that may act for every seat) or else the token given."""
        import shlex

        words = ["ringside", "--url", self.url]
        token = (self._token(match_id, "arbiter") or self.token) if acting else None
        if token:
            words += ["--token", token]
        return " ".join(shlex.quote(word) for word in words)

    # ---- HTTP --------------------------------------------------------------------------------
    def _request(self, method: str, path: str, token: str | None = None, allow: tuple[int, ...] = (),
                 keyed: bool = False, reading: bool = False, **kwargs: Any) -> httpx.Response:
        """One request, retried on transient failures. `keyed` writes carry a fresh Idempotency-Key
        (the same on every retry); reads (GET, or a POST `reading` what it is sent) are retried as
        they are; other POSTs only if they could not be sent at all."""
        headers = dict(kwargs.pop("headers", {}) or {})
        chosen = token or self.token
        if chosen:
            headers["Authorization"] = f"Bearer {chosen}"
        if keyed:
            headers["Idempotency-Key"] = f"ringside-cli-{uuid.uuid4().hex}"
        elif method not in ("GET", "HEAD") and not reading:
            kwargs["extensions"] = {"retry": CONNECT_ONLY}
        params = kwargs.pop("params", None)
        if params:
            kwargs["params"] = {k: v for k, v in params.items() if v is not None}
        try:
            response = self.client.request(method, path, headers=headers, **kwargs)
        except NOT_SENT as error:
            raise CliError(f"cannot reach the server at {self.url}: {error}", EXIT_USAGE) from None
        except httpx.HTTPError as error:
            raise self._unanswered(error, method, path, keyed, reading) from None
        if response.status_code >= 400 and response.status_code not in allow:
            raise _problem(response)
        return response

    def _unanswered(self, error: httpx.HTTPError, method: str, path: str, keyed: bool, reading: bool) -> CliError:
        """A request that got no answer, said with what it means for a write."""
        what = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        unanswered = f"the server at {self.url} did not answer ({what})"
        if keyed or method in ("GET", "HEAD") or reading:
            if isinstance(error, RETRY.retryable_exceptions):
                unanswered += f", not even when sent again (up to {RETRIES} times" + (
                    " with the same Idempotency-Key)" if keyed else ")")
            if not keyed:
                return CliError(unanswered, EXIT_USAGE)
            parts = path.split("/")
            match = parts[2][:8] if len(parts) > 2 and parts[1] == "matches" else "MATCH"
            return CliError(f"{unanswered}: the write may or may not have been recorded (see: ringside --url "
                            f"{self.url} log {match})", EXIT_USAGE)
        return CliError(f"{unanswered}: the request may or may not have been carried out, and was not sent again "
                        "(it carries no Idempotency-Key)", EXIT_USAGE)

    def _json(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        response = self._request(method, path, token, **kwargs)
        try:
            return response.json()
        except ValueError:
            raise CliError(f"the server answered {path} with something that is not JSON", EXIT_REFUSED) from None

    def _token(self, match_id: str, role: str | int | None) -> str | None:
        """The token this CLI holds for a role of a match (a seat number, arbiter, recorder)."""
        held = self.tokens.get(match_id)
        if held is None or role is None:
            return None
        if isinstance(role, int):
            seats = held.get("seats", [])
            return next((s["token"] for s in seats if s.get("seat") == role), None)
        value = held.get(role)
        return value if isinstance(value, str) else None

    def _viewer_token(self, match_id: str, viewer: Viewer) -> str | None:
        if viewer.kind == "seat":
            return self._token(match_id, viewer.seat)
        if viewer.kind == "arbiter":
            return self._token(match_id, "arbiter")
        return None

    def _remember(self, created: dict[str, Any]) -> dict[str, Any]:
        if created.get("tokens"):
            self.tokens[str(created["match_id"])] = created["tokens"]
        return created

    # ---- reading -----------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        games = []
        for game in self._json("GET", "/games")["games"]:
            detail = self._json("GET", f"/games/{game['name']}")
            properties = (detail.get("options_schema") or {}).get("properties", {})
            options = {key: {"type": spec.get("type", "any"), "default": spec.get("default"),
                             "description": spec.get("description", "")} for key, spec in properties.items()}
            games.append({**game, "options": options, "bots": detail.get("bots", ["random"])})
        return games

    def resolve(self, ref: str) -> str:
        ref = ref.strip()
        try:
            return str(UUID(ref))
        except ValueError:
            pass
        if len(ref) < 4 or any(c not in "0123456789abcdef-" for c in ref.lower()):
            raise CliError(f"{ref!r} is neither a match ID nor a bundle file")
        found = [m["match_id"] for m in self.list_matches(limit=500) if str(m["match_id"]).startswith(ref.lower())]
        if len(found) != 1:
            raise CliError(f"no match whose ID starts with {ref!r} on the server" if not found
                           else f"{ref!r} matches {len(found)} matches; give more of the ID")
        return str(found[0])

    def summary(self, match_id: str) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}")
        return result

    def state(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/state", self._viewer_token(match_id, viewer),
                                            params={"at": at})
        self._note_viewer(match_id, result)
        return result

    def position(self, match_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/position",
                                            self._viewer_token(match_id, viewer), params={"at": at})
        self._note_viewer(match_id, result)
        return result

    def log(self, match_id: str, viewer: Viewer, start: int = 1, limit: int | None = None) -> list[dict[str, Any]]:
        token = self._viewer_token(match_id, viewer)
        events: list[dict[str, Any]] = []
        cursor: int | None = start
        while cursor is not None and (limit is None or len(events) < limit):
            page = min(1000, limit - len(events)) if limit is not None else 1000
            answer = self._json("GET", f"/matches/{match_id}/events", token, params={"start": cursor, "limit": page})
            self._note_viewer(match_id, answer)
            events.extend(answer["events"])
            cursor = answer.get("next")
        return events

    def score(self, match_id: str, at: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/score", params={"at": at})
        return result

    def diff(self, match_id: str, a: int, b: int, viewer: Viewer) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/diff", self._viewer_token(match_id, viewer),
                                            params={"from": a, "to": b})
        self._note_viewer(match_id, result)
        return result

    def annotations(self, match_id: str, viewer: Viewer) -> list[dict[str, Any]]:
        answer = self._json("GET", f"/matches/{match_id}/annotations", self._viewer_token(match_id, viewer))
        return list(answer["annotations"])

    def export(self, match_id: str) -> str:
        return self._request("GET", f"/matches/{match_id}/bundle", self._token(match_id, "arbiter")).text

    def verify(self, match_id: str, allow_engine_mismatch: bool = False, trust: Trust | None = None,
               receipts: Sequence[Any] = (), thorough: bool = False) -> dict[str, Any]:
        """Verified here, not taken from the server: the match's bundle is downloaded and checked
        against the keys this server publishes and any the user trusts. A record this caller may not
        export yet (in play, or a sealed fork) gets the server's own report, marked as such."""
        if allow_engine_mismatch:
            raise CliError("--allow-engine-mismatch works on bundle files: export the match and verify the file")
        token = self._token(match_id, "arbiter")
        response = self._request("GET", f"/matches/{match_id}/bundle", token, allow=(403,))
        if response.status_code == 200:
            from domain.kernel.verification import verify_bundle

            from .trust import server_trust

            anchors = server_trust(self.url) if trust is None else server_trust(self.url).merge(trust)
            return verify_bundle(response.content, trust=anchors, receipts=receipts, thorough=thorough).to_json()
        if receipts:
            checked: dict[str, Any] = self._json("POST", f"/matches/{match_id}/receipts", token, reading=True,
                                                 json={"receipts": list(receipts)})
            return checked
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/verification", token)
        result.setdefault("notes", []).append("the server's own report: this caller may not export the record yet")
        return result

    def list_matches(self, **filters: Any) -> list[dict[str, Any]]:
        params = {k: v for k, v in filters.items() if v is not None}
        params["limit"] = min(int(params.get("limit", 50)), 500)
        return list(self._json("GET", "/matches", params=params)["matches"])

    # ---- writing -----------------------------------------------------------------------------
    def create(self, game: str, players: list[str], **options: Any) -> dict[str, Any]:
        body = {"game": game, "players": players,
                **{k: v for k, v in options.items() if v is not None and k not in ("seed", "match_id")}}
        return self._remember(self._json("POST", "/matches", json=body))

    def legal_moves(self, match_id: str, seat: int) -> list[dict[str, Any]]:
        answer = self._json("GET", f"/matches/{match_id}/legal-moves", self._token(match_id, seat),
                            params={"seat": seat})
        return list(answer["moves"])

    def submit_move(self, match_id: str, seat: int, move: Any, actor: Actor | None = None) -> dict[str, Any]:
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/moves", self._token(match_id, seat),
                                            keyed=True, json={"move": move, "seat": seat})
        return result

    def submit_outcome(self, match_id: str, outcome: JSON) -> dict[str, Any]:
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/outcomes",
                                            self._token(match_id, "recorder"), keyed=True, json={"outcome": outcome})
        return result

    def add_entropy(self, match_id: str, seat: int, text: str, actor: Actor | None = None) -> dict[str, Any]:
        token = self._token(match_id, "arbiter" if actor is not None and actor.kind == "arbiter" else seat)
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/entropy", token, keyed=True,
                                            json={"entropy": text, "seat": seat})
        return result

    def chance_outcomes(self, match_id: str) -> list[JSON]:
        token = self._token(match_id, "recorder") or self._token(match_id, "arbiter")
        answer = self._json("GET", f"/matches/{match_id}/decision", token)
        outcomes = answer.get("chance_outcomes") or []
        return [item["outcome"] for item in outcomes if item.get("weight", 1) > 0]

    def bot_move(self, match_id: str, seat: int, bot: str, rng: random.Random) -> dict[str, Any]:
        """Remotely only the uniformly random bot runs (client-side, over the seat's legal moves)."""
        if bot != "random":
            raise CliError(f"over --url only the random bot can play (not {bot!r})")
        moves = self.legal_moves(match_id, seat)
        if not moves:
            raise CliError(f"seat {seat} has no legal move")
        return self.submit_move(match_id, seat, moves[rng.randrange(len(moves))])

    def annotate(self, match_id: str, seq: int, text: str, actor: Actor, glyphs: list[str],
                 tags: list[str], visibility: str) -> dict[str, Any]:
        result: dict[str, Any] = self._json(
            "POST", f"/matches/{match_id}/annotations", self._actor_token(match_id, actor), keyed=True,
            json={"seq": seq, "text": text, "glyphs": glyphs, "tags": tags, "visibility": visibility})
        return result

    def edit_annotation(self, match_id: str, annotation_id: str, actor: Actor, **changes: Any) -> dict[str, Any]:
        body = {k: v for k, v in changes.items() if v is not None}
        result: dict[str, Any] = self._json("PATCH", f"/matches/{match_id}/annotations/{annotation_id}",
                                            self._actor_token(match_id, actor), keyed=True, json=body)
        return result

    def _actor_token(self, match_id: str, actor: Actor) -> str | None:
        if actor.kind == "seat":
            return self._token(match_id, actor.seat)
        if actor.kind in ("arbiter", "recorder"):
            return self._token(match_id, actor.kind)
        return None

    def request_undo(self, match_id: str, seat: int, from_seq: int | None, reason: str) -> dict[str, Any]:
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/undo-requests", self._token(match_id, seat),
                                            keyed=True, json={"seat": seat, "from_seq": from_seq, "reason": reason})
        return result

    def answer_undo(self, match_id: str, request_id: str, accept: bool, seat: int | None,
                    actor: Actor) -> dict[str, Any]:
        token = self._token(match_id, seat if seat is not None else "arbiter")
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/undo-requests/{request_id}/answers",
                                            token, keyed=True, json={"accept": accept})
        return result

    def redo(self, match_id: str, seat: int | None, actor: Actor) -> dict[str, Any]:
        token = self._token(match_id, seat if seat is not None else "arbiter")
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/redo", token, keyed=True,
                                            json={} if seat is None else {"seat": seat})
        return result

    def ruling(self, match_id: str, body: dict[str, Any], actor: Actor) -> dict[str, Any]:
        result: dict[str, Any] = self._json("POST", f"/matches/{match_id}/rulings", self._token(match_id, "arbiter"),
                                            keyed=True, json=body)
        return result

    def fork(self, match_id: str, at: int, players: list[str] | None) -> dict[str, Any]:
        return self._remember(self._json("POST", f"/matches/{match_id}/forks", self._token(match_id, "arbiter"),
                                         json={"at": at, "players": players}))

    def arbiter_seed(self, match_id: str) -> dict[str, Any]:
        result: dict[str, Any] = self._json("GET", f"/matches/{match_id}/seed", self._token(match_id, "arbiter"))
        return result

    def import_bundle(self, text: str) -> str:
        answer = self._remember(self._json("POST", "/bundles", content=text.encode("utf-8"),
                                           headers={"Content-Type": "application/x-ndjson"}))
        return str(answer["match_id"])


def _problem(response: httpx.Response) -> CliError:
    """An API problem (RFC 9457) as one line, with the rule ID and title for illegal moves (the
    server's `rule_title`, else this installation's)."""
    try:
        problem = response.json()
    except ValueError:
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    rule, reason = problem.get("rule"), problem.get("reason")
    if rule and reason:
        message = refusal_message(str(rule), str(reason), title=str(problem.get("rule_title") or "") or None)
    else:
        message = str(problem.get("detail") or problem.get("title") or response.reason_phrase or "error")
        errors = problem.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            first = errors[0]
            message += f" ({first.get('field')}: {first.get('message')})"
    code = EXIT_REFUSED
    if response.status_code in USAGE_STATUSES and not rule and problem.get("code") not in (
            "impossible-outcome", "malformed-move"):
        code = EXIT_USAGE
    return CliError(f"{message} [HTTP {response.status_code}]", code)

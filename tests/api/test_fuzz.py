"""A bounded fuzz over real HTTP: odd input at every route, and never a 5xx, never a change.

Every route of the OpenAPI document (and the hot path in front of it) gets a fixed, seeded list of
inputs: lone surrogates, NULs, deep nesting, huge and fractional numbers, wrong types, huge strings,
odd path and query values, odd content types, odd `Idempotency-Key` and `Authorization` headers,
bodies that are not JSON, and bodies sent in chunks (small ones read whole, big ones refused while
they arrive). Each input to a write is built to be refused (an odd value in an otherwise valid
body, or a body refused anyway), so every write must answer 4xx and the matches must be exactly
as before; reads may answer 2xx, never 5xx.

Bounded: at most MAX_INPUTS inputs, every one of them sent (the list is fixed, so it always stops,
and a slow machine fuzzes exactly what a fast one does; no time budget cuts it short).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

import httpx

from .support import Match, Server, bearer, create, send_chunked, send_raw

SEED = 20261201
MAX_INPUTS = 5000

SURROGATE = "\ud800"
DEEP_LIST: Any = []
for _ in range(40):
    DEEP_LIST = [DEEP_LIST]
DEEP_DICT: Any = 1
for _ in range(40):
    DEEP_DICT = {"a": DEEP_DICT}
ODD_VALUES: list[Any] = [SURROGATE, "ok\udfff", {SURROGATE: 1}, [SURROGATE], DEEP_LIST, DEEP_DICT, 1.5, -0.5,
                         10**30, -(10**30), 2**63, "x" * 20_000, [[[]]], {"x": {"y": [1.5]}}]
"""Values no field of any request body accepts (no None, bool, {} or short text: some fields do)."""
ODD_INTS: list[Any] = [2**31, -(2**31), 2**63, 10**30, "one", "", " 1 2", [1], {"n": 1}]
"""For whole-number fields: outside every range the API declares, or not a number ("1" is one)."""
ODD_NAMES: list[Any] = ["\x00", "a\x00b", "tab\t", "line\nbreak", "\u2028", "\x1b[31m", SURROGATE]
"""For names and keywords (players, game, variant, choices): NUL and the other control characters."""
RAW_BODIES: list[bytes] = [
    b"", b"null", b"[]", b'"text"', b"1", b"true", b"{", b'{"a": 1', b"}", b"\xff\xfe\x00", b"\xef\xbb\xbf{}",
    b"NaN", b"Infinity", b"-Infinity", b"1e999", b'{"x": NaN}', b"1" * 5000, b"[" * 100_000, b'{"a":' * 50_000,
    b'{"\\ud800": 1}', b'"\\udfff"', b'{"a": "\\u0000"}', b"\x00" * 100, b"{" + b" " * 100_000 + b"}",
    b'{"' + b"k" * 500_000 + b'": 1}', "{\"\u00e9\": \"\ud800\"}".encode("utf-8", "surrogatepass"),
]
CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz",
                 "application/json; charset=utf-16", "application/merge-patch+json", "application/jsonx",
                 "application/problem+json", "application/x-ndjson", "*/*", "application/json; charset",
                 "application/json, text/plain", "APPLICATION/JSON", ";", "application/json; boundary=\"x"]
ODD_KEYS = ["", " ", "x" * 201, "k" * 5000, "\x7f", "caf\xe9", "a\tb", "\x01\x02", "\u00ff" * 10]
ODD_PATH_IDS = ["not-a-uuid", "%00", "%ED%A0%80", "a" * 300, "..%2F..%2Fkeys", "%FF%FE", "0" * 36,
                "12345678-1234-1234-1234-1234567890ab-extra", "%20", "null"]
ODD_QUERY = ["-1", "0", "99999999999999999999999999", "abc", "%00", "%ED%A0%80", "1.5", "", "x" * 3000, "true",
             "1e3", "%FF", "[]", "{}"]


@dataclass
class Case:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    content_type: str | None = "application/json"
    write: bool = True
    """A write must be refused (4xx); a read may also go through (2xx)."""
    chunked: int = 0
    """Send the body in chunks of this many bytes (0: with its length)."""
    repeat_key: tuple[str, str] | None = None
    """Send this header twice, with these two values."""

    def describe(self) -> str:
        body = b"" if self.body is None else self.body[:120]
        return f"{self.method} {self.path[:160]} headers={ {k: v[:40] for k, v in self.headers.items()} } " \
               f"type={self.content_type!r} chunked={self.chunked} body={body!r}"


def encode(value: Any) -> bytes:
    """JSON text as a client could send it, lone surrogates included (as JSON escapes)."""
    return json.dumps(value).encode("ascii")


@dataclass
class Fixture:
    match: Match
    recorded: Match
    other: Match
    annotation: str
    seat: int
    version: int


def write_cases(f: Fixture) -> Iterator[Case]:
    """Every write route, with bodies each refused for one odd value, or refused on their own."""
    m, s, v = f.match, f.seat, f.version
    seat, arbiter, recorder = bearer(m.seat(s)), bearer(m.arbiter), bearer(f.recorded.recorder)
    routes: list[tuple[str, str, dict[str, str], dict[str, Any], bytes]] = [
        # (method, path, token, a valid-shaped template, a body refused on its own)
        ("POST", m.path("/moves"), seat,
         {"move": {"type": "roll"}, "seat": s, "expected_version": v, "claimed_at": "now"},
         encode({"move": {"type": "play", "card": 99}})),
        ("POST", m.path("/moves"), arbiter, {"move": {"type": "roll"}, "seat": s},
         encode({"move": {"type": "play", "card": 99}, "seat": s})),
        ("POST", f.recorded.path("/outcomes"), recorder, {"outcome": 3, "expected_version": f.recorded.data["version"]},
         encode({"outcome": 99})),
        ("POST", m.path("/undo-requests"), arbiter, {"seat": s, "from_seq": 2, "reason": "why"},
         encode({"seat": s, "from_seq": 2**31 - 1})),
        ("POST", m.path("/undo-requests/u9999/answers"), seat, {"accept": True, "seat": s}, encode({"accept": True})),
        ("POST", m.path("/redo"), seat, {"seat": s}, encode({})),
        ("POST", m.path("/rulings"), arbiter, {"ruling": "penalty", "seat": 0, "points": 1, "note": "n"},
         encode({"ruling": "correction", "from_seq": 2**31 - 1})),
        ("POST", m.path("/rulings"), arbiter, {"ruling": "correction", "from_seq": 2, "note": "n"},
         encode({"ruling": "forfeit", "seat": 64})),
        ("POST", m.path("/rulings"), arbiter, {"ruling": "adjudicated-result", "ranks": [1, 2]},
         encode({"ruling": "adjudicated-result", "ranks": []})),
        ("POST", m.path("/rulings"), arbiter, {"ruling": "illegal-move-stands", "seat": s, "move": {"type": "roll"}},
         encode({"ruling": "illegal-move-stands", "seat": s, "move": {"type": "dance"}})),
        ("POST", m.path("/annotations"), seat,
         {"seq": 1, "text": "t", "glyphs": ["!"], "tags": ["x"], "visibility": "public"},
         encode({"seq": 2**31 - 1, "text": "t"})),
        ("PATCH", m.path(f"/annotations/{f.annotation}"), seat,
         {"text": "t", "glyphs": ["!"], "tags": ["x"], "visibility": "public"}, encode({"visibility": "seat:99"})),
        ("POST", m.path("/forks"), arbiter, {"at": 1, "players": ["a", "b"], "randomness": "server"},
         encode({"at": 2**31 - 1})),
        ("POST", "/matches", {}, {"game": "test-dicevote", "players": ["a", "b"], "variant": "standard",
                                  "options": {}, "randomness": "server", "undo_policy": "own-turn",
                                  "entropy": ["e"], "title": "t"},
         encode({"game": "test-dicevote", "players": ["only"]})),
        ("POST", "/bundles", {}, {}, b'{"format": "ringside-bundle"}\n{}\n'),
        ("POST", m.path("/entropy"), seat, {"entropy": "noise", "seat": s},  # not under the policy: refused
         encode({"entropy": ""})),
    ]
    int_fields = {"seat", "expected_version", "from_seq", "points", "seq", "at"}
    name_fields = {"game", "variant", "randomness", "undo_policy", "ruling", "visibility"}
    for method, path, token, template, refused in routes:
        yield Case(method, path, token, refused)
        for name in template:
            odd = ODD_VALUES + (ODD_INTS if name in int_fields else []) + (ODD_NAMES if name in name_fields else [])
            for value in odd:
                yield Case(method, path, token, encode({**template, name: value}))
            if isinstance(template[name], list):  # one odd element in a list
                for value in ODD_VALUES + (ODD_NAMES if name in ("players", "glyphs") else []):
                    yield Case(method, path, token, encode({**template, name: [value, *template[name][1:]]}))
            if isinstance(template[name], dict) and "type" in template[name]:  # an odd move type
                for value in ODD_VALUES + ODD_NAMES:
                    yield Case(method, path, token, encode({**template, name: {"type": value}}))
        for body in RAW_BODIES:
            yield Case(method, path, token, body)
        for content_type in [*CONTENT_TYPES, None]:
            yield Case(method, path, token, refused, content_type=content_type)
        for key in ODD_KEYS:
            yield Case(method, path, {**token, "Idempotency-Key": key}, refused)
        yield Case(method, path, token, refused, repeat_key=("Idempotency-Key", "k1"))
        for authorization in odd_authorizations(f):  # a valid body: the token alone refuses it
            yield Case(method, path, {"Authorization": authorization}, encode(template) if token else refused)
        yield Case(method, path, token, refused, repeat_key=("Authorization", token.get("Authorization", "Bearer x")))
        yield Case(method, path, token, refused, chunked=3)  # read whole, then refused
        yield Case(method, path, token, refused + b" " * 2_000_000, chunked=64 * 1024)  # past the limit: 413


def odd_authorizations(f: Fixture) -> list[str]:
    token = f.match.arbiter
    return ["Bearer", "Bearer ", "Basic YTpi", "Bearer " + "x" * 300, "Bearer rs_unknown", f"Bearer {token}x",
            f"Bearer {f.other.arbiter}", f"Token {token}", "Bearer \xe9\xe8", f"Bearer  {token[:-1]}", "\xff" * 20,
            "Bearer " + "rs_" + "A" * 5000, "Negotiate abc", "=", "Bearer rs_%00"]


def read_cases(f: Fixture) -> Iterator[Case]:
    """Every read route, with odd path values, query values, headers and (ignored) bodies."""
    m = f.match
    game = "/games/test-dicevote"
    reads = ["/games", game, f"{game}/move-schema", f"{game}/options-schema", f"{game}/components", "/matches",
             f"{game}/rules", f"{game}/rules/TG-1.2", "/keys", "/health", "/stats", "/openapi.json",
             *(m.path(suffix) for suffix in ("", "/state", "/diff?from=1", "/decision", "/legal-moves", "/events",
                                             "/score", "/undo-requests", "/seed", "/annotations", "/bundle",
                                             "/verification", "/position", "/board.svg")),
             f"/view/{m.id}/log", f"/view/{m.id}/step"]
    queries = {"/matches": ["game", "status", "player", "since", "until", "limit", "offset"],
               m.path("/state"): ["at"], m.path("/diff?from=1"): ["to", "from"], m.path("/legal-moves"): ["seat"],
               m.path("/events"): ["start", "limit"], m.path("/score"): ["at"], m.path("/position"): ["at"],
               m.path("/verification"): ["format"], m.path("/board.svg"): ["at"], f"/view/{m.id}/step": ["at"]}
    for path in reads:
        for authorization in odd_authorizations(f):
            yield Case("GET", path, {"Authorization": authorization}, write=False, content_type=None)
        yield Case("GET", path, {"Idempotency-Key": "\x7f"}, body=b"[" * 10_000, content_type="text/plain",
                   write=False)
        for name in queries.get(path, []):
            joiner = "&" if "?" in path else "?"
            for value in ODD_QUERY:
                yield Case("GET", f"{path}{joiner}{name}={value}", write=False, content_type=None)
    for template in ["/matches/{}", "/matches/{}/state", "/matches/{}/events", "/matches/{}/bundle",
                     "/matches/{}/verification", "/matches/{}/stream", "/matches/{}/seed", "/matches/{}/board.svg",
                     "/view/{}/log", "/view/{}/step"]:
        for value in [*ODD_PATH_IDS, str(uuid4())]:
            yield Case("GET", template.format(value), write=False, content_type=None)
    for value in ODD_PATH_IDS:
        yield Case("GET", f"/games/{value}", write=False, content_type=None)
        yield Case("GET", f"{game}/rules/{value}", write=False, content_type=None)
        yield Case("POST", m.path(f"/undo-requests/{value}/answers"), bearer(m.seat(0)), encode({"accept": True}))
        yield Case("PATCH", m.path(f"/annotations/{value}"), bearer(m.seat(0)), encode({"text": "t"}))
        yield Case("POST", f"/matches/{value}/moves", bearer(m.seat(0)), encode({"move": {"type": "roll"}}))
    stream = m.path("/stream")  # only inputs answered at once: a valid one would stream for an hour
    for value in ["-1", "abc", "%00", "1.5", "99999999999999999999"]:
        yield Case("GET", f"{stream}?after={value}", write=False, content_type=None)
    for authorization in odd_authorizations(f)[:8]:
        yield Case("GET", stream, {"Authorization": authorization}, write=False, content_type=None)
    for body in RAW_BODIES[:12]:  # verifying stores nothing: a report is a fine answer, a 5xx is not
        yield Case("POST", "/verify", body=body, content_type="application/x-ndjson", write=False)
        yield Case("POST", m.path("/receipts"), body=body, write=False)
    for value in [*ODD_VALUES, *ODD_INTS, [{"seq": value} for value in ODD_INTS]]:
        yield Case("POST", m.path("/receipts"), body=encode({"receipts": value}), write=False)
        yield Case("POST", m.path("/receipts"), body=encode({"receipts": [{"match_id": m.id, "seq": 1, "hash": value,
                                                                           "signature": value, "key_id": value}]}),
                   write=False)
    for method in ("PUT", "DELETE", "OPTIONS", "TRACE", "PROPFIND"):
        yield Case(method, m.path("/moves"), bearer(m.seat(0)), encode({"move": {"type": "roll"}}))


def send(client: httpx.Client, server: Server, case: Case) -> int:
    if case.chunked >= 64 * 1024:
        status, answer, _ = send_chunked(server, case.path, len(case.body or b""), method=case.method,
                                         headers=case.headers, content_type=case.content_type or "application/json")
        assert status, (case.describe(), answer[:200])
        return status
    headers: list[tuple[bytes, bytes]] = [(k.encode(), v.encode("latin-1")) for k, v in case.headers.items()]
    if case.content_type is not None:
        headers.append((b"content-type", case.content_type.encode()))
    if case.repeat_key is not None:
        name, value = case.repeat_key
        headers += [(name.encode(), value.encode("latin-1")), (name.encode(), b"second")]
    content: Any = case.body
    if case.chunked and case.body is not None:
        body = case.body
        content = iter([body[i:i + case.chunked] for i in range(0, len(body), case.chunked)])
    try:
        response = client.request(case.method, server.url + case.path, headers=headers, content=content)
    except httpx.LocalProtocolError:  # a header the client will not send: written byte for byte
        status = send_raw(server, case.method, case.path, headers, case.body or b"")
        assert status, f"{case.describe()}: no answer"
        return status
    except httpx.TransportError:  # no answer: the server dropped the connection (as it does after a fault)
        return 0
    return response.status_code


def snapshot(client: httpx.Client, f: Fixture) -> Any:
    def of(match: Match) -> Any:
        summary = client.get(match.path(), headers=bearer(match.arbiter)).json()
        notes = client.get(match.path("/annotations"), headers=bearer(match.arbiter)).json()
        events = client.get(match.path("/events"), params={"limit": 1000}, headers=bearer(match.arbiter)).json()
        return summary["version"], summary["head"], notes, [e["hash"] for e in events["events"]]
    listed = client.get("/matches", params={"limit": 500}).json()["matches"]
    return of(f.match), of(f.recorded), of(f.other), sorted(m["match_id"] for m in listed)


def test_odd_input_at_every_route_never_gets_a_5xx_and_changes_nothing(server: Server,
                                                                       client: httpx.Client) -> None:
    match = create(client, undo_policy="consent")
    recorded = create(client, randomness="recorded")
    other = create(client)
    decision = client.get(match.path("/decision"), headers=bearer(match.arbiter)).json()
    seat = decision["decision"]["seats"][0]
    note = client.post(match.path("/annotations"), json={"seq": 1, "text": "mine"}, headers=bearer(match.seat(seat)))
    assert note.status_code == 201
    fixture = Fixture(match, recorded, other, note.json()["id"], seat, decision["version"])
    routes = {(method.upper(), path) for path, ops in client.get("/openapi.json").json()["paths"].items()
              for method in ops}
    before = snapshot(client, fixture)
    cases = [*write_cases(fixture), *read_cases(fixture)]
    random.Random(SEED).shuffle(cases)
    assert len(cases) <= MAX_INPUTS, len(cases)  # the list is bounded by construction
    covered = {(case.method, _template(case.path, fixture)) for case in cases}
    assert routes <= covered, sorted(routes - covered)  # every documented route is fuzzed
    server_errors, writes_through = [], []
    with httpx.Client(timeout=60) as fuzz:
        for case in cases:
            status = send(fuzz, server, case)
            if status >= 500 or status == 0:
                server_errors.append((status, case.describe()))
            elif case.write and status < 400:
                writes_through.append((status, case.describe()))
    print(f"\nfuzz: {len(cases)} inputs on {len(routes)} routes; "
          f"{len(server_errors)} answered 5xx (or not at all), {len(writes_through)} writes went through")
    assert not server_errors, server_errors[:10]
    assert not writes_through, writes_through[:10]
    assert snapshot(client, fixture) == before


def _template(path: str, f: Fixture) -> str:
    """The OpenAPI path a request went to (`/matches/{match_id}/...`)."""
    path = path.split("?")[0]
    for match in (f.match, f.recorded, f.other):
        path = path.replace(match.id, "{match_id}")
    parts = path.split("/")
    if len(parts) > 2 and parts[1] in ("matches", "view") and parts[2] != "{match_id}":
        parts[2] = "{match_id}"
    if len(parts) > 2 and parts[1] == "games":
        parts[2] = "{game}"
    if len(parts) > 4 and parts[1] == "games" and parts[3] == "rules":
        parts[4] = "{rule_id}"
    if len(parts) > 4 and parts[3] == "undo-requests":
        parts[4] = "{request_id}"
    if len(parts) > 4 and parts[3] == "annotations":
        parts[4] = "{annotation_id}"
    return "/".join(parts)

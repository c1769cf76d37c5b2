"""The quick walk of verification (only the head signatures nothing later vouches for) against the
thorough one (every head signature): the same report for every bundle, changed or not, with one
documented exception, a trusted exporter's own word (see `test_a_trusted_trailer_vouches_...`).

The bundles are real: Carcassonne and Circus Train matches recorded through the application with
take-backs, rulings and annotations (tests/support/eventful.py), and the shipped test vectors.
Attacks are made on them the way an attacker would: re-signing with another key, splicing,
changing one byte of a signature nobody checks one by one any more, swapping keys.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel import verification
from domain.kernel.bundle import _FLOATLESS, _plainly_canonical, _read_line
from domain.kernel.canonical import encode
from domain.kernel.integrity import ServerKey
from domain.kernel.trust import Trust
from domain.kernel.verification import Report, verify_bundle
from tests.standalone.support import VECTORS, vectors
from tests.support.eventful import Recorded, record_eventful

INTRUDER = ServerKey.from_seed(b"intruder")
ORIGIN = ServerKey.from_seed(b"ringside-vectors/origin")
ROTATED = ServerKey.from_seed(b"ringside-vectors/rotated")
VECTOR_TRUST = Trust.of([ORIGIN.public_hex], "the vectors' origin")


@pytest.fixture(scope="module")
def carcassonne(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_eventful(tmp_path_factory.mktemp("carcassonne"), "carcassonne")


@pytest.fixture(scope="module")
def circus_train(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_eventful(tmp_path_factory.mktemp("circus"), "circus-train")


# ==== helpers ================================================================================
def both(text: str | bytes, trust: Trust | None, receipts: list[Any] | None = None) -> Report:
    """The report, after checking that the quick walk and the thorough walk agree on every field."""
    quick = verify_bundle(text, trust=trust, receipts=receipts or ())
    thorough = verify_bundle(text, trust=trust, receipts=receipts or (), thorough=True)
    assert quick.to_json() == thorough.to_json()
    return quick


def failure(report: Report) -> tuple[str, int | None, str]:
    assert report.divergence is not None, report.summary()
    return report.divergence.check, report.divergence.seq, report.divergence.stream


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def assemble(lines: list[dict[str, Any]], trailer_by: ServerKey | None) -> str:
    """The bundle of these lines; its trailer made anew by `trailer_by` (None: kept as it was)."""
    body = b"".join(encode(line) + b"\n" for line in lines[:-1])
    trailer = lines[-1]
    if trailer_by is not None:
        digest = hashlib.sha256(body).hexdigest()
        trailer = {"type": "trailer", "sha256": digest, "key": trailer_by.key_id,
                   "sig": trailer_by.sign(digest.encode("ascii"))}
    return (body + encode(trailer) + b"\n").decode("utf-8")


def resign(line: dict[str, Any], key: ServerKey) -> None:
    """A valid head signature of the line by another key (the content and hash kept)."""
    line["key"] = key.key_id
    line["sig"] = key.sign_head(line["stream"], line["seq"], line["hash"])


def list_key(lines: list[dict[str, Any]], key: ServerKey) -> None:
    lines[0]["keys"][key.key_id] = key.public_hex


def flip_hex(text: str, at: int = 40) -> str:
    return text[:at] + ("0" if text[at] != "0" else "1") + text[at + 1:]


def events_of(lines: list[dict[str, Any]], kind: str = "event") -> list[dict[str, Any]]:
    return [line for line in lines if line.get("type") == kind]


def intermediate(lines: list[dict[str, Any]], kind: str = "event") -> dict[str, Any]:
    """An event in the middle of its stream, signed by the same key as the next one."""
    stream = events_of(lines, kind)
    middle = len(stream) // 2
    assert stream[middle]["key"] == stream[middle + 1]["key"]
    return stream[middle]


# ==== the quick walk holds, and really is quick =============================================
@pytest.mark.parametrize("game", ["carcassonne", "circus_train"])
def test_recorded_matches_verify_checking_one_signature_per_run(game: str, request: pytest.FixtureRequest,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    recorded: Recorded = request.getfixturevalue(game)
    kinds = {line.get("kind") for line in lines_of(recorded.bundle)}
    assert {"undo-requested", "retracted", "redone", "ruling", "annotation-added"} <= kinds
    checked: list[bytes] = []
    holds = verification.verify_signature

    def counting(public_hex: str, message: bytes, signature: str) -> bool:
        checked.append(message)
        return holds(public_hex, message, signature)

    monkeypatch.setattr(verification, "verify_signature", counting)  # the head checks (the trailer's is bundle.py's)
    report = verify_bundle(recorded.bundle, trust=recorded.trust())
    assert report.ok, report.summary()
    assert report.checked["signature"] == recorded.events + recorded.annotations
    assert len(checked) == 2  # one key signed everything: the last head of each stream
    checked.clear()
    assert both(recorded.bundle, recorded.trust()).ok
    assert len(checked) == 2 + recorded.events + recorded.annotations


def test_a_spectators_bundle_checks_the_heads_around_its_redacted_line(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.spectator_bundle)
    redacted = [line["seq"] for line in lines if line.get("redacted")]
    assert redacted
    assert both(carcassonne.spectator_bundle, carcassonne.trust()).ok
    # the line before a redacted one: its hash is not committed to by a recomputed hash after it
    before = next(line for line in lines if line.get("type") == "annotation" and line["seq"] == redacted[0] - 1)
    before["sig"] = flip_hex(before["sig"])
    report = both(assemble(lines, ServerKey.from_seed(b"eventful")), carcassonne.trust())
    assert failure(report) == ("signature", redacted[0] - 1, "annotations")


def test_every_vector_is_judged_the_same_by_both_walks() -> None:
    for vector in vectors():
        trust = Trust.of(vector["trust"], "index.json")
        receipts = None
        if vector["receipts"]:
            receipts = json.loads((VECTORS / vector["receipts"]).read_text(encoding="utf-8"))
        report = both((VECTORS / vector["file"]).read_text(encoding="utf-8"), trust, receipts)
        if vector["name"] != "redacted-but-altered":  # the one the main verifier passes (bundle-format.md)
            assert report.ok == vector["expect"]["ok"], vector["name"]


# ==== attacks ===============================================================================
def test_one_byte_of_an_unchecked_signature_changed(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    target = intermediate(lines)
    target["sig"] = flip_hex(target["sig"])
    report = both(assemble(lines, None), carcassonne.trust())  # the trailer no longer matches
    assert failure(report) == ("signature", target["seq"], "match")


def test_one_byte_of_an_unchecked_signature_changed_under_a_new_untrusted_trailer(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    list_key(lines, INTRUDER)
    target = intermediate(lines)
    target["sig"] = flip_hex(target["sig"], 0)
    report = both(assemble(lines, INTRUDER), carcassonne.trust())
    assert failure(report) == ("signature", target["seq"], "match")
    assert not report.intact  # so it cannot be imported either


def test_an_unchecked_annotation_signature_changed_under_a_new_untrusted_trailer(circus_train: Recorded) -> None:
    lines = lines_of(circus_train.bundle)
    list_key(lines, INTRUDER)
    target = intermediate(lines, "annotation")
    target["sig"] = flip_hex(target["sig"])
    report = both(assemble(lines, INTRUDER), None)
    assert failure(report) == ("signature", target["seq"], "annotations")


def test_two_signatures_swapped(circus_train: Recorded) -> None:
    lines = lines_of(circus_train.bundle)
    list_key(lines, INTRUDER)
    first = intermediate(lines)
    second = next(line for line in events_of(lines) if line["seq"] == first["seq"] + 1)
    first["sig"], second["sig"] = second["sig"], first["sig"]
    report = both(assemble(lines, INTRUDER), circus_train.trust())
    assert failure(report) == ("signature", first["seq"], "match")


def test_a_trusted_trailer_vouches_for_the_signatures_it_exports(carcassonne: Recorded) -> None:
    """The one difference, documented in docs/bundle-format.md ("Verification"): a bundle whose
    trailer a trusted key signed over an intermediate signature that does not verify. The content
    is proven by the run's last head signature, every byte by the trusted trailer; only the
    thorough walk (or the standalone verifier) finds the broken signature. Nobody without a trusted
    or record-authorised private key can make such a bundle."""
    lines = lines_of(carcassonne.bundle)
    target = intermediate(lines)
    target["sig"] = flip_hex(target["sig"])
    text = assemble(lines, ServerKey.from_seed(b"eventful"))
    assert verify_bundle(text, trust=carcassonne.trust()).ok
    thorough = verify_bundle(text, trust=carcassonne.trust(), thorough=True)
    assert failure(thorough) == ("signature", target["seq"], "match")
    # not trusted, the same bytes are judged as the thorough walk judges them
    assert failure(both(text, None)) == ("signature", target["seq"], "match")


def test_a_splice_signed_by_another_listed_key(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    list_key(lines, INTRUDER)
    events = events_of(lines)
    cut = len(events) // 3
    for line in events[cut:]:
        resign(line, INTRUDER)
    report = both(assemble(lines, ServerKey.from_seed(b"eventful")), carcassonne.trust())
    assert failure(report) == ("signature", events[cut]["seq"], "match")


def test_one_event_in_a_run_signed_validly_by_another_listed_key(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    list_key(lines, INTRUDER)
    target = intermediate(lines)
    resign(target, INTRUDER)
    report = both(assemble(lines, INTRUDER), Trust.of([carcassonne.key.public_hex, INTRUDER.public_hex], "both"))
    assert failure(report) == ("signature", target["seq"], "match")


def test_an_event_signed_by_the_rotated_key_before_the_rotation() -> None:
    lines = lines_of((VECTORS / "rotated.ringside.jsonl").read_text(encoding="utf-8"))
    rotation = next(line for line in lines if line.get("kind") == "key-rotated")
    early = next(line for line in events_of(lines) if line["seq"] == rotation["seq"] - 2)
    resign(early, ROTATED)
    report = both(assemble(lines, ORIGIN), VECTOR_TRUST)
    assert failure(report) == ("signature", early["seq"], "match")


def test_the_rotation_signed_by_the_key_it_hands_to() -> None:
    lines = lines_of((VECTORS / "rotated.ringside.jsonl").read_text(encoding="utf-8"))
    rotation = next(line for line in lines if line.get("kind") == "key-rotated")
    resign(rotation, ROTATED)
    report = both(assemble(lines, ROTATED), VECTOR_TRUST)
    assert failure(report) == ("signature", rotation["seq"], "match")


def test_the_old_key_signing_after_the_rotation() -> None:
    lines = lines_of((VECTORS / "rotated.ringside.jsonl").read_text(encoding="utf-8"))
    rotation = next(line for line in lines if line.get("kind") == "key-rotated")
    late = next(line for line in events_of(lines) if line["seq"] == rotation["seq"] + 1)
    resign(late, ORIGIN)
    report = both(assemble(lines, ORIGIN), VECTOR_TRUST)
    assert failure(report) == ("signature", late["seq"], "match")


def test_a_rotation_to_a_key_the_header_lists_otherwise() -> None:
    lines = lines_of((VECTORS / "rotated.ringside.jsonl").read_text(encoding="utf-8"))
    lines[0]["keys"][ROTATED.key_id] = INTRUDER.public_hex
    assert failure(both(assemble(lines, ORIGIN), VECTOR_TRUST)) == ("signature", None, "match")


def test_annotations_signed_by_a_key_nobody_trusts(circus_train: Recorded) -> None:
    lines = lines_of(circus_train.bundle)
    list_key(lines, INTRUDER)
    for line in events_of(lines, "annotation"):
        resign(line, INTRUDER)
    text = assemble(lines, ServerKey.from_seed(b"eventful"))
    assert failure(both(text, circus_train.trust())) == ("trust", None, "match")
    assert both(text, circus_train.trust().merge(Trust.of([INTRUDER.public_hex], "pinned"))).ok


def test_one_annotation_inside_a_run_signed_by_another_key(circus_train: Recorded) -> None:
    lines = lines_of(circus_train.bundle)
    list_key(lines, INTRUDER)
    resign(intermediate(lines, "annotation"), INTRUDER)
    text = assemble(lines, ServerKey.from_seed(b"eventful"))
    report = both(text, circus_train.trust())
    assert failure(report) == ("trust", None, "match") and report.intact


@pytest.mark.parametrize("listed, trusted, expected", [
    (False, False, ("trailer", None, "match")),
    (True, False, ("trust", None, "match")),
    (True, True, None),
])
def test_a_trailer_by_a_key_that_is_not_the_records(carcassonne: Recorded, listed: bool, trusted: bool,
                                                    expected: tuple[str, None, str] | None) -> None:
    lines = lines_of(carcassonne.bundle)
    if listed:
        list_key(lines, INTRUDER)
    trust = carcassonne.trust()
    if trusted:
        trust = trust.merge(Trust.of([INTRUDER.public_hex], "pinned"))
    report = both(assemble(lines, INTRUDER), trust)
    if expected is None:
        assert report.ok, report.summary()
    else:
        assert failure(report) == expected


def test_a_listed_key_id_swapped_for_another_public_key(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    lines[0]["keys"][carcassonne.key.key_id] = INTRUDER.public_hex
    report = both(assemble(lines, None), carcassonne.trust())
    assert failure(report) == ("signature", None, "match")


def test_the_whole_record_re_signed_by_another_key(carcassonne: Recorded) -> None:
    lines = lines_of(carcassonne.bundle)
    lines[0]["keys"] = {INTRUDER.key_id: INTRUDER.public_hex}
    for line in lines[1:-1]:
        resign(line, INTRUDER)
    report = both(assemble(lines, INTRUDER), carcassonne.trust())
    assert failure(report) == ("trust", 1, "match") and report.intact


# ==== any single changed byte =================================================================
def _mutated(text: str, line_choice: int, column_choice: int, byte: int,
             hex_digit: bool = False) -> tuple[bytes, bytes]:
    """The text with one byte of one line (or its LF) changed; with `hex_digit`, one lowercase hex
    digit changed to another, so that the line stays canonical and only a hash, a signature or the
    trailer can tell."""
    raw = text.encode("utf-8")
    lines = raw.split(b"\n")[:-1]
    number = line_choice % len(lines)
    start = sum(len(line) + 1 for line in lines[:number])
    at = start + column_choice % (len(lines[number]) + 1)  # any byte of the line, or its LF
    new = byte if byte != raw[at] else (byte + 1) % 256
    if hex_digit:
        digits = [start + i for i, c in enumerate(lines[number]) if c in b"0123456789abcdef"]
        at = digits[column_choice % len(digits)]
        new = b"0123456789abcdef"[(b"0123456789abcdef".index(raw[at]) + 1 + byte % 15) % 16]
    return raw, raw[:at] + bytes([new]) + raw[at + 1:]


MUTATION = dict(line_choice=st.integers(0, 10**6), column_choice=st.integers(0, 10**6), byte=st.integers(0, 255),
                hex_digit=st.booleans())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["carcassonne", "circus_train"]), spectator=st.booleans(), **MUTATION)
def test_any_changed_byte_of_a_recorded_match_fails_alike(request: pytest.FixtureRequest, game: str,
                                                         spectator: bool, line_choice: int, column_choice: int,
                                                         byte: int, hex_digit: bool) -> None:
    recorded: Recorded = request.getfixturevalue(game)
    text = recorded.spectator_bundle if spectator else recorded.bundle
    raw, mutated = _mutated(text, line_choice, column_choice, byte, hex_digit)
    assert mutated != raw
    assert not both(mutated, recorded.trust()).ok


VALID_VECTORS = [v for v in vectors() if v["expect"]["ok"] and v["name"] != "redacted-but-altered"]


@settings(max_examples=150, deadline=None)
@given(vector=st.sampled_from(vectors()), **MUTATION)
def test_any_changed_byte_of_a_vector_fails_alike(vector: dict[str, Any], line_choice: int, column_choice: int,
                                                  byte: int, hex_digit: bool) -> None:
    text = (VECTORS / vector["file"]).read_text(encoding="utf-8")
    raw, mutated = _mutated(text, line_choice, column_choice, byte, hex_digit)
    assert mutated != raw
    report = both(mutated, Trust.of(vector["trust"], "index.json"))
    if vector in VALID_VECTORS:
        assert not report.ok


# ==== reading a line: the shortcut against the definition ===================================
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63, max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8)
    | st.sampled_from(["e\u0301", "\u00e9", "\ud800", "a\\\"b", "true.false", "1.5", "x\u2028"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12)


def _spellings(value: dict[str, Any]) -> list[bytes]:
    """Ways a line holding `value` might be written: canonically, by orjson, by json with escapes."""
    spelled = []
    for write in (lambda: encode(value), lambda: orjson.dumps(value, option=orjson.OPT_SORT_KEYS),
                  lambda: json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8"),
                  lambda: json.dumps(value, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode("utf-8", "surrogatepass")):
        try:
            spelled.append(write())
        except (ValueError, TypeError, OverflowError):
            continue
    return spelled


@settings(max_examples=400, deadline=None)
@given(value=st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=5))
def test_a_line_is_read_plainly_only_as_the_definition_reads_it(value: dict[str, Any]) -> None:
    for line in _spellings(value):
        plain = _plainly_canonical(line)
        if plain is None:
            continue
        assert repr(plain) == repr(_read_line(line))  # repr: 1.0 == 1, but not as a record holds it


def test_lines_that_only_the_definition_may_judge() -> None:
    for line in (b'{"a":1.0}', b'{"a":[1e+16]}', b'{"a":18446744073709551617}', b'{"a":"\\ud800"}',
                 b'{"a":"\\u00e9"}', b'{"a":-0}', b'{"a":1,"a":1}', b'[1]', b'{"b":1,"a":2}', b'{"a":"x\\"1.5"}'):
        assert _plainly_canonical(line) is None, line
    assert _plainly_canonical(b'{"a":"1.5e3","b":[true,false,null],"c":-12}') == {
        "a": "1.5e3", "b": [True, False, None], "c": -12}


_TOKENS = [b'"', b'e', b'E', b't', b'f', b'.', b'1', b'-', b'true', b'false', b'null', b'tr', b'fa', b'a',
           b'\\', b',', b':', b'[', b'{', b'}']
_TOKEN_BY_TOKEN = re.compile(rb'(?:"[^"]*+"|true|false|[^"eEtf.]++|[tf])*+')
"""The float check's pattern as first written, one alternation per token: `_FLOATLESS` (unrolled,
for speed) must accept exactly the lines it accepts."""


@settings(max_examples=3000, deadline=None)
@given(parts=st.lists(st.sampled_from(_TOKENS), max_size=16))
def test_the_unrolled_float_check_accepts_what_the_token_by_token_one_does(parts: list[bytes]) -> None:
    line = b"".join(parts)
    assert (_FLOATLESS.fullmatch(line) is None) == (_TOKEN_BY_TOKEN.fullmatch(line) is None), line

"""Rules of the spec that the vectors do not each show, checked on edits of the valid vector."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from domain.kernel.canonical import encode
from domain.kernel.integrity import ServerKey
from tools import ringside_verify

from .support import VECTORS, index

ORIGIN = ServerKey.from_seed(index()["keys"]["origin"]["private_seed"].encode())
VALID = (VECTORS / "valid.ringside.jsonl").read_bytes()
TRUST = [ORIGIN.public_hex]


def edited(change: Callable[[list[dict[str, Any]]], None]) -> bytes:
    """The valid vector with its parsed lines changed, and a new trailer by the origin server."""
    lines = [json.loads(line) for line in VALID.split(b"\n")[:-1]][:-1]
    change(lines)
    body = b"".join(encode(line) + b"\n" for line in lines)
    digest = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": digest, "key": ORIGIN.key_id, "sig": ORIGIN.sign(digest.encode())}
    return body + encode(trailer) + b"\n"


def failure(data: bytes) -> tuple[str | None, int | None, str | None]:
    report = ringside_verify.verify(data, TRUST)
    assert not report.ok
    assert report.divergence is not None
    return report.divergence.check, report.divergence.seq, report.divergence.stream


def test_the_edit_helper_keeps_a_valid_bundle_valid() -> None:
    assert ringside_verify.verify(edited(lambda lines: None), TRUST).ok


@pytest.mark.parametrize(("field", "check"), [("hash", "chain"), ("prev", "chain"), ("sig", "signature"),
                                              ("key", "signature")])
def test_an_upper_case_digit_fails_the_check_of_the_field_it_is_in(field: str, check: str) -> None:
    def change(lines: list[dict[str, Any]]) -> None:
        value = lines[5][field]
        at = next(i for i, digit in enumerate(value) if digit in "abcdef")
        lines[5][field] = value[:at] + value[at].upper() + value[at + 1:]

    assert failure(edited(change)) == (check, 5, "match")


def test_an_upper_case_key_id_in_the_header_fails_signature() -> None:
    def change(lines: list[dict[str, Any]]) -> None:
        lines[0]["keys"] = {key.upper(): public for key, public in lines[0]["keys"].items()}

    assert failure(edited(change))[0] == "signature"


def test_the_first_annotation_event_is_never_redacted() -> None:
    def change(lines: list[dict[str, Any]]) -> None:
        opened = next(line for line in lines if line.get("kind") == "annotations-opened")
        opened["payload"], opened["redacted"] = {"id": "a1", "hidden": True}, True

    assert failure(edited(change)) == ("format", 1, "annotations")


def test_an_annotation_anchored_to_a_hash_not_in_the_record_fails_annotations() -> None:
    """Re-hashed and re-signed by the origin itself: only the anchor is wrong."""
    def change(lines: list[dict[str, Any]]) -> None:
        note = next(line for line in lines if line.get("kind") == "annotation-added")
        note["payload"]["hash"] = "0" * 64
        note["hash"] = ringside_verify.event_hash(note["stream"], note["seq"], note["kind"], note["actor"],
                                                  note["at"], note["payload"], note["prev"])
        note["sig"] = ORIGIN.sign_head(note["stream"], note["seq"], note["hash"])
        following = next(line for line in lines if line.get("type") == "annotation" and line["seq"] == note["seq"] + 1)
        following["prev"] = note["hash"]
        following["hash"] = ringside_verify.event_hash(following["stream"], following["seq"], following["kind"],
                                                       following["actor"], following["at"], following["payload"],
                                                       following["prev"])
        following["sig"] = ORIGIN.sign_head(following["stream"], following["seq"], following["hash"])

    assert failure(edited(change)) == ("annotations", 2, "annotations")


def test_the_header_counts_must_match() -> None:
    def change(lines: list[dict[str, Any]]) -> None:
        lines[0]["counts"] = {"events": 14, "annotations": 3}

    assert failure(edited(change)) == ("format", None, "match")


@pytest.mark.parametrize("data", [
    VALID[:-1],  # no final line feed
    VALID.replace(b"\n", b"\r\n"),
    VALID.replace(b"\n", b"\n\n", 1),  # an empty line
    b"",
    b"\n\n\n",
])
def test_broken_files_fail_format_and_never_raise(data: bytes) -> None:
    assert failure(data)[0] == "format"


def test_a_deeply_nested_line_fails_format_and_never_raises() -> None:
    lines = VALID.split(b"\n")
    lines[3] = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    assert failure(b"\n".join(lines))[:2] == ("format", 3)


def test_a_trailer_with_a_field_more_fails_trailer() -> None:
    lines = VALID.split(b"\n")[:-1]
    trailer = json.loads(lines[-1])
    lines[-1] = encode({**trailer, "note": "unsigned"})
    assert failure(b"".join(line + b"\n" for line in lines)) == ("trailer", None, "match")

"""The verifier as a program: usage errors, trust files (a server's GET /keys answer), the text report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools import ringside_verify

from .support import VECTORS, VERIFIER, index

ORIGIN = index()["keys"]["origin"]
OTHER = index()["keys"]["other"]
VALID = VECTORS / "valid.ringside.jsonl"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(VERIFIER), *args], capture_output=True, text=True, timeout=60)


def test_a_verified_bundle_exits_0_and_lists_its_signers() -> None:
    done = run(str(VALID), "--trust", ORIGIN["public_key"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("VERIFIED (trusted)")
    assert f"signer {ORIGIN['key_id']}: trusted, authorised by the record; signed events 1-15; " \
           "annotations 1-3; the trailer" in done.stdout


def test_an_untrusted_bundle_exits_1_naming_the_check() -> None:
    done = run(str(VALID), "--trust", OTHER["public_key"])
    assert done.returncode == 1
    assert done.stdout.startswith("NOT VERIFIED at event 1: trust:")
    assert f"signer {ORIGIN['key_id']}: NOT trusted, authorised by the record" in done.stdout


@pytest.mark.parametrize("args", [
    [],  # no bundle
    [str(VALID)],  # no trusted key: a bundle's own keys prove integrity, not origin
    [str(VALID), "--trust", "ab"],
    [str(VALID), "--trust", "g" * 64],
    ["/nonexistent/bundle.jsonl", "--trust", ORIGIN["public_key"]],
    [str(VALID), "--trust", ORIGIN["public_key"], "--receipts", "/nonexistent/receipts.json"],
    [str(VALID), "--bogus"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    assert run(*args).returncode == 2


def test_integrity_only_says_the_origin_was_not_checked() -> None:
    done = run(str(VALID), "--integrity-only", "--json")
    assert done.returncode == 0
    report = json.loads(done.stdout)
    assert report["ok"] and not report["trust_checked"]
    assert "NOT checked" in report["summary"]


def test_a_trust_file_may_be_a_servers_keys_answer(tmp_path: Path) -> None:
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({"server_key_id": ORIGIN["key_id"], "server_public_key": ORIGIN["public_key"],
                                "keys": {ORIGIN["key_id"]: ORIGIN["public_key"]}}))
    assert run(str(VALID), "--trust-file", str(keys)).returncode == 0
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({OTHER["key_id"]: OTHER["public_key"]}))
    assert run(str(VALID), "--trust-file", str(plain)).returncode == 1


def test_a_trust_file_may_list_keys_as_ringside_verify_reads_them(tmp_path: Path) -> None:
    """One key a line, after an optional label, with comments: the form of `ringside verify --trust-file`."""
    keys = tmp_path / "keys.txt"
    keys.write_text(f"# the origin server\norigin {ORIGIN['public_key']}\n\n{OTHER['public_key'].upper()}  # pasted\n")
    assert ringside_verify.load_trust_file(keys) == [ORIGIN["public_key"], OTHER["public_key"]]
    assert run(str(VALID), "--trust-file", str(keys)).returncode == 0
    keys.write_text("origin not-a-key\n")
    assert run(str(VALID), "--trust-file", str(keys)).returncode == 2


def test_a_pinned_key_may_be_typed_in_upper_case() -> None:
    """Trust anchors are what a user types: read leniently. In a bundle an upper-case digit is invalid."""
    assert run(str(VALID), "--trust", f" {ORIGIN['public_key'].upper()} ").returncode == 0


def test_a_trust_file_whose_ids_do_not_derive_is_refused(tmp_path: Path) -> None:
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps({ORIGIN["key_id"]: OTHER["public_key"]}))
    with pytest.raises(ringside_verify.UsageError):
        ringside_verify.load_trust_file(keys)
    assert run(str(VALID), "--trust-file", str(keys)).returncode == 2


def test_receipts_may_be_json_lines_or_command_answers(tmp_path: Path) -> None:
    receipts = json.loads((VECTORS / "receipts.json").read_text())
    lines = tmp_path / "receipts.jsonl"
    lines.write_text("".join(json.dumps(receipt) + "\n" for receipt in receipts))
    assert ringside_verify.load_receipts(lines) == receipts
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps([{"receipt": receipt, "version": 1} for receipt in receipts]))
    assert ringside_verify.load_receipts(answers) == receipts
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"receipts": receipts[:1]}))
    assert ringside_verify.load_receipts(one) == receipts[:1]


def test_receipts_that_prove_nothing_do_not_fail_the_record() -> None:
    """A receipt with a broken signature, by an unknown key or for another match is reported, not proof."""
    receipts = json.loads((VECTORS / "receipts.json").read_text())
    forged = {**receipts[3], "hash": "0" * 64}  # a different hash, but the signature does not cover it
    stranger = {**receipts[3], "key_id": OTHER["key_id"]}
    elsewhere = {**receipts[3], "match_id": "another"}
    report = ringside_verify.verify(VALID.read_bytes(), [ORIGIN["public_key"]], [forged, stranger, elsewhere, {}])
    assert report.ok, report.summary()
    assert [receipt["status"] for receipt in report.receipts] == ["invalid", "unknown-key", "other-match", "invalid"]


def test_a_receipt_signed_by_a_trusted_key_counts_even_if_the_record_dropped_that_key() -> None:
    """The whole record re-signed by another key: the origin's receipts count once its key is trusted."""
    receipts = json.loads((VECTORS / "receipts.json").read_text())
    resigned = (VECTORS / "resigned-other-key.ringside.jsonl").read_bytes()
    report = ringside_verify.verify(resigned, [OTHER["public_key"]], receipts)
    assert report.ok, report.summary()  # the origin's receipts prove nothing unless its key is trusted
    assert {receipt["status"] for receipt in report.receipts} == {"unknown-key"}
    report = ringside_verify.verify(resigned, [ORIGIN["public_key"], OTHER["public_key"]], receipts)
    assert report.ok, report.summary()  # every receipt's event is there with the same hash
    assert {receipt["status"] for receipt in report.receipts} == {"holds"}

"""The test vectors: the standalone verifier passes and fails each exactly as index.json says, in
process and as a program; the real verifier agrees; and the vectors regenerate byte for byte."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.kernel.integrity import key_id, load_public_key
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from tools import make_vectors, ringside_verify

from .support import ROOT, VECTORS, VERIFIER, index, outcome, receipts_of, vectors

VECTOR_NAMES = [vector["name"] for vector in vectors()]

MAIN_LACKS: dict[str, str] = {}
"""Vectors Ringside's verifier does not yet judge as the spec does, and the check it lacks for each."""


def by_name(name: str) -> dict[str, Any]:
    return next(vector for vector in vectors() if vector["name"] == name)


def test_the_index_covers_every_file_and_names_known_checks() -> None:
    listed = {vector["file"] for vector in vectors()} | {vector["receipts"] for vector in vectors()} - {None}
    shipped = {path.name for path in VECTORS.iterdir()} - {"index.json"}
    assert listed == shipped
    assert len(VECTOR_NAMES) == len(set(VECTOR_NAMES))
    for vector in vectors():
        assert vector["expect"]["check"] in (None, *ringside_verify.CHECKS)
        assert vector["trust"], f"{vector['name']} names no trusted key"


@pytest.mark.parametrize("name", VECTOR_NAMES)
def test_the_standalone_verifier_judges_each_vector_as_the_index_says(name: str) -> None:
    vector = by_name(name)
    report = ringside_verify.verify((VECTORS / vector["file"]).read_bytes(), vector["trust"], receipts_of(vector))
    assert outcome(report) == vector["expect"], report.summary()
    json.dumps(report.to_json())  # the report is JSON


@pytest.mark.parametrize("name", VECTOR_NAMES)
def test_the_verifier_program_exits_and_reports_as_the_index_says(name: str) -> None:
    vector = by_name(name)
    command = [sys.executable, str(VERIFIER), str(VECTORS / vector["file"]), "--json"]
    for public in vector["trust"]:
        command += ["--trust", public]
    if vector["receipts"]:
        command += ["--receipts", str(VECTORS / vector["receipts"])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT / "docs")
    assert done.returncode == (0 if vector["expect"]["ok"] else 1), done.stderr
    report = json.loads(done.stdout)
    failure = report["divergence"] or {}
    assert {"ok": report["ok"], "check": failure.get("check"), "seq": failure.get("seq"),
            "stream": failure.get("stream")} == vector["expect"]
    signers = {signer["key_id"]: signer for signer in report["signers"]}
    trusted = {key_id(load_public_key(public)) for public in vector["trust"]}
    if report["trust_checked"] or failure.get("check") == "trust":
        assert {k for k, signer in signers.items() if signer["trusted"]} == trusted & set(signers)


@pytest.mark.parametrize("name", VECTOR_NAMES)
def test_the_main_verifier_agrees_on_each_vector(name: str) -> None:
    """Ringside's own verifier (which also re-folds the record through the rules engine) reaches the same
    verdict, check and event as the standalone one, receipts included."""
    vector = by_name(name)
    data = (VECTORS / vector["file"]).read_bytes()
    receipts = receipts_of(vector)
    main = verify_bundle(data, trust=Trust.of(vector["trust"], "the vector's index"), receipts=receipts or ())
    if name in MAIN_LACKS:
        if outcome(main) == vector["expect"]:
            pytest.fail(f"Ringside's verifier now judges {name} as the spec does: drop it from MAIN_LACKS")
        pytest.skip(f"main lacks {MAIN_LACKS[name]}: it says {main.summary()}")
    assert outcome(main) == vector["expect"], main.summary()
    standalone = ringside_verify.verify(data, vector["trust"], receipts)
    failed = standalone.divergence.check if standalone.divergence else None
    assert main.intact == (failed in (None, "trust", "receipts"))
    if main.intact:  # both list every signer of an intact record, trusted or not, and whether it is the record's
        signers = {signer.key_id: (signer.trusted, signer.authorised) for signer in main.signers}
        assert signers == {key: (signer.trusted, signer.authorised) for key, signer in standalone.signers.items()
                           if signer.events or signer.annotations or signer.trailer}


def test_the_vectors_regenerate_byte_for_byte(tmp_path: Path) -> None:
    make_vectors.build(tmp_path)
    generated = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    shipped = {path.name: path.read_bytes() for path in VECTORS.iterdir()}
    assert sorted(generated) == sorted(shipped)
    for name, content in shipped.items():
        assert generated[name] == content, f"{name} differs from what tools/make_vectors.py makes now"


def test_the_index_names_the_keys_the_generator_uses() -> None:
    keys = index()["keys"]
    for key in keys.values():
        assert key["key_id"] == key_id(load_public_key(key["public_key"]))
        assert key["key_id"] == ringside_verify.key_id(key["public_key"])


def test_no_changed_byte_verifies_and_none_breaks_either_verifier() -> None:
    """Every byte of a bundle is covered by a hash, a signature or the trailer: change any one and it no
    longer verifies, by either verifier; and neither raises, whatever the byte became."""
    import random

    vector = by_name("valid")
    data = (VECTORS / vector["file"]).read_bytes()
    trust = Trust.of(vector["trust"], "the vector's index")
    rng = random.Random(11)
    for _ in range(60):
        at = rng.randrange(len(data))
        changed = data[:at] + bytes([rng.choice([b for b in range(256) if b != data[at]])]) + data[at + 1:]
        standalone = ringside_verify.verify(changed, vector["trust"])
        main = verify_bundle(changed, trust=trust)
        assert not standalone.ok and not main.ok, (at, standalone.summary(), main.summary())

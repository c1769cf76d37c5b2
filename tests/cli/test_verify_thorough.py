"""`ringside verify --thorough` checks every event's signature; the default walk checks those that
nothing later vouches for (docs/bundle-format.md, "How Ringside's verifier checks head
signatures"). The one bundle they judge differently, run as real processes: the server's own key
signed the trailer over a middle signature that does not verify."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from domain.kernel.canonical import encode
from domain.kernel.integrity import ServerKey

Sh = Callable[..., subprocess.CompletedProcess[str]]


def _broken_middle_signature(bundle: Path, key: ServerKey, out: Path) -> int:
    """The bundle with one middle event's signature changed, its trailer signed anew by `key`;
    returns that event's seq."""
    lines = [json.loads(line) for line in bundle.read_text().splitlines()]
    events = [line for line in lines if line.get("type") == "event"]
    target = events[len(events) // 2]
    assert target["key"] == events[len(events) // 2 + 1]["key"]  # a later signature vouches for it
    target["sig"] = target["sig"][:40] + ("0" if target["sig"][40] != "0" else "1") + target["sig"][41:]
    body = b"".join(encode(line) + b"\n" for line in lines[:-1])
    digest = hashlib.sha256(body).hexdigest()
    trailer = {"type": "trailer", "sha256": digest, "key": key.key_id, "sig": key.sign(digest.encode("ascii"))}
    out.write_bytes(body + encode(trailer) + b"\n")
    return int(target["seq"])


def test_thorough_finds_the_signature_the_exporter_vouched_for(sh: Sh, bundle: Path, data_dir: Path,
                                                               tmp_path: Path) -> None:
    key = ServerKey.load_or_create(data_dir)  # the store's own key, which `verify` trusts here
    changed = tmp_path / "vouched.ringside.jsonl"
    seq = _broken_middle_signature(bundle, key, changed)
    quick = json.loads(sh("verify", str(changed), "--json").stdout)
    assert quick["ok"] and quick["divergence"] is None
    thorough = json.loads(sh("verify", str(changed), "--thorough", "--json", code=1).stdout)
    assert (thorough["divergence"]["check"], thorough["divergence"]["seq"]) == ("signature", seq)
    assert "signature" in sh("verify", str(changed), "--thorough", "-q", code=1).stdout


def test_thorough_agrees_on_an_intact_bundle_and_on_tampering(sh: Sh, bundle: Path, tmp_path: Path) -> None:
    assert json.loads(sh("verify", str(bundle), "--thorough", "--json").stdout)["ok"]
    changed = tmp_path / "tampered.ringside.jsonl"
    # the same change under the original trailer: both walks name the event and the check
    _broken_middle_signature(bundle, ServerKey.from_seed(b"not the exporter"), changed)
    reports = [json.loads(sh("verify", str(changed), *flags, "--json", code=1).stdout)
               for flags in ((), ("--thorough",))]
    assert reports[0]["divergence"] == reports[1]["divergence"]
    assert reports[0]["divergence"]["check"] == "signature"

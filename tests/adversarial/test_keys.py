"""Keys: a bundle carries the public keys that verify it, each under a key ID. The ID must be the
key's own (sha256 of the raw public key, as the server derives it), or a forger could file their
signatures under this server's ID."""

from __future__ import annotations

import pytest

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.errors import RingsideError
from domain.kernel.integrity import ServerKey
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle

from .support import reforge


def test_a_bundle_whose_key_id_is_not_its_public_key_is_caught(undone: tuple[str, ServerKey],
                                                               sqlite_app: Ringside) -> None:
    """A forger re-signs a record with their own key but files it under the server's key ID: it
    verified OK, imported, and then passed as signed by this server."""
    text, key = undone
    forger = ServerKey.generate()
    forged = reforge(text, lambda events: None, forger, keys={key.key_id: forger.public_hex}, key_id=key.key_id)
    report = verify_bundle(forged)
    assert not report.intact and report.divergence is not None
    assert report.divergence.check == "signature", report.summary()
    with pytest.raises(RingsideError):
        sqlite_app.import_bundle(forged)


def test_a_bundle_under_its_own_honest_key_still_verifies(undone: tuple[str, ServerKey]) -> None:
    text, _ = undone
    other = ServerKey.generate()
    bundle = read_bundle(text)
    resigned = reforge(text, lambda events: None, other, keys={other.key_id: other.public_hex}, key_id=other.key_id)
    assert verify_bundle(resigned).intact
    report = verify_bundle(resigned, trust=Trust.of(bundle.keys, "the original server"))
    assert not report.ok and report.divergence is not None and report.divergence.check == "trust"

"""Trust: which signing keys a verifier accepts as the origin of a record.

A bundle carries the public keys that signed it, so it always proves its own integrity; it never
proves who wrote it. That takes a trust anchor from outside the bundle: the keys this server holds,
keys a user pins, or the keys a server publishes at `GET /keys`. Verification checks a record
against a `Trust` and says, for every signer, whether and why it is trusted. An intact record that
no trusted key signed does not verify.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .integrity import is_hex, key_id_of


class TrustError(ValueError):
    """A trust anchor that cannot be read (not an Ed25519 public key, a bad trust file)."""


@dataclass(frozen=True)
class TrustedKey:
    key_id: str
    public_hex: str
    source: str
    """Why it is trusted: "this server", "pinned", "trust file F", "server URL"."""


@dataclass
class Trust:
    """The keys a verifier trusts, by key ID. Public keys are compared too: a key ID is a short
    digest, and a bundle that lists a trusted ID with another public key is not trusted."""

    keys: dict[str, TrustedKey] = field(default_factory=dict)

    @classmethod
    def of(cls, public_keys: Mapping[str, str] | Iterable[str], source: str) -> Trust:
        trust = cls()
        trust.add_all(public_keys, source)
        return trust

    def add(self, public_hex: str, source: str) -> TrustedKey:
        """Trust one public key (64 lower-case hex digits); its key ID is derived, never taken."""
        text = public_hex.strip().lower() if isinstance(public_hex, str) else public_hex
        derived = key_id_of(text) if is_hex(text, 64) else None
        if derived is None:
            raise TrustError(f"{public_hex!r} is not an Ed25519 public key (64 hexadecimal digits)")
        trusted = self.keys.get(derived) or TrustedKey(derived, text, source)
        self.keys[derived] = trusted
        return trusted

    def add_all(self, public_keys: Mapping[str, str] | Iterable[str], source: str) -> None:
        values = public_keys.values() if isinstance(public_keys, Mapping) else public_keys
        for public_hex in values:
            self.add(public_hex, source)

    def merge(self, other: Trust) -> Trust:
        merged = Trust(dict(self.keys))
        for key_id, trusted in other.keys.items():
            merged.keys.setdefault(key_id, trusted)
        return merged

    def source_of(self, key_id: str, public_hex: str | None) -> str | None:
        """Why `key_id` (with this public key) is trusted, or None when it is not."""
        trusted = self.keys.get(key_id)
        if trusted is None or trusted.public_hex != public_hex:
            return None
        return trusted.source

    def __bool__(self) -> bool:
        return bool(self.keys)


def read_trust_file(text: str, source: str) -> Trust:
    """A trust file: one public key per line, optionally after a label (`label pubhex`); blank
    lines and `#` comments are ignored. The label is shown as where the trust comes from."""
    trust = Trust()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        *label, public_hex = line.split()
        try:
            trust.add(public_hex, f"{source}: {' '.join(label)}" if label else source)
        except TrustError as error:
            raise TrustError(f"{source}, line {number}: {error}") from None
    return trust

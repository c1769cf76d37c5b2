"""Integrity: the hash chain over a match's events and the server's Ed25519 signatures.

Every event's hash covers the match ID, its sequence number, kind, actor, time, payload and the
previous event's hash, in canonical JSON; the created event links to GENESIS. The server signs
each (match, seq, hash) head, so a receipt handed to a player proves what was recorded, and a
bundle verifies offline with nothing but the public keys it carries.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .canonical import JSON, digest, digest_parsed, encode, encode_parsed

GENESIS = "0" * 64
_HEX = re.compile(r"[0-9a-f]+")


def is_hex(text: object, length: int | None = None) -> bool:
    """Lower-case hexadecimal of the given length: the only spelling a record uses. `bytes.fromhex`
    also reads upper case and spaces, which would let a changed byte pass unnoticed."""
    return (isinstance(text, str) and _HEX.fullmatch(text) is not None
            and (length is None or len(text) == length))


def event_hash(match_id: str, seq: int, kind: str, actor: JSON, at: str, payload: JSON, prev: str) -> str:
    """The hash that chains one event to the one before it."""
    return digest({
        "match": match_id, "seq": seq, "kind": kind, "actor": actor,
        "at": at, "payload": payload, "prev": prev,
    })


def parsed_event_hash(match_id: str, seq: int, kind: str, actor: JSON, at: str, payload: JSON, prev: str) -> str:
    """`event_hash` of an event read from a bundle line that passed its format check (the line is
    its own canonical encoding): the same hash, without normalizing values that are already normal
    (`canonical.encode_parsed`). Verification recomputes every event's hash with it."""
    return digest_parsed({
        "match": match_id, "seq": seq, "kind": kind, "actor": actor,
        "at": at, "payload": payload, "prev": prev,
    })


def head_message(stream: str, seq: int, hash_: str) -> bytes:
    """The bytes a head signature covers: which stream, how far, ending in which hash."""
    return encode({"stream": stream, "seq": seq, "hash": hash_})


def parsed_head_message(stream: str, seq: int, hash_: str) -> bytes:
    """`head_message` of an event read from a bundle line that passed its format check (as
    `parsed_event_hash`): the same bytes, without normalizing values that are already normal."""
    return encode_parsed({"stream": stream, "seq": seq, "hash": hash_})


def key_id(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_key_hex(public: Ed25519PublicKey) -> str:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


@functools.lru_cache(maxsize=256)
def load_public_key(hex_key: str) -> Ed25519PublicKey:
    """An Ed25519 public key from its 64 lower-case hex digits (ValueError otherwise). Kept per
    process (a key is an immutable value): verification checks many signatures by few keys."""
    if not is_hex(hex_key, 64):
        raise ValueError("a public key is 64 lower-case hexadecimal digits")
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(hex_key))


def key_id_of(public_hex: str) -> str | None:
    """The key ID a public key's hex derives to, or None if it is not a public key."""
    try:
        return key_id(load_public_key(public_hex))
    except (ValueError, TypeError):
        return None


def verify_signature(public_hex: str, message: bytes, signature_hex: str) -> bool:
    """Whether `signature_hex` (128 lower-case hex digits, nothing else) signs `message`."""
    if not is_hex(signature_hex, 128):
        return False
    try:
        load_public_key(public_hex).verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


class ServerKey:
    """The server's signing key: created on first run in the data directory, then reused."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key()
        self.key_id = key_id(self.public)
        self.public_hex = public_key_hex(self.public)

    @classmethod
    def generate(cls) -> ServerKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> ServerKey:
        """A key from 32 fixed bytes: for reproducible tests only."""
        return cls(Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed).digest()))

    class FileError(ValueError):
        """The key file cannot be used or made: unreadable, empty, damaged, cut short, encrypted,
        another kind of key, or a directory where it cannot be written. The message is one line
        naming the file and what is wrong with it."""

    @classmethod
    def load_or_create(cls, directory: Path) -> ServerKey:
        path = directory / "server-key.pem"
        if path.exists() or path.is_symlink():
            return cls(cls._load(path))
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)  # the owner's only, as every store file
        except OSError as error:
            raise cls.FileError(f"cannot create the data directory {directory} for the signing key: "
                                f"{error.strerror or error}") from None
        key = cls.generate()
        pem = key._private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        # Write a private temporary file, then link it into place: the link is atomic and fails if
        # another process got there first, so concurrent first starts agree on one key and nobody
        # ever reads a half-written file.
        temporary = directory / f".server-key.{os.getpid()}.{secrets.token_hex(4)}.pem"
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as error:
            raise cls.FileError(f"cannot write the signing key {path}: {error.strerror or error}") from None
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(pem)
                handle.flush()
                os.fsync(handle.fileno())
            os.link(temporary, path)
        except FileExistsError:
            return cls.load_or_create(directory)
        except OSError as error:
            raise cls.FileError(f"cannot write the signing key {path}: {error.strerror or error}") from None
        finally:
            temporary.unlink(missing_ok=True)
        return key

    @classmethod
    def _load(cls, path: Path) -> Ed25519PrivateKey:
        """The private key in `path`, or a FileError that says what is wrong with the file."""
        try:
            data = path.read_bytes()
        except IsADirectoryError:
            raise cls.FileError(f"the signing key {path} is a directory, not a key file") from None
        except OSError as error:
            raise cls.FileError(f"cannot read the signing key {path}: {error.strerror or error}") from None
        restore = "restore it from a backup (it signs every record of this store)"
        if not data.strip():
            raise cls.FileError(f"the signing key {path} is empty: {restore}")
        try:
            private = serialization.load_pem_private_key(data, password=None)
        except TypeError:
            raise cls.FileError(f"the signing key {path} is encrypted: Ringside reads an unencrypted "
                                "PKCS#8 PEM key") from None
        except (ValueError, UnsupportedAlgorithm):
            raise cls.FileError(f"the signing key {path} is not a readable PEM private key (damaged or cut "
                                f"short?): {restore}") from None
        if not isinstance(private, Ed25519PrivateKey):
            kind = type(private).__name__.removesuffix("PrivateKey") or "another"
            raise cls.FileError(f"the signing key {path} is an {kind} key, not an Ed25519 one")
        return private

    def sign(self, message: bytes) -> str:
        return self._private.sign(message).hex()

    def sign_head(self, stream: str, seq: int, hash_: str) -> str:
        return self.sign(head_message(stream, seq, hash_))

    @functools.cached_property
    def _seal_key(self) -> bytes:
        """A symmetric key derived from the private key (HMAC of it over a fixed label), for `seal`."""
        raw = self._private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                          serialization.NoEncryption())
        return hmac.new(raw, b"ringside: seals of this server's own store, v1", hashlib.sha256).digest()

    def seal(self, message: bytes) -> str:
        """An HMAC-SHA256 tag of `message` that only the holder of this key can make or check.

        Why not a signature: a seal guards what this server keeps for itself (the snapshots in its
        store, which it must not use if anyone edited them), and nobody else ever checks it. A
        signature would prove it to others, at the cost of an Ed25519 verification (about 0.1 ms)
        at every cold read of a match; a tag checks in microseconds and is as hard to forge
        without the key."""
        return hmac.new(self._seal_key, message, hashlib.sha256).hexdigest()

    def seal_holds(self, message: bytes, tag: object) -> bool:
        """Whether `tag` is this key's `seal` of `message` (compared in constant time)."""
        return isinstance(tag, str) and hmac.compare_digest(self.seal(message), tag)


RETIRED_KEYS = "retired-keys"
"""The folder beside `server-key.pem` where a rotated-out key is kept (owner-only)."""


def load_retired_keys(directory: Path) -> dict[str, ServerKey]:
    """The keys this server signed with before its current one, by key ID."""
    folder = directory / RETIRED_KEYS
    keys: dict[str, ServerKey] = {}
    if not folder.is_dir():
        return keys
    for path in sorted(folder.glob("*.pem")):
        try:
            private = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a readable private key ({error})") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError(f"{path} is not an Ed25519 private key")
        key = ServerKey(private)
        keys[key.key_id] = key
    return keys


def rotate_server_key(directory: Path) -> tuple[ServerKey, ServerKey]:
    """Retire the current signing key (kept, owner-only, in `retired-keys/`) and create a new one.
    Records the old key signed stay verifiable; the first event this server appends to each of
    them is a key-rotated event, signed by the old key, that hands the record to the new one.
    Returns (old, new). Run it while no server uses the data directory."""
    old = ServerKey.load_or_create(directory)
    folder = directory / RETIRED_KEYS
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    current = directory / "server-key.pem"
    os.replace(current, folder / f"{old.key_id}.pem")
    return old, ServerKey.load_or_create(directory)


@dataclass(frozen=True)
class Receipt:
    """What a player keeps as proof that their move was recorded as it was."""

    match_id: str
    seq: int
    hash: str
    signature: str
    key_id: str

    def to_json(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "seq": self.seq, "hash": self.hash,
                "signature": self.signature, "key_id": self.key_id}

    def verify(self, public_hex: str) -> bool:
        return verify_signature(public_hex, head_message(self.match_id, self.seq, self.hash), self.signature)

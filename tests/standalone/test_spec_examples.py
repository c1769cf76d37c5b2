"""The byte-level examples in docs/bundle-format.md are the vectors' bytes, and its table of vectors is
index.json: the specification cannot drift from the code that the vectors come from."""

from __future__ import annotations

import hashlib
import json
import re

from tools import ringside_verify

from .support import SPEC, VECTORS, index, vectors

TEXT = SPEC.read_text(encoding="utf-8")
RAW = (VECTORS / "valid.ringside.jsonl").read_bytes()
LINES = RAW.split(b"\n")[:-1]


def event(seq: int) -> tuple[bytes, dict[str, object]]:
    line = next(line for line in LINES if b'"type":"event"' in line and json.loads(line)["seq"] == seq)
    return line, json.loads(line)


def test_the_event_line_its_hash_input_and_its_head_message() -> None:
    line, data = event(4)
    assert line.decode() in TEXT
    hash_input = ringside_verify.canonical({"match": data["stream"], **{k: data[k] for k in (
        "seq", "kind", "actor", "at", "payload", "prev")}})
    assert hash_input.decode() in TEXT
    assert f"these {len(hash_input)} bytes" in TEXT
    assert hashlib.sha256(hash_input).hexdigest() == data["hash"]
    assert f"whose SHA-256 is `{data['hash']}`" in TEXT
    head = ringside_verify.head_message(str(data["stream"]), 4, str(data["hash"]))
    assert head.decode() in TEXT
    assert f"these {len(head)} bytes" in TEXT
    assert f"`{str(data['sig'])[:8]}…{str(data['sig'])[-8:]}`" in TEXT


def test_the_key_id_example() -> None:
    origin = index()["keys"]["origin"]
    public = origin["public_key"]
    assert f"public key  {public}" in TEXT
    assert f"SHA-256     {hashlib.sha256(bytes.fromhex(public)).hexdigest()}" in TEXT
    assert f"key ID      {origin['key_id']}" in TEXT
    assert f"`{public[:8]}…{public[-6:]}`" in TEXT


def test_the_seed_commitment_salt_and_chance_examples() -> None:
    seed, match_id = index()["seed"], index()["match_id"]
    _, created = event(1)
    commitment = created["payload"]["seed_commitment"]  # type: ignore[index]
    assert commitment == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert f"`{commitment}`" in TEXT and f"`{seed[:8]}…{seed[-4:]}`" in TEXT
    _, vote = event(12)
    salt = ringside_verify.derive_salt(seed, match_id, 12)
    assert vote["payload"]["salt"] == salt  # type: ignore[index]
    assert ringside_verify.canonical({"match": match_id, "salt": 12}).decode() in TEXT and f"`{salt}`" in TEXT
    _, die = event(8)
    message = ringside_verify.canonical({"match": match_id, "entropy": [], "seq": 8, "draw": 0}).decode()
    assert f"`{message}`" in TEXT
    index_ = ringside_verify.chance_value(seed, match_id, [], 8, 0) & 0b111  # 6 faces: bit_length(5) = 3 bits
    assert die["payload"]["derivation"] == {"mode": "server", "index": index_, "draw": 0}  # type: ignore[index]
    assert die["payload"]["outcome"] == index_ + 1  # type: ignore[index]
    assert f"low 3\n  bits are {index_}" in TEXT or f"low 3 bits are {index_}" in TEXT


def test_the_redacted_line_and_the_trailer() -> None:
    redacted = next(line for line in (VECTORS / "redacted-annotation.ringside.jsonl").read_bytes().split(b"\n")
                    if b'"redacted":true' in line)
    assert redacted.decode() in TEXT
    trailer = LINES[-1]
    assert trailer.decode() in TEXT
    body = RAW[: len(RAW) - len(trailer) - 1]
    digest = hashlib.sha256(body).hexdigest()
    assert json.loads(trailer)["sha256"] == digest
    assert f"the file's first {len(body)} bytes" in TEXT
    assert f"the 64 bytes\n`{digest}`" in TEXT


def test_the_key_order_example() -> None:
    value = {"\uff61": 1, "\U0001f600": 2}
    assert f"is\n  `{ringside_verify.canonical(value).decode()}` here" in TEXT


def test_the_table_of_vectors_is_the_index() -> None:
    section = TEXT[TEXT.index("## Test vectors"):TEXT.index("## The standalone verifier")]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| [^|]+ \| ([^|]+) \|", section, flags=re.MULTILINE))
    for vector in vectors():
        expect = vector["expect"]
        if expect["ok"]:
            wanted = "verified"
        elif expect["seq"] is None:
            wanted = f"`{expect['check']}`"
        else:
            where = "annotation event " if expect["stream"] == "annotations" else ""
            wanted = f"`{expect['check']}` at {where}{expect['seq']}"
        assert rows.get(vector["name"], "").strip() == wanted, vector["name"]
    assert set(rows) == {vector["name"] for vector in vectors()}


def test_chance_derivation_needs_only_the_seed_and_the_weight() -> None:
    """In the seat-entropy vector every die and the first deal derive, rules-free, from the seed, the match
    ID, the creation entropy followed by each seat's in seat order, the seq and the outcome line's weight."""
    lines = [json.loads(line) for line in (VECTORS / "seat-entropy.ringside.jsonl").read_bytes().split(b"\n")[:-1]]
    events = [line for line in lines if line["type"] == "event"]
    created = events[0]["payload"]
    assert created["entropy_from"] == "seats"
    seat_entropy = {e["payload"]["seat"]: e["payload"]["entropy"] for e in events if e["kind"] == "entropy-added"}
    entropy = [*created["entropy"], *(seat_entropy[seat] for seat in sorted(seat_entropy))]
    assert entropy == ["table 7", "Ann's lucky dice", "Bob: 42"]
    seed, match_id = events[-1]["payload"]["seed"], events[0]["stream"]
    chances = [e for e in events if e["kind"] == "chance"]
    weights = {"die": 6}
    first_deal = chances[0]
    assert first_deal["payload"]["kind"] == "draw"
    index_, draw = ringside_verify.derive_index(seed, match_id, entropy, first_deal["seq"], 12)  # a full deck
    assert first_deal["payload"]["derivation"] == {"mode": "server", "index": index_, "draw": draw}
    dice = [e for e in chances if e["payload"]["kind"] == "die"]
    assert any(e["payload"]["derivation"]["draw"] > 0 for e in dice)  # one was drawn again (rejection)
    for die in dice:
        index_, draw = ringside_verify.derive_index(seed, match_id, entropy, die["seq"], weights["die"])
        assert die["payload"]["derivation"] == {"mode": "server", "index": index_, "draw": draw}
        assert die["payload"]["outcome"] == index_ + 1
    second = dice[1]
    assert second["seq"] == 9 and second["payload"]["derivation"]["draw"] == 1
    assert ringside_verify.chance_value(seed, match_id, entropy, 9, 0) & 0b111 in (6, 7)
    assert "its second die (event 9) was drawn\n  again (`\"draw\": 1`)" in TEXT

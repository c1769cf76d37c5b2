"""Engine 1.1.0 and the records of engine 1.0.0: the solitaire scoring option (A-29) and what an
old record means now.

`records/solitaire-engine-1.0.0.jsonl` is a whole basic solitaire match exported by engine 1.0.0
(the code before issue 12, greedy bot, seed c7...c7): the reading then was A-29 (a), no month-end
or final scoring, and the match ended on $280.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from domain.application import Ringside
from domain.kernel.bundle import read_bundle
from domain.kernel.clock import FixedStepClock
from domain.kernel.integrity import ServerKey
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle

from .helpers import R, cfg

OLD_RECORD = Path(__file__).parent / "records" / "solitaire-engine-1.0.0.jsonl"
OLD_KEY = ServerKey.from_seed(b"circus-train-engine-1.0.0")
"""The key the old record was signed with (a test key, derived from a fixed seed)."""


def refold(text: str, **options: Any) -> Any:
    """The record's moves and outcomes applied to a fresh setup, with the header's options changed."""
    entries = read_bundle(text).entries
    header = entries[0].payload
    state = R.setup(cfg(len(header["seats"]), header["variant"], **{**header["options"], **options}))
    for entry in entries[1:]:
        if entry.kind == "move":
            move = R.parse_move(entry.payload["move"])
            R.validate(state, entry.payload["seat"], move)
            state = R.apply(state, entry.payload["seat"], move)
        elif entry.kind == "chance":
            state = R.resolve(state, entry.payload["outcome"])
    return state


def test_engine_version_and_preset() -> None:
    """CT-20.10 (A-29): the engine is 1.1.0; the earlier reading is an option preset, so the
    conformance suite plays it in every variant."""
    assert R.engine_version == "1.1.0"
    assert R.option_presets()["solitaire-unscored"] == {"solitaire_scoring": "none"}


def test_options_recorded_by_engine_1_0_keep_their_reading() -> None:
    """CT-20.10 (A-29): the options engine 1.0.0 recorded (exactly special_characters, event_cards
    and simpler) read as "none", the only reading it had; anything else without the option gets
    the new default; an explicit value always decides."""
    old = {"special_characters": False, "event_cards": False, "simpler": False}
    assert R.parse_options(old).solitaire_scoring == "none"  # type: ignore[attr-defined]
    assert R.parse_options({}).solitaire_scoring == "month_end_and_final"  # type: ignore[attr-defined]
    assert R.parse_options({"simpler": False}).solitaire_scoring == "month_end_and_final"  # type: ignore[attr-defined]
    explicit = {**old, "solitaire_scoring": "month_end_and_final"}
    assert R.parse_options(explicit).solitaire_scoring == "month_end_and_final"  # type: ignore[attr-defined]


def test_a_new_match_records_the_reading(tmp_path: Path) -> None:
    """CT-20.10 (A-29): the created event names solitaire_scoring, so a later change of default
    leaves the match's reading as it was."""
    app = Ringside.open(data_dir=tmp_path, key=ServerKey.from_seed(b"ct-new"), clock=FixedStepClock())
    try:
        accepted = app.create_match("circus-train", ["Solo"], variant="solitaire", seed="c7" * 32)
        header = app.entries(uuid.UUID(accepted.receipt.match_id), 1, 1)[0].payload
    finally:
        app.close()
    assert header["engine_version"] == "1.1.0"
    assert header["options"] == {"special_characters": False, "event_cards": False, "simpler": False,
                                 "solitaire_scoring": "month_end_and_final"}


def test_old_solitaire_record_verifies_only_when_allowed() -> None:
    """CT-20.9, CT-20.10 (A-29): a solitaire record of engine 1.0.0 is refused under 1.1.0 unless the
    engine mismatch is allowed; allowed, it verifies, final state and score included, because its
    options keep the reading it was played under ($280, Incredible success)."""
    text = OLD_RECORD.read_text(encoding="utf-8")
    trust = Trust.of([OLD_KEY.public_hex], "pinned")
    refused = verify_bundle(text, trust=trust)
    assert not refused.intact and refused.divergence is not None
    assert (refused.divergence.check, refused.divergence.expected, refused.divergence.actual) == (
        "header", "1.0.0", "1.1.0")
    allowed = verify_bundle(text, trust=trust, allow_engine_mismatch=True)
    assert allowed.ok and allowed.divergence is None, allowed.summary()
    assert allowed.checked["score"] == 1
    assert any("recorded under 1.0.0" in note for note in allowed.notes)


def test_old_record_under_each_reading() -> None:
    """CT-16.11, CT-20.10 (A-29): the same moves and draws under the reading the record was made with
    end on the recorded $280 and final state; under the new reading they end on $340 (Most Talent
    paid at the month ends, then the final award steps), which is why the old options must keep
    meaning "none"."""
    text = OLD_RECORD.read_text(encoding="utf-8")
    ended = next(e for e in read_bundle(text).entries if e.kind == "ended").payload
    old = refold(text)
    assert old.over and old.players[0].money == 280 == ended["scores"]["totals"][0]
    assert R.state_hash(old) == ended["state_hash"]
    new = refold(text, solitaire_scoring="month_end_and_final")
    assert new.over and new.players[0].money == 340 and R.state_hash(new) != ended["state_hash"]

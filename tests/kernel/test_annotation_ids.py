"""Annotation IDs: a1, a2, ... in the order annotations are added; IDs already stored (made under
the older rule, the annotation's position in its stream) are kept, still verify, can be edited,
and are never given again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import NotFoundError
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match

VECTOR = Path(__file__).resolve().parents[2] / "tools" / "vectors" / "valid.ringside.jsonl"


def test_new_annotations_are_numbered_from_a1_in_order_of_addition(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    first = sqlite_app.annotate(match_id, 1, "opening", actor=Actor.arbiter("root"))
    second = sqlite_app.annotate(match_id, 1, "aside", actor=Actor.player(1), visibility="seat:1")
    # an edit is an event of the stream too; it must not use up a number
    sqlite_app.edit_annotation(match_id, "a1", actor=Actor.arbiter("root"), text="the opening")
    third = sqlite_app.annotate(match_id, 1, "later", actor=Actor.player(0))
    assert [first["id"], second["id"], third["id"]] == ["a1", "a2", "a3"]
    listed = {item["id"]: item["text"] for item in sqlite_app.annotations(match_id, Viewer.arbiter())}
    assert listed == {"a1": "the opening", "a2": "aside", "a3": "later"}
    with pytest.raises(NotFoundError):
        sqlite_app.edit_annotation(match_id, "a4", actor=Actor.arbiter("root"), text="no such note")


def test_a_stream_written_under_the_old_rule_keeps_its_ids_and_new_ones_follow_them(tmp_path: Path) -> None:
    text = VECTOR.read_text(encoding="utf-8")
    app = Ringside.open(data_dir=tmp_path / "data", clock=FixedStepClock())
    try:
        match_id = app.import_bundle(text)
        old = {item["id"]: item for item in app.annotations(match_id, Viewer.arbiter())}
        assert sorted(old) == ["a2", "a3"]  # positions 2 and 3 of the vector's stream
        added = app.annotate(match_id, 4, "read years later", actor=Actor("annotator", name="archive"))
        # the count rule alone would say a3, which the stream already holds: new IDs go past the highest
        assert added["id"] == "a4"
        assert app.annotate(match_id, 4, "and again", actor=Actor("annotator", name="archive"))["id"] == "a5"
        edited = app.edit_annotation(match_id, "a2", actor=Actor.from_json(old["a2"]["author"]), text="edited")
        assert edited["id"] == "a2" and edited["text"] == "edited"
        assert {item["id"] for item in app.annotations(match_id, Viewer.arbiter())} == {"a2", "a3", "a4", "a5"}
        recorded_by = list(json.loads(text.splitlines()[0])["keys"].values())
        report = verify_bundle(app.export_bundle(match_id), trust=Trust.of([*recorded_by, app.key.public_hex], "test"))
        assert report.ok, report.summary()
        assert report.annotations == 6  # opened, two old, two new, one edit
    finally:
        app.close()

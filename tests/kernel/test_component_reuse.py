"""Verification reads a bundle's component set by its hash: the default set, or one this process
remembered under that hash, is not validated and hashed again; any other set is, as before."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel import component_store
from domain.kernel.integrity import ServerKey
from domain.kernel.registry import get_game
from domain.kernel.trust import Trust
from domain.kernel.verification import verify_bundle
from tests.support.helpers import play_to_end

DECK = {"name": "short", "deck": [1, 2, 3, 4, 5, 6, 6, 6]}


def _bundle(app: Ringside, **kwargs: Any) -> str:
    match_id = uuid.UUID(app.create_match("test-dicevote", ["A", "B"], seed="ab" * 32, **kwargs).receipt.match_id)
    play_to_end(app, match_id)
    return app.export_bundle(match_id)


def _counting_validation(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    model = get_game("test-dicevote").components_model
    calls: list[Any] = []
    validate = model.model_validate

    def counted(data: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(data)
        return validate(data, *args, **kwargs)

    monkeypatch.setattr(model, "model_validate", counted)
    return calls


def test_the_default_set_is_not_read_again(sqlite_app: Ringside, test_key: ServerKey,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    text = _bundle(sqlite_app)
    calls = _counting_validation(monkeypatch)
    assert verify_bundle(text, trust=Trust.of([test_key.public_hex], "test")).ok
    assert calls == []


def test_a_custom_set_is_validated_once_per_process_and_still_checked_by_hash(
        sqlite_app: Ringside, test_key: ServerKey, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _bundle(sqlite_app, components=DECK)
    trust = Trust.of([test_key.public_hex], "test")
    monkeypatch.setattr(component_store, "_SETS", {})  # a process that never saw the set
    calls = _counting_validation(monkeypatch)
    assert verify_bundle(text, trust=trust).ok
    assert len(calls) == 1
    assert verify_bundle(text, trust=trust).ok  # remembered now: not read again
    assert len(calls) == 1
    altered = text.replace('"deck":[1,2,3,4,5,6,6,6]', '"deck":[1,2,3,4,5,6,6,5]', 1)
    assert altered != text
    report = verify_bundle(altered, trust=trust)
    assert not report.ok and report.divergence is not None and report.divergence.check == "header"

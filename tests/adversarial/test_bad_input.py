"""Bad input of every shape gets a typed error and changes nothing in the record.

Each case is a call to a Ringside application method with a value an API client (or a CLI typo)
could send: wrong JSON types (strings, None, floats, bools for ints, lists for objects). No bare
Python exception may escape, and the entry hashes before and after must be identical.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.application import Ringside
from domain.kernel.errors import RingsideError
from domain.kernel.viewers import Actor, Viewer
from tests.support.helpers import new_match, play_to_end

from .support import record_of, refused

ARBITER = Actor.arbiter()


@pytest.mark.parametrize("seat", ["0", None, 0.0, [0], {"seat": 0}, True])
def test_a_seat_that_is_not_a_whole_number_is_refused(sqlite_app: Ringside, seat: Any) -> None:
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.submit_move(match_id, seat, {"type": "pass"},
                                                                 actor=Actor.player(0)))


@pytest.mark.parametrize("outcome", [1.5, float("inf"), float("nan"), {1, 2}, b"1", object()])
def test_a_recorded_outcome_that_is_not_json_is_refused(sqlite_app: Ringside, outcome: Any) -> None:
    match_id = new_match(sqlite_app, randomness="recorded")
    refused(sqlite_app, match_id, lambda: sqlite_app.submit_outcome(match_id, outcome, actor=Actor("recorder")))


@pytest.mark.parametrize("ruling", [None, [], "penalty", 7,
                                    {"ruling": "penalty", "seat": True, "points": 1},
                                    {"ruling": "forfeit", "seat": False},
                                    {"ruling": "adjudicated-result", "ranks": [True, 2]},
                                    {"ruling": ["penalty"]}, {"ruling": None}])
def test_a_malformed_ruling_is_refused(sqlite_app: Ringside, ruling: Any) -> None:
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.make_ruling(match_id, ruling, actor=ARBITER))


@pytest.mark.parametrize("request_id", [["u3"], {"id": "u3"}, None, 3])
def test_an_undo_answer_to_a_request_id_of_the_wrong_type_is_refused(sqlite_app: Ringside,
                                                                    request_id: Any) -> None:
    match_id = new_match(sqlite_app, undo_policy="consent")
    refused(sqlite_app, match_id, lambda: sqlite_app.answer_undo(match_id, request_id, True, seat=1,
                                                                 actor=Actor.player(1)))


@pytest.mark.parametrize("seq", ["1", None, 1.0, True, [1]])
def test_an_annotation_anchor_that_is_not_a_whole_number_is_refused(sqlite_app: Ringside, seq: Any) -> None:
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.annotate(match_id, seq, "hm", actor=Actor.player(0)))


@pytest.mark.parametrize("visibility", [None, 3, ["public"], "seat:", "seat:-1", "seat:2", "seat:٠", "seat:00"])
def test_an_annotation_visibility_that_is_not_one_of_the_forms_is_refused(sqlite_app: Ringside,
                                                                         visibility: Any) -> None:
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.annotate(match_id, 1, "hm", actor=Actor.player(0),
                                                              visibility=visibility))
    sqlite_app.annotate(match_id, 1, "hm", actor=Actor.player(0), glyphs=["!"])  # a valid one still works
    if isinstance(visibility, str) or visibility is None:
        first = sqlite_app.annotations(match_id, Viewer.spectator())[0]["id"]
        refused(sqlite_app, match_id, lambda: sqlite_app.edit_annotation(
            match_id, first, actor=Actor.player(0), visibility=visibility if visibility is not None else 5))


@pytest.mark.parametrize("options", [[1], "rounds", 1.5, 3, [("rounds", 2)]])
def test_options_that_are_not_an_object_are_refused(sqlite_app: Ringside, options: Any) -> None:
    with pytest.raises(RingsideError):
        sqlite_app.create_match("test-dicevote", ["A", "B"], options=options)
    assert sqlite_app.list_matches() == []


@pytest.mark.parametrize("field", ["game", "variant"])
@pytest.mark.parametrize("value", [["test-dicevote"], {"x": 1}, 3])
def test_a_game_or_variant_that_is_not_a_name_is_refused(sqlite_app: Ringside, field: str, value: Any) -> None:
    kwargs: dict[str, Any] = {"game": "test-dicevote", "players": ["A", "B"], field: value}
    with pytest.raises(RingsideError):
        sqlite_app.create_match(**kwargs)


def test_a_penalty_or_forfeit_records_a_plain_seat_number(sqlite_app: Ringside) -> None:
    """The accepted form still works, and the seat is an int in the record (not a bool)."""
    match_id = new_match(sqlite_app)
    accepted = sqlite_app.make_ruling(match_id, {"ruling": "penalty", "seat": 1, "points": 2}, actor=ARBITER)
    assert type(accepted.entries[0].payload["seat"]) is int
    assert sqlite_app.score(match_id)["totals"] == [0, -2]


def test_a_log_page_of_no_events_is_empty_not_an_unknown_match(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    assert sqlite_app.log(match_id, Viewer.spectator(), 1, 0) == []
    assert sqlite_app.log(match_id, Viewer.spectator(), 2, -3) == []
    assert len(sqlite_app.log(match_id, Viewer.spectator(), 1, 1)) == 1


def test_nothing_was_created_by_refused_creations(sqlite_app: Ringside) -> None:
    for bad in ([1], "x"):
        with pytest.raises(RingsideError):
            sqlite_app.create_match("test-dicevote", ["A", "B"], options=bad)
    match_id = new_match(sqlite_app)
    assert [m["match_id"] for m in sqlite_app.list_matches()] == [str(match_id)]
    assert record_of(sqlite_app, match_id)[0]


def test_entropy_and_seed_of_the_wrong_shape_are_refused(sqlite_app: Ringside) -> None:
    with pytest.raises(RingsideError):
        sqlite_app.create_match("test-dicevote", ["A", "B"], entropy=5)  # type: ignore[arg-type]
    with pytest.raises(RingsideError):
        sqlite_app.create_match("test-dicevote", ["A", "B"], seed="not hex")
    assert sqlite_app.list_matches() == []


def test_every_refusal_above_leaves_the_match_playable(sqlite_app: Ringside) -> None:
    match_id = new_match(sqlite_app)
    for seat in ("0", None, 0.0):
        with pytest.raises(RingsideError):
            sqlite_app.submit_move(match_id, seat, {"type": "pass"}, actor=Actor.player(0))  # type: ignore[arg-type]
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    assert sqlite_app.fold(match_id).decision.seats == (1,)
    assert sqlite_app.verify_match(match_id).ok




def test_creating_a_match_under_an_existing_id_leaves_that_match_as_it_was(sqlite_app: Ringside) -> None:
    """The refused creation must not replace the existing match's secret seed (held in memory for
    the chance outcomes still to come), or its later draws no longer follow its commitment."""
    match_id = new_match(sqlite_app)
    with pytest.raises(RingsideError):
        sqlite_app.create_match("test-dicevote", ["A", "B"], match_id=match_id, seed="cd" * 32)
    with pytest.raises(RingsideError):
        sqlite_app.create_match("test-dicevote", ["A", "B"], match_id=match_id)
    assert sqlite_app.seed_for_arbiter(match_id)["seed"] == "ab" * 32
    play_to_end(sqlite_app, match_id)
    report = sqlite_app.verify_match(match_id)
    assert report.ok, report.summary()


@pytest.mark.parametrize("at", [2**63, 2**64, 10**30, -(2**64), "3", 2.0, True])
def test_a_position_beyond_what_a_store_can_hold_is_a_typed_refusal(app: Ringside, at: Any) -> None:
    """SQLite and PostgreSQL hold 64-bit positions: a larger one must not reach the query."""
    match_id = new_match(app)
    head = app.fold(match_id).seq
    for call in (lambda: app.state(match_id, Viewer.spectator(), at), lambda: app.score(match_id, at),
                 lambda: app.diff(match_id, 1, at, Viewer.spectator()), lambda: app.fork(match_id, at)):
        with pytest.raises(RingsideError):
            call()
    if isinstance(at, int) and not isinstance(at, bool) and at > 0:
        assert [e.seq for e in app.entries(match_id, 1, at)] == list(range(1, head + 1))
        assert app.entries(match_id, at) == []
    assert len(app.list_matches()) == 1


@pytest.mark.parametrize("reason", [5, ["why"], {"why": 1}, b"why"])
def test_an_undo_reason_that_is_not_text_is_refused(sqlite_app: Ringside, reason: Any) -> None:
    match_id = new_match(sqlite_app)
    sqlite_app.submit_move(match_id, 0, {"type": "pass"})
    refused(sqlite_app, match_id, lambda: sqlite_app.request_undo(match_id, 0, reason=reason))


@pytest.mark.parametrize("field", ["glyphs", "tags"])
@pytest.mark.parametrize("value", ["!?", 5, {"!": 1}])
def test_glyphs_and_tags_that_are_not_lists_are_refused(sqlite_app: Ringside, field: str, value: Any) -> None:
    match_id = new_match(sqlite_app)
    refused(sqlite_app, match_id, lambda: sqlite_app.annotate(match_id, 1, "x", actor=Actor.player(0),
                                                              **{field: value}))

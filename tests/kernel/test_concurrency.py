"""Concurrency (brief §8): racing writers keep every match's record linear, nothing lost or doubled."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path

import pytest

from domain.application import Ringside
from domain.kernel.clock import FixedStepClock
from domain.kernel.errors import IllegalMoveError, NotYourTurnError, RingsideError, StaleVersionError
from domain.kernel.integrity import ServerKey
from tests.support.helpers import assert_linear_and_verified, new_match


def _race(app: Ringside, match_id: uuid.UUID, writers: int = 8) -> tuple[list[int], list[str]]:
    """Every writer tries the same next move with the same expected version."""
    fold = app.fold(match_id)
    seat, version = fold.decision.seats[0], fold.seq
    barrier = threading.Barrier(writers)
    won: list[int] = []
    lost: list[str] = []

    def attempt() -> None:
        barrier.wait()
        try:
            accepted = app.submit_move(match_id, seat, {"type": "pass"}, expected_version=version)
            won.append(accepted.receipt.seq)
        except StaleVersionError as error:
            lost.append(error.code)

    threads = [threading.Thread(target=attempt) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return won, lost


def test_racing_moves_on_one_match_exactly_one_wins(app: Ringside) -> None:
    match_id = new_match(app, players=4)
    for _ in range(3):
        won, lost = _race(app, match_id)
        assert len(won) == 1 and len(lost) == 7 and set(lost) == {"stale-version"}
    assert_linear_and_verified(app, match_id)


def test_without_expected_version_conflicts_are_retried(app: Ringside) -> None:
    """Writers on different matches and on the same match without a version: each move lands
    once, refusals are the rules' (not your turn), never a lost or doubled event."""
    matches = [new_match(app, players=2) for _ in range(3)]
    errors: list[Exception] = []
    landed: list[tuple[uuid.UUID, int]] = []

    def worker(match_id: uuid.UUID) -> None:
        for _ in range(4):
            try:
                fold = app.fold(match_id)
                if fold.decision.seats and not fold.decision.secret:
                    accepted = app.submit_move(match_id, fold.decision.seats[0], {"type": "pass"})
                    landed.append((match_id, accepted.receipt.seq))
            except (NotYourTurnError, IllegalMoveError):  # the state moved on: the rules refuse
                pass
            except RingsideError as error:
                errors.append(error)

    threads = [threading.Thread(target=worker, args=(m,)) for m in matches for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert len(landed) == len(set(landed))
    for match_id in matches:
        assert_linear_and_verified(app, match_id)
        moves = [e for e in app.entries(match_id) if e.kind == "move"]
        assert len(moves) == sum(1 for m, _ in landed if m == match_id)


@pytest.mark.postgres
def test_two_workers_share_one_postgres(tmp_path: Path, postgres_url: str) -> None:
    """Two application instances (as two worker processes would be) on one PostgreSQL."""
    key = ServerKey.from_seed(b"shared")
    first = Ringside.open(data_dir=tmp_path / "a", store=postgres_url, key=key, clock=FixedStepClock())
    second = Ringside.open(data_dir=tmp_path / "b", store=postgres_url, key=key, clock=FixedStepClock())
    match_id = new_match(first, players=2)
    seat = second.fold(match_id).decision.seats[0]
    version = second.fold(match_id).seq
    second.submit_move(match_id, seat, {"type": "pass"}, expected_version=version)
    with pytest.raises(StaleVersionError) as stale:
        first.submit_move(match_id, seat, {"type": "pass"}, expected_version=version)
    assert stale.value.current == version + 1
    first.submit_move(match_id, 1 - seat, {"type": "pass"})  # first's cache fast-forwards
    assert [m["match_id"] for m in second.list_matches()] == [str(match_id)]
    assert second.list_matches()[0]["version"] == first.fold(match_id).seq
    assert_linear_and_verified(second, match_id)
    first.close()
    second.close()


def test_a_stale_cached_copy_never_refuses_or_loses_a_move(tmp_path: Path) -> None:
    """Two processes on one store: each trusts its cached copy first, so one of them works on an
    outdated match; its refusal or conflict must send it back to the store, never to the caller."""
    key = ServerKey.from_seed(b"stale")
    first = Ringside.open(data_dir=tmp_path, key=key, clock=FixedStepClock())
    second = Ringside.open(data_dir=tmp_path, key=key, clock=FixedStepClock())
    match_id = new_match(first, players=2)
    seat = first.fold(match_id).decision.seats[0]
    second.fold(match_id)  # second caches the match as it is now
    first.submit_move(match_id, seat, {"type": "pass"})
    # second's cached copy still says `seat` is to act; the other seat's move must be accepted
    second.submit_move(match_id, 1 - seat, {"type": "pass"})
    # and a move on second's now-outdated view by the first seat is refused by the rules, not lost
    with pytest.raises(RingsideError):
        second.submit_move(match_id, seat, {"type": "pass"})
    first.submit_move(match_id, seat, {"type": "vote", "choice": "low"})  # first is outdated now
    assert [e.kind for e in second.entries(match_id)][-3:] == ["move", "move", "move"]
    assert_linear_and_verified(first, match_id)
    first.close()
    second.close()

"""Verification of real bundles against its anchor, python-chess replaying and validating PGN.

The anchor: python-chess reads a PGN file of master games (benchmarks/data/masters.pgn, four
19th-century games), parses every SAN move against the position, pushes it, and checks each
game's result tag against the final position, in moves per second. Beside it, in the same test,
`verify_bundle` of a Carcassonne and a Circus Train bundle recorded through the application with
take-backs (requests, consents, retractions, redos), arbiter's rulings and annotations
(tests/support/eventful.py), against the recording server's key, in events per second. Both on one
core. `extra_info` holds both rates and their ratio (issue 14 asks for at least 0.5), the ratio to
python-chess's slower usual reading (a `Game` tree, then its mainline pushed: the way issue 14
measured it), the thorough walk's rate (every head signature checked), and how much of the time
the rules fold takes.
"""

from __future__ import annotations

import gc
import io
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from domain.kernel import fold as fold_module
from domain.kernel.verification import verify_bundle
from tests.support.eventful import Recorded, record_eventful

PGN = Path(__file__).parent / "data" / "masters.pgn"
ROUNDS = 5


class _Replay(chess.pgn.BoardBuilder):
    """The final position of a game, its result tag, and any move that did not parse or was illegal."""

    def begin_game(self) -> None:
        super().begin_game()
        self.result_tag = "*"

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if tagname == "Result":
            self.result_tag = tagvalue

    def handle_error(self, error: Exception) -> None:
        raise error

    def result(self) -> Any:
        return self.board, self.result_tag


def replay_pgn(text: str) -> int:
    """Replay and validate every game of a PGN text; return the number of moves (plies)."""
    handle = io.StringIO(text)
    moves = 0
    while (read := chess.pgn.read_game(handle, Visitor=_Replay)) is not None:
        board, result = read
        outcome = board.outcome()
        if outcome is not None:  # a mate or a dead position: the tag must say what the board says
            assert outcome.result() == result, (outcome, result)
        else:  # resigned or agreed
            assert result in ("1-0", "0-1", "1/2-1/2"), result
        moves += len(board.move_stack)
    return moves


def replay_pgn_as_games(text: str) -> int:
    """The same through python-chess's usual reading: each game read into a `Game` tree (which
    parses and validates every SAN move), then its mainline pushed onto a board and the result
    checked. It does more work per move than `replay_pgn`; issue 14 measured this one."""
    handle = io.StringIO(text)
    moves = 0
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        outcome = board.outcome()
        assert outcome is None or outcome.result() == game.headers["Result"]
        moves += len(board.move_stack)
    return moves


def _timed(call: Callable[[], Any], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def anchor_moves_per_second(rounds: int = ROUNDS, replay: Callable[[str], int] = replay_pgn) -> tuple[int, list[float]]:
    """python-chess's replay-and-validate rate, one sample per round (each round replays the file
    several times, so a sample is long enough to time)."""
    text = PGN.read_text(encoding="utf-8")
    moves = replay(text)
    repeats = 20
    times = _timed(lambda: [replay(text) for _ in range(repeats)], rounds)
    return moves, [moves * repeats / t for t in times]


@contextmanager
def _fold_clock() -> Iterator[list[float]]:
    """Seconds spent inside the rules fold (MatchFold.consume) while the block runs."""
    spent = [0.0]
    consume = fold_module.MatchFold.consume

    def timed(self: fold_module.MatchFold, entry: Any) -> Any:
        start = time.perf_counter()
        try:
            return consume(self, entry)
        finally:
            spent[0] += time.perf_counter() - start

    fold_module.MatchFold.consume = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        fold_module.MatchFold.consume = consume  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def carcassonne(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_eventful(tmp_path_factory.mktemp("carcassonne"), "carcassonne")


@pytest.fixture(scope="module")
def circus_train(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_eventful(tmp_path_factory.mktemp("circus"), "circus-train")


def test_anchor_python_chess_replay_and_validate(benchmark: Any) -> None:
    text = PGN.read_text(encoding="utf-8")
    moves = benchmark.pedantic(replay_pgn, args=(text,), rounds=ROUNDS * 4, iterations=5, warmup_rounds=1)
    assert moves == 190
    benchmark.extra_info["moves"] = moves
    if benchmark.stats is not None:
        benchmark.extra_info["moves_per_second"] = int(moves / benchmark.stats.stats.median)


@pytest.mark.parametrize("game", ["carcassonne", "circus_train"])
def test_verify_against_python_chess(benchmark: Any, request: pytest.FixtureRequest, game: str) -> None:
    recorded: Recorded = request.getfixturevalue(game)
    trust = recorded.trust()
    gc.collect()  # the garbage of recording the matches is not verification's to collect
    report = benchmark.pedantic(verify_bundle, args=(recorded.bundle,), kwargs={"trust": trust},
                                rounds=ROUNDS, iterations=1, warmup_rounds=2)
    assert report.ok, report.summary()
    assert report.events == recorded.events
    info = benchmark.extra_info
    info["events"] = report.events
    info["annotations"] = report.annotations
    if benchmark.stats is None:  # benchmarks run as smoke tests (--benchmark-disable)
        return
    _, anchor = anchor_moves_per_second()
    rates = sorted(report.events / t for t in benchmark.stats.stats.data)
    info["events_per_second"] = {"min": int(rates[0]), "median": int(statistics.median(rates)), "max": int(rates[-1])}
    info["anchor_moves_per_second"] = {"min": int(min(anchor)), "median": int(statistics.median(anchor)),
                                       "max": int(max(anchor))}
    info["ratio_median"] = round(statistics.median(rates) / statistics.median(anchor), 3)
    _, games = anchor_moves_per_second(3, replay_pgn_as_games)
    info["anchor_as_games_moves_per_second"] = int(statistics.median(games))
    info["ratio_to_anchor_as_games"] = round(statistics.median(rates) / statistics.median(games), 3)
    thorough = _timed(lambda: verify_bundle(recorded.bundle, trust=trust, thorough=True), 3)
    info["thorough_events_per_second"] = int(report.events / statistics.median(thorough))
    with _fold_clock() as spent:
        start = time.perf_counter()
        verify_bundle(recorded.bundle, trust=trust)
        total = time.perf_counter() - start
    info["fold_share"] = round(spent[0] / total, 3)
    info["events_per_second_outside_the_fold"] = int(report.events / (total - spent[0]))
    info["ratio_outside_the_fold"] = round(info["events_per_second_outside_the_fold"] / statistics.median(anchor), 3)

"""`show --at N` on the store reads the position without folding the head (the position is checked
against the stored head version, the header's facts come from the position's fold): what it prints
must be exactly what it printed when it read the head, which is what `show` of the exported bundle
(a source that holds the head) still prints. Positions on and around a snapshot (every 100
events), the first and the last; a position past the end is the same usage error as before.
"""

from __future__ import annotations

import pytest

from .conftest import Run


@pytest.mark.parametrize(("game", "extra"), [("carcassonne", ("--variant", "base")),
                                             ("test-dicevote", ("--players", "4", "-o", "rounds=30"))])
def test_show_at_a_position_prints_what_the_bundle_does(run: Run, game: str, extra: tuple[str, ...]) -> None:
    played = run.json("simulate", game, "-n", "1", "--seed", "11", *extra)["results"][0]
    match_id, last = str(played["match_id"]), int(played["events"])
    assert last > 101
    run("export", match_id, "-o", "m.jsonl")
    for at in sorted({1, 2, 99, 100, 101, 150, last - 1, last}):
        stored = run("show", match_id, "--at", str(at)).stdout
        assert stored == run("show", "m.jsonl", "--at", str(at)).stdout, at
        assert f"at #{at} of {last}" in stored
        for viewer in ("seat:1", "arbiter"):
            as_seat = run("show", match_id, "--at", str(at), "--as", viewer).stdout
            assert as_seat == run("show", "m.jsonl", "--at", str(at), "--as", viewer).stdout, (at, viewer)
    assert run("show", match_id, "--json").stdout == run("show", match_id, "--json", "--at", str(last)).stdout
    refused = run("show", match_id, "--at", str(last + 1), code=2)
    assert f"the match has {last} events, not {last + 1}" in refused.stderr

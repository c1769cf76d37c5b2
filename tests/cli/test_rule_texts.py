"""`ringside rule-text` and rule titles beside rule IDs in the CLI, run as a subprocess (issue 12):
the score table, refusals at the play prompt (local and remote) and the play prompt's own rule."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from .conftest import Run
from .test_remote import server  # noqa: F401  (the module's `ringside serve` fixture)

Sh = Callable[..., subprocess.CompletedProcess[str]]


def test_rule_text_prints_a_rules_title_and_text(sh: Sh) -> None:
    shown = sh("rule-text", "CB-3.2").stdout
    assert shown.splitlines()[0].startswith("CB-3.2  Matching edges  (carcassonne)")
    assert "roads join roads" in shown
    assert "Arbiter's penalty" in sh("rule-text", "ruling").stdout  # the kernel's, in any case


def test_rule_text_json_and_a_games_whole_list(sh: Sh) -> None:
    one = json.loads(sh("rule-text", "ct-9.23", "--json").stdout)
    assert one == {"id": "CT-9.23", "title": "Trying more talent", "game": "circus-train", "text": one["text"]}
    listed = json.loads(sh("rule-text", "--game", "test-dicevote", "--json").stdout)
    assert [rule["id"] for rule in listed["rules"]] == ["TG-1.2", "TG-2.1", "POSITION", "RULING"]
    table = sh("rule-text", "--game", "carcassonne").stdout
    assert "CB-3.2" in table and "Matching edges" in table and "BT-8.3" in table


def test_an_unknown_rule_id_exits_2_with_close_ids(sh: Sh) -> None:
    for args, expected in ((["CB-3.9"], "did you mean CB-3.4, CB-3.2, CB-3.1?"),
                           (["CB-3.2", "--game", "circus-train"], "it is a rule of carcassonne"),
                           (["ZZ-1.1"], "rule IDs start with"),
                           ([], "give a rule ID")):
        failed = sh("rule-text", *args, code=2)
        assert failed.stderr.startswith("ringside: error: ") and len(failed.stderr.strip().splitlines()) == 1
        assert expected in failed.stderr and "Traceback" not in failed.stderr
    assert "--game carcassonne" in sh("rule-text", "CB-3.9", code=2).stderr
    assert "unknown game" in sh("rule-text", "CB-3.2", "--game", "chess", code=2).stderr


def test_rule_is_still_an_arbiters_ruling(sh: Sh) -> None:
    assert "arbiter's ruling" in sh("rule", "--help").stdout
    assert "rule-text" in sh("--help").stdout


def test_score_table_shows_each_rules_title_and_json_is_unchanged(run: Run, sh: Sh) -> None:
    match_id = run.new("test-dicevote")
    run("play", match_id, "--human", "0", "--no-board", input="play card=99\nroll\n")
    run("rule", match_id, "penalty", "--seat", "1", "--points", "2", "--note", "slow play")
    run("play", match_id, "--watch", "-q")
    table = sh("score", match_id).stdout
    assert "TG-2.1 The secret vote" in table
    assert "RULING Arbiter's penalty" in table
    lines = json.loads(sh("score", match_id, "--json").stdout)["lines"]
    assert {line["rule"] for line in lines} >= {"TG-2.1", "RULING"}  # IDs as they were: no titles mixed in
    assert all(set(line) == {"seat", "points", "category", "rule", "detail", "refs"} for line in lines)


def test_refusals_and_the_play_prompt_name_the_rules_title(sh: Sh) -> None:
    refused = sh("play", "test-dicevote", "-p", "ann", "-p", "bot", "--no-board", input="play card=99\nquit\n").stdout
    assert "illegal move (TG-1.2) Play, roll or pass: you have no 99 in your hand" in refused
    prompted = sh("play", "circus-train", "-p", "ann", "-p", "bot", "--no-board", "-q",
                  input="pick_talent talent=clown\nquit\n").stdout
    assert "rule CT-5.14 Starting talent (its text: ringside rule-text CT-5.14)" in prompted
    assert "illegal move (CT-5.14) Starting talent: " in prompted


def test_remote_refusals_carry_the_servers_rule_title(run: Run, server: str, tmp_path: Path) -> None:  # noqa: F811
    created = run.json("--url", server, "new", "test-dicevote", "-p", "ann", "-p", "bob")
    seat0 = ["--url", server, "--token", created["tokens"]["seats"][0]["token"]]
    out = run(*seat0, "play", created["match_id"], "--human", "0", "--no-board", "--max-moves", "1",
              input="play card=99\nroll\n").stdout
    assert "illegal move (TG-1.2) Play, roll or pass: you have no 99 in your hand" in out

"""Every command through click's CliRunner, on the local store and on bundle files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay_cli.main import cli

from .conftest import Run

COMMANDS = ["games", "matches", "new", "play", "simulate", "show", "log", "step", "diff", "score", "annotate",
            "undo", "rule", "fork", "reveal", "export", "import", "verify", "serve", "prune-answers"]


def test_every_command_exists_with_help_and_examples(run: Run) -> None:
    import click

    # list_commands, not the `commands` dict: play and simulate are added when first used (lazily)
    assert set(COMMANDS) <= set(cli.list_commands(click.Context(cli)))
    for name in COMMANDS:
        out = run(name, "--help").stdout
        assert "Example" in out, name
    for sub in ("request", "answer", "redo", "list"):
        assert "Example" in run("undo", sub, "--help").stdout


def test_games_lists_catalogue(run: Run) -> None:
    games = {game["name"]: game for game in run.json("games")}
    assert "carcassonne" in games and "test-dicevote" in games
    assert games["test-dicevote"]["variants"]["standard"]["min_seats"] == 2
    assert "rounds" in games["test-dicevote"]["options"]
    assert "random" in games["carcassonne"]["bots"]
    out = run("games").stdout
    assert "carcassonne" in out and "big-top" in out


def test_new_and_matches(run: Run) -> None:
    match_id = run.new("test-dicevote", "ann", "bob", "cy", extra=("-o", "rounds=1", "--undo-policy", "consent"))
    listed = run.json("matches", "--game", "test-dicevote")
    assert [m["match_id"] for m in listed] == [match_id]
    assert "ann" in run("matches").stdout
    summary = run.json("show", match_id[:8])
    assert summary["match_id"] == match_id
    # usage errors: one line on stderr, exit 2, no traceback
    for args in (["new", "no-such-game"], ["new", "test-dicevote", "-p", "solo"],
                 ["new", "test-dicevote", "-o", "rounds=99"], ["new", "test-dicevote", "-o", "rounds"],
                 ["show", "ffffffff"], ["show", "not an id"], ["show"], ["no-such-command"],
                 ["show", match_id, "--at", "x"], ["--no-such-option"], ["undo", "answer"]):
        result = run(*args, code=2)
        assert result.stderr.startswith("ringside: error: ")
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output


def test_play_prompts_humans_explains_illegal_moves_and_uses_bots(run: Run) -> None:
    match_id = run.new("test-dicevote")
    result = run("play", match_id, "--human", "0", input="play card=99\nvote choice=high\nhelp\nmoves\nroll\n")
    out = result.stdout
    assert "legal moves" in out and "1. " in out
    assert "illegal move (TG-1.2)" in out
    assert "illegal move (TG-2.1)" in out
    assert "Commands:" in out
    assert "resume with" in out
    events = run.json("log", match_id, "--as", "arbiter")
    moves = [e for e in events if e["kind"] == "move"]
    assert moves[0]["payload"]["move"] == {"type": "roll"} and moves[0]["actor"] == {"kind": "seat", "seat": 0}
    assert moves[1]["actor"]["kind"] == "bot"
    # a new match with a bot seat, played to the end by bots only
    out = run("play", "test-dicevote", "-p", "bot", "-p", "bot:random", "-q").stdout
    assert "match over (completed)" in out


def test_play_stops_after_max_moves_and_refuses_bundles(run: Run, played: str) -> None:
    match_id = run.new("test-dicevote")
    assert "stopped after 2 moves" in run("play", match_id, "--watch", "--max-moves", "2").stdout
    run("export", played, "-o", "p.jsonl")
    assert "import it first" in run("play", "p.jsonl", code=2).stderr


def test_play_recorded_randomness_asks_for_outcomes(run: Run) -> None:
    out = run("play", "test-dicevote", "-p", "ann", "-p", "bot", "--randomness", "recorded", "--no-board",
              input="9\n1\n3\n4\n2\n").stdout
    assert "Possible outcomes" in out
    assert "cannot come out" in out or "pick" in out or "outcome" in out


def test_simulate_to_store_and_to_bundles(run: Run, tmp_path: Path) -> None:
    report = run.json("simulate", "test-dicevote", "-n", "3", "--seed", "5")
    assert report["matches"] == 3 and report["stored"]
    assert len(run.json("matches", "--status", "ended")) == 3
    again = run.json("simulate", "test-dicevote", "-n", "3", "--seed", "5", "--out", "sims")
    assert len(list((tmp_path / "sims").glob("*.jsonl"))) == 3
    assert [r["totals"] for r in again["results"]] == [r["totals"] for r in report["results"]]
    assert "3 test-dicevote" in run("simulate", "test-dicevote", "-n", "3", "--out", "more").stdout
    run("simulate", "test-dicevote", "--players", "9", code=2)
    run("simulate", "test-dicevote", "--bot", "genius", code=2)


def test_show_as_viewers_hides_hidden_information(run: Run, played: str) -> None:
    at = 5  # the deal is done: each seat holds two cards only it may see
    spectator = run.json("show", played, "--at", str(at))
    seat0 = run.json("show", played, "--at", str(at), "--as", "seat:0")
    arbiter = run.json("show", played, "--at", str(at), "--as", "arbiter")
    assert spectator["state"]["hands"] == [{"count": 2}, {"count": 2}]
    assert isinstance(seat0["state"]["hands"][0], list) and seat0["state"]["hands"][1] == {"count": 2}
    assert all(isinstance(hand, list) for hand in arbiter["state"]["hands"])
    out = run("show", played, "--at", str(at)).stdout
    assert "Players" in out and "Board" in out and "ann" in out
    assert run("show", played, "--as", "nobody", code=2).stderr
    assert "not 9999" in run("show", played, "--at", "9999", code=2).stderr


def test_log_marks_actors_annotations_and_retractions(run: Run) -> None:
    match_id = run.new("test-dicevote", extra=("--undo-policy", "own-turn"))
    run("play", match_id, "--human", "0", "--human", "1", "--no-board", "-q", input="pass\n")
    assert "moves retracted" in run("undo", "request", match_id, "--seat", "0").stdout
    run("annotate", match_id, "6", "hasty pass", "-g", "?", "-t", "opening")
    events = run.json("log", match_id)
    retracted = [e for e in events if e.get("retracted_by")]
    assert retracted and retracted[0]["seq"] == 6
    assert events[5]["annotations"][0]["text"] == "hasty pass"
    out = run("log", match_id).stdout
    assert "retracted by #" in out and "hasty pass" in out and "system" in out and "seat 0" in out
    assert len(run.json("log", match_id, "--from", "3", "--limit", "2")) == 2


def test_step_batch_and_interactive(run: Run, played: str) -> None:
    steps = run.json("step", played, "--batch", "--from", "2", "--to", "6", "--as", "arbiter")
    assert [s["seq"] for s in steps] == [2, 3, 4, 5, 6]
    assert any(c["path"].startswith("/state/hands") for c in steps[0]["changes"])
    out = run("step", played, "--batch", "--from", "5", "--to", "7").stdout
    assert "#5/" in out and "#7/" in out
    out = run("step", played, "--interactive", "--from", "3", input="nnpg5\nsq").stdout
    assert "#3/" in out and "#4/" in out and "#5/" in out and "Players" in out
    run("step", played, "--batch", "--from", "999", code=2)


def test_diff_and_score(run: Run, played: str) -> None:
    changes = run.json("diff", played, "1", "10", "--as", "arbiter")["changes"]
    assert any(c["path"] == "/state/phase" for c in changes)
    assert "changes from #1 to #10" in run("diff", played, "1", "10").stdout
    sheet = run.json("score", played)
    assert sheet["end"]["reason"] == "completed"
    assert all(line["rule"].startswith("TG-") for line in sheet["lines"])
    early = run.json("score", played, "--at", "5")
    assert early["totals"] == [0, 0]
    out = run("score", played).stdout
    assert "rule" in out and "TG-" in out


def test_annotate_list_edit_and_visibility(run: Run, played: str) -> None:
    note = run.json("annotate", played, "3", "face-down deal", "--visibility", "arbiter")
    public = run.json("annotate", played, "6", "nice", "-g", "!", "--author", "seat:1")
    assert note["visibility"] == "arbiter" and public["author"] == {"kind": "seat", "seat": 1}
    as_spectator = run.json("annotate", played, "--list", "--as", "spectator")
    assert [item["text"] for item in as_spectator] == ["nice"]
    edited = run.json("annotate", played, "--edit", public["id"], "very nice", "--author", "seat:1")
    assert edited["text"] == "very nice"
    assert "only the author" in run("annotate", played, "--edit", public["id"], "mine", code=1).stderr
    assert run("annotate", played, "1", "x", "-g", "!!!", code=2).stderr
    assert run("annotate", played, code=2).stderr


def test_undo_request_consent_and_arbiter(run: Run) -> None:
    match_id = run.new("test-dicevote", extra=("--undo-policy", "consent"))
    run("play", match_id, "--human", "0", "--human", "1", "--no-board", "-q", input="pass\npass\n")
    # seat 0's pass is past a barrier (seat 1 acted): it needs seat 1's consent
    out = run("undo", "request", match_id, "--seat", "0").stdout
    assert "waiting" in out
    pending = run.json("undo", "list", match_id)
    assert pending and pending[0]["consent_from"] == [1]
    request_id = pending[0]["id"]
    assert "not asked" in run("undo", "answer", match_id, request_id, "--accept", "--seat", "0", code=1).stderr
    result = run.json("undo", "answer", match_id, request_id, "--accept", "--seat", "1")
    assert len(result["appended"]) > 1
    assert run.json("undo", "list", match_id) == []
    assert "no pending" in run("undo", "list", match_id).stdout
    run("undo", "redo", match_id, "--seat", "0")
    run("undo", "answer", match_id, "nope", "--accept", code=2)
    # an arbiter-only match: the arbiter decides
    other = run.new("test-dicevote", extra=("--undo-policy", "arbiter-only"))
    run("play", other, "--human", "0", "--human", "1", "--no-board", "-q", input="pass\n")
    run("undo", "request", other, "--seat", "0", "--reason", "misclick")
    request_id = run.json("undo", "list", other)[0]["id"]
    out = run("undo", "answer", other, request_id, "--decline", "--arbiter", "Chief").stdout
    assert "answer recorded" in out


def test_rulings(run: Run) -> None:
    match_id = run.new("test-dicevote")
    run("play", match_id, "--watch", "--max-moves", "3", "-q")
    assert "penalty ruling" in run("rule", match_id, "penalty", "--seat", "1", "--points", "2", "--note", "slow").stdout
    assert run.json("score", match_id)["lines"][-1]["rule"] == "RULING"
    assert "needs --seat" in run("rule", match_id, "forfeit", code=2).stderr
    run("rule", match_id, "correction", "--from", "6")
    run("rule", match_id, "adjudicated-result", "--ranks", "2,1", "--arbiter", "Chief")
    summary = run.json("show", match_id)
    assert summary["status"] == "ended" and summary["end"]["result"]["ranks"] == [2, 1]
    assert "over" in run("rule", match_id, "forfeit", "--seat", "0", code=1).stderr
    other = run.new("test-dicevote")
    card = run.json("show", other, "--as", "seat:0")["state"]["hands"][0][0]
    result = run.json("rule", other, "illegal-move-stands", "--seat", "0", "--move", f"play card={card}")
    assert result["version"] > 5
    run("rule", other, "forfeit", "--seat", "1")


def test_fork_and_reveal(run: Run, played: str) -> None:
    fork = run.json("fork", played, "--at", "7")
    summary = run.json("show", fork["match_id"])
    assert summary["status"] == "active"
    listed = {m["match_id"]: m for m in run.json("matches")}
    assert listed[fork["match_id"]]["official"] is False
    secret = run.json("reveal", fork["match_id"])
    assert len(secret["seed"]) == 64 and secret["revealed_in_record"] is False
    assert run.json("reveal", played)["revealed_in_record"] is True
    run("rule", fork["match_id"], "forfeit", "--seat", "0")
    assert run.json("reveal", fork["match_id"]) == {**secret, "revealed_in_record": True}


def test_export_import_verify(run: Run, played: str, tmp_path: Path) -> None:
    run("annotate", played, "6", "a note that travels")
    run("export", played)
    path = tmp_path / f"{played}.ringside.jsonl"
    assert path.exists()
    text = run("export", played, "-o", "-").stdout
    assert text.splitlines()[1:-1] == path.read_text().splitlines()[1:-1]  # only the export time differs
    report = run.json("verify", str(path))
    assert report["ok"] and report["annotations"] == 2
    assert "VERIFIED" in run("verify", str(path)).stdout
    assert run.json("verify", played)["ok"]
    # the bundle works as a read-only source
    assert run.json("show", str(path), "--at", "6")["seq"] == 6
    assert run.json("log", str(path))[5]["annotations"][0]["text"] == "a note that travels"
    assert run.json("score", str(path))["end"]["reason"] == "completed"
    assert "read-only" in run("annotate", str(path), "2", "x", code=2).stderr
    # import into another store: same ID, verifies there
    imported = run.json("--store", str(tmp_path / "other"), "import", str(path))
    assert imported["match_id"] == played
    untrusted = run.json("--store", str(tmp_path / "other"), "verify", played[:8], code=1)
    assert untrusted["intact"] and untrusted["divergence"]["check"] == "trust"
    assert "NOT TRUSTED" in run("--store", str(tmp_path / "other"), "verify", played[:8], code=1).stdout
    origin = untrusted["signers"][0]["public_key"]
    assert run.json("--store", str(tmp_path / "other"), "verify", played[:8], "--trust", origin)["ok"]
    assert "already" in run("import", str(path), code=2).stderr
    assert run("import", "missing.jsonl", code=2).stderr


def test_verify_divergence_directory_and_usage(run: Run, played: str, tmp_path: Path) -> None:
    run("export", played, "-o", "bundles/good.jsonl") if (tmp_path / "bundles").mkdir() is None else None
    lines = (tmp_path / "bundles" / "good.jsonl").read_text().splitlines(keepends=True)
    event = json.loads(lines[7])
    assert event["seq"] == 7
    event["payload"]["outcome"] = 1 if event["payload"].get("outcome") != 1 else 2
    lines[7] = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    (tmp_path / "bundles" / "bad.jsonl").write_text("".join(lines))
    bad = run("verify", "bundles/bad.jsonl", code=1)
    assert "first divergence" in bad.stdout and "event 7" in bad.stdout
    report = run.json("verify", "bundles/bad.jsonl", code=1)
    assert report["divergence"]["seq"] == 7 and report["divergence"]["check"] == "chain"
    assert report["divergence"]["expected"] != report["divergence"]["actual"]
    folder = run.json("verify", "bundles", code=1)
    assert folder["total"] == 2 and folder["failed"] == 1
    out = run("verify", "bundles", code=1).stdout
    assert "1 hold, 1 diverge" in out
    (tmp_path / "empty").mkdir()
    assert run("verify", "empty", code=2).stderr
    assert run("verify", "missing/x.jsonl", code=2).stderr
    assert run("verify", "deadbeef", code=2).stderr
    assert run("verify", code=2).stderr


def test_illegal_move_in_record_names_rule(run: Run, played: str, tmp_path: Path) -> None:
    """A record holding an illegal move (re-signed by a forger's key) fails legality with the rule ID."""
    from domain.kernel.bundle import read_bundle

    run("export", played, "-o", "b.jsonl")
    bundle = read_bundle((tmp_path / "b.jsonl").read_text())
    assert bundle.entries
    report = run.json("verify", "b.jsonl")
    assert report["checked"]["legality"] >= 1


@pytest.mark.parametrize(("env", "flag", "coloured"), [
    ({"FORCE_COLOR": "1"}, None, True),  # sanity: forced colour shows escape codes
    ({"FORCE_COLOR": "1"}, "--no-color", False),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, None, False),
    ({}, None, False),  # piped (CliRunner): no colour
])
def test_colour(run: Run, played: str, env: dict[str, str], flag: str | None, coloured: bool,
                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    args = ["log", played] + ([flag] if flag else [])
    assert ("\x1b[" in run(*args).stdout) is coloured
    assert "\x1b[" not in run("log", played, "--json").stdout


def test_serve_calls_the_api(run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[dict[str, object]] = []
    api_server = pytest.importorskip("api.server", reason="the HTTP API package is not importable")
    monkeypatch.setattr(api_server, "run", lambda **kwargs: calls.append(kwargs))
    run("serve", "--port", "8123", "--store", str(tmp_path / "s"))
    assert calls and calls[0]["port"] == 8123 and calls[0]["data_dir"] == tmp_path / "s"
    run("serve", "--port", "0", code=2)


def test_user_text_is_never_read_as_markup(run: Run) -> None:
    match_id = run.new("test-dicevote", "[bold]ann[/bold]", "[red]")
    run("annotate", match_id, "2", "[/bold] not markup")
    assert "[bold]ann[/bold]" in run("show", match_id).stdout
    assert "[/bold] not markup" in run("annotate", match_id, "--list").stdout
    assert "[red]" in run("matches").stdout


def test_verify_under_another_engine_version(run: Run, played: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from domain.kernel.registry import get_game

    run("export", played, "-o", "old.jsonl")
    monkeypatch.setattr(type(get_game("test-dicevote")), "engine_version", "9.9.9")
    report = run.json("verify", "old.jsonl", code=1)
    assert report["divergence"]["check"] == "header" and report["divergence"]["seq"] == 1
    assert report["divergence"]["expected"] == "1.0.0" and report["divergence"]["actual"] == "9.9.9"
    allowed = run.json("verify", "old.jsonl", "--allow-engine-mismatch")
    assert allowed["ok"] and any("9.9.9" in note for note in allowed["notes"])

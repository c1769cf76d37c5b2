"""Reading a match as a commentator: the log, step and diff say what happened in words (every
event kind, the score lines each event produced with their rule IDs, hidden entries as hidden),
annotation authors by name, and annotation IDs numbered a1, a2, ... (issue 12)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable

from .conftest import Run

Sh = Callable[..., subprocess.CompletedProcess[str]]

LOG_KEYS = {"actor", "annotations", "at", "hash", "key", "kind", "payload", "prev", "seq", "sig", "stream"}


def _rows(out: str) -> dict[int, str]:
    """The log table's rows by event number, each row's wrapped lines joined."""
    rows: dict[int, str] = {}
    current = None
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) < 6:
            continue
        if cells[1].isdigit():
            current = int(cells[1])
            rows[current] = ""
        if current is not None:
            rows[current] += " " + " ".join(cell for cell in cells[2:] if cell)
    return {seq: " ".join(text.split()) for seq, text in rows.items()}


def test_the_log_tells_every_kind_of_event_in_words(run: Run, sh: Sh) -> None:
    match_id = run.new("test-dicevote", extra=("--undo-policy", "consent", "--seat-entropy"))
    run("entropy", match_id, "--seat", "0", "cat on the keyboard")
    run("entropy", match_id, "--seat", "1", "dice 5 2 6", "--arbiter")
    run("play", match_id, "--human", "0", "--human", "1", "--no-board", "-q", input="roll\npass\n")
    run("undo", "request", match_id, "--seat", "1", "--reason", "misclick")  # within the barrier: at once
    run("undo", "redo", match_id, "--seat", "1")
    run("undo", "request", match_id, "--seat", "0")  # past seat 1's move: seat 1 is asked
    request = run.json("undo", "list", match_id)[0]["id"]
    run("undo", "answer", match_id, request, "--decline", "--seat", "1")
    run("rule", match_id, "penalty", "--seat", "1", "--points", "2", "--note", "slow play", "--arbiter", "Chief")
    run("rotate-key")
    run("play", match_id, "--watch", "-q")
    out = sh("log", match_id, "--as", "seat:0").stdout
    rows = _rows(out)
    text = " ".join(rows.values())
    assert "created system the match begins: test-dicevote (standard) for seat 0 (ann), seat 1 (bob)" in rows[1]
    assert "every seat adds entropy before the first draw" in rows[1] and "undo policy consent" in rows[1]
    assert "seat 0 (ann) adds entropy cat on the keyboard" in rows[2]
    assert "arbiter tester for seat 1 seat 1 (bob) adds entropy dice 5 2 6 (entered by an arbiter)" in rows[3]
    # the deal: seat 0 sees its own cards, and of seat 1's only that they were drawn
    dealt = [rows[seq] for seq in (4, 5, 6, 7)]
    assert sum("draw: drawn face down (hidden)" in row for row in dealt) == 2
    assert sum(re.search(r"draw: \d", row) is not None for row in dealt) == 2
    assert "seat 0 (ann) plays roll" in text
    assert re.search(r"seat 0 \(ann\) scores [2-6] for points: rolled a [2-6] \(TG-1\.2\)", text) \
        or "rolled a 1" in text
    assert "seat 1 (bob) asks to take back the moves from #10 on (undo request u11): “misclick”" in text
    assert "seat 1 (bob)'s moves from #10 on are taken back at once (within the last barrier)" in text
    assert "the retraction at #12 is redone: those moves stand again" in text
    assert "seat 0 (ann) asks to take back the moves from #8 on (undo request u14; it needs the consent of " \
           "seat 1 (bob))" in text
    assert "seat 1 (bob) declines undo request u14" in text
    assert "arbiter Chief penalises seat 1 (bob) 2 points: “slow play” seat 1 (bob) loses 2 for penalty: " \
           "slow play (RULING)" in text
    assert "the record is handed over to signing key" in text
    assert "the match is over (completed)" in text and "final totals seat 0 (ann)" in text
    assert "the chance seed is revealed" in text
    assert '{"' not in out  # nothing is shown as raw JSON
    # --json stays what it was: the record's entries, nothing added
    entries = run.json("log", match_id, "--as", "seat:0")
    assert all(set(entry) - {"redacted", "retracted_by"} == LOG_KEYS for entry in entries)


def test_rulings_are_told_with_who_ruled_and_what(run: Run) -> None:
    match_id = run.new("test-dicevote")
    card = run.json("show", match_id, "--as", "seat:0")["state"]["hands"][0][0]
    run("rule", match_id, "illegal-move-stands", "--seat", "0", "--move", f"play card={card}", "--arbiter", "Chief")
    run("play", match_id, "--watch", "--max-moves", "2", "-q")
    effective = [e["seq"] for e in run.json("log", match_id) if e["kind"] in ("move", "chance")]
    run("rule", match_id, "correction", "--from", str(effective[-1]), "--note", "misplayed")
    run("rule", match_id, "forfeit", "--seat", "1", "--arbiter", "Chief")
    text = " ".join(_rows(run("log", match_id).stdout).values())
    assert f"arbiter Chief lets seat 0 (ann)'s move play card={card} stand without the rules' check" in text
    assert f"rules a correction: the moves from #{effective[-1]} on are taken back: “misplayed”" in text
    assert "the moves from" in text and "are taken back by the arbiter" in text
    assert "arbiter Chief rules that seat 1 (bob) forfeits" in text
    assert "the match is over (forfeit)" in text
    other = run.new("test-dicevote")
    run("rule", other, "adjudicated-result", "--ranks", "2,1", "--arbiter", "Chief")
    text = " ".join(_rows(run("log", other).stdout).values())
    assert "arbiter Chief adjudicates the result: seat 0 (ann) rank 2, seat 1 (bob) rank 1" in text
    assert "seat 1 (bob) wins" in text


def test_annotations_are_numbered_from_a1_and_authors_named(run: Run, played: str) -> None:
    first = run("annotate", played, "5", "bold roll", "-g", "!!", "--author", "arbiter:root").stdout
    second = run("annotate", played, "6", "my note", "--author", "seat:1").stdout
    assert "annotation a1 on event #5" in first and "annotation a2 on event #6" in second
    run("annotate", played, "--edit", "a1", "a bold roll", "--author", "arbiter:root")
    listed = run("annotate", played, "--list").stdout
    assert "#5 [a1] !! a bold roll (public; arbiter root)" in listed
    assert "#6 [a2]  my note (public; seat 1 (bob))" in listed
    assert '{"kind"' not in listed
    rows = _rows(run("log", played).stdout)
    assert "!! a bold roll — arbiter root" in rows[5] and "my note — seat 1 (bob)" in rows[6]
    stepped = run("step", played, "--batch", "--from", "6", "--to", "6").stdout
    assert "✎ my note — seat 1 (bob)" in stepped


def test_step_and_diff_say_each_events_scoring_and_keep_json_paths_where_a_game_has_no_words(
        run: Run, played: str) -> None:
    sheet = run.json("score", played)["lines"]
    steps = run.json("step", played, "--batch")
    scored_at = next(step["seq"] for step in steps if step["seq"] > 1 and
                     run.json("score", played, "--at", str(step["seq"]))["lines"] != run.json(
                         "score", played, "--at", str(step["seq"] - 1))["lines"])
    out = run("step", played, "--batch", "--from", str(scored_at), "--to", str(scored_at)).stdout
    line = run.json("score", played, "--at", str(scored_at))["lines"][-1]
    assert f"scores {line['points']} for points: {line['detail']} ({line['rule']})" in out, out
    assert "/state/" in out  # the test game has no words for its state: the JSON paths stay
    assert sheet and "changes" in steps[1]  # --json unchanged
    diff = run("diff", played, "1", str(scored_at)).stdout
    assert "changes from #1" in diff and f"scored from #1 to #{scored_at}:" in diff and "(TG-" in diff


def test_a_secret_choice_is_told_as_hidden_until_every_seat_has_chosen(run: Run) -> None:
    match_id = run.new("test-dicevote")
    run("play", match_id, "--human", "0", "--human", "1", "--no-board", "-q", input="pass\npass\nvote choice=high\n",
        code=None)
    vote = run.json("log", match_id)[-1]
    assert vote["kind"] == "move" and run.json("show", match_id)["decision"]["secret"]
    hidden = _rows(run("log", match_id, "--from", str(vote["seq"]), "--as", "seat:1").stdout)[vote["seq"]]
    assert "seat 0 (ann) makes a secret choice (hidden until every seat has chosen)" in hidden
    assert "high" not in hidden
    own = _rows(run("log", match_id, "--from", str(vote["seq"]), "--as", "seat:0").stdout)[vote["seq"]]
    assert "seat 0 (ann) plays vote choice=high" in own
    stepped = run("step", match_id, "--batch", "--from", str(vote["seq"]), "--as", "seat:1").stdout
    assert "makes a secret choice" in stepped and "high" not in stepped and "recorded as" not in stepped


def test_actors_are_named_as_people_say_them() -> None:
    from replay_cli.render.common import actor_text

    summary = {"seats": [{"seat": 0, "player": "Ann"}]}
    assert actor_text({"kind": "annotator", "name": "archive"}) == "annotator archive"
    assert actor_text({"kind": "arbiter", "name": "root"}, summary) == "arbiter root"
    assert actor_text({"kind": "seat", "seat": 0}, summary) == "seat 0 (Ann)"
    assert actor_text({"kind": "seat", "seat": 0}) == "seat 0"


def test_a_private_choice_is_told_as_shown_later_with_its_public_part() -> None:
    from replay_cli.render.narrate import Narrator

    narrator = Narrator({"game": "test-sealedbonus", "seats": [{"seat": 0, "player": "Ann"}]})
    whole = {"seq": 5, "kind": "move", "actor": {"kind": "seat", "seat": 0},
             "payload": {"seat": 0, "hidden": True, "private": True}}
    part = {"seq": 6, "kind": "move", "actor": {"kind": "seat", "seat": 0},
            "payload": {"seat": 0, "hidden": True, "private": True, "move": {"type": "keep"},
                        "hidden_fields": ["card"]}}
    assert narrator.sentence(whole) == "seat 0 (Ann) makes a private choice (shown later, as the game says)"
    assert narrator.sentence(part) == "seat 0 (Ann) plays keep, keeping card private (shown later)"

"""The record said in words: one sentence per event, as the viewer may see it, and the score lines
each event produced.

The log's JSON is exact but nobody reads a match from `place rotation=1 x=1 y=0`; a commentator
reads "seat 0 (ann) places tile D at (1, 0), turned 90°". Sentences are made only from what the
viewer was given: the redacted log entries (a hidden draw stays "drawn face down (hidden)") and the
score sheet, which is public at every position (`ringside score --at N`). Nothing else is read.

The kernel words every event kind; a game can say more about its own moves and chance draws
through a hook (`narrate(narrator, entry) -> str | None`, registered in `render.NARRATIONS`),
returning None to leave an entry to the kernel's wording. A sentence may need an earlier event
(Carcassonne's placement names the tile drawn just before; a Circus Train performance names the
city the train went to), so the narrator reads the log in order and keeps, for the hooks, what the
effective record says so far: facts remembered at an event are forgotten when a retraction takes
that event back, and come back when the retraction is redone.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from rich.text import Text

from ..output import compact
from .common import actor_text, move_text, seat_label


def words(name: Any) -> str:
    """An identifier as words: `die:hire` -> `die (hire)`, `first_player` -> `first player`."""
    text = str(name)
    head, sep, tail = text.partition(":")
    text = head.replace("_", " ").replace("-", " ")
    return f"{text} ({tail.replace('_', ' ')})" if sep else text


def quoted(text: Any, limit: int = 60) -> str:
    return f"“{compact(str(text), limit)}”"


class Narrator:
    """Turns the log entries of one match, read in order, into sentences."""

    def __init__(self, summary: dict[str, Any]) -> None:
        from . import NARRATIONS

        self.summary = summary
        self.hook = NARRATIONS.get(str(summary.get("game", "")))
        self._facts: list[tuple[int, str, Any]] = []
        self._taken_back: dict[int, list[tuple[int, str, Any]]] = {}
        self.seq = 0

    # ---- what the hooks may use ------------------------------------------------------------
    def seat(self, seat: Any) -> str:
        """`seat 0 (ann)`: the seat number the record uses and the player's name."""
        return seat_label(self.summary, seat)

    def actor(self, actor: Any) -> str:
        return actor_text(actor if isinstance(actor, dict) else {}, self.summary)

    def remember(self, key: str, value: Any) -> None:
        """Note a fact at the current event (taken back with it by a retraction)."""
        self._facts.append((self.seq, key, value))

    def recall(self, key: str, default: Any = None) -> Any:
        """The latest fact noted under `key` that the record still holds."""
        for _, name, value in reversed(self._facts):
            if name == key:
                return value
        return default

    # ---- reading the log -------------------------------------------------------------------
    def sentence(self, entry: dict[str, Any]) -> str:
        """What `entry` records, in words. Call it for every entry in order (context builds up)."""
        self.seq = int(entry.get("seq", self.seq + 1))
        kind = entry.get("kind")
        payload = entry.get("payload") or {}
        if kind == "retracted":
            start = payload.get("from_seq")
            if isinstance(start, int):
                self._taken_back[self.seq] = [fact for fact in self._facts if fact[0] >= start]
                self._facts = [fact for fact in self._facts if fact[0] < start]
        elif kind == "redone":
            retraction = payload.get("retraction")
            self._facts.extend(self._taken_back.pop(retraction, []) if isinstance(retraction, int) else [])
            self._facts.sort(key=lambda fact: fact[0])
        if self.hook is not None:
            try:
                said = self.hook(self, entry)
            except Exception:  # a hook that cannot read an entry leaves it to the kernel's words
                said = None
            if said:
                return said
        return self._kernel_sentence(entry)

    def _kernel_sentence(self, entry: dict[str, Any]) -> str:
        kind = entry.get("kind")
        p = entry.get("payload") or {}
        actor = entry.get("actor") or {}
        if kind == "created":
            seats = ", ".join(self.seat(item.get("seat")) for item in p.get("seats", []))
            text = f"the match begins: {p.get('game')} ({p.get('variant')}) for {seats}"
            options = {k: v for k, v in (p.get("options") or {}).items() if v is not None}  # None: the default
            if options:
                text += "; options " + " ".join(f"{k}={compact(v, 20)}" for k, v in sorted(options.items()))
            text += f"; {p.get('randomness')} randomness"
            if p.get("randomness") == "server" and p.get("seed_commitment"):
                text += f" (the seed is committed: sha256 {str(p['seed_commitment'])[:12]}…)"
            if p.get("entropy_from") == "seats":
                text += "; every seat adds entropy before the first draw"
            text += f"; undo policy {p.get('undo_policy')}"
            fork = p.get("fork_of")
            if isinstance(fork, dict):
                text += (f"; a fork of match {str(fork.get('match_id'))[:8]} after #{fork.get('seq')} (unofficial), "
                         f"starting where that match stood: its {len(p.get('prelude') or [])} steps replayed, "
                         "their scores kept")
            return text
        if kind == "move":
            who = self.seat(p.get("seat"))
            if p.get("hidden") and p.get("private"):
                if p.get("hidden_fields") and isinstance(p.get("move"), dict):
                    fields = ", ".join(str(name) for name in p["hidden_fields"])
                    return f"{who} plays {move_text(p.get('move'))}, keeping {fields} private (shown later)"
                return f"{who} makes a private choice (shown later, as the game says)"
            if p.get("hidden"):
                return f"{who} makes a secret choice (hidden until every seat has chosen)"
            return f"{who} plays {move_text(p.get('move'))}"
        if kind == "chance":
            what = words(p.get("kind", "chance"))
            if p.get("hidden"):
                return f"{what}: drawn face down (hidden)"
            by = f", entered by {self.actor(actor)}" if actor.get("kind") in ("recorder", "arbiter") else ""
            return f"{what}: {compact(p.get('outcome'), 60)}{by}"
        if kind == "undo-requested":
            needs = ("; an arbiter decides" if p.get("arbiter_needed") else
                     "; it needs the consent of " + ", ".join(self.seat(s) for s in p["consent_from"])
                     if p.get("consent_from") else "")
            reason = f": {quoted(p['reason'])}" if p.get("reason") else ""
            return (f"{self.seat(p.get('seat'))} asks to take back the moves from #{p.get('from_seq')} on "
                    f"(undo request {p.get('request')}{needs}){reason}")
        if kind == "undo-answered":
            who = self.actor(actor) if p.get("seat") is None else self.seat(p.get("seat"))
            return f"{who} {'accepts' if p.get('accept') else 'declines'} undo request {p.get('request')}"
        if kind == "retracted":
            how = {"own": "at once (within the last barrier)",
                   "consent": "with the consent of the seats asked",
                   "arbiter": "by the arbiter"}.get(str(p.get("authority")), f"({p.get('authority')})")
            whose = f"{self.seat(p['seat'])}'s" if p.get("seat") is not None else "the"
            return f"{whose} moves from #{p.get('from_seq')} on are taken back {how}"
        if kind == "redone":
            return f"the retraction at #{p.get('retraction')} is redone: those moves stand again"
        if kind == "seed-revealed":
            return (f"the chance seed is revealed ({str(p.get('seed', ''))[:16]}…): every draw can now be "
                    "derived again and checked")
        if kind == "ruling":
            return self._ruling(p, actor)
        if kind == "ended":
            return self._ended(p)
        if kind == "key-rotated":
            return (f"the record is handed over to signing key {p.get('key')}; the old key signs this hand-over")
        if kind == "entropy-added":
            by = " (entered by an arbiter)" if actor.get("kind") == "arbiter" else ""  # the actor column names them
            return f"{self.seat(p.get('seat'))} adds entropy {compact(p.get('entropy'), 60)}{by}"
        return f"{words(kind)}: {compact(p, 80)}"

    def _ruling(self, p: dict[str, Any], actor: dict[str, Any]) -> str:
        by = self.actor(actor)
        ruling = p.get("ruling")
        who = self.seat(p.get("seat"))
        if ruling == "correction":
            text = f"{by} rules a correction: the moves from #{p.get('from_seq')} on are taken back"
        elif ruling == "penalty":
            points = p.get("points")
            text = f"{by} penalises {who} {points} point{'' if points == 1 else 's'}"
        elif ruling == "forfeit":
            text = f"{by} rules that {who} forfeits"
        elif ruling == "adjudicated-result":
            ranks = p.get("ranks") or []
            text = f"{by} adjudicates the result: " + ", ".join(
                f"{self.seat(seat)} rank {rank}" for seat, rank in enumerate(ranks))
        elif ruling == "illegal-move-stands":
            text = (f"{by} lets a secret move of {who} stand without the rules' check (hidden)" if p.get("hidden")
                    else f"{by} lets {who}'s move {move_text(p.get('move'))} stand without the rules' check")
        else:
            text = f"{by} rules {words(ruling)}"
        return text + (f": {quoted(p['note'], 80)}" if p.get("note") else "")

    def _ended(self, p: dict[str, Any]) -> str:
        result = p.get("result") or {}
        winners = [self.seat(seat) for seat in result.get("winners") or []]
        totals = result.get("totals") or []
        won = (f"{winners[0]} wins" if len(winners) == 1 else
               f"{', '.join(winners[:-1])} and {winners[-1]} share the win" if winners else "nobody wins")
        text = f"the match is over ({words(p.get('reason'))}): {won}"
        if totals:
            text += "; final totals " + ", ".join(f"{self.seat(seat)} {total}" for seat, total in enumerate(totals))
        if result.get("tiebreaks"):
            text += f"; tie-breaks {compact(result['tiebreaks'], 60)}"
        return text

    # ---- scoring ----------------------------------------------------------------------------
    def scoring(self, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[Text]:
        """The score lines an event added (and any it took back), one sentence each."""
        added, removed = score_changes(before, after)
        out = [Text(self.score_line(line), style="green" if int(line.get("points", 0)) >= 0 else "red")
               for line in added]
        out += [Text("taken back: " + self.score_line(line), style="red") for line in removed]
        return out

    def score_line(self, line: dict[str, Any]) -> str:
        points = line.get("points", 0)
        verb = f"scores {points}" if not isinstance(points, int) or points >= 0 else f"loses {-points}"
        detail = str(line.get("detail") or "")
        what = words(line.get("category", ""))
        about = f": {detail}" if detail and detail != what else ""
        return f"{self.seat(line.get('seat'))} {verb} for {what}{about} ({line.get('rule')})"


def narrate_log(summary: dict[str, Any], entries: list[dict[str, Any]],
                sheets: dict[int, list[dict[str, Any]]]) -> dict[int, tuple[str, list[Text]]]:
    """Each entry's sentence and the score lines it produced, by sequence number. `entries` are
    read in order from the first one given (give the log from #1 for the whole context); `sheets`
    are the score sheet's lines after each position (`Source.score_lines`): an entry whose sheets,
    before and after, are not both there is told without its scoring."""
    narrator = Narrator(summary)
    said: dict[int, tuple[str, list[Text]]] = {}
    for entry in entries:
        seq = int(entry["seq"])
        sentence = narrator.sentence(entry)
        # a fork's created event replays its parent's steps: their score lines were scored there, not here
        before = sheets.get(seq - 1)
        after = sheets.get(seq)
        said[seq] = (sentence, narrator.scoring(before, after) if before is not None and after is not None else [])
    return said


def score_changes(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                                        list[dict[str, Any]]]:
    """Lines in `after` and not in `before`, and the other way round, counted as multisets: a
    ruling's penalty line sits at the end of the sheet, so a line the game adds later is not a
    change of the lines after it."""
    def key(line: dict[str, Any]) -> str:
        return json.dumps(line, sort_keys=True, default=str)

    old = Counter(key(line) for line in before)
    new = Counter(key(line) for line in after)
    added: list[dict[str, Any]] = []
    for line in after:
        if old[key(line)] > 0:
            old[key(line)] -= 1
        else:
            added.append(line)
    removed: list[dict[str, Any]] = []
    for line in before:
        if new[key(line)] > 0:
            new[key(line)] -= 1
        else:
            removed.append(line)
    return added, removed


__all__ = ["Narrator", "narrate_log", "quoted", "score_changes", "words"]

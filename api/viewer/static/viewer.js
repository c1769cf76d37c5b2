// Ringside's replay viewer: the script of a match page (/view/{match_id}).
//
// The page's HTML holds public facts only; this script fetches everything else from the API with
// the viewer's token in the Authorization header (never in a URL), so the page holds exactly what
// the API answers that token. Text from the server is always set with textContent; the one piece
// of markup taken from the server is the board, an SVG the server drew from the viewer's view.
// No framework, no build step: plain modern JavaScript, served by the API itself.
"use strict";

(() => {
  const body = document.body;
  const matchId = body.dataset.match;
  const TOKEN_KEY = `ringside-token:${matchId}`;
  const $ = (id) => document.getElementById(id);

  // ---- the token: a #token= fragment goes into this tab's sessionStorage and out of the URL at once
  (function takeTokenFromFragment() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (!fragment.has("token")) return;
    const given = fragment.get("token").trim();
    fragment.delete("token");
    if (given) sessionStorage.setItem(TOKEN_KEY, given);
    const rest = fragment.toString();
    history.replaceState(history.state, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  })();
  let token = sessionStorage.getItem(TOKEN_KEY) || "";

  // ---- what the page knows
  let version = Number(body.dataset.version); // events in the record (the head)
  let status = body.dataset.status;
  let seq = Number(body.dataset.at);
  let following = seq === version; // at the head: a live match carries the page along
  let entries = new Map(); // seq -> narrated log entry
  let wholeLogNeeded = true; // an entry the page holds may have changed: taken back, redone, revealed
  let turns = [1]; // the steps where a turn starts
  let rounds = []; // the steps where a round starts, as the game counts rounds (none: no round jumps)
  let notes = []; // annotations the viewer may see
  let players = [...document.querySelectorAll(".players li")].map((li) => li.textContent.trim());
  let stepRequest = null; // the AbortController of the step being fetched
  let stream = null; // the AbortController of the live stream
  const game = body.dataset.game;

  // ---- fetching: every request carries the token (when there is one) and is never cached
  class Problem extends Error {
    constructor(status, detail) { super(detail); this.status = status; }
  }

  function headers(extra = {}) {
    return token ? { ...extra, Authorization: `Bearer ${token}` } : { ...extra };
  }

  async function request(path, options = {}) {
    const response = await fetch(path, { cache: "no-store", ...options, headers: headers(options.headers) });
    if (!response.ok) {
      let detail = `${response.status} ${response.statusText}`;
      try { detail = (await response.json()).detail || detail; } catch { /* not JSON */ }
      throw new Problem(response.status, detail);
    }
    return response;
  }

  const api = (path) => `../matches/${matchId}${path}`;
  const json = async (path, options) => (await request(path, options)).json();

  // ---- small DOM helpers: elements with text, never markup
  function el(tag, text, attrs = {}) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [name, value] of Object.entries(attrs)) { // false leaves an attribute out, but a data-* says "false"
      if (value === undefined || value === null || (value === false && !name.startsWith("data-"))) continue;
      node.setAttribute(name, String(value));
    }
    return node;
  }

  function seatName(seat) {
    return seat === null || seat === undefined ? "" : `seat ${seat} (${players[seat] ?? "?"})`;
  }

  function viewerText(viewer) {
    if (viewer.startsWith("seat:")) return `viewing as ${seatName(Number(viewer.slice(5)))}`;
    return viewer === "spectator" ? "viewing as a spectator" : `viewing as the ${viewer}`;
  }

  function actorName(actor) {
    if (!actor) return "?";
    if (actor.kind === "seat" || actor.kind === "player") return seatName(actor.seat);
    const seat = actor.seat !== undefined && actor.seat !== null ? ` for seat ${actor.seat}` : "";
    return `${actor.kind}${actor.name ? ` ${actor.name}` : ""}${seat}`;
  }

  // a JSON path of the view as words: /players/0/hand -> players › 0 › hand
  const pathWords = (path) => path.split("/").filter(Boolean).map((part) => part.replace(/_/g, " ")).join(" › ");
  const when = (at) => (at ? String(at).replace("T", " ").slice(0, 19) : "");
  const shown = (value) => (typeof value === "string" ? value : JSON.stringify(value));

  // ---- moving through the match
  const slider = $("slider");

  function go(target, { fromSlider = false } = {}) {
    const next = Math.min(Math.max(Math.round(target), 1), version);
    following = next === version;
    if (next === seq && !fromSlider && body.dataset.shown === String(next)) return;
    seq = next;
    slider.value = String(seq);
    slider.setAttribute("aria-valuenow", String(seq));
    slider.setAttribute("aria-valuetext", `step ${seq} of ${version}`);
    const step = $("step");
    step.textContent = stepText();
    step.dataset.seq = String(seq);
    const url = new URL(location.href);
    url.searchParams.set("at", String(seq));
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    markLogEntry();
    showNotes();
    loadStep(seq);
  }

  // "step 30 of 54 · turn 12 · round 3": the turn and the round are counted from the log's turn and
  // round starts (no round before the first one starts, as in a game's setup)
  function stepText() {
    const turn = turns.filter((t) => t <= seq).length;
    const round = rounds.filter((r) => r <= seq).length;
    return `step ${seq} of ${version}` + (turns.length > 1 ? ` · turn ${turn}` : "") + (round ? ` · round ${round}` : "");
  }

  // the last start before `at` (the first step when there is none), the first after it (the last step)
  function startBefore(starts, at) {
    const earlier = starts.filter((s) => s < at);
    return earlier.length ? earlier[earlier.length - 1] : 1;
  }

  function startAfter(starts, at) {
    return starts.find((s) => s > at) ?? version;
  }

  const KEYS = {
    ArrowLeft: () => seq - 1, ArrowRight: () => seq + 1, ArrowDown: () => seq - 1, ArrowUp: () => seq + 1,
    Home: () => 1, End: () => version, PageUp: () => startBefore(turns, seq), PageDown: () => startAfter(turns, seq),
  };
  // by round: Shift+Page Up / Shift+Page Down, or [ / ]; nothing in a game without rounds
  const ROUND_KEYS = { "[": () => startBefore(rounds, seq), "]": () => startAfter(rounds, seq) };
  const SHIFTED_KEYS = { PageUp: ROUND_KEYS["["], PageDown: ROUND_KEYS["]"] };

  function keyMove(event) { // the function giving the step a key goes to, or null
    const key = event.key;
    if (event.shiftKey && Object.hasOwn(SHIFTED_KEYS, key)) return rounds.length ? SHIFTED_KEYS[key] : null;
    if (Object.hasOwn(ROUND_KEYS, key)) return rounds.length ? ROUND_KEYS[key] : null;
    return Object.hasOwn(KEYS, key) ? KEYS[key] : null;
  }

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target.closest("input, textarea, select, [contenteditable]") && target !== slider;
    const move = keyMove(event);
    if (typing || event.altKey || event.ctrlKey || event.metaKey || !move) return;
    if (target !== slider && (event.key === "ArrowUp" || event.key === "ArrowDown")) return; // let the page scroll
    event.preventDefault();
    go(move());
  });
  slider.addEventListener("input", () => go(Number(slider.value), { fromSlider: true }));
  $("first").addEventListener("click", () => go(1));
  $("last").addEventListener("click", () => go(version));
  $("prev").addEventListener("click", () => go(seq - 1));
  $("next").addEventListener("click", () => go(seq + 1));
  $("prev-turn").addEventListener("click", () => go(startBefore(turns, seq)));
  $("next-turn").addEventListener("click", () => go(startAfter(turns, seq)));
  $("prev-round").addEventListener("click", () => go(startBefore(rounds, seq)));
  $("next-round").addEventListener("click", () => go(startAfter(rounds, seq)));

  // ---- one step: the board and its details, fetched together; a newer step cancels an older one
  async function loadStep(at) {
    if (stepRequest) stepRequest.abort();
    const controller = new AbortController();
    stepRequest = controller;
    try {
      const [svg, step] = await Promise.all([
        request(api(`/board.svg?at=${at}`), { signal: controller.signal }).then((r) => r.text()),
        json(`${matchId}/step?at=${at}`, { signal: controller.signal }),
      ]);
      if (controller.signal.aborted || at !== seq) return;
      showBoard(svg);
      showDetails(step);
      body.dataset.shown = String(at);
    } catch (error) {
      if (controller.signal.aborted) return;
      failed(error);
    }
  }

  function showBoard(svgText) {
    const drawn = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
    if (drawn.nodeName !== "svg") return;
    const box = $("board");
    box.replaceChildren(document.importNode(drawn, true));
    // the drawing's own width: at full size a phone scrolls across it instead of shrinking it
    const width = Number((drawn.getAttribute("viewBox") || "").split(/[\s,]+/)[2]);
    if (width > 0) box.style.setProperty("--board-width", `${width}px`);
  }

  function showDetails(step) {
    const viewer = $("viewer");
    viewer.textContent = viewerText(step.viewer);
    viewer.dataset.viewer = step.viewer;
    showSentence();
    $("prompt").textContent = step.over ? "The match is over."
      : !step.prompt ? ""
      : step.to_move.length ? `Waiting for ${step.to_move.map(seatName).join(", ")}: ${step.prompt}`
      : `Next: ${step.prompt.replace(/_/g, " ")}`; // a chance draw, named by its kind
    // scores, one row per seat
    const rows = step.scores.map((total, seat) => {
      const row = el("tr", null, { "data-seat": seat, "data-score": total, class: `seat-${seat}` });
      const name = el("th", null, { scope: "row" });
      name.append(el("span", null, { class: "swatch", "aria-hidden": "true" }), seatName(seat));
      if (step.to_move.includes(seat) && !step.over) name.append(el("span", " ◀ to move", { class: "to-move" }));
      row.append(name, el("td", total, { class: "num" }));
      return row;
    });
    document.querySelector("#scores tbody").replaceChildren(...rows);
    // what only this viewer sees
    $("yours-box").hidden = step.yours.length === 0;
    $("yours-title").textContent = step.viewer === "arbiter" ? "Hidden from spectators" : "Only you see";
    $("yours").replaceChildren(...step.yours.flatMap((item) => [
      el("dt", pathWords(item.path), { "data-path": item.path }),
      el("dd", shown(item.value), { "data-path": item.path, "data-value": JSON.stringify(item.value) }),
    ]));
    // the change from the step before
    $("said").replaceChildren(...step.said.map((text) => el("li", text)));
    $("scored").replaceChildren(
      ...step.scored.map((line) => ruleLine(line, `${seatName(line.seat)} scores ${line.points}`)),
      ...step.unscored.map((line) => ruleLine(line, `taken back: ${seatName(line.seat)} ${line.points}`)));
    $("changes").replaceChildren(...step.changes.flatMap((change) => [
      el("dt", pathWords(change.path)),
      el("dd", change.op === "changed" ? `${shown(change.before)} → ${shown(change.after)}`
        : change.op === "added" ? `added ${shown(change.after)}` : `removed ${shown(change.before)}`),
    ]));
    if (step.more_changes) $("changes").append(el("dd", `… and ${step.more_changes} more`));
    if (!step.changes.length) $("changes").append(el("dd", step.seq > 1 ? "nothing this viewer can see" : "the start"));
    // the score sheet, each line with its rule's text
    document.querySelector("#sheet tbody").replaceChildren(...step.sheet.map((line) => {
      const row = el("tr", null, { class: `seat-${line.seat}` });
      const rule = el("td");
      rule.append(el("abbr", line.rule, { title: line.rule_text || "" }));
      if (line.rule_title) rule.append(el("span", ` ${line.rule_title}`, { class: "muted" }));
      if (line.rule_text) rule.append(el("p", line.rule_text, { class: "rule-text" }));
      row.append(el("td", seatName(line.seat)), el("td", line.points, { class: "num" }),
        el("td", line.detail || line.category), rule);
      return row;
    }));
    if (!step.sheet.length) {
      const empty = el("tr");
      empty.append(el("td", "no points yet", { colspan: 4, class: "muted" }));
      document.querySelector("#sheet tbody").append(empty);
    }
  }

  function ruleLine(line, text) {
    const item = el("li", `${text} for ${line.detail || line.category} `);
    item.append(el("abbr", line.rule, { title: line.rule_text || "" }));
    if (line.rule_title) item.append(el("span", ` (${line.rule_title})`, { class: "muted" }));
    return item;
  }

  // ---- the log: narrated, the current step marked, retracted moves struck through
  // the whole log, or, when nothing the page holds can have changed, the entries after the last
  async function loadLog() {
    const known = entries.size ? Math.max(...entries.keys()) : 0;
    const partial = !wholeLogNeeded && known > 0;
    wholeLogNeeded = false;
    const log = await json(partial ? `${matchId}/log?after=${known}` : `${matchId}/log`);
    if (!partial) entries = new Map();
    for (const entry of log.entries) entries.set(entry.seq, entry);
    turns = log.turns;
    rounds = log.rounds || [];
    $("prev-round").hidden = $("next-round").hidden = rounds.length === 0; // a game without rounds (or none yet)
    setVersion(log.version, log.status);
    const items = [...entries.values()].map((entry) => {
      const classes = [`kind-${entry.kind}`];
      if (entry.mark) classes.push(`mark-${entry.mark}`);
      if (entry.retracted_by !== null && entry.retracted_by !== undefined) classes.push("retracted");
      if (entry.hidden) classes.push("hidden");
      const item = el("li", null, { id: `e${entry.seq}`, "data-seq": entry.seq, class: classes.join(" ") });
      const link = el("a", `#${entry.seq}`, { href: `?at=${entry.seq}`, class: "seq" });
      link.addEventListener("click", (event) => { event.preventDefault(); go(entry.seq); });
      item.append(link, " ", el("time", when(entry.at).slice(11), { datetime: entry.at, title: when(entry.at) }), " ",
        saidBy(entry));
      if (entry.mark) item.append(" ", el("span", entry.mark === "undo" ? "undo" : entry.mark, { class: "badge" }));
      if (entry.retracted_by) item.append(" ", el("span", `taken back at #${entry.retracted_by}`, { class: "badge" }));
      const here = notes.filter((note) => note.seq === entry.seq);
      if (here.length) item.append(noteList(here));
      return item;
    });
    $("log").replaceChildren(...items);
    $("step").textContent = stepText();
    markLogEntry();
    showSentence();
    showNotes();
  }

  // the current step's sentence above the board: who did what, and when
  function showSentence() {
    const entry = entries.get(seq);
    if (!entry) return;
    const sentence = $("sentence");
    sentence.replaceChildren(el("span", `#${entry.seq} `, { class: "muted" }), entry.text);
    if (!entry.text.startsWith(entry.actor)) sentence.append(el("span", ` — ${entry.actor}`, { class: "muted" }));
    sentence.append(el("time", ` ${when(entry.at).slice(11)}`, { datetime: entry.at, title: when(entry.at), class: "muted" }));
  }

  // a sentence that starts with its actor ("seat 1 (bob) plays ...") shows the actor once, coloured
  function saidBy(entry) {
    const text = el(entry.retracted_by ? "del" : "span", null, { class: "text" });
    const actor = el("span", entry.actor, { class: `actor seat-${entry.seat ?? "none"}` });
    if (entry.text.startsWith(entry.actor)) text.append(actor, entry.text.slice(entry.actor.length));
    else text.append(entry.text, " ", el("span", `(${entry.actor})`, { class: "muted" }));
    return text;
  }

  function markLogEntry() {
    for (const old of document.querySelectorAll("#log [aria-current]")) old.removeAttribute("aria-current");
    const item = $(`e${seq}`);
    if (!item) return;
    item.setAttribute("aria-current", "step");
    const log = $("log");
    const top = item.offsetTop; // the list is positioned: offsets are within it
    if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - item.offsetHeight) {
      log.scrollTop = Math.max(0, top - log.clientHeight / 3);
    }
  }

  // ---- annotations: inline in the log and listed for the current step
  function noteList(list) {
    const ul = el("ul", null, { class: "notes" });
    for (const note of list) {
      const item = el("li", null, { class: `note visibility-${String(note.visibility).replace(":", "-")}` });
      if (note.glyphs && note.glyphs.length) item.append(el("strong", note.glyphs.join(" "), { class: "glyphs" }), " ");
      item.append(el("span", note.text, { class: "note-text" }), " ");
      item.append(el("span", `— ${actorName(note.author)}, ${note.visibility === "public" ? "public" : `for ${note.visibility}`}`,
        { class: "muted" }));
      if (note.tags && note.tags.length) item.append(" ", el("span", note.tags.map((t) => `#${t}`).join(" "), { class: "tags" }));
      ul.append(item);
    }
    return ul;
  }

  async function loadNotes() {
    notes = (await json(api("/annotations"))).annotations;
  }

  function showNotes() {
    const here = notes.filter((note) => note.seq === seq);
    $("notes").replaceChildren(...(here.length ? [noteList(here)] : [el("li", "none at this step", { class: "muted" })]));
  }

  // ---- the head moves: the slider's range, the status, following a live match
  function setVersion(newVersion, newStatus) {
    if (newVersion > version) {
      version = newVersion;
      slider.max = String(version);
      slider.setAttribute("aria-valuemax", String(version));
      $("step").textContent = stepText();
    }
    if (newStatus && newStatus !== status) {
      status = newStatus;
      $("status").textContent = status === "active" ? "in play" : "ended";
      $("status").dataset.status = status;
    }
  }

  // ---- live: the SSE stream read with fetch (EventSource cannot send the Authorization header)
  let refresh = null;
  function refreshSoon() {
    clearTimeout(refresh);
    refresh = setTimeout(async () => {
      try {
        await loadNotes(); // the stream says when the annotations this viewer may see changed
        await loadLog();
        if (following) go(version);
      } catch (error) { failed(error); }
    }, 150);
  }

  function onFrame(frame) {
    let event = "message";
    const data = [];
    for (const line of frame.split("\n")) {
      if (line.startsWith(":")) continue; // a heartbeat
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (!data.length) return;
    const payload = JSON.parse(data.join("\n"));
    if (event === "entry") {
      if (payload.kind === "retracted" || payload.kind === "redone") wholeLogNeeded = true;
      const wasFollowing = following;
      setVersion(payload.seq);
      following = wasFollowing;
      refreshSoon();
    } else if (event === "revealed") {
      wholeLogNeeded = true;
      refreshSoon();
    } else if (event === "annotations") { // a note added or edited: inline in the log, and at its step
      notes = payload.annotations;
      showNotes();
      refreshSoon();
    } else if (event === "end") {
      setVersion(payload.version, payload.status);
      refreshSoon();
    }
  }

  async function follow() {
    if (stream) stream.abort();
    const controller = new AbortController();
    stream = controller;
    while (status === "active" && !controller.signal.aborted) {
      try {
        const response = await request(api(`/stream?after=${version}`),
          { signal: controller.signal, headers: { Accept: "text/event-stream" } });
        $("live").hidden = false;
        wholeLogNeeded = true; // anything revealed before this connection opened: the next read is whole
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            onFrame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof Problem && error.status < 500) { failed(error); break; }
      }
      $("live").hidden = true;
      if (status === "active" && !controller.signal.aborted) await new Promise((r) => setTimeout(r, 2000));
    }
    $("live").hidden = true;
  }

  // ---- audit: the verification report, receipts, signers
  function report(box, data) {
    const parts = [el("p", data.summary, { class: data.ok ? "ok" : "bad", "data-ok": data.ok })];
    const checked = Object.entries(data.checked || {}).map(([name, count]) => `${name} ${count}`).join(", ");
    if (checked) parts.push(el("p", `checked: ${checked}`, { class: "muted" }));
    for (const note of data.notes || []) parts.push(el("p", note, { class: "muted" }));
    const divergence = data.divergence;
    if (divergence) {
      const line = el("p", `first divergence: ${divergence.check} — ${divergence.message}`, { class: "bad" });
      if (divergence.rule) line.append(` (${divergence.rule})`);
      if (divergence.stream === "match" && Number.isInteger(divergence.seq)) { // not an annotation event's
        const jump = el("a", `go to step ${divergence.seq}`, { href: `?at=${divergence.seq}`, class: "divergence" });
        jump.addEventListener("click", (event) => { event.preventDefault(); go(divergence.seq); });
        line.append(" ", jump);
      }
      parts.push(line);
    }
    const signers = el("ul", null, { class: "signers", "aria-label": "Signers" });
    for (const signer of data.signers || []) {
      signers.append(el("li", `${signer.key_id}: ${signer.signed} — ${signer.trusted ? `trusted (${signer.trusted_as})` : "NOT trusted"}`,
        { class: signer.trusted ? "ok" : "bad", "data-key": signer.key_id, "data-trusted": signer.trusted }));
    }
    parts.push(el("h3", "Signers"), signers);
    for (const receipt of data.receipts || []) {
      parts.push(el("p", `receipt for event ${receipt.seq}: ${receipt.status} — ${receipt.message}`,
        { class: receipt.status === "holds" ? "ok" : "bad", "data-receipt": receipt.status }));
    }
    box.replaceChildren(...parts);
  }

  $("verify").addEventListener("click", async () => {
    const box = $("report");
    box.replaceChildren(el("p", "verifying…", { class: "muted" }));
    try {
      report(box, await json(api("/verification")));
      const keys = await json("../keys");
      box.append(el("p", `this server signs with ${keys.server_key_id}; the keys it holds: ${Object.keys(keys.keys).join(", ")}`,
        { class: "muted" }));
    } catch (error) { box.replaceChildren(el("p", error.message, { class: "bad" })); }
  });

  function receiptsOf(data) { // as the server reads them: one, a list, write answers, JSON Lines
    if (Array.isArray(data)) return data.flatMap(receiptsOf);
    if (data && typeof data === "object" && data.receipt && typeof data.receipt === "object") return [data.receipt];
    if (data && typeof data === "object" && Array.isArray(data.receipts)) return receiptsOf(data.receipts);
    return [data];
  }

  function parseReceipts(text) {
    try { return receiptsOf(JSON.parse(text)); } catch { /* maybe JSON Lines */ }
    return receiptsOf(text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line)));
  }

  $("receipts-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) $("receipts").value = await file.text();
  });

  $("receipts-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $("receipt-report");
    try {
      const receipts = parseReceipts($("receipts").value);
      box.replaceChildren(el("p", "checking…", { class: "muted" }));
      report(box, await json(api("/receipts"), {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ receipts }),
      }));
    } catch (error) {
      box.replaceChildren(el("p", error instanceof SyntaxError ? "that is not JSON" : error.message, { class: "bad" }));
    }
  });

  // ---- the viewer: a token from the form, kept in this tab only
  function failed(error) {
    if (error instanceof Problem && (error.status === 401 || error.status === 403) && token) {
      $("token-error").textContent = `that token does not open this match (${error.message}); showing the spectator's view`;
      setToken("");
      return;
    }
    $("sentence").textContent = `could not load: ${error.message}`;
  }

  async function loadAll() {
    body.dataset.shown = "";
    wholeLogNeeded = true; // another viewer (a token given or cleared) reads another log
    try {
      await loadNotes();
      await loadLog();
    } catch (error) { failed(error); return; }
    go(seq);
    if (status === "active") follow();
  }

  function setToken(value) {
    token = value.trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
    $("token").value = "";
    if (stream) stream.abort();
    stream = null;
    loadAll();
  }

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("token-error").textContent = "";
    setToken($("token").value);
  });
  $("forget").addEventListener("click", () => { $("token-error").textContent = ""; setToken(""); });
  window.addEventListener("hashchange", () => { // a #token= pasted into the address of an open page
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (!fragment.has("token")) return;
    const given = fragment.get("token");
    history.replaceState(history.state, "", location.pathname + location.search);
    setToken(given);
  });

  // a tall board (Russian Railroads' player boards) fits the window, or takes the page's whole width
  // (the choice is kept for the next pages: it is a preference, not a secret)
  function boardSize(full) {
    $("board").classList.toggle("full", full);
    $("main").classList.toggle("board-wide", full); // the record moves below the board
    $("zoom").setAttribute("aria-pressed", String(full));
    $("zoom").textContent = full ? "Fit the board to the window" : "Show the board at full size";
    localStorage.setItem("ringside-board-full", full ? "1" : "");
  }
  $("zoom").addEventListener("click", () => boardSize(!$("board").classList.contains("full")));
  boardSize(localStorage.getItem("ringside-board-full") === "1");
  // the link to this step, without any fragment (a token never goes into a link)
  $("copy").addEventListener("click", async () => {
    const link = location.origin + location.pathname + location.search;
    try {
      await navigator.clipboard.writeText(link);
      $("copied").textContent = "link copied";
    } catch {
      $("copied").textContent = link;
    }
    setTimeout(() => { $("copied").textContent = ""; }, 4000);
  });

  body.dataset.game = game;
  loadAll();
})();

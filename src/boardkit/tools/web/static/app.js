// The boardkit table page: draws whatever the server sends, from the ruleset's zones alone.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
let state = null;        // the last payload
let view = "all";        // the host's viewpoint: "all" or a seat number
let selection = [];      // cells clicked so far toward a move naming several cells
let busy = false;
let sent = 0;            // requests that changed the game so far: a poll begun before one is stale

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

async function api(path, body) {
  const query = path.includes("?") ? "&" : "?";
  const url = path + query + "view=" + encodeURIComponent(view);
  const init = { headers: { "X-Token": token } };
  if (body !== undefined) {
    init.method = "POST";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(url, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showMessage(text) {
  const box = $("message");
  box.hidden = !text;
  box.textContent = text || "";
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  sent += 1;
  try {
    render(await api(path, body === undefined ? {} : { version: state.version, ...body }));
    showMessage("");
  } catch (err) {
    showMessage(err.message);
    try { render(await api("/api/state")); } catch (again) { showMessage(again.message); }
  } finally {
    busy = false;
  }
}

const play = (label) => send("/api/move", { move: label });

async function refresh() {
  const before = sent;
  try {
    const data = await api("/api/state");
    // A poll answered after a move was sent may describe the game before that move.
    if (busy || sent !== before || (state && data.version < state.version)) return;
    if (!state || data.version !== state.version || data.rule_error !== state.rule_error) render(data);
  } catch (err) {
    showMessage(err.message);
  }
}

// Pieces whose colour-valued attributes tint them: a generic touch, whatever the game calls them.
function colours(piece) {
  return Object.entries(piece)
    .filter(([k, v]) => k !== "label" && k !== "type" && typeof v === "string" && CSS.supports("color", v))
    .map(([, v]) => v);
}

function tint(node, cols) {
  if (cols.length === 1) node.style.background = cols[0];
  else if (cols.length > 1) node.style.background = `linear-gradient(90deg, ${cols.join(", ")})`;
  if (cols.length) node.style.color = "#000";
  if (cols.length) node.style.textShadow = "0 0 2px #fff, 0 0 2px #fff";
}

function choosable(node, label) {
  node.classList.add("choosable");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.dataset.move = label;
  node.setAttribute("aria-label", `choose ${label}`);
  node.addEventListener("click", () => play(label));
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(label); } });
}

function pieceNode(piece, pick, extra = "") {
  const node = el("span", { class: "piece " + extra, title: `${piece.type}: ${piece.label}` });
  node.append(piece.label);
  tint(node, colours(piece));
  const label = pick(piece);
  if (label !== undefined) choosable(node, label);
  return node;
}

// Which move clicking a piece of a zone makes. A move names a piece (in its zone), or a name
// pieces carry (a colour): then the pieces of the player deciding, if they hold one, not
// copies elsewhere on the table.
function piecePicker(data) {
  const exact = new Map();
  const names = new Set();
  for (const [label, t] of Object.entries(data.targets)) {
    if (t.kind === "piece") exact.set(`${t.zone}\u0000${t.label}`, label);
    else if (t.kind === "name") names.add(label);
  }
  const own = new Set();
  for (const zone of data.zones) {
    if (zone.owner === data.to_move) for (const p of [...zone.pieces, ...zone.known]) if (names.has(p.label)) own.add(p.label);
  }
  return (zone) => (piece) => {
    const label = exact.get(`${zone.key}\u0000${piece.label}`);
    if (label !== undefined) return label;
    if (names.has(piece.label) && (zone.owner === data.to_move || !own.has(piece.label))) return piece.label;
    return undefined;
  };
}

function drawZone(zone, pick) {
  const box = el("div", { class: `zone kind-${zone.kind}`, "data-zone": zone.key });
  const mine = zone.owner !== null && zone.owner === state.viewpoint;
  if (mine) box.classList.add("mine");
  const tags = [zone.kind, zone.visibility === "public" ? "" : zone.visibility].filter(Boolean).join(", ");
  box.append(el("h4", { text: `${zone.key} (${zone.count}) ${tags}${mine ? " · yours" : ""}` }));
  const pieces = el("div", { class: "pieces" });
  if (zone.hidden) {
    for (let i = 0; i < Math.min(zone.count, 12); i++) pieces.append(el("span", { class: "back", title: "hidden" }));
    if (zone.count > 12) pieces.append(el("span", { class: "count", text: `+${zone.count - 12}` }));
    for (const p of zone.known) pieces.append(pieceNode(p, pick, "known"));
  } else if (zone.grid) {
    box.append(drawGrid(zone, pick));
    return box;
  } else {
    zone.pieces.forEach((p, i) => {
      const node = pieceNode(p, pick, zone.kind === "stack" && i === 0 ? "top" : "");
      if (zone.kind === "row" || zone.kind === "stack") node.prepend(el("span", { class: "pos", text: `${i + 1}` }));
      pieces.append(node);
    });
    if (!zone.pieces.length) pieces.append(el("span", { class: "count", text: "empty" }));
  }
  box.append(pieces);
  return box;
}

function drawGrid(zone, pick) {
  const { w, h, shown } = zone.grid;
  const board = el("div", { class: "board", role: "grid", "aria-label": zone.key });
  board.style.gridTemplateColumns = `repeat(${w}, 2.6rem)`;
  const stacks = {};  // cell -> pieces on it, bottom first
  for (const p of zone.pieces) for (const c of p.cells) (stacks[c] = stacks[c] || []).push(p);
  const cellMoves = state.moves.filter((m) => state.targets[m] && state.targets[m].kind === "cells");
  const prefix = selection.join("+");
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = `${x},${y}`;
      const node = el("div", { class: "cell", "data-cell": c, role: "gridcell" });
      const stack = stacks[c] || [];
      if (stack.length) {
        const top = stack[stack.length - 1];
        node.classList.add("occupied");
        node.append(el("span", { class: "name", text: top.label }));
        node.append(el("span", { class: "lvl", text: `L${top.level}` }));
        node.title = `${c}: ` + stack.map((p) => `${p.label} (level ${p.level})`).reverse().join(" over ");
        const value = shown[c];
        tint(node, typeof value === "string" && CSS.supports("color", value) ? [value] : colours(top));
      } else {
        node.title = c;
      }
      if (selection.includes(c)) node.classList.add("selected");
      const next = prefix ? `${prefix}+${c}` : c;
      const opens = cellMoves.some((m) => m === next || m.startsWith(next + "+"));
      if (opens) {
        cellChoosable(node, c, next);
      } else if (stack.length && pick(stack[stack.length - 1]) !== undefined) {
        choosable(node, pick(stack[stack.length - 1]));
      }
      board.append(node);
    }
  }
  return board;
}

// A move naming several cells ("2,4+3,4") is made by clicking them in turn.
function cellChoosable(node, c, next) {
  const pick = () => {
    if (state.moves.includes(next) && !state.moves.some((m) => m.startsWith(next + "+"))) {
      selection = [];
      play(next);
    } else {
      selection.push(c);
      render(state);
    }
  };
  node.classList.add("choosable");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", `choose cell ${c}`);
  node.addEventListener("click", pick);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
}

function text(value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return "[" + value.map(text).join(", ") + "]";
  if (typeof value === "object") return value.label !== undefined ? value.label : JSON.stringify(value);
  return String(value);
}

function drawDecision(data) {
  const choices = $("choices");
  choices.replaceChildren();
  if (data.is_over) {
    $("prompt").textContent = `Game over: ${data.end_reason}`;
    return;
  }
  if (!data.moves.length) {
    const who = data.seats[data.to_move];
    $("prompt").textContent = data.replay ? `Replay: player ${data.to_move} decides next`
      : `Waiting for player ${data.to_move} (${who})`;
    return;
  }
  const selecting = selection.length ? ` (cells so far: ${selection.join(" + ")}; Esc clears)` : "";
  $("prompt").textContent = `Player ${data.to_move}: ${data.prompt}${selecting}`;
  data.moves.forEach((label, i) => {
    const button = el("button", { type: "button", "data-move": label });
    if (i < 9) button.append(el("kbd", { text: String(i + 1) }));
    button.append(label);
    button.addEventListener("click", () => { selection = []; play(label); });
    choices.append(button);
  });
}

function drawZones(data) {
  const families = new Map();
  for (const zone of data.zones) {
    if (!families.has(zone.family)) families.set(zone.family, []);
    families.get(zone.family).push(zone);
  }
  const pickerOf = piecePicker(data);
  const area = $("zones");
  area.replaceChildren();
  for (const [family, zones] of families) {
    const box = el("section", { class: "family", "data-family": family });
    box.append(el("h3", { text: family }));
    const members = el("div", { class: "members" });
    for (const zone of zones) members.append(drawZone(zone, pickerOf(zone)));
    box.append(members);
    area.append(box);
  }
}

function drawSide(data) {
  const scores = $("scores");
  scores.replaceChildren();
  if (data.scores) {
    data.scores.forEach((s, p) => {
      const win = data.winners.includes(p) && data.is_over ? " (winner)" : "";
      scores.append(el("tr", {}, el("td", { text: `player ${p}${win}` }), el("td", { text: String(s) })));
    });
  } else {
    scores.append(el("tr", {}, el("td", { text: "shown when the game ends" })));
  }
  const vars = $("vars");
  vars.replaceChildren();
  for (const [k, v] of Object.entries(data.vars)) vars.append(el("tr", {}, el("td", { text: k }), el("td", { text: text(v) })));
  const log = $("log");
  log.replaceChildren(...data.log.map((line) => el("li", { text: line })));
  log.scrollTop = log.scrollHeight;
}

function drawControls(data) {
  document.body.dataset.role = data.role;
  const who = data.role === "host" ? (data.viewpoint === null ? "host, sees everything" : `host, as seat ${data.viewpoint} sees`)
    : `seat ${data.seat}`;
  $("title").textContent = `${data.title} (${data.ruleset})`;
  document.title = `${data.title} · boardkit`;
  const over = data.is_over ? `over: ${data.end_reason}` : `turn ${data.turn}, player ${data.to_move} to move`;
  const seed = data.role === "host" ? ` · seed ${data.seed}` : "";  // a seat is never sent the seed
  $("status").textContent = `${who}${seed} · ${data.decisions} decisions · ${over}`;
  if (data.role === "host") {
    $("undo").disabled = Boolean(data.replay);
    const select = $("view");
    const options = ["all", ...Array.from({ length: data.players }, (_, p) => String(p))];
    const seatName = (o) => `seat ${o}` + (data.seats[o] ? ` (${data.seats[o]})` : "");
    if (select.options.length !== options.length) {
      select.replaceChildren(...options.map((o) => el("option", { value: o, text: o === "all" ? "everything" : seatName(o) })));
    }
    select.value = view;
    const rules = $("ruleset");
    const names = data.rulesets.includes(data.ruleset) ? data.rulesets : [data.ruleset, ...data.rulesets];
    if ([...rules.options].map((o) => o.value).join() !== names.join()) {
      rules.replaceChildren(...names.map((r) => el("option", { value: r, text: r })));
    }
    if (document.activeElement !== rules) rules.value = data.ruleset;
    $("agent").disabled = $("agent-end").disabled = !data.agents_to_play;
    $("replaybar").hidden = !data.replay;
    if (data.replay) {
      $("r-step").max = data.replay.steps;
      $("r-step").value = data.replay.step;
      $("r-label").textContent = `decision ${data.replay.step} of ${data.replay.steps}`;
    }
  }
  $("rule-error").hidden = !data.rule_error;
  $("rule-error").textContent = data.rule_error || "";
  $("notice").hidden = !data.notice;
  $("notice").textContent = data.notice || "";
}

function render(data) {
  if (!state || data.version !== state.version) selection = [];
  state = data;
  drawControls(data);
  drawDecision(data);
  drawZones(data);
  drawSide(data);
  document.body.dataset.version = String(data.version);
  document.body.dataset.over = String(data.is_over);
  document.body.dataset.decisions = String(data.decisions);
}

function stepReplay(step) {
  send("/api/replay/step", { step: Math.max(0, Math.min(step, state.replay.steps)) });
}

function wire() {
  $("undo").addEventListener("click", () => send("/api/undo"));
  $("agent").addEventListener("click", () => send("/api/agent"));
  $("agent-end").addEventListener("click", () => send("/api/agent", { to_end: true }));
  $("new").addEventListener("click", () => {
    const seed = parseInt($("seed").value, 10);
    const ruleset = $("ruleset").value;
    send("/api/new", { seed: Number.isNaN(seed) ? null : seed, ruleset: ruleset === state.ruleset ? null : ruleset });
  });
  $("view").addEventListener("change", async (e) => { view = e.target.value; render(await api("/api/state")); });
  $("save").addEventListener("click", async () => {
    const response = await fetch("/api/save", { headers: { "X-Token": token } });
    const blob = await response.blob();
    const a = el("a", { href: URL.createObjectURL(blob), download: `${state.ruleset}-seed${state.seed}-${state.decisions}.json` });
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $("load").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const body = await file.text();
    e.target.value = "";
    sent += 1;
    try { render(await api("/api/load", body)); showMessage(""); } catch (err) { showMessage(err.message); }
  });
  $("replay").addEventListener("click", () => send("/api/replay"));
  $("r-first").addEventListener("click", () => stepReplay(0));
  $("r-back").addEventListener("click", () => stepReplay(state.replay.step - 1));
  $("r-next").addEventListener("click", () => stepReplay(state.replay.step + 1));
  $("r-last").addEventListener("click", () => stepReplay(state.replay.steps));
  $("r-step").addEventListener("change", (e) => stepReplay(parseInt(e.target.value, 10)));
  $("r-play").addEventListener("click", () => send("/api/replay/close", { play_on: true }));
  $("r-close").addEventListener("click", () => send("/api/replay/close", { play_on: false }));
  document.addEventListener("keydown", (e) => {
    if (!state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[1-9]$/.test(e.key) && state.moves.length >= Number(e.key)) {
      e.preventDefault();
      selection = [];
      play(state.moves[Number(e.key) - 1]);
    } else if (e.key === "Escape" && selection.length) {
      selection = [];
      render(state);
    } else if (e.key === "u" && state.role === "host" && !state.replay) {
      send("/api/undo");
    } else if (state.replay && (e.key === "ArrowRight" || e.key === "ArrowLeft")) {
      e.preventDefault();
      stepReplay(state.replay.step + (e.key === "ArrowRight" ? 1 : -1));
    }
  });
}

wire();
refresh();
setInterval(() => { if (!busy) refresh(); }, 1000);

// The page: follows one game on the server over a WebSocket and lets a person play it by
// clicking. Every legal move comes from the server's `legal` list (the engine's `moves`):
// the page only matches clicks against those tokens (rules.md, "Move tokens").

import { readBoard, readHand, drawBoard, drawHand } from "./board.js";
import { el } from "./pieces.js";
import { scoreText, limitOptions, hiddenText, ruleWords } from "./words.js";
import { renderMoves, viewedPly, viewedSfen, resetView, initBrowse, written } from "./browse.js";
import { loadHowto, gameHelp, whenHowto, showHowto } from "./howto.js";
import { canExplore, exploreRequest, showExplore, hideExplore } from "./explore.js";
import { initRecords, showRecords, recordAnswer } from "./records.js";
import { clockOptions, readClock, drawClock } from "./clock.js";
import { askReport, reportAnswer, reportFailed, reported, reportOf, reportPending, reportText, MARK_COLOURS } from "./report.js";

const $ = (id) => document.getElementById(id);
let ws = null;
let games = {};        // name -> its `hello` entry: {title, files, ranks, players, startpos, rules, levels, look}
let game = null;       // the last `state` message
let sel = null;        // selected origin: a square "5d" or a hand letter "P*"
let first = null;      // a crab turn's normal move, while its bond move is picked
let flipped = false;
let info = null;       // the last `info` of the running search
let hint = null;       // koma's suggested move: {move, game, ply}, drawn while the position is the same
let exploring = null;  // the position (SFEN) whose exact values were asked for
let hello = null;      // the last `hello`
let notice = "";
let reportOnLoad = null;  // a record opened: its moves, whose report is asked when their game comes
let clockAt = 0;       // when the clock last came (performance.now)
let sentAt = null;     // when the last move was sent (performance.now), for the timings
const timings = [];    // per move answered by koma: ms from the click to its answer drawn, less its search
// How pieces are drawn where the game has kanji: "kanji1", "kanji2" or "letters" (remembered).
let pieceStyle = localStorage.getItem("koma-pieces") || "kanji1";

// A move part: {from: "5d" | "P*", to: "2d", suffix: "" | "+" | "q" ...}
function part(token) {
  let m = /^([A-Z])\*(\d+[a-z])$/.exec(token);
  if (m) return { from: m[1] + "*", to: m[2], suffix: "" };
  m = /^(\d+[a-z])(\d+[a-z])(.*)$/.exec(token);
  return m ? { from: m[1], to: m[2], suffix: m[3] } : null;
}

// The parts the player chooses among now: the normal moves, or the bond moves after `first`.
function choices() {
  if (!game) return [];
  const seen = new Set();
  const out = [];
  for (const t of game.legal) {
    let p;
    if (first === null) p = t.split(",")[0];
    else if (t.startsWith(first + ",")) p = t.slice(first.length + 1);
    else continue;
    if (!seen.has(p)) { seen.add(p); out.push(p); }
  }
  return out;
}

function humanToMove() {
  if (!game || game.state.result || viewedPly(game) !== game.moves.length) return false;
  return game.seats[game.state.side] === "human" && !game.thinking;
}

function say(text, kind = "") {
  notice = text;
  const n = $("notice");
  n.textContent = text;
  n.className = kind;
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// ---- clicks ----

function clickSquare(sq) {
  if (game && viewedPly(game) !== game.moves.length) {
    say("You are looking at a past position: ▶| (or End) goes back to the game, \"Play from here\" starts a branch.", "warn");
    return;
  }
  if (!humanToMove()) { say(game && game.state.result ? "The game is over." : "Wait for koma's move.", "warn"); return; }
  const parts = choices().map((t) => [t, part(t)]);
  if (sel) {
    const here = parts.filter(([, p]) => p && p.from === sel && p.to === sq);
    if (here.length) { choose(here.map(([t]) => t)); return; }
  }
  if (parts.some(([, p]) => p && p.from === sq)) { sel = sel === sq ? null : sq; say(""); render(); return; }
  const what = sel ? `${sel.replace("*", " from the hand")} to ${sq}` : `the piece on ${sq}`;
  const had = sel || (readBoard(shownBoard(), games[game.variant].files)[sq] ? sq : null);
  sel = null;
  render();
  if (had) say(`Not a legal move: ${what}.`, "warn");
}

function clickHand(owner, letter) {
  if (!humanToMove() || first !== null) return;
  if (owner !== game.state.side) { say("That is the other side's hand.", "warn"); return; }
  const from = letter + "*";
  if (!choices().some((t) => { const p = part(t); return p && p.from === from; })) {
    sel = null; render(); say(`${letter} cannot be dropped now.`, "warn"); return;
  }
  sel = sel === from ? null : from;
  say("");
  render();
}

const SUFFIX_NAMES = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" };
// The order of the promotion dialog's buttons: the queen first, as in chess.
const SUFFIX_ORDER = ["q", "r", "b", "n"];

function choose(tokens) {
  if (tokens.length === 1) { picked(tokens[0]); return; }
  const rank = (t) => { const i = SUFFIX_ORDER.indexOf(part(t).suffix); return i < 0 ? SUFFIX_ORDER.length : i; };
  tokens = tokens.slice().sort((a, b) => rank(a) - rank(b));
  const box = $("choice-buttons");
  box.replaceChildren();
  const look = games[game.variant].look;
  for (const t of tokens) {
    const s = part(t).suffix;
    const b = document.createElement("button");
    b.dataset.choice = s || "=";
    b.textContent = s === "+" ? look.promote : s ? SUFFIX_NAMES[s] || s : look.stay;
    b.onclick = () => { $("choice").hidden = true; picked(t); };
    box.appendChild(b);
  }
  $("choice").hidden = false;
}

function picked(token) {
  sel = null;
  // A compound turn (a crab's normal move, then its bond move) goes on.
  if (first === null && game.legal.some((t) => t.startsWith(token + ","))) {
    first = token;
    say(`Bond move after ${token}: pick a piece of the group and where it steps, or pass.`);
    render();
    return;
  }
  const move = first === null ? token : `${first},${token}`;
  first = null;
  say("");
  sentAt = performance.now();
  send({ type: "move", move });
}

function pass() {
  if (first === null) return;
  const move = first;
  first = null;
  sel = null;
  say("");
  send({ type: "move", move });
}

function cancelBond() { first = null; sel = null; say(""); render(); }

// ---- drawing ----

function shownBoard() {
  if (first !== null && game.previews[first]) return game.previews[first];
  return viewedSfen(game).split(" ")[0];
}

// The hands of the position shown: the state's, or read from a past position's SFEN.
function shownHands() {
  if (viewedPly(game) === game.moves.length) return game.state.hands;
  const field = viewedSfen(game).split(" ")[2] || "-";
  const out = { b: "", w: "" };
  let count = "";
  for (const ch of field === "-" ? "" : field) {
    if (ch >= "0" && ch <= "9") { count += ch; continue; }
    out[ch === ch.toUpperCase() ? "b" : "w"] += count + ch.toUpperCase();
    count = "";
  }
  return out;
}

// How the pieces are drawn: kanji ({kanji, chars}) where the game has them and the
// player has not chosen Latin letters; null otherwise.
function faces(g) {
  if (!g.look.kanji || pieceStyle === "letters") return null;
  return { kanji: g.look.kanji, chars: pieceStyle === "kanji2" ? 2 : 1 };
}

function coords(g) {
  return g.look.chess ? "chess" : faces(g) ? "kanji" : "usi";
}

function lastSquares() {
  const ply = viewedPly(game);
  const last = first !== null ? first : game.moves[ply - 1];
  if (!last) return [];
  return last.split(",").flatMap((t) => { const p = part(t); return p ? [p.from, p.to] : []; }).filter((s) => !s.endsWith("*"));
}

function render() {
  if (!game) return;
  const g = games[game.variant];
  const parts = humanToMove() ? choices().map(part).filter(Boolean) : [];
  const targets = new Set(parts.filter((p) => p.from === sel).map((p) => p.to));
  const movable = new Set(sel ? [] : parts.map((p) => p.from).filter((f) => !f.endsWith("*")));
  drawBoard($("board"), { look: g.look, files: g.files, ranks: g.ranks, pieces: readBoard(shownBoard(), g.files),
    flipped, selected: sel, targets, movable, last: lastSquares(), arrows: arrows(), coords: coords(g), faces: faces(g) });
  const drops = new Set(parts.map((p) => p.from).filter((f) => f.endsWith("*")).map((f) => f[0]));
  const selLetter = sel && sel.endsWith("*") ? sel[0] : null;
  const top = flipped ? "b" : "w", bottom = flipped ? "w" : "b";
  for (const [id, side] of [["hand-top", top], ["hand-bottom", bottom]]) {
    const box = $(id);
    box.hidden = !g.look.hands;
    drawHand(box.querySelector(".pieces"), g.look.pieces, readHand(shownHands()[side]), side,
      side === game.state.side ? selLetter : null, side === game.state.side ? drops : new Set(), faces(g));
    box.querySelector(".who").textContent = `${g.players[side === "b" ? 0 : 1]} (${game.seats[side]})`;
  }
  renderClocks();
  $("bond").hidden = first === null;
  $("pass").disabled = first === null || !game.legal.includes(first);
  renderStatus(g);
  renderMoves(game, g);
  $("piece-style-label").hidden = !g.look.kanji;
  $("piece-style").value = pieceStyle;
  renderGraph();
  renderInfo(g);
  $("sfen").value = game.state.sfen;
  $("pause").hidden = !(game.seats.b === "koma" && game.seats.w === "koma");
  $("pause").textContent = game.paused ? "Resume" : "Pause";
  $("stop").disabled = !game.thinking;
  $("analyse").disabled = game.thinking || !!game.state.result;
  $("explore-go").hidden = !gameHelp(game.variant).exact;
  $("explore-go").disabled = !canExplore(game, gameHelp(game.variant)) || exploring !== null;
  $("copy-moves").disabled = !!game.hidden;
  $("report-go").disabled = !!game.hidden || game.moves.length === 0 || reportPending(game);
  showRecords(game);
}

// Both clocks, beside the hands (the side to move's counting down).
function renderClocks() {
  if (!game) return;
  const g = games[game.variant];
  const top = flipped ? "b" : "w", bottom = flipped ? "w" : "b";
  for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
    const who = `${g.players[side === "b" ? 0 : 1]} (${game.seats[side]})`;
    drawClock($(id), game.clock, side, performance.now() - clockAt, who, !!game.state.result);
  }
}

// The suggested move (Analyse, or a move picked in the exact values), while it is about
// the position shown: an arrow per part of the token (a crab turn has two).
function arrows() {
  if (!hint || hint.game !== game.game || hint.ply !== game.moves.length || first !== null ||
    viewedPly(game) !== game.moves.length) return [];
  return hint.move.split(",").map(part).filter(Boolean).map((p, i) => ({ from: p.from, to: p.to, second: i > 0 }));
}

function showHint(move) {
  hint = { move, game: game.game, ply: game.moves.length };
  document.body.dataset.hint = move;
  render();
}

// The server's words for the sides (`state.players`) as the page names them (`hello`'s
// `players`: White and Black for a game shown as chess).
function sidesAsShown(text, said, shown) {
  if (!said || !shown) return text;
  return said.reduce((t, name, i) => t.replace(new RegExp(`\\b${name}\\b`, "gi"), shown[i]), text);
}

function renderStatus(g) {
  const st = game.state;
  const banner = $("banner");
  if (st.result) {
    const r = st.result;
    const said = sidesAsShown(r.text, st.players, g.players);
    const text = said.charAt(0).toUpperCase() + said.slice(1);
    banner.textContent = `Game over — ${text}`;
    banner.hidden = false;
    banner.className = r.winner ? `win-${r.winner}` : "draw";
  } else {
    banner.hidden = true;
  }
  const side = g.players[st.side === "b" ? 0 : 1];
  let s = st.result ? "The game is over." : game.thinking ? `koma (${side}) is thinking…` :
    game.seats[st.side] === "human" ? `${side} to move` : game.paused ? `${side} to move (paused)` : `${side}: koma to move`;
  if (st.phase === "placement" && !st.result) s += " — placement: drop a piece from the hand on your camp";
  $("status").textContent = s;
  $("hidden-setup").textContent = hiddenText(game.hidden, g.players);
  $("hidden-setup").hidden = !game.hidden;
  $("counters").textContent = st.status ? st.status : "";
}

function renderInfo(g) {
  const box = $("info");
  // Browsing a reported game: what the report says of the move that led here.
  const ply = viewedPly(game);
  const r = !game.thinking && reported(game) && ply > 0 && (ply < game.moves.length || !info) ? reportOf(game, ply) : null;
  if (r) {
    const name = written(game.moves, game.names, game)[ply - 1];
    box.textContent = reportText(r, name, (v) => scoreText(v, g.players, gameHelp(game.variant).checkmate));
    return;
  }
  if (!info) { box.textContent = game.thinking ? "koma is thinking…" : "—"; return; }
  if (info.book) { box.textContent = `book move ${info.book}`; return; }
  if (info.message) { box.textContent = info.message; return; }
  const best = info.best ? `koma's move here: ${info.best}\n` : "";
  const line = info.depth ? `depth ${info.depth} · ${scoreText(info.sente, g.players, gameHelp(game.variant).checkmate)} · ${info.nodes} nodes\npv ${written(info.pv, info.pv_names, game).join(" ")}` : "";
  box.textContent = best + line;
}

function renderGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const W = 300, H = 100;
  el("rect", { width: W, height: H, fill: "#fbf7ee" }, svg);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#bbb", "stroke-dasharray": "4 3" }, svg);
  const names = games[game.variant].players;
  for (const [y, s] of [[11, `${names[0]} ahead`], [H - 5, `${names[1]} ahead`]]) {
    el("text", { x: 4, y, class: "graphlabel" }, svg).textContent = s;
  }
  // The game report's evaluations where the game has one (its first player's winning
  // chances), else koma's evaluations as it played.
  const fromReport = reported(game);
  const evals = fromReport ? game.moves.map((_, i) => { const r = reportOf(game, i + 1); return r ? r.win_after : null; }) : game.evals.slice();
  if (!fromReport && info && info.sente !== undefined && game.thinking) evals.push(info.sente);
  const n = Math.max(evals.length, 10);
  // Inside a margin as wide as a point, so that the newest point is drawn whole.
  const PAD = 5;
  const pts = [];
  const marks = [];
  evals.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const lean = fromReport ? (v - 50) / 50 : Math.tanh(v / 600);
    const y = H / 2 - (H / 2 - PAD) * lean;
    pts.push(`${(PAD + ((i + 1) / n) * (W - 2 * PAD)).toFixed(1)},${y.toFixed(1)}`);
    const r = fromReport ? reportOf(game, i + 1) : null;
    if (r && r.mark) marks.push([pts.length - 1, r.mark]);
  });
  // The position shown while the game is browsed: a line at its ply.
  const shown = viewedPly(game);
  if (shown < game.moves.length && shown > 0) {
    const x = (PAD + (shown / n) * (W - 2 * PAD)).toFixed(1);
    el("line", { x1: x, y1: 0, x2: x, y2: H, stroke: "#1565c0", "stroke-width": 1.5, class: "shown-ply" }, svg);
  }
  if (pts.length) el("polyline", { points: pts.join(" "), fill: "none", stroke: "#8a4b0f", "stroke-width": 2 }, svg);
  pts.forEach((p) => { const [x, y] = p.split(","); el("circle", { cx: x, cy: y, r: 2.5, fill: "#8a4b0f" }, svg); });
  // The report's marks: a larger dot in the mark's colour.
  for (const [k, mark] of marks) {
    const [x, y] = pts[k].split(",");
    el("circle", { cx: x, cy: y, r: 4, fill: MARK_COLOURS[mark], stroke: "#fff", "stroke-width": 1, class: `graph-mark mark-${mark}` }, svg);
  }
}

// ---- settings and the connection ----

function settings() {
  const variant = $("variant").value;
  const rules = {};
  for (const input of $("rules").querySelectorAll("[data-rule]")) rules[input.dataset.rule] = input.value;
  const clock = readClock($("clock").value);
  return { variant, rules, seats: { b: $("seat-b").value, w: $("seat-w").value }, limit: readLimit(), ...(clock ? { clock } : {}) };
}

function readLimit() {
  const [kind, n] = $("limit").value.split(":");
  return { [kind]: Number(n) };
}

// The one strength menu: koma at full strength with a time a move, or one of the levels
// `hello` offers for the game, with its Elo.
function showLimits(g) {
  const box = $("limit");
  const keep = box.value || (JSON.parse(localStorage.getItem("koma-settings") || "{}").limit ?? "");
  box.replaceChildren();
  for (const [label, options] of limitOptions(g.levels, !!$("clock").value)) {
    const group = document.createElement("optgroup");
    group.label = label;
    for (const [value, text] of options) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = text;
      group.appendChild(o);
    }
    box.appendChild(group);
  }
  box.value = [...box.options].some((o) => o.value === keep) ? keep : "movetime:1000";
}

// The clocks offered for the game (byoyomi, or an increment for a game shown as chess).
function showClocks(g) {
  const box = $("clock");
  const keep = box.dataset.game === g.name ? box.value : (JSON.parse(localStorage.getItem("koma-clock") || "{}")[g.look.chess ? "chess" : "shogi"] ?? "");
  box.replaceChildren();
  for (const [value, text] of clockOptions(g.look.chess)) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    box.appendChild(o);
  }
  box.dataset.game = g.name;
  box.value = [...box.options].some((o) => o.value === keep) ? keep : "";
}

function showRules() {
  const g = games[$("variant").value];
  const box = $("rules");
  box.replaceChildren();
  const saved = JSON.parse(localStorage.getItem("koma-rules") || "{}");
  for (const r of g.rules) {
    const words = ruleWords(r);
    const label = document.createElement("label");
    label.title = r.name;
    label.dataset.switch = r.name;
    label.append(words.label + " ");
    let input;
    if (r.values || words.presets) {
      input = document.createElement("select");
      const values = r.values || words.presets.map(([v]) => v);
      const value = saved[r.name] || r.default;
      // A table set elsewhere (a record) stays selectable as it is.
      if (!r.values && !values.includes(value)) values.push(value);
      for (const v of values) {
        const o = document.createElement("option");
        o.value = v;
        o.textContent = words.values[v] || v;
        o.title = v;
        input.appendChild(o);
      }
    } else {
      input = document.createElement("input");
      input.size = 40;
    }
    input.dataset.rule = r.name;
    input.value = saved[r.name] || r.default;
    label.appendChild(input);
    if (PIECE_TABLE.test(r.default)) { input.type = "hidden"; label.appendChild(tableEditor(input)); }
    const help = document.createElement("small");
    help.className = "rule-help";
    help.textContent = words.help;
    label.appendChild(help);
    box.appendChild(label);
  }
  showClocks(g);
  showLimits(g);
  const names = g.players;
  $("seat-b-name").textContent = names[0];
  $("seat-w-name").textContent = names[1];
}

// A table of piece moves (`1:N 2:NW,NE ...`), edited as one field per piece; the switch's
// value is kept in `input` (hidden).
const PIECE_TABLE = /^\d+:\S+( \d+:\S+)+$/;

function tableEditor(input) {
  const box = document.createElement("span");
  box.className = "table-editor";
  const fields = input.value.split(" ").map((cell) => {
    const [piece, steps] = cell.split(":");
    const f = document.createElement("input");
    f.size = 12;
    f.value = steps || "";
    f.dataset.piece = piece;
    f.setAttribute("aria-label", `steps of the ${piece}`);
    f.title = "Directions, comma separated: N NE E SE S SW W NW (N = forward)";
    f.oninput = () => { input.value = fields.map((x) => `${x.dataset.piece}:${x.value.trim()}`).join(" "); };
    const name = document.createElement("b");
    name.textContent = piece;
    box.append(name, f);
    return f;
  });
  return box;
}

function newGame(extra = {}) {
  const s = settings();
  localStorage.setItem("koma-settings", JSON.stringify({ variant: s.variant, seats: s.seats, limit: $("limit").value }));
  const clocks = JSON.parse(localStorage.getItem("koma-clock") || "{}");
  clocks[games[s.variant].look.chess ? "chess" : "shogi"] = $("clock").value;
  localStorage.setItem("koma-clock", JSON.stringify(clocks));
  localStorage.setItem("koma-rules", JSON.stringify({ ...JSON.parse(localStorage.getItem("koma-rules") || "{}"), ...s.rules }));
  info = null; first = null; sel = null;
  flipped = s.seats.b === "koma" && s.seats.w === "human";
  send({ type: "new", ...s, ...extra });
}

function restoreSettings() {
  const s = JSON.parse(localStorage.getItem("koma-settings") || "null");
  const q = new URLSearchParams(location.search);
  if (s) {
    if (games[s.variant]) $("variant").value = s.variant;
    $("seat-b").value = s.seats.b; $("seat-w").value = s.seats.w;
  }
  if (q.get("variant") && games[q.get("variant")]) $("variant").value = q.get("variant");
  showRules();
}

function gameId() {
  return new URLSearchParams(location.hash.slice(1)).get("game") || localStorage.getItem("koma-game");
}

// One message of the server (also called by the browser tests with hand-made ones).
function receive(msg) {
  if (msg.type === "hello") {
    hello = msg;
    games = Object.fromEntries(msg.games.map((g) => [g.name, g]));
    const sel = $("variant");
    const chosen = sel.value;
    sel.replaceChildren();
    for (const g of msg.games) { const o = document.createElement("option"); o.value = g.name; o.textContent = g.title; sel.appendChild(o); }
    if (game) { if (games[chosen]) sel.value = chosen; showRules(); } else restoreSettings();
    const id = game ? game.game : gameId();
    if (id) send({ type: "join", game: id }); else newGame();
  } else if (msg.type === "state") {
    const changed = !game || game.game !== msg.game || game.moves.length !== msg.moves.length;
    if (changed) { sel = null; first = null; }
    resetView(game, msg);
    // koma's last words are about a position that is gone after a new game, an undo
    // or a pasted position.
    if (!game || game.game !== msg.game || msg.start !== game.start || msg.moves.length < game.moves.length) info = null;
    if (!game || game.game !== msg.game) flipped = msg.seats.b === "koma" && msg.seats.w === "human";
    if (!game || game.state.sfen !== msg.state.sfen || game.game !== msg.game) { hideExplore(); exploring = null; }
    game = msg;
    clockAt = performance.now();
    if (reportOnLoad && msg.moves.join(" ") === reportOnLoad.join(" ")) { reportOnLoad = null; askReport(msg, send); }
    history.replaceState(null, "", `#game=${msg.game}`);
    localStorage.setItem("koma-game", msg.game);
    document.body.dataset.variant = msg.variant;
    document.body.dataset.files = String(games[msg.variant] ? games[msg.variant].files : "");
    document.body.dataset.ply = String(msg.moves.length);
    const searched = info && info.time !== undefined ? info.time : 0;
    render();
    if (!$("howto").hidden) openHowto();
    if (sentAt !== null && !msg.thinking && msg.seats[msg.state.side] === "human" && msg.moves.length > 0) {
      const t0 = sentAt;
      sentAt = null;
      requestAnimationFrame(() => timings.push(performance.now() - t0 - searched));
    }
  } else if (msg.type === "thinking") {
    if (game) {
      game.thinking = msg.thinking;
      if (msg.thinking) info = null;
      if (msg.clock !== undefined) { game.clock = msg.clock; clockAt = performance.now(); }
      render();
    }
  } else if (msg.type === "info") {
    info = msg.best ? { ...(info || {}), best: msg.best } : msg;
    if (msg.best && game) showHint(msg.best);
    if (game) { renderInfo(games[game.variant]); renderGraph(); }
  } else if (msg.type === "explore") {
    if (!game || msg.sfen !== game.state.sfen) return; // about a position no longer shown
    exploring = null;
    showExplore(msg, showHint);
    render();
  } else if (msg.type === "report") {
    if (game) { reportAnswer(msg, game, games[game.variant].players); render(); }
  } else if (msg.type === "record" || msg.type === "load") {
    recordAnswer(msg);
  } else if (msg.type === "error") {
    if (msg.code === "no-game") { localStorage.removeItem("koma-game"); history.replaceState(null, "", "#"); newGame(); return; }
    if (exploring !== null) { exploring = null; hideExplore(); if (game) render(); }
    // A report that could not be made says so beside its button.
    if (/game report/.test(msg.message)) { reportFailed(msg.message); if (game) render(); return; }
    say(msg.message, "error");
  }
}

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => { say("Connection lost; reconnecting…", "error"); setTimeout(connect, 1000); };
}

function explore() {
  if (!canExplore(game, gameHelp(game.variant))) return;
  exploring = game.state.sfen;
  showExplore(null);
  send(exploreRequest(game));
  render();
}

let howtoShown = null; // the game and switches the panel shows

function openHowto() {
  const variant = game ? game.variant : $("variant").value;
  const g = games[variant];
  if (!g) return;
  const rules = game && game.variant === variant ? game.rules : null;
  const key = JSON.stringify([variant, rules]);
  if (key !== howtoShown || $("howto").hidden) {
    howtoShown = key;
    whenHowto(() => showHowto(variant, g, rules));
  }
  // Below the header, so that its menus stay in reach.
  const bottom = Math.max(0, document.querySelector("header").getBoundingClientRect().bottom);
  document.documentElement.style.setProperty("--header-height", `${bottom}px`);
  $("howto").hidden = false;
  $("howto-open").setAttribute("aria-expanded", "true");
}

function closeHowto() {
  $("howto").hidden = true;
  $("howto-open").setAttribute("aria-expanded", "false");
}

function copy(text, what) {
  const done = () => say(`${what} copied.`);
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => say(text));
  else say(text);
}

function moveText() {
  const pos = game.start ? `position sfen ${game.start}` : "position startpos";
  return game.moves.length ? `${pos} moves ${game.moves.join(" ")}` : pos;
}

// What the page shows, for the browser tests to read (they play by clicking).
window.koma = { game: () => game, notice: () => notice, timings: () => timings, hello: () => hello, receive,
  shown: () => (game ? { ply: viewedPly(game), sfen: viewedSfen(game) } : null) };

window.addEventListener("DOMContentLoaded", () => {
  $("board").addEventListener("click", (e) => {
    const g = e.target.closest("[data-sq]");
    if (g) clickSquare(g.dataset.sq);
  });
  for (const id of ["hand-top", "hand-bottom"]) {
    $(id).addEventListener("click", (e) => {
      const b = e.target.closest("[data-letter]");
      if (b) clickHand(b.dataset.hand, b.dataset.letter);
    });
  }
  $("variant").onchange = showRules;
  $("clock").onchange = () => showLimits(games[$("variant").value]);
  setInterval(renderClocks, 100);
  $("new").onclick = () => newGame();
  $("undo").onclick = () => { first = null; sel = null; send({ type: "undo" }); };
  $("pause").onclick = () => send({ type: "pause", paused: !game.paused });
  $("stop").onclick = () => send({ type: "stop" });
  $("analyse").onclick = () => send({ type: "analyse" });
  $("explore-go").onclick = explore;
  $("howto-open").onclick = () => { if ($("howto").hidden) openHowto(); else closeHowto(); };
  $("howto-close").onclick = closeHowto;
  $("settings").addEventListener("submit", (e) => e.preventDefault());
  $("seats").onclick = () => { const s = settings(); send({ type: "seats", seats: s.seats, limit: s.limit }); };
  $("flip").onclick = () => { flipped = !flipped; render(); };
  $("pass").onclick = pass;
  $("cancel-bond").onclick = cancelBond;
  $("choice-cancel").onclick = () => { $("choice").hidden = true; sel = null; render(); };
  $("copy-sfen").onclick = () => copy(game.state.sfen, "SFEN");
  $("copy-moves").onclick = () => copy(moveText(), "Moves");
  $("paste-go").onclick = () => send({ type: "paste", text: $("paste").value });
  initRecords({ send, say, games: () => games, hello: () => hello, newGame, wantReport: (moves) => { reportOnLoad = moves; } });
  $("report-go").onclick = () => { if (game) { askReport(game, send); render(); } };
  initBrowse({ game: () => game, render, send, say, clear: () => { sel = null; first = null; } });
  $("piece-style").onchange = () => { pieceStyle = $("piece-style").value; localStorage.setItem("koma-pieces", pieceStyle); render(); };
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (!$("howto").hidden) { closeHowto(); return; }
    sel = null;
    if (first !== null) cancelBond(); else if (game) render();
  });
  // The rules panel's data; the scores' wording waits for it ("mate" or "win").
  loadHowto().then(() => { if (game) render(); });
  connect();
});

// Browsing a game: the move list (numbered move pairs for a game shown as chess, one
// numbered move a line for the others), a past position shown by clicking one of its
// moves, by the ⏮ ◀ ▶ ⏭ buttons or the ← → Home End keys, and a branch played from a past
// position with the game it left kept as the main line (one level). The positions come
// from the server (`state.positions`, the SFEN before each move and after the last); a
// game whose setup is hidden has none and is not browsed.

import { markItem } from "./report.js";

const $ = (id) => document.getElementById(id);

let page = null;       // from app.js: {game, render, send, say, clear}
let view = null;       // the ply shown; null: the game as it is now
let mainline = null;   // the game a branch left: {moves, start, at (the ply it was left at)}
let branching = null;  // that game, until the branch's first state comes
let returning = null;  // the ply to show when the main line comes back

// The notations the page offers: the engine's tokens and the game's own (state.names).
const STYLE_WORDS = { usi: "engine tokens (7g7f)", san: "chess (SAN: e4, Nf3)", kif: "Japanese (☗７六歩)", western: "Western (P-7f)" };

// The style the moves are written in for `game`: the player's choice for its game, else
// the game's own (its first named style), else the engine's tokens.
export function noteStyle(game) {
  const styles = Object.keys(game.names || {});
  const chosen = JSON.parse(localStorage.getItem("koma-notation") || "{}")[game.variant];
  if (chosen === "usi" || styles.includes(chosen)) return chosen;
  return styles[0] || "usi";
}

// `line` (tokens) written in the style shown, from `names` (the server's names of the
// same line by style); a token without its name stays a token.
export function written(line, names, game) {
  const style = noteStyle(game);
  const shown = (names && names[style]) || [];
  return line.map((t, i) => shown[i] || t);
}

// The ply shown (the number of moves played before the position shown).
export function viewedPly(game) {
  if (view === null || !game.positions) return game.moves.length;
  return Math.min(view, game.moves.length);
}

export function viewedSfen(game) {
  const ply = viewedPly(game);
  return ply === game.moves.length ? game.state.sfen : game.positions[ply];
}

// Called with the game shown and the next `state` before the page takes it.
export function resetView(old, msg) {
  if (!old || old.game !== msg.game) {
    // A branch keeps the line it left; any other game (the main line back included) not.
    mainline = branching;
    view = returning;
    branching = null;
    returning = null;
    return;
  }
  if (msg.start !== old.start || (view !== null && view >= msg.moves.length)) view = null;
}

// Shows ply `ply` (clamped to the game).
export function stepTo(ply) {
  const game = page.game();
  if (!game || !game.positions) return;
  const n = game.moves.length;
  const to = Math.max(0, Math.min(n, ply));
  view = to === n ? null : to;
  page.clear();
  page.say("");
  page.render();
}

function moveItem(token, text, ply, current) {
  const b = document.createElement("span");
  b.className = "mv" + (current ? " current" : "");
  b.dataset.ply = String(ply);
  b.dataset.move = token;
  // A placement of koma's that the hidden setup does not show yet.
  if (token === "?") { b.textContent = "? (hidden)"; b.classList.add("hidden-move"); } else b.textContent = text;
  return b;
}

// The notation switch: the styles the game's moves are named in.
function showStyles(game) {
  const box = $("notation");
  const styles = ["usi", ...Object.keys(game.names || {})];
  if (box.dataset.styles !== styles.join(" ")) {
    box.dataset.styles = styles.join(" ");
    box.replaceChildren();
    for (const st of styles) {
      const o = document.createElement("option");
      o.value = st;
      o.textContent = STYLE_WORDS[st] || st;
      box.appendChild(o);
    }
  }
  box.value = noteStyle(game);
  $("notation-label").hidden = styles.length < 2;
}

function number(text) {
  const n = document.createElement("span");
  n.className = "num";
  n.textContent = text;
  return n;
}

// The moves `moves` (the first played at ply `from`, by `first` "b" or "w") into `list`:
// in pairs for chess, else one a line; `shown` is the ply shown; the game report's marks
// beside the moves of `game` (null: none).
function fill(list, moves, texts, from, firstSide, chess, shown, game = null) {
  let li = null;
  moves.forEach((m, i) => {
    const ply = from + i + 1;
    const k = from + i + (firstSide === "w" ? 1 : 0);
    if (!chess) {
      li = document.createElement("li");
      li.appendChild(number(`${ply}.`));
    } else if (k % 2 === 0 || li === null) {
      li = document.createElement("li");
      li.appendChild(number(`${Math.floor(k / 2) + 1}.`));
      if (k % 2 === 1) li.appendChild(number("…"));
    }
    const item = moveItem(m, texts[i], ply, ply === shown);
    const mark = game && markItem(game, ply);
    if (mark) item.appendChild(mark);
    li.appendChild(item);
    if (li.parentNode !== list) list.appendChild(li);
  });
}

// The move list, the buttons and the main line, for `game` (its `hello` entry `g`).
export function renderMoves(game, g) {
  const list = $("movelist");
  const shown = viewedPly(game);
  const firstSide = game.start && game.start.split(" ")[1] === "w" ? "w" : "b";
  list.replaceChildren();
  list.classList.toggle("pairs", !!g.look.chess);
  fill(list, game.moves, written(game.moves, game.names, game), 0, firstSide, g.look.chess, shown, game);
  showStyles(game);
  const cur = list.querySelector(".current");
  if (cur) list.scrollTop = cur.offsetTop - list.clientHeight / 2;
  else list.scrollTop = list.scrollHeight;
  const n = game.moves.length;
  const browsable = !!game.positions;
  $("nav-first").disabled = !browsable || shown === 0;
  $("nav-prev").disabled = !browsable || shown === 0;
  $("nav-next").disabled = !browsable || shown === n;
  $("nav-last").disabled = !browsable || shown === n;
  $("branch").hidden = !browsable || shown === n;
  document.body.dataset.shown = String(shown);
  const box = $("mainline");
  box.replaceChildren();
  box.hidden = !mainline;
  if (mainline) {
    const head = document.createElement("p");
    head.textContent = `Main line, left after move ${mainline.at}:`;
    const back = document.createElement("button");
    back.type = "button";
    back.id = "mainline-back";
    back.textContent = "Back to the main line";
    back.onclick = () => backToMain(mainline.at);
    head.append(" ", back);
    const ol = document.createElement("ol");
    ol.className = "mainline-moves" + (g.look.chess ? " pairs" : "");
    const names = written(mainline.moves, mainline.names, game).slice(mainline.at);
    fill(ol, mainline.moves.slice(mainline.at), names, mainline.at, firstSide, g.look.chess, -1);
    box.append(head, ol);
  }
}

// Starts a branch from the position shown: a game of the moves so far, the same players
// and time; the game left is kept as the main line (a branch of a branch keeps the first).
export function branchFrom() {
  const game = page.game();
  const ply = viewedPly(game);
  if (!game || !game.positions || ply === game.moves.length) return;
  branching = mainline ? { ...mainline, at: Math.min(mainline.at, ply) } : { moves: game.moves.slice(), names: game.names, start: game.start, at: ply };
  page.clear();
  page.send({ type: "new", variant: game.variant, rules: game.rules, seats: game.seats, limit: game.limit,
    clock: game.clock ? game.clock.control : undefined, sfen: game.start || undefined, moves: game.moves.slice(0, ply) });
  page.say(`A branch from move ${ply}: the main line is kept below the moves.`);
}

// The main line again, shown at ply `at`.
function backToMain(at) {
  const game = page.game();
  if (!mainline || !game) return;
  returning = at;
  page.clear();
  page.send({ type: "new", variant: game.variant, rules: game.rules, seats: game.seats, limit: game.limit,
    clock: game.clock ? game.clock.control : undefined, sfen: mainline.start || undefined, moves: mainline.moves });
}

export function initBrowse(p) {
  page = p;
  $("movelist").addEventListener("click", (e) => {
    const m = e.target.closest("[data-ply]");
    if (m) stepTo(Number(m.dataset.ply));
  });
  $("mainline").addEventListener("click", (e) => {
    const m = e.target.closest(".mainline-moves [data-ply]");
    if (m) backToMain(Number(m.dataset.ply));
  });
  $("nav-first").onclick = () => stepTo(0);
  $("nav-prev").onclick = () => stepTo(viewedPly(page.game()) - 1);
  $("nav-next").onclick = () => stepTo(viewedPly(page.game()) + 1);
  $("nav-last").onclick = () => stepTo(Infinity);
  $("branch").onclick = branchFrom;
  $("notation").onchange = () => {
    const game = page.game();
    const chosen = JSON.parse(localStorage.getItem("koma-notation") || "{}");
    chosen[game.variant] = $("notation").value;
    localStorage.setItem("koma-notation", JSON.stringify(chosen));
    page.render();
  };
  document.addEventListener("keydown", (e) => {
    if (!page.game() || e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) stepTo(viewedPly(page.game()) + keys[e.key]);
    else if (e.key === "Home") stepTo(0);
    else if (e.key === "End") stepTo(Infinity);
    else return;
    e.preventDefault();
  });
}

// The "How to play" panel: the game's section of protocol/rules.md (served by /howto.json,
// embedded in the binary) and how each piece moves, on small boards the engine filled in
// (src/serve/howto.rs). The Markdown is rendered minimally and only ever as text nodes.

import { readBoard, drawBoard } from "./board.js";
import { ruleWords } from "./words.js";

let howto = null; // name -> {rules, checkmate, pieces, exact}
const waiting = [];

export function loadHowto() {
  return fetch("/howto.json")
    .then((r) => r.json())
    .then((d) => {
      howto = Object.fromEntries(d.games.map((g) => [g.name, g]));
      while (waiting.length) waiting.shift()();
    })
    .catch(() => { howto = {}; });
}

// What the panel knows of a game ({} until /howto.json has come).
export function gameHelp(variant) {
  return (howto && howto[variant]) || {};
}

// Calls `f` once /howto.json has come (at once if it has).
export function whenHowto(f) {
  if (howto) f(); else waiting.push(f);
}

const $ = (id) => document.getElementById(id);

function node(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// Inline Markdown: **bold**, `code` and [text](link) (shown as its text); the rest as is.
function inline(parent, text) {
  const re = /\*\*([^*]+)\*\*|`([^`]+)`|\[([^\]]+)\]\([^)]*\)/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) parent.appendChild(document.createTextNode(text.slice(at, m.index)));
    if (m[1] !== undefined) inline(parent.appendChild(node("strong")), m[1]);
    else if (m[2] !== undefined) parent.appendChild(node("code", m[2]));
    else parent.appendChild(document.createTextNode(m[3]));
    at = m.index + m[0].length;
  }
  if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
}

// Blocks of the section: {kind: "h"|"p"|"li", depth, text}, continuation lines joined.
export function blocks(md) {
  const out = [];
  let open = null;
  for (const line of md.split("\n")) {
    const bullet = /^(\s*)(?:- |\d+\. )(.*)$/.exec(line);
    if (/^#+ /.test(line)) { open = null; out.push({ kind: "h", depth: 0, text: line.replace(/^#+ /, "") }); }
    else if (line.trim() === "") open = null;
    else if (bullet) { open = { kind: "li", depth: Math.floor(bullet[1].length / 2), text: bullet[2] }; out.push(open); }
    else if (open) open.text += " " + line.trim();
    else { open = { kind: "p", depth: 0, text: line.trim() }; out.push(open); }
  }
  return out;
}

function renderMarkdown(box, md) {
  let list = null;
  for (const b of blocks(md)) {
    if (b.kind === "li") {
      if (!list) { list = node("ul"); box.appendChild(list); }
      const li = node("li");
      if (b.depth > 0) li.className = "nested";
      inline(li, b.text);
      list.appendChild(li);
      continue;
    }
    list = null;
    const e = node(b.kind === "h" ? "h3" : "p");
    inline(e, b.text);
    box.appendChild(e);
  }
}

// The winning rules: the bullets of the section that say how a game is won or ends, each
// with the bullets nested under it (a numbered list of winning rules).
export function winning(md) {
  const out = [];
  let open = null;
  for (const b of blocks(md)) {
    if (b.kind !== "li") { open = null; continue; }
    if (b.depth === 0) open = /^\*\*(Winning|Other ends|Draws)/.test(b.text) ? b : null;
    if (open) out.push(b);
  }
  return out;
}

// A rule in a player's words: the engine's words (the protocol's tokens and `result`
// lines in backquotes, sentences about SFEN) left out; the bracketed [decided] notes too.
export function playerWords(text) {
  const kept = text
    .replace(/\s*\([^()]*`[^()]*\)/g, "")
    .replace(/\s*\[[a-z ]+\]/g, "")
    .split(/(?<=\.)\s+/)
    .filter((s) => !/SFEN|`/.test(s));
  return kept.join(" ");
}

function pieceBoards(box, g, pieces) {
  for (const p of pieces) {
    const fig = node("figure", undefined, "howto-piece");
    fig.dataset.piece = p.piece;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    drawBoard(svg, { look: g.look, files: g.files, ranks: g.ranks, pieces: readBoard(p.sfen.split(" ")[0], g.files),
      flipped: false, selected: p.square, targets: new Set(p.targets), movable: new Set(), last: [] });
    fig.appendChild(svg);
    fig.appendChild(node("figcaption", `${p.piece} on ${p.square}: ${p.targets.length} ${p.targets.length === 1 ? "square" : "squares"}`));
    box.appendChild(fig);
  }
}

// Fills the panel for `variant` (g: its `hello` entry; rules: the switches in play).
export function showHowto(variant, g, rules) {
  const box = $("howto-body");
  box.replaceChildren();
  $("howto-title").textContent = `How to play ${g.title}`;
  const h = gameHelp(variant);
  if (!h.rules) { box.appendChild(node("p", "The rules could not be loaded.")); return; }
  box.appendChild(node("h3", "How the game is won"));
  const win = node("ul", undefined, "howto-win");
  for (const b of winning(h.rules)) {
    const li = node("li");
    if (b.depth > 0) li.className = "nested";
    inline(li, playerWords(b.text));
    win.appendChild(li);
  }
  box.appendChild(win);
  box.appendChild(node("h3", "Rules chosen for this game"));
  const sw = node("ul", undefined, "howto-switches");
  if (!g.rules.length) sw.appendChild(node("li", "none: this game has no rules switches"));
  for (const r of g.rules) {
    const value = rules && rules[r.name] !== undefined ? rules[r.name] : r.default;
    const w = ruleWords(r);
    const li = node("li", `${w.label}: ${w.values[value] || value}${value === r.default ? " (the default)" : ""}`);
    li.title = `${r.name} = ${value}`;
    li.dataset.switch = r.name;
    sw.appendChild(li);
  }
  box.appendChild(sw);
  box.appendChild(node("h3", "How the pieces move"));
  box.appendChild(node("p", "Each piece on an otherwise quiet board; the dots are the squares the engine lets it go to.", "howto-note"));
  const grid = node("div", undefined, "howto-pieces");
  pieceBoards(grid, g, h.pieces || []);
  box.appendChild(grid);
  box.appendChild(node("h3", "The rules in full"));
  // The engine's contract, with its notation: folded away, for those who want every detail.
  const fold = node("details");
  fold.appendChild(node("summary", "Every rule as koma plays it, with its notation (protocol/rules.md)"));
  const full = node("div", undefined, "howto-rules");
  renderMarkdown(full, h.rules);
  fold.appendChild(full);
  box.appendChild(fold);
}

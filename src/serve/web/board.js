// The board: reads an SFEN board field and draws it as SVG. Its edges carry the
// protocol's coordinates (file 1 on the right, rank a at the top, as `d` prints them), the
// ranks as kanji numerals when the pieces are kanji, or a chess board's (files a-h from the
// left, ranks 1-8 from the bottom) for a game shown as chess; the squares keep the
// protocol's names.

import { el, drawPiece } from "./pieces.js";

export const CELL = 60;
const MARGIN = 26;

// The pieces of an SFEN board field: {"5d": {letter, promoted}}.
export function readBoard(field, files) {
  const out = {};
  field.split("/").forEach((row, r) => {
    let file = files;
    let promoted = false;
    for (let i = 0; i < row.length; i++) {
      const ch = row[i];
      if (ch === "+") { promoted = true; continue; }
      if (ch >= "0" && ch <= "9") {
        let n = ch;
        while (i + 1 < row.length && row[i + 1] >= "0" && row[i + 1] <= "9") n += row[++i];
        file -= Number(n);
        continue;
      }
      out[`${file}${String.fromCharCode(97 + r)}`] = { letter: ch, promoted };
      promoted = false;
      file -= 1;
    }
  });
  return out;
}

// Hands as [[letter, count]] from a field such as "2PB" (or "-").
export function readHand(field) {
  const out = [];
  if (!field || field === "-") return out;
  let count = "";
  for (const ch of field) {
    if (ch >= "0" && ch <= "9") count += ch;
    else { out.push([ch, count ? Number(count) : 1]); count = ""; }
  }
  return out;
}

const WATER = "#a9d8ef", WAVES = "#5aa6cf";
const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

// The names on the board's edges of file `f` and rank `r` (0 at the top), as `coords`
// ("chess", "kanji" or "usi") writes them.
export function edgeNames(coords, files, ranks, f, r) {
  if (coords === "chess") return [String.fromCharCode(97 + files - f), String(ranks - r)];
  return [String(f), coords === "kanji" ? NUMERALS[r] : String.fromCharCode(97 + r)];
}

// Draws the board into `svg`. view: {look (the game's `look` in `hello`), files, ranks,
// pieces, flipped, selected, targets (Set of squares), movable (Set), last (squares of
// the last move), coords (see edgeNames), faces (kanji pieces: see drawPiece)}.
export function drawBoard(svg, view) {
  const { look, files, ranks } = view;
  const water = look.water ? look.water.file : null;
  const tints = new Map(look.tinted);
  svg.replaceChildren();
  const W = files * CELL + 2 * MARGIN, H = ranks * CELL + 2 * MARGIN;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#f7f1e3", rx: 6 }, svg);
  const col = (f) => (view.flipped ? f - 1 : files - f);
  const row = (r) => (view.flipped ? ranks - 1 - r : r);
  // A chess board is lettered along the bottom and numbered on the left.
  const chess = view.coords === "chess";
  const name = (f, r) => edgeNames(view.coords, files, ranks, f, r);
  for (let f = 1; f <= files; f++) {
    const x = MARGIN + col(f) * CELL + CELL / 2;
    const t = el("text", { x, y: chess ? H - 13 : 14, class: "coord file", "text-anchor": "middle", "dominant-baseline": "central" }, svg);
    t.textContent = name(f, 0)[0];
  }
  for (let r = 0; r < ranks; r++) {
    const y = MARGIN + row(r) * CELL + CELL / 2;
    const t = el("text", { x: chess ? 12 : W - 12, y, class: "coord rank", "text-anchor": "middle", "dominant-baseline": "central" }, svg);
    t.textContent = name(1, r)[1];
  }
  for (let f = 1; f <= files; f++) {
    for (let r = 0; r < ranks; r++) {
      const sq = `${f}${String.fromCharCode(97 + r)}`;
      const x = MARGIN + col(f) * CELL, y = MARGIN + row(r) * CELL;
      const g = el("g", { "data-sq": sq, class: "sq", transform: `translate(${x},${y})` }, svg);
      const fill = f === water ? WATER : tints.get(f) || ((f + r) % 2 === 0 ? look.light : look.dark);
      el("rect", { width: CELL, height: CELL, fill, stroke: look.line, "stroke-width": 1 }, g);
      if (f === water) {
        for (const dy of [18, 40]) {
          el("path", { d: `M6,${dy} q6,-5 12,0 t12,0 t12,0 t12,0`, stroke: WAVES, "stroke-width": 1.5, fill: "none" }, g);
        }
      }
      if (view.last && view.last.includes(sq)) el("rect", { width: CELL, height: CELL, class: "last" }, g);
      if (view.selected === sq) el("rect", { width: CELL, height: CELL, class: "selected" }, g);
      if (view.movable && view.movable.has(sq)) el("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, class: "movable" }, g);
      const p = view.pieces[sq];
      if (p) {
        const holder = el("g", { transform: `translate(${CELL / 2},${CELL / 2})` }, g);
        const shown = drawPiece(holder, look.pieces, p.letter, p.promoted, view.faces);
        if (view.flipped && look.pointed) shown.setAttribute("transform", "rotate(180)");
      }
      if (view.targets && view.targets.has(sq)) {
        el("circle", { cx: CELL / 2, cy: CELL / 2, r: p ? 26 : 9, class: p ? "target capture" : "target" }, g);
      }
    }
  }
  if (look.water) {
    const t = el("text", { x: MARGIN + col(water) * CELL + CELL / 2, y: H - 9, class: "coord river", "text-anchor": "middle" }, svg);
    t.textContent = look.water.name;
  }
  const centre = (sq) => {
    const m = /^(\d+)([a-z])$/.exec(sq);
    if (!m) return null;
    return [MARGIN + col(Number(m[1])) * CELL + CELL / 2, MARGIN + row(m[2].charCodeAt(0) - 97) * CELL + CELL / 2];
  };
  for (const a of view.arrows || []) drawArrow(svg, a, centre);
}

// A suggested move drawn over the board: an arrow from its square to its target, or for
// a drop (from "P*") a ring on the target with the dropped letter. `a.second` marks the
// bond move of a crab turn (drawn dashed).
function drawArrow(svg, a, centre) {
  const to = centre(a.to);
  if (!to) return;
  const g = el("g", { class: `arrow${a.second ? " second" : ""}`, "data-arrow": `${a.from}${a.to}` }, svg);
  const from = a.from.endsWith("*") ? null : centre(a.from);
  if (!from) {
    el("circle", { cx: to[0], cy: to[1], r: CELL * 0.42 }, g);
    const t = el("text", { x: to[0] + CELL * 0.3, y: to[1] - CELL * 0.3, "text-anchor": "middle", "dominant-baseline": "central" }, g);
    t.textContent = a.from.replace("*", "");
    return;
  }
  const [x1, y1] = from, [x2, y2] = to;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const head = CELL * 0.32, tipX = x2 - ux * CELL * 0.12, tipY = y2 - uy * CELL * 0.12;
  const baseX = tipX - ux * head, baseY = tipY - uy * head;
  el("line", { x1: x1 + ux * CELL * 0.15, y1: y1 + uy * CELL * 0.15, x2: baseX, y2: baseY }, g);
  const w = head * 0.6;
  el("polygon", { points: `${tipX},${tipY} ${baseX - uy * w},${baseY + ux * w} ${baseX + uy * w},${baseY - ux * w}` }, g);
}

// Draws one side's hand into `box` (a div): buttons with a piece (drawn in `style`, the
// game's `look.pieces`, with `faces` as on the board) and its count.
export function drawHand(box, style, letters, owner, selected, droppable, faces = null) {
  box.replaceChildren();
  for (const [letter, count] of letters) {
    const up = letter.toUpperCase();
    const b = document.createElement("button");
    b.className = "handpiece" + (selected === up ? " selected" : "") + (droppable.has(up) ? " droppable" : "");
    b.dataset.hand = owner;
    b.dataset.letter = up;
    const svg = el("svg", { viewBox: "-30 -30 60 60", width: 44, height: 44 });
    drawPiece(svg, style, owner === "b" ? up : up.toLowerCase(), false, faces);
    b.appendChild(svg);
    if (count > 1) {
      const c = document.createElement("span");
      c.className = "count";
      c.textContent = `×${count}`;
      b.appendChild(c);
    }
    box.appendChild(b);
  }
}

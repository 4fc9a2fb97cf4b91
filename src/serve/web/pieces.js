// Piece pictures, drawn as SVG in a cell of 60x60 units centred on 0,0, in the style a
// game's `look.pieces` names (`hello`). Nothing here knows a rule: it draws the SFEN
// letter it is given.

const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function text(g, x, y, s, size, fill, weight = "bold") {
  const t = el("text", { x, y, "font-size": size, fill, "text-anchor": "middle", "dominant-baseline": "central",
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif", "font-weight": weight }, g);
  t.textContent = s;
  return t;
}

const KANJI_FONT = "'Yu Mincho', 'Hiragino Mincho ProN', 'Noto Serif CJK JP', 'IPAMincho', 'IPAexMincho', " +
  "'Noto Sans CJK JP', 'IPAGothic', serif";

// The kanji a piece shows in `kanji` (`hello`'s `look.kanji`: SFEN text to [one character,
// two characters]), `chars` 1 or 2; null when the game has none for it.
export function kanjiOf(kanji, letter, promoted, chars) {
  if (!kanji) return null;
  const up = (promoted ? "+" : "") + letter.toUpperCase();
  // Gote's king has a name of its own (王 where sente's is 玉).
  const names = (letter === "k" && kanji.k) || kanji[up];
  return names ? names[chars === 2 ? 1 : 0] : null;
}

// Kanji on a piece: one large character, or two stacked as printed on a set.
function kanjiText(body, name, promoted) {
  const fill = promoted ? "#b3121f" : "#1b1b1b";
  const chars = [...name];
  const put = (y, s, size) => {
    const t = text(body, 0, y, s, size, fill, "normal");
    t.setAttribute("font-family", KANJI_FONT);
    t.setAttribute("class", "kanji");
  };
  if (chars.length === 1) put(3, name, 28);
  else { put(-7, chars[0], 18); put(13, chars[1], 18); }
}

// A shogi piece: a pentagon pointing at the opponent, with its kanji (`face`), its letter
// or its value (`numbers`: a turned piece shows the "8" and its face value).
function shogi(g, numbers, letter, promoted, owner, face) {
  const body = el("g", owner === "w" ? { transform: "rotate(180)" } : {}, g);
  el("path", { d: "M0,-26 L17,-19 L22,25 L-22,25 L-17,-19 Z", fill: "#f5dfae", stroke: "#5b3f17",
    "stroke-width": 1.6, "stroke-linejoin": "round" }, body);
  if (face) {
    kanjiText(body, face, promoted);
  } else if (numbers) {
    const value = letter.toUpperCase().charCodeAt(0) - 64;
    if (promoted) {
      text(body, 0, 2, "8", 30, "#b3121f");
      text(body, 12, 17, String(value), 11, "#222");
    } else {
      text(body, 0, 3, String(value), 30, "#1b1b1b");
      // Turned round for gote, a 6 would read as 9: a bar under it, as on printed sets.
      if (value === 6) el("line", { x1: -7, y1: 18, x2: 7, y2: 18, stroke: "#1b1b1b", "stroke-width": 2.5 }, body);
    }
  } else {
    text(body, 0, 3, (promoted ? "+" : "") + letter.toUpperCase(), promoted ? 21 : 26, promoted ? "#b3121f" : "#1b1b1b");
  }
}

// A kokeshi doll: a round head on a body carrying the piece letter; sente is red.
function kokeshi(g, letter, owner) {
  const red = owner === "b";
  const body = red ? "#c0392b" : "#2b2b2b";
  el("rect", { x: -15, y: -6, width: 30, height: 32, rx: 10, fill: body, stroke: "#111", "stroke-width": 1.2 }, g);
  el("circle", { cx: 0, cy: -15, r: 11, fill: "#f6e3c9", stroke: "#111", "stroke-width": 1.2 }, g);
  el("path", { d: "M-11,-16 A11,11 0 0 1 11,-16 Q0,-21 -11,-16 Z", fill: "#111" }, g);
  text(g, 0, 11, letter.toUpperCase(), 20, red ? "#fff6d8" : "#ffd76a");
}

const PIPS = { 1: [[0, 3]], 2: [[-6, 3], [6, 3]], 3: [[-7, 7], [0, -1], [7, 7]], 4: [[-6, -1], [6, -1], [-6, 8], [6, 8]] };

// A crab: body, claws, legs and eyes; a parent wears a crown, a child shows its pips,
// a grown child a golden shell.
function crab(g, letter, promoted, owner, pips) {
  const color = owner === "b" ? "#262626" : "#c62828";
  const up = letter.toUpperCase();
  const parent = pips && up === "K";
  const c = el("g", { transform: `scale(${parent ? 1.06 : 0.96})` }, g);
  for (const side of [-1, 1]) {
    // One half of the crab, mirrored for the other side.
    const h = el("g", { transform: `scale(${side},1)` }, c);
    for (const k of [0, 1, 2]) {
      el("path", { d: `M12,${4 + k * 5} L23,${2 + k * 8} L26,${8 + k * 8}`, stroke: color, "stroke-width": 2.4,
        fill: "none", "stroke-linecap": "round" }, h);
    }
    el("path", { d: "M10,-6 L17,-13", stroke: color, "stroke-width": 3.5, "stroke-linecap": "round" }, h);
    el("path", { d: "M15,-12 C13,-22 22,-27 27,-21 L21,-19 L25,-14 C22,-10 17,-9 15,-12 Z", fill: color }, h);
    el("line", { x1: 5, y1: -8, x2: 6, y2: -15, stroke: color, "stroke-width": 2 }, h);
    el("circle", { cx: 6, cy: -16, r: 2.6, fill: "#fff", stroke: color, "stroke-width": 1.3 }, h);
  }
  el("ellipse", { cx: 0, cy: 3, rx: 16, ry: 12, fill: color, stroke: promoted ? "#e2a400" : "#000",
    "stroke-width": promoted ? 3.5 : 1 }, c);
  if (parent) {
    el("path", { d: "M-8,4 L-8,-4 L-4,0 L0,-6 L4,0 L8,-4 L8,4 Z", fill: "#f4c430", stroke: "#7a5b00", "stroke-width": 0.8 }, c);
  } else if (pips && up >= "A" && up <= "D") {
    for (const [x, y] of PIPS[up.charCodeAt(0) - 64]) el("circle", { cx: x, cy: y - 1, r: 2.6, fill: promoted ? "#f4c430" : "#fff" }, c);
  }
}

// A shrimp (a promoted crab of style `crabs-and-shrimps`): a curled, banded body with a tail fan.
function shrimp(g, owner) {
  const color = owner === "b" ? "#3a3a3a" : "#e0533d";
  const band = owner === "b" ? "#8d8d8d" : "#ffb199";
  el("path", { d: "M-14,-12 C4,-22 22,-8 16,8 C12,18 0,20 -6,14", stroke: color, "stroke-width": 11, fill: "none",
    "stroke-linecap": "round" }, g);
  for (const [x, y] of [[0, -15], [11, -8], [15, 3], [9, 14]]) el("circle", { cx: x, cy: y, r: 1.8, fill: band }, g);
  el("path", { d: "M-6,14 L-18,10 L-14,20 L-19,26 L-6,20 Z", fill: color }, g);
  el("circle", { cx: -14, cy: -13, r: 2.2, fill: "#fff" }, g);
  el("path", { d: "M-16,-15 Q-26,-26 -12,-28 M-14,-16 Q-20,-30 -4,-27", stroke: color, "stroke-width": 1.4, fill: "none" }, g);
  for (const x of [-2, 5, 11]) el("line", { x1: x, y1: -6, x2: x - 3, y2: 2, stroke: color, "stroke-width": 1.6 }, g);
}

// Draws the piece `letter` (SFEN: uppercase sente, lowercase gote) in `style` (letters,
// numbers, kokeshi, crabs, crabs-and-shrimps) into a new group; `faces` ({kanji, chars},
// optional) draws a shogi piece's kanji instead of its letter or value.
export function drawPiece(parent, style, letter, promoted, faces = null) {
  const owner = letter === letter.toUpperCase() ? "b" : "w";
  const g = el("g", { class: "piece" }, parent);
  if (style === "kokeshi") kokeshi(g, letter, owner);
  else if (style === "crabs-and-shrimps" && promoted) shrimp(g, owner);
  else if (style === "crabs" || style === "crabs-and-shrimps") crab(g, letter, promoted, owner, style === "crabs");
  else shogi(g, style === "numbers", letter, promoted, owner, faces ? kanjiOf(faces.kanji, letter, promoted, faces.chars) : null);
  return g;
}

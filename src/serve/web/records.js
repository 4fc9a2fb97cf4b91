// Game records (protocol/records.md). "Save record" asks the server for the game followed
// as a record (`record`, in a format the game saves as, its natural one first) and
// downloads it. "Open record" (the file picker, or a file dropped on the board) sends the
// file's text (`load`) and starts a game from what the server read, through the page's own
// new-game path (its rules, a position and its moves, as a pasted one). Nothing is read
// here but the file's bytes: the server reads the record.

import { gameHelp } from "./howto.js";

const $ = (id) => document.getElementById(id);
const NAMES = { kif: "KIF", rokuroku: "RokuRokuGUI", csa: "CSA", pgn: "PGN", koma: "koma record" };
let page = null;    // from app.js: {send, say, games, hello, newGame}
let saved = null;   // the last record saved, {filename, text}, for the browser tests
let variantShown = null;

// Wires the buttons and the board's drop target; `p` is what the page lends.
export function initRecords(p) {
  page = p;
  $("record-save").onclick = () => page.send({ type: "record", format: $("record-format").value });
  $("record-open").onclick = () => $("record-file").click();
  $("record-file").onchange = () => {
    const file = $("record-file").files[0];
    $("record-file").value = "";
    if (file) openFile(file);
  };
  const play = $("play");
  play.addEventListener("dragover", (e) => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    play.classList.add("dropping");
  });
  play.addEventListener("dragleave", () => play.classList.remove("dropping"));
  play.addEventListener("drop", (e) => {
    play.classList.remove("dropping");
    const file = e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    openFile(file);
  });
  window.komaRecords = { saved: () => saved, openFile };
}

// The formats offered for the game shown (from /howto.json), and whether it can be saved now.
export function showRecords(game) {
  const box = $("record-format");
  const formats = (gameHelp(game.variant) || {}).records || [];
  if (variantShown !== game.variant || box.options.length !== formats.length) {
    variantShown = game.variant;
    box.replaceChildren();
    for (const f of formats) {
      const o = document.createElement("option");
      o.value = f;
      o.textContent = NAMES[f] || f;
      box.appendChild(o);
    }
  }
  // koma's hidden setup is not written out while it is hidden.
  $("record-save").disabled = !!game.hidden || formats.length === 0;
}

function kib(n) { return `${(n / 1024).toFixed(1)} KiB`; }

// A file's text: UTF-8, or else Shift_JIS as older KIF and CSA files are.
function decode(bytes) {
  try { return new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch { return new TextDecoder("shift_jis").decode(bytes); }
}

async function openFile(file) {
  const limit = (page.hello() || {}).max_message || 16384;
  const tooLarge = (n) => page.say(`${file.name} is too large (${kib(n)}): the server reads a record of at most ${kib(limit)}.`, "error");
  // Not even read when it cannot be sent.
  if (file.size > limit) { tooLarge(file.size); return; }
  const msg = { type: "load", text: decode(await file.arrayBuffer()), name: file.name };
  const size = new TextEncoder().encode(JSON.stringify(msg)).length;
  if (size > limit) { tooLarge(size); return; }
  page.say(`Reading ${file.name}…`);
  page.send(msg);
}

// The server's `record` (a record to download) or `load` (a record read) answer.
export function recordAnswer(msg) {
  if (msg.type === "record") download(msg);
  else opened(msg);
}

function download(msg) {
  saved = { filename: msg.filename, text: msg.text };
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([msg.text], { type: "text/plain;charset=utf-8" }));
  a.download = msg.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  page.say(`Saved ${msg.filename} (${NAMES[msg.format] || msg.format}).`);
}

function resultText(result, players) {
  if (!result) return "not finished";
  const who = result.winner ? `${players[result.winner === "b" ? 0 : 1]} won` : "a draw";
  return result.rule ? `${who} (${result.rule})` : who;
}

// A record read: its game is started with both sides played by hand, under the record's
// rules switches (`msg.rules`: those not at their defaults; the others at their defaults),
// so that it can be stepped back and analysed.
function opened(msg) {
  const g = page.games()[msg.variant];
  const rules = msg.rules || {};
  $("variant").value = msg.variant;
  $("variant").dispatchEvent(new Event("change"));
  for (const input of $("rules").querySelectorAll("[data-rule]")) {
    const rule = g.rules.find((r) => r.name === input.dataset.rule);
    if (rule) input.value = rules[rule.name] ?? rule.default;
  }
  $("seat-b").value = "human";
  $("seat-w").value = "human";
  // A record is looked at, not played against the clock; its report is asked at once.
  page.newGame({ sfen: msg.sfen, moves: msg.moves, clock: undefined });
  if (msg.moves.length) page.wantReport(msg.moves);
  const n = msg.moves.length;
  const under = Object.entries(rules).map(([k, v]) => `${k} = ${v}`).join(", ");
  page.say(`Opened ${msg.name || "the record"} (${NAMES[msg.format] || msg.format}): ${n} move${n === 1 ? "" : "s"}, ` +
    `${resultText(msg.result, g.players)}${under ? `, under ${under}` : ""}. ` +
    "Both sides are played by hand: click a move or use ← → to go through it, Analyse asks koma.");
}

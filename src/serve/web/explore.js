// The exact-values view (a tablebase explorer): every legal move of the position with its
// value from the server's solver (`explore`, protocol/serve.md). Offered only in games the
// solver plays and never during a placement (the setups are hidden).

import { valueText } from "./words.js";

const $ = (id) => document.getElementById(id);

// Whether the view can be asked for in this game state (h: the game's /howto.json entry).
export function canExplore(game, h) {
  return !!(game && h && h.exact && game.state.phase === "play" && !game.state.result && !game.hidden);
}

// The request for the position of `game` (its start and moves, as the server keeps them).
export function exploreRequest(game) {
  const req = { type: "explore", variant: game.variant, rules: game.rules || {}, moves: game.moves };
  if (game.start) req.sfen = game.start;
  return req;
}

// Shows an `explore` answer (or "working" while `answer` is null); `pick(move)` is called
// when a move of the list is clicked.
export function showExplore(answer, pick) {
  const box = $("explore");
  box.hidden = false;
  const list = $("explore-moves");
  list.replaceChildren();
  if (!answer) { $("explore-note").textContent = "Solving every move…"; return; }
  const open = answer.moves.filter((m) => m.value === "unknown").length;
  $("explore-note").textContent = open
    ? `${answer.moves.length} moves, ${open} not solved within the server's time (${(answer.ms / 1000).toFixed(1)} s)`
    : `${answer.moves.length} moves, all solved exactly (${(answer.ms / 1000).toFixed(1)} s)`;
  for (const m of answer.moves) {
    const li = document.createElement("li");
    li.className = `value-${m.value}`;
    li.dataset.move = m.move;
    const mv = document.createElement("button");
    mv.type = "button";
    mv.textContent = m.move;
    mv.title = "Show this move on the board";
    mv.onclick = () => pick(m.move);
    const v = document.createElement("span");
    v.textContent = valueText(m);
    li.append(mv, v);
    list.appendChild(li);
  }
}

export function hideExplore() {
  $("explore").hidden = true;
  $("explore-moves").replaceChildren();
}

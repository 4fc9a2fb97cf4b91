// The analysis board: the game report of the game shown (`report`, protocol/serve.md), the
// same as `koma analyse --game`. Its marks (?! inaccuracy, ? mistake, ?? blunder; book and
// forced moves are never marked) go beside the moves in the list, its evaluations into
// the graph beside the board. Asked by "Game report", and at once for a record opened.

const $ = (id) => document.getElementById(id);

export const MARK_SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
export const MARK_COLOURS = { inaccuracy: "#c9a100", mistake: "#e07000", blunder: "#c62828" };

let answer = null;   // the last `report` answer
let asked = null;    // the request waiting for its answer

// The request for `game`'s report (its start and moves as the server keeps them).
export function askReport(game, send) {
  const req = { type: "report", variant: game.variant, rules: game.rules || {}, moves: game.moves.slice() };
  if (game.start) req.sfen = game.start;
  asked = req;
  send(req);
  $("report-note").textContent = `Game report: koma looks at each of the ${game.moves.length} moves again, deeper…`;
}

// Whether a report answer (or request) is of `game`'s moves: the same game and start, its
// moves the game's first ones.
function about(r, game) {
  return !!(r && game && r.variant === game.variant && (r.sfen || null) === (game.start || null) &&
    r.moves.length <= game.moves.length && r.moves.every((m, i) => m === game.moves[i]));
}

export function reportAnswer(msg, game, players) {
  if (!asked || msg.variant !== asked.variant || msg.moves.join(" ") !== asked.moves.join(" ")) return;
  asked = null;
  answer = msg;
  $("report-note").textContent = summaryText(msg.summary, players);
}

// A report that could not be made: no longer waited for, `why` shown.
export function reportFailed(why) {
  asked = null;
  $("report-note").textContent = why;
}

// "Game report — sente: 1 blunder, 2 mistakes; gote: no mistakes."
export function summaryText(summary, players) {
  const side = ([who, t]) => {
    const n = [[t.blunders, "blunder"], [t.mistakes, "mistake"], [t.inaccuracies, "inaccuracy"]]
      .filter(([k]) => k > 0).map(([k, w]) => `${k} ${k === 1 ? w : w === "inaccuracy" ? "inaccuracies" : w + "s"}`);
    return `${players[who === "b" ? 0 : 1]}: ${n.length ? n.join(", ") : "nothing marked"}`;
  };
  return `Game report — ${summary.totals.map(side).join("; ")}.`;
}

// The report's entry for ply `ply` (1 = the first move) of `game`, if it has one.
export function reportOf(game, ply) {
  if (!about(answer, game)) return null;
  return answer.report[ply - 1] || null;
}

// Whether `game` has its report (for the graph), and the report's request is pending.
export function reported(game) {
  return about(answer, game);
}

export function reportPending(game) {
  return about(asked, game);
}

// A score of the report (the first player's view: {cp} or {mate} in plies) as the page's
// evaluations are kept: centipawns, a mate as ±(10000 − plies).
export function senteValue(s) {
  if (!s) return null;
  if (s.mate !== undefined) return s.mate >= 0 ? 10000 - s.mate : -10000 - s.mate;
  return s.cp;
}

// What the report says of move `ply` (`name`: the move as the list writes it; `score`:
// words for a score, app.js's).
export function reportText(r, name, score) {
  const what = r.book ? "a book move, not marked" : r.forced ? "the only move, not marked" :
    r.mark ? `${r.mark} (${MARK_SIGNS[r.mark]}): ${r.loss} points of winning chances lost` : "not marked";
  // The deeper look's value of the move where there was one (the mark's), else the first.
  const played = r.checked && r.checked.eval ? r.checked.eval : r.after;
  const after = played ? `\nafter it ${score(senteValue(played))}` : r.over ? `\n${r.over}` : "";
  const best = r.best && r.best !== r.move ? `\nkoma's move there: ${r.best}, ${score(senteValue(r.best_eval))}` : "";
  return `game report, move ${r.ply} ${name}: ${what}${after}${best}`;
}

// The mark beside a move in the list (a span), or null.
export function markItem(game, ply) {
  const r = reportOf(game, ply);
  if (!r || !r.mark) return null;
  const m = document.createElement("span");
  m.className = `mark mark-${r.mark}`;
  m.textContent = MARK_SIGNS[r.mark];
  m.title = `${r.mark}: ${r.loss} points of winning chances lost; koma's move ${r.best || "?"}`;
  return m;
}

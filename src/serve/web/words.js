// What the page says in words: scores, exact values, levels. Pure functions of their
// arguments, so that they read the same wherever they are shown.

// "1 ply", "3 plies".
export function plies(n) {
  return `${n} ${n === 1 ? "ply" : "plies"}`;
}

// A won game's end: "mate" where the game is won by checkmate (rules.md says which),
// "win" where it is won by another rule (a sum of seven, captured crabs...).
function winWord(checkmate) {
  return checkmate ? "mate" : "win";
}

// koma's evaluation, sente's view (centipawns; a proven end as ±(10000 − plies)).
export function scoreText(sente, players, checkmate) {
  if (sente === null || sente === undefined) return "";
  const who = sente >= 0 ? players[0] : players[1];
  if (Math.abs(sente) > 9000) return `${winWord(checkmate)} in ${plies(10000 - Math.abs(sente))} for ${who}`;
  return `${sente >= 0 ? "+" : "−"}${(Math.abs(sente) / 100).toFixed(2)} (${sente === 0 ? "even" : who + " ahead"})`;
}

// One move's exact value for the side that plays it (an `explore` answer).
export function valueText(v) {
  if (v.value === "win") return `wins in ${plies(v.plies)}`;
  if (v.value === "loss") return `loses in ${plies(v.plies)}`;
  if (v.value === "draw") return "draw";
  return "not solved in time";
}

// The options of the level selector: [value, text], full strength first; none when the
// server offers no levels for the game.
export function levelOptions(levels) {
  if (!Array.isArray(levels) || levels.length === 0) return [];
  const out = [["", "full strength"]];
  for (const l of levels) {
    if (!l || !Number.isInteger(l.level)) continue;
    const name = typeof l.name === "string" && l.name ? l.name : `level ${l.level}`;
    out.push([String(l.level), Number.isFinite(l.elo) ? `${name} (Elo ${Math.round(l.elo)})` : name]);
  }
  return out.length > 1 ? out : [];
}

// The line under the board while the opponent's setup is hidden (state.hidden).
export function hiddenText(hidden, players) {
  if (!hidden) return "";
  const who = players ? players[hidden.side === "b" ? 0 : 1] : "koma";
  const n = hidden.placed;
  return `koma (${who}) has placed ${n} ${n === 1 ? "piece" : "pieces"}, hidden until both setups are done`;
}

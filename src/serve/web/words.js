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

// The one strength menu: [group label, [[value, text]]]. koma at full strength thinks a
// given time a move, or on its clock when the game has one (`clocked`); the weaker levels
// `hello` offers are listed with their Elo (the strongest level is full strength, already
// offered by the times: not listed twice).
export function limitOptions(levels, clocked = false) {
  const times = [[300, "0.3 s"], [1000, "1 s"], [3000, "3 s"], [10000, "10 s"]];
  const full = clocked ? [["movetime:1000", "full strength, on its clock"]] :
    times.map(([ms, t]) => [`movetime:${ms}`, `full strength, ${t} a move`]);
  const out = [["Full strength", full]];
  const rows = (Array.isArray(levels) ? levels : []).filter((l) => l && Number.isInteger(l.level));
  const top = Math.max(...rows.map((l) => l.level));
  const weaker = rows.filter((l) => l.level < top).map((l) => {
    const name = typeof l.name === "string" && l.name ? l.name : `level ${l.level}`;
    return [`level:${l.level}`, Number.isFinite(l.elo) ? `${name} (Elo ${Math.round(l.elo)})` : name];
  });
  if (weaker.length) out.push(["Weaker levels", weaker]);
  return out;
}

// A rules switch in a player's words, as `hello` sends them (`words`: a label, a help
// line, a word for each value); the switch's name where it has none.
export function ruleWords(r) {
  const w = r.words || {};
  return { label: w.label || r.name, help: w.help || "", values: w.values || {} };
}

// The line under the board while the opponent's setup is hidden (state.hidden).
export function hiddenText(hidden, players) {
  if (!hidden) return "";
  const who = players ? players[hidden.side === "b" ? 0 : 1] : "koma";
  const n = hidden.placed;
  return `koma (${who}) has placed ${n} ${n === 1 ? "piece" : "pieces"}, hidden until both setups are done`;
}

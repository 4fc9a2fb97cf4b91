// The game's clocks as the page shows them. The server keeps the clock (state.clock: each
// side's main time and byoyomi periods left, the running side and the ms it has used so
// far); the page counts the running side down from the moment that message came.

// The time controls offered: byoyomi for the shogi games, an increment a move for a game
// shown as chess. [value, text]; the value "main:byoyomi:periods:increment" (ms); "" none.
export function clockOptions(chess) {
  const min = 60000, s = 1000;
  const rows = chess
    ? [[1, 1], [3, 2], [5, 3], [10, 5], [15, 10]].map(([m, i]) => [`${m * min}:0:1:${i * s}`, `${m} min + ${i} s a move`])
    : [[1, 10, 1], [5, 10, 1], [10, 30, 1], [0, 30, 1], [3, 10, 5]].map(([m, b, p]) =>
      [`${m * min}:${b * s}:${p}:0`, `${m ? `${m} min + ` : ""}${p > 1 ? `${p} × ` : ""}${b} s byoyomi`]);
  return [["", "no clock"], ...rows];
}

// The `clock` of a `new` message from an option's value (null: no clock).
export function readClock(value) {
  if (!value) return null;
  const [main, byoyomi, periods, increment] = value.split(":").map(Number);
  return { main, byoyomi, periods, increment };
}

// "4:59", "1:02:03"; under 10 s with tenths, "0:09.4".
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${Math.floor(t / 1000)}.${Math.floor(t / 100) % 10}`;
  const all = Math.floor(t / 1000);
  const [h, m, s] = [Math.floor(all / 3600), Math.floor(all / 60) % 60, all % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// What a side's clock shows `used` ms into its thought: the time left (`ms`, `text`), in
// the main time or in a byoyomi period (`byoyomi`, with the `periods` left, the one in
// use counted), `low` under 10 s, `out` when nothing is left.
export function clockShown(side, control, used) {
  const main = side.main - used;
  if (main > 0) return { ms: main, text: clockText(main), byoyomi: false, periods: side.periods, low: main < 10000, out: false };
  const byo = control.byoyomi || 0;
  const over = -main;
  const lost = over > 0 ? Math.floor((over - 1) / byo) : 0;
  const periods = byo > 0 ? side.periods - lost : 0;
  if (periods <= 0) return { ms: 0, text: clockText(0), byoyomi: byo > 0, periods: 0, low: true, out: true };
  const left = byo - (over - lost * byo);
  return { ms: left, text: clockText(left), byoyomi: true, periods, low: left < 10000, out: false };
}

// The line under a side's time: its byoyomi periods, or its increment.
export function clockNote(shown, control) {
  if (control.byoyomi > 0) {
    const p = shown.periods > 1 ? ` ×${shown.periods}` : "";
    return shown.byoyomi ? `in byoyomi${p}` : `then ${control.byoyomi / 1000} s byoyomi${p}`;
  }
  return control.increment > 0 ? `+${control.increment / 1000} s a move` : "";
}

// Draws side `side`'s clock of `clock` into `box`, `since` ms after the message came;
// `who` names the side, `over` says the game is over (no clock runs).
export function drawClock(box, clock, side, since, who, over) {
  box.hidden = !clock;
  if (!clock) return;
  const running = clock.running === side && !over;
  const shown = clockShown(clock[side], clock.control, running ? clock.used + since : 0);
  const flagged = clock.flagged === side;
  box.className = "clock" + (running ? " running" : "") + (shown.low ? " low" : "") + (flagged ? " flagged" : "");
  box.dataset.ms = String(Math.round(flagged ? 0 : shown.ms));
  box.dataset.side = side;
  box.querySelector(".who").textContent = who;
  box.querySelector(".time").textContent = flagged ? "0:00" : shown.text;
  box.querySelector(".note").textContent = flagged ? "out of time" : clockNote(shown, clock.control);
}

"use strict";
// The tournament ending (docs/playing.md): its clock and each player's points, on the public board and the phones.
// The board counts the seconds of play; while its clock runs a view says when, on the board's clock, it runs out
// (`ends_at`), and this screen counts down to it with the board's "now" (boardClock, client.js); a stopped clock
// (paused, being set up) shows what is left.
const tournamentClock = (() => {
  let node = null;
  let shown = null;
  const two = (n) => String(n).padStart(2, "0");
  function clock(seconds) {
    const whole = Math.ceil(seconds);
    const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
    return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }
  function text() {
    const t = shown && shown.tournament;
    if (!t) return "";
    let head = t.text;
    if (t.seconds_left !== null) {
      const now = boardClock.now();
      const left = Math.max(0, t.ends_at !== null && t.ends_at !== undefined && now !== null ? t.ends_at - now
        : t.seconds_left);
      head = `tournament clock ${clock(left)}`;
    }
    const points = shown.seats.map((s, i) => `${s.colour} ${t.points[i]}`).join(", ");
    return `${head} · points: ${points}`;
  }
  function draw() {
    if (!node) return;
    const line = text();
    node.textContent = line;
    node.classList.toggle("hidden", !line);
  }
  setInterval(draw, 1000);
  return {
    // Show `view`'s tournament in `target`.
    show(target, view) {
      node = target;
      shown = view;
      draw();
    },
  };
})();

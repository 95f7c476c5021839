"use strict";
// The tournament ending (docs/playing.md): its clock and each player's points, on the public board and the phones.
// The board counts the seconds of play and sends what is left with each view; between two views this screen
// counts down by itself, except while the game is paused or being set up (a new view then says where it stands).
const tournamentClock = (() => {
  let node = null;
  let shown = null;
  let at = 0;
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
      const running = !shown.fault && !shown.menu && !shown.over;
      const left = Math.max(0, t.seconds_left - (running ? (performance.now() - at) / 1000 : 0));
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
    // Show `view`'s tournament in `target`: a new view restarts the screen's own count from its figure.
    show(target, view) {
      node = target;
      if (view !== shown) { shown = view; at = performance.now(); }
      draw();
    },
  };
})();

"use strict";
// The game's story on the TV's end screen (issue 40): each player's territories over the game as a chart (inline
// SVG), who was eliminated by whom and when, and how long the game went. The TV notes the counts at every turn it
// sees (a TV opened late tells the story from then on: the chart says from which turn).
(function () {
  const history = [];          // [turn, [territories per seat]]
  const eliminations = [];     // [turn, words]
  let firstSeen = null;        // the board's clock when this TV saw the game's first turn
  let lastNow = null;
  let drawnKey = "";
  const NS = "http://www.w3.org/2000/svg";
  const svgNode = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = String(text);
    return node;
  };

  function note(view) {
    if (view.menu) { history.length = 0; eliminations.length = 0; firstSeen = null; return; }
    const turn = view.clock.turn;
    const counts = view.seats.map((s) => s.territories);
    const last = history[history.length - 1];
    if (last && turn < last[0]) { history.length = 0; eliminations.length = 0; firstSeen = null; }   // a new game
    if (!last || last[0] !== turn) history.push([turn, counts]);
    else history[history.length - 1] = [turn, counts];
    if (firstSeen === null && typeof view.clock.started === "number") firstSeen = view.clock.started;
    lastNow = boardClock.now();
    for (const line of view.log) {
      if (/ is eliminated by /.test(line) && !eliminations.some(([, w]) => w === line.trim())) {
        eliminations.push([turn, line.trim()]);
      }
    }
  }

  // The story as the board told it (the game replayed at its end), else as this TV saw it.
  function told(view) {
    const story = view.story;
    if (!story) return { turns: history, out: eliminations, from: history.length ? history[0][0] : 0 };
    const name = (seat) => (seat === null || seat === undefined ? "" : view.seats[seat].colour);
    return { turns: story.turns.map(([t, ...c]) => [t, c]), from: 0,
      out: story.eliminated.map((e) => [e.turn, `${name(e.seat)} is eliminated${e.by !== null ? ` by ${name(e.by)}` : ""}`]) };
  }

  function chart(view, history) {
    const W = 600, H = 260, L = 36, B = 24, T = 8, R = 8;
    const turns = history.map(([t]) => t);
    const t0 = turns[0], t1 = Math.max(turns[turns.length - 1], t0 + 1);
    const most = Math.max(1, ...history.flatMap(([, c]) => c));
    const x = (t) => L + (t - t0) / (t1 - t0) * (W - L - R);
    const y = (n) => T + (1 - n / most) * (H - T - B);
    const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, class: "story-chart", role: "img",
      "aria-label": "territories per player over the game" });
    svg.append(svgNode("path", { class: "axis", d: `M${L},${T}V${H - B}H${W - R}` }));
    for (const n of [0, Math.round(most / 2), most]) {
      svg.append(svgNode("text", { class: "tick", x: L - 5, y: y(n) + 5, "text-anchor": "end" }, n));
    }
    [t0, Math.round((t0 + t1) / 2), t1].forEach((t, i) => {
      svg.append(svgNode("text", { class: "tick", x: x(t), y: H - 5, "text-anchor": ["start", "middle", "end"][i] },
        `turn ${t}`));
    });
    view.seats.forEach((s, i) => {
      const d = history.map(([t, c], k) => `${k ? "L" : "M"}${x(t).toFixed(1)},${y(c[i] || 0).toFixed(1)}`).join("");
      // A black seat's line drawn light and dashed: black on the dark page would not be seen.
      const dark = parseInt(s.rgb.slice(1, 3), 16) + parseInt(s.rgb.slice(3, 5), 16) + parseInt(s.rgb.slice(5, 7), 16) < 150;
      const line = svgNode("path", { class: `line${s.seat === view.winner ? " winner" : ""}`, d,
        stroke: dark ? "#e6e6e6" : s.rgb, "data-seat": s.seat });
      if (dark) line.setAttribute("stroke-dasharray", "10 5");
      svg.append(line);
    });
    return svg;
  }

  function draw(view) {
    const box = document.getElementById("story");
    if (!box) return;
    box.classList.toggle("hidden", !view.over);
    const story = told(view);
    if (!view.over || !story.turns.length) return;
    const key = JSON.stringify([story.turns.length, story.out.length, view.winner, Boolean(view.story)]);
    if (key === drawnKey) return;
    drawnKey = key;
    const minutes = firstSeen !== null && lastNow !== null ? Math.max(0, Math.round((lastNow - firstSeen) / 60)) : null;
    const turns = view.clock.turn;
    const parts = [el("h2", {}, "The game's story"),
      el("p", { class: "story-facts" }, `${turns} turns, ${view.clock.round} rounds` +
        (minutes !== null && minutes > 0 ? ` · about ${minutes} min on this screen` : "") +
        (story.from > 1 ? ` · seen from turn ${story.from}` : "")),
      chart(view, story.turns),
      el("ul", { class: "story-legend" }, ...view.seats.map((s) => el("li", {}, swatch(s.rgb, s.mark),
        `${s.colour} ${s.territories}`)))];
    if (story.out.length) {
      parts.push(el("ul", { class: "story-out" }, ...story.out.map(([t, words]) => el("li", {}, `turn ${t}: ${words}`))));
    }
    box.replaceChildren(...parts);
  }

  // The luck report on a TV never scrolls: where its sentences do not fit beside the map (many players, a small
  // screen), they go and the table's figures stay; then the type gets smaller, down to a floor.
  function fit() {
    const luck = document.getElementById("luck");
    if (!luck || luck.classList.contains("hidden")) return;
    luck.classList.remove("tight", "tighter");
    if (!matchMedia("(orientation: landscape) and (min-width: 700px)").matches) return;
    for (const step of ["tight", "tighter"]) {
      if (luck.scrollHeight <= luck.clientHeight + 1) return;
      luck.classList.add(step);
    }
  }
  addEventListener("resize", () => requestAnimationFrame(fit));

  let over = false;
  document.addEventListener("conquista-frame", (event) => {
    if (event.detail.type !== "public") return;
    note(event.detail.view);
    draw(event.detail.view);
    over = Boolean(event.detail.view.over);
  });
  // Once the page's words are drawn (board.js draws them after the map, the end screen's layout with them).
  document.addEventListener("conquista-side", () => { if (over) requestAnimationFrame(fit); });
})();

"use strict";
// The public board: every territory in its owner's colour with its armies, the dice, whose turn, the log.
// With a remote seat's link (its token in the fragment) it is also that seat's screen: tap territories, press
// the buttons, see the seat's secrets; the server takes those only for that seat and only on its turn.
let map = null;
let view = null;
let seatView = null;

function draw() {
  if (!map || !view) return;
  const seats = view.seats;
  document.getElementById("title").textContent = `conquista · ${view.rules} · ${map.name}`;
  const grid = document.getElementById("map");
  const columns = Math.max(...map.territories.map((t) => t.cell[0])) + 1;
  grid.style.gridTemplateColumns = `repeat(${columns}, minmax(3.5rem, 1fr))`;
  grid.replaceChildren(...map.territories.map((t, i) => {
    const state = view.territories[i];
    const colour = state.rgb;  // the owner's colour: a seat's, or the neutral army's
    const selected = view.selection.includes(t.id) ? " selected" : "";
    const blinking = state.blinking ? " blinking" : "";
    const cell = el("div", { class: `territory${isDark(colour) ? " dark" : ""}${selected}${blinking}`, "data-id": t.id,
      style: `grid-column: ${t.cell[0] + 1}; grid-row: ${t.cell[1] + 1}; background: ${colour}` },
      el("span", {}, t.name), unitsOf(state));
    if (seatView) tappable(cell, t.id);
    return cell;
  }));
  document.getElementById("units").classList.toggle("hidden", !view.territories.some((t) => "fleets" in t || "blinking" in t));
  const who = seats[view.to_move >= 0 ? view.to_move : view.current];
  document.getElementById("turn").replaceChildren(
    el("span", { class: "swatch", style: `background: ${who.rgb}` }),
    view.menu ? `a new game is being set up at the board (step ${view.menu.number} of 3) · ` :
    view.over ? `${seats[view.winner].colour} won` :
      `${who.colour} to play · ${view.phase} · turn ${view.clock.turn}, round ${view.clock.round} · `,
    el("span", { id: "clock" }, ""));
  drawClock();
  document.getElementById("board-pending").textContent = view.fault ? `paused: ${view.fault}` : view.pending;
  document.getElementById("message").textContent = view.message;
  document.getElementById("dice").replaceChildren(
    ...view.dice.attack.map((d) => el("span", { class: "a" }, d)), " vs ",
    ...view.dice.defence.map((d) => el("span", { class: "d" }, d)));
  document.getElementById("players").replaceChildren(...seats.map((s) => el("li", {},
    el("span", { class: "swatch", style: `background: ${s.rgb}` }),
    `${s.colour}: ${s.territories} territories, ${s.cards} cards${s.bot ? " (bot)" : ""}` +
    `${s.phone ? " · phone" : ""}${s.eliminated ? " · out" : s.left ? " · left: defends only" : ""}` +
    `${s.claiming ? " · claiming…" : ""}`),
    ...(view.neutral ? [el("li", {}, el("span", { class: "swatch", style: `background: ${view.neutral.rgb}` }),
      `neutral army: ${view.neutral.territories} territories (the opponent of the player to play commands it)`)]
      : [])));
  const log = document.getElementById("log");
  log.textContent = view.log.join("\n");
  log.scrollTop = log.scrollHeight;
}

// A territory's units: its armies, and with fleets (lamorisse-1954) its fleets apart ("3 + 2⚓"); nothing on a
// territory not dealt yet. `armies` counts every unit, `fleets` how many of them are fleets.
function unitsOf(state) {
  if (state.owner === null) return el("span", { class: "armies" }, "");
  if (!state.fleets) return el("span", { class: "armies" }, state.armies);
  const armies = state.armies - state.fleets;
  return el("span", { class: "armies", title: `${armies} armies, ${state.fleets} fleets` },
    armies ? `${armies} + ` : "", el("span", { class: "fleets" }, `${state.fleets}⚓`));
}

// A remote seat taps territories from here; a press held 0.8 s (or a right click) is a long press, which places a
// fleet where the ruleset has fleets, as at the board.
const LONG_PRESS_MS = 800;
function tappable(cell, id) {
  let down = 0;
  let long = false;
  cell.addEventListener("pointerdown", () => { down = performance.now(); long = false; });
  cell.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    long = true;
    client.send({ type: "tap", territory: id, long: true });
  });
  cell.addEventListener("click", () => {
    if (long) return;  // already sent by the context menu (a long touch)
    const held = down && performance.now() - down >= LONG_PRESS_MS;
    client.send(held ? { type: "tap", territory: id, long: true } : { type: "tap", territory: id });
  });
}

// The turn clock: the seconds the board counted when the view was built, then this screen's own clock. With a
// turn time limit it counts down the time left (the board's clock stops for questions: a new view says so).
let clockBase = { seconds: 0, left: null, at: 0 };
function drawClock() {
  const node = document.getElementById("clock");
  if (!node || !view || view.over) return;
  const elapsed = (performance.now() - clockBase.at) / 1000;
  const mmss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (clockBase.left !== null && clockBase.left !== undefined) {
    node.textContent = `${mmss(Math.max(0, Math.ceil(clockBase.left - elapsed)))} left`;
    return;
  }
  node.textContent = `${mmss(Math.floor(clockBase.seconds + elapsed))} this turn`;
}
setInterval(drawClock, 1000);

const client = connect((frame) => {
  if (frame.type === "map") map = frame.map;
  else if (frame.type === "public") {
    view = frame.view;
    clockBase = { seconds: view.clock.seconds, left: view.clock.left, at: performance.now() };
  }
  else if (frame.type === "seat") seatView = frame.view;
  else if (frame.type === "taken_over") seatView = null;
  else if (frame.type === "error") document.getElementById("status").textContent = frame.error;
  draw();
  panel.update(seatView, view, map);
  if (seatView) document.getElementById("you").textContent = `you play ${seatView.colour} from here`;
}, (state) => { document.getElementById("status").textContent = state; });
const panel = seatPanel(client);

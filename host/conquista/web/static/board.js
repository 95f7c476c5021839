"use strict";
// The public board: the world map with every territory in its owner's colour and letter, its armies, the dice,
// whose turn, the log. With a remote seat's link (its token in the fragment) it is also that seat's screen: tap
// territories (or pick them from the list of legal ones), press the buttons, see the seat's secrets; the server
// takes those only for that seat and only on its turn.
const SVG = "http://www.w3.org/2000/svg";
let map = null;
let view = null;
let seatView = null;
let world = null;     // the drawn map: {svg, lands: {id: path}, badges: {id: {...}}}, built once per map
let worldFor = null;  // the map it was built for

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// A shipped map has its SVG (web/mapgen made it); a builder's map gets a schematic from the points the server
// laid out from its links: a rounded box per territory, a line per link.
async function buildWorld(gameMap) {
  let svg;
  if (gameMap.shapes) {
    const text = await (await fetch(gameMap.shapes)).text();
    svg = document.importNode(new DOMParser().parseFromString(text, "image/svg+xml").documentElement, true);
  } else {
    svg = schematic(gameMap);
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `map: ${gameMap.name}`);
  const lands = {};
  for (const path of svg.querySelectorAll(".land")) {   // data-id goes to the badge: the thing to tap
    lands[path.dataset.id] = path;
    path.dataset.land = path.dataset.id;
    path.removeAttribute("data-id");
  }
  // The armies on a second SVG stacked over the map, each its own layer: a count that changes repaints a badge,
  // not the coastlines of the world (8 screens on a small machine redraw in time).
  const overlay = svgEl("svg", { class: "badges", viewBox: svg.getAttribute("viewBox"), "aria-hidden": "true" });
  const badges = {};
  for (const t of gameMap.territories) {
    const land = lands[t.id];
    const x = Number(land.dataset.x);
    const y = Number(land.dataset.y);
    const disc = svgEl("circle", { class: "disc", r: 27 });
    const count = svgEl("text", { class: "armies", y: 1 }, "");
    const tag = svgEl("circle", { class: "tag", cx: -25, cy: -21, r: 13 });
    const letter = svgEl("text", { class: "letter", x: -25, y: -21 }, "");
    const name = svgEl("text", { class: "name", y: land.dataset.name === "above" ? -46 : 42 }, t.name);
    const group = svgEl("g", { class: "badge", "data-id": t.id, transform: `translate(${x} ${y})` },
      disc, count, tag, letter, name);
    overlay.append(group);
    badges[t.id] = { group, disc, count, letter, key: "", look: "", fill: null };
  }
  return { svg, overlay, lands, badges };
}

function schematic(gameMap) {
  const svg = svgEl("svg", { viewBox: "0 0 1600 800", class: "world schematic" });
  const at = gameMap.points;
  const index = gameMap.territories.map((t) => t.id);
  const links = gameMap.links.map(([a, b]) => `M${at[index[a]].join(",")}L${at[index[b]].join(",")}`).join("");
  svg.append(svgEl("path", { class: "links", d: links }));
  for (const c of gameMap.continents) {
    const group = svgEl("g", { class: "continent", "data-continent": c.id });
    for (const t of gameMap.territories.filter((t) => t.continent === c.id)) {
      const [x, y] = at[t.id];
      group.append(svgEl("rect", { class: "land", "data-id": t.id, "data-x": x, "data-y": y - 8,
        x: x - 58, y: y - 46, width: 116, height: 92, rx: 14 }));
    }
    svg.append(group);
  }
  return svg;
}

async function ensureWorld() {
  if (!map || worldFor === map) return;
  worldFor = map;
  const built = await buildWorld(map);
  if (worldFor !== map) return;      // a newer map arrived meanwhile
  world = built;
  const box = document.getElementById("map");
  box.replaceChildren(world.svg, world.overlay);
  for (const [id, land] of Object.entries(world.lands)) {
    land.classList.add("territory");
    if (seatView !== undefined) tappable(land, id);
    tappable(world.badges[id].group, id);
  }
  zoom.reset();
  draw();
}

// Only what changed is touched: with 42 territories and 8 screens the redraw stays a few milliseconds.
function drawWorld() {
  if (!world) return;
  const selection = new Set(view.selection);
  const legal = new Set(seatView && seatView.my_turn ? seatView.legal || [] : []);
  map.territories.forEach((t, i) => {
    const state = view.territories[i];
    const land = world.lands[t.id];
    const badge = world.badges[t.id];
    const dealt = state.owner !== null;
    const fill = dealt ? state.rgb : "";
    const look = `${fill}|${selection.has(t.id)}|${legal.has(t.id)}|${Boolean(state.blinking)}`;
    if (badge.look !== look) {      // a territory's shape is touched only when its look changes: repainting
      badge.look = look;            // the world's coastlines is the costly part of a redraw
      land.style.fill = fill;       // the CSSOM: the page's CSP allows it
      land.style.stroke = fill;     // a territory of several cells shows no seam between them
      land.classList.toggle("undealt", !dealt);
      land.classList.toggle("selected", selection.has(t.id));
      land.classList.toggle("legal", legal.has(t.id));
      land.classList.toggle("blinking", Boolean(state.blinking));
      badge.group.classList.toggle("blinking", Boolean(state.blinking));
      badge.group.classList.toggle("selected", selection.has(t.id));
    }
    // With fleets (lamorisse-1954): "3 + 2⚓" is 3 armies and 2 fleets.
    const armies = state.armies - (state.fleets || 0);
    const units = !dealt ? "" : state.fleets ? `${armies ? `${armies} + ` : ""}${state.fleets}⚓` : String(state.armies);
    const key = `${fill}|${units}|${state.mark}`;
    if (badge.key === key) return;
    badge.key = key;
    badge.group.classList.toggle("hidden-badge", !dealt);
    if (badge.fill !== fill) {
      badge.fill = fill;
      badge.disc.setAttribute("fill", fill || "none");
    }
    setText(badge.count, units);
    badge.count.classList.toggle("long", units.length > 2);
    badge.count.classList.toggle("on-dark", dealt && isDark(fill));
    setText(badge.letter, dealt ? state.mark : "");
  });
}

function seatLabel(s) {
  return [el("span", { class: `swatch${isDark(s.rgb) ? " on-dark" : ""}`, style: `background: ${s.rgb}` }, s.mark || ""),
    " "];
}

// Rebuilds a part of the page only when what it shows changed: an unchanged list is not laid out again.
const shown = {};
// Writing a text node, even with the same words, makes the browser lay the line out again: 8 screens on a small
// machine feel every needless layout.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
function update(node, key, fill) {
  if (shown[node.id] === key) return;
  shown[node.id] = key;
  fill(node);
}

// The map is drawn at once; the words around it (turn, step, dice, players, log) at the frame after. A browser
// composes a frame over the one rectangle that holds everything that changed: a count on the map and a line in the
// side column together make it most of the screen, apart two small ones (8 screens on a small machine keep up).
let sideQueued = false;
function draw() {
  if (!map || !view) return;
  drawWorld();
  if (sideQueued) return;
  sideQueued = true;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    sideQueued = false;
    drawSide();
  }));
}

function drawSide() {
  if (!map || !view) return;
  const seats = view.seats;
  document.body.classList.toggle("over", Boolean(view.over));
  setText(document.getElementById("title"), `conquista · ${view.rules} · ${map.name}`);
  document.getElementById("units").classList.toggle("hidden", !view.territories.some((t) => "fleets" in t || "blinking" in t));
  const who = seats[view.to_move >= 0 ? view.to_move : view.current];
  const turnKey = JSON.stringify([who, view.menu, view.over, view.winner, view.phase, view.clock.turn, view.clock.round]);
  update(document.getElementById("turn"), turnKey, (node) => node.replaceChildren(
    ...seatLabel(who),
    view.menu ? `a new game is being set up at the board (step ${view.menu.number} of 3)` :
    view.over ? `${seats[view.winner].colour} won` : `${who.colour} to play`,
    el("span", { class: "phase" }, view.menu || view.over ? "" :
      `${view.phase} · turn ${view.clock.turn}, round ${view.clock.round} · `, el("span", { id: "clock" }, ""))));
  drawClock();
  setText(document.getElementById("board-pending"), view.fault ? `paused: ${view.fault}` : view.pending);
  tournamentClock.show(document.getElementById("tournament"), view);
  const message = document.getElementById("message");
  setText(message, view.message);
  // Only a refusal in refusal red; a notice is plain words, the journal's warning amber.
  const kind = view.message_kind === "refusal" ? "error" : view.message_kind === "warning" ? "warn" : "";
  if (message.className !== kind) message.className = kind;
  update(document.getElementById("dice"), JSON.stringify(view.dice), (node) => node.replaceChildren(
    ...view.dice.attack.map((d) => el("span", { class: "a", title: "attack" }, d)),
    ...(view.dice.attack.length || view.dice.defence.length ? [el("span", { class: "vs" }, "vs")] : []),
    ...view.dice.defence.map((d) => el("span", { class: "d", title: "defence" }, d))));
  update(document.getElementById("players"), JSON.stringify([seats, view.neutral, who.seat]), (node) => node.replaceChildren(...seats.map((s) => el("li", {
    class: s.seat === who.seat ? "now" : "" },
    ...seatLabel(s),
    el("b", {}, s.colour), ` ${s.territories} terr. · ${s.cards} cards${s.bot ? " · bot" : ""}` +
    `${s.phone ? " · phone" : ""}${s.eliminated ? " · out" : s.left ? " · left: defends only" : ""}` +
    `${s.claiming ? " · claiming…" : ""}`),
    ...(view.neutral ? [el("li", {}, ...seatLabel(view.neutral),
      `neutral army: ${view.neutral.territories} territories (the opponent of the player to play commands it)`)]
      : []))));
  drawLog(document.getElementById("log"), view.log);
}

// The log's box lays out bottom up (column-reverse), so it shows the newest lines without being scrolled (a script
// that scrolled it would force a layout of the whole page on every change). A line is a node of its own, and only
// the lines that scrolled in are added: the others are not shaped again.
let logLines = [];
function drawLog(box, lines) {
  let gone = 0;        // the old lines that scrolled out: the new log is the old one's tail, then new lines
  while (gone < logLines.length && !logLines.slice(gone).every((line, i) => line === lines[i])) gone += 1;
  if (!box.firstChild) box.append(el("div", {}));
  const inner = box.firstChild;
  if (gone === logLines.length && logLines.length) inner.replaceChildren();   // nothing in common: start again
  else for (let i = 0; i < gone; i += 1) inner.firstChild.remove();
  for (const line of lines.slice(logLines.length - gone)) inner.append(el("div", {}, line));
  logLines = lines.slice();
}

// A remote seat taps territories from here; a press held 0.8 s (or a right click) is a long press, which places a
// fleet where the ruleset has fleets, as at the board. A drag or a pinch of the map is not a tap.
const LONG_PRESS_MS = 800;
function tappable(node, id) {
  let down = 0;
  let long = false;
  node.addEventListener("pointerdown", () => { down = performance.now(); long = false; });
  node.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    if (!seatView) return;
    long = true;
    client.send({ type: "tap", territory: id, long: true });
  });
  node.addEventListener("click", () => {
    if (!seatView || long || zoom.moved()) return;  // long: already sent by the context menu (a long touch)
    const held = down && performance.now() - down >= LONG_PRESS_MS;
    client.send(held ? { type: "tap", territory: id, long: true } : { type: "tap", territory: id });
  });
}

// Pinch to zoom and drag to pan, on the map only (the page itself never scrolls sideways): the SVG's viewBox moves,
// so the shapes stay sharp at any zoom.
const zoom = (() => {
  const frame = document.getElementById("map-frame");
  const pointers = new Map();
  let base = null;      // the full viewBox [x, y, w, h]
  let box = null;       // the one shown
  let start = null;
  let travelled = 0;
  function svg() { return world && world.svg; }
  function apply() {
    const node = svg();
    if (!node || !box) return;
    const shown = box.map((v) => Math.round(v * 10) / 10).join(" ");
    node.setAttribute("viewBox", shown);
    world.overlay.setAttribute("viewBox", shown);
    const zoomed = box[2] < base[2] - 0.5;
    frame.classList.toggle("zoomed", zoomed);
  }
  function clamp(b) {
    const w = Math.min(base[2], Math.max(base[2] / 6, b[2]));
    const h = w * base[3] / base[2];
    const x = Math.min(base[0] + base[2] - w, Math.max(base[0], b[0]));
    const y = Math.min(base[1] + base[3] - h, Math.max(base[1], b[1]));
    return [x, y, w, h];
  }
  function toMap(clientX, clientY, b) {
    const r = frame.getBoundingClientRect();
    return [b[0] + (clientX - r.left) / r.width * b[2], b[1] + (clientY - r.top) / r.height * b[3]];
  }
  function snapshot() {
    const pts = [...pointers.values()];
    const mid = [(pts[0].x + (pts[1] || pts[0]).x) / 2, (pts[0].y + (pts[1] || pts[0]).y) / 2];
    const dist = pts[1] ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : 0;
    return { mid, dist, box: box.slice(), anchor: toMap(mid[0], mid[1], box) };
  }
  frame.addEventListener("pointerdown", (e) => {
    if (!box) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) travelled = 0;
    start = snapshot();
  });
  frame.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !start) return;
    const before = pointers.get(e.pointerId);
    travelled += Math.hypot(e.clientX - before.x, e.clientY - before.y);
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const now = snapshot();
    let b = start.box.slice();
    if (pointers.size >= 2 && start.dist > 0) {
      const k = start.dist / Math.max(1, now.dist);
      b[2] = start.box[2] * k;
      b[3] = start.box[3] * k;
    } else if (b[2] >= base[2] - 0.5) {
      return;       // not zoomed: one finger scrolls the page, as everywhere
    }
    const r = frame.getBoundingClientRect();
    b[0] = start.anchor[0] - (now.mid[0] - r.left) / r.width * b[2];
    b[1] = start.anchor[1] - (now.mid[1] - r.top) / r.height * b[3];
    box = clamp(b);
    apply();
  });
  for (const end of ["pointerup", "pointercancel", "pointerleave"]) {
    frame.addEventListener(end, (e) => {
      pointers.delete(e.pointerId);
      start = pointers.size ? snapshot() : null;
    });
  }
  frame.addEventListener("wheel", (e) => {
    if (!box || !e.ctrlKey) return;       // a trackpad's pinch arrives as a wheel with ctrl
    e.preventDefault();
    const anchor = toMap(e.clientX, e.clientY, box);
    const k = Math.exp(e.deltaY / 200);
    const r = frame.getBoundingClientRect();
    const w = box[2] * k;
    const h = box[3] * k;
    box = clamp([anchor[0] - (e.clientX - r.left) / r.width * w, anchor[1] - (e.clientY - r.top) / r.height * h, w, h]);
    apply();
  }, { passive: false });
  return {
    reset() {
      const node = svg();
      if (!node) return;
      base = node.getAttribute("viewBox").split(/[ ,]+/).map(Number);
      box = base.slice();
      apply();
    },
    moved() { return travelled > 12; },
  };
})();

// The turn clock, from the moments the board sent on its own clock (boardClock, client.js): the turn's start, or
// with a turn time limit the moment it runs out while it runs (stopped for a question, it shows what is left).
function drawClock() {
  const node = document.getElementById("clock");
  if (!node || !view || view.over || view.menu) return;
  const clock = view.clock;
  const now = boardClock.now();
  const mmss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (clock.left !== null && clock.left !== undefined) {
    const left = clock.deadline !== null && clock.deadline !== undefined && now !== null ? clock.deadline - now
      : clock.left;
    setText(node, `${mmss(Math.max(0, Math.ceil(left)))} left`);
    return;
  }
  const seconds = clock.started !== null && clock.started !== undefined && now !== null ? now - clock.started
    : clock.seconds;
  setText(node, `${mmss(Math.max(0, Math.floor(seconds)))} this turn`);
}
setInterval(drawClock, 1000);

const client = connect((frame) => {
  if (frame.type === "map") map = frame.map;
  else if (frame.type === "public") view = frame.view;
  else if (frame.type === "seat") seatView = frame.view;
  else if (frame.type === "taken_over") seatView = null;
  else if (frame.type === "error") document.getElementById("status").textContent = frame.error;
  document.body.classList.toggle("remote-seat", Boolean(seatView));
  ensureWorld();
  draw();
  panel.update(seatView, view, map);
  if (seatView) document.getElementById("you").replaceChildren(...seatLabel(seatView),
    `you play ${seatView.colour} from here`);
}, (state) => { document.getElementById("status").textContent = state; });
const panel = seatPanel(client);

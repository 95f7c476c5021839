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
    badges[t.id] = { group, disc, count, letter, name, key: "", look: "", fill: null };
  }
  // Over every badge: the arrow from the attacking territory to its target, and the mark on the last conquest.
  const marks = svgEl("g", { class: "marks" });
  overlay.append(marks);
  return { svg, overlay, lands, badges, marks, marksKey: "" };
}

// An arrow from the edge of one disc to the edge of the other, its head ending at the target's rim.
function arrow(x1, y1, x2, y2) {
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
  const [sx, sy, ex, ey] = [x1 + ux * 30, y1 + uy * 30, x2 - ux * 32, y2 - uy * 32];
  const [bx, by] = [ex - ux * 26, ey - uy * 26];
  const head = `M${ex},${ey}L${bx - uy * 15},${by + ux * 15}L${bx + uy * 15},${by - ux * 15}Z`;
  const d = `M${sx},${sy}L${bx},${by}`;
  return [svgEl("path", { class: "arrow-under", d }), svgEl("path", { class: "arrow-under", d: head }),
    svgEl("path", { class: "arrow", d }), svgEl("path", { class: "arrow-head", d: head })];
}

// The attack being chosen or fought, as an arrow from the attacker's disc to the target's (not only a ring), and
// the territory taken last in this turn, ringed in gold with a flag: the TV shows where the action is.
function drawMarks() {
  if (!world) return;
  const roll = view.roll;
  const taken = roll && roll.conquered && roll.shown && !view.over && !view.menu ? roll.target : "";
  const [from, to] = view.selection.length === 2 && !view.menu ? view.selection : [];
  const key = `${from}|${to}|${taken}`;
  if (world.marksKey === key) return;
  world.marksKey = key;
  const at = (id) => { const land = world.lands[id]; return [Number(land.dataset.x), Number(land.dataset.y)]; };
  const parts = [];
  if (taken && world.lands[taken]) {
    const [x, y] = at(taken);
    parts.push(svgEl("circle", { class: "conquest", cx: x, cy: y, r: 38 }),
      svgEl("text", { class: "conquest-flag", x: x + 30, y: y - 30 }, "⚑"));
  }
  if (from && to && world.lands[from] && world.lands[to]) {
    const [x1, y1] = at(from);
    const [x2, y2] = at(to);
    // A link across the map's edge (Alaska – Kamchatka) is drawn as it goes: out of one side and in at the other
    // (the overlay clips what falls outside), not as a line over the whole world.
    const width = Number(world.overlay.getAttribute("viewBox").split(/[ ,]+/)[2]) || 1600;
    const wrap = Math.abs(x2 - x1) > width / 2 ? Math.sign(x2 - x1) * width : 0;
    parts.push(...arrow(x1, y1, x2 - wrap, y2));
    if (wrap) parts.push(...arrow(x1 + wrap, y1, x2, y2));
  }
  world.marks.replaceChildren(...parts);
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
  // The map's proportions, for the television's layout (style.css): as wide as fits, no taller than leaves room.
  const [, , w, h] = world.svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  if (w > 0 && h > 0) document.getElementById("map-frame").style.setProperty("--ratio", String(w / h));
  for (const [id, land] of Object.entries(world.lands)) {
    land.classList.add("territory");
    if (seatView !== undefined) tappable(land, id);
    tappable(world.badges[id].group, id);
  }
  placeNames(built);
  zoom.reset();
  draw();
}

// Each territory's name goes where it touches no other name, no other territory's disc or letter and no continent's
// name: under its disc, else above, to a side, at a corner, or a little further out; where nothing is free, where it
// overlaps least. Measured once, when the map is built, on the names as drawn (their real boxes, the discs as
// circles): the names large enough to read from the sofa would otherwise run into each other where territories are
// small (Afghanistan and the Middle East, East Africa and Congo, Western and Eastern United States).
const NAME_GAP = 3;    // map units kept clear around a name
function placeNames(built) {
  const boxes = [];    // the continents' names
  for (const label of built.svg.querySelectorAll(".continent-name")) {
    const b = label.getBBox ? label.getBBox() : null;
    if (b && b.width) boxes.push({ x: b.x, y: b.y, w: b.width, h: b.height });
  }
  const circles = [];
  for (const [id, land] of Object.entries(built.lands)) {
    const x = Number(land.dataset.x);
    const y = Number(land.dataset.y);
    circles.push({ id, x, y, r: 28.5 }, { id, x: x - 25, y: y - 21, r: 14 });    // the disc, its letter's tag
  }
  const [vx, vy, vw, vh] = built.svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  const cost = (id, r, placed) => {
    let c = r.x < vx || r.y < vy || r.x + r.w > vx + vw || r.y + r.h > vy + vh ? 1e6 : 0;
    for (const [other, o] of [...boxes.map((b) => ["", b]), ...placed]) {
      if (other === id) continue;
      const w = Math.min(r.x + r.w, o.x + o.w) - Math.max(r.x, o.x) + NAME_GAP;
      const h = Math.min(r.y + r.h, o.y + o.h) - Math.max(r.y, o.y) + NAME_GAP;
      if (w > 0 && h > 0) c += w * h;
    }
    for (const o of circles) {
      if (o.id === id) continue;
      const dx = o.x - Math.max(r.x, Math.min(o.x, r.x + r.w));
      const dy = o.y - Math.max(r.y, Math.min(o.y, r.y + r.h));
      const depth = o.r + NAME_GAP - Math.hypot(dx, dy);
      if (depth > 0) c += depth * 20;
    }
    return c;
  };
  // [anchor, x, y of the first line's baseline, lines]: a long name may go on two lines where one does not fit.
  const spots = [["middle", 0, 48], ["middle", 0, -44], ["start", 31, 8], ["end", -40, 8], ["start", 18, 46],
    ["end", -18, 46], ["start", 16, -42], ["end", -16, -44], ["middle", 0, 48, 2], ["middle", 0, -65, 2],
    ["start", 31, -3, 2], ["end", -40, -3, 2], ["start", 31, 28], ["end", -31, 30], ["start", 31, -12],
    ["end", -40, -14], ["middle", 0, 66], ["middle", 0, -62]];
  const entries = Object.entries(built.badges).map(([id, badge]) => [id, badge, built.lands[id]])
    .filter(([, badge]) => badge.name.getBBox && badge.name.getBBox().width);   // a hidden page: defaults stay
  entries.sort((a, b) => Number(a[2].dataset.y) - Number(b[2].dataset.y));
  let placed = new Map();    // id → its name's box and spot
  const put = (name, [anchor, dx, dy, lines], words) => {
    name.setAttribute("x", dx);
    name.setAttribute("y", dy);
    name.style.textAnchor = anchor;   // the style sheet's text-anchor outranks an attribute
    if (lines === 2) {
      name.replaceChildren(...words.map((line, i) => svgEl("tspan", { x: dx, dy: i ? "1.05em" : 0 }, line)));
    } else if (name.firstElementChild) {
      name.textContent = words.join("");
    }
  };
  // A name's two lines: split at the space nearest its middle (the first keeps the space: the text reads whole).
  const halves = (text) => {
    const spaces = [...text.matchAll(/ /g)].map((m) => m.index);
    if (!spaces.length) return null;
    const at = spaces.reduce((a, b) => (Math.abs(b - text.length / 2) < Math.abs(a - text.length / 2) ? b : a));
    return [text.slice(0, at + 1), text.slice(at + 1)];
  };
  const place = ([id, badge, land]) => {
    const x = Number(land.dataset.x);
    const y = Number(land.dataset.y);
    const text = badge.name.textContent;
    const two = halves(text);
    const order = (land.dataset.name === "above" ? [spots[1], spots[0], ...spots.slice(2)] : spots)
      .filter((spot) => spot[3] !== 2 || two);
    let best = null;
    for (const spot of order) {
      put(badge.name, spot, spot[3] === 2 ? two : [text]);
      const b = badge.name.getBBox();
      const r = { x: x + b.x, y: y + b.y, w: b.width, h: b.height, spot, words: spot[3] === 2 ? two : [text] };
      const c = cost(id, r, placed);
      if (!best || c < best.c) best = { c, r };
      if (c === 0) break;
    }
    placed.set(id, best.r);
  };
  // The first placed take the best places: the names left overlapping go first in the next try, the best try stays.
  let best = null;
  for (let round = 0; round < 4; round += 1) {
    placed = new Map();
    entries.forEach(place);
    const costs = new Map(entries.map(([id]) => [id, cost(id, placed.get(id), placed)]));
    const total = [...costs.values()].reduce((a, b) => a + b, 0);
    if (!best || total < best.total) best = { total, placed };
    if (!total) break;
    entries.sort((a, b) => (costs.get(b[0]) > 0) - (costs.get(a[0]) > 0));
  }
  for (const [id, badge] of entries) put(badge.name, best.placed.get(id).spot, best.placed.get(id).words);
}

// Only what changed is touched: with 42 territories and 8 screens the redraw stays a few milliseconds.
function drawWorld() {
  if (!world) return;
  drawMarks();
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
      // A territory of several cells shows no seam between them; black land gets a light rim, or it would sink
      // into the sea at about 2:1.
      land.style.stroke = fill && isVeryDark(fill) ? "#b9c3cc" : fill;
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

function isVeryDark(hex) {
  const n = parseInt(hex.slice(1), 16);
  return ((n >> 16) & 255) + ((n >> 8) & 255) + (n & 255) < 150;
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

// The map is drawn at once; the words around it (turn, step, dice, players, log) once the views have stopped coming
// for SIDE_QUIET_MS, and at least every SIDE_MAX_MS while they keep coming (bots play a move every few frames). A
// count on the map is what a tap changes, and it shows in the next frame; words a tenth of a second later read as at
// once. Drawn in the frames that follow the count, the words of 8 screens on a small machine took the 2 cores the
// slower screens' counts were waiting for (issue 40: p99 47 ms a tap, 30 without the words).
const SIDE_QUIET_MS = 40;
const SIDE_MAX_MS = 250;
let sideTimer = null;
let sideFirst = null;   // when the oldest change not yet drawn beside the map came
function draw() {
  if (!map || !view) return;
  drawWorld();
  const now = performance.now();
  if (sideFirst === null) sideFirst = now;
  clearTimeout(sideTimer);
  sideTimer = setTimeout(() => {
    sideTimer = null;
    sideFirst = null;
    drawSide();
  }, Math.max(0, Math.min(SIDE_QUIET_MS, sideFirst + SIDE_MAX_MS - now)));
}

function drawSide() {
  if (!map || !view) return;
  const seats = view.seats;
  document.body.classList.toggle("over", Boolean(view.over));
  document.body.classList.toggle("menu", Boolean(view.menu));
  setText(document.getElementById("title"), `conquista · ${view.rules} · ${map.name}`);
  document.getElementById("units").classList.toggle("hidden", !view.territories.some((t) => "fleets" in t || "blinking" in t));
  // Whose turn it is (the table's view says: during a defence still the attacker's).
  const who = seats[view.turn_of !== undefined ? view.turn_of : view.current];
  // Keyed by what the words show (not the whole seat, whose armies change with every tap): rebuilt, the line and the
  // clock inside it are laid out and painted again.
  const label = (s) => s && [s.rgb, s.mark, s.colour];
  const turnKey = JSON.stringify([label(who), view.menu && view.menu.number, view.over,
    view.winner !== null && view.winner !== undefined ? label(seats[view.winner]) : null, view.won_how, view.phase,
    view.clock.turn, view.clock.round]);
  update(document.getElementById("turn"), turnKey, (node) => node.replaceChildren(...turnWords(view, who)));
  drawClock();
  setText(document.getElementById("board-pending"), view.fault ? `paused: ${view.fault}` : view.pending);
  tournamentClock.show(document.getElementById("tournament"), view);
  const message = document.getElementById("message");
  setText(message, view.message_kind === "notice" ? freshNotice(view.message, draw) : view.message);
  // Only a refusal in refusal red; a notice is plain words, the journal's warning amber.
  const kind = view.message_kind === "refusal" ? "error" : view.message_kind === "warning" ? "warn" : "";
  if (message.className !== kind) message.className = kind;
  const dice = shownDice(view);
  const [attackRgb, defenceRgb] = diceColours(view, dice);
  update(document.getElementById("dice"), JSON.stringify([dice, attackRgb, defenceRgb]), (node) => node.replaceChildren(
    ...dice.attack.map((d) => die("a", "attack", d, attackRgb)),
    ...(dice.attack.length || dice.defence.length ? [el("span", { class: "vs" }, "vs")] : []),
    ...dice.defence.map((d) => die("d", "defence", d, defenceRgb))));
  drawCountdown();
  setText(document.getElementById("battle"), battleCaption(view, dice));
  drawPlayers(seats, who.seat, nextSeat(view, who.seat));
  lobby.draw(view);
  document.dispatchEvent(new Event("conquista-side"));
  logSoon();
}

// The log: drawn with the words beside the map, at most every LOG_EVERY_MS (a new line moves every other one, so
// the whole box is painted again), and in a frame of its own, the one after theirs: a browser repaints one rectangle
// around everything a frame changed, and the log under the map with the words beside it make that rectangle most of
// the screen (4 ms more a frame for each of 8 screens, in the one process that puts every screen's pixels together).
// When the views stop coming before it is due, it is drawn once it is.
const LOG_EVERY_MS = 700;
let logDrawnAt = -LOG_EVERY_MS;
let logTimer = null;
function logSoon() {
  clearTimeout(logTimer);
  const draw = () => requestAnimationFrame(() => requestAnimationFrame(() => {
    logDrawnAt = performance.now();
    if (view) drawLog(document.getElementById("log"), view.log, logRows || 8);
  }));
  const wait = LOG_EVERY_MS - (performance.now() - logDrawnAt);
  if (wait <= 0) draw();
  else logTimer = setTimeout(draw, wait + SIDE_MAX_MS);   // a later side, due within SIDE_MAX_MS, comes first
}

// Before the game (the set-up menu, or the first placement while seats are still free): who has joined and which
// seats are free, and the join address in words beside the QR code, for whoever cannot scan it.
const lobby = (() => {
  let address = null;
  fetch("/join").then((r) => (r.ok ? r.json() : null)).then((j) => {
    address = j && j.url;
    setText(document.getElementById("join-url"), address || "");
  }).catch(() => {});
  return {
    draw(v) {
      const free = v.seats.filter((s) => !s.phone && !s.bot && !s.remote && !s.eliminated);
      const open = !v.over && (Boolean(v.menu) || (v.clock.turn === 0 && free.length > 0));
      document.body.classList.toggle("lobby", open);
      const node = document.getElementById("lobby");
      node.classList.toggle("hidden", !open);
      if (!open) return;
      // Keyed by what the rows say, before any node is made: most views change nothing here.
      const state = (s) => (s.claiming ? "claiming: ROLL and NEXT at the board" : s.phone ? "joined (phone)"
        : s.remote ? "remote player" : s.bot ? "bot" : "free: scan the code to join");
      const seats = v.menu ? [] : v.seats;
      update(node, JSON.stringify([v.menu ? 1 : 0, seats.map((s) => [s.colour, s.rgb, s.mark, s.eliminated, state(s)])]), (box) => {
        const rows = seats.map((s) => el("li", { "data-seat": s.seat, class: s.phone || s.bot || s.remote ? "taken" : "free" },
          ...seatLabel(s), el("b", {}, s.colour), " ", state(s)));
        box.replaceChildren(
          el("h2", {}, v.menu ? "A new game is being set up" : `Seats: ${free.length} free of ${v.seats.length}`),
          ...(rows.length ? [el("ul", { class: "lobby-seats" }, ...rows)] : [el("p", {}, "Join from your phone to play.")]));
      });
    },
  };
})();

// The player panels, each rebuilt only when what it shows changed: an army placed changes one seat's figures, and
// rebuilding the whole list had the browser lay out and paint every panel again (8 screens on a small machine).
function drawPlayers(seats, now, next) {
  const node = document.getElementById("players");
  const over = [view.over, view.menu, view.luck && view.luck.missions];
  const items = seats.map((s) => [JSON.stringify([s, s.seat === now, s.seat === next, over,
    (s.continents || []).length && map.name]), () => playerPanel(s, now, next)]);
  if (view.neutral) {
    items.push([JSON.stringify(view.neutral), () => el("li", {}, ...seatLabel(view.neutral),
      `neutral army: ${view.neutral.territories} territories (the opponent of the player to play commands it)`)]);
  }
  const old = [...node.children];
  if (old.length !== items.length) {
    node.replaceChildren(...items.map(([key, make]) => Object.assign(make(), { panelKey: key })));
    return;
  }
  items.forEach(([key, make], i) => {
    if (old[i].panelKey !== key) old[i].replaceWith(Object.assign(make(), { panelKey: key }));
  });
}

// A seat's panel on the TV, in turn order: its colour, whether it plays now or next, and its public figures
// (territories, armies on the board, the armies its next turn brings, continents held, cards).
function playerPanel(s, now, next) {
  const tags = [];
  if (!view.over && !view.menu && s.seat === now) tags.push(el("span", { class: "tag-now" }, "playing"));
  else if (!view.over && !view.menu && s.seat === next) tags.push(el("span", { class: "tag-next" }, "next"));
  const who = [s.bot ? "bot" : "", s.phone ? "phone" : "", s.remote ? "remote" : "", s.claiming ? "claiming…" : ""]
    .filter(Boolean).join(" · ");
  const out = s.eliminated ? "out" : s.left ? "left: defends only" : "";
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const figures = out ? [el("span", { class: "out" }, out)] : [
    el("span", { class: "fig", title: "territories" }, el("b", {}, s.territories), " terr."),
    el("span", { class: "fig", title: "armies on the board" }, el("b", {}, s.armies ?? "–"), " armies"),
    el("span", { class: "fig", title: "armies at the next turn's start" }, el("b", {}, `+${s.income ?? 0}`), " next"),
    el("span", { class: "fig", title: "cards" }, plural(s.cards, "card", "cards"))];
  const held = (s.continents || []).map((id) => {
    const c = map.continents.find((x) => x.id === id);
    return c ? `${c.name} +${c.bonus}` : id;
  });
  return el("li", { class: `${s.seat === now && !view.over ? "now" : ""}${s.eliminated ? " gone" : ""}`,
    "data-seat": s.seat },
    el("div", { class: "who" }, ...seatLabel(s), el("b", {}, s.colour), ...tags,
      who ? el("span", { class: "kind" }, who) : ""),
    el("div", { class: "figures" }, ...figures),
    held.length ? el("div", { class: "held" }, held.join(" · ")) : "",
    // At the end, every mission revealed, in its player's panel: the luck report beside the map keeps its room.
    view.over && view.luck && view.luck.missions[s.seat] ? el("div", { class: "mission" }, view.luck.missions[s.seat]) : "");
}

// The seat that plays after `seat`: the next in turn order still in the game (one that left only defends).
function nextSeat(v, seat) {
  const n = v.seats.length;
  for (let i = 1; i <= n; i += 1) {
    const s = v.seats[(seat + i) % n];
    if (!s.eliminated && !s.left) return s.seat;
  }
  return -1;
}

// A seat's colour by its name ("red"), or the neutral army's; null for a name that is no seat's.
function rgbOf(v, colour) {
  if (!colour) return null;
  const seat = v.seats.find((s) => s.colour === colour);
  if (seat) return seat.rgb;
  return v.neutral && v.neutral.colour === colour ? v.neutral.rgb : null;
}

// The dice in the colours of the players who rolled them (the roll's sides), else the board's red against blue.
function diceColours(v, dice) {
  const roll = v.roll;
  if (!roll || String(roll.attack) !== String(dice.attack) || String(roll.defence) !== String(dice.defence)) {
    return [null, null];
  }
  return [rgbOf(v, roll.attacker), rgbOf(v, roll.defender)];
}

function die(kind, title, value, rgb) {
  const node = el("span", { class: `${kind}${rgb && !isDark(rgb) ? " light" : ""}`, title }, value);
  if (rgb) node.style.background = rgb;
  return node;
}

// The waits on the TV, counted down from the moments the board sent: the defender choosing its dice (then the
// board rolls the most for it), a phone's claim waiting for ROLL and NEXT at the board.
function drawCountdown() {
  const node = document.getElementById("countdown");
  if (!node || !view) return;
  const waits = view.countdowns || {};
  const now = boardClock.now();
  const left = (w) => Math.max(0, Math.ceil(now !== null ? w.deadline - now : w.seconds));
  const lines = [];
  if (waits.defend) {
    const s = view.seats[waits.defend.seat];
    if (s) lines.push(["defend", s, `${s.colour} defends: ${left(waits.defend)} s to choose the dice`, waits.defend]);
  }
  if (waits.claim) {
    const s = view.seats[waits.claim.seat];
    if (s) lines.push(["claim", s, `a phone asks for ${s.colour}: ROLL and NEXT at the board · ${left(waits.claim)} s`,
      waits.claim]);
  }
  const key = JSON.stringify(lines.map(([k, s, text]) => [k, s.seat, text]));
  if (node.dataset.key === key) return;
  node.dataset.key = key;
  node.replaceChildren(...lines.map(([kind, s, text, w]) => {
    const share = Math.max(0, Math.min(1, left(w) / Math.max(1, w.seconds)));
    const bar = el("span", { class: "bar" });
    bar.style.width = `${Math.round(share * 100)}%`;
    return el("div", { class: `wait ${kind}`, "data-wait": kind }, ...seatLabel(s), text, el("span", { class: "meter" }, bar));
  }));
}
// Not while the words beside the map wait to be drawn: they draw the countdown and the clock, and a tick in the
// frames just after a view would take the cores from the counts of 8 screens on a small machine.
setInterval(() => { if (sideTimer === null) drawCountdown(); }, 250);

// How many lines the log's box can show: as many as its height holds at one row each, and one more. Only those go
// in the box: every line of a wrapping column-reverse box is laid out again when one is added, and the 40 the view
// carries cost 3 ms a redraw against 0.5 for 8 (8 screens on a small machine). Told by the box's size as it changes,
// so no script measures the page while it draws.
let logRows = null;
if (window.ResizeObserver) {
  new ResizeObserver(([entry]) => {
    const row = parseFloat(getComputedStyle(entry.target).lineHeight) || 20;
    const rows = Math.max(1, Math.floor(entry.contentRect.height / row) + 1);
    if (rows === logRows) return;
    logRows = rows;
    if (view) drawLog(entry.target, view.log, rows);
  }).observe(document.getElementById("log"));
}

// The log's box lays out bottom up (column-reverse) with the newest line first in the page, so it shows the newest
// lines without being scrolled (a script that scrolled it would force a layout of the whole page on every change),
// and a line that does not fit whole wraps out of sight (style.css). A line is a node of its own, and only the lines
// that scrolled in are added: the others are not shaped again.
let logLines = [];
function drawLog(box, all, room) {
  const first = Math.max(0, all.length - room);
  const lines = all.slice(first);
  let gone = 0;        // the old lines that scrolled out: the new log is the old one's tail, then new lines
  while (gone < logLines.length && !logLines.slice(gone).every((line, i) => line === lines[i])) gone += 1;
  if (gone === logLines.length && logLines.length) box.replaceChildren();   // nothing in common: start again
  else for (let i = 0; i < gone; i += 1) box.lastChild.remove();
  const fresh = lines.length - (logLines.length - gone);
  // A battle's line looks back in the whole log for the line that named its attacker.
  lines.forEach((line, i) => { if (i >= lines.length - fresh) box.prepend(logLine(all, first + i)); });
  logLines = lines;
}

// A log line as the TV shows it: the colour's swatch before the player it names; a battle's line says who attacked
// (the attack line before it names them), with each side's dice sorted high to low, as they are compared.
const BATTLE = /^(.+?) attacks (.+?): ([\d ]+) vs ([\d ]+)(.*)$/;
function logLine(lines, i) {
  const line = lines[i].replace(/\b1 dice\b/g, "1 die");
  const battle = BATTLE.exec(line);
  if (battle) {
    const [, from, to, attack, defence, rest] = battle;
    let attacker = "";
    for (let j = i - 1; j >= 0 && j >= i - 12; j -= 1) {
      const named = new RegExp(`^(\\w+) attacks ${escapeRe(to)} from ${escapeRe(from)}:`).exec(lines[j]);
      if (named) { attacker = named[1]; break; }
    }
    const sorted = (dice) => dice.trim().split(/\s+/).map(Number).sort((a, b) => b - a).join(" ");
    const rgb = rgbOf(view, attacker);
    return el("div", { class: "battle-line" }, ...(rgb ? [swatch(rgb, markOf(attacker))] : []),
      attacker ? el("b", {}, attacker) : "", `${attacker ? " " : ""}${from} → ${to}: ${sorted(attack)} vs ${sorted(defence)} ${rest.trim()}`);
  }
  const first = /^(\w+)\b/.exec(line);
  const rgb = first && rgbOf(view, first[1]);
  return rgb ? el("div", {}, swatch(rgb, markOf(first[1])), line) : el("div", {}, line);
}
function escapeRe(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
function markOf(colour) {
  const seat = view.seats.find((s) => s.colour === colour);
  return seat ? seat.mark : view.neutral && view.neutral.colour === colour ? view.neutral.mark : "";
}

// The heading: whose turn and where the game stands, the set-up menu, or who won and how.
function turnWords(v, who) {
  if (v.menu) {
    return [`A new game is being set up at the board (step ${v.menu.number} of 3)`];
  }
  if (v.over && v.winner !== null) {
    const winner = v.seats[v.winner];
    return [...seatLabel(winner), `${winner.colour} won the game`, el("span", { class: "how" }, v.won_how || "")];
  }
  const where = v.clock.turn > 0 ? `${v.phase} · turn ${v.clock.turn}, round ${v.clock.round} · `
    : "placing the first armies · ";
  return [...seatLabel(who), `${who.colour} to play`, el("span", { class: "phase" }, where.replace(/ · $/, "")),
    el("span", { id: "clock", class: "clock" }, "")];
}

// The dice on the screen: the last roll of this turn (with its battle, `battleCaption`), or dice being typed in at
// the board; a roll of an earlier turn is not left standing as if it were news. None at the end of the game.
function shownDice(v) {
  const none = { attack: [], defence: [] };
  if (v.over || v.menu) return none;
  const roll = v.roll;
  const same = roll && String(roll.attack) === String(v.dice.attack) && String(roll.defence) === String(v.dice.defence);
  if (same && !roll.shown) return none;
  return v.dice;
}

function territoryName(id) {
  const t = map && map.territories.find((x) => x.id === id);
  return t ? t.name : id;
}

// Under the dice: which battle they were and what it cost each side; while an attack is chosen, its odds.
function battleCaption(v, dice) {
  const parts = [];
  const roll = v.roll;
  if (roll && dice.attack.length && String(roll.attack) === String(dice.attack)) parts.push(battleWords(roll, territoryName));
  if (v.odds !== null && v.odds !== undefined && v.selection.length === 2) {
    parts.push(`${territoryName(v.selection[0])} → ${territoryName(v.selection[1])}: chance to conquer ${percent(v.odds)}`);
  }
  return parts.join(" · ");
}

// A remote seat taps territories from here; a press held 0.8 s (or a right click) is a long press, which places a
// fleet where the ruleset has fleets, as at the board. A drag or a pinch of the map is not a tap. On a touch screen
// where the discs are smaller than a finger (a phone shows the whole world 360 px wide: discs of 13 px), a tap
// first zooms in on the region it touched, so that its discs are at least TARGET_PX; the next tap picks.
const LONG_PRESS_MS = 800;
const TARGET_PX = 48;
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
  node.addEventListener("click", (e) => {
    if (!seatView || long || zoom.moved()) return;  // long: already sent by the context menu (a long touch)
    if (zoom.closer(e)) return;
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
  let touch = false;    // the last press was a finger's
  const whole = document.getElementById("whole-map");
  function svg() { return world && world.svg; }
  function apply() {
    const node = svg();
    if (!node || !box) return;
    const shown = box.map((v) => Math.round(v * 10) / 10).join(" ");
    node.setAttribute("viewBox", shown);
    world.overlay.setAttribute("viewBox", shown);
    const zoomed = box[2] < base[2] - 0.5;
    frame.classList.toggle("zoomed", zoomed);
    whole.classList.toggle("hidden", !zoomed);
  }
  // A disc's width on the screen now (the drawn disc and its rim: 57 map units).
  function discPx() {
    const ctm = world && world.overlay.getScreenCTM();
    return ctm ? 57 * ctm.a : Infinity;
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
    touch = e.pointerType === "touch";
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
  // The sea, as the land: a remote seat's finger on a map too small zooms in.
  frame.addEventListener("click", (e) => {
    if (seatView && !zoom.moved() && e.target.closest("svg")) zoom.closer(e);
  });
  whole.addEventListener("click", (e) => {
    e.stopPropagation();
    if (!base) return;
    box = base.slice();
    apply();
  });
  return {
    // A finger's tap where the discs are smaller than TARGET_PX zooms in around it (true: the tap was used so).
    closer(e) {
      const size = discPx();
      if (!touch || !box || size >= TARGET_PX - 0.5) return false;
      e.stopPropagation();
      const anchor = toMap(e.clientX, e.clientY, box);
      const r = frame.getBoundingClientRect();
      const k = Math.min(6, TARGET_PX / size);
      const w = box[2] / k;
      const h = box[3] / k;
      box = clamp([anchor[0] - (e.clientX - r.left) / r.width * w, anchor[1] - (e.clientY - r.top) / r.height * h, w, h]);
      apply();
      return true;
    },
    reset() {
      const node = svg();
      if (!node) return;
      base = node.getAttribute("viewBox").split(/[ ,]+/).map(Number);
      box = base.slice();
      apply();
    },
    moved() { return travelled > 12; },
    // A remote seat zoomed in follows the play (issue 40): when the territories the table's move names (another
    // seat's attack, the last roll) are off the part shown, the view pans to them at the same zoom; never while a
    // finger is on the map.
    follow(ids) {
      if (!world || !box || !base || box[2] >= base[2] - 0.5 || pointers.size) return;
      const boxes = ids.map((id) => world.lands[id]).filter((l) => l && l.getBBox).map((l) => l.getBBox());
      if (!boxes.length) return;
      const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
      const x1 = Math.max(...boxes.map((b) => b.x + b.width)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
      if (x0 >= box[0] && y0 >= box[1] && x1 <= box[0] + box[2] && y1 <= box[1] + box[3]) return;
      box = clamp([(x0 + x1 - box[2]) / 2, (y0 + y1 - box[3]) / 2, box[2], box[3]]);
      apply();
    },
  };
})();

// What a remote seat's zoom follows: the territories the move being made names, or the last roll's.
function followed(v) {
  if (v.selection && v.selection.length) return v.selection;
  return v.roll && v.roll.shown ? [v.roll.source, v.roll.target] : [];
}

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
setInterval(() => { if (sideTimer === null) drawClock(); }, 1000);   // as the countdown's

const client = connect((frame) => {
  if (frame.type === "map") map = frame.map;
  else if (frame.type === "public") view = frame.view;
  else if (frame.type === "seat") seatView = frame.view;
  else if (frame.type === "taken_over" || frame.type === "unseated") {
    // The seat is no longer played from here (opened on another screen, handed to a bot, gone with a new game): its
    // controls and its secrets go at once, and the screen says why.
    seatView = null;
    history.replaceState(null, "", location.pathname);
    const seat = view && view.seats[frame.seat];
    document.getElementById("you").textContent = `This screen no longer plays ${seat ? seat.colour : "its seat"}: ` +
      `${frame.reason}.`;
  }
  else if (frame.type === "error") document.getElementById("status").textContent = frame.error;
  document.body.classList.toggle("remote-seat", Boolean(seatView));
  setText(document.getElementById("zoom-hint"), seatView ? "tap to zoom in · pinch · drag" : "pinch to zoom · drag to move");
  ensureWorld();
  draw();
  panel.update(seatView, view, map);
  if (seatView && view && frame.type === "public") zoom.follow(followed(view));
  if (seatView && view && view.over) document.getElementById("you").textContent = "The game is over.";
  else if (seatView) document.getElementById("you").replaceChildren(...seatLabel(seatView),
    `you play ${seatView.colour} from here`);
}, (state) => {
  const status = document.getElementById("status");
  status.textContent = state;
  status.classList.toggle("offline", state !== "connected");   // readable from across the room
});
const panel = seatPanel(client);

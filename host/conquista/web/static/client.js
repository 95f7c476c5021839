"use strict";
// One WebSocket to the board, reopened after a drop; the first message is a hello (with the seat token, if any).
// The token lives only in the URL fragment, which browsers never send to a server.

function seatToken() {
  const match = /(?:^|[#&])t=([A-Za-z0-9_-]+)/.exec(location.hash);
  return match ? match[1] : null;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    // Through the CSSOM: the page's Content-Security-Policy refuses inline style attributes.
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// A heartbeat: the page pings every PING_MS and counts the connection dead when nothing (a pong or any frame) came
// back for DEAD_MS. A dropped Wi-Fi leaves a socket "open" for a minute or more; this says "offline" within 5 s
// and opens a new one. The dead socket is abandoned (its close handshake could take as long).
const PING_MS = 1500;
const DEAD_MS = 4500;

// The board's clock, as this screen reckons it: every public view and every pong carries the board's "now", so a
// screen counts the turn's time (and the tournament's) from the moments the board sent, whenever it opened.
const boardClock = (() => {
  let offset = null;    // the board's now minus this screen's, in seconds
  return {
    note(now) { if (typeof now === "number") offset = now - performance.now() / 1000; },
    now() { return offset === null ? null : performance.now() / 1000 + offset; },
  };
})();

function connect(onFrame, onState) {
  let socket = null;
  let delay = 500;
  let heard = 0;
  let retry = null;
  const client = {
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    reopen() { if (socket) socket.close(); },
  };
  function lost() {
    if (!socket) return;
    const dead = socket;
    socket = null;
    dead.onopen = dead.onmessage = dead.onclose = dead.onerror = null;
    try { dead.close(); } catch (e) { /* already closing */ }
    onState("offline: reconnecting…");
    clearTimeout(retry);
    retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, 5000);
  }
  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws`);
    heard = performance.now();   // a socket that does not open within DEAD_MS is given up too
    socket.onopen = () => {
      delay = 500;
      heard = performance.now();
      const hello = { type: "hello" };
      const token = seatToken();
      if (token) hello.token = token;
      // A page with patch.js takes the public view as differences from the last one (the first comes whole).
      if (typeof viewPatches !== "undefined") { viewPatches.reset(); hello.diffs = true; }
      socket.send(JSON.stringify(hello));
      onState("connected");
    };
    socket.onmessage = (event) => {
      heard = performance.now();
      const raw = JSON.parse(event.data);
      boardClock.note(raw.now);
      if (raw.type === "pong") return;
      const frame = typeof viewPatches !== "undefined" ? viewPatches.frame(raw) : raw;
      if (frame === null) return;
      onFrame(frame);
      // For the page's separate modules (speech.js, luck.js): every frame, after the page has drawn it.
      document.dispatchEvent(new CustomEvent("conquista-frame", { detail: frame }));
    };
    socket.onclose = lost;
  }
  let pinged = 0;
  setInterval(() => {
    if (!socket) return;
    const now = performance.now();
    if (now - heard > DEAD_MS) { lost(); return; }
    if (socket.readyState === WebSocket.OPEN && now - pinged >= PING_MS) {
      pinged = now;
      socket.send('{"type":"ping"}');
    }
  }, 250);
  // The page's later scripts (speech.js, luck.js) listen for the frames too: a frame that arrived between two
  // scripts' loading would reach only the ones already run (speech.js missed the map and never spoke). The
  // socket opens once every script of the page has run.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", open, { once: true });
  else open();
  return client;
}

// A seat's (or a territory owner's) colour with its letter: the colour is never the only sign of who it is.
function swatch(rgb, letter) {
  // Hidden from screen readers, which read the colour's name next to it.
  return el("span", { class: `swatch${isDark(rgb) ? " on-dark" : ""}`, style: `background: ${rgb}`, "aria-hidden": "true" },
    letter || "");
}

function isDark(hex) {
  const n = parseInt(hex.slice(1), 16);
  return ((n >> 16) & 255) * 0.3 + ((n >> 8) & 255) * 0.59 + (n & 255) * 0.11 < 110;
}

// The modules shared by every page (luck.js, speech.js) bring their own sheet: a page needs only their <script>.
function sharedStyle() {
  if (document.querySelector("link[data-shared]")) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/shared.css", "data-shared": "" }));
}

// A battle in words, for the dice's caption on every screen: "Brazil → North Africa: red lost 1 army, yellow 2
// armies", and the conquest. `name`: a territory's name from its id.
function battleWords(roll, name) {
  const lost = (n) => (n === 0 ? "none" : n === 1 ? "1 army" : `${n} armies`);
  const attacker = roll.attacker || "the attacker";
  const defender = roll.defender || "the defender";
  const took = roll.conquered ? ` · ${attacker} took ${name(roll.target)}` : "";
  return `${name(roll.source)} → ${name(roll.target)}: ${attacker} lost ${lost(roll.lost[0])}, ` +
    `${defender} ${roll.lost[1] ? "" : "lost "}${lost(roll.lost[1])}${took}`;
}

// A chance in per cent, never "100%" or "0%" for what may still go either way.
function percent(odds) {
  const pct = Math.round(odds * 100);
  return `${pct >= 100 && odds < 1 ? ">99" : (pct <= 0 && odds > 0 ? "<1" : `${pct}`)}%`;
}

// A notice (a seat granted, a time-out) is news for a while, then it goes from the screen: a notice that stood through
// a whole placement read as if it were still happening. `redraw` runs when it goes. A refusal is not passed here.
const NOTICE_MS = 10000;
const noticeSeen = new Map();
function freshNotice(text, redraw) {
  if (!text) return "";
  let at = noticeSeen.get(text);
  if (at === undefined) {
    at = performance.now();
    noticeSeen.set(text, at);
    if (noticeSeen.size > 40) noticeSeen.delete(noticeSeen.keys().next().value);
    setTimeout(redraw, NOTICE_MS + 50);
  }
  return performance.now() - at < NOTICE_MS ? text : "";
}

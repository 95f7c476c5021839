"use strict";
// A player's phone: ask for a seat, then the private view. Secrets (mission, cards) are put on the screen only
// while the player holds the button, and taken off when the page is hidden.
let map = null;
let publicView = null;
let seatView = null;
let hostView = null;
let claimNote = "";
let showing = false;

const $ = (id) => document.getElementById(id);

const client = connect(onFrame, (state) => { $("status").textContent = state; });

function onFrame(frame) {
  switch (frame.type) {
    case "map": map = frame.map; break;
    case "public": publicView = frame.view; break;
    case "seat": seatView = frame.view; break;
    case "host": hostView = frame.view; break;
    case "granted":
      history.replaceState(null, "", `${location.pathname}#t=${frame.token}`);
      claimNote = "";
      break;
    case "welcome": claimNote = ""; break;
    case "claim": claimNote = frame.state === "asked" ? frame.reason : `${frame.state}: ${frame.reason}`; break;
    case "taken_over":
      seatView = null; hostView = null;
      history.replaceState(null, "", location.pathname);
      claimNote = "Your seat is now open on another screen.";
      break;
    case "error":
      if (frame.code === "bad_token") history.replaceState(null, "", location.pathname);
      claimNote = frame.error;
      break;
  }
  draw();
}

function drawJoin() {
  $("join").classList.toggle("hidden", seatView !== null || !publicView);
  if (!publicView || seatView) return;
  $("seats").replaceChildren(...publicView.seats.map((s) => el("button", {
    "data-seat": s.seat, onclick: () => client.send({ type: "claim", seat: s.seat }),
    ...(s.bot ? { disabled: "" } : {}),
  }, el("span", { class: "swatch", style: `background: ${s.rgb}` }), s.bot ? `${s.colour} (bot)` : s.colour)));
}

function drawSecret() {
  const box = $("secret");
  box.classList.toggle("hidden", !showing);
  if (!showing || !seatView) { box.replaceChildren(); return; }
  const parts = [];
  if (seatView.mission) {
    parts.push(el("h2", {}, "Your mission"), el("p", { id: "mission" }, seatView.mission.text));
    for (const m of seatView.mission.meters) {
      const share = m.need ? Math.min(100, Math.round((100 * m.have) / m.need)) : (m.have === 0 ? 100 : 0);
      parts.push(el("div", {}, `${m.label}: ${m.have}${m.need ? ` / ${m.need}` : ""}`),
        el("div", { class: "meter" }, el("div", { style: `width: ${share}%` })));
    }
  }
  parts.push(el("h2", {}, "Your cards"));
  parts.push(el("ul", { class: "cards", id: "cards" },
    ...seatView.cards.map((c) => el("li", {}, `${c.territory} · ${c.symbol}`))));
  if (!seatView.cards.length) parts.push(el("p", {}, "no cards yet"));
  if (seatView.sets.length) {
    parts.push(el("h2", {}, "Sets you can trade"));
    for (const s of seatView.sets) {
      const names = s.cards.map((c) => (c < map.territories.length ? map.territories[c].name : "Jolly"));
      parts.push(el("button", { class: "trade", onclick: () => client.send({ type: "trade", cards: s.cards }),
        ...(seatView.can_trade ? {} : { disabled: "" }) }, `${s.kind}: ${names.join(", ")} → ${s.armies} armies`));
    }
  }
  box.replaceChildren(...parts);
}

function drawPlay() {
  $("play").classList.toggle("hidden", !seatView);
  if (!seatView) return;
  $("title").replaceChildren(el("span", { class: "swatch", style: `background: ${seatView.rgb}` }),
    `you are ${seatView.colour}`);
  $("pending").textContent = seatView.my_turn ? seatView.pending :
    (publicView ? `${publicView.seats[publicView.to_move] ? publicView.seats[publicView.to_move].colour : "—"} ` +
      `is playing: ${publicView.pending}` : "");
  $("refused").textContent = seatView.refused;
  const counts = [];
  if (seatView.to_place) counts.push(`armies to place: ${seatView.to_place}`);
  if (seatView.dice && seatView.dice.attack) counts.push(`you roll ${seatView.dice.attack} dice (max ${seatView.dice.max})`);
  if (seatView.dice && seatView.dice.defend) counts.push(`you defend with ${seatView.dice.defend} dice`);
  if (seatView.move_in) counts.push(`move in ${seatView.move_in.count} (${seatView.move_in.min}–${seatView.move_in.max})`);
  if (seatView.odds !== null) counts.push(`chance to conquer: ${Math.round(seatView.odds * 100)}%`);
  $("counts").textContent = counts.join(" · ");
  for (const b of $("buttons").querySelectorAll("button")) b.disabled = !seatView.my_turn;
  $("forced").classList.toggle("hidden", !seatView.forced_trade);
  drawSecret();
}

function drawHost() {
  $("host").classList.toggle("hidden", !hostView || !seatView);
  if (!hostView) return;
  const switches = Object.entries(hostView.switches).map(([k, v]) => `${k}: ${v ? "on" : "off"}`).join(", ");
  $("setup").replaceChildren(el("p", {}, `ruleset ${hostView.rules}, ${hostView.players} players, bots: ` +
    `${hostView.bots.length ? hostView.bots.join(", ") : "none"}`), el("p", {}, switches));
  $("pause").textContent = hostView.paused ? "Resume the game" : "Pause the game";
}

function draw() {
  $("notice").textContent = claimNote;
  $("notice").classList.toggle("hidden", !claimNote);
  drawJoin();
  drawPlay();
  drawHost();
}

for (const b of document.querySelectorAll("[data-press]")) {
  b.addEventListener("click", () => client.send({ type: "press", button: b.dataset.press }));
}
for (const b of document.querySelectorAll("[data-turn]")) {
  b.addEventListener("click", () => client.send({ type: "turn", steps: Number(b.dataset.turn) }));
}
$("pause").addEventListener("click", () => client.send({ type: "pause", paused: !(hostView && hostView.paused) }));
const hold = $("secret-hold");
const show = (on) => { showing = on; drawSecret(); };
hold.addEventListener("pointerdown", (e) => { e.preventDefault(); show(true); });
for (const end of ["pointerup", "pointerleave", "pointercancel"]) hold.addEventListener(end, () => show(false));
hold.addEventListener("contextmenu", (e) => e.preventDefault());
document.addEventListener("visibilitychange", () => { if (document.hidden) show(false); });
window.addEventListener("blur", () => show(false));

"use strict";
// A player's phone: ask for a seat, then the private view. Secrets (mission, cards) are put on the screen only
// while the player holds the button, and taken off when the page is hidden.
let map = null;
let publicView = null;
let seatView = null;
let hostView = null;
let claimNote = "";
let remoteLinks = {};

const $ = (id) => document.getElementById(id);

const client = connect(onFrame, (state) => { $("status").textContent = state; });
const panel = seatPanel(client);

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
    case "remote_link": remoteLinks[frame.seat] = `${location.origin}/board#t=${frame.token}`; break;
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

function drawPlay() {
  if (seatView) {
    $("title").replaceChildren(el("span", { class: "swatch", style: `background: ${seatView.rgb}` }),
      `you are ${seatView.colour}`);
  }
  panel.update(seatView, publicView, map);
}

function drawHost() {
  $("host").classList.toggle("hidden", !hostView || !seatView);
  if (!hostView) return;
  const switches = Object.entries(hostView.switches).map(([k, v]) => `${k}: ${v ? "on" : "off"}`).join(", ");
  $("setup").replaceChildren(el("p", {}, `ruleset ${hostView.rules}, ${hostView.players} players, bots: ` +
    `${hostView.bots.length ? hostView.bots.join(", ") : "none"}`), el("p", {}, switches));
  $("pause").textContent = hostView.paused ? "Resume the game" : "Pause the game";
  $("new-game").classList.toggle("hidden", !hostView.can_set_up);
  const select = $("new-rules");
  if (hostView.can_set_up && !select.options.length) {
    select.replaceChildren(...hostView.rulesets.map((r) => el("option", { value: r.name }, `${r.name} (${r.min}–${r.max})`)));
    select.value = hostView.rules;
    drawRuleset();
  }
  drawSeatChoices();
  $("resume").classList.toggle("hidden", !hostView.saved.length);
  $("saved").replaceChildren(...hostView.saved.map((g) => el("button", {
    "data-resume": g.id, onclick: () => client.send({ type: "resume", game: g.id }),
  }, `game ${g.id}: ${g.rules}, ${g.players} players${g.bots ? ` (${g.bots} bots)` : ""}, turn ${g.turn}, ` +
     `last played ${g.last_played.replace("T", " ").slice(0, 16)}`)));
  const physical = hostView.switches["physical dice"];
  $("dice").textContent = physical ? "Use the board's dice" : "Use physical dice (typed in with the encoder)";
  const seats = publicView ? publicView.seats.filter((s) => !s.bot && s.seat !== seatView.seat) : [];
  $("remote").replaceChildren(...seats.map((s) => el("div", {},
    el("button", { "data-remote": s.seat, onclick: () => client.send({ type: "remote", seat: s.seat }) },
      `give ${s.colour} to a remote player`),
    remoteLinks[s.seat] ? el("input", { readonly: "", class: "link", "data-link": s.seat, value: remoteLinks[s.seat] })
      : "")));
  // A player leaves (their armies stay and only defend), or a bot takes the seat: the board applies it.
  const leaving = publicView ? publicView.seats.filter((s) => hostView.may_leave.includes(s.seat)) : [];
  $("leave").replaceChildren(...leaving.map((s) => el("div", {},
    el("button", { "data-leave": s.seat, onclick: () => client.send({ type: "leave", seat: s.seat, bot: false }) },
      `${s.colour} leaves (armies only defend)`),
    hostView.bot_takeover && !s.bot ? el("button", { "data-bot-seat": s.seat,
      onclick: () => client.send({ type: "leave", seat: s.seat, bot: true }) }, `a bot plays ${s.colour}`) : "")));
}

// The new game's seats: a person or a bot (which kind) for each, the host's own always a person. Choices made
// survive redraws: they are read back from the selects, not from the host view.
function drawSeatChoices() {
  if (!hostView || !hostView.can_set_up || !publicView || !seatView) return;
  const players = Number($("new-players").value) || 0;
  const box = $("new-seats");
  const kept = {};
  for (const s of box.querySelectorAll("select")) kept[s.dataset.seat] = s.value;
  const key = `${seatView.seat}/${players}/${$("new-rules").value}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const chosen = hostView.rulesets.find((r) => r.name === $("new-rules").value);
  const colours = chosen ? chosen.colours : publicView.seats.map((s) => s.colour);
  box.replaceChildren(...Array.from({ length: players }, (_, seat) => {
    const name = colours[seat] || `seat ${seat}`;
    if (seat === seatView.seat) return el("div", {}, `${name}: you`);
    const choice = el("select", { "data-seat": seat },
      el("option", { value: "" }, "a person"), ...hostView.bot_names.map((b) => el("option", { value: b }, `bot: ${b}`)));
    choice.value = kept[seat] !== undefined ? kept[seat] : (hostView.bot_kinds[seat] || "");
    return el("label", {}, `${name}: `, choice);
  }));
}

function drawRuleset() {
  const chosen = hostView && hostView.rulesets.find((r) => r.name === $("new-rules").value);
  if (!chosen) return;
  $("new-players").min = chosen.min;
  $("new-players").max = chosen.max;
  $("new-defence").checked = chosen.automatic_defence;
}

function newGame() {
  const bots = {};
  for (const s of $("new-seats").querySelectorAll("select")) if (s.value) bots[s.dataset.seat] = s.value;
  return { type: "new_game", rules: $("new-rules").value, players: Number($("new-players").value), bots,
    automatic_defence: $("new-defence").checked, committed_dice: $("new-committed").checked };
}

function draw() {
  $("notice").textContent = claimNote;
  $("notice").classList.toggle("hidden", !claimNote);
  drawJoin();
  drawPlay();
  drawHost();
}

$("pause").addEventListener("click", () => client.send({ type: "pause", paused: !(hostView && hostView.paused) }));
$("new-start").addEventListener("click", () => client.send(newGame()));
$("new-rules").addEventListener("change", () => { drawRuleset(); drawSeatChoices(); });
$("new-players").addEventListener("input", drawSeatChoices);
$("dice").addEventListener("click", () => client.send({
  type: "dice", physical: !(hostView && hostView.switches["physical dice"]) }));

"use strict";
// A player's phone: ask for a seat, then the private view. Secrets (mission, cards) are put on the screen only
// while the player holds the button (or opened to trade a set), and taken off when the page is hidden.
// Seats are named by their colour everywhere; the host's buttons that drop a player or a game ask twice.
let map = null;
let publicView = null;
let seatView = null;
let hostView = null;
let claimNote = "";
let lostWords = "";   // why this screen no longer plays its seat: the way back (againWords) follows each public view
let seatAsked = null;     // another screen asks for this screen's seat: it may refuse from here
let remoteLinks = {};
let wasMyTurn = false;
let claimingSeat = null;  // the seat this phone asked for, while the board waits for ROLL and NEXT
let gestured = false;     // the page was touched (a browser without navigator.userActivation)
document.addEventListener("pointerdown", () => { gestured = true; }, { capture: true, once: true });
const CONFIRM_MS = 4000;

const $ = (id) => document.getElementById(id);

const client = connect(onFrame, (state) => {
  $("status").textContent = state;
  $("status").classList.toggle("offline", state !== "connected");
  document.body.classList.toggle("offline", state !== "connected");   // nothing tapped now would arrive
});
const panel = seatPanel(client);

function onFrame(frame) {
  switch (frame.type) {
    case "map": map = frame.map; break;
    case "public":
      publicView = frame.view;
      if (lostWords) claimNote = `${lostWords} ${againWords()}`;   // the seats as they are now, not at the loss
      break;
    case "seat": seatView = frame.view; break;
    case "host": hostView = frame.view; break;
    case "granted":
      history.replaceState(null, "", `${location.pathname}#t=${frame.token}`);
      claimNote = ""; lostWords = "";
      break;
    case "welcome": claimNote = ""; lostWords = ""; break;
    case "remote_link": remoteLinks[frame.seat] = `${location.origin}/board#t=${frame.token}`; break;
    case "claim":
      claimNote = frame.state === "asked" ? frame.reason : `${frame.state}: ${frame.reason}`;
      claimingSeat = frame.state === "asked" ? frame.seat : null;
      break;
    case "unseated": {
      // The seat changed hands (a bot plays it now, its player left, a new game seated others): this screen
      // stops showing it at once, and says why and how to ask again.
      seatView = null; hostView = null; seatAsked = null;
      history.replaceState(null, "", location.pathname);
      lostWords = `This screen no longer plays ${colourOf(frame.seat)}: ${frame.reason}.`;
      claimNote = `${lostWords} ${againWords()}`;
      break;
    }
    case "seat_asked": {
      // A claim waits 30 s at most at the board: the question goes with it.
      seatAsked = frame;
      setTimeout(() => { if (seatAsked === frame) { seatAsked = null; draw(); } }, 30000);
      break;
    }
    case "taken_over": {
      const colour = colourOf(frame.seat);
      seatView = null; hostView = null;
      history.replaceState(null, "", location.pathname);
      claimNote = `This screen lost the ${colour} seat: it was opened on another screen. ` +
        (publicView && publicView.over ? "The game is over." : `To play ${colour} here again, tap ${colour} below ` +
        "and press ROLL and NEXT together at the board.");
      break;
    }
    case "error":
      if (frame.code === "bad_token") {
        history.replaceState(null, "", location.pathname);
        seatView = null; hostView = null;
        claimNote = "This screen lost its seat: the link no longer works (a new game, a bot took the seat, or " +
          "another phone has it). Tap your colour below and press ROLL and NEXT together at the board to get it back.";
      } else {
        claimNote = frame.error;
      }
      break;
  }
  draw();
}

function drawJoin() {
  // No seat to ask for once the game is over: the result is shown instead.
  $("join").classList.toggle("hidden", seatView !== null || !publicView || publicView.over);
  if (!publicView || seatView || publicView.over) return;
  // A taken seat is marked: asking for it asks its phone too, and the board must grant it.
  $("seats").replaceChildren(...publicView.seats.map((s) => el("button", {
    "data-seat": s.seat, onclick: () => client.send({ type: "claim", seat: s.seat }),
    ...(s.bot ? { disabled: "" } : {}),
  }, swatch(s.rgb, s.mark),
  s.bot ? `${s.colour} (bot)` : s.phone ? `${s.colour} (taken)` : s.colour)));
}

// How to play here again: a free colour, when one is; the end of the game, when it is over.
function againWords() {
  if (publicView && publicView.over) return "The game is over.";
  const free = publicView ? publicView.seats.filter((s) => !s.bot && !s.phone) : [];
  if (!free.length) return "No colour is free now: every seat is played by a phone or a bot.";
  return "To play here again, tap a free colour below and press ROLL and NEXT together at the board.";
}

function colourOf(seat) {
  const s = publicView && publicView.seats[seat];
  return s ? s.colour : `seat ${seat}`;
}

function drawPlay() {
  if (seatView) {
    $("title").replaceChildren(swatch(seatView.rgb, seatView.mark),
      `you are ${seatView.colour}`);
  } else {
    $("title").textContent = "conquista";      // a seat lost or given up: the title no longer claims it
  }
  panel.update(seatView, publicView, map);
  drawTurn();
  drawRoll();
}

// "Your turn" is plain: a banner in the seat's colour, the page title (seen from another tab), a short vibration.
// While another seat plays, the banner stays (quiet: whose turn it is), so the pad under it never moves. Its right
// end is the countdown that matters now: the defence's dice choice, else the turn's clock.
function drawTurn() {
  const playing = Boolean(seatView && publicView && !publicView.over && !publicView.menu);
  const mine = playing && seatView.my_turn;
  const banner = $("turn-banner");
  banner.classList.toggle("hidden", !playing);
  banner.classList.toggle("quiet", playing && !mine);
  if (!playing) banner.replaceChildren();   // its countdown goes with it (a spectator's is under "the game")
  if (playing) {
    const tag = swatch(seatView.rgb, seatView.mark);
    if (mine) {
      banner.style.cssText = `background: ${seatView.rgb}; color: ${isDark(seatView.rgb) ? "#fff" : "#000"}`;
      // The seat's letter on a square white tag: a letter in a disc of the banner's own colour read as "®".
      tag.classList.add("tag");
      banner.replaceChildren(tag, el("span", { class: "what" },
        seatView.for_neutral ? "Your turn: the neutral army" : seatView.defend_deadline ? "Defend" : "Your turn"),
      el("span", { id: "countdown", class: "countdown" }));
    } else {
      banner.style.cssText = "";
      const mover = publicView.seats[publicView.turn_of];
      banner.replaceChildren(...(mover ? [swatch(mover.rgb, mover.mark), el("span", { class: "what" }, `${mover.colour}'s turn`)] : []),
        el("span", { id: "countdown", class: "countdown" }));
    }
  }
  drawCountdown();
  document.title = mine ? "● Your turn · conquista" : (seatView ? `conquista · ${seatView.colour}` : "conquista · your seat");
  // Only once the player has touched the page: a browser blocks (and logs) a vibration before any gesture, as on a
  // seat page opened during its own turn.
  const touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : gestured;
  if (mine && !wasMyTurn && touched && $("vibrate").checked && navigator.vibrate) navigator.vibrate([120, 80, 120]);
  wasMyTurn = mine;
}

// m:ss of a number of seconds (never negative).
function clockWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The countdowns, on the board's clock (every screen counts the same): the defender's dice choice ("12 s to
// choose", then the board rolls the most), the turn's time limit ("1:05 left"), or without a limit the turn's time
// so far; and on a phone that asked for a seat, the claim's seconds left at the board.
function drawCountdown() {
  const now = boardClock.now();
  const node = $("countdown");
  if (node) {
    let text = "";
    let urgent = false;
    const clock = publicView && publicView.clock;
    if (seatView && seatView.defend_deadline && now !== null) {
      const left = seatView.defend_deadline - now;
      text = `${Math.max(0, Math.ceil(left))} s left`;   // then the board rolls the most dice for this seat
      urgent = left <= 5;
    } else if (clock && clock.limit) {
      const left = clock.deadline !== null && now !== null ? clock.deadline - now : clock.left;
      if (left !== null) { text = `${clockWords(left)} left`; urgent = left <= 10; }
    } else if (clock && clock.started !== null && now !== null) {
      text = clockWords(now - clock.started);
    }
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("urgent", urgent);
  }
  const claim = $("claim-countdown");
  const deadline = publicView && publicView.claim_deadline;
  const asking = claimingSeat !== null && !seatView && deadline && now !== null &&
    publicView.seats[claimingSeat] && publicView.seats[claimingSeat].claiming;
  claim.classList.toggle("hidden", !asking);
  if (asking) {
    const left = Math.max(0, Math.ceil(deadline - now));
    const text = `${left} s left to press ROLL + NEXT`;
    if (claim.textContent !== text) claim.textContent = text;
    claim.classList.toggle("urgent", left <= 5);
  }
}
setInterval(drawCountdown, 250);

// A phone with no seat (a spectator, or before asking for one) shows the public board in phone form: whose turn
// with the turn's clock, the last roll, each player's territories, armies and cards, and the log's last lines.
function drawWatch() {
  const show = Boolean(!seatView && publicView && !publicView.over && !publicView.menu && map);
  $("watch").classList.toggle("hidden", !show);
  if (!show) return;
  const mover = publicView.seats[publicView.turn_of];
  if (mover) {
    $("watch-turn").replaceChildren(swatch(mover.rgb, mover.mark), el("span", { class: "what" },
      `${mover.colour} to play · ${publicView.phase}`), el("span", { id: "countdown", class: "countdown" }));
  }
  drawRoll($("watch-roll"), true);
  const armies = {};
  for (const t of publicView.territories) if (t.owner !== null) armies[t.owner] = (armies[t.owner] || 0) + t.armies;
  $("watch-players").replaceChildren(...publicView.seats.map((s) => el("li", {
    class: `${s.seat === publicView.turn_of ? "now" : ""}${s.eliminated ? " out" : ""}` },
  swatch(s.rgb, s.mark), el("b", {}, s.colour),
  s.eliminated ? " out" : ` ${s.territories} terr. · ${armies[s.seat] || 0} armies · ${s.cards} cards`,
  s.bot ? " · bot" : "")));
  $("watch-log").replaceChildren(...publicView.log.slice(-5).map((line) => el("li", {}, line)));
}

// The last roll's dice, attack in red and defence in blue, with the battle they belong to.
function drawRoll(box = $("roll"), watching = false) {
  // Only a roll every screen shows as news (the table's view says: this turn's, while a game is played).
  const roll = publicView && publicView.roll && publicView.roll.shown && publicView.roll;
  box.classList.toggle("hidden", !roll || (!seatView && !watching));
  if (!roll || !map) return;
  const name = (id) => { const t = map.territories.find((x) => x.id === id); return t ? t.name : id; };
  box.replaceChildren(
    el("div", { class: "dice" }, ...roll.attack.map((d) => el("span", { class: "a" }, d)), el("i", {}, "vs"),
      ...roll.defence.map((d) => el("span", { class: "d" }, d))),
    el("div", { class: "roll-words" }, battleWords(roll, name)));
}

// A remote seat's link, to hand on: the phone's share sheet where it has one (a message, a mail), else a copy to the
// clipboard; the link itself stays readable (and selectable) under the button.
function linkTools(s, link) {
  const field = el("input", { readonly: "", class: "link", "data-link": s.seat, value: link });
  const note = el("span", { class: "copied", role: "status" }, "");
  const copy = () => {
    field.select();
    const done = () => { note.textContent = "copied"; setTimeout(() => { note.textContent = ""; }, 3000); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(link).then(done, () => {});
    else if (document.execCommand && document.execCommand("copy")) done();
  };
  const share = navigator.share
    ? el("button", { "data-share": s.seat, onclick: () => navigator.share({ title: `conquista: play ${s.colour}`, url: link }).catch(() => {}) },
      `Share the ${s.colour} link`)
    : el("button", { "data-copy": s.seat, onclick: copy }, `Copy the ${s.colour} link`);
  return [el("div", { class: "link-tools" }, share, note), field];
}

// A button that drops a player or a game asks again: the first tap arms it for a few seconds.
function confirmed(button, question, act) {
  if (button.dataset.armed) {
    delete button.dataset.armed;
    button.textContent = button.dataset.label;
    act();
    return;
  }
  button.dataset.label = button.textContent;
  button.dataset.armed = "1";
  button.textContent = question;
  setTimeout(() => {
    if (!button.dataset.armed) return;
    delete button.dataset.armed;
    button.textContent = button.dataset.label;
  }, CONFIRM_MS);
}

function drawHost() {
  $("host").classList.toggle("hidden", !hostView || !seatView);
  if (!hostView) return;
  const switches = Object.entries(hostView.switches).map(([k, v]) => `${k}: ${v ? "on" : "off"}`).join(", ");
  // Only what applies now: the game's settings, a pause, the dice and players leaving while a game is played; the
  // form for a new one whenever the host may set one up.
  const playing = Boolean(hostView.playing);
  $("setup").classList.toggle("hidden", !playing);
  $("setup").replaceChildren(el("p", {}, `ruleset ${hostView.rules}, ${hostView.players} players, bots: ` +
    `${hostView.bots.length ? hostView.bots.map(colourOf).join(", ") : "none"}`),
    el("p", {}, `${switches}, LED colours: ${hostView.palette}`));
  $("host-title").classList.toggle("hidden", !playing);   // before a game the form's own heading says it
  $("pause").classList.toggle("hidden", !playing);
  $("dice").classList.toggle("hidden", !playing);
  $("pause").textContent = hostView.paused ? "Resume the game" : "Pause the game";
  $("new-game").classList.toggle("hidden", !hostView.can_set_up);
  const select = $("new-rules");
  if (hostView.can_set_up && !select.options.length) {
    select.replaceChildren(...hostView.rulesets.map((r) => el("option", { value: r.name }, `${r.name} (${r.min}–${r.max})`)));
    select.value = hostView.rules;
    $("new-palette").value = hostView.palette;   // the board's colours: the next games keep them
    drawRuleset();
  }
  drawSeatChoices();
  $("resume").classList.toggle("hidden", !hostView.saved.length);
  $("saved").replaceChildren(...hostView.saved.map((g) => el("button", {
    "data-resume": g.id,
    onclick: (e) => confirmed(e.currentTarget,
      playing ? `Resume game ${g.id}? This game stops: tap again` : `Resume game ${g.id}? Tap again`,
      () => client.send({ type: "resume", game: g.id })),
  }, `game ${g.id}: ${g.rules}, ${g.players} players${g.bots ? ` (${g.bots} bots)` : ""}, turn ${g.turn}, ` +
     `last played ${g.last_played.replace("T", " ").slice(0, 16)}`)));
  const physical = hostView.switches["physical dice"];
  $("dice").textContent = physical ? "Use the board's dice" : "Use physical dice (typed in with the encoder)";
  // A seat a phone at the table holds is not offered to a remote player (its own link stays, once made).
  const seats = publicView ? publicView.seats.filter((s) => !s.bot && s.seat !== seatView.seat &&
    (!s.phone || s.remote || remoteLinks[s.seat])) : [];
  $("remote-title").classList.toggle("hidden", !seats.length);
  $("remote-note").classList.toggle("hidden", !seats.length);
  $("remote").replaceChildren(...seats.map((s) => el("div", { class: "remote-seat-row" },
    el("button", { "data-remote": s.seat, onclick: () => client.send({ type: "remote", seat: s.seat }) },
      `give ${s.colour} to a remote player`),
    ...(remoteLinks[s.seat] ? linkTools(s, remoteLinks[s.seat]) : []))));
  // A player leaves (their armies stay and only defend), or a bot takes the seat: the board applies it. Not
  // offered for the host's own seat (the host plays it), and asked twice.
  const leaving = publicView && playing ? publicView.seats.filter((s) => hostView.may_leave.includes(s.seat) &&
    s.seat !== seatView.seat) : [];
  $("leave-title").classList.toggle("hidden", !leaving.length);
  $("leave").replaceChildren(...leaving.map((s) => el("div", {},
    el("button", { "data-leave": s.seat, onclick: (e) => confirmed(e.currentTarget,
      `${s.colour} leaves for good? Tap again`, () => client.send({ type: "leave", seat: s.seat, bot: false })) },
      `${s.colour} leaves (armies only defend)`),
    hostView.bot_takeover && !s.bot ? el("button", { "data-bot-seat": s.seat, onclick: (e) => confirmed(e.currentTarget,
      `A bot plays ${s.colour} from now? Tap again`, () => client.send({ type: "leave", seat: s.seat, bot: true })) },
    `a bot plays ${s.colour}`) : "")));
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
    // The levels only (easy, normal, hard); a seat's bot of another kind keeps its own name as a choice.
    const was = hostView.bot_kinds[seat] || "";
    const levels = hostView.bot_levels || hostView.bot_names;
    const names = was && !levels.includes(was) ? [...levels, was] : levels;
    const choice = el("select", { "data-seat": seat },
      el("option", { value: "" }, "a person"), ...names.map((b) => el("option", { value: b }, `bot: ${b}`)));
    choice.value = kept[seat] !== undefined ? kept[seat] : was;
    return el("label", {}, `${name}: `, choice);
  }));
}

function drawRuleset() {
  const chosen = hostView && hostView.rulesets.find((r) => r.name === $("new-rules").value);
  if (!chosen) return;
  $("new-players").min = chosen.min;
  $("new-players").max = chosen.max;
  $("new-defence").checked = chosen.automatic_defence;
  $("new-tournament").checked = chosen.tournament_ending;
}

function newGame() {
  const bots = {};
  for (const s of $("new-seats").querySelectorAll("select")) if (s.value) bots[s.dataset.seat] = s.value;
  return { type: "new_game", rules: $("new-rules").value, players: Number($("new-players").value), bots,
    automatic_defence: $("new-defence").checked, committed_dice: $("new-committed").checked,
    tournament_ending: $("new-tournament").checked, palette: $("new-palette").value };
}

function drawSeatAsked() {
  const box = $("seat-asked");
  box.classList.toggle("hidden", !seatAsked || !seatView);
  if (!seatAsked || !seatView) return;
  box.replaceChildren(el("p", {}, seatAsked.text), el("button", {
    onclick: () => { client.send({ type: "refuse_claim" }); seatAsked = null; draw(); },
  }, "Refuse: keep my seat"));
}

// The end of the game, on every phone (seated or not): who won and how.
function drawResult() {
  const box = $("result");
  const over = publicView && publicView.over && publicView.winner !== null;
  box.classList.toggle("hidden", !over);
  if (!over) return;
  const winner = publicView.seats[publicView.winner];
  const mine = seatView && seatView.seat === winner.seat;
  box.replaceChildren(el("h2", {}, swatch(winner.rgb, winner.mark), mine ? "You won the game" : `${winner.colour} won the game`),
    el("p", {}, publicView.won_how || ""));
}

function draw() {
  document.body.classList.toggle("over", Boolean(publicView && publicView.over));
  // While a new game is set up (the board's menu, or the host's form) there is no turn and nothing to press.
  document.body.classList.toggle("menu", Boolean(publicView && publicView.menu));
  document.body.classList.toggle("seated", Boolean(seatView));
  // The host's phone during a set-up: its form is the way to choose, no line about the host choosing.
  document.body.classList.toggle("hosting", Boolean(hostView && hostView.can_set_up && seatView));
  drawResult();
  $("notice").textContent = claimNote;
  $("notice").classList.toggle("hidden", !claimNote);
  drawSeatAsked();
  if (publicView) tournamentClock.show($("tournament"), publicView);
  drawWatch();
  drawJoin();
  drawPlay();
  drawHost();
}

$("pause").addEventListener("click", () => client.send({ type: "pause", paused: !(hostView && hostView.paused) }));
$("new-start").addEventListener("click", (e) => confirmed(e.currentTarget,
  hostView && hostView.playing ? "Start it? The game being played stops: tap again" : "Start it? Tap again",
  () => client.send(newGame())));
$("vibrate").checked = localStorage.getItem("conquista.vibrate") !== "off";
$("vibrate").addEventListener("change", () => localStorage.setItem("conquista.vibrate", $("vibrate").checked ? "on" : "off"));
$("new-rules").addEventListener("change", () => { drawRuleset(); drawSeatChoices(); });
$("new-players").addEventListener("input", drawSeatChoices);
$("dice").addEventListener("click", () => client.send({
  type: "dice", physical: !(hostView && hostView.switches["physical dice"]) }));

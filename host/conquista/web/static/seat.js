"use strict";
// A seat's private panel, shared by the phone page and the board page of a remote seat: the counts that matter
// now, the buttons, and the secrets (mission, cards, sets), put on the screen only while the player holds the
// button and taken off when the page is hidden. To trade, "Trade a set" opens the secrets until a set is tapped
// (one tap trades it, and they hide again), "Hide" is tapped, or the page is hidden.

const REPEAT_AFTER_MS = 450;
const REPEAT_EVERY_MS = 160;

// A button that acts once on a tap and again and again while held.
function held(button, act) {
  let timer = null;
  const stop = () => { clearTimeout(timer); clearInterval(timer); timer = null; };
  button.addEventListener("pointerdown", (e) => {
    if (button.disabled) return;
    e.preventDefault();
    stop();
    act();
    timer = setTimeout(() => { timer = setInterval(() => { if (!button.disabled) act(); }, REPEAT_EVERY_MS); },
      REPEAT_AFTER_MS);
  });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) button.addEventListener(end, stop);
  button.addEventListener("contextmenu", (e) => e.preventDefault());
  // A keyboard's Enter or Space (no pointer) still acts once.
  button.addEventListener("click", (e) => { if (e.detail === 0) act(); });
}

// The pad's slots, the same on a phone and on a remote seat's board page (phone_buttons.py names them; pad.css puts
// each in its own place): every control keeps its box through the phases of a turn, and each end of a phase has a
// place of its own, never where the step before had a button (a double tap never ends two phases).
const PAD_SLOTS = [
  { slot: "roll", press: "roll", cls: "main", label: "ROLL" }, { slot: "blitz", press: "blitz", cls: "main", label: "BLITZ" },
  { slot: "cancel", press: "cancel", label: "CANCEL" },
  { slot: "less", turn: -1, label: "\u2212", aria: "one less" }, { slot: "more", turn: 1, label: "+", aria: "one more" },
  { slot: "all", all: true, label: "all" },
  { slot: "end_place", press: "next", cls: "end", label: "NEXT" },
  { slot: "end_attack", press: "next", cls: "end", label: "NEXT" },
  { slot: "end_turn", press: "next", cls: "end", label: "NEXT" },
];

function buildPad(pad) {
  pad.classList.add("pad", "slots");
  pad.replaceChildren(...PAD_SLOTS.map((s) => el("button", {
    "data-slot": s.slot, class: `${s.cls || ""} off`, disabled: "", "aria-hidden": "true",
    ...(s.press ? { "data-press": s.press } : {}), ...(s.turn ? { "data-turn": String(s.turn) } : {}),
    ...(s.all ? { "data-all": "" } : {}), ...(s.aria ? { "aria-label": s.aria } : {}),
  }, s.label)));
}

// The pad's look: one style sheet for both pages that have a seat's panel.
if (!document.querySelector("link[href='/static/pad.css']")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/pad.css" }));
}

// A page with a seat's panel but no seat banner of its own (a remote seat's board page) gets the phone's: which
// seat this screen plays, "Your turn" in the seat's colour with a short vibration, and the hint's ask (hint.js).
function seatBanner() {
  const line = el("p", { id: "seat-line", class: "seat-line", role: "status" });
  // A remote seat's "whole map" goes under the map, not over its names (it was at the map's corner, over
  // Kamchatka's); a television's stays where it was.
  const whole = document.getElementById("whole-map");
  const frame = document.getElementById("map-frame");
  let underMap = false;
  document.getElementById("play").prepend(line);
  if (!document.querySelector("script[src='/static/hint.js']")) document.body.append(el("script", { src: "/static/hint.js" }));
  let was = false;
  let touched = false;
  // The countdown that matters to this seat, as on a phone: its defence's dice choice, else the turn's time limit.
  const countdown = el("span", { class: "countdown" });
  let shown = { seat: null, pub: null };
  const tick = () => {
    const now = boardClock.now();
    const { seat, pub } = shown;
    let text = "";
    if (seat && seat.defend_deadline && now !== null) text = `${Math.max(0, Math.ceil(seat.defend_deadline - now))} s left`;
    else if (seat && seat.my_turn && pub && pub.clock && pub.clock.limit && pub.clock.left !== null) {
      const left = Math.max(0, Math.ceil(pub.clock.deadline !== null && now !== null ? pub.clock.deadline - now : pub.clock.left));
      text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    }
    if (countdown.textContent !== text) countdown.textContent = text;
  };
  setInterval(tick, 250);
  // The panel is fixed at the screen's foot on a phone: the page keeps room under its end for the panel's height,
  // so the log is never under it.
  const play = document.getElementById("play");
  const room = () => {
    const fixed = getComputedStyle(play).position === "fixed" && !play.classList.contains("hidden");
    document.querySelector("main").style.paddingBottom = fixed ? `${Math.ceil(play.getBoundingClientRect().height) + 8}px` : "";
  };
  if (window.ResizeObserver) new ResizeObserver(room).observe(play);
  window.addEventListener("resize", room);
  document.addEventListener("pointerdown", () => { touched = true; }, { capture: true, once: true });
  return (seat, pub) => {
    if (seat && !underMap && whole && frame) { frame.after(whole); whole.classList.add("under-map"); underMap = true; }
    const mine = Boolean(seat && seat.my_turn && pub && !pub.over);
    if (line.classList.contains("mine") !== mine) line.classList.toggle("mine", mine);
    const colours = mine ? `background: ${seat.rgb}; color: ${isDark(seat.rgb) ? "#fff" : "#000"};` : "";
    if (line.dataset.colours !== colours) {   // written only when it changes, as hint.js's button
      line.dataset.colours = colours;
      line.style.cssText = colours;
    }
    if (seat) {
      line.replaceChildren(swatch(seat.rgb, seat.mark), el("span", { class: "what" },
        !mine ? `you are ${seat.colour}` : seat.defend_deadline ? `Defend (${seat.colour})`
          : `Your turn (${seat.colour})`), countdown);
    }
    shown = { seat, pub };
    tick();
    const active = navigator.userActivation ? navigator.userActivation.hasBeenActive : touched;
    if (mine && !was && active && navigator.vibrate) navigator.vibrate([120, 80, 120]);
    was = mine;
  };
}

function seatPanel(client) {
  const $ = (id) => document.getElementById(id);
  buildPad($("buttons"));
  const banner = $("turn-banner") ? null : seatBanner();
  let seatView = null;
  let publicView = null;
  let map = null;
  let showing = false;
  let trading = false;   // opened to trade: stays until a set is traded or "Hide" is tapped

  function drawSecret() {
    const box = $("secret");
    const open = showing || trading;
    box.classList.toggle("hidden", !open);
    box.classList.toggle("trading", trading);   // opened to trade: it takes taps and scrolls by itself
    if (!open || !seatView) { box.replaceChildren(); return; }
    const parts = [];
    if (seatView.mission) {
      parts.push(el("h2", {}, "Your mission"), el("p", { id: "mission" }, seatView.mission.text));
      for (const m of seatView.mission.meters) {
        const share = m.need ? Math.min(100, Math.round((100 * m.have) / m.need)) : (m.have === 0 ? 100 : 0);
        parts.push(el("div", {}, `${m.label}: ${m.have}${m.need ? ` / ${m.need}` : ""}`),
          el("div", { class: "meter" }, el("div", { style: `width: ${share}%` })));
      }
    } else {
      parts.push(el("p", { id: "mission" }, "Conquer the world (no secret mission in this ruleset)"));
    }
    parts.push(el("h2", {}, "Your cards"));
    parts.push(el("ul", { class: "cards", id: "cards" },
      ...seatView.cards.map((c) => el("li", {}, `${c.territory} · ${c.symbol}`))));
    if (!seatView.cards.length) parts.push(el("p", {}, "no cards yet"));
    if (seatView.sets.length) {
      parts.push(el("h2", {}, seatView.can_trade ? "Tap a set to trade it" : "Sets you hold (traded in your reinforcement)"));
      for (const s of seatView.sets) {
        const held = Object.fromEntries(seatView.cards.map((c) => [c.card, c.territory]));
        const names = s.cards.map((c) => held[c] || (map && c < map.territories.length ? map.territories[c].name : "Jolly"));
        parts.push(el("button", { class: "trade", "data-cards": s.cards.join(","), onclick: () => {
          client.send({ type: "trade", cards: s.cards });
          trading = false; showing = false; drawSecret();   // one tap trades; the secrets hide again
        }, ...(seatView.can_trade ? {} : { disabled: "" }) }, `${s.kind}: ${names.join(", ")} → ${s.armies} armies`));
      }
    }
    if (trading) parts.unshift(el("button", { class: "hide", onclick: () => { trading = false; drawSecret(); } }, "Hide"));
    else parts.push(el("p", { class: "hold-note" }, "Let go to hide · slide to scroll"));
    box.replaceChildren(...parts);
  }

  function draw() {
    $("play").classList.toggle("hidden", !seatView);
    if (!seatView) return;
    const mover = publicView && publicView.seats[publicView.to_move];
    // The phone's words, built by the server: what to do now, or who plays (never the board's button hints).
    $("pending").textContent = seatView.my_turn ? seatView.pending :
      (seatView.waiting !== undefined ? seatView.waiting : (mover ? `${mover.colour} is playing` : ""));
    // What to do keeps a fixed room (the pad under it never moves): a long line is set smaller to fit it.
    const pending = $("pending");
    pending.classList.remove("long");
    if (pending.clientHeight && pending.scrollHeight > pending.clientHeight + 1) pending.classList.add("long");
    $("refused").textContent = seatView.refused;
    // A notice (a seat granted, a time-out): plain, not refusal red, and only while it is news.
    $("said").textContent = freshNotice(seatView.said || "", draw);
    const counts = [];
    if (seatView.to_place) {
      counts.push(seatView.fleets ? `units to place: ${seatView.to_place} (tap: an army, long press: a fleet)`
        : `armies to place: ${seatView.to_place}`);
    }
    if (seatView.dice && seatView.dice.attack) counts.push(`you roll ${seatView.dice.attack} dice (max ${seatView.dice.max})`);
    if (seatView.dice && seatView.dice.defend) counts.push(`you defend with ${seatView.dice.defend} dice`);
    if (seatView.move_in) {
      const what = seatView.move_in.units ? ` ${seatView.move_in.units}` : "";
      counts.push(`move in ${seatView.move_in.count}${what} (${seatView.move_in.min}–${seatView.move_in.max})`);
    }
    if (seatView.move) counts.push(`move ${seatView.move.count} ${seatView.move.units} (at most ${seatView.move.max})`);
    if (seatView.odds !== null) counts.push(`chance to conquer: ${percent(seatView.odds)}`);
    $("counts").textContent = counts.join(" · ");
    drawButtons(seatView.buttons || {});
    $("forced").classList.toggle("hidden", !seatView.forced_trade);
    drawLegal();
    const trade = $("trade-open");
    const tradable = Boolean(seatView.can_trade && seatView.sets.length);
    trade.classList.toggle("off", !tradable);
    trade.disabled = !tradable;
    if (trading && !seatView.can_trade) trading = false;
    drawSecret();
  }

  // Only the buttons that act now are offered, each named by what it does (the server says which: phone_buttons.py);
  // the others keep their place, unseen, so nothing under the finger moves when the phase changes.
  function drawButtons(labels) {
    for (const b of $("buttons").querySelectorAll("button[data-slot]")) {
      const label = labels[b.dataset.slot];
      b.disabled = !label;
      b.classList.toggle("off", !label);
      b.setAttribute("aria-hidden", label ? "false" : "true");
      if (label && b.textContent !== label) b.textContent = label;
    }
    $("buttons").classList.toggle("idle", !Object.keys(labels).length);   // a look only: the pad keeps its room
  }

  // The territories a tap may use now, as buttons (where the page has room for them: the board page of a remote
  // seat): a phone's map is small, a list is not.
  function drawLegal() {
    const box = $("legal");
    if (!box || !map || !publicView) return;
    const ids = seatView.my_turn ? seatView.legal || [] : [];
    const index = Object.fromEntries(map.territories.map((t, i) => [t.id, i]));
    box.replaceChildren(...ids.map((id) => {
      const i = index[id];
      const state = publicView.territories[i];
      return el("button", { class: "pick", "data-pick": id, onclick: () => client.send({ type: "tap", territory: id }) },
        swatch(state.rgb, state.mark), ` ${map.territories[i].name} · ${state.armies}`);
    }));
    box.classList.toggle("hidden", !ids.length);
  }

  for (const b of document.querySelectorAll("[data-press]")) {
    b.addEventListener("click", () => client.send({ type: "press", button: b.dataset.press }));
  }
  // − and + repeat while held (after a pause, a few steps a second: within the server's rate limit); "all"
  // turns as far as the count goes (every army left to place onto the last territory, every die, the most to move).
  for (const b of document.querySelectorAll("[data-turn]")) held(b, () => client.send({ type: "turn", steps: Number(b.dataset.turn) }));
  for (const b of document.querySelectorAll("[data-all]")) {
    b.addEventListener("click", () => { const steps = stepsToAll(); if (steps) client.send({ type: "turn", steps }); });
  }
  const hold = $("secret-hold");
  // "Trade a set…" and the hold for the secrets have their slots in the pad too: nothing pushes them about.
  const opener = el("button", { id: "trade-open", "data-fixed": "trade", class: "off", disabled: "" }, "Trade a set…");
  $("buttons").append(opener, hold);
  hold.dataset.fixed = "hold";
  opener.addEventListener("click", () => { trading = true; drawSecret(); });
  const show = (on) => { showing = on; drawSecret(); };
  // The secrets open in an overlay over the page while the button is held (the finger stays captured by the button,
  // so the overlay never takes the touch away); sliding the held finger up or down scrolls the overlay.
  let dragFrom = null;
  hold.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    if (hold.setPointerCapture) { try { hold.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic event */ } }
    dragFrom = { y: e.clientY, top: 0 };
    show(true);
  });
  hold.addEventListener("pointermove", (e) => {
    if (!showing || !dragFrom) return;
    $("secret").scrollTop = dragFrom.top + (dragFrom.y - e.clientY) * 2;
  });
  for (const end of ["pointerup", "pointerleave", "pointercancel", "lostpointercapture"]) {
    hold.addEventListener(end, () => { dragFrom = null; show(false); });
  }
  hold.addEventListener("contextmenu", (e) => e.preventDefault());
  const hideAll = () => { trading = false; show(false); };
  document.addEventListener("visibilitychange", () => { if (document.hidden) hideAll(); });
  window.addEventListener("blur", hideAll);

  function stepsToAll() {
    const v = seatView;
    if (!v || !v.my_turn) return 0;
    let steps = 0;
    if (v.to_place) steps = v.to_place;
    else if (v.move_in) steps = v.move_in.max - v.move_in.count;
    else if (v.move) steps = v.move.max - v.move.count;
    else if (v.dice && v.dice.attack) steps = v.dice.max - v.dice.attack;
    else if (v.dice && v.dice.defend) steps = v.dice.max - v.dice.defend;
    return Math.min(steps, 50);   // the server's most per message; "all" again goes on
  }

  return {
    update(seat, pub, gameMap) { seatView = seat; publicView = pub; map = gameMap; draw(); if (banner) banner(seat, pub); },
    get seat() { return seatView; },
  };
}

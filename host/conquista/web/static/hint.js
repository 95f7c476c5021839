"use strict";
// "What would hard do?": a seated phone asks the board for the hard bot's move in its place, with the reason in
// words and the territories it names (marked here; a page with a map may highlight them: it gets a
// "conquista-hint" event with their ids). The host's phone gets the table's switches for hints. Self-contained: it
// adds its own button and boxes and listens to the frames client.js passes on (docs/playing.md, "Hints").
(function () {
  let seatView = null;
  let hostView = null;
  let publicView = null;
  let shownFor = null;    // the step a shown hint was given in
  let thinking = false;   // hard searches for this phone (the board goes on meanwhile): one ask at a time
  const box = el("div", { id: "hint", class: "hint hidden", role: "status", "aria-live": "polite" });
  // The ask has its slot in the seat's pad (seat.js, pad.css): shown or not, it never moves the buttons.
  const ask = el("button", { id: "hint-ask", "data-fixed": "hint", class: "off", type: "button" }, "What would hard do?");
  const allowed = el("input", { id: "hints-allowed", type: "checkbox" });
  const leds = el("input", { id: "hints-leds", type: "checkbox" });
  const host = el("div", { id: "hints-host", class: "hidden" },
    el("label", { class: "option" }, allowed, " hints allowed (\u201cwhat would hard do?\u201d on the phones)"),
    el("label", { class: "option" }, leds, " hints shown on the board's LEDs too"));

  function place() {
    const play = document.getElementById("play");
    const pad = document.getElementById("buttons");
    // The answer comes under the pad on a phone; on a remote seat's board page under the map it names (the seat's
    // panel, fixed at the screen's foot, keeps its size).
    const map = document.getElementById("map-frame");
    if (pad) { pad.append(ask); if (map) map.after(box); else pad.after(box); } else if (play) play.append(ask, box);
    const hostBox = document.getElementById("host");
    if (hostBox) hostBox.append(host);
  }

  function stepKey() {
    if (!publicView || !seatView) return "";
    return [publicView.current, publicView.phase, publicView.clock && publicView.clock.turn,
      seatView.move_in ? "move in" : "", seatView.dice && seatView.dice.defend ? "defend" : ""].join("|");
  }

  function draw() {
    const ready = Boolean(seatView && seatView.hint_ready);
    // Each written only when it changes: a write of the same value still has the page's style looked at again, on
    // every view of a screen that has no seat (a television).
    if (ask.classList.contains("off") === ready) ask.classList.toggle("off", !ready);
    if (ask.getAttribute("aria-hidden") !== String(!ready)) ask.setAttribute("aria-hidden", String(!ready));
    if (ask.disabled !== (thinking || !ready)) ask.disabled = thinking || !ready;
    // A hint is for the step it was asked in: gone on the move-in after an attack, a new phase, another turn.
    if ((!(seatView && seatView.my_turn) || (shownFor !== null && stepKey() !== shownFor))
        && !(box.classList.contains("hidden") && !box.firstChild)) {
      box.classList.add("hidden"); box.replaceChildren(); shownFor = null;
    }
    const hints = hostView && hostView.hints;
    host.classList.toggle("hidden", !hints);
    if (hints && document.activeElement !== allowed && document.activeElement !== leds) {
      allowed.checked = hints.allowed;
      leds.checked = hints.leds;
      leds.disabled = !hints.allowed;
    }
  }

  function show(frame) {
    const names = (map && map.territories) || [];
    const name = (id) => { const t = names.find((x) => x.id === id); return t ? t.name : id; };
    const state = frame.state || (frame.given ? "given" : "refused");
    if (state === "thinking") thinking = true;
    else if (state !== "refused" || !/already thinking/.test(frame.text)) thinking = false;
    if (state === "refused" && thinking) return;   // "already thinking": the box keeps saying so
    // The places named, apart: "China → Siam" for a move from one to the other, else "China, Siam".
    const marks = frame.territories.map((id) => el("mark", { "data-territory": id }, name(id)));
    const between = /^hard would (attack|move \d+ \S+ from)/.test(frame.text) && marks.length === 2 ? " → " : ", ";
    box.replaceChildren(el("p", {}, frame.text),
      ...(marks.length ? [el("p", { class: "hint-places" }, "Look at: ",
        ...marks.flatMap((m, i) => (i ? [between, m] : [m])))] : []));
    shownFor = stepKey();
    box.classList.toggle("error", state === "refused" || state === "stale");
    box.classList.toggle("thinking", state === "thinking");
    box.classList.remove("hidden");
    document.dispatchEvent(new CustomEvent("conquista-hint", { detail: { territories: frame.territories } }));
  }

  ask.addEventListener("click", () => client.send({ type: "hint" }));
  const send = () => client.send({ type: "hints", allowed: allowed.checked, leds: allowed.checked && leds.checked });
  allowed.addEventListener("change", send);
  leds.addEventListener("change", send);

  document.addEventListener("conquista-frame", (event) => {
    const frame = event.detail;
    if (frame.type === "seat") seatView = frame.view;
    else if (frame.type === "host") hostView = frame.view;
    else if (frame.type === "unseated" || frame.type === "taken_over") { seatView = null; hostView = null; thinking = false; }
    else if (frame.type === "public") publicView = frame.view;
    else if (frame.type === "hint") show(frame);
    else return;
    draw();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", place);
  else place();
})();

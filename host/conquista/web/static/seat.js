"use strict";
// A seat's private panel, shared by the phone page and the board page of a remote seat: the counts that matter
// now, the buttons, and the secrets (mission, cards, sets), put on the screen only while the player holds the
// button and taken off when the page is hidden.

function seatPanel(client) {
  const $ = (id) => document.getElementById(id);
  let seatView = null;
  let publicView = null;
  let map = null;
  let showing = false;

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
    } else {
      parts.push(el("p", { id: "mission" }, "Conquer the world (no secret mission in this ruleset)"));
    }
    parts.push(el("h2", {}, "Your cards"));
    parts.push(el("ul", { class: "cards", id: "cards" },
      ...seatView.cards.map((c) => el("li", {}, `${c.territory} · ${c.symbol}`))));
    if (!seatView.cards.length) parts.push(el("p", {}, "no cards yet"));
    if (seatView.sets.length) {
      parts.push(el("h2", {}, "Sets you can trade (the board's ROLL trades the first)"));
      for (const s of seatView.sets) {
        const held = Object.fromEntries(seatView.cards.map((c) => [c.card, c.territory]));
        const names = s.cards.map((c) => held[c] || (map && c < map.territories.length ? map.territories[c].name : "Jolly"));
        parts.push(el("button", { class: "trade", onclick: () => client.send({ type: "trade", cards: s.cards }),
          ...(seatView.can_trade ? {} : { disabled: "" }) }, `${s.kind}: ${names.join(", ")} → ${s.armies} armies`));
      }
    }
    box.replaceChildren(...parts);
  }

  function draw() {
    $("play").classList.toggle("hidden", !seatView);
    if (!seatView) return;
    const mover = publicView && publicView.seats[publicView.to_move];
    $("pending").textContent = seatView.my_turn ? seatView.pending :
      (mover ? `${mover.colour} is playing: ${publicView.pending}` : (publicView ? publicView.pending : ""));
    $("refused").textContent = seatView.refused;
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
    if (seatView.odds !== null) counts.push(`chance to conquer: ${Math.round(seatView.odds * 100)}%`);
    $("counts").textContent = counts.join(" · ");
    for (const b of $("buttons").querySelectorAll("button")) b.disabled = !seatView.my_turn;
    $("forced").classList.toggle("hidden", !seatView.forced_trade);
    drawLegal();
    drawSecret();
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
        el("span", { class: `swatch${isDark(state.rgb) ? " on-dark" : ""}`, style: `background: ${state.rgb}` },
          state.mark || ""), ` ${map.territories[i].name} · ${state.armies}`);
    }));
    box.classList.toggle("hidden", !ids.length);
  }

  for (const b of document.querySelectorAll("[data-press]")) {
    b.addEventListener("click", () => client.send({ type: "press", button: b.dataset.press }));
  }
  for (const b of document.querySelectorAll("[data-turn]")) {
    b.addEventListener("click", () => client.send({ type: "turn", steps: Number(b.dataset.turn) }));
  }
  const hold = $("secret-hold");
  const show = (on) => { showing = on; drawSecret(); };
  hold.addEventListener("pointerdown", (e) => { e.preventDefault(); show(true); });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) hold.addEventListener(end, () => show(false));
  hold.addEventListener("contextmenu", (e) => e.preventDefault());
  document.addEventListener("visibilitychange", () => { if (document.hidden) show(false); });
  window.addEventListener("blur", () => show(false));

  return {
    update(seat, pub, gameMap) { seatView = seat; publicView = pub; map = gameMap; draw(); },
    get seat() { return seatView; },
  };
}

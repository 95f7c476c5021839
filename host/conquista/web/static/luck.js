"use strict";
// The luck report at the end of a game, on any page that includes this script (the phone, the public board): each
// player's armies lost against what the exact odds expected in the same rolls, the long shots they won, the dice
// audit's verdict, every mission revealed. The server computes it (conquista.dice.luck); this only lays it out.
// It listens to the frames client.js passes on, so a page needs nothing but the <script> tag.
(function () {
  sharedStyle();
  const one = (x) => Number(x).toFixed(1);   // already rounded to a tenth by the server

  function section() {
    let box = document.getElementById("luck");
    if (!box) {
      box = el("section", { id: "luck", class: "hidden", "aria-label": "luck report" });
      (document.querySelector("main") || document.body).append(box);
    }
    return box;
  }

  function draw(view) {
    const box = section();
    const luck = view && view.luck;
    box.classList.toggle("hidden", !luck);
    if (!luck) { box.replaceChildren(); delete box.dataset.key; return; }
    const key = JSON.stringify(luck);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const mark = (seat) => swatch(view.seats[seat].rgb, view.seats[seat].mark);
    const rows = luck.players.map((p) => el("tr", { "data-seat": p.seat },
      el("td", {}, mark(p.seat), p.colour),
      el("td", {}, `${p.lost}`, el("small", {}, ` / ${one(p.expected_lost)}`)),
      el("td", {}, `${p.destroyed}`, el("small", {}, ` / ${one(p.expected_destroyed)}`)),
      el("td", {}, `${p.upsets} of ${p.underdog}`, el("small", {}, ` / ${one(p.expected_upsets)}`))));
    const parts = [
      el("h2", {}, "Luck report"),
      el("p", {}, `Armies lost and destroyed in ${luck.rolls} rolls, against what the exact odds expected (after ` +
        "the slash); long shots: battles a player was likely to lose, and how many of them they won."),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "lost"),
        el("th", {}, "destroyed"), el("th", {}, "long shots won"))), el("tbody", {}, ...rows)),
      el("ul", { class: "luck-words" }, ...luck.players.map((p) => el("li", {}, p.words))),
      el("p", { class: `verdict ${luck.fair === false ? "error" : ""}` }, `The dice: ${luck.verdict}`),
    ];
    if (luck.hints && luck.hints.length) parts.push(el("p", { class: "luck-hints" }, `Hints: ${luck.hints.join("; ")}.`));
    if (luck.missions.length) {
      parts.push(el("h2", {}, "Missions"), el("ul", { class: "missions" }, ...luck.missions.map((text, seat) =>
        el("li", {}, mark(seat), `${view.seats[seat].colour}: ${text}`))));
    }
    box.replaceChildren(...parts);
  }

  document.addEventListener("conquista-frame", (event) => {
    if (event.detail.type === "public") draw(event.detail.view);
  });
})();

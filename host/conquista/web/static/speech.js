"use strict";
// Speech, for those who want it (off by default): whose turn it is, each battle's result, conquests, eliminations
// and the winner, spoken by the browser (speechSynthesis) in Italian or English. The same words always go to an
// aria-live region, for screen readers. `announcements(before, after, map, lang)` builds the words from two public
// views and nothing else, so it is tested on its own (tests/web/test_speech.py). The page needs only the <script>
// tag: the module listens to the frames client.js passes on and puts its switch in #speech-controls (or at the end
// of <main>).
const conquistaSpeech = (function () {
  sharedStyle();
  const WORDS = {
    en: {
      colours: {},
      turn: (who) => `${who}'s turn.`,
      battle: (a, src, tgt, d, lostA, lostD) => `${a} attacks ${tgt} from ${src}: ${a} loses ${armies(lostA, "en")}, ` +
        `${d} ${armies(lostD, "en")}.`,
      blitz: (a, src, tgt, d, lostA, lostD, rolls) => `${a} attacks ${tgt} from ${src}, ${rolls} rolls: ${a} loses ` +
        `${armies(lostA, "en")}, ${d} ${armies(lostD, "en")}.`,
      conquest: (a, tgt) => `${a} conquers ${tgt}.`,
      eliminated: (who) => `${who} is eliminated.`,
      wins: (who) => `${who} wins the game.`,
      stage: { second_to_last: "The tournament clock has run out: this is the second-to-last round.",
        last: "The last round.", closing: (n) => `From now on a closing roll of ${n} or under ends the game.`,
        tie_break: "A tie on points and armies: one more round for the tied players." },
      closing: (a, b, ends) => `Closing roll: ${a} and ${b}, ${ends ? "the game ends" : "the game goes on"}.`,
      switch: "speak the game", language: "language",
    },
    it: {
      colours: { red: "rosso", blue: "blu", yellow: "giallo", green: "verde", purple: "viola", black: "nero",
        pink: "rosa", cyan: "azzurro", neutral: "neutrale" },
      turn: (who) => `Turno di ${who}.`,
      battle: (a, src, tgt, d, lostA, lostD) => `${cap(a)} attacca ${tgt} da ${src}: ${a} perde ` +
        `${armies(lostA, "it")}, ${d} ${armies(lostD, "it")}.`,
      blitz: (a, src, tgt, d, lostA, lostD, rolls) => `${cap(a)} attacca ${tgt} da ${src}, ${rolls} lanci: ${a} ` +
        `perde ${armies(lostA, "it")}, ${d} ${armies(lostD, "it")}.`,
      conquest: (a, tgt) => `${cap(a)} conquista ${tgt}.`,
      eliminated: (who) => `${cap(who)} è eliminato.`,
      wins: (who) => `${cap(who)} vince la partita.`,
      stage: { second_to_last: "Il tempo del torneo è scaduto: questo è il penultimo giro.",
        last: "L'ultimo giro.", closing: (n) => `D'ora in poi un lancio di chiusura di ${n} o meno chiude la partita.`,
        tie_break: "Parità di punti e di armate: un altro giro per i giocatori in parità." },
      closing: (a, b, ends) => `Lancio di chiusura: ${a} e ${b}, ${ends ? "la partita finisce" : "si continua"}.`,
      switch: "annuncia la partita", language: "lingua",
    },
  };
  const VOICES = { en: "en-GB", it: "it-IT" };

  function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
  function armies(n, lang) {
    if (lang === "it") return n === 1 ? "1 armata" : `${n} armate`;
    return n === 1 ? "1 army" : `${n} armies`;
  }

  // The announcements between two public views (`before` null: the first view, nothing to say).
  function announcements(before, after, map, lang) {
    const w = WORDS[lang] || WORDS.en;
    if (!before || !after || !map) return [];
    const out = [];
    const colour = (owner) => {
      if (owner === null || owner === undefined) return "?";
      const seat = after.seats[owner];
      const name = seat ? seat.colour : (after.neutral && owner === after.neutral.owner ? "neutral" : "?");
      return w.colours[name] || name;
    };
    const index = (id) => map.territories.findIndex((t) => t.id === id);
    const place = (i) => (lang === "it" && map.territories[i].name_it) || map.territories[i].name;
    const roll = after.roll;
    const rolls = roll ? roll.count - (before.roll ? before.roll.count : 0) : 0;
    if (roll && rolls > 0) {
      const s = index(roll.source);
      const t = index(roll.target);
      const attacker = before.territories[s].owner;
      const defender = before.territories[t].owner;
      const conquered = after.territories[t].owner === attacker && defender !== attacker;
      let lostA = roll.lost[0];
      let lostD = roll.lost[1];
      if (rolls > 1) {  // a blitz, or rolls this screen did not see one by one: count the armies
        const beforeA = before.territories[s].armies;
        const afterA = after.territories[s].armies + (conquered ? after.territories[t].armies : 0);
        lostA = Math.max(0, beforeA - afterA);
        lostD = conquered ? before.territories[t].armies : before.territories[t].armies - after.territories[t].armies;
      }
      const say = rolls > 1 ? w.blitz : w.battle;
      out.push(say(colour(attacker), place(s), place(t), colour(defender), lostA, lostD, rolls));
      if (conquered) out.push(w.conquest(colour(attacker), place(t)));
    }
    const tb = before.tournament;
    const ta = after.tournament;
    if (tb && ta) {  // the tournament ending: the closing roll, and each new stage
      const rolled = ta.closing && ta.closing.count > (tb.closing ? tb.closing.count : 0);
      if (rolled) out.push(w.closing(ta.closing.dice[0], ta.closing.dice[1], after.over));
      const said = w.stage[ta.stage];
      if (ta.stage !== tb.stage && said) out.push(typeof said === "function" ? said(ta.closing_number) : said);
    }
    after.seats.forEach((seat, i) => {
      if (seat.eliminated && before.seats[i] && !before.seats[i].eliminated) out.push(w.eliminated(colour(i)));
    });
    if (after.over && !before.over && after.winner !== null && after.winner !== undefined) {
      out.push(w.wins(colour(after.winner)));
    } else if (!after.over && after.current !== before.current && after.seats[after.current]) {
      out.push(w.turn(colour(after.current)));
    }
    return out;
  }

  // ------------------------------------------------------------------ the page's switch, the live region, the voice
  let map = null;
  let last = null;
  const browserLang = (navigator.language || "en").slice(0, 2) === "it" ? "it" : "en";
  const settings = { on: localStorage.getItem("conquista.speech") === "on",
    lang: localStorage.getItem("conquista.speech.lang") || browserLang };

  function controls() {
    const live = el("div", { id: "announce", class: "sr-only", "aria-live": "polite", role: "status",
      style: "position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap" });
    const on = el("input", { type: "checkbox", id: "speech-on" });
    on.checked = settings.on;
    on.addEventListener("change", () => {
      settings.on = on.checked;
      localStorage.setItem("conquista.speech", on.checked ? "on" : "off");
      if (!on.checked && window.speechSynthesis) speechSynthesis.cancel();
    });
    const lang = el("select", { id: "speech-lang", "aria-label": "language" },
      el("option", { value: "en" }, "English"), el("option", { value: "it" }, "Italiano"));
    lang.value = settings.lang;
    lang.addEventListener("change", () => {
      settings.lang = lang.value;
      localStorage.setItem("conquista.speech.lang", lang.value);
      label.lastChild.textContent = ` ${WORDS[settings.lang].switch}`;
    });
    const label = el("label", {}, on, ` ${WORDS[settings.lang].switch}`);
    const box = el("div", { class: "speech" }, label, lang, live);
    const home = document.getElementById("speech-controls");
    if (home) home.replaceChildren(box);
    else (document.querySelector("main") || document.body).append(box);
  }

  function say(texts) {
    if (!texts.length) return;
    document.getElementById("announce").textContent = texts.join(" ");
    if (!settings.on || !window.speechSynthesis) return;
    if (speechSynthesis.pending) speechSynthesis.cancel();  // behind: the newest news matters more
    for (const text of texts) {
      const spoken = new SpeechSynthesisUtterance(text);
      spoken.lang = VOICES[settings.lang];
      speechSynthesis.speak(spoken);
    }
  }

  document.addEventListener("conquista-frame", (event) => {
    const frame = event.detail;
    if (frame.type === "map") map = frame.map;
    if (frame.type !== "public") return;
    say(announcements(last, frame.view, map, settings.lang));
    last = frame.view;
  });
  controls();
  return { announcements, WORDS };
})();

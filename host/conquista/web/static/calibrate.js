// The calibration's page: shows each view the board sends (WebSocket, or polling when there is none) and posts
// NEXT or CANCEL; the board takes them like its own buttons, so nothing here changes the calibration.
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
const STEPS = {
  starting: "Waiting for the board…",
  sensor: "Sensors: tap each territory in turn",
  led: "LEDs: tap the territory under the lit LED",
  done: "Every answer given",
};

function show(el, on) { el.classList.toggle("hidden", !on); }

function setText(el, text) {
  el.textContent = text || "";
  show(el, Boolean(text));
}

function meter(name, part) {
  const total = part ? part.total : 0;
  const done = part ? part.done : 0;
  $(name + "-n").textContent = `${done} of ${total}`;
  $(name + "-bar").style.width = total ? `${(100 * done) / total}%` : "0";
}

function render(view) {
  const phase = view.phase || "starting";
  $("step").textContent = view.end ? "Calibration over" : STEPS[phase] || "";
  $("target").textContent = view.end ? "" : view.target || "";
  $("question").textContent = view.end ? "" : view.question || "";
  meter("sensors", view.sensors);
  meter("leds", view.leds);
  setText($("link"), view.link);
  setText($("silent"), view.silent);
  const history = view.history || [];
  const last = history[0];
  setText($("refused"), last && !last.ok ? last.text : "");
  const end = $("end");
  show(end, Boolean(view.end));
  end.className = view.end ? (view.end_ok ? "ok" : "failed") : "hidden";
  $("end-text").textContent = view.end || "";
  $("next").disabled = !view.can_next;
  $("cancel").disabled = !view.can_cancel;
  show($("next"), phase === "led" && !view.end);
  const list = $("history");
  list.replaceChildren(...history.map((said) => {
    const li = document.createElement("li");
    li.textContent = (said.ok ? "✓ " : "✗ ") + said.text;
    if (!said.ok) li.className = "refused";
    return li;
  }));
}

function online(on) {
  const pill = $("status");
  pill.textContent = on ? "live" : "offline";
  pill.classList.toggle("offline", !on);
}

let polling = null;

async function poll() {
  try {
    const answer = await fetch("/api/calibration", { cache: "no-store" });
    render(await answer.json());
    online(true);
  } catch (e) {
    online(false);
  }
}

function startPolling() {
  if (polling === null) polling = setInterval(poll, POLL_MS);
}

function connect() {
  let ws;
  try {
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  } catch (e) {
    startPolling();
    return;
  }
  ws.onopen = () => {
    online(true);
    if (polling !== null) { clearInterval(polling); polling = null; }
  };
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => {
    online(false);
    startPolling();
    setTimeout(connect, POLL_MS);
  };
}

async function press(command) {
  const error = $("press-error");
  try {
    const answer = await fetch("/api/press", { method: "POST", body: command });
    const said = await answer.json();
    setText(error, said.error || "");
  } catch (e) {
    setText(error, "the board did not answer: is it still on?");
  }
}

for (const button of document.querySelectorAll("[data-press]")) {
  button.addEventListener("click", () => press(button.dataset.press));
}
connect();

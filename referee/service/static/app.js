// Ligretto Referee page: state from GET /api/state, live events from the WebSocket /api/events.
// No build step, no libraries: plain DOM, an inline SVG chart and a WebAudio beep.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.get("token")) sessionStorage.setItem("ligretto-token", params.get("token"));
const TOKEN = sessionStorage.getItem("ligretto-token") || "";
const COLOURS = { red: "r", yellow: "y", green: "g", blue: "b" };
const REASONS = {
  wrong_colour: "wrong colour", wrong_number: "wrong number", not_a_one: "only a 1 starts a stack",
  stack_full: "the stack is full", after_stop: "played after Ligretto stop",
};

// What the browser test and curious people can read: every alert with its timing (epoch seconds).
window.ligretto = { alerts: [], events: [], state: null };

let lastSeq = 0;
let live = false;
let state = null;
let refreshTimer = null;
let audio = null;

// ------------------------------------------------------------------------------------------------ helpers

function headers(extra = {}) {
  return TOKEN ? { ...extra, Authorization: `Bearer ${TOKEN}` } : extra;
}

async function api(method, path, body) {
  const init = { method, headers: headers(body ? { "Content-Type": "application/json" } : {}) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const detail = data && data.detail;
    throw new Error(typeof detail === "string" ? detail : JSON.stringify(detail || response.statusText));
  }
  return data;
}

function say(text, error = false) {
  const el = $("message");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function cardText(card) {
  return card ? `${COLOURS[card.colour] || "?"}${card.number}` : "?";
}

function cardLong(card) {
  return card ? `${card.colour} ${card.number}` : "a card";
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function nameOf(back) {
  const player = state && state.players.find((p) => p.back === back);
  return player ? player.name : back;
}

// ------------------------------------------------------------------------------------------------- alerts

// Browsers let a page make sound only after a tap or a key, and building the audio context costs time: it is
// made at the first tap, so an alert's beep is ready and does not hold up the alert's first paint.
function audioReady() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch (err) {
    /* no audio device */
  }
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, audioReady, { once: true });

function beep() {
  try {
    audioReady();
    const now = audio.currentTime;
    for (const [start, freq] of [[0, 880], [0.18, 660]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.25, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + 0.17);
    }
  } catch (err) {
    /* no audio device: the alert is still on screen */
  }
}

function shouldHaveBeen(event) {
  if (event.expected) return `should have been ${cardLong(event.expected)}`;
  if (event.reason === "not_a_one") return "only a 1 may start a new stack";
  if (event.reason === "stack_full") return "nothing goes on a stack at 10";
  if (event.reason === "after_stop") return "nothing may be played after Ligretto stop";
  return "";
}

function showAlert(message) {
  const event = message.event;
  const where = event.stack != null ? `on stack ${event.stack}` : "in the centre";
  const who = event.back ? ` (${nameOf(event.back)})` : "";
  $("alert-title").textContent = "ILLEGAL PLAY";
  $("alert-text").textContent = `${cardLong(event.card)} ${where}${who}`;
  $("alert-detail").textContent = [REASONS[event.reason] || event.reason, shouldHaveBeen(event)]
    .filter(Boolean).join(": ");
  const box = $("alert");
  box.dataset.seq = message.seq;
  delete box.dataset.withdrawn;
  box.hidden = false;
  const shown = Date.now() / 1000;
  const alert = {
    seq: message.seq, t: event.t, frame: event.frame, epoch: message.epoch, received: message.receivedAt, shown,
    reason: event.reason, card: cardText(event.card), stack: event.stack, timing: message.timing || {},
  };
  window.ligretto.alerts.push(alert);
  // painted: the first task after the next frame's paint (rAF runs just before it), when the alert is on screen
  requestAnimationFrame(() => setTimeout(() => { alert.painted = Date.now() / 1000; }, 0));
  beep();
  clearTimeout(showAlert.timer);
  showAlert.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

// An illegal play that what came next explained (a card "not a one" then built on: it lay on a 1 the camera
// never saw): the table is told it was taken back, in green, for a few seconds.
function withdrawAlert(message) {
  const box = $("alert");
  $("alert-title").textContent = "RULING WITHDRAWN";
  $("alert-text").textContent = `${cardLong(message.event.card)} was played legally after all`;
  $("alert-detail").textContent = "on cards the camera did not see";
  box.dataset.withdrawn = "";
  box.hidden = false;
  clearTimeout(showAlert.timer);
  showAlert.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

$("alert-dismiss").addEventListener("click", () => { $("alert").hidden = true; });

// ------------------------------------------------------------------------------------------------- events

function logEvent(message) {
  const event = message.event;
  const bits = [`r${message.round}`, `${event.t.toFixed(2)}s`, event.type];
  if (event.stack != null) bits.push(`#${event.stack}`);
  if (event.card) bits.push(cardText(event.card));
  if (event.reason) bits.push(event.reason);
  if (event.ruled) bits.push(`${event.ruled} withdrawn`);
  if (event.scores) bits.push(Object.entries(event.scores).map(([b, s]) => `${nameOf(b)} ${s}`).join(", "));
  const log = $("event-log");
  log.prepend(el("li", { class: event.type }, bits.join("  ")));
  while (log.children.length > 200) log.lastChild.remove();
}

function onMessage(message) {
  message.receivedAt = Date.now() / 1000;
  if (message.kind === "ready") {
    live = true;
    return;
  }
  if (message.kind === "event") {
    lastSeq = Math.max(lastSeq, message.seq);
    if (live && message.event.type === "illegal_play") showAlert(message);  // first: nothing may hold it up
    if (live && message.event.type === "ruling_withdrawn") withdrawAlert(message);
    window.ligretto.events.push(message);
    logEvent(message);
    if (message.event.type === "round_scored") loadSessions().catch(() => {});
  }
  if (message.kind === "status") loadSessions().catch(() => {});
  scheduleRefresh();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/events?since=${lastSeq}`);
  $("connection").textContent = "connecting…";
  socket.onopen = () => { $("connection").dataset.state = "open"; $("connection").textContent = "live"; };
  socket.onmessage = (msg) => onMessage(JSON.parse(msg.data));
  socket.onclose = () => {
    live = false;
    $("connection").dataset.state = "closed";
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, 1000);
  };
}

// -------------------------------------------------------------------------------------------------- state

function scheduleRefresh() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, 80);
}

async function refresh() {
  try {
    state = await api("GET", "/api/state");
  } catch (err) {
    say(err.message, true);
    return;
  }
  window.ligretto.state = state;
  renderRound();
  renderStacks();
  renderSheet();
  renderPlayers();
}

function renderRound() {
  const round = state.round;
  const phase = round ? round.phase : "no round";
  $("phase").textContent = round ? `round ${round.number}: ${phase}` : "no round";
  $("phase").dataset.phase = phase;
  $("session-name").textContent = state.session.name;
  const p = state.pipeline;
  $("fps").textContent = p.running ? `${p.fps.toFixed(0)} fps · ${p.vision}` : "pipeline stopped";
  const inPlay = round && !round.done && phase !== "source ended";
  const over = state.scores.complete;
  $("start-round").disabled = Boolean(inPlay) || over;
  $("stop-round").disabled = !inPlay || round.stopped;
  $("count-round").disabled = !round || round.done;
  $("round-label").textContent = round ? `round ${round.number}` : "";
}

function renderStacks() {
  const box = $("stacks");
  box.replaceChildren();
  const stacks = state.round ? state.round.stacks : [];
  if (!stacks.length) box.append(el("p", { class: "muted" }, "No stacks yet."));
  for (const stack of stacks) {
    const colour = { r: "red", y: "yellow", g: "green", b: "blue" }[stack.top[0]] || "";
    const number = stack.top.slice(1);
    const card = el("div", { class: `card ${colour}${stack.height >= 10 ? " full" : ""}` }, number);
    box.append(el("div", { class: "stack", dataset: { stack: stack.id, top: stack.top } }, card, `#${stack.id} · ${stack.height}`));
  }
  $("warnings").replaceChildren(...(state.round ? state.round.warnings : []).map((w) => el("li", {}, w)));
}

function renderSheet() {
  const sheet = state.scores;
  const backs = sheet.players.map((p) => p.back);
  const names = Object.fromEntries(sheet.players.map((p) => [p.back, p.name]));
  const winners = new Set(sheet.winners);
  const table = $("score-sheet");
  const cls = (b) => (winners.has(b) ? "winner" : "");
  table.tHead.replaceChildren(el("tr", {}, el("th", {}, "Round"), ...backs.map((b) => el("th", { class: cls(b) }, names[b]))));
  table.tBodies[0].replaceChildren(...sheet.rounds.map((r) =>
    el("tr", { dataset: { round: r.round } }, el("td", {}, r.round), ...backs.map((b) => el("td", {}, r.scores[b] ?? 0)))));
  table.tFoot.replaceChildren(el("tr", { class: "totals" }, el("td", {}, "Total"),
    ...backs.map((b) => el("td", { class: cls(b), dataset: { back: b } }, sheet.totals[b] ?? 0))));
  const s = sheet.settings;
  $("match-settings").textContent = [s.rounds ? `${s.rounds} rounds` : "", s.target ? `to ${s.target} points` : ""]
    .filter(Boolean).join(" or ");
  $("winners").textContent = sheet.complete
    ? `Winner${sheet.winners.length > 1 ? "s" : ""}: ${sheet.winners.map((b) => names[b] || b).join(", ")}`
    : sheet.rounds.length ? `Leading: ${sheet.leaders.map((b) => names[b] || b).join(", ")}` : "";
  $("winners").dataset.complete = sheet.complete;
  $("export-csv").href = `/api/sessions/${sheet.session}/export.csv`;
  $("export-json").href = `/api/sessions/${sheet.session}/export.json`;
  renderChart(sheet, backs, names);
}

const LINE_COLOURS = ["#f2c230", "#5ab0ff", "#ff6b6b", "#7be07b", "#d68cff", "#ffa94d", "#40e0d0", "#ff8fc7",
  "#c0c0c0", "#a3e635", "#fb7185", "#93c5fd"];

function renderChart(sheet, backs, names) {
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const series = [{}, ...sheet.running_totals];
  const values = series.flatMap((t) => backs.map((b) => t[b] ?? 0));
  const low = Math.min(0, ...values), high = Math.max(10, ...values);
  const W = 320, H = 160, L = 28, R = 70, T = 10, B = 20;
  const x = (i) => L + (i * (W - L - R)) / Math.max(1, series.length - 1);
  const y = (v) => T + ((high - v) * (H - T - B)) / (high - low || 1);
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#52775f" });
  add("text", { x: 2, y: y(high) + 3 }, high);
  add("text", { x: 2, y: y(low) + 3 }, low);
  series.forEach((_, i) => add("text", { x: x(i) - 3, y: H - 5 }, i));
  backs.forEach((b, k) => {
    const colour = LINE_COLOURS[k % LINE_COLOURS.length];
    const points = series.map((t, i) => `${x(i).toFixed(1)},${y(t[b] ?? 0).toFixed(1)}`).join(" ");
    add("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, "data-back": b });
    const last = series[series.length - 1][b] ?? 0;
    add("text", { x: W - R + 4, y: y(last) + 3, fill: colour }, `${names[b] || b} ${last}`);
  });
}

function renderPlayers() {
  const list = $("player-list");
  list.replaceChildren(...state.players.map((p) => {
    const remove = el("button", { type: "button" }, "×");
    remove.addEventListener("click", () => act(() => api("DELETE", `/api/players/${encodeURIComponent(p.back)}`)));
    return el("li", { dataset: { back: p.back } }, el("strong", {}, p.name), el("span", { class: "muted" }, p.back), remove);
  }));
  const fields = $("count-fields");
  const backs = state.players.map((p) => p.back);
  if (fields.dataset.backs !== backs.join(",")) {
    fields.dataset.backs = backs.join(",");
    fields.replaceChildren(...backs.map((b) => el("div", { class: "row" }, el("span", {}, nameOf(b)),
      el("input", { type: "number", min: 0, max: 40, name: `centre:${b}`, placeholder: "centre", "aria-label": `${b} centre` }),
      el("input", { type: "number", min: 0, max: 10, name: `leftover:${b}`, placeholder: "pile left", "aria-label": `${b} left` }))));
  }
}

async function loadBacks() {
  const backs = await api("GET", "/api/backs");
  $("player-back").replaceChildren(...backs.map((b) => el("option", { value: b.id }, b.enrolled ? `${b.label} (enrolled)` : b.label)));
}

async function loadSessions() {
  const sessions = await api("GET", "/api/sessions");
  $("session-list").replaceChildren(...sessions.map((s) => el("li", { dataset: { session: s.id } },
    el("strong", {}, s.name), el("span", { class: "muted" }, `${new Date(s.created * 1000).toLocaleString()} · ${s.rounds_played} round${s.rounds_played === 1 ? "" : "s"} played`),
    el("a", { href: `/api/sessions/${s.id}/export.csv` }, "CSV"), el("a", { href: `/api/sessions/${s.id}/export.json` }, "JSON"),
    sheetButton(s.id))));
}

function sheetButton(id) {
  const button = el("button", { type: "button" }, "sheet");
  button.addEventListener("click", async () => {
    const sheet = await api("GET", `/api/sessions/${id}/scores`);
    const names = Object.fromEntries(sheet.players.map((p) => [p.back, p.name]));
    const totals = Object.entries(sheet.totals).map(([b, t]) => `${names[b] || b} ${t}`).join(", ");
    const end = sheet.complete ? ` · winner ${sheet.winners.map((b) => names[b] || b).join(", ")}` : "";
    button.replaceWith(el("span", { class: "sheet-line" }, `${sheet.rounds.length} rounds: ${totals || "no scores"}${end}`));
  });
  return button;
}

// ------------------------------------------------------------------------------------------------ actions

async function act(fn, done) {
  try {
    const result = await fn();
    if (done) say(done(result));
  } catch (err) {
    say(err.message, true);
  }
  scheduleRefresh();
}

$("start-round").addEventListener("click", () => {
  try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); } catch (err) { /* no sound */ }
  act(() => api("POST", "/api/rounds"), (r) => `Round ${r.number} started.`);
});
$("stop-round").addEventListener("click", () => act(() => api("POST", "/api/rounds/current/stop"), () => "Ligretto stop! Gather the centre and spread it by back to count."));
$("count-round").addEventListener("click", () => act(() => api("POST", "/api/rounds/current/count"), () => "Round scored."));
$("count-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const centre = {}, leftover = {};
  for (const input of $("count-fields").querySelectorAll("input")) {
    if (input.value === "") continue;
    const [kind, back] = input.name.split(":");
    (kind === "centre" ? centre : leftover)[back] = Number(input.value);
  }
  act(() => api("POST", "/api/rounds/current/count", { centre, leftover }), () => "Round scored from your counts.");
});
$("player-form").addEventListener("submit", (e) => {
  e.preventDefault();
  act(() => api("POST", "/api/players", { back: $("player-back").value, name: $("player-name").value }), (p) => {
    $("player-name").value = "";
    return `${p.name} plays ${p.back}.`;
  });
});
$("enrol-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const out = $("enrol-result");
  out.textContent = "Looking at the camera…";
  api("POST", "/api/backs/enrol", { name: $("enrol-name").value })
    .then((r) => { out.textContent = `Learned "${r.back.label}" (${r.back.id}).`; loadBacks(); })
    .catch((err) => { out.textContent = err.message; });
});
$("session-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const value = Number($("session-value").value);
  const body = { name: $("session-new-name").value, rounds: null, target: null };
  body[$("session-mode").value === "rounds" ? "rounds" : "target"] = value;
  act(() => api("POST", "/api/sessions", body), (s) => { loadSessions(); return `New match "${s.name}".`; });
});

$("replay-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const form = new FormData();
  form.append("video", $("replay-video").files[0]);
  if ($("replay-labels").files[0]) form.append("labels", $("replay-labels").files[0]);
  const bar = $("replay-progress");
  const status = $("replay-status");
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/replays");
  if (TOKEN) xhr.setRequestHeader("Authorization", `Bearer ${TOKEN}`);
  bar.hidden = false;
  xhr.upload.onprogress = (ev) => { if (ev.lengthComputable) { bar.value = ev.loaded / ev.total; status.textContent = `Uploading ${(100 * bar.value).toFixed(0)} %`; } };
  xhr.onload = () => {
    const data = JSON.parse(xhr.responseText || "{}");
    if (xhr.status >= 300) { status.textContent = data.detail || xhr.statusText; return; }
    followReplay(data.id);
  };
  xhr.onerror = () => { status.textContent = "upload failed"; };
  xhr.send(form);
});

async function followReplay(id) {
  const bar = $("replay-progress");
  const status = $("replay-status");
  const job = await api("GET", `/api/replays/${id}`);
  bar.value = job.progress;
  status.textContent = `Replay ${job.status} ${(100 * job.progress).toFixed(0)} %${job.message ? ": " + job.message : ""}`;
  if (job.status === "queued" || job.status === "running") { setTimeout(() => followReplay(id), 500); return; }
  const items = (await api("GET", "/api/replays")).map((j) => el("li", { dataset: { replay: j.id } }, el("strong", {}, j.name),
    el("span", { class: "muted" }, `${j.status}: ${j.message}`), j.report ? el("a", { href: j.report, target: "_blank" }, "report") : ""));
  $("replay-list").replaceChildren(...items);
}

// ---------------------------------------------------------------------------------------------- picture

async function pictureLoop() {
  const img = $("picture");
  for (;;) {
    if (!document.hidden) {
      try {
        const response = await fetch("/api/picture.jpg", { cache: "no-store" });
        if (response.status === 200) {
          const url = URL.createObjectURL(await response.blob());
          const old = img.src;
          img.src = url;
          if (old.startsWith("blob:")) URL.revokeObjectURL(old);
        }
      } catch (err) { /* server restarting: try again */ }
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

refresh();
loadBacks().catch((err) => say(err.message, true));
loadSessions().catch(() => {});
connect();
pictureLoop();
setInterval(refresh, 3000);

// The lobby: choose a preset or paste a house file, set the seats, create the
// table, and hand out each person's secret join link.

import { lang, refusal, setLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let meta = { presets: [], house: [], bots: [] };
const seats = [
  { kind: "human", name: "" },
  { kind: "greedy", name: "" },
];

function texts() {
  document.documentElement.lang = lang();
  document.title = t("title");
  $("title").textContent = t("title");
  $("h-lobby").textContent = t("lobby");
  $("daily-puzzle").textContent = t("daily_puzzle");
  $("l-lang").textContent = t("language");
  $("l-preset").textContent = t("preset");
  $("l-paste").textContent = t("paste");
  $("h-seats").textContent = t("seats");
  $("add-seat").textContent = t("add_seat");
  $("remove-seat").textContent = t("remove_seat");
  $("l-undo").textContent = t("undo_option");
  $("create-btn").textContent = t("create");
  $("h-tables").textContent = t("open_tables");
  $("refresh").textContent = t("refresh");
  $("lang").value = lang();
}

function renderSeats() {
  const box = $("seats");
  box.innerHTML = "";
  seats.forEach((s, i) => {
    const row = document.createElement("div");
    row.className = "seat-row";
    const kinds = ["human", ...meta.bots];
    const options = kinds
      .map((k) => `<option value="${k}"${k === s.kind ? " selected" : ""}>${k === "human" ? t("human") : t("bot") + " " + k}</option>`)
      .join("");
    row.innerHTML = `<span>${t("seat")} ${i + 1}</span>
      <label><span class="sr-only">${t("kind")} ${i + 1}</span><select data-i="${i}" class="kind">${options}</select></label>
      <label><span class="sr-only">${t("name")} ${i + 1}</span><input data-i="${i}" class="name" maxlength="40" placeholder="${t("name")}"></label>`;
    row.querySelector("input").value = s.name;
    box.appendChild(row);
  });
  box.querySelectorAll("select.kind").forEach((el) => (el.onchange = () => (seats[+el.dataset.i].kind = el.value)));
  box.querySelectorAll("input.name").forEach((el) => (el.oninput = () => (seats[+el.dataset.i].name = el.value)));
}

async function loadMeta() {
  meta = await (await fetch("/api/meta")).json();
  const sel = $("variant");
  sel.innerHTML = "";
  for (const [group, names] of [["presets", meta.presets], ["house", meta.house]]) {
    const og = document.createElement("optgroup");
    og.label = group;
    for (const n of names) {
      const o = document.createElement("option");
      o.value = n;
      o.textContent = n;
      og.appendChild(o);
    }
    sel.appendChild(og);
  }
  sel.value = meta.presets.includes("rami51") ? "rami51" : meta.presets[0];
  renderSeats();
}

async function loadTables() {
  const list = await (await fetch("/api/tables")).json();
  const ul = $("tables");
  ul.innerHTML = "";
  if (!list.length) ul.innerHTML = `<li>${t("none")}</li>`;
  for (const tb of list) {
    const li = document.createElement("li");
    const who = tb.seats.map((s) => `${s.name}${s.connected ? "" : " (" + t("away") + ")"}`).join(", ");
    li.innerHTML = `<strong>${tb.variant}</strong> · ${t("round")} ${tb.round_no} · ${who} · <a href="/t/${tb.table}?lang=${lang()}">${t("watch")}</a>`;
    ul.appendChild(li);
  }
}

async function create(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const body = { seats: seats.map((s) => s.kind), names: seats.map((s) => s.name), undo: $("undo").checked };
  const seed = new URLSearchParams(location.search).get("seed"); // a reproducible deal, for tests and demos
  if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
  const text = $("rules").value.trim();
  if (text) body.rules = text;
  else body.variant = $("variant").value;
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) {
    $("error").textContent = `${t("refused")}: ${refusal(data.error.code, data.error.message)}`;
    return;
  }
  const box = $("links");
  box.innerHTML = `<h2>${t("links")}</h2>`;
  const ul = document.createElement("ul");
  data.seats.forEach((s) => {
    const li = document.createElement("li");
    if (s.token) {
      const href = `${data.url}?token=${encodeURIComponent(s.token)}&lang=${lang()}`;
      li.innerHTML = `${t("play_seat")} ${s.seat + 1} (${s.name}): <a class="join" data-seat="${s.seat}" href="${href}">${location.origin}${href}</a>`;
    } else {
      li.textContent = `${t("seat")} ${s.seat + 1}: ${t("bot")} ${s.kind}`;
    }
    ul.appendChild(li);
  });
  const watch = document.createElement("li");
  watch.innerHTML = `<a href="${data.url}?lang=${lang()}">${t("watch")}</a>`;
  ul.appendChild(watch);
  box.appendChild(ul);
  box.querySelector("a.join")?.focus();
  loadTables();
}

$("add-seat").onclick = () => {
  if (seats.length < 8) seats.push({ kind: meta.bots[0] || "human", name: "" });
  renderSeats();
};
$("remove-seat").onclick = () => {
  if (seats.length > 1) seats.pop();
  renderSeats();
};
$("lang").onchange = () => {
  setLang($("lang").value);
  const u = new URL(location.href);
  u.searchParams.set("lang", $("lang").value);
  history.replaceState(null, "", u);
  texts();
  renderSeats();
  loadTables();
};
$("refresh").onclick = loadTables;
$("create").onsubmit = create;
texts();
loadMeta().then(loadTables);

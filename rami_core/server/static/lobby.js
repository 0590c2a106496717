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
  $("daily-puzzle").href = `/puzzle?lang=${lang()}`;
  $("all-puzzles").textContent = t("all_puzzles");
  $("all-puzzles").href = `/puzzles?lang=${lang()}`;
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
  $("h-join").textContent = t("join_title");
  $("l-join-code").textContent = t("join_code");
  $("join-btn").textContent = t("join_go");
  const join = new URLSearchParams(location.search).get("join");
  $("join-error").textContent = join === "unknown" ? t("join_unknown") : join === "limited" ? t("join_limited") : "";
  $("lang").value = lang();
}

// Every text below is set with textContent or a DOM attribute, never parsed as
// HTML: a seat's name and a pasted file's `name:` are anyone's typing.
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

// A join link copied in one click (the clipboard, else the link selected to copy by hand).
function copyButton(url) {
  const b = el("button", { type: "button", class: "copy", text: t("copy_the_link") });
  b.onclick = async () => {
    try {
      await navigator.clipboard.writeText(url);
      b.textContent = t("copied");
    } catch (e) {
      const range = document.createRange();
      range.selectNodeContents(b.previousSibling?.previousSibling || b);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
  };
  return b;
}

function renderSeats() {
  const box = $("seats");
  box.replaceChildren();
  seats.forEach((s, i) => {
    const select = el("select", { class: "kind", dataset: { i } });
    for (const k of ["human", ...meta.bots]) {
      const o = el("option", { value: k, text: k === "human" ? t("human") : `${t("bot")} ${t("bots")[k] || k}` });
      o.selected = k === s.kind;
      select.append(o);
    }
    const input = el("input", { class: "name", maxlength: "40", placeholder: t("name"), dataset: { i } });
    input.value = s.name;
    select.onchange = () => (seats[i].kind = select.value);
    input.oninput = () => (seats[i].name = input.value);
    const row = el(
      "div",
      { class: "seat-row" },
      el("span", { text: `${t("seat")} ${i + 1}` }),
      el("label", {}, el("span", { class: "sr-only", text: `${t("kind")} ${i + 1}` }), select),
      el("label", {}, el("span", { class: "sr-only", text: `${t("name")} ${i + 1}` }), input),
    );
    box.append(row);
  });
}

// The chosen variant's line in the page's language, under the menu (a pasted
// file is described by its own `description`, on the table's page).
function describeVariant() {
  const d = (meta.descriptions || {})[$("variant").value] || {};
  $("variant-description").textContent = $("rules").value.trim() ? "" : d[lang()] || d.en || "";
}

function fillVariants() {
  const sel = $("variant");
  const chosen = sel.value;
  sel.replaceChildren();
  for (const [group, names] of [["presets_group", meta.presets], ["house_group", meta.house]]) {
    const og = document.createElement("optgroup");
    og.label = t(group);
    for (const n of names) {
      // The line in the page's language, not the file's identifier (English words joined by _).
      const d = (meta.descriptions || {})[n] || {};
      const o = document.createElement("option");
      o.value = n;
      o.title = n;
      o.textContent = d[lang()] || d.en || n;
      og.appendChild(o);
    }
    sel.appendChild(og);
  }
  sel.value = chosen || (meta.presets.includes("rami51") ? "rami51" : meta.presets[0]);
  describeVariant();
}

async function loadMeta() {
  meta = await (await fetch("/api/meta")).json();
  fillVariants();
  renderSeats();
}

async function loadTables() {
  const list = await (await fetch("/api/tables")).json();
  const ul = $("tables");
  ul.replaceChildren();
  if (!list.length) ul.append(el("li", { text: t("none") }));
  for (const tb of list) {
    const who = tb.seats.map((s) => `${s.name}${s.connected ? "" : " (" + t("away") + ")"}`).join(", ");
    const href = `/t/${encodeURIComponent(tb.table)}?lang=${lang()}`;
    ul.append(
      el(
        "li",
        {},
        el("strong", { text: (tb.descriptions || {})[lang()] || tb.variant, title: tb.variant }),
        ` · ${t("round")} ${tb.round_no} · ${who} · `,
        el("a", { href, text: t("watch") }),
      ),
    );
  }
}

async function create(ev) {
  ev.preventDefault();
  $("error").textContent = "";
  const body = { seats: seats.map((s) => s.kind), names: seats.map((s) => s.name), undo: $("undo").checked, lang: lang() };
  const seed = new URLSearchParams(location.search).get("seed"); // a reproducible deal, for tests and demos
  if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
  const text = $("rules").value.trim();
  if (text) body.rules = text;
  else body.variant = $("variant").value;
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) {
    $("error").textContent = `${t("refused")}${t("colon")} ${refusal(data.error.code, data.error.message, data.error.messages)}`;
    return;
  }
  // The creator takes the first person's seat at once; the table page lists
  // the other seats' codes to share (kept in this browser: the creation
  // answer is the only message that holds them).
  const mine = data.creator_seat;
  if (mine !== null && mine !== undefined) {
    const others = data.seats.filter((s) => s.code && s.seat !== mine).map((s) => ({ seat: s.seat, name: s.name, code: s.code }));
    try {
      localStorage.setItem(`rami-invites:${data.table}`, JSON.stringify({ token: data.seats[mine].token, seats: others }));
    } catch (e) {
      /* a browser without storage: the lobby's list below is the way */
    }
  }
  const warned = data.warnings && data.warnings.length;
  if (mine !== null && mine !== undefined && !warned) {
    location.href = `${data.url}?token=${encodeURIComponent(data.seats[mine].token)}&lang=${lang()}`;
    return;
  }
  const box = $("links");
  box.replaceChildren();
  if (warned) {
    // Accepted, but said: the profile's warnings, located in the rules pasted.
    const warned = el("div", { class: "warnings", role: "status" }, el("p", { text: t("warnings") }));
    const wl = el("ul");
    data.warnings.forEach((w) => wl.append(el("li", { text: (w.messages && w.messages[lang()]) || w.message })));
    warned.append(wl);
    box.append(warned);
  }
  box.append(el("h2", { text: t("links") }));
  const ul = el("ul");
  data.seats.forEach((s) => {
    if (s.token) {
      const href = `${data.url}?token=${encodeURIComponent(s.token)}&lang=${lang()}`;
      ul.append(
        el(
          "li",
          {},
          `${t("play_seat")} ${s.seat + 1} (${s.name})${t("colon")} `,
          el("a", { class: "join", href, dataset: { seat: s.seat }, text: `${location.origin}${href}` }),
          " ",
          copyButton(`${location.origin}${href}`),
        ),
      );
    } else {
      ul.append(el("li", { text: `${t("seat")} ${s.seat + 1}${t("colon")} ${t("bot")} ${t("bots")[s.kind] || s.kind}` }));
    }
  });
  ul.append(el("li", {}, el("a", { href: `${data.url}?lang=${lang()}`, text: t("watch") })));
  box.append(ul);
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
  fillVariants();
  renderSeats();
  loadTables();
};
$("variant").addEventListener("change", describeVariant);
$("rules").addEventListener("input", describeVariant);
$("refresh").onclick = loadTables;
$("join-form").onsubmit = (ev) => {
  ev.preventDefault();
  const code = $("join-code").value.toUpperCase().replace(/[^0-9A-Z]/g, "");
  if (code) location.href = `/j/${encodeURIComponent(code)}?lang=${lang()}`;
};
$("create").onsubmit = create;
texts();
loadMeta().then(loadTables);

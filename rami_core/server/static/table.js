// The table page: the seat's view from the server, drawn again after every
// change; the player's clicks become actions in the protocol's dict form.
// The page judges nothing: the server refuses what the rules refuse, and the
// refusal is shown in words.

import { cardBack, cardElement, parse, sortCards, text as cardText } from "./cards.js";
import { lang, refusal, t } from "./i18n.js";
import { renderRoundEnd, tickRoundEnd } from "./roundend.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token") || "";
// Every request names the page's language: the server answers refusals and
// events in its words (one catalogue, the terminal's).
const q = `?${token ? `token=${encodeURIComponent(token)}&` : ""}lang=${lang()}`;
const stagedKey = `rami-staged:${tableId}:${token}`;

const ui = {
  view: null,
  version: -1,
  selected: [], // card codes (a multiset) chosen in the hand
  staged: [], // melds built from the hand, not yet laid
  target: null, // the table meld chosen for a lay off or a swap
  sortBy: "suit",
  rearranging: false,
  work: [], // the table being rearranged: [[{code, hand}]]
  picked: null, // {from: "hand", code} | {from: "work", m, i}
  log: [], // [{version, text}]: rebuilt from the table's events on load
  logVersion: -1, // the version the fetched events were read at
  deadline: null, // the turn's deadline in the server's clock (ms)
  clockOffset: 0, // the server's clock minus this browser's, re-read from every view
};

function nameOf(seat) {
  const v = ui.view;
  if (seat === null || seat === undefined || !v) return "";
  return seat === v.seat ? `${v.names[seat]} (${t("you")})` : v.names[seat];
}

function minus(cards, removed) {
  const left = [...cards];
  for (const c of removed) {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

function handShown() {
  const v = ui.view;
  if (!v || !v.hand) return [];
  const moved = ui.work.flat().filter((c) => c.hand).map((c) => c.code);
  return sortCards(minus(minus(v.hand, ui.staged.flat()), ui.rearranging ? moved : []), ui.sortBy);
}

function may(what) {
  return ui.view && ui.view.may.includes(what);
}

function show(el, on) {
  el.hidden = !on;
}

function setRefusal(text) {
  $("refusal").textContent = text || "";
}

function refusalOf(err) {
  return err.text || `${t("refused")}${t("colon")} ${refusal(err.code, err.message)}`;
}

// Melds being prepared outlive a reload (this browser only).
function loadStaged() {
  try {
    const v = JSON.parse(localStorage.getItem(stagedKey) || "[]");
    return Array.isArray(v) ? v.filter((m) => Array.isArray(m) && m.every((c) => typeof c === "string")) : [];
  } catch (e) {
    return [];
  }
}

function saveStaged() {
  try {
    if (ui.staged.length) localStorage.setItem(stagedKey, JSON.stringify(ui.staged));
    else localStorage.removeItem(stagedKey);
  } catch (e) {
    /* a browser without storage keeps them for this page only */
  }
}

async function loadLog() {
  try {
    const r = await fetch(`/api/tables/${tableId}/events${q}`);
    if (!r.ok) return;
    const d = await r.json();
    const later = ui.log.filter((l) => l.version > d.version);
    ui.log = d.events.filter((e) => e.text).map((e) => ({ version: d.version, text: e.text })).concat(later);
    ui.logVersion = d.version;
    renderLog();
  } catch (e) {
    /* the log is rebuilt at the next connection */
  }
}

// ------------------------------------------------------------ talking to the server

async function send(action) {
  setRefusal("");
  let r;
  try {
    r = await fetch(`/api/tables/${tableId}/actions${q}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(action),
    });
  } catch (e) {
    setRefusal(t("disconnected"));
    return false;
  }
  const data = await r.json();
  if (!r.ok) {
    setRefusal(refusalOf(data.error));
    return false;
  }
  accept(data);
  return true;
}

function accept(view, force = false) {
  if (!force && view.version < ui.version) return;
  ui.version = Math.max(ui.version, view.version);
  const handChanged = !ui.view || JSON.stringify(ui.view.hand) !== JSON.stringify(view.hand);
  ui.view = view;
  if (handChanged) {
    const left = view.hand ? [...view.hand] : [];
    ui.staged = ui.staged.filter((m) => m.every((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; }));
    ui.selected = ui.selected.filter((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; });
  }
  if (view.phase === "over") ui.staged = [];
  if (view.phase !== "lay" || view.turn !== view.seat) {
    ui.rearranging = false;
    ui.work = [];
    ui.picked = null;
  }
  if (ui.target !== null && ui.target >= view.melds.length) ui.target = null;
  // The clock counts down to the server's deadline, never from a leftover:
  // every view re-synchronises this browser's clock with the server's.
  if (view.clock && view.clock.deadline) {
    ui.clockOffset = view.clock.server_time * 1000 - Date.now();
    ui.deadline = view.clock.deadline * 1000;
  } else {
    ui.deadline = null;
  }
  render();
}

let socket = null;
let retry = 500;
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}${q}`);
  let first = true;
  socket.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "view") {
      accept(msg.view, first);
      if (first) loadLog();
      first = false;
      retry = 500;
    } else if (msg.type === "event") {
      if (msg.text && !(msg.version <= ui.logVersion)) {
        ui.log.push({ version: msg.version, text: msg.text });
        if (ui.log.length > 400) ui.log.shift();
        renderLog();
      }
    } else if (msg.type === "error") {
      setRefusal(refusalOf(msg));
      if (msg.code === "bad_token" || msg.code === "no_such_table") retry = -1;
    }
  };
  socket.onclose = () => {
    if (retry < 0) return;
    $("status").textContent = t("disconnected");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// ------------------------------------------------------------ drawing the page

function renderPlayers() {
  const v = ui.view;
  const box = $("players");
  box.innerHTML = "";
  for (let s = 0; s < v.players; s++) {
    const div = document.createElement("div");
    div.className = "player" + (v.turn === s && v.phase !== "over" ? " turn" : "");
    div.dataset.seat = s;
    const score = v.scores.length === v.players ? v.scores[s] : v.scores[s % v.scores.length];
    const kind = v.kinds[s];
    const flags = [
      kind !== "human" ? `${t("bot")} ${t("bots")[kind] || kind}` : v.connected[s] ? t("connected") : t("away"),
      v.opened[s] ? t("opened") : "",
    ].filter(Boolean);
    const n = v.hand_sizes[s];
    const strong = document.createElement("strong");
    strong.textContent = nameOf(s);
    const muted = document.createElement("span");
    muted.className = "muted";
    muted.textContent = flags.join(" · ");
    const count = document.createElement("span");
    count.className = "count";
    count.dataset.count = n;
    count.textContent = `${n} ${n === 1 ? t("card_one") : t("cards")}`;
    const total = document.createElement("span");
    total.className = "total";
    total.textContent = ` · ${t("total")}${t("colon")} ${score}`;
    div.replaceChildren(strong, document.createElement("br"), muted, document.createElement("br"), count, total);
    const backs = document.createElement("div");
    if (v.revealed_hands) {
      v.revealed_hands[s].forEach((c) => backs.appendChild(cardElement(c, { small: true })));
    } else if (s !== v.seat) {
      for (let i = 0; i < Math.min(v.hand_sizes[s], 14); i++) backs.appendChild(cardBack(true));
    }
    div.appendChild(backs);
    box.appendChild(div);
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function meldLabel(m) {
  const owner = m.owner === null ? "" : ` · ${t("by")} ${nameOf(m.owner)}`;
  return `${t("meld")} ${m.number + 1}${owner}`; // counted from 1, as on the terminal screen
}

function renderMelds() {
  const v = ui.view;
  const box = $("melds");
  box.innerHTML = "";
  show(box, !ui.rearranging);
  for (const m of v.melds) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "meld" + (ui.target === m.number ? " target" : "");
    b.dataset.meld = m.number;
    b.setAttribute("aria-pressed", ui.target === m.number ? "true" : "false");
    b.setAttribute("aria-label", `${meldLabel(m)}: ${m.cards.join(" ")}`);
    b.innerHTML = `<span class="meld-label">${escapeHtml(meldLabel(m))}</span>`;
    m.cards.forEach((c) => b.appendChild(cardElement(c, { small: true })));
    b.onclick = () => {
      ui.target = ui.target === m.number ? null : m.number;
      render();
    };
    box.appendChild(b);
  }
  // Piles.
  const stock = $("stock");
  stock.innerHTML = "";
  stock.appendChild(cardBack(false));
  stock.insertAdjacentHTML("beforeend", `<span class="count">${t("stock")}${t("colon")} ${v.stock_size}</span>`);
  stock.setAttribute("aria-label", `${t("stock")}${t("colon")} ${v.stock_size} ${t("cards")}. ${t("draw_stock")}`);
  stock.disabled = !may("draw_stock");
  const disc = $("discard");
  show(disc, v.rules.discard_pile); // voleur has no discard pile
  disc.innerHTML = "";
  if (v.discard_top) disc.appendChild(cardElement(v.discard_top));
  disc.insertAdjacentHTML("beforeend", `<span class="count">${t("discard")}${v.discard_top ? "" : ": " + t("empty")}</span>`);
  disc.setAttribute("aria-label", `${t("discard")}${t("colon")} ${v.discard_top || t("empty")}`);
  disc.disabled = !(may("draw_discard") || (may("discard") && ui.selected.length === 1));
}

function renderHand() {
  const v = ui.view;
  show($("hand-panel"), v.seat !== null);
  if (v.seat === null) return;
  const box = $("hand");
  box.innerHTML = "";
  box.setAttribute("aria-label", t("your_hand"));
  const used = [...ui.selected];
  for (const c of handShown()) {
    const i = used.indexOf(c);
    const pressed = i >= 0;
    if (pressed) used.splice(i, 1);
    const el = cardElement(c, { button: true, pressed });
    if (ui.picked && ui.picked.from === "hand" && ui.picked.code === c) el.classList.add("picked");
    el.onclick = () => {
      if (ui.rearranging) {
        ui.picked = { from: "hand", code: c };
      } else if (el.getAttribute("aria-pressed") === "true") {
        ui.selected.splice(ui.selected.indexOf(c), 1);
      } else {
        ui.selected.push(c);
      }
      render();
      const again = [...$("hand").querySelectorAll(`[data-card="${c}"]`)];
      (again.find((x) => x.getAttribute("aria-pressed") === el.getAttribute("aria-pressed")) || again[0])?.focus();
    };
    box.appendChild(el);
  }
  // Staged melds.
  show($("staged-box"), ui.staged.length > 0);
  $("h-staged").textContent = t("staged");
  const st = $("staged");
  st.innerHTML = "";
  ui.staged.forEach((m) => {
    const d = document.createElement("div");
    d.className = "meld";
    m.forEach((c) => d.appendChild(cardElement(c, { small: true })));
    st.appendChild(d);
  });
}

function renderWork() {
  show($("rearrange-box"), ui.rearranging);
  if (!ui.rearranging) return;
  $("h-rearrange").textContent = t("rearrange");
  const box = $("work");
  box.innerHTML = "";
  ui.work.forEach((m, mi) => {
    const d = document.createElement("div");
    d.className = "meld";
    d.innerHTML = `<span class="meld-label">${t("meld")} ${mi + 1}</span>`;
    m.forEach((c, ci) => {
      const el = cardElement(c.code, { button: true, small: true });
      if (ui.picked && ui.picked.from === "work" && ui.picked.m === mi && ui.picked.i === ci) el.classList.add("picked");
      el.onclick = () => {
        ui.picked = { from: "work", m: mi, i: ci };
        render();
      };
      d.appendChild(el);
    });
    const here = document.createElement("button");
    here.type = "button";
    here.textContent = t("move_here");
    here.className = "move-here";
    here.disabled = !ui.picked;
    here.onclick = () => movePicked(mi);
    d.appendChild(here);
    box.appendChild(d);
  });
  $("new-meld").textContent = t("new_meld");
  $("new-meld").disabled = !ui.picked;
  $("rearrange-send").textContent = t("rearrange_send");
  $("rearrange-cancel").textContent = t("rearrange_cancel");
}

function movePicked(to) {
  const p = ui.picked;
  if (!p) return;
  let card;
  if (p.from === "hand") card = { code: p.code, hand: true };
  else card = ui.work[p.m].splice(p.i, 1)[0];
  if (to === ui.work.length) ui.work.push([]);
  ui.work[to].push(card);
  ui.picked = null;
  render();
}

function renderActions() {
  const v = ui.view;
  const mine = v.seat !== null && v.turn === v.seat && v.phase === "lay";
  const sel = ui.selected.length;
  const target = ui.target === null ? null : v.melds[ui.target];
  const buttons = {
    "b-draw-stock": [may("draw_stock"), true, t("draw_stock")],
    "b-draw-discard": [may("draw_discard"), true, t("draw_discard")],
    "b-stage": [mine && !ui.rearranging, sel > 0, t("stage")],
    "b-lay": [mine && ui.staged.length > 0, true, t("lay")],
    "b-clear": [mine && ui.staged.length > 0, true, t("clear_staged")],
    "b-layoff": [may("layoff") && !ui.rearranging, sel > 0 && target !== null, `${t("layoff")} ${target ? target.number + 1 : "…"}`],
    "b-swap": [may("swap") && !ui.rearranging && target !== null && target.cards.includes("JK"), sel > 0, `${t("swap")} ${target ? target.number + 1 : ""}`],
    "b-rearrange": [may("rearrange") && !ui.rearranging, true, t("rearrange")],
    "b-discard": [may("discard") && !ui.rearranging, sel === 1, t("discard_btn")],
    "b-end": [may("end_turn") && !ui.rearranging, true, t("end_turn")],
    "b-undo": [may("undo"), true, t("undo")],
  };
  for (const [id, [visible, enabled, text]] of Object.entries(buttons)) {
    const b = $(id);
    b.textContent = text;
    show(b, visible);
    b.disabled = !enabled;
  }
  const jokerBox = $("joker-as-box");
  const wantsPlace = may("layoff") && sel > 0 && ui.selected.includes("JK") && target && target.kind === "run";
  show(jokerBox, Boolean(wantsPlace));
  if (wantsPlace) {
    $("l-joker-as").textContent = t("joker_as");
    const suit = target.cards.map(parse).find((c) => c.suit)?.suit;
    const sel = $("joker-as");
    const keep = sel.value;
    const auto = document.createElement("option");
    auto.value = "";
    auto.textContent = t("auto");
    sel.replaceChildren(
      auto,
      ..."A 2 3 4 5 6 7 8 9 10 J Q K".split(" ").map((r) => {
        const o = document.createElement("option");
        o.value = `${r}${suit}`;
        o.textContent = cardText(`${r}${suit}`);
        return o;
      }),
    );
    sel.value = keep && keep.endsWith(suit) ? keep : "";
  }
}

function renderStatus() {
  const v = ui.view;
  $("variant").textContent = v.variant;
  $("round").textContent = `${t("round")} ${v.round_no}`;
  let text;
  if (v.phase === "over") {
    text = v.game_over ? t("game_over") : t("round_over");
    const w = v.game_over ? v.game_winner : v.winner;
    if (v.game_over && v.teams) text += ` ${w === null ? t("no_winner") : t("winner", "team " + (w + 1))}`;
    else text += ` ${w === null ? t("no_winner") : t("winner", nameOf(w))}`;
  } else if (v.seat === null) {
    text = `${t("spectator")}. ${t("turn_of", nameOf(v.turn))}.`;
  } else if (v.turn === v.seat) {
    text = v.phase === "draw" ? t(v.rules.discard_pile ? "your_turn_draw" : "your_turn_draw_stock") : v.rules.discard ? t("your_turn_lay") : t("your_turn_lay_end");
  } else {
    text = t("waiting", nameOf(v.turn));
  }
  $("status").textContent = text;
  $("hint").textContent = t("select_hint");
  $("h-hand").textContent = t("your_hand");
  $("h-table").textContent = t("table");
  $("h-sheet").textContent = t("score_sheet");
  $("h-log").textContent = t("log");
  $("sort").textContent = ui.sortBy === "suit" ? t("sort_rank") : t("sort_suit");
  document.documentElement.lang = lang();
}

function renderSheet() {
  const v = ui.view;
  const cols = v.scores.length;
  const heads = cols === v.players ? v.names.map((n, i) => nameOf(i)) : v.scores.map((_, i) => `team ${i + 1}`);
  let html = `<caption class="sr-only">${t("score_sheet")}</caption><thead><tr><th scope="col">${t("round")}</th>${heads.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>`;
  for (const line of v.score_sheet) {
    const pens = cols === v.players ? line.penalties : line.scores;
    html += `<tr><td>${line.round}</td>${pens.map((p) => `<td>${p}</td>`).join("")}</tr>`;
  }
  html += `</tbody><tfoot><tr><th scope="row">${t("total")}</th>${v.scores.map((s) => `<td>${s}</td>`).join("")}</tr></tfoot>`;
  $("sheet").innerHTML = html;
}

function renderLog() {
  const ol = $("log");
  ol.replaceChildren(
    ...ui.log.map((l) => {
      const li = document.createElement("li");
      li.textContent = l.text;
      return li;
    }),
  );
  ol.scrollTop = ol.scrollHeight;
}

function tick() {
  const el = $("clock");
  if (ui.deadline === null) {
    el.textContent = "";
  } else {
    const left = Math.max(0, (ui.deadline - (Date.now() + ui.clockOffset)) / 1000);
    el.textContent = `${t("clock")}${t("colon")} ${Math.ceil(left)} ${t("seconds")}`;
    el.classList.toggle("low", left < 10);
  }
  tickRoundEnd();
}

function render() {
  if (!ui.view) return;
  saveStaged();
  renderStatus();
  renderPlayers();
  renderMelds();
  renderWork();
  renderHand();
  renderActions();
  renderSheet();
  renderRoundEnd($("round-end"), ui.view, nameOf, () => send({ next_round: true }));
  tick();
  document.body.dataset.phase = ui.view.phase;
  document.body.dataset.turn = ui.view.turn;
  document.body.dataset.round = ui.view.round_no;
}

// ------------------------------------------------------------ what clicks do

async function drawStock() {
  await send({ draw: "stock" });
}

$("stock").onclick = drawStock;
$("discard").onclick = () => {
  if (may("draw_discard")) return send({ draw: "discard" });
  if (may("discard") && ui.selected.length === 1) return discardSelected();
};
$("b-draw-stock").onclick = drawStock;
$("b-draw-discard").onclick = () => send({ draw: "discard" });
$("b-stage").onclick = () => {
  ui.staged.push([...ui.selected]);
  ui.selected = [];
  render();
};
$("b-clear").onclick = () => {
  ui.staged = [];
  render();
};
$("b-lay").onclick = async () => {
  const melds = ui.staged.map((m) => [...m]);
  if (await send({ meld: melds })) ui.staged = [];
  render();
};
$("b-layoff").onclick = async () => {
  const to = ui.target;
  const place = $("joker-as").value;
  const items = ui.selected.map((c) => (c === "JK" && place ? { card: c, to, as: place } : { card: c, to }));
  if (await send({ layoff: items })) ui.selected = [];
  render();
};
$("b-swap").onclick = async () => {
  const spec = ui.selected.length === 1 ? { card: ui.selected[0], meld: ui.target } : { cards: [...ui.selected], meld: ui.target };
  if (await send({ swap: spec })) ui.selected = [];
  render();
};
async function discardSelected() {
  const c = ui.selected[0];
  if (await send({ discard: c })) ui.selected = [];
  render();
}
$("b-discard").onclick = discardSelected;
$("b-end").onclick = () => send({ end_turn: true });
$("b-undo").onclick = () => send({ undo: true });
$("b-rearrange").onclick = () => {
  ui.rearranging = true;
  ui.work = ui.view.melds.map((m) => m.cards.map((c) => ({ code: c, hand: false })));
  ui.picked = null;
  ui.selected = [];
  ui.staged = [];
  render();
};
$("new-meld").onclick = () => movePicked(ui.work.length);
$("rearrange-cancel").onclick = () => {
  ui.rearranging = false;
  ui.work = [];
  ui.picked = null;
  render();
};
$("rearrange-send").onclick = async () => {
  const table = ui.work.filter((m) => m.length).map((m) => m.map((c) => c.code));
  if (await send({ rearrange: table })) {
    ui.rearranging = false;
    ui.work = [];
  }
  render();
};
$("sort").onclick = () => {
  ui.sortBy = ui.sortBy === "suit" ? "rank" : "suit";
  render();
};
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    ui.selected = [];
    ui.target = null;
    ui.picked = null;
    render();
  }
});

ui.staged = loadStaged();
setInterval(tick, 500);
fetch(`/api/tables/${tableId}/view${q}`)
  .then((r) => r.json().then((d) => ({ ok: r.ok, d })))
  .then(({ ok, d }) => {
    if (ok) accept(d, true);
    else setRefusal(refusalOf(d.error));
  });
connect();

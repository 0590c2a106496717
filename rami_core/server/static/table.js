// The table page: the seat's view from the server, drawn again after every
// change; the player's clicks become actions in the protocol's dict form.
// The page judges nothing: the server refuses what the rules refuse, and the
// refusal is shown in words.

import { cardBack, cardElement, parse, sortCards, text as cardText } from "./cards.js";
import { lang, refusal, t } from "./i18n.js";
import { renderRoundEnd, tickRoundEnd } from "./roundend.js";
import { draggable, isPressed, onDrop, whenFree } from "./dnd.js";
import { fetchHint, loadRules, owesText, setTitle, setupOptions, w, yourTurn } from "./feel.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token") || "";
// Every request names the page's language: the server answers refusals and
// events in its words (one catalogue, the terminal's).
const q = `?${token ? `token=${encodeURIComponent(token)}&` : ""}lang=${lang()}`;
const stagedKey = `rami-staged:${tableId}:${token}`;
const base = `/api/tables/${tableId}`;
const FLASH_MS = 4000; // how long the last move stays highlighted

const SORT_KEY = "rami-sort"; // the hand's order, by suit or by rank: this browser's choice

function storedSort() {
  try {
    return localStorage.getItem(SORT_KEY) === "rank" ? "rank" : "suit";
  } catch (e) {
    return "suit";
  }
}

const ui = {
  view: null,
  version: -1,
  selected: [], // card codes (a multiset) chosen in the hand
  staged: [], // melds built from the hand, not yet laid
  target: null, // the table meld chosen for a lay off or a swap
  sortBy: storedSort(),
  rearranging: false,
  work: [], // the table being rearranged: [[{code, hand}]]
  picked: [], // cards chosen to move in a rearrangement: {from: "hand", code} | {from: "work", m, i}
  handOrder: null, // the hand in the order the player dragged it to (null: sorted)
  workCheck: null, // the server's reading of the table being rearranged
  stagedCheck: null, // the server's reading of the melds being prepared
  flash: null, // the last move, highlighted a few seconds: {melds: Set, cards: {meld: [codes]}, discard, until}
  hintText: "",
  collapsed: false, // the hand's panel folded to its actions
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
  const moved = ui.work.flatMap((m) => m.cards).filter((c) => c.hand).map((c) => c.code);
  const left = minus(minus(v.hand, ui.staged.flat()), ui.rearranging ? moved : []);
  if (!ui.handOrder) return sortCards(left, ui.sortBy);
  // The player's own order: the cards they placed, then any new card at the end.
  const rest = [...left];
  const out = [];
  for (const c of ui.handOrder) {
    const i = rest.indexOf(c);
    if (i >= 0) out.push(rest.splice(i, 1)[0]);
  }
  return out.concat(rest);
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
  if (!ui.view || ui.view.turn !== view.turn || ui.view.phase !== view.phase) $("hint-text").textContent = "";
  // A meld chosen for a lay off belongs to the turn it was chosen in: by the
  // seat's next turn others have laid, and its number may name another meld.
  if (ui.view && ui.view.turn !== view.turn) ui.target = null;
  ui.view = view;
  if (handChanged) {
    const left = view.hand ? [...view.hand] : [];
    ui.staged = ui.staged.filter((m) => m.every((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; }));
    ui.selected = ui.selected.filter((c) => { const i = left.indexOf(c); if (i < 0) return false; left.splice(i, 1); return true; });
  }
  if (view.phase === "over") ui.staged = [];
  if (ui.staged.length) checkStaged(); // the position changed: the server judges the melds again
  if (view.phase !== "lay" || view.turn !== view.seat) {
    ui.rearranging = false;
    ui.work = [];
    ui.picked = [];
    ui.workCheck = null;
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
      noteMove(msg.event);
      if (msg.text && !(msg.version <= ui.logVersion)) {
        ui.log.push({ version: msg.version, text: msg.text });
        if (ui.log.length > 400) ui.log.shift();
        renderLog();
      }
    } else if (msg.type === "talk") {
      heard(msg);
    } else if (msg.type === "error") {
      setRefusal(refusalOf(msg));
      if (msg.code === "bad_token" || msg.code === "no_such_table") retry = -1;
    }
  };
  socket.onopen = () => {
    if (ui.view) render();
  };
  socket.onclose = () => {
    if (ui.view) render();
    if (retry < 0) return;
    $("status").textContent = t("disconnected");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

// ------------------------------------------------------------ table talk

const PHRASES = ["well_played", "hurry", "bravo", "thanks", "again"];
const TALK_MS = 8000; // how long a quick message stays in the log

// A quick message from the fixed list, by id: each page says it in its words.
function heard(msg) {
  const words = (t("talk") || {})[msg.phrase];
  if (!words || !ui.view) return;
  const text = t("talk_said", nameOf(msg.seat), words);
  const entry = { version: ui.version, text, talk: true };
  ui.log.push(entry);
  renderLog();
  const shown = $("talk-shown");
  shown.textContent = text;
  shown.hidden = false;
  setTimeout(() => {
    ui.log = ui.log.filter((l) => l !== entry);
    renderLog();
    if (shown.textContent === text) shown.hidden = true;
  }, TALK_MS);
}

function renderTalk() {
  const box = $("talk");
  const seated = ui.view && ui.view.seat !== null;
  box.hidden = !seated;
  if (!seated) return;
  box.setAttribute("aria-label", t("talk_label"));
  if (box.children.length !== PHRASES.length || box.dataset.lang !== lang()) {
    box.dataset.lang = lang();
    box.replaceChildren(
      ...PHRASES.map((p) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "talk-btn";
        b.dataset.phrase = p;
        b.textContent = t("talk")[p];
        b.onclick = () => {
          if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "talk", phrase: p }));
        };
        return b;
      }),
    );
  }
}

// ------------------------------------------------------------ inviting the others

// The creator's seat page lists the other seats' codes, kept by the lobby in
// this browser when it made the table (the creation answer is the only
// message that holds them), with a share button each.
function invites() {
  try {
    const kept = JSON.parse(localStorage.getItem(`rami-invites:${tableId}`) || "null");
    return kept && kept.token === token ? kept.seats : [];
  } catch (e) {
    return [];
  }
}

async function shareCode(seat, status) {
  const url = `${location.origin}/j/${seat.code}?lang=${lang()}`;
  const text = t("invite_text", seat.name);
  if (navigator.share) {
    try {
      await navigator.share({ title: ui.title || "rami", text, url });
      return;
    } catch (e) {
      if (e && e.name === "AbortError") return; // the player closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(`${text} ${url}`);
    status.textContent = t("copied");
  } catch (e) {
    status.textContent = `${t("copy_failed")}${t("colon")} ${url}`;
  }
}

function renderInvite() {
  const v = ui.view;
  const seats = invites();
  const box = $("invite");
  const waiting = seats.filter((s) => !v.connected[s.seat]);
  box.hidden = !seats.length || (!waiting.length && !box.dataset.shown);
  if (box.hidden) return;
  box.dataset.shown = waiting.length ? "1" : "";
  $("h-invite").textContent = t("invite");
  $("invite-intro").textContent = t("invite_intro");
  const list = $("invite-list");
  for (const s of seats) {
    let li = list.querySelector(`li[data-seat="${s.seat}"]`);
    if (!li || li.dataset.lang !== lang()) {
      li = document.createElement("li");
      li.dataset.seat = s.seat;
      li.dataset.lang = lang();
      const name = document.createElement("strong");
      name.textContent = `${t("seat")} ${s.seat + 1} · ${s.name}`;
      const code = document.createElement("a");
      code.className = "join invite-code";
      code.dataset.seat = s.seat;
      code.href = `/j/${s.code}?lang=${lang()}`;
      code.textContent = `${s.code.slice(0, 4)} ${s.code.slice(4)}`;
      const state = document.createElement("span");
      state.className = "muted invite-state";
      const b = document.createElement("button");
      b.type = "button";
      b.className = "share";
      b.textContent = t("share");
      const status = document.createElement("span");
      status.className = "copied";
      status.setAttribute("role", "status");
      b.onclick = () => shareCode(s, status);
      li.replaceChildren(name, " ", code, " ", state, " ", b, " ", status);
      const old = list.querySelector(`li[data-seat="${s.seat}"]`);
      if (old) old.replaceWith(li);
      else list.append(li);
    }
    const seated = Boolean(v.connected[s.seat]);
    li.dataset.seated = seated ? "1" : "0";
    li.querySelector(".invite-state").textContent = seated ? t("invite_seated") : t("invite_waiting");
  }
}

async function playAgain() {
  setRefusal("");
  try {
    const r = await fetch(`${base}/rematch${q}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const d = await r.json();
    if (!r.ok) {
      setRefusal(refusalOf(d.error));
      return;
    }
    location.href = `${d.url}${d.url.includes("?") ? "&" : "?"}lang=${lang()}`;
  } catch (e) {
    setRefusal(t("disconnected"));
  }
}

// ------------------------------------------------------------ the last move

const FLASHED = new Set(["laid", "laid_off", "swapped", "rearranged", "discarded", "drawn"]);

function noteMove(ev) {
  if (!ev || !FLASHED.has(ev.kind)) return;
  ui.flash = { ev, until: Date.now() + FLASH_MS };
  setTimeout(() => {
    if (ui.flash && Date.now() >= ui.flash.until) {
      ui.flash = null;
      render();
    }
  }, FLASH_MS + 50);
}

// Which table melds (by number) and which of their cards the last move touched.
function flashed() {
  const f = ui.flash && Date.now() < ui.flash.until ? ui.flash.ev : null;
  const out = { melds: new Set(), cards: {}, discard: false, seat: f ? f.seat : null, kind: f ? f.kind : null };
  if (!f) return out;
  const add = (m, cards) => {
    out.melds.add(m);
    out.cards[m] = (out.cards[m] || []).concat(cards);
  };
  const n = ui.view.melds.length;
  if (f.kind === "laid") f.melds.forEach((m, i) => add(n - f.melds.length + i, m));
  else if (f.kind === "laid_off") f.cards.forEach((c) => add(c.to, [c.card]));
  else if (f.kind === "swapped") add(f.meld, f.given);
  else if (f.kind === "rearranged") {
    (f.moved || []).forEach((mv) => add(mv.to, mv.cards));
    (f.added || []).forEach((a) => add(a.to, a.cards));
  } else if (f.kind === "discarded") out.discard = true;
  return out;
}

// Mark each of `codes` once among the card elements of `box`.
function markCards(box, codes) {
  const left = [...codes];
  for (const el of box.querySelectorAll(".card")) {
    const i = left.indexOf(el.dataset.card);
    if (i >= 0) {
      el.classList.add("flash");
      left.splice(i, 1);
    }
  }
}

// ------------------------------------------------------------ drawing the page

// Whether a seat is held: this page's own seat is, whenever its socket is
// open (whatever an older view said); the others as the server says.
function here(s) {
  const v = ui.view;
  if (s === v.seat && socket && socket.readyState === WebSocket.OPEN) return true;
  return Boolean(v.connected[s]);
}

function renderPlayers() {
  const v = ui.view;
  const box = $("players");
  box.innerHTML = "";
  for (let s = 0; s < v.players; s++) {
    const div = document.createElement("div");
    div.className = "player" + (v.turn === s && v.phase !== "over" ? " turn" : "") + (flashed().seat === s ? " moved" : "");
    div.dataset.seat = s;
    const score = v.scores.length === v.players ? v.scores[s] : v.scores[s % v.scores.length];
    const kind = v.kinds[s];
    const flags = [
      kind !== "human" ? `${t("bot")} ${t("bots")[kind] || kind}` : here(s) ? t("connected") : t("away"),
      v.opened[s] ? t("opened") : "",
    ].filter(Boolean);
    const n = v.hand_sizes[s];
    const strong = document.createElement("strong");
    strong.textContent = (v.turn === s && v.phase !== "over" ? "▶ " : "") + nameOf(s);
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
  const f = flashed();
  for (const m of v.melds) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "meld" + (ui.target === m.number ? " target" : "") + (f.melds.has(m.number) ? " flash" : "");
    b.dataset.meld = m.number;
    b.dataset.drop = "meld";
    b.setAttribute("aria-pressed", ui.target === m.number ? "true" : "false");
    b.setAttribute("aria-label", `${meldLabel(m)}: ${m.cards.map(cardText).join(" ")}`);
    b.innerHTML = `<span class="meld-label">${escapeHtml(meldLabel(m))}</span>`;
    m.cards.forEach((c) => b.appendChild(cardElement(c, { small: true })));
    if (f.cards[m.number]) markCards(b, f.cards[m.number]);
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
  // No discard pile where the variant has none (voleur): nothing to show or to take.
  show(disc, v.rules.discard);
  show($("discard-history"), v.rules.discard);
  disc.innerHTML = "";
  disc.dataset.drop = "discard";
  disc.classList.toggle("flash", f.discard);
  if (v.discard_top) disc.appendChild(cardElement(v.discard_top));
  disc.insertAdjacentHTML("beforeend", `<span class="count">${t("discard")}${v.discard_top ? "" : t("colon") + " " + t("empty")}</span>`);
  disc.setAttribute("aria-label", `${t("discard")}${t("colon")} ${v.discard_top ? cardText(v.discard_top) : t("empty")}`);
  disc.disabled = !(may("draw_discard") || (may("discard") && ui.selected.length === 1));
  // The discard pile's history, on demand: every card, the newest first.
  $("h-discard-history").textContent = `${w("discard_history")} (${v.discard.length})`;
  const list = $("discard-list");
  list.replaceChildren(...[...v.discard].reverse().map((c) => cardElement(c, { small: true })));
  if (!v.discard.length) list.textContent = w("history_empty");
}

// The cards a drag carries: the dragged card with the rest of the selection
// when it is part of it, else the card alone.
function handDrag(el, c) {
  return () => {
    if (ui.rearranging) {
      const picks = ui.picked.some((p) => p.from === "hand" && p.code === c) ? ui.picked : [{ from: "hand", code: c }];
      return { data: { from: "work-picks", picks } };
    }
    const cards = ui.selected.includes(c) ? [...ui.selected] : [c];
    return { data: { from: "hand", cards }, els: [el] };
  };
}

function renderHand() {
  const v = ui.view;
  show($("hand-panel"), v.seat !== null);
  if (v.seat === null) return;
  const box = $("hand");
  box.innerHTML = "";
  box.dataset.drop = "hand";
  box.setAttribute("aria-label", t("your_hand"));
  const used = [...ui.selected];
  for (const c of handShown()) {
    const i = used.indexOf(c);
    const pressed = i >= 0;
    if (pressed) used.splice(i, 1);
    const el = cardElement(c, { button: true, pressed });
    if (ui.rearranging && ui.picked.some((p) => p.from === "hand" && p.code === c)) el.classList.add("picked");
    draggable(el, handDrag(el, c));
    el.onclick = () => {
      if (ui.rearranging) {
        togglePick({ from: "hand", code: c });
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
  layoutHand();
  // Melds being prepared: each a drop zone; a card clicked goes back to the hand.
  const mine = v.turn === v.seat && v.phase === "lay" && !ui.rearranging;
  show($("staged-box"), ui.staged.length > 0 || (mine && may("meld")));
  $("h-staged").textContent = t("staged");
  const st = $("staged");
  st.innerHTML = "";
  const check = ui.stagedCheck && ui.stagedCheck.key === JSON.stringify(ui.staged) ? ui.stagedCheck : null;
  ui.staged.forEach((m, mi) => {
    const d = document.createElement("div");
    const read = check && check.out.melds ? check.out.melds[mi] : null;
    d.className = "meld" + (read && !read.ok ? " invalid" : "");
    d.dataset.drop = "staged";
    d.dataset.index = mi;
    if (read && !read.ok) d.title = read.text;
    m.forEach((c, ci) => {
      const el = cardElement(c, { button: true, small: true });
      el.setAttribute("aria-label", `${el.getAttribute("aria-label")} · ${w("remove_meld")}`);
      draggable(el, () => ({ data: { from: "staged", m: mi, i: ci } }));
      el.onclick = () => {
        ui.staged[mi].splice(ci, 1);
        tidyStaged();
        render();
      };
      d.appendChild(el);
    });
    st.appendChild(d);
  });
  const fresh = document.createElement("div");
  fresh.className = "meld new-zone";
  fresh.dataset.drop = "staged-new";
  fresh.textContent = `+ ${t("new_meld")}`;
  st.appendChild(fresh);
  $("staged-why").textContent = check && !check.out.ok ? check.out.error.text : "";
}

// On a phone every card of the hand is in sight, without sideways scrolling:
// the cards overlap, each showing a strip at least MIN_STRIP px wide (its
// rank and suit in the corner), on as many rows as that takes.
const PHONE = window.matchMedia("(max-width: 700px), (max-height: 500px)");
const MIN_STRIP = 24;

function layoutHand() {
  const box = $("hand");
  const cards = [...box.querySelectorAll(".card")];
  box.classList.remove("fan", "overlap");
  box.style.gridTemplateColumns = "";
  if (!PHONE.matches || !cards.length || box.clientWidth === 0) return;
  const cs = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const cw = cards[0].offsetWidth;
  const gap = 4;
  let rows = 1;
  let perRow = cards.length;
  let step = cw + gap;
  for (; rows <= 6; rows++) {
    perRow = Math.ceil(cards.length / rows);
    step = perRow > 1 ? Math.min(cw + gap, (room - cw) / (perRow - 1)) : cw;
    if (step >= MIN_STRIP) break;
  }
  step = Math.floor(step * 10) / 10;
  box.classList.add("fan");
  box.classList.toggle("overlap", step < cw);
  box.style.gridTemplateColumns = perRow > 1 ? `repeat(${perRow - 1}, ${step}px) ${cw}px` : `${cw}px`;
  box.dataset.rows = String(Math.ceil(cards.length / perRow));
}
PHONE.addEventListener("change", () => render());
window.addEventListener("resize", () => {
  if (ui.view && ui.view.seat !== null) layoutHand();
});

// The hand's card a dragged card goes before: in the row under the pointer,
// the first card whose visible strip's middle is right of it (null: the end).
function cardAt(x, y, moving) {
  const els = [...$("hand").querySelectorAll(".card")].filter((el) => !moving.includes(el.dataset.card));
  // Rows by their place in the layout (a chosen card is raised, not moved to another row).
  const rows = new Map();
  for (const el of els) {
    const top = el.offsetTop;
    if (!rows.has(top)) rows.set(top, []);
    rows.get(top).push({ el, r: el.getBoundingClientRect() });
  }
  const tops = [...rows.keys()].sort((a, b) => a - b);
  if (!tops.length) return null;
  const centre = (top) => {
    const r = rows.get(top)[0].r;
    return r.top + r.height / 2;
  };
  const at = y === undefined ? tops[0] : tops.reduce((a, b) => (Math.abs(y - centre(b)) < Math.abs(y - centre(a)) ? b : a));
  const row = rows.get(at);
  for (let i = 0; i < row.length; i++) {
    const next = row[i + 1];
    const strip = next ? Math.min(row[i].r.width, next.r.left - row[i].r.left) : row[i].r.width;
    if (x < row[i].r.left + strip / 2) return row[i].el;
  }
  // Right of the row's last card: before the next row's first, or at the end.
  const later = tops.find((t) => t > at);
  return later === undefined ? null : rows.get(later)[0].el;
}

function tidyStaged() {
  ui.staged = ui.staged.filter((m) => m.length);
  checkStaged();
}

// The melds being prepared, judged by the server (the engine on a copy):
// an invalid meld is marked and "lay" disabled with the reason.
let stagedTimer = null;
function checkStaged() {
  clearTimeout(stagedTimer);
  // Checked whenever melds are prepared, offered or not: the server's answer
  // is the engine's, and says why "lay" stays off (an opening short of its
  // points, a card that is no meld).
  if (!ui.staged.length) {
    ui.stagedCheck = null;
    return;
  }
  const key = JSON.stringify(ui.staged);
  stagedTimer = setTimeout(async () => {
    const out = await check({ meld: ui.staged });
    if (out && key === JSON.stringify(ui.staged)) {
      ui.stagedCheck = { key, out };
      // A valid meld takes the order the server reads it in (a run in order).
      out.melds?.forEach((r, i) => {
        if (r.ok && ui.staged[i] && r.cards.length === ui.staged[i].length) ui.staged[i] = [...r.cards];
      });
      ui.stagedCheck.key = JSON.stringify(ui.staged);
      render();
    }
  }, 120);
}

async function check(action) {
  try {
    const r = await fetch(`${base}/check${q}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(action),
    });
    return r.ok ? await r.json() : null;
  } catch (e) {
    return null;
  }
}

function togglePick(p) {
  const same = (x) => x.from === p.from && (p.from === "hand" ? x.code === p.code : x.m === p.m && x.i === p.i);
  if (ui.picked.some(same)) ui.picked = ui.picked.filter((x) => !same(x));
  else ui.picked.push(p);
}

function workTable() {
  return ui.work.filter((m) => m.cards.length).map((m) => m.cards.map((c) => c.code));
}

function renderWork() {
  show($("rearrange-box"), ui.rearranging);
  show($("rearrange-actions"), ui.rearranging);
  if (!ui.rearranging) return;
  $("h-rearrange").textContent = t("rearrange");
  const box = $("work");
  box.innerHTML = "";
  const check = ui.workCheck && ui.workCheck.key === JSON.stringify(workTable()) ? ui.workCheck : null;
  ui.work.forEach((m, mi) => {
    const d = document.createElement("div");
    const read = check && check.out.melds ? check.out.melds[mi] : null;
    d.className = "meld" + (read && !read.ok ? " invalid" : "") + (m.touched ? " touched" : "");
    d.dataset.drop = "work";
    d.dataset.index = mi;
    const owner = m.owner === null || m.owner === undefined || m.touched ? "" : ` · ${t("by")} ${nameOf(m.owner)}`;
    d.innerHTML = `<span class="meld-label">${escapeHtml(`${t("meld")} ${mi + 1}${owner}`)}${read && !read.ok ? ` · ${escapeHtml(w("invalid"))}` : ""}</span>`;
    if (read && !read.ok) d.title = read.text;
    m.cards.forEach((c, ci) => {
      const el = cardElement(c.code, { button: true, small: true });
      if (c.hand) el.classList.add("from-hand");
      if (ui.picked.some((p) => p.from === "work" && p.m === mi && p.i === ci)) el.classList.add("picked");
      draggable(el, () => {
        const mine = ui.picked.some((p) => p.from === "work" && p.m === mi && p.i === ci);
        return { data: { from: "work-picks", picks: mine ? ui.picked : [{ from: "work", m: mi, i: ci }] } };
      });
      el.onclick = () => {
        togglePick({ from: "work", m: mi, i: ci });
        render();
      };
      d.appendChild(el);
    });
    const here = document.createElement("button");
    here.type = "button";
    here.textContent = t("move_here");
    here.className = "move-here";
    here.disabled = !ui.picked.length;
    here.onclick = () => movePicked(ui.picked, mi);
    d.appendChild(here);
    // A tap on the meld itself (not on one of its cards) moves the chosen
    // cards there: on a phone the hand stays in sight below, no scrolling.
    d.onclick = (e) => {
      if (!e.target.closest(".card, button") && ui.picked.length) movePicked(ui.picked, mi);
    };
    box.appendChild(d);
  });
  const fresh = document.createElement("div");
  fresh.className = "meld new-zone";
  fresh.dataset.drop = "work-new";
  fresh.textContent = `+ ${t("new_meld")}`;
  box.appendChild(fresh);
  $("new-meld").textContent = t("new_meld");
  $("new-meld").disabled = !ui.picked.length;
  $("rearrange-send").textContent = t("rearrange_send");
  $("rearrange-reset").textContent = w("undo_rearrange");
  $("rearrange-cancel").textContent = t("rearrange_cancel");
  const why = !check ? w("checking") : check.out.ok ? "" : check.out.error.text;
  $("rearrange-send").disabled = !check || !check.out.ok;
  $("rearrange-send").title = why;
  $("rearrange-why").textContent = why;
}

// Move the picked cards (hand or table) to meld `to` (ui.work.length: a new
// meld); emptied melds go, and the server puts each meld in its order.
function movePicked(picks, to) {
  if (!picks.length) return;
  const moving = [];
  const fromWork = picks.filter((p) => p.from === "work").sort((a, b) => b.m - a.m || b.i - a.i);
  for (const p of fromWork) {
    const card = ui.work[p.m].cards.splice(p.i, 1)[0];
    ui.work[p.m].touched = true;
    moving.unshift(card);
  }
  for (const p of picks.filter((x) => x.from === "hand")) moving.push({ code: p.code, hand: true });
  if (to >= ui.work.length) {
    ui.work.push({ cards: [], owner: ui.view.seat, touched: true });
    to = ui.work.length - 1;
  }
  const target = ui.work[to];
  target.cards.push(...moving);
  target.touched = true;
  // Emptied melds are removed (the target's index shifts with them).
  ui.work = ui.work.filter((m) => m.cards.length || m === target);
  ui.picked = [];
  checkWork();
  render();
}

let workTimer = null;
function checkWork() {
  clearTimeout(workTimer);
  const table = workTable();
  const key = JSON.stringify(table);
  workTimer = setTimeout(async () => {
    const out = await check({ rearrange: table });
    if (!out || !ui.rearranging || key !== JSON.stringify(workTable())) return;
    // Each valid meld in the order the server reads it (a run in order, a joker in its place).
    const melds = ui.work.filter((m) => m.cards.length);
    out.melds?.forEach((r, i) => {
      if (!r.ok) return;
      const pool = [...melds[i].cards];
      const ordered = r.cards.map((code) => pool.splice(pool.findIndex((c) => c.code === code), 1)[0]);
      if (ordered.every(Boolean)) melds[i].cards = ordered;
    });
    ui.workCheck = { key: JSON.stringify(workTable()), out };
    render();
  }, 120);
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
    "b-lay": [mine && ui.staged.length > 0, stagedOk(), t("lay")],
    "b-clear": [mine && ui.staged.length > 0, true, t("clear_staged")],
    "b-layoff": [may("layoff") && !ui.rearranging, sel > 0 && target !== null, `${t("layoff")} ${target ? target.number + 1 : "…"}`],
    "b-swap": [may("swap") && !ui.rearranging && target !== null && target.cards.includes("JK"), sel > 0, `${t("swap")} ${target ? target.number + 1 : ""}`],
    "b-rearrange": [may("rearrange") && !ui.rearranging, true, t("rearrange")],
    "b-discard": [may("discard") && !ui.rearranging, sel === 1, t("discard_btn")],
    "b-end": [may("end_turn") && !ui.rearranging, true, t("end_turn")],
    "b-undo": [may("undo"), true, t("undo")],
    "b-hint": [mine || may("draw_stock"), true, w("hint")],
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

// "Lay" waits for the server's reading of the melds being prepared, and stays
// off with the reason while one is invalid.
function stagedOk() {
  const c = ui.stagedCheck;
  const ok = Boolean(c && c.key === JSON.stringify(ui.staged) && c.out.ok);
  $("b-lay").title = ok ? "" : c && c.out.error ? c.out.error.text : w("checking");
  return ok;
}

function renderStatus() {
  const v = ui.view;
  $("variant").textContent = ui.title || v.variant;
  $("round").textContent = `${t("round")} ${v.round_no}`;
  let text;
  if (v.phase === "over") {
    text = v.game_over ? t("game_over") : t("round_over");
    const w = v.game_over ? v.game_winner : v.winner;
    if (v.game_over && v.teams) text += ` ${w === null ? t("no_winner") : t("winner", t("team", w + 1))}`;
    else text += ` ${w === null ? t("no_winner") : t("winner", nameOf(w))}`;
  } else if (v.seat === null) {
    text = `${t("spectator")}. ${t("turn_of", nameOf(v.turn))}.`;
  } else if (v.turn === v.seat) {
    text = v.phase === "draw" ? t(v.rules.discard_pile ? "your_turn_draw" : "your_turn_draw_stock") : v.rules.discard ? t("your_turn_lay") : t("your_turn_lay_end");
  } else {
    text = t("waiting", nameOf(v.turn));
  }
  if (v.seat !== null && v.turn === v.seat && v.phase !== "over") {
    const owes = owesText(v.owes, cardText);
    if (owes) text += ` ${owes}`;
  }
  $("status").textContent = text;
  yourTurn(v.seat !== null && v.turn === v.seat && v.phase !== "over", $("opt-sound"));
  $("hint").textContent = t("select_hint");
  $("h-hand").textContent = t("your_hand");
  $("h-players").textContent = t("players");
  $("h-table").textContent = t("table");
  $("h-sheet").textContent = t("score_sheet");
  $("h-log").textContent = t("log");
  $("sort").textContent = ui.sortBy === "suit" ? t("sort_rank") : t("sort_suit");
  document.documentElement.lang = lang();
}

// The hand's panel folds to its header and actions (a phone's screen is small).
function renderHandToggle() {
  const b = $("hand-toggle");
  b.textContent = ui.collapsed ? `▴ ${w("show_hand")}` : `▾ ${w("hide_hand")}`;
  b.setAttribute("aria-expanded", ui.collapsed ? "false" : "true");
  show($("hand-body"), !ui.collapsed);
}

function renderSheet() {
  const v = ui.view;
  const cols = v.scores.length;
  const heads = cols === v.players ? v.names.map((n, i) => nameOf(i)) : v.scores.map((_, i) => t("team", i + 1));
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
      if (l.talk) li.className = "talk-line";
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

let redraw = false;
function render() {
  if (!ui.view) return;
  if (isPressed()) {
    redraw = true; // drawn when the card is let go (dnd.js)
    return;
  }
  redraw = false;
  saveStaged();
  renderStatus();
  renderPlayers();
  renderMelds();
  renderWork();
  renderHand();
  renderActions();
  renderHandToggle();
  renderSheet();
  renderRoundEnd($("round-end"), ui.view, nameOf, () => send({ next_round: true }), playAgain);
  renderInvite();
  renderTalk();
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
  checkStaged();
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
function startRearranging() {
  ui.rearranging = true;
  ui.work = ui.view.melds.map((m) => ({ cards: m.cards.map((c) => ({ code: c, hand: false })), owner: m.owner, touched: false }));
  ui.picked = [];
  ui.selected = [];
  ui.staged = [];
  ui.workCheck = null;
  checkWork();
  render();
}
$("b-rearrange").onclick = startRearranging;
$("rearrange-reset").onclick = startRearranging; // undo this rearrangement: the table as it is
$("new-meld").onclick = () => movePicked(ui.picked, ui.work.length);
$("rearrange-cancel").onclick = () => {
  ui.rearranging = false;
  ui.work = [];
  ui.picked = [];
  render();
};
$("rearrange-send").onclick = async () => {
  if (await send({ rearrange: workTable() })) {
    ui.rearranging = false;
    ui.work = [];
  }
  render();
};
$("sort").onclick = () => {
  ui.handOrder = null;
  ui.sortBy = ui.sortBy === "suit" ? "rank" : "suit";
  try {
    localStorage.setItem(SORT_KEY, ui.sortBy);
  } catch (e) {
    /* no storage: the choice lasts as long as the page */
  }
  render();
};
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") {
    ui.selected = [];
    ui.target = null;
    ui.picked = [];
    render();
  }
});

// ------------------------------------------------------------ drag and drop

// Where a card is dropped says what to do: the page asks the server as a
// click would (the same actions), and judges nothing itself.
onDrop(async (data, zone, x, y) => {
  const kind = zone.dataset.drop;
  const index = Number(zone.dataset.index);
  if (data.from === "work-picks") {
    if (kind === "work") movePicked(data.picks, index);
    else if (kind === "work-new") movePicked(data.picks, ui.work.length);
    else if (kind === "hand") {
      // Hand cards dragged back: no longer part of the new table.
      const back = data.picks.filter((p) => p.from === "work" && ui.work[p.m].cards[p.i].hand);
      back.sort((a, b) => b.m - a.m || b.i - a.i).forEach((p) => ui.work[p.m].cards.splice(p.i, 1));
      ui.work = ui.work.filter((m) => m.cards.length);
      ui.picked = [];
      checkWork();
      render();
    }
    return;
  }
  if (data.from === "staged") {
    const card = ui.staged[data.m][data.i];
    ui.staged[data.m].splice(data.i, 1);
    if (kind === "staged") ui.staged[index].push(card);
    else if (kind === "staged-new") ui.staged.push([card]);
    tidyStaged();
    render();
    return;
  }
  const cards = data.cards;
  if (kind === "hand") {
    // Reorder the hand: the dragged cards go before the card under the pointer.
    const shown = handShown();
    const over = cardAt(x, y, cards);
    const rest = minus(shown, cards);
    const at = over ? rest.indexOf(over.dataset.card) : rest.length;
    rest.splice(at < 0 ? rest.length : at, 0, ...cards);
    ui.handOrder = rest;
    render();
  } else if (kind === "staged" && may("meld")) {
    ui.staged[index].push(...cards);
    ui.selected = minus(ui.selected, cards);
    checkStaged();
    render();
  } else if (kind === "staged-new" && may("meld")) {
    ui.staged.push([...cards]);
    ui.selected = minus(ui.selected, cards);
    checkStaged();
    render();
  } else if (kind === "meld" && may("layoff")) {
    const to = Number(zone.dataset.meld);
    if (await send({ layoff: cards.map((c) => ({ card: c, to })) })) ui.selected = minus(ui.selected, cards);
    render();
  } else if (kind === "discard" && may("discard") && cards.length === 1) {
    if (await send({ discard: cards[0] })) ui.selected = [];
    render();
  }
});

whenFree(() => {
  if (redraw) render();
});

$("hand-toggle").onclick = () => {
  ui.collapsed = !ui.collapsed;
  render();
};

// On a phone the hand's panel is fixed at the bottom of the screen: the page
// keeps that much room below its content (and scrolls a focused element
// above it), so that nothing on the table is hidden under the panel.
new ResizeObserver(() => {
  const panel = $("hand-panel");
  const h = panel.hidden || getComputedStyle(panel).position !== "fixed" ? 0 : panel.offsetHeight;
  document.documentElement.style.setProperty("--panel-h", `${h}px`);
}).observe($("hand-panel"));

$("b-hint").onclick = async () => {
  $("hint-text").textContent = await fetchHint(base, q);
};

setupOptions($("opt-four"), $("opt-sound"));
loadRules(base, q, $("rules-box"), $("h-rules")).then((d) => {
  if (!d) return;
  ui.title = d.title;
  setTitle(d.title);
  render();
});

ui.staged = loadStaged();
setInterval(tick, 500);
fetch(`/api/tables/${tableId}/view${q}`)
  .then((r) => r.json().then((d) => ({ ok: r.ok, d })))
  .then(({ ok, d }) => {
    // Forced only when nothing was shown yet: a socket's view that came
    // first is newer (it saw this page's own seat connected), never replaced.
    if (ok) accept(d, ui.view === null);
    else setRefusal(refusalOf(d.error));
  });
connect();

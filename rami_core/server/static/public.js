// "Play now": a seat at the next public table of a preset or of a house file
// the operator offers, with the other people who clicked; bots take the seats
// left when the server's wait ends. The name is asked once and kept in this
// browser, and so are the seats taken, so that a person who left can come back
// to theirs (the clock plays it meanwhile).

import { lang, refusal } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "rami-name";
const TICKET_KEY = "rami-public-ticket";
const SEATS_KEY = "rami-public-seats";

export const WORDS = {
  en: {
    heading: "Play now",
    intro: "A seat at the next public table, with the other people who clicked; bots take the seats left after the wait. A turn has a clock: if you leave, it plays for you until you come back.",
    my_name: "Your name",
    offer: "Game",
    size: "Players",
    play: "Play now",
    need_name: "Choose a name first: the other players see it.",
    waiting: (names, n, size) => `Waiting for players: ${names} (${n} of ${size}).`,
    bots_in: (s) => `Bots take the seats left in ${s} s.`,
    leave: "Leave",
    seated: "Your table is ready…",
    my_seats: "Your public tables",
    back: (game, names) => `Back to your seat: ${game}, with ${names}`,
    refused: "Refused",
    colon: ":",
    per_turn: (s) => `${s} s a turn`,
  },
  fr: {
    heading: "Jouer maintenant",
    intro: "Une place à la prochaine table publique, avec les autres personnes qui ont cliqué ; des robots prennent les places libres après l'attente. Chaque tour a sa pendule : si vous partez, elle joue pour vous jusqu'à votre retour.",
    my_name: "Votre nom",
    offer: "Jeu",
    size: "Joueurs",
    play: "Jouer maintenant",
    need_name: "Choisissez d'abord un nom : les autres joueurs le voient.",
    waiting: (names, n, size) => `En attente de joueurs : ${names} (${n} sur ${size}).`,
    bots_in: (s) => `Des robots prennent les places libres dans ${s} s.`,
    leave: "Quitter l'attente",
    seated: "Votre table est prête…",
    my_seats: "Vos tables publiques",
    back: (game, names) => `Revenir à votre place : ${game}, avec ${names}`,
    refused: "Refusé",
    colon: " :",
    per_turn: (s) => `${s} s par tour`,
  },
};

function w(key, ...args) {
  const v = (WORDS[lang()] || WORDS.en)[key];
  return typeof v === "function" ? v(...args) : v;
}

function stored(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v === null ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    /* a browser without storage: the name is asked again next time */
  }
}

let offers = [];
let poll = null;
const bots = { left: null, at: 0 };

function texts() {
  $("h-play-now").textContent = w("heading");
  $("play-now-intro").textContent = w("intro");
  $("l-my-name").textContent = w("my_name");
  $("l-offer").textContent = w("offer");
  $("l-size").textContent = w("size");
  $("play-now-btn").textContent = w("play");
  $("wait-leave").textContent = w("leave");
  fillOffers();
  describe();
  renderSeats();
}

function describe() {
  const o = offers.find((x) => x.name === $("offer").value);
  const parts = [];
  const said = o && ((o.descriptions || {})[lang()] || o.description);
  if (said) parts.push(said);
  if (o && o.turn_seconds) parts.push(w("per_turn", o.turn_seconds));
  $("offer-description").textContent = parts.join(" · ");
}

function fillSizes() {
  const o = offers.find((x) => x.name === $("offer").value);
  const sel = $("size");
  sel.replaceChildren();
  if (!o) return;
  for (const n of o.players) {
    const opt = document.createElement("option");
    opt.value = String(n);
    opt.textContent = String(n);
    opt.selected = n === o.default;
    sel.append(opt);
  }
  describe();
}

// Each offer by its line in the page's language (its name is an identifier).
function fillOffers() {
  const sel = $("offer");
  const chosen = sel.value;
  sel.replaceChildren();
  for (const o of offers) {
    const opt = document.createElement("option");
    opt.value = o.name;
    opt.title = o.name;
    opt.textContent = (o.descriptions || {})[lang()] || o.description || o.name;
    sel.append(opt);
  }
  sel.value = chosen || (offers.some((o) => o.name === "rami51") ? "rami51" : offers[0]?.name);
}

async function loadOffers() {
  const r = await fetch("/api/public");
  if (!r.ok) return;
  const d = await r.json();
  offers = d.offers;
  fillOffers();
  fillSizes();
}

function showError(err) {
  $("play-now-error").textContent = err ? `${w("refused")}${w("colon")} ${err.text || refusal(err.code, err.message, err.messages)}` : "";
}

function seated(s) {
  const seats = stored(SEATS_KEY, []).filter((x) => x.table !== s.table);
  seats.unshift({ table: s.table, token: s.token, offer: s.offer, at: Date.now() });
  store(SEATS_KEY, seats.slice(0, 10));
  store(TICKET_KEY, null);
  $("wait-text").textContent = w("seated");
  location.href = `${s.url}&lang=${lang()}`;
}

function showWaiting(s) {
  $("play-now-wait").hidden = false;
  $("wait-text").textContent = w("waiting", s.names.join(", "), s.names.length, s.players);
  bots.left = s.bots_in;
  bots.at = performance.now();
  tick();
}

function tick() {
  if (bots.left === null) return;
  const left = Math.max(0, bots.left - (performance.now() - bots.at) / 1000);
  $("wait-bots").textContent = w("bots_in", Math.ceil(left));
  $("wait-bots").dataset.left = String(Math.ceil(left));
}

function stopWaiting() {
  if (poll !== null) clearTimeout(poll);
  poll = null;
  bots.left = null;
  $("play-now-wait").hidden = true;
  $("play-now-btn").disabled = false;
}

async function follow(ticket) {
  let r;
  try {
    r = await fetch(`/api/public/tickets/${encodeURIComponent(ticket)}?lang=${lang()}`);
  } catch (e) {
    poll = setTimeout(() => follow(ticket), 2000);
    return;
  }
  if (r.status === 404) {
    store(TICKET_KEY, null);
    stopWaiting();
    return;
  }
  const s = await r.json();
  if (s.state === "seated") return seated(s);
  showWaiting(s);
  $("play-now-btn").disabled = true;
  poll = setTimeout(() => follow(ticket), 1000);
}

async function playNow() {
  showError(null);
  const name = $("my-name").value.trim();
  if (!name) {
    $("play-now-error").textContent = w("need_name");
    $("my-name").focus();
    return;
  }
  store(NAME_KEY, name);
  $("play-now-btn").disabled = true;
  const body = { offer: $("offer").value, players: Number($("size").value), name, lang: lang() };
  const r = await fetch(`/api/public?lang=${lang()}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const d = await r.json();
  if (!r.ok) {
    showError(d.error);
    $("play-now-btn").disabled = false;
    return;
  }
  store(TICKET_KEY, d.ticket);
  if (d.state === "seated") return seated(d);
  showWaiting(d);
  poll = setTimeout(() => follow(d.ticket), 1000);
}

async function leave() {
  const ticket = stored(TICKET_KEY, null);
  stopWaiting();
  store(TICKET_KEY, null);
  if (ticket) {
    const r = await fetch(`/api/public/tickets/${encodeURIComponent(ticket)}`, { method: "DELETE" });
    if (r.status === 409) follow(ticket); // made meanwhile: the seat is ours
  }
}

// The seats this browser took at public tables still in play: a way back.
async function renderSeats() {
  const box = $("my-seats");
  const seats = stored(SEATS_KEY, []);
  const live = [];
  for (const s of seats) {
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(s.table)}`);
      if (!r.ok) continue;
      const tb = await r.json();
      if (!tb.game_over) live.push({ ...s, variant: tb.variant, names: (tb.seats || []).map((x) => x.name) });
    } catch (e) {
      live.push(s);
    }
  }
  store(SEATS_KEY, live.length ? live.map(({ variant, names, ...s }) => s) : null);
  box.replaceChildren();
  if (!live.length) return;
  const h = document.createElement("h3");
  h.textContent = w("my_seats");
  const ul = document.createElement("ul");
  for (const s of live) {
    const a = document.createElement("a");
    a.className = "back-to-seat";
    a.href = `/t/${encodeURIComponent(s.table)}?token=${encodeURIComponent(s.token)}&lang=${lang()}`;
    // The game by its line in the page's language (its name is an identifier), the table by its players.
    const o = offers.find((x) => x.name === s.offer || x.name === s.variant);
    const game = (o && ((o.descriptions || {})[lang()] || o.description)) || s.offer || s.variant;
    a.textContent = w("back", game, (s.names || []).join(", "));
    const li = document.createElement("li");
    li.append(a);
    ul.append(li);
  }
  box.append(h, ul);
}

$("my-name").value = stored(NAME_KEY, "");
$("my-name").addEventListener("change", () => store(NAME_KEY, $("my-name").value.trim() || null));
$("offer").addEventListener("change", fillSizes);
$("play-now-btn").addEventListener("click", playNow);
$("wait-leave").addEventListener("click", leave);
$("lang").addEventListener("change", texts);
setInterval(tick, 500);
texts();
loadOffers().then(() => {
  renderSeats(); // the games named in words, now that the offers are known
  const ticket = stored(TICKET_KEY, null);
  if (ticket) follow(ticket);
});

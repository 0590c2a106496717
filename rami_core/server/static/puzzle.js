// The casse-tête page: the voleur table editor on a puzzle's position.
// Pick a card (from the hand or a meld), then "here" on a meld or "New meld";
// "Submit the table" asks the server's referee. Words in English and French.

import { cardElement, text as cardText } from "./cards.js";
import { lang, refusal, setLang } from "./i18n.js";
import { loadList, mark, nextPuzzle, opened, progress } from "./progress.js";

export const WORDS = {
  en: {
    title: (id, d) => `Casse-tête ${id} — difficulty ${d}`,
    goal_all: "Lay every card of your hand in one turn: the whole table may be rebuilt.",
    goal_cards: (n) => `Lay ${n} cards of your hand in one turn: the whole table may be rebuilt.`,
    goal_points: (n) => `Lay ${n} points of your hand in one turn: the whole table may be rebuilt.`,
    table: "Table",
    hand: "Your hand",
    meld: "Meld",
    here: "here",
    new_meld: "New meld",
    send: "Submit the table",
    reset: "Start again",
    hint: "Hint",
    solution: "Solution",
    language: "Language",
    lobby: "Lobby",
    solved: (m) => `Solved! Every card is down (the fewest table cards moved: ${m}).`,
    accepted: "The table is valid, but the goal is not reached yet.",
    hint_line: (n, of, meld) => `Hint ${n} of ${of}: the solution holds the meld ${meld}`,
    solution_line: "The solution is on the table.",
    left_cards: "Cards left in hand",
    all: "All the puzzles",
    next: "Next puzzle",
    daily_one: "today's puzzle",
    state: { solved: "You solved this puzzle.", tried: "You tried this puzzle." },
  },
  fr: {
    title: (id, d) => `Casse-tête ${id} — difficulté ${d}`,
    goal_all: "Posez toutes les cartes de votre main en un tour : toute la table peut être refaite.",
    goal_cards: (n) => `Posez ${n} cartes de votre main en un tour : toute la table peut être refaite.`,
    goal_points: (n) => `Posez ${n} points de votre main en un tour : toute la table peut être refaite.`,
    table: "Table",
    hand: "Votre main",
    meld: "Combinaison",
    here: "ici",
    new_meld: "Nouvelle combinaison",
    send: "Valider la table",
    reset: "Recommencer",
    hint: "Indice",
    solution: "Solution",
    language: "Langue",
    lobby: "Accueil",
    solved: (m) => `Résolu ! Toutes les cartes sont posées (au moins ${m} cartes de la table déplacées).`,
    accepted: "La table est valide, mais le but n'est pas encore atteint.",
    hint_line: (n, of, meld) => `Indice ${n} sur ${of} : la solution contient la combinaison ${meld}`,
    solution_line: "La solution est sur la table.",
    left_cards: "Cartes restées en main",
    all: "Tous les casse-têtes",
    next: "Casse-tête suivant",
    daily_one: "le casse-tête du jour",
    state: { solved: "Vous avez résolu ce casse-tête.", tried: "Vous avez essayé ce casse-tête." },
  },
};

function w(key, ...args) {
  const v = WORDS[lang()][key];
  return typeof v === "function" ? v(...args) : v;
}

const $ = (id) => document.getElementById(id);
let list = { daily: null, puzzles: [] };
const ui = { puzzle: null, work: [], hand: [], picked: null, hints: 0, solved: false, revealed: false };

function reset() {
  const p = ui.puzzle;
  ui.work = p.table.map((m) => m.map((code) => ({ code, hand: false })));
  ui.hand = p.hand.map((code) => ({ code, hand: true }));
  ui.picked = null;
  ui.solved = false;
}

function take() {
  const p = ui.picked;
  ui.picked = null;
  if (p.from === "hand") return ui.hand.splice(p.i, 1)[0];
  const card = ui.work[p.m].splice(p.i, 1)[0];
  return card;
}

function moveTo(m) {
  if (!ui.picked) return;
  const card = take();
  if (m === ui.work.length) ui.work.push([]);
  ui.work[m].push(card);
  render();
}

function render() {
  const p = ui.puzzle;
  document.documentElement.lang = lang();
  $("p-lang").value = lang();
  $("p-l-lang").textContent = w("language");
  $("p-lobby").textContent = w("lobby");
  $("p-title").textContent = w("title", p.id, p.difficulty) + (list.daily === p.id ? ` · ${w("daily_one")}` : "");
  $("p-all").textContent = w("all");
  $("p-all").href = `/puzzles?lang=${lang()}`;
  $("p-next").textContent = w("next");
  $("p-next").disabled = !nextPuzzle(list.puzzles, p.id);
  const state = progress()[p.id];
  $("p-progress").textContent = state ? w("state")[state] : "";
  document.body.dataset.progress = state || "";
  const g = p.goal;
  $("p-goal").textContent = g.kind === "all" ? w("goal_all") : g.kind === "cards" ? w("goal_cards", g.count) : w("goal_points", g.points);
  $("p-h-table").textContent = w("table");
  $("p-h-hand").textContent = w("hand");
  for (const [id, key] of [["p-new-meld", "new_meld"], ["p-send", "send"], ["p-reset", "reset"], ["p-hint", "hint"], ["p-solution", "solution"]]) {
    $(id).textContent = w(key);
  }
  $("p-new-meld").disabled = !ui.picked;
  const box = $("p-work");
  box.innerHTML = "";
  ui.work.forEach((m, mi) => {
    if (!m.length) return;
    const d = document.createElement("div");
    d.className = "meld";
    d.dataset.meld = String(mi + 1);
    const label = document.createElement("span");
    label.className = "meld-label";
    label.textContent = `${w("meld")} ${mi + 1}`;
    d.appendChild(label);
    m.forEach((c, ci) => {
      const el = cardElement(c.code, { button: true, small: true });
      if (ui.picked && ui.picked.from === "work" && ui.picked.m === mi && ui.picked.i === ci) el.classList.add("picked");
      if (c.hand) el.classList.add("from-hand");
      el.onclick = () => {
        ui.picked = { from: "work", m: mi, i: ci };
        render();
      };
      d.appendChild(el);
    });
    const here = document.createElement("button");
    here.type = "button";
    here.className = "move-here";
    here.textContent = w("here");
    here.disabled = !ui.picked;
    here.onclick = () => moveTo(mi);
    d.appendChild(here);
    box.appendChild(d);
  });
  const hand = $("p-hand");
  hand.innerHTML = "";
  ui.hand.forEach((c, i) => {
    const el = cardElement(c.code, { button: true });
    if (ui.picked && ui.picked.from === "hand" && ui.picked.i === i) el.classList.add("picked");
    el.onclick = () => {
      ui.picked = { from: "hand", i };
      render();
    };
    hand.appendChild(el);
  });
}

function status(text) {
  $("p-status").textContent = text;
  $("p-error").textContent = "";
}

async function send() {
  const table = ui.work.filter((m) => m.length).map((m) => m.map((c) => c.code));
  const r = await fetch(`/api/puzzles/${encodeURIComponent(ui.puzzle.id)}/try?lang=${lang()}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ table }),
  });
  const d = await r.json();
  if (!r.ok) {
    $("p-error").textContent = refusal(d.error.code, d.error.message);
    return;
  }
  mark(ui.puzzle.id, d.solved && !ui.revealed ? "solved" : "tried"); // the solution shown: tried
  render();
  if (!d.accepted) {
    $("p-status").textContent = "";
    // The server's words in the page's language (cards and meld numbers as shown here).
    $("p-error").textContent = d.text || refusal(d.code, d.message, d.messages);
    return;
  }
  if (d.solved) {
    ui.solved = true;
    status(w("solved", ui.puzzle.min_moves));
    document.body.dataset.solved = "true";
  } else {
    status(`${w("accepted")} ${w("left_cards")}${lang() === "fr" ? " :" : ":"} ${d.left.map(cardText).join(" ")}`);
  }
}

async function hint() {
  ui.hints = Math.min(ui.hints + 1, ui.puzzle.melds_in_solution);
  const r = await fetch(`/api/puzzles/${encodeURIComponent(ui.puzzle.id)}/hint?n=${ui.hints}`);
  const d = await r.json();
  const li = document.createElement("li");
  li.textContent = w("hint_line", d.n, d.of, d.meld.map(cardText).join(" "));
  $("p-hints").appendChild(li);
}

async function solution() {
  const r = await fetch(`/api/puzzles/${encodeURIComponent(ui.puzzle.id)}/solution`);
  const d = await r.json();
  ui.work = d.table.map((m) => m.map((code) => ({ code, hand: false })));
  ui.hand = [];
  ui.picked = null;
  ui.revealed = true;
  mark(ui.puzzle.id, "tried");
  status(w("solution_line"));
  render();
}

$("p-new-meld").onclick = () => moveTo(ui.work.length);
$("p-send").onclick = send;
$("p-reset").onclick = () => {
  reset();
  status("");
  render();
};
$("p-hint").onclick = hint;
$("p-solution").onclick = solution;
$("p-lang").onchange = (e) => {
  setLang(e.target.value);
  const u = new URL(location.href);
  u.searchParams.delete("lang");
  history.replaceState(null, "", u);
  render();
};
$("p-next").onclick = () => {
  const next = nextPuzzle(list.puzzles, ui.puzzle.id);
  if (next) location.href = `/puzzle?id=${encodeURIComponent(next.id)}&lang=${lang()}`;
};

const id = new URLSearchParams(location.search).get("id");
fetch(id ? `/api/puzzles/${encodeURIComponent(id)}` : "/api/puzzles/daily")
  .then((r) => r.json().then((d) => ({ ok: r.ok, d })))
  .then(({ ok, d }) => {
    if (!ok) {
      $("p-error").textContent = d.error.message;
      return;
    }
    ui.puzzle = d;
    opened(d.id);
    reset();
    render();
    loadList().then((l) => {
      list = l;
      render();
    });
  });

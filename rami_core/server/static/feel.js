// What makes the page feel like a card table rather than a form: the rules
// panel and the title (the server's words from the profile), the hint (the
// terminal's), the "your turn" call (the tab's title and an optional
// sound), the four-colour deck, and the page's own words for these.
// The rules themselves are never written here: they come from the server.

import { lang } from "./i18n.js";

export const WORDS = {
  en: {
    rules: "Rules of this table",
    hint: "Hint",
    four_colour: "Four-colour deck",
    sound: "Sound on my turn",
    your_turn_title: "Your turn",
    owes_joker: (cards) => `The joker you took (${cards}) must go back on the table this turn.`,
    owes_taken: (card) => `The ${card} you took from the discard pile must be laid this turn.`,
    keep_for_discard: "Keep a card for the discard.",
    discard_history: "Discard pile",
    history_empty: "nothing discarded yet",
    undo_rearrange: "Undo this rearrangement",
    remove_meld: "Back to the hand",
    invalid: "invalid",
    drag_hint: "Drag cards (mouse or finger), or click them then a button.",
    checking: "checking…",
    fix_first: "Fix the marked melds first",
    to_play: "to play",
    hide_hand: "Hide",
    show_hand: "Show the hand",
  },
  fr: {
    rules: "Règles de cette table",
    hint: "Conseil",
    four_colour: "Jeu quatre couleurs",
    sound: "Son à mon tour",
    your_turn_title: "À vous",
    owes_joker: (cards) => `Le joker repris (${cards}) doit retourner sur la table ce tour-ci.`,
    owes_taken: (card) => `Le ${card} pris à la défausse doit être posé ce tour-ci.`,
    keep_for_discard: "Gardez une carte pour la défausse.",
    discard_history: "Défausse",
    history_empty: "rien de défaussé",
    undo_rearrange: "Annuler cette réorganisation",
    remove_meld: "Reprendre en main",
    invalid: "non valable",
    drag_hint: "Faites glisser les cartes (souris ou doigt), ou cliquez-les puis un bouton.",
    checking: "vérification…",
    fix_first: "Corrigez d'abord les combinaisons marquées",
    to_play: "à jouer",
    hide_hand: "Replier",
    show_hand: "Voir la main",
  },
};

export function w(key, ...args) {
  const table = WORDS[lang()];
  const v = key in table ? table[key] : WORDS.en[key];
  return typeof v === "function" ? v(...args) : v;
}

// ------------------------------------------------------------ settings kept in this browser

function setting(name, fallback) {
  try {
    const v = localStorage.getItem(`rami-${name}`);
    return v === null ? fallback : v === "1";
  } catch (e) {
    return fallback;
  }
}

function keep(name, on) {
  try {
    localStorage.setItem(`rami-${name}`, on ? "1" : "0");
  } catch (e) {
    /* not kept: this page only */
  }
}

export function setupOptions(fourBox, soundBox) {
  fourBox.checked = setting("four-colour", false);
  soundBox.checked = setting("sound", false);
  document.body.classList.toggle("four-colour", fourBox.checked);
  fourBox.onchange = () => {
    keep("four-colour", fourBox.checked);
    document.body.classList.toggle("four-colour", fourBox.checked);
  };
  soundBox.onchange = () => keep("sound", soundBox.checked);
  fourBox.parentElement.querySelector("span").textContent = w("four_colour");
  soundBox.parentElement.querySelector("span").textContent = w("sound");
}

// ------------------------------------------------------------ your turn

let title = document.title;
let wasMine = false;

export function setTitle(text) {
  title = text;
  document.title = wasMine ? `● ${w("your_turn_title")} · ${title}` : title;
}

function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.35);
  } catch (e) {
    /* no sound in this browser */
  }
}

// Called with every view: the title says "your turn" while it is; the sound
// (when chosen) rings once as the turn comes.
export function yourTurn(mine, soundBox) {
  if (mine && !wasMine && soundBox.checked) beep();
  wasMine = mine;
  setTitle(title);
  document.body.classList.toggle("my-turn", mine);
}

// ------------------------------------------------------------ rules panel and hint

export async function loadRules(base, q, box, heading) {
  try {
    const r = await fetch(`${base}/rules${q}`);
    if (!r.ok) return null;
    const d = await r.json();
    heading.textContent = w("rules");
    const dl = document.createElement("dl");
    dl.className = "rules";
    for (const item of d.rules) {
      const dt = document.createElement("dt");
      dt.textContent = item.title;
      const dd = document.createElement("dd");
      dd.textContent = item.text;
      dd.dataset.topic = item.topic;
      dl.append(dt, dd);
    }
    box.replaceChildren(dl);
    return d;
  } catch (e) {
    return null;
  }
}

export async function fetchHint(base, q) {
  try {
    const r = await fetch(`${base}/hint${q}`);
    const d = await r.json();
    return r.ok ? d.text : d.error.text || d.error.message;
  } catch (e) {
    return "";
  }
}

// The obligations of this turn, from the view's `owes` (the server's reading).
export function owesText(owes, cardText) {
  if (!owes) return "";
  const out = [];
  if (owes.jokers && owes.jokers.length) out.push(w("owes_joker", owes.jokers.map(cardText).join(" ")));
  if (owes.lay_taken) out.push(w("owes_taken", cardText(owes.lay_taken)));
  if (owes.keep_for_discard) out.push(w("keep_for_discard"));
  return out.join(" ");
}

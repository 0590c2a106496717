// Cards drawn in CSS: the rank and a suit symbol, each suit its own shape
// (♠ ♥ ♦ ♣) so that colour is never the only clue; a screen reader hears the
// card's name.

import { lang, t } from "./i18n.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const ORDER = "A 2 3 4 5 6 7 8 9 10 J Q K".split(" ");
const SUIT_ORDER = "SHDC";
const FR_COURT = { J: "V", Q: "D", K: "R" };

export function parse(code) {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function rankIndex(code) {
  const { rank } = parse(code);
  return rank === "JK" ? 99 : ORDER.indexOf(rank);
}

export function suitIndex(code) {
  const { suit } = parse(code);
  return suit === null ? 9 : SUIT_ORDER.indexOf(suit);
}

export function shownRank(rank) {
  return lang() === "fr" && FR_COURT[rank] ? FR_COURT[rank] : rank;
}

export function label(code) {
  const { rank, suit } = parse(code);
  if (rank === "JK") return t("joker");
  const r = t("ranks")[rank] || rank;
  return `${r} ${t("of")} ${t("suits")[suit]}`;
}

export function text(code) {
  const { rank, suit } = parse(code);
  return rank === "JK" ? "🃏" : `${shownRank(rank)}${SYMBOL[suit]}`;
}

// A card element: a <button> when it can be chosen, a <span> otherwise.
export function cardElement(code, { button = false, pressed = false, small = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  const { rank, suit } = parse(code);
  el.className = `card ${suit ? "suit-" + suit : "joker"}${small ? " small" : ""}`;
  el.dataset.card = code;
  if (button) {
    el.type = "button";
    el.setAttribute("aria-pressed", pressed ? "true" : "false");
  } else {
    el.setAttribute("role", "img");
  }
  el.setAttribute("aria-label", label(code));
  // Text nodes only: a card code comes from the server, and nothing it holds is ever read as HTML.
  const part = (cls, text) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  };
  if (rank === "JK") {
    el.append(part("rank jk", t("joker")), part("pip", "★"));
  } else {
    el.append(part("rank", shownRank(rank)), part("pip", SYMBOL[suit]));
  }
  return el;
}

export function cardBack(small = true) {
  const el = document.createElement("span");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}

export function sortCards(cards, by) {
  const c = [...cards];
  if (by === "rank") c.sort((a, b) => rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b));
  else c.sort((a, b) => suitIndex(a) - suitIndex(b) || rankIndex(a) - rankIndex(b));
  return c;
}

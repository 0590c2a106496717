// The round's end, kept on screen: how the round ended (a hand gone out, rami
// sec, the stock run out) in words, each seat's revealed hand and what it
// paid, and a "continue" button with the server's countdown. The server alone
// deals the next round: when every person has continued (bots never wait) or
// when its countdown (`next_round_in`) ends.

import { cardElement } from "./cards.js";
import { lang } from "./i18n.js";

export const WORDS = {
  en: {
    title: (n) => `Round ${n} is over`,
    out: (w) => `${w} goes out.`,
    out_you: "You go out.",
    rami_sec: "Rami sec: the whole hand laid at once, without having opened before.",
    empty_stock: "The stock ran out: everyone pays for the cards left in hand.",
    empty_stock_nobody_pays: "The stock ran out: nobody pays.",
    replay: "The stock ran out: the round is played again.",
    pays: (n) => (n === 0 ? "pays nothing" : `pays ${n} point${n === 1 ? "" : "s"}`),
    total: "total",
    next_in: (s) => `Next round in ${s} s.`,
    waiting_for: (names) => `Waiting for ${names}.`,
    you_continued: "You continued.",
    continue: "Continue",
    game_over: "The game is over.",
    hand: "hand",
    empty_hand: "no card left",
  },
  fr: {
    title: (n) => `Fin de la manche ${n}`,
    out: (w) => `${w} ferme.`,
    out_you: "Vous fermez.",
    rami_sec: "Rami sec : toute la main posée d'un coup, sans avoir ouvert avant.",
    empty_stock: "La pioche est épuisée : chacun paie les cartes qui lui restent.",
    empty_stock_nobody_pays: "La pioche est épuisée : personne ne paie.",
    replay: "La pioche est épuisée : la manche est rejouée.",
    pays: (n) => (n === 0 ? "ne paie rien" : `paie ${n} point${n > 1 ? "s" : ""}`),
    total: "total",
    next_in: (s) => `Manche suivante dans ${s} s.`,
    waiting_for: (names) => `On attend ${names}.`,
    you_continued: "Vous avez continué.",
    continue: "Continuer",
    game_over: "La partie est finie.",
    hand: "main",
    empty_hand: "plus aucune carte",
  },
};

function w(key, ...args) {
  const table = WORDS[lang()] || WORDS.en;
  const v = table[key];
  return typeof v === "function" ? v(...args) : v;
}

const clock = { left: null, at: 0 };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function howWords(v, nameOf) {
  const out = [];
  if (v.round_end === "out" && v.winner !== null && v.winner !== undefined) {
    out.push(v.winner === v.seat ? w("out_you") : w("out", nameOf(v.winner)));
    if (v.rami_sec) out.push(w("rami_sec"));
  } else if (v.round_end && WORDS.en[v.round_end]) {
    out.push(w(v.round_end));
  }
  return out.join(" ");
}

/** Draw the round's end into `box` (hidden during a round); `onContinue` sends the click. */
export function renderRoundEnd(box, v, nameOf, onContinue) {
  const over = v.phase === "over";
  box.hidden = !over;
  if (!over) {
    clock.left = null;
    return;
  }
  clock.left = v.next_round_in;
  clock.at = performance.now();
  const list = el("ul", { class: "round-end-seats" });
  for (let s = 0; s < v.players; s++) {
    const paid = v.penalties[s] ?? 0;
    const total = v.scores.length === v.players ? ` · ${w("total")} ${v.scores[s]}` : "";
    const hand = el("span", { class: "round-end-hand", "aria-label": w("hand") });
    const cards = v.revealed_hands ? v.revealed_hands[s] : [];
    if (cards.length) cards.forEach((c) => hand.append(cardElement(c, { small: true })));
    else hand.append(el("span", { class: "muted", text: w("empty_hand") }));
    list.append(
      el(
        "li",
        { "data-seat": String(s), class: v.winner === s ? "winner" : "" },
        el("strong", { text: nameOf(s) }),
        el("span", { class: "paid", "data-paid": String(paid), text: ` ${w("pays", paid)}${total}` }),
        hand,
      ),
    );
  }
  const waiting = [];
  (v.ready || []).forEach((r, s) => {
    if (!r && v.kinds[s] === "human") waiting.push(nameOf(s));
  });
  const children = [
    el("h2", { id: "round-end-title", text: w("title", v.round_no) }),
    el("p", { id: "round-end-how", text: howWords(v, nameOf) }),
    list,
  ];
  if (v.game_over) {
    children.push(el("p", { class: "status", text: w("game_over") }));
  } else {
    const row = el("div", { class: "row" });
    if (v.may.includes("next_round")) {
      const b = el("button", { type: "button", id: "b-continue", text: w("continue") });
      b.onclick = onContinue;
      row.append(b);
    } else if (v.seat !== null && (v.ready || [])[v.seat]) {
      row.append(el("span", { id: "round-end-done", text: w("you_continued") }));
    }
    row.append(el("span", { id: "round-end-countdown", class: "clock", "aria-live": "off" }));
    if (waiting.length) row.append(el("span", { id: "round-end-waiting", class: "muted", text: w("waiting_for", waiting.join(", ")) }));
    children.push(row);
  }
  const focused = document.activeElement && document.activeElement.id === "b-continue";
  box.replaceChildren(...children);
  tickRoundEnd();
  if (focused) document.getElementById("b-continue")?.focus();
}

/** The countdown to the server's deal, from the last view's `next_round_in`. */
export function tickRoundEnd() {
  const node = document.getElementById("round-end-countdown");
  if (!node) return;
  if (clock.left === null || clock.left === undefined) {
    node.textContent = "";
    return;
  }
  const left = Math.max(0, clock.left - (performance.now() - clock.at) / 1000);
  node.textContent = w("next_in", Math.ceil(left));
  node.dataset.left = String(Math.ceil(left));
}

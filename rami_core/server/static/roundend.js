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
    sec_double: (h) => `the rami sec doubles the hand's ${h} points`,
    sec_bonus: (h, b) => `the hand's ${h} points, plus ${b} for the rami sec`,
    sec_doubles_all: "The rami sec doubles every payment.",
    sec_bonus_all: (b) => `The rami sec adds ${b} to every payment.`,
    jokers_left: (n, p) => `${n} joker${n === 1 ? "" : "s"} left in hand: ${p} point${p === 1 ? "" : "s"}`,
    teams: "Teams",
    team_total: (names, n) => `${names}: ${n}`,
    and: " and ",
    sep: "; ",
    play_again: "Play again",
    play_again_ready: "Play again: the new table is ready",
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
    sec_double: (h) => `le rami sec double les ${h} points de la main`,
    sec_bonus: (h, b) => `les ${h} points de la main, plus ${b} pour le rami sec`,
    sec_doubles_all: "Le rami sec double chaque paiement.",
    sec_bonus_all: (b) => `Le rami sec ajoute ${b} à chaque paiement.`,
    jokers_left: (n, p) => `${n} joker${n > 1 ? "s" : ""} resté${n > 1 ? "s" : ""} en main : ${p} point${p > 1 ? "s" : ""}`,
    teams: "Équipes",
    team_total: (names, n) => `${names} : ${n}`,
    and: " et ",
    sep: " ; ",
    play_again: "Rejouer",
    play_again_ready: "Rejouer : la nouvelle table est prête",
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

// Whether the rami sec changed the payments (the profile's `scoring.rami_sec`:
// double or bonus), from the view's `round_detail`.
function secRule(v) {
  const d = v.round_detail;
  if (!d || !v.rami_sec || v.round_end !== "out" || !v.penalties.some((p) => p > 0)) return null;
  return d.rami_sec_rule === "double" || d.rami_sec_rule === "bonus" ? d.rami_sec_rule : null;
}

// Why a seat paid what it paid: the hand's worth a rami sec doubled or
// raised, and the jokers left in hand with their cost.
function whyPaid(v, s, paid) {
  const d = v.round_detail;
  if (!d) return [];
  const out = [];
  const rule = secRule(v);
  const hand = (d.hand_values || [])[s];
  if (rule && paid > 0 && hand !== undefined && s !== v.winner) {
    out.push(rule === "double" ? w("sec_double", hand) : w("sec_bonus", hand, d.rami_sec_bonus));
  }
  const jokers = (d.jokers_left || [])[s] || 0;
  if (jokers && d.joker_cost !== null && d.joker_cost !== undefined) out.push(w("jokers_left", jokers, jokers * d.joker_cost));
  return out;
}

function howWords(v, nameOf) {
  const out = [];
  if (v.round_end === "out" && v.winner !== null && v.winner !== undefined) {
    out.push(v.winner === v.seat ? w("out_you") : w("out", nameOf(v.winner)));
    if (v.rami_sec) out.push(w("rami_sec"));
    const rule = secRule(v);
    if (rule === "double") out.push(w("sec_doubles_all"));
    else if (rule === "bonus") out.push(w("sec_bonus_all", v.round_detail.rami_sec_bonus));
  } else if (v.round_end && WORDS.en[v.round_end]) {
    out.push(w(v.round_end));
  }
  return out.join(" ");
}

/** Draw the round's end into `box` (hidden during a round); `onContinue` sends
 * the click, `onAgain` the "play again" once the game is over. */
export function renderRoundEnd(box, v, nameOf, onContinue, onAgain) {
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
    const why = whyPaid(v, s, paid);
    list.append(
      el(
        "li",
        { "data-seat": String(s), class: v.winner === s ? "winner" : "" },
        el("strong", { text: nameOf(s) }),
        el("span", { class: "paid", "data-paid": String(paid), text: ` ${w("pays", paid)}${total}` }),
        ...(why.length ? [el("span", { class: "why-paid muted", text: ` (${why.join(w("sep"))})` })] : []),
        hand,
      ),
    );
  }
  const sides = v.round_detail && v.round_detail.sides;
  const waiting = [];
  (v.ready || []).forEach((r, s) => {
    if (!r && v.kinds[s] === "human") waiting.push(nameOf(s));
  });
  const children = [
    el("h2", { id: "round-end-title", text: w("title", v.round_no) }),
    el("p", { id: "round-end-how", text: howWords(v, nameOf) }),
    list,
  ];
  if (sides && sides.length === v.scores.length) {
    const teams = el("ul", { class: "round-end-teams", "aria-label": w("teams") });
    sides.forEach((side, i) =>
      teams.append(el("li", { "data-team": String(i), "data-total": String(v.scores[i]), text: w("team_total", side.map(nameOf).join(w("and")), v.scores[i]) })),
    );
    children.push(el("p", { class: "muted", text: w("teams") }), teams);
  }
  if (v.game_over) {
    children.push(el("p", { class: "status", text: w("game_over") }));
    if (v.seat !== null && onAgain) {
      const b = el("button", { type: "button", id: "b-again", text: v.rematch ? w("play_again_ready") : w("play_again") });
      b.onclick = onAgain;
      children.push(el("div", { class: "row" }, b));
    }
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

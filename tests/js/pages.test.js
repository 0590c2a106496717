// Unit tests of the table server's page modules that need no browser, run by
// node's own test runner in CI (`node --test tests/js/`): card text, the
// hand's sort, and the two catalogues holding the same keys.
import { test } from "node:test";
import assert from "node:assert/strict";

import { parse, rankIndex, sortCards, suitIndex } from "../../rami_core/server/static/cards.js";
import { STRINGS } from "../../rami_core/server/static/i18n.js";

test("a card code is read as rank and suit", () => {
  assert.deepEqual(parse("10H"), { rank: "10", suit: "H" });
  assert.deepEqual(parse("QS"), { rank: "Q", suit: "S" });
  assert.deepEqual(parse("JK"), { rank: "JK", suit: null });
});

test("jokers sort last by rank and by suit", () => {
  assert.equal(rankIndex("JK"), 99);
  assert.equal(suitIndex("JK"), 9);
});

test("the hand sorts by suit then rank, or by rank then suit", () => {
  const hand = ["KD", "JK", "2S", "10H", "2D", "AS"];
  assert.deepEqual(sortCards(hand, "suit"), ["AS", "2S", "10H", "2D", "KD", "JK"]);
  assert.deepEqual(sortCards(hand, "rank"), ["AS", "2S", "2D", "10H", "KD", "JK"]);
  assert.deepEqual(hand, ["KD", "JK", "2S", "10H", "2D", "AS"], "the hand itself is left as it was");
});

test("the English and French catalogues hold the same keys", () => {
  const en = Object.keys(STRINGS.en).sort();
  const fr = Object.keys(STRINGS.fr).sort();
  assert.deepEqual(
    en.filter((k) => !fr.includes(k)),
    [],
    "keys with no French words",
  );
  assert.deepEqual(
    fr.filter((k) => !en.includes(k)),
    [],
    "keys with no English words",
  );
});

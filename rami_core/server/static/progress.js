// The player's progress through the bundled puzzles, kept by this browser:
// each puzzle tried or solved, and the last one opened (the next puzzle
// follows it). No words here: the pages say it.

const KEY = "rami-puzzles";
const LAST_KEY = "rami-puzzles-last";

export function progress() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch (e) {
    return {};
  }
}

// "tried" never overwrites "solved".
export function mark(id, state) {
  const p = progress();
  if (p[id] === "solved" && state !== "solved") return;
  p[id] = state;
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch (e) {
    /* no storage: the progress lasts as long as the page */
  }
}

export function lastOpened() {
  try {
    return localStorage.getItem(LAST_KEY);
  } catch (e) {
    return null;
  }
}

export function opened(id) {
  try {
    localStorage.setItem(LAST_KEY, id);
  } catch (e) {
    /* as above */
  }
}

// The next puzzle to play: after `from` (else the last opened), the next one
// not solved of the same grade, then of the grades above, then any not solved.
export function nextPuzzle(list, from = lastOpened()) {
  const done = progress();
  const open = list.filter((p) => done[p.id] !== "solved" && p.id !== from);
  if (!open.length) return null;
  const cur = list.find((p) => p.id === from);
  if (!cur) return open.sort((a, b) => a.difficulty - b.difficulty)[0];
  const at = list.indexOf(cur);
  const same = open.filter((p) => p.difficulty === cur.difficulty);
  const after = same.find((p) => list.indexOf(p) > at) || same[0];
  if (after) return after;
  const above = open.filter((p) => p.difficulty > cur.difficulty).sort((a, b) => a.difficulty - b.difficulty);
  return above[0] || open[0];
}

export async function loadList() {
  const r = await fetch("/api/puzzles");
  return r.ok ? r.json() : { daily: null, puzzles: [] };
}

// The bundled puzzles by grade, each marked as this browser's player left it
// (solved, tried), the day's puzzle highlighted, and a button to the next
// puzzle to play. A puzzle opens on the puzzle page by its id.

import { lang, setLang } from "./i18n.js";
import { loadList, nextPuzzle, progress } from "./progress.js";

export const WORDS = {
  en: {
    title: "Casse-têtes",
    intro: "Every puzzle of the collection, by difficulty (1 the easiest, 10 the hardest). This browser keeps the ones you tried and solved.",
    daily: (id) => `Today's puzzle: ${id}`,
    next: "Next puzzle",
    count: (solved, tried, all) => `${solved} solved, ${tried} tried, of ${all}`,
    grade: (d, solved, n) => `Difficulty ${d} — ${solved} solved of ${n}`,
    solved: "solved",
    tried: "tried",
    today: "today",
    language: "Language",
    lobby: "Lobby",
  },
  fr: {
    title: "Casse-têtes",
    intro: "Tous les casse-têtes de la collection, par difficulté (1 la plus facile, 10 la plus dure). Ce navigateur garde ceux que vous avez essayés et résolus.",
    daily: (id) => `Casse-tête du jour : ${id}`,
    next: "Casse-tête suivant",
    count: (solved, tried, all) => `${solved} résolus, ${tried} essayés, sur ${all}`,
    grade: (d, solved, n) => `Difficulté ${d} — ${solved} résolus sur ${n}`,
    solved: "résolu",
    tried: "essayé",
    today: "du jour",
    language: "Langue",
    lobby: "Accueil",
  },
};

function w(key, ...args) {
  const v = (WORDS[lang()] || WORDS.en)[key];
  return typeof v === "function" ? v(...args) : v;
}

const $ = (id) => document.getElementById(id);
let data = { daily: null, puzzles: [] };
const openGrades = new Set();

function href(id) {
  return `/puzzle?id=${encodeURIComponent(id)}&lang=${lang()}`;
}

function render() {
  document.documentElement.lang = lang();
  document.title = `rami — ${w("title")}`;
  $("p-lang").value = lang();
  $("l-l-lang").textContent = w("language");
  $("l-lobby").textContent = w("lobby");
  $("l-lobby").href = `/?lang=${lang()}`;
  $("l-title").textContent = w("title");
  $("l-intro").textContent = w("intro");
  const done = progress();
  const all = data.puzzles;
  const solved = all.filter((p) => done[p.id] === "solved").length;
  const tried = all.filter((p) => done[p.id] === "tried").length;
  $("l-count").textContent = w("count", solved, tried, all.length);
  $("l-daily").textContent = w("daily", data.daily || "");
  if (data.daily) $("l-daily").href = href(data.daily);
  $("l-next").textContent = w("next");
  const next = nextPuzzle(all);
  $("l-next").disabled = !next;
  $("l-next").onclick = () => {
    if (next) location.href = href(next.id);
  };
  const box = $("l-grades");
  box.replaceChildren();
  const grades = [...new Set(all.map((p) => p.difficulty))].sort((a, b) => a - b);
  for (const d of grades) {
    const mine = all.filter((p) => p.difficulty === d);
    const det = document.createElement("details");
    det.className = "panel grade";
    det.dataset.grade = String(d);
    const sum = document.createElement("summary");
    sum.textContent = w("grade", d, mine.filter((p) => done[p.id] === "solved").length, mine.length);
    det.append(sum);
    const fill = () => {
      if (det.querySelector("ol")) return;
      const ol = document.createElement("ol");
      ol.className = "puzzle-list";
      for (const p of mine) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        const state = done[p.id];
        a.className = "puzzle-item" + (state ? ` ${state}` : "") + (p.id === data.daily ? " daily" : "");
        a.href = href(p.id);
        a.dataset.id = p.id;
        const marks = [state ? w(state) : "", p.id === data.daily ? w("today") : ""].filter(Boolean);
        a.textContent = `${p.id}${marks.length ? ` · ${marks.join(" · ")}` : ""}`;
        li.append(a);
        ol.append(li);
      }
      det.append(ol);
    };
    det.addEventListener("toggle", () => {
      if (det.open) {
        openGrades.add(d);
        fill();
      } else openGrades.delete(d);
    });
    // Open: the grades the player opened, and the day's puzzle's.
    const daily = all.find((p) => p.id === data.daily);
    if (openGrades.has(d) || (daily && daily.difficulty === d && !openGrades.size)) {
      det.open = true;
      fill();
    }
    box.append(det);
  }
}

// The page's own code runs on the puzzles page only (another page may import WORDS).
if ($("l-grades")) {
  $("p-lang").onchange = (e) => {
    setLang(e.target.value);
    const u = new URL(location.href);
    u.searchParams.set("lang", e.target.value);
    history.replaceState(null, "", u);
    render();
  };

  loadList().then((d) => {
    data = d;
    const daily = d.puzzles.find((p) => p.id === d.daily);
    if (daily) openGrades.add(daily.difficulty);
    render();
  });
}

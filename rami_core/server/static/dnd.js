// Drag and drop with pointer events, so that a mouse, a finger and a pen all
// move cards the same way. A card is picked up after it has moved a few
// pixels (a tap or a click stays a click: the keyboard and click ways are
// kept); a ghost follows the pointer; on release the drop zone under it
// (the nearest element with data-drop) is handed to the page's one `onDrop`.
// The page decides what a drop means; this module knows nothing of the game.

const START = 6; // pixels before a press becomes a drag
// Near the window's top or bottom edge a drag scrolls the page, faster the
// nearer the edge, while the pointer stays there (a meld off screen is
// reached without letting go; a finger cannot scroll while it holds a card).
const EDGE = 56;
const SPEED = 22; // pixels a frame at the very edge
const DWELL = 250; // ms at the edge before it scrolls: a drop just below the top is not carried away
let drag = null;
let scrolling = 0;
let dropHandler = () => {};
let swallowClick = false;

export function onDrop(handler) {
  dropHandler = handler;
}

export function isDragging() {
  return drag !== null && drag.started;
}

// A finger or a button is down on a card: the page must not redraw it now
// (a redrawn card loses the touch that holds it). `whenFree` runs once the
// press ends.
let freed = () => {};
export function isPressed() {
  return drag !== null;
}
export function whenFree(fn) {
  freed = fn;
}

function zoneAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest("[data-drop]") : null;
}

function mark(zone) {
  if (drag.zone === zone) return;
  if (drag.zone) drag.zone.classList.remove("drop-over");
  drag.zone = zone;
  if (zone) zone.classList.add("drop-over");
}

function edgeSpeed(y) {
  const h = window.innerHeight;
  if (y < EDGE) return -SPEED * Math.min(1, (EDGE - Math.max(y, 0)) / EDGE);
  if (y > h - EDGE) return SPEED * Math.min(1, (EDGE - Math.max(h - y, 0)) / EDGE);
  return 0;
}

function autoScroll() {
  scrolling = 0;
  if (!drag || !drag.started) return;
  const v = edgeSpeed(drag.lastY);
  if (!v) return;
  if (performance.now() - drag.edgeSince < DWELL) {
    scrolling = requestAnimationFrame(autoScroll);
    return;
  }
  const before = window.scrollY;
  window.scrollBy(0, v);
  // The pointer holds still while the page moves under it: the zone under it changes.
  if (window.scrollY !== before) mark(zoneAt(drag.lastX, drag.lastY));
  scrolling = requestAnimationFrame(autoScroll);
}

function move(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.started) {
    if (Math.hypot(dx, dy) < START) return;
    drag.started = true;
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    for (const el of drag.els) ghost.appendChild(el.cloneNode(true));
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.els.forEach((el) => el.classList.add("dragging"));
    document.body.classList.add("is-dragging");
  }
  e.preventDefault();
  drag.ghost.style.transform = `translate(${e.clientX + 8}px, ${e.clientY + 8}px)`;
  mark(zoneAt(e.clientX, e.clientY));
  drag.lastX = e.clientX;
  drag.lastY = e.clientY;
  if (!edgeSpeed(e.clientY)) drag.edgeSince = null;
  else if (drag.edgeSince === null) drag.edgeSince = performance.now();
  if (!scrolling && drag.edgeSince !== null) scrolling = requestAnimationFrame(autoScroll);
}

function end(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const d = drag;
  drag = null;
  cancelAnimationFrame(scrolling);
  scrolling = 0;
  // A quick flick can end before any move was delivered (moves wait for the
  // next frame, the release does not): judged by where it ends.
  const far = Math.hypot(e.clientX - d.x, e.clientY - d.y) >= START;
  if (!d.started && !(far && e.type === "pointerup")) {
    setTimeout(freed, 0);
    return; // a click: the element's own click handler acts
  }
  swallowClick = true;
  setTimeout(() => (swallowClick = false), 0);
  if (d.ghost) d.ghost.remove();
  d.els.forEach((el) => el.classList.remove("dragging"));
  document.body.classList.remove("is-dragging");
  if (d.zone) d.zone.classList.remove("drop-over");
  const zone = e.type === "pointercancel" ? null : zoneAt(e.clientX, e.clientY);
  if (zone) dropHandler(d.payload, zone, e.clientX, e.clientY);
  setTimeout(freed, 0);
}

// `payload()` is read when the press starts: what is dragged (the page's
// own description) and the elements shown in the ghost.
export function draggable(el, payload) {
  el.classList.add("draggable");
  el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || drag) return;
    const p = payload();
    if (!p) return;
    drag = { pointer: e.pointerId, x: e.clientX, y: e.clientY, started: false, payload: p.data, els: p.els || [el], zone: null, edgeSince: null };
  });
}

document.addEventListener("pointermove", move, { passive: false });
document.addEventListener("pointerup", end);
document.addEventListener("pointercancel", end);
// The click that ends a drag is not a click on the card.
document.addEventListener(
  "click",
  (e) => {
    if (swallowClick) {
      e.stopPropagation();
      e.preventDefault();
      swallowClick = false;
    }
  },
  true,
);

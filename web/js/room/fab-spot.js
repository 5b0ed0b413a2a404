// Below 900 px the chat button floats at the edge of the screen; it never
// covers the board, the player cards or the lines about the board, and
// where it can help it neither the game's buttons (nor,
// where it can help it, the top bar's controls): it takes the lowest
// place along the right edge, else the left, where it covers none of
// them, or else the place that covers least (the board and the cards
// counting far more than the rest), again on every scroll, resize and
// change of the game area's size.

import { $ } from '../dom.js';

/** What the button keeps clear, and how much covering each would weigh. */
const KEEP_CLEAR = [
  ['#players .player, #board-frame, #lookback, #board-scroll-hint, #result', 100],
  // The game's own buttons (resign, hint, rematch, …): an outside check
  // found the button over Resign on a phone.
  ['#room-main .actions button, #room-main .actions .hint-box, #moves-keys', 10],
  // And the rest of the page's controls (an outside check found it over
  // the start's order, the countdown, "List publicly" and Send).
  ['#room-main .actions select, #room-main .actions label:not([hidden]), #countdown, #chat-form, #draw-box button, #takeback-box button, #away-box button', 10],
  ['#moves li', 1],
  ['#turn, #ask-own-goal-box, #draw-box, .topbar > *', 1],
];
const MARGIN = 12; // from the window's edges, in px
const STEP = 4;

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The rectangles to keep clear, each with its weight. */
function keepClear() {
  return KEEP_CLEAR.flatMap(([selector, weight]) => [...document.querySelectorAll(selector)]
    .filter((e) => e.getClientRects().length)
    .map((e) => ({ r: e.getBoundingClientRect(), weight })));
}

/** Puts the chat button (`data-spot` right or left, and its top) where it covers least of what it keeps clear. */
export function placeFab() {
  const fab = $('chat-fab');
  if (!fab || fab.hidden || getComputedStyle(fab).position !== 'fixed') return;
  const { width: w, height: h } = fab.getBoundingClientRect();
  const clear = keepClear();
  let best = null;
  for (const spot of ['right', 'left']) {
    const left = spot === 'right' ? innerWidth - MARGIN - w : MARGIN;
    for (let top = innerHeight - MARGIN - h; top >= MARGIN; top -= STEP) {
      const r = { left, right: left + w, top, bottom: top + h };
      const covered = clear.reduce((sum, c) => sum + c.weight * overlap(r, c.r), 0);
      if (!best || covered < best.covered) best = { spot, top, covered };
      if (!covered) break;
    }
    if (best && !best.covered) break;
  }
  // A window too short for any place: the lowest one on the right.
  if (!best) best = { spot: 'right', top: Math.max(0, innerHeight - MARGIN - h) };
  fab.dataset.spot = best.spot;
  fab.style.top = `${best.top}px`;
}

let queued = false;
function schedule() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    placeFab();
  });
}

/** Keeps the chat button placed from now on. */
export function watchFab() {
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule);
  const sizes = new ResizeObserver(schedule);
  for (const node of [$('room-main'), $('play'), $('players'), $('board-frame'), $('result')]) if (node) sizes.observe(node);
  schedule();
}

// The viewer's own cosmetics: a board theme per game and Jungle's piece
// style, bought in the shop (/account) and chosen there. They are this
// browser's account's choice only: GET /api/me says which, and this page
// draws every board with them; nobody else's page changes.
//
// A choice is a data attribute on <html> (data-crossyray-board,
// data-jungle-board, data-quoridor-board, data-jungle-pieces), which the
// theme blocks of site.css match; the renderers read the piece style from
// pieceStyle(). The last choice is kept in localStorage so a page draws
// with it before /api/me answers; a signed-out page uses the defaults.

const SLOTS = ['crossyray_board', 'jungle_board', 'quoridor_board', 'jungle_pieces'];
const KEY = 'bg.cosmetics';
const EVENT = 'cosmetics-change';

const attr = (slot) => `data-${slot.replace('_', '-')}`;

function current() {
  const root = document.documentElement;
  return Object.fromEntries(SLOTS.map((s) => [s, root.getAttribute(attr(s))]).filter(([, v]) => v));
}

/**
 * Applies `chosen` ({slot: item id}; null or missing: the defaults) to
 * this page and remembers it; boards redraw (`cosmetics-change`).
 */
export function applyCosmetics(chosen) {
  const root = document.documentElement;
  const before = JSON.stringify(current());
  for (const slot of SLOTS) {
    const id = chosen?.[slot];
    if (typeof id === 'string' && /^[a-z]+-[a-z]+$/.test(id)) root.setAttribute(attr(slot), id);
    else root.removeAttribute(attr(slot));
  }
  const after = current();
  try {
    if (Object.keys(after).length) localStorage.setItem(KEY, JSON.stringify(after));
    else localStorage.removeItem(KEY);
  } catch { /* storage may be off */ }
  if (JSON.stringify(after) !== before) window.dispatchEvent(new Event(EVENT));
}

/** Calls `fn` whenever the choice changes; returns the unsubscribe. */
export function onCosmeticsChange(fn) {
  window.addEventListener(EVENT, fn);
  return () => window.removeEventListener(EVENT, fn);
}

/** Jungle's piece style: 'drawn' or 'emoji' (the default). */
export function pieceStyle() {
  return document.documentElement.getAttribute(attr('jungle_pieces')) === 'jungle-drawn' ? 'drawn' : 'emoji';
}

// The remembered choice, at once.
try {
  const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
  if (saved && typeof saved === 'object') applyCosmetics(saved);
} catch { /* none */ }

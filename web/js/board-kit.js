// What every game's board shares (chessground's api.ts split): the board
// state, the viewer's UI state (cursor, selection, pending move), redraw
// from those two alone, and the play → pending → settled cycle around
// onMove. Each game's board.js only says how a new match changes its UI
// state (`set`). A board redraws when the viewer's cosmetics change
// (cosmetics.js): the theme's colours are CSS, the piece style is drawn.

import { onCosmeticsChange } from './cosmetics.js';
import { t } from './i18n.js';
import { esc } from './dom.js';

/**
 * @param {HTMLElement} el
 * @param {object} parts
 *   mount(el)                    build the board's DOM once
 *   render(el, state, ui)        draw from state only
 *   attachInput(el, ctx)         wire mouse, touch and keyboard; returns detach()
 *   ui                           the game's initial UI state
 *   onMove(move) -> Promise      send the move; settles on the server's answer
 *   onNotice(kind, where)        an input that did nothing, and why
 *   className                    class the game's renderer adds to `el`
 *   readOnly                     draw only (a replay, a rules diagram): no
 *                                input, no play tools (class read-only),
 *                                and the board takes no focus
 * The viewer's UI state always holds `hint`: a move (the game's notation)
 * drawn as a ghost over the position (`showHint(move)`, null to take it
 * away); a new position (`set`) keeps it until it is changed.
 * @returns {{ state(): object, setState(s), ui(): object, patchUi(p), redraw(), showHint(move), destroy() }}
 */
export function boardController(el, { mount, render, attachInput, ui: initialUi, onMove, onNotice, className, readOnly = false }) {
  let state = null;
  let ui = { ...initialUi, hint: null, pending: false };
  mount(el);
  if (readOnly) {
    el.removeAttribute('tabindex');
    el.setAttribute('role', 'img');
    el.classList.add('read-only');
  }
  const redraw = () => render(el, state, ui);
  const unsubscribe = onCosmeticsChange(redraw);
  const patchUi = (patch) => {
    ui = { ...ui, ...patch };
  };
  const detach = readOnly ? () => {} : attachInput(el, {
    getState: () => state,
    getUi: () => ui,
    setUi(patch) {
      patchUi(patch);
      redraw();
    },
    play(move) {
      patchUi({ pending: true });
      redraw();
      return Promise.resolve(onMove?.(move))
        .catch(() => {})
        .finally(() => {
          patchUi({ pending: false });
          redraw();
        });
    },
    notice: onNotice,
  });
  return {
    state: () => state,
    setState(next) {
      state = next;
    },
    ui: () => ui,
    patchUi,
    redraw,
    showHint(move) {
      patchUi({ hint: typeof move === 'string' && move ? move : null });
      redraw();
    },
    destroy() {
      detach();
      unsubscribe();
      el.innerHTML = '';
      if (className) el.classList.remove(className);
      el.classList.remove('read-only');
    },
  };
}

/** Build a board container's fixed children once: its SVG, `tools` (markup, if any) and a live region. */
export function mountSvg(el, boardClass, svgClass, tools = '') {
  el.classList.add(boardClass);
  el.setAttribute('role', 'application');
  el.tabIndex = 0;
  el.innerHTML =
    `<svg class="${svgClass}" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet"></svg>`
    + tools
    + '<div class="board-live sr-only" aria-live="polite"></div>';
}

/**
 * A board's label from its parts (what board it is, whose turn, the keys),
 * as sentences: each ends with a full stop unless it has its own, the
 * empty ones (no turn once the game is over) left out.
 */
export function sentences(...parts) {
  return parts.map((p) => String(p ?? '').trim()).filter(Boolean)
    .map((p) => (/[.!?…:;]$/.test(p) ? p : `${p}.`)).join(' ');
}

/** The label's turn words: the viewer's turn, or who is to move; nothing once the game is over. */
export function turnWords(state) {
  if (state.over) return '';
  if (state.myTurn) return t('game.your_turn');
  const mover = state.toMove != null ? state.players[state.toMove] : null;
  return mover ? t('game.to_move', { name: mover.name ?? '?' }) : '';
}

/** Empties the board's SVG (class `svgClass`, made by mountSvg): no state to draw. */
export function clearSvg(el, svgClass) {
  el.querySelector(`svg.${svgClass}`).innerHTML = '';
}

/** Draws `html` into the board's SVG, its view box `vw` × `vh` and its aspect ratio that. */
export function fillSvg(el, svgClass, vw, vh, html) {
  const svg = el.querySelector(`svg.${svgClass}`);
  svg.setAttribute('viewBox', `0 0 ${vw} ${vh}`);
  svg.style.aspectRatio = `${vw} / ${vh}`;
  svg.innerHTML = html;
}

/**
 * What every board says of itself: its `label`, the data attributes the
 * tests and styles read (the game's own, `data`, then last move, ply, the
 * viewer's side and turn, over), the turn and pending classes, and `live`,
 * the line a screen reader hears.
 */
export function markBoard(el, state, ui, label, live, data = {}) {
  el.setAttribute('aria-label', label);
  Object.assign(el.dataset, data);
  el.dataset.lastMove = state.lastMove ?? '';
  el.dataset.ply = state.ply;
  el.dataset.myTurn = String(state.myTurn);
  el.dataset.mySide = state.mySide ?? '';
  el.dataset.over = String(state.over);
  el.dataset.hint = ui.hint ?? '';
  el.classList.toggle('my-turn', state.myTurn);
  el.classList.toggle('pending', !!ui.pending);
  const region = el.querySelector('.board-live');
  if (region.textContent !== live) region.textContent = live;
}


/**
 * The hint's drawing: `inner` (SVG) in the one element the pages and tests
 * find it by (`data-testid="hint-ghost"`, `data-move` the move as given),
 * drawn over the board and never in the way of a click.
 */
export function hintGhost(move, inner) {
  return `<g class="hint-ghost" data-testid="hint-ghost" data-move="${esc(move)}" pointer-events="none" aria-hidden="true">${inner}</g>`;
}

/**
 * An arrow from point `a` to point `b` ({x, y} in SVG units), cut short by
 * `inset` at both ends (at most 45 % of its length each): a shaft `w`
 * wide and a head drawn as a triangle (no <marker>: several boards on a
 * page would share its id).
 */
export function hintArrow(a, b, { w = 5, inset = 0 } = {}) {
  const full = Math.hypot(b.x - a.x, b.y - a.y);
  if (full < 1) return '';
  const ux = (b.x - a.x) / full;
  const uy = (b.y - a.y) / full;
  const cut = Math.min(inset, full * 0.45);
  const [x1, y1, x2, y2] = [a.x + ux * cut, a.y + uy * cut, b.x - ux * cut, b.y - uy * cut];
  const head = Math.min((full - 2 * cut) * 0.6, w * 3);
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const px = -uy * w * 1.4;
  const py = ux * w * 1.4;
  const f = (n) => n.toFixed(1);
  return `<line class="hint-shaft" x1="${f(x1)}" y1="${f(y1)}" x2="${f(bx)}" y2="${f(by)}" stroke-width="${w}" stroke-linecap="round"/>`
    + `<polygon class="hint-head" points="${f(x2)},${f(y2)} ${f(bx + px)},${f(by + py)} ${f(bx - px)},${f(by - py)}"/>`;
}

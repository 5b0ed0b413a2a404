// Game options as form controls, shared by the home page (create a room)
// and the room page (the host edits options, or switches game, between
// games). Wire formats (docs/PROTOCOL.md):
//   CrossyRay {"width":9,"height":7,"clock":null | {"minutes":3,"increment":2}}
//   Jungle    {"clock":null | [3,2]}
// A form has a game select, width and height selects (CrossyRay only; their
// labels carry data-game="crossyray" and are hidden for other games) and a
// clock select.

import { t } from './i18n.js';

export const GAMES = ['crossyray', 'jungle'];
export const SIZES = Array.from({ length: 11 }, (_, i) => 5 + 2 * i); // 5, 7, …, 25
export const CLOCKS = [null, [3, 2], [5, 3], [10, 5], [15, 10]];
export const DEFAULT_OPTIONS = { width: 9, height: 7, clock: null };

/** Either wire form of a clock as [minutes, increment], or null. */
export function clockPair(clock) {
  if (!clock) return null;
  if (Array.isArray(clock)) return [Number(clock[0]), Number(clock[1])];
  return [Number(clock.minutes), Number(clock.increment)];
}

export function clockKey(clock) {
  const p = clockPair(clock);
  return p ? `${p[0]}+${p[1]}` : 'off';
}

export function clockText(clock) {
  const p = clockPair(clock);
  return p ? t('clock.preset', { m: p[0], i: p[1] }) : t('clock.off');
}

/** One line describing `o`, the options of `game`. */
export function optionsSummary(o, game = 'crossyray') {
  if (game === 'jungle') return clockText(o?.clock ?? null);
  return t('options.summary', { w: o?.width, h: o?.height, clock: clockText(o?.clock ?? null) });
}

/** Show the controls that belong to `game` (labels with data-game). */
export function showGameFields(form, game) {
  for (const node of form.querySelectorAll('[data-game]')) {
    node.hidden = node.dataset.game !== game;
  }
}

/** Fill the selects (keeping their current choice, else `value`). */
export function fillOptionSelects({ game, width, height, clock }, value = DEFAULT_OPTIONS) {
  const keep = (sel, fallback) => (sel.value !== '' ? sel.value : String(fallback));
  const w = keep(width, value.width ?? DEFAULT_OPTIONS.width);
  const h = keep(height, value.height ?? DEFAULT_OPTIONS.height);
  const c = clock.value !== '' ? clock.value : clockKey(value.clock);
  if (game) {
    const g = game.value !== '' ? game.value : GAMES[0];
    game.replaceChildren(...GAMES.map((name) => new Option(t(`game.${name}`), name)));
    game.value = g;
  }
  for (const sel of [width, height]) {
    sel.replaceChildren(...SIZES.map((n) => new Option(String(n), String(n))));
  }
  clock.replaceChildren(...CLOCKS.map((p) => new Option(clockText(p), clockKey(p))));
  width.value = w;
  height.value = h;
  clock.value = c;
}

/** Set the selects to `o`, the options of `gameName`. */
export function setOptionSelects({ game, width, height, clock }, o, gameName = 'crossyray') {
  if (game) game.value = gameName;
  if (o?.width) width.value = String(o.width);
  if (o?.height) height.value = String(o.height);
  clock.value = clockKey(o?.clock ?? null);
}

/** Read the selects; returns {game, options} or {error}. */
export function readOptionSelects({ game, width, height, clock }) {
  const name = game?.value || 'crossyray';
  const pair = clock.value === 'off' ? null : clock.value.split('+').map(Number);
  if (name === 'jungle') return { game: name, options: { clock: pair } };
  const w = Number(width.value);
  const h = Number(height.value);
  if (w === h) return { error: t('options.square') };
  const c = pair ? { minutes: pair[0], increment: pair[1] } : null;
  return { game: name, options: { width: w, height: h, clock: c } };
}

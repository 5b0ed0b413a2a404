// CrossyRay game options as form controls, shared by the home page (create
// a room) and the room page (the host edits options between games).
// Wire format (docs/PROTOCOL.md): {"width":9,"height":7,"clock":null} or
// {"width":9,"height":7,"clock":{"minutes":3,"increment":2}}.

import { t } from './i18n.js';

export const SIZES = Array.from({ length: 11 }, (_, i) => 5 + 2 * i); // 5, 7, …, 25
export const CLOCKS = [null, [3, 2], [5, 3], [10, 5], [15, 10]];
export const DEFAULT_OPTIONS = { width: 9, height: 7, clock: null };

export function clockKey(clock) {
  return clock ? `${clock.minutes}+${clock.increment}` : 'off';
}

export function clockText(clock) {
  return clock ? t('clock.preset', { m: clock.minutes, i: clock.increment }) : t('clock.off');
}

export function optionsSummary(o) {
  return t('options.summary', { w: o.width, h: o.height, clock: clockText(o.clock) });
}

/** Fill the three selects (keeping their current choice, else `value`). */
export function fillOptionSelects({ width, height, clock }, value = DEFAULT_OPTIONS) {
  const keep = (sel, fallback) => (sel.value !== '' ? sel.value : String(fallback));
  const w = keep(width, value.width);
  const h = keep(height, value.height);
  const c = clock.value !== '' ? clock.value : clockKey(value.clock);
  for (const sel of [width, height]) {
    sel.replaceChildren(...SIZES.map((n) => new Option(String(n), String(n))));
  }
  clock.replaceChildren(
    ...CLOCKS.map((p) => {
      const obj = p ? { minutes: p[0], increment: p[1] } : null;
      return new Option(clockText(obj), clockKey(obj));
    }),
  );
  width.value = w;
  height.value = h;
  clock.value = c;
}

/** Set the selects to `o`. */
export function setOptionSelects({ width, height, clock }, o) {
  width.value = String(o.width);
  height.value = String(o.height);
  clock.value = clockKey(o.clock);
}

/** Read the selects; returns {options} or {error}. */
export function readOptionSelects({ width, height, clock }) {
  const w = Number(width.value);
  const h = Number(height.value);
  if (w === h) return { error: t('options.square') };
  let c = null;
  if (clock.value !== 'off') {
    const [m, i] = clock.value.split('+').map(Number);
    c = { minutes: m, increment: i };
  }
  return { options: { width: w, height: h, clock: c } };
}

// WCAG 2 contrast: relative luminance, the ratio of two colours, and the
// colour pairs of every board that must pass (3:1 for the graphics a
// player has to see, 4.5:1 for text) plus the page's own text colours.
// The colours are CSS custom properties of web/css/site.css, read by the
// test from the page (contrast.test.mjs); here only their names.

/** `#rgb`, `#rrggbb`, `#rrggbbaa` or `rgb()/rgba()` → {r, g, b, a} (0-255, a 0-1). */
export function parseColor(text) {
  const s = String(text).trim().toLowerCase();
  let m = s.match(/^#([0-9a-f]{3})$/);
  if (m) {
    const [r, g, b] = [...m[1]].map((c) => parseInt(c + c, 16));
    return { r, g, b, a: 1 };
  }
  m = s.match(/^#([0-9a-f]{6})([0-9a-f]{2})?$/);
  if (m) {
    const n = parseInt(m[1], 16);
    return { r: n >> 16, g: (n >> 8) & 255, b: n & 255, a: m[2] ? parseInt(m[2], 16) / 255 : 1 };
  }
  m = s.match(/^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/);
  if (m) {
    let a = m[4] == null ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    if (!(a >= 0 && a <= 1)) a = 1;
    return { r: +m[1], g: +m[2], b: +m[3], a };
  }
  if (s === 'white') return { r: 255, g: 255, b: 255, a: 1 };
  if (s === 'black') return { r: 0, g: 0, b: 0, a: 1 };
  throw new Error(`not a colour: ${JSON.stringify(text)}`);
}

/** `fg` painted over the opaque `bg` (alpha compositing). */
export function over(fg, bg) {
  const mix = (f, b) => f * fg.a + b * (1 - fg.a);
  return { r: mix(fg.r, bg.r), g: mix(fg.g, bg.g), b: mix(fg.b, bg.b), a: 1 };
}

export function luminance({ r, g, b }) {
  const lin = (v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of `fg` (maybe translucent) on the opaque `bg`. */
export function ratio(fg, bg) {
  const a = luminance(over(fg, bg));
  const b = luminance(bg);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

export const GRAPHIC = 3;
export const TEXT = 4.5;

/**
 * Each game's pairs: [what, foreground variables, background variables,
 * minimum]. Every foreground is checked on every background. `--bg` and
 * `--panel` are the page behind a board (a room's play column, a replay's
 * panel).
 */
export const PAIRS = {
  crossyray: [
    ['a number on a filled cell', ['--cr-num', '--cr-origin-num'], ['--cr-block', '--cr-block-0', '--cr-block-1', '--cr-last-fill'], TEXT],
    ['a coordinate', ['--cr-coord'], ['--cr-cell-light', '--cr-cell-dark', '--cr-block', '--cr-block-0', '--cr-block-1', '--cr-last-fill'], TEXT],
    ['a legal-target dot on an empty cell', ['--cr-dot'], ['--cr-cell-light', '--cr-cell-dark'], GRAPHIC],
    ['the last-move mark', ['--cr-last-edge'], ['--cr-cell-light', '--cr-cell-dark', '--cr-block', '--cr-block-0', '--cr-block-1'], GRAPHIC],
    ['the origin mark', ['--cr-origin-edge'], ['--cr-block', '--cr-block-0', '--cr-block-1', '--cr-last-fill'], GRAPHIC],
    ['a goal\'s name', ['--cr-goal-0-text'], ['--cr-goal-0-fill', '--cr-last-fill'], TEXT],
    ['a goal\'s name', ['--cr-goal-1-text'], ['--cr-goal-1-fill', '--cr-last-fill'], TEXT],
    ['a goal\'s name', ['--cr-goal-n-text'], ['--cr-goal-n-fill', '--cr-last-fill'], TEXT],
    ['a goal\'s edge', ['--cr-goal-0-edge', '--cr-goal-1-edge', '--cr-goal-n-edge'], ['--bg', '--panel'], GRAPHIC],
    ['a legal goal\'s ring', ['--cr-ring', '--cr-ring-own'], ['--cr-goal-0-fill', '--cr-goal-1-fill', '--cr-goal-n-fill', '--cr-last-fill'], GRAPHIC],
    ['the keyboard cursor', ['--focus'], ['--cr-cell-light', '--cr-cell-dark', '--cr-block', '--cr-block-0', '--cr-block-1'], GRAPHIC],
  ],
  jungle: [
    ['water against land', ['--jg-water'], ['--jg-land-light', '--jg-land-dark', '--jg-den'], GRAPHIC],
    ['a side\'s trap, den and piece edge', ['--jg-blue', '--jg-red'], ['--jg-land-light', '--jg-land-dark', '--jg-den'], GRAPHIC],
    ['a piece on water', ['--jg-disc'], ['--jg-water'], GRAPHIC],
    ['a piece\'s rank and drawn letters', ['--jg-blue', '--jg-red'], ['--jg-disc'], TEXT],
    ['the last-move mark', ['--jg-last-edge'], ['--jg-land-light', '--jg-land-dark', '--jg-water', '--jg-den'], GRAPHIC],
    ['the selection', ['--jg-sel'], ['--jg-land-light', '--jg-land-dark', '--jg-water', '--jg-den'], GRAPHIC],
    ['a legal-target dot', ['--jg-dot'], ['--jg-land-light', '--jg-land-dark', '--jg-water', '--jg-den'], GRAPHIC],
    ['a capture ring', ['--jg-capture'], ['--jg-land-light', '--jg-land-dark', '--jg-water', '--jg-den'], GRAPHIC],
    ['the ring on a den you can enter', ['--jg-den-ring'], ['--jg-den'], GRAPHIC],
    ['the ring round an enemy on your trap', ['--jg-trap-ring'], ['--jg-land-light', '--jg-land-dark'], GRAPHIC],
    ['a coordinate', ['--jg-coord'], ['--jg-land-light', '--jg-land-dark', '--jg-den'], TEXT],
    ['the keyboard cursor', ['--jg-cursor'], ['--jg-land-light', '--jg-land-dark', '--jg-water', '--jg-den'], GRAPHIC],
  ],
  quoridor: [
    ['a wall', ['--qd-wall', '--qd-wall-last', '--qd-ghost'], ['--qd-groove', '--qd-cell', '--qd-centre'], GRAPHIC],
    ['a wall that cannot go there', ['--qd-ghost-bad'], ['--qd-groove'], GRAPHIC],
    // Each pawn and goal stripe has a dark edge: that edge is what stands
    // out from the cells and the page, whatever the player's colour.
    ['a pawn\'s edge', ['--qd-pawn-edge'], ['--qd-cell', '--qd-centre', '--qd-last-fill'], GRAPHIC],
    ['a goal stripe\'s edge', ['--qd-pawn-edge'], ['--bg', '--panel'], GRAPHIC],
    ['a pawn\'s number', ['--qd-pawn-ink'], ['red', 'blue', 'green', 'purple', 'teal', 'pink'].map((c) => `--q-${c}`), TEXT],
    ['a pawn\'s number', ['--qd-pawn-ink-dark'], ['--q-yellow', '--q-orange'], TEXT],
    ['a legal-target dot', ['--qd-dot'], ['--qd-cell', '--qd-centre'], GRAPHIC],
    ['the last-move mark', ['--qd-last-edge'], ['--qd-cell', '--qd-centre'], GRAPHIC],
    ['the centre ring', ['--qd-centre-ring'], ['--qd-centre', '--qd-last-fill'], GRAPHIC],
    ['a coordinate', ['--qd-coord'], ['--qd-cell', '--qd-last-fill'], TEXT],
    ['the keyboard cursor', ['--qd-cursor'], ['--qd-cell', '--qd-centre', '--qd-groove'], GRAPHIC],
  ],
  page: [
    ['text', ['--ink', '--muted', '--accent', '--danger', '--ok'], ['--bg', '--panel'], TEXT],
    ['a primary button\'s text', ['--accent-ink'], ['--accent'], TEXT],
    ['a move number', ['--side-0-ink', '--side-1-ink', ...['red', 'yellow', 'blue', 'green', 'purple', 'orange', 'teal', 'pink'].map((c) => `--q-${c}-ink`)], ['--bg', '--panel'], TEXT],
  ],
};

/**
 * Every failing pair of `game` with the variables `vars` (name → colour
 * text): [{what, fg, bg, ratio, min}].
 */
export function failures(game, vars) {
  const out = [];
  for (const [what, fgs, bgs, min] of PAIRS[game]) {
    for (const fg of fgs) {
      for (const bg of bgs) {
        if (!(fg in vars) || !(bg in vars)) {
          out.push({ what, fg, bg, ratio: NaN, min, missing: true });
          continue;
        }
        const r = ratio(parseColor(vars[fg]), parseColor(vars[bg]));
        if (!(r >= min)) out.push({ what, fg, bg, ratio: Math.round(r * 100) / 100, min });
      }
    }
  }
  return out;
}

/** Every variable the pairs of `game` name. */
export function variablesOf(game) {
  const names = new Set();
  for (const [, fgs, bgs] of PAIRS[game]) for (const n of [...fgs, ...bgs]) names.add(n);
  return [...names];
}

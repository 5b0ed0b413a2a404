// The analysis graph (pure: builds SVG markup, reads no page): each
// analysed position's win chance over the plies. Two sides: side 0's
// chance as a line and an area around the 50 % line. Three or more: one
// line per side in its swatch colour. Each ply is a point (a band the
// whole height of the graph, so a tap anywhere near it hits it), coloured
// by the grade of the move that led to it; the shown ply is marked.

import { esc } from '../dom.js';

export const W = 600;
export const H = 150;
const PAD_X = 8;
const PAD_Y = 10;


/** x of ply `n` of a game of `total` moves, y of chance `c` (0..1), in the graph's units. */
export function scales(total) {
  const step = (W - 2 * PAD_X) / Math.max(1, total);
  return {
    step,
    x: (n) => PAD_X + n * step,
    y: (c) => PAD_Y + (1 - Math.min(1, Math.max(0, Number(c) || 0))) * (H - 2 * PAD_Y),
  };
}

const f = (n) => n.toFixed(1);

/**
 * The graph's inner markup.
 * @param {object} a       the analysis object (positions, moves)
 * @param {object} opts
 *   total                 the game's moves
 *   sides                 how many sides the game has
 *   swatch(side)          a side's colour class
 *   shown                 the ply shown (marked), or null
 *   label(position)       a point's words for screen readers
 */
export function graphMarkup(a, { total, sides, swatch, shown, label }) {
  const { step, x, y } = scales(total);
  const positions = (a.positions ?? []).filter((p) => Number.isInteger(p?.ply) && Array.isArray(p.chances));
  const gradeAt = new Map((a.moves ?? []).map((m) => [m.ply, m]));
  const out = [];
  for (const c of [0.25, 0.75]) out.push(`<line class="ag-grid" x1="${PAD_X}" x2="${W - PAD_X}" y1="${f(y(c))}" y2="${f(y(c))}"/>`);
  out.push(`<line class="ag-mid" x1="${PAD_X}" x2="${W - PAD_X}" y1="${f(y(0.5))}" y2="${f(y(0.5))}"/>`);
  const pointsOf = (side) => positions.map((p) => `${f(x(p.ply))},${f(y(p.chances[side]))}`);
  if (sides <= 2) {
    const pts = pointsOf(0);
    if (pts.length) {
      const first = positions[0].ply;
      const last = positions[positions.length - 1].ply;
      out.push(`<path class="ag-area" d="M${f(x(first))},${f(y(0.5))} L${pts.join(' L')} L${f(x(last))},${f(y(0.5))} Z"/>`);
      out.push(`<polyline class="ag-line ${swatch(0)}" data-side="0" points="${pts.join(' ')}"/>`);
    }
  } else {
    for (let side = 0; side < sides; side++) {
      if (positions.length) out.push(`<polyline class="ag-line ${swatch(side)}" data-side="${side}" points="${pointsOf(side).join(' ')}"/>`);
    }
  }
  if (shown != null) out.push(`<line class="ag-cursor" pointer-events="none" x1="${f(x(shown))}" x2="${f(x(shown))}" y1="0" y2="${H}"/>`);
  for (const p of positions) {
    const move = gradeAt.get(p.ply);
    // Where the point sits: side 0's chance (two sides); else the chance
    // of the side that just moved (of the side to move at the start).
    const side = sides <= 2 ? 0 : (move?.side ?? p.to_move ?? 0);
    const classes = ['ag-point'];
    if (move?.grade) classes.push(move.grade);
    if (p.ply === shown) classes.push('current');
    out.push(`<g class="${classes.join(' ')}" data-testid="graph-point-${p.ply}" data-ply="${p.ply}"`
      + `${move?.grade ? ` data-grade="${move.grade}"` : ''} role="button" tabindex="${p.ply === shown ? 0 : -1}"`
      + `${p.ply === shown ? ' aria-current="step"' : ''} aria-label="${esc(label(p))}">`
      + `<rect class="ag-hit" x="${f(x(p.ply) - step / 2)}" y="0" width="${f(step)}" height="${H}"/>`
      + `<circle class="ag-dot" cx="${f(x(p.ply))}" cy="${f(y(p.chances[side]))}" r="${move?.grade ? 4.5 : 3.2}"/></g>`);
  }
  return out.join('');
}

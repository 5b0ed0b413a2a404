// Unit tests of the analysis graph (web/js/analysis/graph.js): pure
// markup from an analysis object, no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphMarkup, scales, W, H } from '../web/js/analysis/graph.js';

const swatch = (side) => `side-${side}`;
const label = (p) => `ply ${p.ply}`;

/** Every `attr="…"` of the elements matching `tag … class="…cls…"`, in order. */
function attrs(markup, cls, attr) {
  return [...markup.matchAll(new RegExp(`<[a-z]+ class="[^"]*\\b${cls}\\b[^"]*"[^>]*>`, 'g'))]
    .map((m) => new RegExp(`\\b${attr}="([^"]*)"`).exec(m[0])?.[1] ?? null);
}

test('two sides: one line of side 0 around 50 %, a point per analysed position, the graded ones coloured', () => {
  const a = {
    positions: [0, 1, 2, 3].map((ply) => ({ ply, to_move: ply % 2, chances: [[0.5, 0.7, 0.2, 1][ply], 1 - [0.5, 0.7, 0.2, 1][ply]] })),
    moves: [
      { ply: 1, side: 0, grade: null },
      { ply: 2, side: 1, grade: 'blunder' },
      { ply: 3, side: 0, grade: 'inaccuracy' },
    ],
  };
  const svg = graphMarkup(a, { total: 5, sides: 2, swatch, shown: 2, label });
  assert.deepEqual(attrs(svg, 'ag-point', 'data-ply'), ['0', '1', '2', '3'], 'positions not yet analysed have no point');
  assert.deepEqual(attrs(svg, 'ag-point', 'data-grade'), [null, null, 'blunder', 'inaccuracy']);
  assert.deepEqual(attrs(svg, 'ag-point', 'tabindex'), ['-1', '-1', '0', '-1'], 'only the shown ply takes the focus');
  assert.deepEqual(attrs(svg, 'ag-point', 'aria-current'), [null, null, 'step', null]);
  assert.deepEqual(attrs(svg, 'ag-point', 'data-testid'), ['graph-point-0', 'graph-point-1', 'graph-point-2', 'graph-point-3']);
  assert.equal(attrs(svg, 'ag-line', 'data-side').join(), '0', 'one line, side 0');
  // Its points: x by ply over the whole game, y by side 0's chance (1 at the top).
  const { x, y } = scales(5);
  const pts = attrs(svg, 'ag-line', 'points')[0].split(' ').map((p) => p.split(',').map(Number));
  assert.deepEqual(pts, a.positions.map((p) => [+x(p.ply).toFixed(1), +y(p.chances[0]).toFixed(1)]));
  assert.ok(y(1) < y(0.5) && y(0.5) < y(0), 'a higher chance is drawn higher');
  assert.ok(x(0) >= 0 && x(5) <= W && y(1) >= 0 && y(0) <= H, 'inside the view box');
  // The cursor at the shown ply.
  assert.deepEqual(attrs(svg, 'ag-cursor', 'x1'), [x(2).toFixed(1)]);
});

test('three or more sides: a line per side in its colour; a point sits on the chance of the side that moved', () => {
  const a = {
    positions: [
      { ply: 0, to_move: 0, chances: [0.25, 0.25, 0.25, 0.25] },
      { ply: 1, to_move: 1, chances: [0.4, 0.2, 0.2, 0.2] },
      { ply: 2, to_move: 2, chances: [0.5, 0.1, 0.2, 0.2] },
    ],
    moves: [{ ply: 1, side: 0, grade: null }, { ply: 2, side: 1, grade: 'mistake' }],
  };
  const svg = graphMarkup(a, { total: 2, sides: 4, swatch: (s) => `qc-${['red', 'yellow', 'blue', 'green'][s]}`, shown: null, label });
  assert.deepEqual(attrs(svg, 'ag-line', 'data-side'), ['0', '1', '2', '3']);
  assert.deepEqual(attrs(svg, 'ag-line', 'class'), ['ag-line qc-red', 'ag-line qc-yellow', 'ag-line qc-blue', 'ag-line qc-green']);
  const { y } = scales(2);
  assert.deepEqual(attrs(svg, 'ag-dot', 'cy').map(Number), [y(0.25), y(0.4), y(0.1)].map((v) => +v.toFixed(1)));
  assert.equal(attrs(svg, 'ag-cursor', 'x1').length, 0, 'no ply shown, no cursor');
  assert.equal(attrs(svg, 'ag-point', 'tabindex').filter((v) => v === '0').length, 0);
});

test('a label is escaped; a position without chances is left out', () => {
  const a = { positions: [{ ply: 0, chances: [0.5, 0.5] }, { ply: 1 }, { ply: 2, chances: [0.5, 0.5] }], moves: [] };
  const svg = graphMarkup(a, { total: 2, sides: 2, swatch, shown: 0, label: () => 'Minh "<b>" & Lan' });
  assert.deepEqual(attrs(svg, 'ag-point', 'data-ply'), ['0', '2']);
  assert.ok(svg.includes('aria-label="Minh &quot;&lt;b&gt;&quot; &amp; Lan"'));
  assert.ok(!svg.includes('<b>'));
});

// Unit tests of the CrossyRay board state (web/js/crossyray/state.js):
// pure functions, no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellName, parseCell, parseGoal, goalSides, goalSpan, goalAt, moveAt, deriveState, previewMatch, canPlay,
} from '../web/js/crossyray/state.js';

test('cell notation: files from the left, ranks from the bottom, round-trips', () => {
  assert.equal(cellName(0, 0), 'a1');
  assert.equal(cellName(4, 3), 'e4');
  assert.equal(cellName(24, 24), 'y25');
  for (let x = 0; x < 25; x++) for (let y = 0; y < 25; y++) assert.deepEqual(parseCell(cellName(x, y)), { x, y });
  assert.equal(parseCell('goal:left'), null);
  assert.equal(parseGoal('goal:right'), 'right');
  assert.equal(parseGoal('e4'), null);
});

test('goals sit on the short sides over the three middle rows or files', () => {
  assert.deepEqual(goalSides(9, 7), ['left', 'right']);
  assert.deepEqual(goalSides(7, 9), ['top', 'bottom']);
  assert.deepEqual(goalSpan('left', 9, 7), [2, 3, 4]);
  assert.deepEqual(goalSpan('top', 7, 9), [2, 3, 4]);
  assert.equal(goalAt(-1, 3, 9, 7), 'left');
  assert.equal(goalAt(9, 2, 9, 7), 'right');
  assert.equal(goalAt(-1, 1, 9, 7), null, 'row 2 is not a goal row on 9×7');
  assert.equal(goalAt(4, -1, 9, 7), null, 'no goal on a long side');
  assert.equal(goalAt(3, 9, 7, 9), 'top');
  assert.equal(goalAt(4, -1, 7, 9), 'bottom');
  assert.equal(moveAt(4, 3, 9, 7), 'e4');
  assert.equal(moveAt(9, 3, 9, 7), 'goal:right');
  assert.equal(moveAt(9, 0, 9, 7), null);
});

test('an empty room shows the 1 on the centre cell', () => {
  const s = deriveState(previewMatch({ width: 9, height: 7 }), { member: 'm1' });
  assert.equal(s.origin, 'e4');
  assert.equal(s.cells.find((c) => c.name === 'e4').value, 1);
  assert.equal(s.cells.filter((c) => c.blocked).length, 1);
  assert.equal(s.myTurn, false);
  assert.equal(s.legal.size, 0);
});

function sampleMatch() {
  const cells = new Array(63).fill(0);
  cells[3 * 9 + 4] = 1; // e4
  cells[4 * 9 + 4] = 2; // e5
  return {
    number: 1,
    players: [{ member: 'm2', name: 'Lan' }, { member: 'm1', name: 'Minh' }],
    state: { width: 9, height: 7, cells, origin: 'e5', current: 2, to_move: 1, ply: 1, outcome: null, last_move: 'e5', defends: ['left', 'right'] },
    legal: ['d5', 'c5', 'e6', 'e7', 'f5', 'g5'],
    moves: ['e5'],
    clock: null,
    outcome: null,
  };
}

test('legal targets are marked only for the player to move', () => {
  const m = sampleMatch();
  const minh = deriveState(m, { member: 'm1' });
  assert.equal(minh.myTurn, true);
  assert.equal(minh.mySide, 1);
  assert.deepEqual([...minh.legal].sort(), [...m.legal].sort());
  assert.equal(minh.cells.find((c) => c.name === 'd5').legal, true);
  assert.ok(canPlay(minh, 'd5'));
  assert.ok(!canPlay(minh, 'e3'));
  const lan = deriveState(m, { member: 'm2' });
  assert.equal(lan.myTurn, false);
  assert.equal(lan.legal.size, 0);
  const spectator = deriveState(m, { member: 'm3' });
  assert.equal(spectator.mySide, null);
  assert.equal(spectator.legal.size, 0);
});

test('the last move, the origin, who placed each number, and the goals’ defenders', () => {
  const s = deriveState(sampleMatch(), { member: 'm3' });
  const e5 = s.cells.find((c) => c.name === 'e5');
  assert.equal(e5.last, true);
  assert.equal(e5.origin, true);
  assert.equal(e5.placer, 0);
  assert.equal(s.cells.find((c) => c.name === 'e4').placer, null, 'the 1 belongs to nobody');
  const left = s.goals.find((g) => g.side === 'left');
  assert.equal(left.defender, 0);
  assert.equal(left.defenderName, 'Lan');
  assert.equal(s.goals.find((g) => g.side === 'right').defenderName, 'Minh');
});

test('a finished game marks nothing and nobody is to move', () => {
  const m = sampleMatch();
  m.outcome = { kind: 'win', winner: 0, reason: 'goal' };
  m.state.outcome = m.outcome;
  m.state.to_move = null;
  m.legal = [];
  m.moves.push('goal:right');
  m.state.last_move = 'goal:right';
  const s = deriveState(m, { member: 'm1' });
  assert.equal(s.over, true);
  assert.equal(s.myTurn, false);
  assert.equal(s.goals.find((g) => g.side === 'right').last, true);
});

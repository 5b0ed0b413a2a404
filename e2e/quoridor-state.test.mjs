// Unit tests of the Quoridor board state (web/js/quoridor/state.js) and
// the input's decisions (web/js/quoridor/input.js): pure functions, no
// browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCell, parseWall, cellName, wallName, deriveState, previewMatch, sideOf, centreCell, isWallLegal, colorOf,
} from '../web/js/quoridor/state.js';
import { wallActionAt, cellActionAt } from '../web/js/quoridor/input.js';
import { geometry, minBoardWidth, nearestCrossing, P } from '../web/js/quoridor/geometry.js';

/** A team match: m1 and m3 play Red (side 0), m2 Yellow; m1 is due. */
function teamMatch(overrides = {}) {
  return {
    players: [{ member: 'm1', name: 'Minh' }, { member: 'm2', name: 'Khoa' }],
    teams: [[{ member: 'm1', name: 'Minh' }, { member: 'm3', name: 'Lan' }], [{ member: 'm2', name: 'Khoa' }]],
    to_play: 'm1',
    state: {
      size: 9, goal: 'edge', pawns: ['e2', 'e9'], goals: ['top', 'bottom'], walls: ['c3h'], walls_left: [10, 9],
      to_move: 0, ply: 2, outcome: null, last_move: 'c3h',
    },
    legal: ['d2', 'e3', 'f2', 'e1', 'a1h', 'e5v', 'pass'],
    moves: ['e2', 'c3h'],
    outcome: null,
    ...overrides,
  };
}

test('cells and walls round-trip; walls are named by the cell whose top-right corner is their centre', () => {
  assert.deepEqual(parseCell('a1'), { x: 0, y: 0 });
  assert.deepEqual(parseCell('m13'), { x: 12, y: 12 });
  assert.equal(parseCell('j1', 9), null, 'no file j on 9×9');
  assert.equal(parseCell('a10', 9), null);
  assert.equal(cellName(4, 2), 'e3');
  assert.deepEqual(parseWall('e3h'), { x: 4, y: 2, o: 'h', name: 'e3h' });
  assert.equal(parseWall('i3h', 9), null, 'no crossing right of the last file');
  assert.equal(parseWall('e9v', 9), null, 'no crossing above the last rank');
  assert.equal(parseWall('e3'), null);
  assert.equal(wallName(4, 2, 'v'), 'e3v');
  assert.equal(centreCell(9), 'e5');
  assert.equal(centreCell(13), 'g7');
  assert.deepEqual([0, 1, 7, 8].map(colorOf), ['red', 'yellow', 'pink', 'red']);
});

test('only the team member due to play gets targets, walls and the pass', () => {
  const due = deriveState(teamMatch(), { member: 'm1' });
  assert.equal(due.mySide, 0);
  assert.equal(due.myTurn, true);
  assert.deepEqual([...due.pawnTargets].sort(), ['d2', 'e1', 'e3', 'f2']);
  assert.deepEqual([...due.legalWalls].sort(), ['a1h', 'e5v']);
  assert.equal(due.canPass, true);
  assert.equal(due.myWallsLeft, 10);

  const teammate = deriveState(teamMatch(), { member: 'm3' });
  assert.equal(teammate.mySide, 0, 'a teammate plays the same side');
  assert.equal(teammate.myTurn, false, 'but it is not their turn');
  assert.equal(teammate.pawnTargets.size, 0);
  assert.equal(teammate.canPass, false);

  const spectator = deriveState(teamMatch(), { member: 'm9' });
  assert.equal(spectator.mySide, null);
  assert.equal(spectator.myTurn, false);
  assert.equal(sideOf(teamMatch(), { member: 'm2' }), 1);
});

test('the last move and the last wall are found even when the last move is a step', () => {
  const m = teamMatch({ moves: ['e2', 'c3h', 'e3'], state: { ...teamMatch().state, last_move: 'e3', pawns: ['e3', 'e9'], ply: 3, to_move: 1 } });
  const s = deriveState(m, { member: 'm2' });
  assert.equal(s.lastCell, 'e3');
  assert.equal(s.lastWall, 'c3h');
  assert.deepEqual(s.walls.map((w) => w.name), ['c3h']);
  assert.equal(s.pawns[0].cell, 'e3');
});

test('a finished game or a removed pawn: nothing to play, the pawn is not drawn', () => {
  const over = deriveState(teamMatch({ outcome: { kind: 'win', winner: 0, reason: 'goal' } }), { member: 'm1' });
  assert.equal(over.myTurn, false);
  assert.equal(over.legalWalls.size, 0);
  const ffa = deriveState({
    players: [{ member: 'm1' }, { member: 'm2' }, { member: 'm3' }],
    state: { size: 9, goal: 'edge', pawns: ['e1', null, 'e9'], goals: ['top', 'right', 'bottom'], walls: [], walls_left: [7, 7, 7], to_move: 2, ply: 3, outcome: null, last_move: 'e1' },
    legal: ['e8'],
    moves: ['e2', 'pass', 'e1'],
  }, { member: 'm3' });
  assert.equal(ffa.pawns[1], null);
  assert.equal(ffa.myTurn, true);
  const preview = deriveState(previewMatch({ size: 11 }), { member: 'm1' });
  assert.equal(preview.size, 11);
  assert.deepEqual(preview.pawns.map((p) => p.cell), ['f1', 'f11']);
  assert.equal(preview.myTurn, false);
});

test('a wall: the first action shows the ghost, the second places it only when legal', () => {
  const s = deriveState(teamMatch(), { member: 'm1' });
  const ui = { orient: 'v', ghost: null };
  assert.deepEqual(wallActionAt(s, ui, 4, 4), { ghost: { x: 4, y: 4 } });
  assert.deepEqual(wallActionAt(s, { ...ui, ghost: { x: 4, y: 4 } }, 4, 4), { play: 'e5v' });
  assert.deepEqual(wallActionAt(s, { orient: 'h', ghost: { x: 4, y: 4 } }, 4, 4), { notice: 'not_legal' }, 'e5h is not in legal');
  assert.equal(isWallLegal(s, 0, 0, 'h'), true);
  const waiting = deriveState(teamMatch(), { member: 'm3' });
  assert.deepEqual(wallActionAt(waiting, ui, 4, 4), { notice: 'not_your_turn' });
  assert.deepEqual(cellActionAt(s, 'e3'), { play: 'e3' });
  assert.deepEqual(cellActionAt(s, 'e4'), { notice: 'not_legal' });
  assert.deepEqual(cellActionAt(waiting, 'e3'), { notice: 'not_your_turn' });
});

test('a tap anywhere picks the nearest groove crossing; boards are wide enough for 32 px hit squares', () => {
  for (const size of [9, 11, 13]) {
    const geo = geometry(size);
    for (const [x, y] of [[0, 0], [2, 3], [size - 2, size - 2]]) {
      const cx = geo.ix(x);
      const cy = geo.iy(y);
      // The crossing itself, and any point up to just under half a cell-and-groove away.
      for (const [dx, dy] of [[0, 0], [P / 2 - 0.5, 0], [0, -(P / 2 - 0.5)], [-(P / 2 - 0.5), P / 2 - 0.5]]) {
        assert.deepEqual(nearestCrossing(size, cx + dx, cy + dy), { x, y }, `${size}: (${x},${y}) + (${dx},${dy})`);
      }
    }
    // Past the edge: the nearest crossing on the board.
    assert.deepEqual(nearestCrossing(size, -50, -50), { x: 0, y: size - 2 });
    assert.deepEqual(nearestCrossing(size, geo.vw + 50, geo.vw + 50), { x: size - 2, y: 0 });
    // At the least width, crossings are 32 px apart or more.
    assert.ok(minBoardWidth(size) * (P / geo.vw) >= 32, `${size}×${size}`);
  }
  assert.equal(minBoardWidth(9), 304);
});

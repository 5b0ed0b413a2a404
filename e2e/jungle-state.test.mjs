// Unit tests of the Jungle board state (web/js/jungle/state.js), the
// input's decision (web/js/jungle/input.js: actionAt) and the "Play the
// computer" seating (web/js/solo.js): pure functions, no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseMove, parseSquare, squareName, terrain, deriveState, previewMatch, targetsFrom, moveBetween,
  toScreen, fromScreen, FILES, RANKS, START_PIECES,
} from '../web/js/jungle/state.js';
import { actionAt } from '../web/js/jungle/input.js';
import { sideLabel, soloOptions, soloSeats } from '../web/js/solo.js';
import { moveSound } from '../web/js/sounds.js';

const you = { member: 'm1' };

/** A match as the server sends it at the start, Blue (m1) to move. */
function startMatch(legal, players = [{ member: 'm1', name: 'Lan' }, { member: 'm2', name: 'Computer (Beginner)', computer: 'beginner' }]) {
  return {
    players,
    state: { pieces: START_PIECES, to_move: 0, ply: 0, outcome: null, last_move: null },
    legal,
    moves: [],
    outcome: null,
  };
}

test('moves are read from their notation: rank, from, step or capture, to', () => {
  assert.deepEqual(parseMove('8 a3-a4'), { rank: 8, from: 'a3', to: 'a4', capture: false });
  assert.deepEqual(parseMove('7 a4xd4'), { rank: 7, from: 'a4', to: 'd4', capture: true });
  assert.equal(parseMove('9 a3-a4'), null, 'no animal of rank 9');
  assert.equal(parseMove('8 a3-h4'), null, 'no file h');
  assert.equal(parseMove('e5'), null);
  assert.equal(parseMove(null), null);
});

test('squares round-trip and the terrain follows RULES.md §3', () => {
  for (let x = 0; x < FILES; x++) for (let y = 0; y < RANKS; y++) assert.deepEqual(parseSquare(squareName(x, y)), { x, y });
  assert.equal(parseSquare('a10'), null);
  const water = [];
  for (let x = 0; x < FILES; x++) for (let y = 0; y < RANKS; y++) if (terrain(squareName(x, y)).kind === 'water') water.push(squareName(x, y));
  assert.deepEqual(water.sort(), ['b4', 'b5', 'b6', 'c4', 'c5', 'c6', 'e4', 'e5', 'e6', 'f4', 'f5', 'f6']);
  assert.deepEqual(terrain('d1'), { kind: 'den', owner: 0 });
  assert.deepEqual(terrain('d9'), { kind: 'den', owner: 1 });
  for (const sq of ['c1', 'e1', 'd2']) assert.deepEqual(terrain(sq), { kind: 'trap', owner: 0 });
  for (const sq of ['c9', 'e9', 'd8']) assert.deepEqual(terrain(sq), { kind: 'trap', owner: 1 });
  assert.deepEqual(terrain('a1'), { kind: 'land', owner: null });
});

test('the viewer\'s legal moves are grouped by the square they start from, with their marks', () => {
  const state = deriveState(startMatch(['8 a3-a4', '8 a3-b3', '6 a1-a2', '7 c8xd8', '1 d8-d9']), you);
  assert.equal(state.myTurn, true);
  assert.equal(state.flipped, false);
  assert.deepEqual(targetsFrom(state, 'a3').map((t) => t.to), ['a4', 'b3']);
  assert.equal(moveBetween(state, 'a1', 'a2'), '6 a1-a2');
  assert.equal(moveBetween(state, 'a1', 'a3'), null);
  const [capture] = targetsFrom(state, 'c8');
  assert.equal(capture.capture, true);
  const [den] = targetsFrom(state, 'd8');
  assert.equal(den.den, true);
  const a3 = state.squares.find((s) => s.name === 'a3');
  assert.deepEqual(a3.piece, { side: 0, rank: 8 });
  assert.equal(a3.movable, true);
  assert.equal(state.squares.find((s) => s.name === 'g1').movable, false);
});

test('a spectator or the player waiting gets no targets; Red sees the board turned round', () => {
  const m = startMatch(['8 a3-a4']);
  assert.equal(deriveState(m, { member: 'm9' }).movesFrom.size, 0);
  const red = deriveState(m, { member: 'm2' });
  assert.equal(red.myTurn, false);
  assert.equal(red.movesFrom.size, 0);
  assert.equal(red.flipped, true);
  // Blue sees a1 bottom-left; Red sees it top-right.
  assert.deepEqual(toScreen(0, 0, false), { col: 0, row: RANKS - 1 });
  assert.deepEqual(toScreen(0, 0, true), { col: FILES - 1, row: 0 });
  for (const flipped of [false, true]) {
    for (let x = 0; x < FILES; x++) for (let y = 0; y < RANKS; y++) {
      const { col, row } = toScreen(x, y, flipped);
      assert.deepEqual(fromScreen(col, row, flipped), { x, y });
    }
  }
});

test('the last move marks both of its squares; the preview is the usual start', () => {
  const m = startMatch([]);
  m.state.last_move = '7 g1-g2';
  const state = deriveState(m, you);
  assert.equal(state.squares.find((s) => s.name === 'g1').lastFrom, true);
  assert.equal(state.squares.find((s) => s.name === 'g2').lastTo, true);
  const preview = deriveState(previewMatch(), you);
  assert.equal(preview.squares.filter((s) => s.piece).length, 16);
  assert.equal(preview.myTurn, false);
});

test('acting on a square: select an animal, move to a target, deselect, or say why not', () => {
  const state = deriveState(startMatch(['8 a3-a4', '8 a3-b3', '6 a1-a2']), you);
  assert.deepEqual(actionAt(state, null, 'a3'), { select: 'a3' });
  assert.deepEqual(actionAt(state, 'a3', 'a4'), { play: '8 a3-a4' });
  assert.deepEqual(actionAt(state, 'a3', 'a3'), { deselect: true });
  assert.deepEqual(actionAt(state, 'a3', 'a1'), { select: 'a1' }, 'another animal switches the selection');
  assert.deepEqual(actionAt(state, 'a3', 'd5'), { deselect: true });
  assert.deepEqual(actionAt(state, null, 'd5'), { notice: 'not_legal' });
  const waiting = deriveState(startMatch(['8 a3-a4']), { member: 'm2' });
  assert.deepEqual(actionAt(waiting, null, 'g7'), { notice: 'not_your_turn' });
});

test('playing the computer: the chosen side decides the seats and the start order', () => {
  assert.deepEqual(soloSeats('blue'), { me: 0, computer: 1, order: 'seats' });
  assert.deepEqual(soloSeats('red'), { me: 1, computer: 0, order: 'seats' });
  assert.deepEqual(soloSeats('random'), { me: 0, computer: 1, order: 'random' });
});

test('playing the computer: sides are named by colour in Jungle and by turn elsewhere; Quoridor sends no clock', () => {
  assert.equal(sideLabel('jungle', 'blue'), 'solo.side_blue');
  assert.equal(sideLabel('crossyray', 'blue'), 'solo.side_first');
  assert.equal(sideLabel('quoridor', 'red'), 'solo.side_second');
  assert.equal(sideLabel('quoridor', 'random'), 'solo.side_random');
  assert.deepEqual(soloOptions('jungle', { minutes: 3, increment: 2 }), { clock: { minutes: 3, increment: 2 } });
  assert.deepEqual(soloOptions('crossyray', null), { clock: null });
  assert.deepEqual(soloOptions('quoridor', { minutes: 3, increment: 2 }), {});
});

test('a move\'s sound comes from its notation: a Quoridor wall, a Jungle capture, else a move', () => {
  assert.equal(moveSound('e3h'), 'wall');
  assert.equal(moveSound('k12v'), 'wall');
  assert.equal(moveSound('7 a4xd4'), 'capture');
  assert.equal(moveSound('8 a3-a4'), 'move');
  assert.equal(moveSound('e5'), 'move');
  assert.equal(moveSound('goal:left'), 'move');
  assert.equal(moveSound('pass'), 'move');
});

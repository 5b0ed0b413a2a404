// Unit tests of the board aids' pure parts: the CrossyRay own goal, the
// Jungle trap ring, the move list's view and notation (no browser).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveState, isOwnGoal, moveText } from '../web/js/crossyray/state.js';
import { deriveState as deriveJungle, isTrapped, terrain, START_PIECES } from '../web/js/jungle/state.js';
import { moveListView } from '../web/js/move-list.js';

// i18n.js reads the browser's language when loaded: give node a navigator.
globalThis.navigator ??= { language: 'en' };
const { dictionaries } = await import('../web/js/i18n.js');

/** A t() over one language's dictionary. */
const tr = (code) => (key, params = {}) =>
  (dictionaries[code][key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));

const players = [{ member: 'm1', name: 'Minh' }, { member: 'm2', name: 'Lan' }];

function crossyMatch(legal, toMove = 0) {
  const cells = new Array(63).fill(0);
  cells[3 * 9 + 1] = 3;
  return {
    players,
    state: { width: 9, height: 7, cells, origin: 'b4', current: 3, to_move: toMove, ply: 2, outcome: null, last_move: 'b4', defends: ['left', 'right'] },
    legal, moves: ['d4', 'b4'],
  };
}

test('CrossyRay: a goal the viewer defends is their own goal; the other is not', () => {
  const s0 = deriveState(crossyMatch(['a4', 'goal:left']), { member: 'm1' });
  assert.equal(s0.goals.find((g) => g.side === 'left').mine, true);
  assert.equal(s0.goals.find((g) => g.side === 'right').mine, false);
  assert.equal(isOwnGoal(s0, 'goal:left'), true);
  assert.equal(isOwnGoal(s0, 'goal:right'), false);
  assert.equal(isOwnGoal(s0, 'a4'), false);
  // Side 1 defends the right goal.
  const s1 = deriveState(crossyMatch([], 1), { member: 'm2' });
  assert.equal(isOwnGoal(s1, 'goal:right'), true);
  assert.equal(isOwnGoal(s1, 'goal:left'), false);
  // A spectator has no own goal.
  const spec = deriveState(crossyMatch([]), { member: 'm9' });
  assert.equal(isOwnGoal(spec, 'goal:left'), false);
});

test('CrossyRay notation for people: "→ left goal" in English and Vietnamese, cells unchanged', () => {
  assert.equal(moveText('goal:left', tr('en')), '→ left goal');
  assert.equal(moveText('goal:bottom', tr('en')), '→ bottom goal');
  assert.equal(moveText('goal:right', tr('vi')), '→ gôn phải');
  assert.equal(moveText('e4', tr('en')), 'e4');
  for (const code of ['en', 'vi']) {
    for (const key of ['board.own_goal_confirm', 'board.ask_own_goal', 'move.goal', 'board.own_goal', 'jungle.trapped']) {
      assert.ok(dictionaries[code][key], `${code} has ${key}`);
    }
  }
  assert.equal(dictionaries.en['board.own_goal_confirm'], 'This is your own goal: you will lose. Play it?');
});

test('Jungle: an enemy animal on one of your traps is marked; your own on your trap, or on theirs, is not', () => {
  assert.equal(isTrapped({ side: 1, rank: 1 }, terrain('c1'), 0), true, 'red rat on a Blue trap, seen by Blue');
  assert.equal(isTrapped({ side: 1, rank: 1 }, terrain('c1'), 1), false, 'Red does not see its own animal marked');
  assert.equal(isTrapped({ side: 1, rank: 1 }, terrain('c1'), null), true, 'a spectator sees it');
  assert.equal(isTrapped({ side: 0, rank: 1 }, terrain('c1'), 0), false, 'own animal on own trap');
  assert.equal(isTrapped({ side: 0, rank: 1 }, terrain('d8'), 0), false, 'your animal on their trap is their business');
  assert.equal(isTrapped({ side: 0, rank: 1 }, terrain('d8'), 1), true);
  assert.equal(isTrapped(null, terrain('c1'), 0), false);
  assert.equal(isTrapped({ side: 1, rank: 1 }, terrain('a5'), 0), false, 'not a trap');
  const pieces = START_PIECES.filter((p) => !(p.side === 1 && p.rank === 1)).concat([{ side: 1, rank: 1, square: 'c1' }]);
  const s = deriveJungle({ players, state: { pieces, to_move: 0, ply: 0 }, legal: [], moves: [] }, { member: 'm1' });
  assert.deepEqual(s.squares.filter((q) => q.trapped).map((q) => q.name), ['c1']);
});

test('move list view: whole numbers past 99, sides, readable notation per game', () => {
  const moves = Array.from({ length: 120 }, (_, i) => (i === 119 ? 'goal:left' : 'e4'));
  const view = moveListView(moves, { game: 'crossyray', t: tr('en') });
  assert.equal(view.length, 120);
  assert.equal(view[0].n, '1.');
  assert.equal(view[99].n, '100.');
  assert.equal(view[119].n, '120.');
  assert.equal(view[119].text, '→ left goal');
  assert.equal(view[119].move, 'goal:left');
  assert.deepEqual(view.slice(0, 3).map((e) => e.side), [0, 1, 0]);
  const q = moveListView(['e2', 'e8', 'e3h'], { game: 'quoridor', sides: [0, 2, 1], t: tr('en') });
  assert.deepEqual(q.map((e) => e.side), [0, 2, 1]);
  const j = moveListView(['8 a3-a4', '7 a4xd4'], { game: 'jungle', t: tr('vi') });
  assert.deepEqual(j.map((e) => e.text), ['🐘 a3-a4', '🦁 a4×d4']);
  assert.deepEqual(j.map((e) => e.animal), ['voi', 'sư tử']);
  assert.deepEqual(j.map((e) => e.move), ['8 a3-a4', '7 a4xd4'], 'the wire notation stays with the entry');
});

// Unit tests of a room's tables (web/js/tables.js): which table the room
// page shows, and how `match` events update the snapshot's tables. Pure
// functions, no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableById, shownTableId, applyMatchEvent } from '../web/js/tables.js';

const T1 = '0193a0b0-0000-7000-8000-000000000001';
const T2 = '0193a0b0-0000-7000-8000-000000000002';
const T3 = '0193a0b0-0000-7000-8000-000000000003';

/** A match as the server sends it, `members` playing sides 0, 1, … */
function match(members, { outcome = null, id = `g-${members.join('-')}` } = {}) {
  const players = members.map((member) => ({ member, name: member, computer: null }));
  return {
    id,
    number: 1,
    players,
    teams: players.map((p) => [p]),
    to_play: outcome ? null : members[0],
    state: { to_move: outcome ? null : 0, ply: 0, outcome },
    legal: [],
    moves: [],
    move_sides: [],
    clock: null,
    outcome,
  };
}

/** The snapshot's `room.tables`. */
function tables(...matches) {
  return matches.map((m, i) => ({ id: [T1, T2, T3][i], match: m, spectators: 0 }));
}

const win = { kind: 'win', winner: 0, reason: 'resign' };

test('an ordinary room has one table, and every page shows it', () => {
  const one = tables(null);
  assert.equal(shownTableId(one, { member: 'm1' }), T1);
  assert.equal(shownTableId(tables(match(['m1', 'm2'])), { member: 'm9' }), T1, 'a spectator too');
  assert.equal(shownTableId([], { member: 'm1' }), null);
  assert.equal(shownTableId(undefined, { member: 'm1' }), null);
  assert.equal(tableById(one, T1), one[0]);
  assert.equal(tableById(one, T2), null);
});

test('a page shows the table where its viewer plays, else keeps the one it showed, else the first', () => {
  const ts = tables(match(['m1', 'm2']), match(['m3', 'm4']), null);
  assert.equal(shownTableId(ts, { member: 'm3' }), T2, 'where the viewer plays');
  assert.equal(shownTableId(ts, { member: 'm3' }, T1), T2, 'a running game of the viewer wins over the table shown so far');
  assert.equal(shownTableId(ts, { member: 'm9' }, T3), T3, 'a spectator keeps the table shown');
  assert.equal(shownTableId(ts, { member: 'm9' }, 'gone'), T1, 'a table that went away: the first');
  assert.equal(shownTableId(ts, { member: 'm9' }), T1);

  // After the game the page stays where it was; a fresh page goes where the viewer played.
  const over = tables(match(['m1', 'm2']), match(['m3', 'm4'], { outcome: win }));
  assert.equal(shownTableId(over, { member: 'm3' }, T2), T2);
  assert.equal(shownTableId(over, { member: 'm3' }, T1), T1, 'a finished game does not pull the page away');
  assert.equal(shownTableId(over, { member: 'm3' }), T2, 'a fresh page shows the viewer\'s last game');
});

test('team players play at their table too', () => {
  const team = match(['m1', 'm2']);
  team.teams = [[team.players[0], { member: 'm5', name: 'm5', computer: null }], [team.players[1]]];
  const ts = tables(match(['m3', 'm4']), team);
  assert.equal(shownTableId(ts, { member: 'm5' }), T2);
});

test('a match event replaces its table\'s match, adds a table not seen before, leaves the others alone', () => {
  const ts = tables(match(['m1', 'm2'], { id: 'a' }), null);
  const other = ts[1];
  const next = match(['m1', 'm2'], { id: 'b' });
  const t1 = applyMatchEvent(ts, { type: 'match', v: 19, table: T1, kind: 'start', match: next });
  assert.equal(t1, ts[0]);
  assert.equal(ts[0].match, next);
  assert.equal(ts[1], other);
  assert.equal(ts[1].match, null, 'the other table is untouched');

  const fresh = match(['m3', 'm4'], { id: 'c' });
  const t3 = applyMatchEvent(ts, { type: 'match', v: 20, table: T3, kind: 'start', match: fresh });
  assert.equal(ts.length, 3);
  assert.deepEqual(t3, { id: T3, match: fresh, spectators: 0 });

  // m3's page moves to the table where m3's game just started; m1's stays.
  assert.equal(shownTableId(ts, { member: 'm3' }, T1), T3);
  assert.equal(shownTableId(ts, { member: 'm1' }, T1), T1);
});

test('a move event appends its move to the match held and takes the rest; a move out of order changes nothing', () => {
  const m = match(['m1', 'm2'], { id: 'g' });
  m.moves = ['e5'];
  m.move_sides = [0];
  m.legal = ['d5'];
  const ts = tables(m, null);
  const state = { last_move: 'e6' };
  const delta = { id: 'g', ply: 2, players: m.players, to_play: 'm1', state, legal: ['e7', 'd6'], clock: null, outcome: null };
  const t = applyMatchEvent(ts, { type: 'match', v: 8, table: T1, kind: 'move', move: 'e6', side: 1, match: delta });
  assert.equal(t, ts[0]);
  assert.deepEqual(ts[0].match.moves, ['e5', 'e6']);
  assert.deepEqual(ts[0].match.move_sides, [0, 1]);
  assert.equal(ts[0].match.state, state);
  assert.deepEqual(ts[0].match.legal, ['e7', 'd6']);
  assert.equal(ts[0].match.to_play, 'm1');
  assert.equal(ts[0].match.number, m.number, 'what a move does not change is kept');
  assert.deepEqual(m.moves, ['e5'], 'the match held before is not mutated');

  // A long legal list is only in the copy of the member due to play.
  const quiet = { ...delta, ply: 3, legal: undefined, to_play: 'm2' };
  applyMatchEvent(ts, { type: 'match', v: 9, table: T1, kind: 'move', move: 'e7', side: 0, match: quiet });
  assert.deepEqual(ts[0].match.legal, []);

  const held = ts[0].match;
  const skipped = { ...delta, ply: 5 };
  assert.equal(applyMatchEvent(ts, { type: 'match', v: 10, table: T1, kind: 'move', move: 'x', side: 1, match: skipped }), null);
  const otherGame = { ...delta, id: 'h', ply: 4 };
  assert.equal(applyMatchEvent(ts, { type: 'match', v: 10, table: T1, kind: 'move', move: 'x', side: 1, match: otherGame }), null);
  assert.equal(ts[0].match, held, 'nothing changed');
});

test('a takeback keeps who asked since the last move; the next move lets them ask again', () => {
  const m = { ...match(['m1', 'm2']), moves: ['e2', 'e8'], move_sides: [0, 1] };
  m.takeback_asked_at = { 0: 2 };
  m.draw_offered_at = { 1: 1 };
  const ts = tables(m);
  const back = { ...match(['m1', 'm2']), id: m.id, moves: [], move_sides: [] };
  applyMatchEvent(ts, { type: 'match', kind: 'takeback', table: T1, match: back });
  assert.deepEqual(ts[0].match.takeback_asked_at, { 0: 0 }, 'side 0 asked since the last move');
  assert.equal(ts[0].match.draw_offered_at, undefined, 'an older offer is forgotten');
  const moved = { ...back, ply: 1, moves: undefined };
  applyMatchEvent(ts, { type: 'match', kind: 'move', table: T1, move: 'e2', side: 0, match: moved });
  assert.equal(ts[0].match.moves.length, 1);
  assert.notEqual(ts[0].match.takeback_asked_at[0], ts[0].match.moves.length, 'may ask again');
});

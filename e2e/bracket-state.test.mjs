// Unit tests of knockout tournaments on the room page (web/js/bracket.js):
// the bracket's view model, what the page shows (the bracket or a table),
// the round's tables after a `tournament` event, the seats a knockout
// room lists; and that every new word has its Vietnamese. Pure functions,
// no browser needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bracketView, nextView, syncTables, visibleSeats, tableSpectators, roundLabel, isKnockoutRoom, isActive, statusOf, pairingAt,
} from '../web/js/bracket.js';

const T = (n) => `0193a0b0-0000-7000-8000-00000000000${n}`;

/** A running (or finished) match as the server sends it, `members` playing sides 0, 1. */
function match(members, { outcome = null, moves = [] } = {}) {
  const players = members.map((member) => ({ member, name: member, computer: null }));
  return { id: `g-${members.join('-')}`, number: 1, players, teams: players.map((p) => [p]), to_play: null, state: { to_move: 0 }, legal: [], moves, move_sides: [], clock: null, outcome };
}

const members = [
  { id: 'm1', name: 'An', seat: 0, online: true, host: true, computer: null },
  { id: 'm2', name: 'Bình', seat: 1, online: true, host: false, computer: null },
  { id: 'm3', name: 'Chi', seat: 2, online: true, host: false, computer: null },
  { id: 'm4', name: 'Dũng', seat: 3, online: true, host: false, computer: null },
  { id: 'm5', name: 'Em', seat: null, online: true, host: false, computer: null },
];
const entrants = members.slice(0, 4).map((m) => ({ member: m.id, name: m.name }));

/** Round 1 of four players: m1-m2 at T1, m3-m4 at T2. */
function roundOne({ first = { kind: 'playing' }, second = { kind: 'playing' }, games1 = [], games2 = [] } = {}) {
  return {
    number: 1,
    pairings: [
      { table: T(1), players: ['m1', 'm2'], games: games1, state: first },
      { table: T(2), players: ['m3', 'm4'], games: games2, state: second },
    ],
    bye: null,
  };
}

test('a round under way: two matches, the viewer\'s first, the final still to be drawn', () => {
  const tournament = { entrants, rounds: [roundOne()], byes: [], status: { kind: 'playing' } };
  const tables = [{ id: T(1), match: match(['m1', 'm2'], { moves: ['a1', 'b2'] }), spectators: 3 }, { id: T(2), match: match(['m3', 'm4']), spectators: 3 }];
  const v = bracketView(tournament, { members, tables, you: { member: 'm4' } });
  assert.equal(v.status, 'playing');
  assert.equal(v.active, true);
  assert.equal(v.round, 1);
  assert.equal(v.rounds.length, 2, 'round 1 and the final to come');
  const [r1, final] = v.rounds;
  assert.deepEqual(r1.label, { kind: 'semi', number: 1 });
  assert.equal(r1.current, true);
  assert.deepEqual(r1.matches.map((m) => m.table), [T(2), T(1)], 'the viewer\'s own match first');
  assert.equal(r1.matches[0].mine, true);
  assert.equal(r1.matches[0].players[1].you, true);
  assert.equal(r1.matches[1].state, 'playing');
  assert.equal(r1.matches[1].moves, 2);
  assert.equal(r1.matches[1].watchable, true);
  assert.deepEqual(r1.matches[1].players.map((p) => p.name), ['An', 'Bình']);
  assert.equal(r1.matches[1].spectators, 3, 'online people not playing there: Chi, Dũng, Em');
  assert.deepEqual(final, { number: 2, players: 2, label: { kind: 'final', number: 2 }, current: false, matches: [], bye: null, planned: true });
  assert.equal(v.mine.table, T(2));
  assert.equal(v.entered, true);
  assert.equal(v.out, false);
  assert.equal(v.champion, null);
  assert.equal(bracketView(null, {}), null);
});

test('a match whose table has no game yet is waiting; results, replays and coin tosses', () => {
  const tournament = {
    entrants,
    rounds: [roundOne({
      first: { kind: 'won', winner: 'm2' }, games1: [{ kind: 'draw' }, { kind: 'win', winner: 'm2' }],
      second: { kind: 'coin_toss', winner: 'm3' }, games2: [{ kind: 'draw' }, { kind: 'draw' }],
    })],
    byes: [],
    status: { kind: 'between_rounds' },
  };
  const tables = [{ id: T(1), match: match(['m2', 'm1'], { outcome: { kind: 'win', winner: 0 } }) }, { id: T(2), match: match(['m4', 'm3'], { outcome: { kind: 'draw' } }) }];
  const v = bracketView(tournament, { members, tables, you: { member: 'm1' } });
  assert.equal(v.status, 'between_rounds');
  const [won, coin] = v.rounds[0].matches;
  assert.equal(won.state, 'won');
  assert.equal(won.winner, 'm2');
  assert.equal(won.draws, 1);
  assert.deepEqual(won.players.map((p) => [p.member, p.wins, p.winner, p.loser]), [['m1', 0, false, true], ['m2', 1, true, false]]);
  assert.equal(won.running, false);
  assert.equal(won.watchable, true, 'a finished board of the current round can still be opened');
  assert.equal(coin.state, 'coin_toss');
  assert.equal(coin.winner, 'm3');
  assert.deepEqual(coin.players.map((p) => p.wins), [0, 0]);
  assert.equal(coin.first, 'm3', 'two draws: back to the first order');
  assert.equal(v.out, true, 'm1 lost');
  assert.equal(v.rounds[1].planned, true, 'between rounds the final is still to be drawn');

  const fresh = { entrants, rounds: [roundOne()], byes: [], status: { kind: 'playing' } };
  const waiting = bracketView(fresh, { members, tables: [{ id: T(1), match: null }], you: { member: 'm5' } });
  assert.deepEqual(waiting.rounds[0].matches.map((m) => [m.state, m.watchable]), [['waiting', false], ['waiting', false]]);
  assert.equal(waiting.entered, false);
  assert.equal(waiting.mine, null);
  const replay = { entrants, rounds: [roundOne({ games1: [{ kind: 'draw' }] })], byes: [], status: { kind: 'playing' } };
  const r = bracketView(replay, { members, tables: [{ id: T(1), match: match(['m2', 'm1']) }], you: null });
  assert.equal(r.rounds[0].matches[0].state, 'playing');
  assert.equal(r.rounds[0].matches[0].first, 'm2', 'the replay swaps who moves first');
});

test('byes, the champion, a stopped tournament, names of players who left', () => {
  const three = [...entrants.slice(0, 3)];
  const tournament = {
    entrants: three,
    rounds: [
      { number: 1, pairings: [{ table: T(1), players: ['m1', 'm2'], games: [{ kind: 'win', winner: 'm1' }], state: { kind: 'won', winner: 'm1' } }], bye: 'm3' },
      { number: 2, pairings: [{ table: T(2), players: ['m3', 'm1'], games: [{ kind: 'win', winner: 'm3' }], state: { kind: 'won', winner: 'm3' } }], bye: null },
    ],
    byes: ['m3'],
    status: { kind: 'finished', champion: 'm3' },
  };
  const v = bracketView(tournament, { members: members.filter((m) => m.id !== 'm3'), tables: [], you: { member: 'm3' } });
  assert.equal(v.active, false);
  assert.equal(v.rounds.length, 2, 'no rounds to come');
  assert.ok(v.rounds.every((r) => !r.current), 'a finished tournament has no round under way');
  assert.deepEqual(v.rounds[0].label, { kind: 'semi', number: 1 });
  assert.deepEqual(v.rounds[0].bye, { member: 'm3', name: 'Chi', computer: null, you: true }, 'a name from the entrants when the member left');
  assert.deepEqual(v.rounds[1].label, { kind: 'final', number: 2 });
  assert.equal(v.champion.member, 'm3');
  assert.equal(v.rounds[0].matches[0].spectators, null, 'no spectators for an old round (its table is gone)');
  assert.equal(v.rounds[0].matches[0].watchable, false);
  assert.equal(v.rounds[1].matches[0].watchable, false, 'the final\'s table is not known here');
  const open = bracketView(tournament, { members, tables: [{ id: T(2), match: match(['m3', 'm1'], { outcome: { kind: 'win', winner: 0 } }) }], you: null });
  assert.equal(open.rounds[1].matches[0].watchable, true, 'the final\'s board stays open after the tournament');
  assert.equal(open.rounds[1].matches[0].spectators, 3);

  const stopped = bracketView({ ...tournament, rounds: tournament.rounds.slice(0, 1), status: { kind: 'stopped' } }, { members, you: { member: 'm2' } });
  assert.equal(stopped.status, 'stopped');
  assert.equal(stopped.champion, null);
  assert.equal(stopped.rounds.length, 1, 'nothing planned after a stop');
  assert.equal(stopped.out, true);
});

test('rounds to come: their sizes follow the winners and the byes', () => {
  const many = Array.from({ length: 11 }, (_, i) => ({ member: `p${i}`, name: `P${i}` }));
  const pairings = Array.from({ length: 5 }, (_, i) => ({ table: `t${i}`, players: [`p${2 * i}`, `p${2 * i + 1}`], games: [], state: { kind: 'playing' } }));
  const v = bracketView({ entrants: many, rounds: [{ number: 1, pairings, bye: 'p10' }], byes: ['p10'], status: { kind: 'playing' } }, {});
  assert.deepEqual(v.rounds.map((r) => [r.number, r.players, r.label.kind, r.planned]), [
    [1, 11, 'round', false], [2, 6, 'round', true], [3, 3, 'semi', true], [4, 2, 'final', true],
  ]);
  assert.deepEqual(roundLabel(5, 32), { kind: 'round', number: 5 });
});

test('the page shows your running game, else the bracket; a game that starts where you play pulls you there', () => {
  const tables = [{ id: T(1), match: match(['m1', 'm2']) }, { id: T(2), match: match(['m3', 'm4']) }];
  assert.deepEqual(nextView(null, tables, { member: 'm3' }), { kind: 'table', id: T(2) }, 'a player sees their own match');
  assert.deepEqual(nextView(null, tables, { member: 'm5' }), { kind: 'bracket' }, 'a spectator sees the bracket');
  assert.deepEqual(nextView({ kind: 'bracket' }, tables, { member: 'm3' }), { kind: 'bracket' }, 'a player who chose the bracket keeps it');
  assert.deepEqual(nextView({ kind: 'table', id: T(1) }, tables, { member: 'm5' }), { kind: 'table', id: T(1) }, 'a watcher keeps the table');
  assert.deepEqual(nextView({ kind: 'table', id: T(9) }, tables, { member: 'm5' }), { kind: 'bracket' }, 'a table gone: back to the bracket');
  assert.deepEqual(nextView({ kind: 'table', id: T(9) }, tables, { member: 'm1' }), { kind: 'table', id: T(1) });
  assert.deepEqual(nextView({ kind: 'bracket' }, tables, { member: 'm1' }, T(1)), { kind: 'table', id: T(1) }, 'your new game is shown');
  assert.deepEqual(nextView({ kind: 'table', id: T(2) }, tables, { member: 'm5' }, T(1)), { kind: 'table', id: T(2) }, 'another table\'s start moves nobody');
  const over = [{ id: T(1), match: match(['m1', 'm2'], { outcome: { kind: 'win', winner: 0 } }) }];
  assert.deepEqual(nextView(null, over, { member: 'm1' }), { kind: 'bracket' }, 'a finished game: the bracket on a fresh page');
  assert.deepEqual(nextView({ kind: 'table', id: T(1) }, over, { member: 'm2' }), { kind: 'table', id: T(1) }, 'the loser keeps seeing the result');
});

test('a tournament event keeps the round\'s tables (with their games), adds new ones, drops the old', () => {
  const old = [{ id: T(1), match: match(['m1', 'm2']), spectators: 2 }, { id: T(2), match: null, spectators: 0 }];
  const round = { number: 2, pairings: [{ table: T(3), players: ['m1', 'm3'], games: [], state: { kind: 'playing' } }], bye: null };
  assert.deepEqual(syncTables(old, { entrants, rounds: [round], byes: [], status: { kind: 'playing' } }), [{ id: T(3), match: null, spectators: 0 }]);
  const same = syncTables(old, { entrants, rounds: [roundOne()], byes: [], status: { kind: 'playing' } });
  assert.equal(same[0], old[0], 'the same table object, its game kept');
  assert.equal(same.length, 2);
  assert.deepEqual(syncTables(old, null), [], 'no tournament: the room\'s own table comes back with its game');
  assert.equal(pairingAt({ rounds: [roundOne()] }, T(2)).pairing.players[0], 'm3');
  assert.equal(pairingAt({ rounds: [roundOne()] }, T(5)), null);
});

test('a knockout room lists its occupied seats and the lowest free one; others every seat', () => {
  assert.deepEqual(visibleSeats(32, [], true), [0]);
  assert.deepEqual(visibleSeats(32, members, true), [0, 1, 2, 3, 4]);
  assert.deepEqual(visibleSeats(32, [{ seat: 0 }, { seat: 3 }, { seat: null }], true), [0, 1, 3], 'a gap is the free seat');
  const full = Array.from({ length: 32 }, (_, i) => ({ seat: i }));
  assert.equal(visibleSeats(32, full, true).length, 32, 'no free seat past 32');
  assert.deepEqual(visibleSeats(2, [], false), [0, 1]);
});

test('status helpers and spectators', () => {
  assert.equal(isKnockoutRoom({ options: { mode: 'knockout' } }), true);
  assert.equal(isKnockoutRoom({ options: { mode: 'single' }, tournament: { status: { kind: 'finished' } } }), true, 'the last tournament stays shown');
  assert.equal(isKnockoutRoom({ options: { mode: 'ffa' }, tournament: null }), false);
  assert.equal(isActive({ status: { kind: 'between_rounds' } }), true);
  assert.equal(isActive({ status: { kind: 'stopped' } }), false);
  assert.equal(isActive(null), false);
  assert.equal(statusOf(null), null);
  const bot = { id: 'c1', name: null, seat: 4, online: true, computer: 'beginner' };
  const off = { id: 'm6', name: 'Gia', seat: 5, online: false, computer: null };
  assert.equal(tableSpectators({ match: match(['m1', 'm2']) }, [...members, bot, off]), 3, 'not the players, the computer or someone offline');
});

test('every word of the page has its Vietnamese', async () => {
  globalThis.navigator ??= { language: 'en' };
  globalThis.localStorage ??= { getItem: () => null, setItem() {} };
  const { dictionaries } = await import('../web/js/i18n.js');
  const missing = Object.keys(dictionaries.en).filter((k) => !(k in dictionaries.vi));
  assert.deepEqual(missing, []);
  for (const k of Object.keys(dictionaries.en).filter((x) => x.startsWith('ko.') || x.startsWith('mode.'))) {
    const names = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(names(dictionaries.vi[k]), names(dictionaries.en[k]), `${k}: the same placeholders`);
  }
});

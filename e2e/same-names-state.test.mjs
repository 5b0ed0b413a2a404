// Unit test of the room model's sameNames (web/js/room/model.js) and the
// names people.js shows with it (pure, no browser): two people of the
// room shown under one name (two guests "Minh", the server keeps a
// scoreboard row each) are told apart, "Minh" and "Minh (2)", the later
// one in member-id order numbered, the same way on the player cards, the
// turn and result lines, the scoreboard, the chat, the host's notices and
// the list of removed members.

import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
if (!globalThis.navigator) globalThis.navigator = { language: 'en' };
const { setLang } = await import('../web/js/i18n.js');
const { sameNames } = await import('../web/js/room/model.js');
const { apartName, whoName, personName, noticeLine } = await import('../web/js/room/people.js');

const member = (id, name, more = {}) => ({ id, name, seat: null, online: true, host: false, computer: null, account: null, rating: null, ...more });

function room() {
  return {
    members: [member('m10', 'Minh', { seat: 1 }), member('m2', 'Minh', { seat: 0 }), member('m3', 'Lan'),
      member('m4', 'Computer (Beginner)', { computer: 'beginner' }), member('m5', 'Vy', { account: 'vy_1' })],
    tables: [{ id: 't', match: { players: [{ member: 'm2', name: 'Minh', computer: null }, { member: 'm10', name: 'Minh', computer: null }], teams: null } }],
    scores: [
      { name: 'Minh', member: 'm10', account: null, points: 1 },
      { name: 'Minh', member: 'm2', account: null, points: 0 },
      { name: 'Vy', member: null, account: 'vy_1', points: 0 },
      { name: 'Lan', member: null, account: 'lan_99', points: 0 },
    ],
    chat: [{ from: 'Minh', member: 'm10', text: 'hi' }, { from: 'Minh', member: 'm2', text: 'chào' }, { notice: { key: 'x' } }],
  };
}

test('people sharing a name are numbered in member-id order; the first keeps the name', () => {
  const number = sameNames(room());
  assert.equal(number('m2', 'Minh'), null, 'm2 joined first');
  assert.equal(number('m10', 'Minh'), 2, 'm10 after m2 (by number, not as text)');
  assert.equal(number('m3', 'Lan'), null, 'Lan, a member, is first');
  assert.equal(number('@lan_99', 'Lan'), 2, 'an account\'s row without a member is another person');
  assert.equal(number('m5', 'Vy'), null, 'an account\'s row is its signed-in member: one person');
  assert.equal(number('m4', 'Computer (Beginner)'), null);
});

test('a departed namesake still counts: a chat line under an old name', () => {
  const full = room();
  // (Each room a new object, as the model's transitions make them: sameNames remembers by room.)
  const r = { ...full, members: full.members.filter((m) => m.id !== 'm2'), tables: [], scores: [] };
  assert.equal(sameNames(r)('m10', 'Minh'), 2, 'm2\'s chat line is still there, as Minh');
  const alone = { ...r, chat: [] };
  assert.equal(sameNames(alone)('m10', 'Minh'), null, 'alone with the name');
  assert.equal(sameNames(alone).key, '[]');
});

test('a member the host removed counts too, and the host\'s notices name people told apart', () => {
  setLang('en');
  const full = room();
  // m2 removed: gone from the members, its game and rows forgotten, no chat line.
  const r = { ...full, members: full.members.filter((m) => m.id !== 'm2'), tables: [], scores: [], chat: [], removed: [{ member: 'm2', name: 'Minh' }] };
  assert.equal(sameNames(r)('m2', 'Minh'), null);
  assert.equal(sameNames(r)('m10', 'Minh'), 2, 'the removed namesake joined first');
  const model = { room: r, you: { member: 'm3' } };
  assert.equal(noticeLine({ key: 'notice.removed', name: 'Minh', member: 'm10' }, model), 'The host removed Minh (2) from the room.');
  assert.equal(noticeLine({ key: 'notice.removed', name: 'Minh', member: 'm2' }, model), 'The host removed Minh from the room.');
  assert.equal(noticeLine({ key: 'notice.host', name: 'Lan', member: 'm3' }, model), 'Lan is the host now.');
});

test('the key changes only when a number does', () => {
  const a = room();
  const b = { ...a, chat: [...a.chat, { from: 'Minh', member: 'm2', text: 'again' }] };
  assert.equal(sameNames(a).key, sameNames(b).key);
  const c = { ...a, members: [...a.members, member('m11', 'Lan')] };
  assert.notEqual(sameNames(a).key, sameNames(c).key);
});

test('the page\'s names: cards, turn and result (players), scoreboard, chat and notices', () => {
  setLang('en');
  const model = { room: room(), you: { member: 'm2' } };
  const [p0, p1] = model.room.tables[0].match.players;
  assert.equal(whoName(model, p0), 'Minh');
  assert.equal(whoName(model, p1), 'Minh (2)');
  assert.equal(whoName(model, model.room.members[0]), 'Minh (2)', 'a member by its id');
  assert.equal(whoName(model, model.room.members[3]), 'Computer (Beginner)', 'the computer as the server numbers it');
  assert.equal(apartName(model, 'm10', 'Minh'), 'Minh (2)', 'the scoreboard row and the chat line of m10');
  assert.equal(personName(model, 'm10'), 'Minh (2)');
  assert.equal(noticeLine({ key: 'draw.offered', who: p1 }, model), 'Minh (2) offers a draw.');
  setLang('vi');
  assert.equal(whoName(model, p1), 'Minh (2)');
  setLang('en');
});

test('the bracket names its players as the room does (its players carry member, name, computer)', async () => {
  setLang('en');
  const { bracketView } = await import('../web/js/bracket.js');
  const { statusText } = await import('../web/js/bracket-view.js');
  const r = room();
  r.tournament = {
    entrants: [{ member: 'm2', name: 'Minh' }, { member: 'm10', name: 'Minh' }],
    rounds: [{ number: 1, label: 'final', pairings: [{ table: 't', players: ['m2', 'm10'], games: [{ kind: 'win', winner: 'm10' }], state: { kind: 'won', winner: 'm10' } }], bye: null }],
    byes: [],
    status: { kind: 'finished', champion: 'm10' },
  };
  const model = { room: r, you: { member: 'm3' } };
  const bv = bracketView(r.tournament, { members: r.members, tables: r.tables, you: model.you });
  const names = bv.rounds.flatMap((x) => x.matches.flatMap((m) => m.players.map((p) => whoName(model, p))));
  assert.deepEqual(names, ['Minh', 'Minh (2)']);
  assert.match(statusText(bv, { nameOf: (p) => whoName(model, p) }), /Minh \(2\)/);
});

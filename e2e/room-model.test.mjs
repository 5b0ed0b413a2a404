// The room page's model (web/js/room/model.js), fed the frames a real
// server sent during a Jungle game (fixtures/room-frames.json, recorded
// by record-room-frames.mjs): every transition is pure (the model it is
// given is frozen here, so a change would throw), and the model after
// each frame says what the page shows: seats, turn, clocks, moves, chat
// and the room's own lines, the draw offer, the outcome, scores, the
// countdown, the rematch; a reconnect's snapshot replaces it all. No
// browser, no server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  initialModel, apply, me, shownMatch, mySide, isHost, anyRunning, locked, clockLeft, countdownLeft,
  watchTable, showBracket, namedLocally, editName, chatRead, offeredSinceMove, CHAT_KEEP,
} from '../web/js/room/model.js';
import { factsOf, isMatchOf, isGame, GAME_NAMES, FORM_ORDER, UnknownGame } from '../web/js/games/facts.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/room-frames.json', import.meta.url), 'utf8'));
const { frames, reconnect, host, guest } = fixture;

function deepFreeze(x) {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

/** Every model from the initial one through `msgs`, each transition given a frozen model. */
function replay(msgs, env = () => ({})) {
  const models = [initialModel()];
  msgs.forEach((msg, i) => {
    const before = deepFreeze(structuredClone(models.at(-1)));
    models.push(apply(before, structuredClone(msg), { at: i * 1000, ...env(msg, i) }));
  });
  return models;
}

const byType = (type, kind) => frames.findIndex((f) => f.type === type && (kind == null || f.kind === kind));
const afterFrame = (models, i) => models[i + 1];

test('the recording is a whole game: snapshot, seats, chat, start, moves, draw, end, scores, countdown, rematch', () => {
  assert.deepEqual(frames.map((f) => f.type + (f.kind ? `/${f.kind}` : '')), [
    'snapshot', 'members', 'members', 'members', 'chat', 'match/start', 'match/move', 'match/move', 'match/move',
    'match/move', 'draw/offer', 'draw/decline', 'match/end', 'scores', 'autostart', 'rematch',
  ]);
});

test('before the snapshot there is nothing to draw, and events change nothing', () => {
  const m = initialModel();
  assert.equal(m.room, null);
  assert.equal(apply(m, frames[1]), m);
});

test('the snapshot gives the room, the viewer and the table shown; no game yet', () => {
  const [, m] = replay(frames.slice(0, 1));
  assert.equal(m.you.member, host);
  assert.equal(m.room.game, 'jungle');
  assert.equal(m.tableId, m.room.tables[0].id);
  assert.equal(shownMatch(m), null);
  assert.ok(isHost(m));
  assert.equal(anyRunning(m), false);
  assert.deepEqual(m.effects, [{ kind: 'snapshot' }]);
});

test('members events seat the players and keep the viewer\'s own name and host flag', () => {
  const models = replay(frames);
  const m = afterFrame(models, 3);
  assert.deepEqual(m.room.members.map((x) => [x.id, x.seat]), [[host, 0], [guest, 1]]);
  assert.equal(me(m).name, 'Minh');
  assert.equal(m.you.host, true);
  assert.equal(m.room.spectators, frames[3].spectators);
});

test('a chat line is kept, and counts as unread only while the drawer is closed', () => {
  const i = byType('chat');
  const open = afterFrame(replay(frames), i);
  assert.deepEqual(open.room.chat.map((c) => c.text), ['xin chào']);
  assert.equal(open.chatUnread, 0);
  const closed = afterFrame(replay(frames, (msg) => ({ drawerClosed: msg.type === 'chat' })), i);
  assert.equal(closed.chatUnread, 1);
  assert.equal(chatRead(closed).chatUnread, 0);
});

test('the start shows the game, its clocks, whose turn it is, and locks seats and options', () => {
  const i = byType('match', 'start');
  const models = replay(frames);
  const m = afterFrame(models, i);
  const match = shownMatch(m);
  assert.ok(isMatchOf('jungle', match));
  assert.equal(mySide(m), 0);
  assert.equal(match.to_play, host);
  assert.ok(locked(m));
  assert.deepEqual(m.clock.remaining, frames[i].match.clock.remaining_ms);
  assert.equal(m.clock.running, 0);
  assert.equal(m.clock.at, i * 1000);
  // The running clock counts down from the time of the event.
  assert.equal(clockLeft(m, 0, i * 1000 + 1500), frames[i].match.clock.remaining_ms[0] - 1500);
  assert.equal(clockLeft(m, 1, i * 1000 + 1500), frames[i].match.clock.remaining_ms[1]);
  assert.equal(m.countdown, null);
  assert.deepEqual(m.room.rematch, []);
  assert.deepEqual(m.effects.map((e) => e.kind), ['cue']);
});

test('each move appends to the move list and hands the turn and the clock over', () => {
  const models = replay(frames);
  const moves = frames.filter((f) => f.kind === 'move');
  const i = byType('match', 'move');
  moves.forEach((ev, k) => {
    const m = afterFrame(models, i + k);
    const match = shownMatch(m);
    assert.deepEqual(match.moves, moves.slice(0, k + 1).map((x) => x.move));
    assert.deepEqual(match.move_sides, moves.slice(0, k + 1).map((x) => x.side));
    assert.equal(match.to_play, ev.match.to_play);
    assert.equal(m.clock.running, ev.match.clock.running);
    assert.deepEqual(m.effects, [{ kind: 'cue', ev, match }]);
  });
});

test('a draw offered shows on the table and in the log; the other side declining says so in a toast', () => {
  const models = replay(frames);
  const offer = afterFrame(models, byType('draw', 'offer'));
  assert.equal(shownMatch(offer).draw_offer, 0);
  assert.deepEqual(offer.room.chat.at(-1), { notice: { key: 'draw.offered', who: offer.room.members[0] } });
  // One's own offer is not toasted to oneself.
  assert.deepEqual(offer.effects, []);
  const decline = afterFrame(models, byType('draw', 'decline'));
  assert.equal(shownMatch(decline).draw_offer, null);
  const line = { key: 'draw.declined', who: decline.room.members[1] };
  assert.deepEqual(decline.room.chat.at(-1), { notice: line });
  assert.deepEqual(decline.effects, [{ kind: 'toast', ...line, code: 'draw_decline' }]);
});

test('a side that offered a draw may not offer again before the next move, declined or not', () => {
  const models = replay(frames);
  const i = byType('draw', 'offer');
  assert.equal(offeredSinceMove(shownMatch(models[i]), 0), false, 'before the offer');
  assert.equal(offeredSinceMove(shownMatch(afterFrame(models, i)), 0), true, 'the offer stands');
  const declined = afterFrame(models, byType('draw', 'decline'));
  assert.equal(offeredSinceMove(shownMatch(declined), 0), true, 'declined: not again before a move');
  assert.equal(offeredSinceMove(shownMatch(declined), 1), false, 'the other side has not offered');
  // The next move (the last one recorded, played again as the next ply) frees the offer.
  const move = structuredClone(frames[i - 1]);
  move.match.ply = shownMatch(declined).moves.length + 1;
  const moved = apply(deepFreeze(structuredClone(declined)), move, { at: 0 });
  assert.equal(shownMatch(moved).moves.length, move.match.ply);
  assert.equal(offeredSinceMove(shownMatch(moved), 0), false, 'after the next move');
});

test('the end gives the outcome and stops the clocks; scores, countdown and rematch follow', () => {
  const models = replay(frames);
  const end = afterFrame(models, byType('match', 'end'));
  const match = shownMatch(end);
  assert.deepEqual(match.outcome, frames[byType('match', 'end')].match.outcome);
  assert.equal(match.outcome.kind, 'win');
  assert.equal(match.outcome.winner, 0);
  assert.equal(end.clock.running, null);
  assert.equal(anyRunning(end), false);
  const last = models.at(-1);
  assert.deepEqual(last.room.scores.map((s) => [s.member, s.points]), [[host, 1], [guest, 0]]);
  const at = byType('autostart') * 1000;
  assert.deepEqual(last.countdown, { remaining: 30000, paused: false, at });
  assert.equal(countdownLeft(last, at + 4000), 26000);
  assert.deepEqual(last.room.rematch, [guest]);
});

test('the snapshot of a page that comes back replaces the whole state', () => {
  const models = replay([...frames, reconnect]);
  const before = models.at(-2);
  const after = models.at(-1);
  // The room's own lines were the page's: the server's log has people's lines only.
  assert.ok(before.room.chat.some((c) => c.notice));
  assert.deepEqual(after.room.chat, reconnect.room.chat);
  assert.deepEqual(after.room.tables, reconnect.room.tables);
  assert.deepEqual(after.room.scores, reconnect.room.scores);
  assert.deepEqual(shownMatch(after).moves, shownMatch(before).moves);
  assert.deepEqual(after.room.rematch, reconnect.room.rematch);
  assert.equal(after.countdown?.remaining ?? null, reconnect.room.autostart?.remaining_ms ?? null);
});

test('a move that does not follow the match held asks for a resync and changes nothing else', () => {
  const models = replay(frames);
  const m = afterFrame(models, byType('match', 'move'));
  const again = frames[byType('match', 'move')];
  const next = apply(deepFreeze(structuredClone(m)), again);
  assert.deepEqual(next.effects, [{ kind: 'resync' }]);
  assert.deepEqual(next.room, m.room);
});

test('an event the page has nothing to do with leaves nothing to do: the last effects are not done again', () => {
  const m = afterFrame(replay(frames), byType('match', 'move'));
  assert.equal(m.effects.length, 1);
  const next = apply(deepFreeze(structuredClone(m)), { type: 'something_newer', v: 99 });
  assert.deepEqual(next.effects, []);
  assert.deepEqual(next.room, m.room);
});

test('a chat log keeps its last lines only', () => {
  const [, m] = replay(frames.slice(0, 1));
  let x = m;
  for (let i = 0; i < CHAT_KEEP + 5; i += 1) x = apply(x, { type: 'chat', message: { from: 'Lan', text: `${i}` } });
  assert.equal(x.room.chat.length, CHAT_KEEP);
  assert.equal(x.room.chat.at(-1).text, `${CHAT_KEEP + 4}`);
});

test('page actions: a table opened from the bracket and back, the name set here before its event', () => {
  const m = afterFrame(replay(frames), byType('match', 'move'));
  const id = m.room.tables[0].id;
  const bracket = showBracket(deepFreeze(structuredClone(m)));
  assert.deepEqual([bracket.view, bracket.tableId], [{ kind: 'bracket' }, null]);
  const back = watchTable(deepFreeze(bracket), id, 5000);
  assert.equal(back.tableId, id);
  assert.equal(back.clock.at, 5000);
  const editing = editName(deepFreeze(structuredClone(m)), true);
  assert.equal(editing.editingName, true);
  const named = namedLocally(deepFreeze(editing), 'Minh Anh');
  assert.equal(me(named).name, 'Minh Anh');
  assert.equal(named.you.name, 'Minh Anh');
  assert.equal(named.editingName, false);
});

test('the games are a closed list: an unknown game is an error, not CrossyRay', () => {
  assert.deepEqual([...GAME_NAMES].sort(), [...FORM_ORDER].sort());
  for (const g of GAME_NAMES) assert.equal(factsOf(g).name, g);
  assert.equal(isGame('chess'), false);
  assert.throws(() => factsOf('chess'), (err) => err instanceof UnknownGame && err.game === 'chess' && /unknown game "chess"/.test(err.message));
  assert.throws(() => isMatchOf('chess', shownMatch(afterFrame(replay(frames), byType('match', 'start')))), UnknownGame);
  assert.equal(isMatchOf('quoridor', { state: { pieces: [] } }), false);
  assert.equal(isMatchOf('jungle', { state: { pieces: [] } }), true);
});

test('redraws are batched: one draw a frame, only for the panels whose slice changed; a panel that throws stops no other', async () => {
  const frameQueue = [];
  globalThis.requestAnimationFrame = (fn) => frameQueue.push(fn);
  const { createScheduler } = await import('../web/js/room/scheduler.js');
  const drawn = [];
  const errors = [];
  let m = { room: { chat: [], scores: [] } };
  const panel = (name, slice) => ({ name, slice, draw: () => drawn.push(name) });
  const broken = { name: 'broken', slice: (x) => [x.room.scores], draw: () => { throw new Error('boom'); } };
  const s = createScheduler([panel('chat', (x) => [x.room.chat]), broken, panel('scores', (x) => [x.room.scores])], () => m, (err) => errors.push(err.message));
  s.schedule();
  s.schedule();
  assert.equal(frameQueue.length, 1, 'one frame asked for, however many events');
  frameQueue.shift()();
  assert.deepEqual(drawn, ['chat', 'scores']);
  assert.deepEqual(errors, ['boom']);
  m = { room: { ...m.room, chat: [{ text: 'hi' }] } };
  s.schedule();
  frameQueue.shift()();
  assert.deepEqual(drawn, ['chat', 'scores', 'chat'], 'only the chat changed');
  s.redrawAll();
  assert.deepEqual(drawn.slice(3), ['chat', 'scores'], 'the language changed: every panel, at once');
  // A hidden tab gets no frames: a timer draws instead.
  m = { room: { ...m.room, scores: [{ points: 1 }] } };
  s.schedule();
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(drawn.slice(5), ['scores']);
  frameQueue.shift()();
  assert.deepEqual(drawn.slice(5), ['scores'], 'the late frame draws nothing again');
  delete globalThis.requestAnimationFrame;
});

test('a page loaded after its offer was declined knows from the snapshot to wait for the next move', () => {
  // The recorded snapshot, its table given the match the game's start brought.
  const snap = structuredClone(frames.find((f) => f.type === 'snapshot'));
  const start = frames.find((f) => f.type === 'match' && f.kind === 'start');
  snap.room.tables = [{ id: start.table, match: structuredClone(start.match), spectators: 0 }];
  const fresh = apply(initialModel(), structuredClone(snap), { at: 0 });
  assert.equal(offeredSinceMove(shownMatch(fresh), 0), false, 'nobody asked');
  for (const x of snap.room.tables) if (x.match) { x.match.draw_asked = [0]; x.match.takeback_asked = [1]; }
  const loaded = apply(initialModel(), snap, { at: 0 });
  assert.equal(offeredSinceMove(shownMatch(loaded), 0), true, 'side 0 offered since the last move');
  assert.equal(offeredSinceMove(shownMatch(loaded), 1), false);
});

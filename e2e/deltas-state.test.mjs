// Move events carry only what a move changed (docs/PROTOCOL.md). For
// every game, the client's own state module (web/js/tables.js), fed the
// real server's events over a WebSocket, ends with the match a fresh
// snapshot shows. No browser: node and the `ws` package.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startSite } from './harness.mjs';
import { applyMatchEvent, tableById } from '../web/js/tables.js';

let site;
before(async () => { site = await startSite({ tag: 'deltas' }); });
after(async () => { await site?.stop(); });

/** A socket that answers commands and keeps the events it receives. */
async function connect(code) {
  const ws = new WebSocket(`${site.base.replace('http', 'ws')}/ws/${code}`, { origin: site.base });
  const inbox = [];
  const waiters = [];
  ws.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()));
    while (waiters.length) waiters.shift()();
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const client = {
    /** The first message kept that `pick` accepts (waiting for it), removed. */
    async take(pick) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const i = inbox.findIndex(pick);
        if (i >= 0) return inbox.splice(i, 1)[0];
        assert.ok(Date.now() < deadline, 'a message within 10 s');
        await new Promise((r) => { waiters.push(r); setTimeout(r, 200); });
      }
    },
    async command(cmd) {
      id += 1;
      const mine = id;
      ws.send(JSON.stringify({ ...cmd, id: mine }));
      const answer = await client.take((m) => (m.type === 'ack' || m.type === 'error') && m.id === mine);
      assert.equal(answer.type, 'ack', `${cmd.type}: ${JSON.stringify(answer)}`);
      return answer;
    },
    /** The next match event, applied to `tables` as the room page does. */
    async follow(tables) {
      const ev = await client.take((m) => m.type === 'match');
      assert.ok(applyMatchEvent(tables, ev), `the event follows the match held: ${JSON.stringify(ev)}`);
      return ev;
    },
    close: () => ws.close(),
  };
  return client;
}

async function join(code, token, name) {
  const c = await connect(code);
  const ack = await c.command({ type: 'hello', token, name });
  const snapshot = await c.take((m) => m.type === 'snapshot');
  return { c, member: ack.member, snapshot };
}

/**
 * A match as it can be compared: no long legal list, no running time, and
 * not the lists a Jungle state repeats from the match (`moves`,
 * `legal_moves`: a move event's state leaves them out).
 */
function comparable(m) {
  const copy = structuredClone(m);
  delete copy.legal;
  if (copy.state) {
    delete copy.state.moves;
    delete copy.state.legal_moves;
  }
  if (copy.clock?.running != null) copy.clock.remaining_ms[copy.clock.running] = null;
  return copy;
}

async function followedEqualsSnapshot(game, options) {
  const res = await fetch(`${site.base}/api/rooms`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game, options }),
  });
  const room = await res.json();
  assert.equal(res.status, 201, JSON.stringify(room));
  const host = await join(room.code, room.token, 'Minh');
  const guest = await join(room.code, null, 'Lan');
  const watcher = await join(room.code, null, null);
  await host.c.command({ type: 'sit', seat: 0 });
  await guest.c.command({ type: 'sit', seat: 1 });
  const held = new Map([[host, host.snapshot.room.tables], [guest, guest.snapshot.room.tables], [watcher, watcher.snapshot.room.tables]]);
  await host.c.command({ type: 'start', order: 'seats' });
  for (const [p, tables] of held) await p.c.follow(tables);
  const tableId = held.get(watcher)[0].id;
  const current = (p) => tableById(held.get(p), tableId).match;
  let played = 0;
  for (let ply = 0; ply < 12 && !current(watcher).outcome; ply += 1) {
    const mover = current(watcher).to_play === host.member ? host : guest;
    // The player due holds the whole legal list; keep away from a goal.
    const legal = current(mover).legal.filter((m) => !m.startsWith('goal:'));
    assert.ok(legal.length > 0, `${game}: moves to play`);
    await mover.c.command({ type: 'move', move: legal[(ply * 7 + 3) % legal.length] });
    for (const [p, tables] of held) await p.c.follow(tables);
    played += 1;
  }
  const fresh = await join(room.code, null, null);
  const snap = tableById(fresh.snapshot.room.tables, tableId).match;
  assert.equal(snap.moves.length, played);
  for (const p of [host, guest, watcher]) {
    assert.deepEqual(comparable(current(p)), comparable(snap), `${game}: the match ${p === watcher ? 'a spectator' : 'a player'} holds`);
  }
  const due = snap.to_play === host.member ? host : guest;
  if (!snap.outcome) assert.deepEqual(current(due).legal, snap.legal, `${game}: the legal list of the player due`);
  for (const p of [host, guest, watcher, fresh]) p.c.close();
}

test('CrossyRay: move events applied by tables.js give the snapshot', async () => {
  await followedEqualsSnapshot('crossyray', { clock: null });
});

test('Quoridor: move events applied by tables.js give the snapshot (long legal lists only to the player due)', async () => {
  await followedEqualsSnapshot('quoridor', { players: 2 });
});

test('Jungle: move events applied by tables.js give the snapshot', async () => {
  await followedEqualsSnapshot('jungle', { clock: null });
});

// Records the frames a room page receives during a real game, for
// room-model.test.mjs (which replays them into web/js/room/model.js with
// no server). Run by hand after a change of the protocol:
//   SERVER_BIN=../target/debug/server node record-room-frames.mjs
// It writes fixtures/room-frames.json: the frames the host's page got
// (snapshot and events, in order), then the snapshot of a page that comes
// back later, and the member ids. A Jungle game with a clock: names,
// seats, chat, a draw offered and declined, moves, a resignation, the
// scores, and a rematch asked for.

import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startSite } from './harness.mjs';

const site = await startSite({ tag: 'record' });

async function connect(code) {
  const ws = new WebSocket(`${site.base.replace('http', 'ws')}/ws/${code}`, { origin: site.base });
  const inbox = [];
  const frames = [];
  const waiters = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.type !== 'ack' && msg.type !== 'error' && msg.type !== 'pong') frames.push(msg);
    inbox.push(msg);
    while (waiters.length) waiters.shift()();
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const take = async (pick) => {
    for (;;) {
      const i = inbox.findIndex(pick);
      if (i >= 0) return inbox.splice(i, 1)[0];
      await new Promise((r) => { waiters.push(r); setTimeout(r, 200); });
    }
  };
  return {
    frames,
    take,
    async command(cmd) {
      id += 1;
      const mine = id;
      ws.send(JSON.stringify({ ...cmd, id: mine }));
      const answer = await take((m) => (m.type === 'ack' || m.type === 'error') && m.id === mine);
      if (answer.type !== 'ack') throw new Error(`${cmd.type}: ${JSON.stringify(answer)}`);
      return answer;
    },
    close: () => ws.close(),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

try {
  const res = await fetch(`${site.base}/api/rooms`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'jungle', options: { clock: { minutes: 3, increment: 2 } } }),
  });
  const room = await res.json();
  const host = await connect(room.code);
  const hostAck = await host.command({ type: 'hello', token: room.token, name: 'Minh' });
  const guest = await connect(room.code);
  const guestAck = await guest.command({ type: 'hello', token: null, name: 'Lan' });
  await host.command({ type: 'sit', seat: 0 });
  await guest.command({ type: 'sit', seat: 1 });
  await guest.command({ type: 'chat', text: 'xin chào' });
  await host.command({ type: 'start', order: 'seats' });
  await settle();
  const legal = () => host.frames.filter((f) => f.type === 'match').at(-1).match.legal;
  let toPlay = host.frames.filter((f) => f.type === 'match').at(-1).match.to_play;
  for (let ply = 0; ply < 4; ply += 1) {
    const mover = toPlay === hostAck.member ? host : guest;
    await settle();
    const moves = mover === host ? legal() : guest.frames.filter((f) => f.type === 'match').at(-1).match.legal;
    await mover.command({ type: 'move', move: moves[(ply * 5 + 1) % moves.length] });
    await settle();
    toPlay = host.frames.filter((f) => f.type === 'match').at(-1).match.to_play;
  }
  await host.command({ type: 'draw', action: 'offer' });
  await settle();
  await guest.command({ type: 'draw', action: 'decline' });
  await settle();
  await guest.command({ type: 'resign' });
  await settle();
  await guest.command({ type: 'rematch' });
  await settle();
  const back = await connect(room.code);
  await back.command({ type: 'hello', token: room.token, name: 'Minh' });
  const snapshot = await back.take((m) => m.type === 'snapshot');
  const fixture = {
    note: 'Recorded by record-room-frames.mjs from a real server: the host\'s frames, then a later snapshot.',
    host: hostAck.member,
    guest: guestAck.member,
    frames: host.frames,
    reconnect: snapshot,
  };
  writeFileSync(new URL('./fixtures/room-frames.json', import.meta.url), `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`${host.frames.length} frames: ${host.frames.map((f) => f.type + (f.kind ? `/${f.kind}` : '')).join(' ')}`);
  for (const c of [host, guest, back]) c.close();
} finally {
  await site.stop();
}

// Several nodes, as a browser sees them: two server processes on this
// machine's PostgreSQL (a fresh schema) and NATS, behind one address. The
// proxy here stands in for nginx in docker-compose.yml: each connection
// goes to the first node that accepts it. Two people play; the node that
// owns their room is killed (`kill -9`); both pages reconnect by
// themselves, through the same address, to the other node, which has
// taken the room over with every move, and the game goes on.
//
// Without PostgreSQL or NATS the test is skipped, saying so, except under
// CI (`CI` set), where it fails.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { execFileSync } from 'node:child_process';
import { byId, playOne, setName, sit, startSite, waitOnline, waitPly } from './harness.mjs';

const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NATS = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const pageErrors = [];
let nodes = [];
let front = null;
let schema = null;
let skip = null;

/** Whether something listens on 127.0.0.1:`port`. */
const listening = (port) => new Promise((resolve) => {
  const s = net.connect(port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); resolve(true); });
  s.once('error', () => resolve(false));
});

const portOf = (url) => Number(new URL(url).port);

/**
 * One address in front of `ports`: a connection goes to the first port
 * that accepts it (a node that is down refuses, and is skipped).
 */
function proxy(ports) {
  const server = net.createServer((client) => {
    client.pause();
    const attempt = (i) => {
      if (i >= ports.length) { client.destroy(); return; }
      const up = net.connect(ports[i], '127.0.0.1');
      up.once('error', () => attempt(i + 1));
      up.once('connect', () => {
        up.removeAllListeners('error');
        up.on('error', () => client.destroy());
        client.on('error', () => up.destroy());
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  if (!(await listening(5432)) || !(await listening(4222))) {
    skip = 'no PostgreSQL on 5432 or NATS on 4222';
    if (process.env.CI) throw new Error(`${skip}: needed under CI`);
    return;
  }
  schema = `e2e_nodes_${process.pid}_${Date.now()}`;
  const psql = (sql) => execFileSync('psql', ['-q', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-c', sql], {
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  });
  psql(`CREATE SCHEMA ${schema}`);
  const url = `${PG}?options=-c%20search_path%3D${schema}`;
  for (const id of ['a', 'b']) {
    nodes.push(await startSite({
      tag: `nodes-${id}`,
      args: ['--database-url', url, '--nats-url', NATS, '--node-id', `e2e-${id}-${process.pid}`],
      pageErrors,
    }));
  }
  front = await proxy(nodes.map((n) => portOf(n.base)));
  nodes.cleanup = () => psql(`DROP SCHEMA ${schema} CASCADE`);
});

after(async () => {
  front?.close();
  for (const n of nodes) await n.stop();
  nodes.cleanup?.();
});

test('the owner of a room is killed mid-game: both pages reconnect through the same address and the game goes on', { timeout: 120_000 }, async (t) => {
  if (skip) { t.skip(skip); return; }
  const base = `http://127.0.0.1:${front.address().port}`;
  // The pages run in node B's browser: node A, where the room is made, is
  // the one that dies.
  const host = await nodes[1].newPage('nodes-host');
  const guest = await nodes[1].newPage('nodes-guest');
  await host.goto(`${base}/`);
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(host);
  const code = new URL(host.url()).pathname.slice(3);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  await guest.goto(`${base}/r/${code}`);
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await byId(host, 'start').click();
  const played = [];
  for (let n = 1; n <= 3; n++) {
    played.push(await playOne([host, guest]));
    for (const p of [host, guest]) await waitPly(p, n);
  }

  // The room runs on A (the proxy sent its first sockets there).
  const before = { host: host.sockets, guest: guest.sockets };
  const killed = Date.now();
  await nodes[0].kill();
  for (const p of [host, guest]) {
    await p.waitForSelector('[data-testid="conn-status"][data-state="online"]', { timeout: 15_000 });
    // Reconnected: a new socket, and the snapshot has every move.
    await p.waitForFunction((n) => document.querySelector('[data-testid="board"]')?.dataset.ply === String(n), 3, { timeout: 15_000 });
  }
  const took = Date.now() - killed;
  assert.ok(host.sockets > before.host && guest.sockets > before.guest, 'both pages opened a new socket');
  assert.ok(took < 15_000, `back within 15 s (took ${took} ms)`);
  const moves = await host.locator('[data-testid="moves"] li').evaluateAll((lis) => lis.map((li) => li.dataset.move));
  assert.deepEqual(moves, played, 'every move was kept');

  // The game goes on, on B.
  await playOne([host, guest]);
  for (const p of [host, guest]) await waitPly(p, 4);
  assert.deepEqual(pageErrors, []);
});

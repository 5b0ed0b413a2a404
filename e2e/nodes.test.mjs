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
import { byId, clusterServices, createRoomByPage, playOne, playPlies, portOf, setName, sit, startSite, waitOnline, waitPly } from './harness.mjs';

const pageErrors = [];
let nodes = [];
let front = null;
let skip = null;

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
  const services = await clusterServices('nodes');
  if (services.skip) { skip = services.skip; return; }
  nodes.cleanup = services.drop;
  for (const id of ['a', 'b']) {
    nodes.push(await startSite({
      tag: `nodes-${id}`,
      args: ['--database-url', services.url, '--nats-url', services.nats, '--node-id', `e2e-${id}-${process.pid}`],
      pageErrors,
    }));
  }
  front = await proxy(nodes.map((n) => portOf(n.base)));
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
  const code = await createRoomByPage(host, base);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  await guest.goto(`${base}/r/${code}`);
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await byId(host, 'start').click();
  const played = await playPlies([host, guest], 0, 3);

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

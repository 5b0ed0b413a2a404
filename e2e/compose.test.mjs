// docker-compose.yml's topology, run as processes on this machine (no
// containers): PostgreSQL (this machine's, a fresh schema), NATS, two
// server nodes started as the compose file starts them (--database-url,
// --nats-url, --node-id, --public-url, --trusted-proxy) and Debian's nginx
// running deploy/nginx.conf itself: only the upstream addresses
// (node1:8080, node2:8080) and the listen port are rewritten, into a
// config in a temporary folder. A browser opens the site through nginx,
// so its pages and sockets carry nginx's address as their Origin; it
// creates a room, two players (two browser contexts) play, their sockets
// put by nginx on one node (a hash of the room code), which is the node
// that runs the room (the first asked for it) although the room may have
// been created on the other; that node gets
// `kill -9` and its address becomes a black hole (as a stopped
// container's does: connections hang rather than being refused), nginx
// sends the reconnects to the live node, and the game goes on with every
// acknowledged move.
//
// Run alone: `SERVER_BIN=../target/debug/server node --test compose.test.mjs`.
// Without nginx, PostgreSQL or NATS the test is skipped, saying so, except
// under CI (`CI` set), where it fails.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { byId, clusterServices, createRoomByPage, listening, playPlies, portOf, setName, sit, startSite, waitOnline } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// NGINX_BIN names another nginx binary.
const NGINX = (process.env.NGINX_BIN ? [process.env.NGINX_BIN] : ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'])
  .find((p) => existsSync(p));

const pageErrors = [];
const nodes = [];
let nginx = null;
let front = null;
let services = null;
let hole = null;
let skip = null;

/** A port free on 127.0.0.1 a moment ago. */
const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/** Established TCP connections accepted on 127.0.0.1:`port` (from /proc/net/tcp). */
function accepted(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length > 3 && f[1].endsWith(`:${hex}`) && f[3] === '01').length;
}

/**
 * Waits until the nodes hold `want` connections each (the pages' sockets:
 * plain requests do not stay), or until `want(counts)` holds; returns
 * nothing then, or the counts seen last when `ms` ran out.
 */
async function waitSockets(want, ms = 5000) {
  const ok = typeof want === 'function' ? want : (now) => now.every((c, i) => c === want[i]);
  const deadline = Date.now() + ms;
  let now;
  for (;;) {
    now = nodes.map((n) => accepted(portOf(n.base)));
    if (ok(now)) return;
    if (Date.now() > deadline) return now;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Makes 127.0.0.1:`port` (a killed node's) what a stopped container's
 * address is: a connection to it is neither accepted nor refused, it
 * hangs. A child process listens with a backlog of one and blocks before
 * accepting anything; connections made here fill its queue, after which
 * the kernel drops every new SYN.
 */
async function blackHole(port) {
  const child = spawn(process.execPath, ['-e', `
    require('net').createServer().listen({ port: ${port}, host: '127.0.0.1', backlog: 1 }, () => {
      require('fs').writeSync(1, 'ready\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`the black hole on ${port} exited (${code})`)));
  });
  const fillers = [];
  for (let i = 0; i < 4; i++) {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', () => {});
    fillers.push(s);
  }
  await new Promise((r) => setTimeout(r, 300));
  return {
    stop() {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
    },
  };
}

/** deploy/nginx.conf with the nodes' and nginx's own addresses of this machine. */
function siteConfig(listen, upstreams) {
  let conf = readFileSync(path.join(HERE, '..', 'deploy', 'nginx.conf'), 'utf8');
  const swap = (from, to) => {
    assert.ok(conf.includes(from), `deploy/nginx.conf has ${from}`);
    conf = conf.replaceAll(from, to);
  };
  swap('listen 80;', `listen 127.0.0.1:${listen};`);
  swap('node1:8080', `127.0.0.1:${upstreams[0]}`);
  swap('node2:8080', `127.0.0.1:${upstreams[1]}`);
  return conf;
}

/** Starts nginx on `port` in front of `upstreams`, everything it writes in a temporary folder. */
async function startNginx(port, upstreams) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bg-e2e-nginx-'));
  writeFileSync(path.join(dir, 'site.conf'), siteConfig(port, upstreams));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/${t};`).join('\n  ');
  writeFileSync(path.join(dir, 'nginx.conf'), `
# As root, nginx's workers would drop to "nobody", who cannot write here.
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  ${temp}
  include ${dir}/site.conf;
}
`);
  const proc = spawn(NGINX, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (c) => { out += c; });
  proc.stderr.on('data', (c) => { out += c; });
  const errors = () => `${out}${existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, 'utf8') : ''}`;
  for (let i = 0; !(await listening(port)); i++) {
    if (proc.exitCode != null || i > 100) throw new Error(`nginx did not start:\n${errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    errors,
    async stop() {
      if (proc.exitCode == null) {
        const gone = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

before(async () => {
  if (!NGINX) {
    skip = "no nginx (Debian's nginx package)";
    if (process.env.CI) throw new Error(`${skip}: needed under CI`);
    return;
  }
  services = await clusterServices('compose');
  if (services.skip) { skip = services.skip; return; }
  const port = await freePort();
  front = `http://127.0.0.1:${port}`;
  for (const id of ['node1', 'node2']) {
    nodes.push(await startSite({
      tag: `compose-${id}`,
      // As docker-compose.yml's environment: PUBLIC_URL is the address
      // the browser uses; the proxy is the only trusted one.
      args: ['--database-url', services.url, '--nats-url', services.nats, '--node-id', `${id}-${process.pid}`,
        '--public-url', front, '--trusted-proxy', '127.0.0.1'],
      pageErrors,
    }));
    nodes.at(-1).id = `${id}-${process.pid}`;
  }
  nginx = await startNginx(port, nodes.map((n) => portOf(n.base)));
});

after(async () => {
  hole?.stop();
  await nginx?.stop();
  for (const n of nodes) await n.stop();
  services?.drop?.();
});

test('the compose topology behind the real nginx: the players on the room\'s node, which is killed, the game goes on with every move', { timeout: 150_000 }, async (t) => {
  if (skip) { t.skip(skip); return; }
  const host = await nodes[0].newPage('compose-host');
  const guest = await nodes[0].newPage('compose-guest');
  // The site through nginx: the pages' Origin is nginx's address.
  const code = await createRoomByPage(host, front);
  assert.equal(new URL(host.url()).origin, front);
  const alone = await waitSockets((now) => now.toSorted().join() === '0,1');
  assert.equal(alone, undefined, `the host's socket is on one node (sockets per node: ${alone})`);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');

  // The guest's socket joins the host's: nginx hashes the room code.
  await guest.goto(`${front}/r/${code}`);
  await waitOnline(guest);
  const together = await waitSockets((now) => now.toSorted().join() === '0,2');
  assert.equal(together, undefined, `both players' sockets on one node (sockets per node: ${together})`);
  const ownerNode = nodes.map((n) => accepted(portOf(n.base))).indexOf(2);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await byId(host, 'start').click();
  const played = await playPlies([host, guest], 0, 3);

  // The node that owns the room (its lease) is killed.
  const owner = services.psql(`SELECT node FROM ${services.schema}.room_leases WHERE room_code = '${code}'`);
  const dead = nodes.findIndex((n) => n.id === owner);
  assert.notEqual(dead, -1, `the room's lease names one of the nodes (${owner})`);
  assert.equal(dead, ownerNode, `the room runs where its sockets are (lease ${owner})`);
  const before = { host: host.sockets, guest: guest.sockets };
  await nodes[dead].kill();
  hole = await blackHole(portOf(nodes[dead].base));
  // nginx sends new requests to the live node (after proxy_connect_timeout,
  // 1 s, on the dead one; nginx's default is 60 s): no 502 and no long
  // wait while the dead one is still listed.
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${front}/healthz`, { signal: AbortSignal.timeout(10_000) });
    assert.equal(res.status, 200, `request ${i} after the kill: ${res.status} ${await res.text()}`);
  }
  for (const p of [host, guest]) {
    await p.waitForSelector('[data-testid="conn-status"][data-state="online"]', { timeout: 15_000 });
    await p.waitForFunction((n) => document.querySelector('[data-testid="board"]')?.dataset.ply === String(n), 3, { timeout: 15_000 });
  }
  assert.ok(host.sockets > before.host && guest.sockets > before.guest, 'both pages opened a new socket');
  const live = 1 - dead;
  const both = await waitSockets((now) => now[live] === 2);
  assert.equal(both, undefined, `both sockets on the live node (sockets per node: ${both})`);

  // The game goes on, and every move acknowledged (shown on both boards) is kept.
  played.push(...(await playPlies([host, guest], 3, 5)));
  for (const p of [host, guest]) {
    const moves = await p.locator('[data-testid="moves"] li').evaluateAll((lis) => lis.map((li) => li.dataset.move));
    assert.deepEqual(moves, played, `${p.label}: every move was kept`);
  }
  assert.doesNotMatch(nginx.errors(), /no live upstreams/);
  assert.deepEqual(pageErrors, []);
});

// What every browser test needs: the real server binary on a free port
// with a fresh data folder, and Debian's chromium driven by
// playwright-core. Each test file starts one site before its tests and
// stops it after them (`siteForTests`).
//
//   SERVER_BIN=../target/debug/server CHROMIUM=/usr/bin/chromium node --test

import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SERVER_BIN = path.resolve(HERE, process.env.SERVER_BIN ?? '../target/debug/server');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** The longest any single UI update may take. */
export const STEP_MS = 10_000;

// The flags this machine's chromium needs: no sandbox as root, and no
// background connections (the network is closed; they would only fail).
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/** The element with `data-testid="id"`. */
export const byId = (page, id) => page.locator(`[data-testid="${id}"]`);

/** Asserts the page fits its viewport's width (the 360 px phone checks). */
export async function noHorizontalScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `${what}: no horizontal scroll at ${width}px (content is ${scroll}px wide)`);
}

/** The socket is online and `drawn` (the board, by default) is on the page. */
export async function waitOnline(page, drawn = '[data-testid="board"] svg g') {
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector(drawn);
}

/** Types a display name and waits until the page shows it. */
export async function setName(page, name) {
  await byId(page, 'name-input').fill(name);
  await byId(page, 'name-save').click();
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="name-current"]')?.textContent.includes(n),
    name,
  );
}

/** The page's own member id (`m2`), from the members list. */
export async function memberOf(page) {
  await page.waitForSelector('#members .badge.you');
  return page.evaluate(() => document.querySelector('#members .badge.you').closest('li').dataset.testid.slice('member-'.length));
}

/** Creates a `game` room through the API and opens it in `page` as its host. */
export async function openAsHost(page, base, game) {
  const res = await page.request.post(`${base}/api/rooms`, { data: { game } });
  assert.equal(res.status(), 201);
  const room = await res.json();
  await page.goto(`${base}/`);
  await page.evaluate((token) => localStorage.setItem('bg.token', token), room.token);
  await page.goto(`${base}/r/${room.code}`);
  return room;
}

/**
 * A `game` room opened by `site`'s pages: the host (Minh) in seat 0 and a
 * guest who came by the link (Lan) in seat 1, the game not started.
 */
export async function hostAndGuest(site, game, tag = game) {
  const host = await site.newPage(`${tag}-host`);
  const guest = await site.newPage(`${tag}-guest`);
  const room = await openAsHost(host, site.base, game);
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  await guest.goto(`${site.base}/r/${room.code}`);
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  return { room, host, guest };
}

/** Takes `seat` (by click, or by `tap`) and waits until it shows `name`. */
export async function sit(page, seat, name, { tap = false } = {}) {
  if (tap) await byId(page, `sit-${seat}`).tap();
  else await byId(page, `sit-${seat}`).click();
  await page.waitForFunction(
    ([s, n]) => document.querySelector(`[data-testid="seat-name-${s}"]`)?.textContent === n,
    [seat, name],
  );
}

/** Waits until the board shows `ply` moves played. */
export async function waitPly(page, ply) {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="board"]')?.dataset.ply === String(n),
    ply,
  );
}

/**
 * Board facts as `page` shows them: its ply, whether it is the page's turn,
 * the page's side and the last move, with what `more(board)` reads. `more`
 * runs in the page, as a function given to `page.evaluate` does: it sees
 * nothing of the test's scope.
 */
export function boardFacts(page, more) {
  return page.evaluate(`(() => {
    const b = document.querySelector('[data-testid="board"]');
    return {
      ply: Number(b.dataset.ply),
      myTurn: b.dataset.myTurn === 'true',
      mySide: b.dataset.mySide === '' ? null : Number(b.dataset.mySide),
      lastMove: b.dataset.lastMove,
      ...(${more})(b),
    };
  })()`);
}

/** The number of moves the page's board shows. */
export const ply = (page) => page.evaluate(() => Number(document.querySelector('[data-testid="board"]').dataset.ply));

/** If `page`'s board offers a move, clicks its first marked target; returns the move or null. */
export async function playIfMyTurn(page) {
  const target = page.locator('[data-testid="board"][data-my-turn="true"] [data-legal="true"]').first();
  if (!(await target.count())) return null;
  const move = await target.getAttribute('data-target');
  await target.click();
  return move;
}

/**
 * Reads `read()` until `ok` holds for what it gives, and returns that; after
 * STEP_MS it fails, naming `what` and the last reading.
 */
export async function until(read, ok, what) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The one page of `players` whose board says it is their turn, with what
 * `read(page)` gives for it (`{ page, info }`); `read` gives each page's
 * `{ myTurn, ... }`, and never two of them may have the move.
 */
export async function mover(players, read) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const infos = await Promise.all(players.map(read));
    const turn = infos.map((i, k) => (i.myTurn ? k : -1)).filter((k) => k >= 0);
    assert.ok(turn.length <= 1, 'never both players to move');
    if (turn.length === 1) return { page: players[turn[0]], info: infos[turn[0]] };
    if (Date.now() > deadline) throw new Error('no player has the move');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The player whose board offers the move plays its first marked target; returns the move. */
export async function playOne(players) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    for (const page of players) {
      const move = await playIfMyTurn(page);
      if (move) return move;
    }
    if (Date.now() > deadline) throw new Error('no player has the move');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts the server (extra command-line `args`) and a browser. Guests may
 * host rooms (`--guest-hosts`) unless `guestHosts` is false: most tests
 * are not about who hosts. Pages made with `newPage` report their script
 * errors (and console errors such as Content-Security-Policy violations)
 * into `pageErrors`. `browserArgs` are added to chromium's flags (the
 * voice test's fake microphone).
 * @returns {Promise<{ base: string, browser: import('playwright-core').Browser, newPage: Function, log(): string, stop(): Promise<void> }>}
 */
export async function startSite({ tag = 'e2e', args = [], pageErrors = [], guestHosts = true, browserArgs = [] } = {}) {
  assert.ok(existsSync(SERVER_BIN), `no server binary at ${SERVER_BIN} (cargo build -p server)`);
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), `bg-e2e-${tag}-`));
  const flags = ['--addr', '127.0.0.1:0', '--data-dir', dataDir, ...(guestHosts ? ['--guest-hosts'] : []), ...args];
  const server = spawn(SERVER_BIN, flags, {
    cwd: ROOT,
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'info', NO_COLOR: '1', RUST_LOG_STYLE: 'never' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not say where it listens within 60 s:\n${log}`)), 60_000);
    const onData = (chunk) => {
      // Strip ANSI colours in case the logger adds them anyway.
      log += chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stderr.on('data', onData);
    server.stdout.on('data', onData);
    server.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (${code ?? signal}):\n${log}`));
    });
    server.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...browserArgs] });
  return {
    base,
    browser,
    /** A page in a fresh browser context (its own storage: one person). */
    async newPage(label, options = {}) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_MS);
      page.on('pageerror', (err) => pageErrors.push(`[${label}] ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !/Failed to load resource|WebSocket connection/.test(msg.text())) {
          pageErrors.push(`[${label}] console: ${msg.text()}`);
        }
      });
      // Every room socket the page opens (the home page's lobby socket
      // aside): a client that saw a version gap would reconnect to
      // resync, so a steady page opens exactly one.
      page.sockets = 0;
      page.on('websocket', (ws) => { if (!ws.url().includes('/ws/lobby')) page.sockets += 1; });
      page.label = label;
      // A confirm() (the own-goal question) is accepted unless the test set
      // page.onDialog to answer it itself.
      page.onDialog = null;
      page.on('dialog', (d) => (page.onDialog ? page.onDialog(d) : d.accept()));
      return page;
    },
    log: () => log,
    /** `kill -9` of the server (the browser stays). */
    async kill() {
      if (server.exitCode != null) return;
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGKILL');
      await gone;
    },
    async stop() {
      await browser.close().catch(() => {});
      if (server.exitCode == null) {
        server.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => { server.kill('SIGKILL'); r(); }, 5000);
          server.once('exit', () => { clearTimeout(t); r(); });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The site of one test file: `startSite(options)` before the file's tests,
 * stopped after them. The object is filled in when it has started (its
 * `base`, `newPage`, `log`, ...); `pageErrors` is there from the start, for
 * the tests to check.
 */
export function siteForTests(options = {}) {
  const site = { pageErrors: [] };
  before(async () => {
    Object.assign(site, await startSite({ ...options, pageErrors: site.pageErrors }));
  });
  after(() => site.stop?.());
  return site;
}

/** Whether something listens on 127.0.0.1:`port`. */
export const listening = (port) => new Promise((resolve) => {
  const s = net.connect(port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); resolve(true); });
  s.once('error', () => resolve(false));
});

/** The port of a `http://host:port` URL. */
export const portOf = (url) => Number(new URL(url).port);

/**
 * What several nodes share, on this machine: PostgreSQL on 5432 (database
 * `test`, a fresh schema named after `tag`) and NATS on 4222. Returns
 * `{ skip }` when either is missing (throws instead under CI), else
 * `{ url, nats, schema, psql(sql), drop() }`: the nodes' --database-url and
 * --nats-url, and `psql` to read the schema (its output, trimmed).
 */
export async function clusterServices(tag) {
  if (!(await listening(5432)) || !(await listening(4222))) {
    const skip = 'no PostgreSQL on 5432 or NATS on 4222';
    if (process.env.CI) throw new Error(`${skip}: needed under CI`);
    return { skip };
  }
  const pg = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `e2e_${tag}_${process.pid}_${Date.now()}`;
  const psql = (sql) => execFileSync('psql', ['-qtA', '-h', '127.0.0.1', '-U', 'postgres', '-d', 'test', '-c', sql], {
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
  }).toString().trim();
  psql(`CREATE SCHEMA ${schema}`);
  return {
    url: `${pg}?options=-c%20search_path%3D${schema}`,
    nats: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
    schema,
    psql,
    drop: () => psql(`DROP SCHEMA ${schema} CASCADE`),
  };
}

/** From `base`'s front page, `page` creates a room by its button; the room's code, once its socket is online. */
export async function createRoomByPage(page, base) {
  await page.goto(`${base}/`);
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(page);
  return new URL(page.url()).pathname.slice(3);
}

/**
 * From the home page of `base`: `name` plays the computer at `game`
 * (`level`, moving first); lands in the room with the board drawn, its turn.
 */
export async function playComputer(page, base, { game, name = 'Lan', level = 'beginner' }) {
  await page.goto(`${base}/`);
  await byId(page, 'solo-game').selectOption(game);
  await byId(page, 'solo-name').fill(name);
  await byId(page, 'solo-level').selectOption(level);
  await byId(page, 'solo-side').selectOption('blue');
  await byId(page, 'solo-play').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector('[data-testid="board"][data-my-turn="true"]');
}

/** `page` opens room `code` of `base`, takes the name `name` and sits in `seat`. */
export async function joinAndSit(page, base, code, name, seat) {
  await page.goto(`${base}/r/${code}`);
  await waitOnline(page);
  await setName(page, name);
  await sit(page, seat, name);
}

/** A page of `site` signed in as a new account `username` (registered through the API). */
export async function signedInPage(site, label, username, options) {
  const page = await site.newPage(label, options);
  await page.goto(`${site.base}/`);
  const r = await page.request.post(`${site.base}/api/accounts`, { data: { username, password: 'correct horse battery' } });
  assert.equal(r.status(), 201, await r.text());
  return page;
}

/** Fills in and sends the home page's sign-up form (the email only when given). */
export async function register(page, username, password, email = '') {
  await byId(page, 'register-username').fill(username);
  await byId(page, 'register-password').fill(password);
  if (email) await byId(page, 'register-email').fill(email);
  await byId(page, 'register-submit').click();
}

/** Fills in and sends the home page's log-in form. */
export async function logIn(page, username, password) {
  await byId(page, 'login-username').fill(username);
  await byId(page, 'login-password').fill(password);
  await byId(page, 'login-submit').click();
}

/** Plays moves `from`+1 to `to`, each acknowledged (shown on every player's board); the moves played. */
export async function playPlies(players, from, to) {
  const played = [];
  for (let n = from + 1; n <= to; n++) {
    played.push(await playOne(players));
    for (const p of players) await waitPly(p, n);
  }
  return played;
}

/**
 * A room of `game` with `options` made by a page at `host` (its context
 * options, e.g. a phone's), the host seated 0 as `hostName` and a guest
 * (a desktop page) seated 1 as `guestName`; pages labelled `${tag}-host`
 * and `${tag}-guest`.
 */
export async function seatedPair(site, { tag, game, options, hostName, guestName, host: hostContext }) {
  const host = await site.newPage(`${tag}-host`, hostContext);
  await host.goto(`${site.base}/`);
  const code = await host.evaluate(async ([g, o]) => {
    const res = await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: g, options: o }) });
    const body = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(body));
    localStorage.setItem('bg.token', body.token);
    return body.code;
  }, [game, options]);
  await joinAndSit(host, site.base, code, hostName, 0);
  const guest = await site.newPage(`${tag}-guest`);
  await joinAndSit(guest, site.base, code, guestName, 1);
  return { host, guest, code };
}

/** The host starts with seat i playing side i (by taps); waits for the host's board to be its turn. */
export async function startBySeats(host) {
  await byId(host, 'start').waitFor({ state: 'visible' });
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').tap();
  await host.waitForSelector('[data-testid="board"][data-my-turn="true"]');
}

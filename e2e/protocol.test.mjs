// Browser test of the room protocol's edges, against the real server:
// tables (the snapshot's `room.tables`, `match` events and commands name
// their table), the close codes the server ends a socket with (the page
// reconnects and resyncs whatever the code), a room that refuses a
// newcomer (`room_full`: the page says so instead of retrying forever),
// and the home page's words for a refused room creation (413, 429).
//
// The site runs with --max-members 2 (a third person is refused) and
// --room-every-secs 600 (room creations used up stay used up).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, playIfMyTurn, playOne, ply, register, siteForTests, STEP_MS, waitOnline, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'protocol', args: ['--max-members', '2', '--room-every-secs', '600'] });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);

/** Where the room page remembers the visitor's name (web/js/socket.js). */
const NAME_KEY = 'bg.name';

/** Every JSON frame the page's sockets send and receive, in order. */
function recordFrames(page) {
  const frames = { sent: [], received: [] };
  const parse = (f) => { try { return JSON.parse(f.payload.toString()); } catch { return null; } };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.sent.push(parse(f)));
    ws.on('framereceived', (f) => frames.received.push(parse(f)));
  });
  return frames;
}

async function createRoom(page) {
  await page.goto(`${site.base}/`);
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(page);
  return new URL(page.url()).pathname.slice(3);
}

async function join(page, code) {
  await page.goto(`${site.base}/r/${code}`);
  await waitOnline(page);
}

/** Names the page's person and sits them in `seat`. */
async function seat(page, name, seat, shown = name) {
  await byId(page, 'name-input').fill(name);
  await byId(page, 'name-save').click();
  await page.waitForFunction((n) => document.querySelector('[data-testid="name-current"]')?.textContent.includes(n), name);
  await byId(page, `sit-${seat}`).click();
  await page.waitForFunction(([s, n]) => document.querySelector(`[data-testid="seat-name-${s}"]`)?.textContent === n, [seat, shown]);
}

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

/**
 * The first recorded frame `pick` finds, waiting for it: Playwright reports
 * a frame a little after the page has acted on it.
 */
async function frame(pick, what) {
  const deadline = Date.now() + STEP_MS;
  for (;;) {
    const found = pick();
    if (found) return found;
    assert.ok(Date.now() < deadline, `no ${what} frame recorded`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------- tests

test('the page shows the snapshot\'s table, follows its match events and names it in moves and resignations', { timeout: 90_000 }, async () => {
  const host = await newPage('tables-host');
  const frames = recordFrames(host);
  const code = await createRoom(host);
  const snapshot = await frame(() => frames.received.find((m) => m?.type === 'snapshot'), 'snapshot');
  assert.ok(snapshot, 'the host got a snapshot');
  assert.equal(snapshot.room.match, undefined, 'the room has no `match` of its own any more');
  assert.equal(snapshot.room.tables.length, 1, 'an ordinary room has one table');
  const [table] = snapshot.room.tables;
  assert.match(table.id, /^[0-9a-f-]{36}$/);
  assert.equal(table.match, null, 'no game yet');
  await seat(host, 'Mai', 0);
  const guest = await newPage('tables-guest');
  const guestFrames = recordFrames(guest);
  await join(guest, code);
  await seat(guest, 'Nam', 1);

  await byId(host, 'start').click();
  for (const p of [host, guest]) await waitPly(p, 0);
  const started = await frame(() => frames.received.find((m) => m?.type === 'match' && m.kind === 'start'), 'match start');
  assert.equal(started.table, table.id, 'a match event names its table');
  assert.match(started.match.id, /^[0-9a-f-]{36}$/, 'a match has its game\'s id');

  const move = await playOne([host, guest]);
  for (const p of [host, guest]) await waitPly(p, 1);
  assert.equal(await host.locator('[data-testid="moves"] li').first().getAttribute('data-move'), move);
  const sent = await frame(() => [...frames.sent, ...guestFrames.sent].find((m) => m?.type === 'move'), 'move');
  assert.equal(sent.move, move);
  assert.equal(sent.table, table.id, 'the move names the table the page shows');
  const moved = await frame(() => guestFrames.received.find((m) => m?.type === 'match' && m.kind === 'move'), 'match move');
  assert.equal(moved.table, table.id);
  // A move carries only what it changed; the page applied it to the match it held.
  assert.equal(moved.match.ply, 1);
  assert.equal(moved.match.moves, undefined, 'not the whole move list');

  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  for (const p of [host, guest]) await byId(p, 'result').waitFor({ state: 'visible' });
  const resign = await frame(() => frames.sent.find((m) => m?.type === 'resign'), 'resign');
  assert.equal(resign.table, table.id, 'so does the resignation');
  assert.equal(await byId(guest, 'result').getAttribute('data-reason'), 'resign');

  // The scoreboard: one row a person, keyed by member (guests) or account.
  await guest.waitForFunction(() => document.querySelectorAll('[data-testid="score-row"]').length === 2);
  const rows = await guest.locator('[data-testid="score-row"]').evaluateAll((trs) => trs.map((tr) => ({
    member: tr.dataset.member, account: tr.dataset.account, you: tr.classList.contains('you'), text: tr.textContent,
  })));
  assert.deepEqual(rows.map((r) => r.member).sort(), ['m1', 'm2']);
  assert.equal(rows.filter((r) => r.you).length, 1, 'the viewer\'s own row is marked');
  assert.match(rows.find((r) => r.you).text, /^Nam/);

  for (const p of [host, guest]) await p.context().close();
  assertNoPageErrors();
});

test('two guests with the same name have a row each on the scoreboard, and are told apart all over the page', { timeout: 90_000 }, async () => {
  const host = await newPage('twin-host');
  const code = await createRoom(host);
  await seat(host, 'Hoa', 0);
  const guest = await newPage('twin-guest');
  await join(guest, code);
  // The later one (m2) is "Hoa (2)" to everyone.
  await seat(guest, 'Hoa', 1, 'Hoa (2)');
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.textContent === 'Hoa (2)');
  assert.equal(await byId(host, 'seat-name-0').textContent(), 'Hoa');
  assert.match(await byId(host, 'member-m2').textContent(), /^Hoa \(2\)/);
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  for (const p of [host, guest]) await waitPly(p, 0);
  for (const p of [host, guest]) {
    assert.equal(await byId(p, 'player-name-0').textContent(), 'Hoa');
    assert.equal(await byId(p, 'player-name-1').textContent(), 'Hoa (2)');
  }
  // The host (m1) moves first: the guest reads whose turn by the name told apart.
  assert.equal(await byId(guest, 'turn').textContent(), 'Hoa to move');
  await byId(guest, 'chat-input').fill('xin chào');
  await byId(guest, 'chat-send').click();
  await host.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-message"] b')].some((b) => b.textContent === 'Hoa (2)'));
  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  await byId(guest, 'result-head').filter({ hasText: 'Hoa (2) wins' }).waitFor();
  for (const p of [host, guest]) {
    await p.waitForFunction(() => document.querySelectorAll('[data-testid="score-row"]').length === 2);
    const rows = await p.locator('[data-testid="score-row"]').evaluateAll((trs) => trs.map((tr) => ({
      member: tr.dataset.member, you: tr.classList.contains('you'), name: tr.cells[0].textContent, wins: tr.cells[2].textContent,
    })));
    assert.deepEqual(rows.map((r) => r.name), ['Hoa (2)', 'Hoa'], 'the winner first, told apart');
    assert.deepEqual(rows.map((r) => r.member).sort(), ['m1', 'm2'], 'a row per member, not per name');
    assert.equal(rows.find((r) => r.member === 'm2').wins, '1', 'the guest won: the host resigned');
    assert.equal(rows.find((r) => r.member === 'm2').name, 'Hoa (2)');
    assert.equal(rows.filter((r) => r.you).length, 1);
  }
  for (const p of [host, guest]) await p.context().close();
  assertNoPageErrors();
});

test('whatever code the server closes the socket with, the page reconnects and resyncs', { timeout: 120_000 }, async (t) => {
  const host = await newPage('close-host');
  const code = await createRoom(host);
  await seat(host, 'Mai', 0);
  // The guest's socket goes through the test, which closes it as the
  // server would, with a code and a reason.
  const guest = await newPage('close-guest');
  const frames = recordFrames(guest);
  const sockets = [];
  await guest.routeWebSocket(/\/ws\//, (ws) => {
    const upstream = ws.connectToServer();
    sockets.push({ ws, upstream });
  });
  await join(guest, code);
  await seat(guest, 'Nam', 1);
  await byId(host, 'start').click();
  for (const p of [host, guest]) await waitPly(p, 0);

  const closes = [
    [1008, 'Too many messages waiting: the connection is not reading. Reconnect to resync.'],
    [1011, 'The room restarted; reconnecting.'],
    [1012, 'The server is restarting.'],
    [1013, 'The room is not available; try again.'],
    [1009, 'Message too big.'],
    [1007, 'Text frames must be valid UTF-8.'],
  ];
  for (const [closeCode, reason] of closes) {
    const before = sockets.length;
    const { ws, upstream } = sockets.at(-1);
    await ws.close({ code: closeCode, reason });
    await upstream.close({ code: 1000, reason: 'e2e' });
    await guest.waitForSelector('[data-testid="conn-status"][data-state="offline"]');
    // A move while the guest is away: the fresh snapshot brings it.
    await playIfMyTurn(host);
    await guest.waitForSelector('[data-testid="conn-status"][data-state="online"]', { timeout: 20_000 });
    assert.ok(sockets.length > before, `the page reconnected after ${closeCode}`);
    const n = await ply(host);
    await waitPly(guest, n);
    t.diagnostic(`${closeCode}: reconnected, ply ${n}`);
    // Back in play: the guest answers when it is their turn.
    if (await playIfMyTurn(guest)) {
      await waitPly(host, n + 1);
      await waitPly(guest, n + 1);
    }
  }
  assert.equal(await byId(guest, 'toast').count(), 0, 'reconnecting is shown by the status, not by errors');
  assert.equal(await byId(guest, 'refused').isVisible(), false);

  for (const p of [host, guest]) await p.context().close();
  assertNoPageErrors();
  // Coming back, the page said where it stood, and the room sent what it
  // had missed instead of a whole snapshot.
  const hellos = frames.sent.filter((m) => m?.type === 'hello');
  assert.ok(hellos.slice(1).every((h) => h.since && typeof h.since.v === 'number'), 'every reconnect says where it stood');
  assert.ok(frames.received.some((m) => m?.type === 'ack' && m.resumed === true), 'a reconnect was resumed');
});

/** The refusal the server answers a hello with in a full room, and its close code. */
const ROOM_FULL = 'This room is full (2 members); try again later.';

test('a hello refused with room_full: the page says so, stops retrying, and gets in on "Try again"', { timeout: 90_000 }, async () => {
  const host = await newPage('refused-host');
  const code = await createRoom(host);
  // The newcomer's socket answers its hello as a full room does (error,
  // then close 1008) until the test lets it through to the server.
  const page = await newPage('refused');
  let full = true;
  let sockets = 0;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    sockets += 1;
    if (!full) {
      ws.connectToServer();
      return;
    }
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      if (msg.type !== 'hello') return;
      ws.send(JSON.stringify({ type: 'error', id: msg.id, code: 'room_full', message: ROOM_FULL }));
      ws.close({ code: 1008, reason: ROOM_FULL });
    });
  });
  await page.goto(`${site.base}/r/${code}`);
  await byId(page, 'refused').waitFor({ state: 'visible' });
  assert.equal(await byId(page, 'refused-text').textContent(), 'This room is full: too many people have joined it. Try again later.');
  assert.equal(await byId(page, 'conn-status').getAttribute('data-state'), 'refused');
  assert.equal(await page.locator('#room-main').isVisible(), false);
  assert.equal(await page.locator('#loading').isVisible(), false);
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(sockets, 1, 'no reconnecting to a room that refused us');
  assert.equal(await byId(page, 'toast').count(), 0, 'the panel says it, not a toast');
  await byId(page, 'lang').selectOption('vi');
  assert.match(await byId(page, 'refused-text').textContent(), /^Phòng này đã đầy/);
  assert.equal(await byId(page, 'refused-retry').textContent(), 'Thử lại');
  assert.equal(await byId(page, 'conn-status').textContent(), 'Chưa kết nối');

  // Still full: refused again, once.
  await byId(page, 'refused-retry').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="conn-status"]')?.dataset.state === 'refused');
  await byId(page, 'refused').waitFor({ state: 'visible' });
  assert.equal(sockets, 2);

  // There is room now.
  full = false;
  await byId(page, 'refused-retry').click();
  await waitOnline(page);
  assert.equal(await byId(page, 'refused').isVisible(), false);
  assert.equal(await page.locator('#room-main').isVisible(), true);
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="members"] > li').length === 2);

  for (const p of [host, page]) await p.context().close();
  assertNoPageErrors();
});

// The real server: its room_full error goes out before its close 1008
// (server/src/socket.rs sends what is queued before the close frame), so
// the page shows the panel instead of reconnecting as it does after a
// bare 1008.
test('a full room refuses a newcomer for real (--max-members 2), and lets them in once a guest has left', { timeout: 90_000 }, async () => {
  const host = await newPage('full-host');
  const code = await createRoom(host);
  const guest = await newPage('full-guest');
  await join(guest, code);
  // A guest with a name is a kept member (one without is a watcher, who
  // does not count against --max-members).
  await byId(guest, 'name-input').fill('Lan');
  await byId(guest, 'name-save').click();
  await guest.waitForFunction(() => document.querySelector('[data-testid="name-current"]')?.textContent.includes('Lan'));

  // The third person, who has a name from an earlier visit: the room
  // keeps two members, both online.
  const third = await newPage('full-third');
  await third.addInitScript((key) => localStorage.setItem(key, 'Vy'), NAME_KEY);
  await third.goto(`${site.base}/r/${code}`);
  await byId(third, 'refused').waitFor({ state: 'visible' });
  assert.equal(await byId(third, 'refused-text').textContent(), 'This room is full: too many people have joined it. Try again later.');
  assert.equal(await byId(third, 'conn-status').getAttribute('data-state'), 'refused');
  assert.equal(await third.locator('#room-main').isVisible(), false);
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(third.sockets, 1, 'no reconnecting to a room that refused us');
  assert.equal(await byId(third, 'toast').count(), 0, 'the panel says it, not a toast');
  // The refusal evicted nobody: the host still sees two members online.
  assert.equal(await host.locator('[data-testid="members"] > li[data-online="true"]').count(), 2);

  // The guest leaves (no seat, no score: the room lets them go when it
  // needs the place; the members list shows only those online or seated).
  await guest.context().close();
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="members"] > li').length === 1);
  await byId(third, 'refused-retry').click();
  await waitOnline(third);
  assert.equal(await byId(third, 'refused').isVisible(), false);
  assert.equal(third.sockets, 2, 'one socket for the retry');
  // The offline guest made room: the host sees itself and the newcomer.
  await host.waitForFunction(() => {
    const items = [...document.querySelectorAll('[data-testid="members"] > li')];
    return items.length === 2 && items.every((li) => li.dataset.online === 'true');
  });

  for (const p of [host, third]) await p.context().close();
  assertNoPageErrors();
});

test('the home page says why a room or an account was not created: too large (413), too many from this address (429)', { timeout: 90_000 }, async () => {
  const page = await newPage('limits');
  await page.goto(`${site.base}/`);

  // A body over the server's 16 KiB limit.
  await page.route('**/api/rooms', (route) => {
    const body = JSON.parse(route.request().postData());
    route.continue({ postData: JSON.stringify({ ...body, padding: 'x'.repeat(20_000) }) });
  }, { times: 1 });
  await byId(page, 'create-room').click();
  await byId(page, 'create-error').waitFor({ state: 'visible' });
  assert.equal(await byId(page, 'create-error').textContent(), 'The request was too large for the server; choose other options and try again.');
  assert.equal(new URL(page.url()).pathname, '/');

  // Use up this address's room creations, then ask once more.
  const statuses = await page.evaluate(async () => {
    const seen = [];
    for (let i = 0; i < 30 && !seen.includes(429); i++) {
      const res = await fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      seen.push(res.status);
    }
    return seen;
  });
  assert.equal(statuses.at(-1), 429, `room creation is limited per address (${statuses.join(' ')})`);
  await byId(page, 'create-room').click();
  await page.waitForFunction(() => /Too many rooms/.test(document.querySelector('[data-testid="create-error"]')?.textContent ?? ''));
  assert.match(await byId(page, 'create-error').textContent(), /^Too many rooms created from your address; try again in \d+ s\.$/);
  assert.equal(new URL(page.url()).pathname, '/');
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'create-room').click();
  await page.waitForFunction(() => /quá nhiều phòng/.test(document.querySelector('[data-testid="create-error"]')?.textContent ?? ''));

  // Registrations are limited per address as well.
  await byId(page, 'lang').selectOption('en');
  const regs = await page.evaluate(async () => {
    const seen = [];
    for (let i = 0; i < 30 && !seen.includes(429); i++) {
      const body = JSON.stringify({ username: `limit_${i}`, password: 'correct horse' });
      const res = await fetch('/api/accounts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      seen.push(res.status);
    }
    return seen;
  });
  assert.equal(regs.at(-1), 429, `registration is limited per address (${regs.join(' ')})`);
  await register(page, 'one_more', 'correct horse');
  await byId(page, 'register-error').waitFor({ state: 'visible' });
  assert.equal(await byId(page, 'register-error').textContent(), 'Too many attempts from your address; wait a minute and try again.');

  await page.context().close();
  assertNoPageErrors();
});

// Browser test of a turn-based game (days per move) with the server's
// test clock (--test-clock, POST /api/test/clock): two people play one
// move a day, the home page lists the game where it is your turn (with
// the count in the tab title, in English and Vietnamese), the room says
// how long is left to move, and the deadline passing ends the game.
//
//   SERVER_BIN=/work/tgt/NAME/debug/server node --test e2e/turn-based.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, hostAndGuest, playIfMyTurn, setName, siteForTests, sit, until, waitOnline, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'turns', args: ['--test-clock', '--turn-sweep-secs', '1'] });
const { pageErrors } = site;

const HOUR = 3_600_000;

async function advance(page, ms) {
  const res = await page.request.post(`${site.base}/api/test/clock`, { data: { advance_ms: ms } });
  assert.equal(res.status(), 200);
}

/** The home page of `page`'s person: its "your turn" list and title. */
async function homeList(page) {
  await page.goto(`${site.base}/`);
  await page.waitForFunction(() => document.readyState === 'complete');
  // The list is fetched after load: wait for the answer to be drawn.
  await page.waitForLoadState('networkidle');
  return {
    hidden: await byId(page, 'turns-panel').isHidden(),
    items: await page.locator('[data-testid="turn-item"]').count(),
    title: await page.title(),
  };
}

/**
 * A CrossyRay room of one day per move, made by `host`'s browser, Minh
 * (`host`) in seat 0 and Lan (`guest`) in seat 1, not started.
 */
async function seatedTurnBasedRoom(host, guest) {
  const res = await host.request.post(`${site.base}/api/rooms`, { data: { game: 'crossyray', options: { days: 1 } } });
  assert.equal(res.status(), 201);
  const room = await res.json();
  await host.goto(`${site.base}/`);
  await host.evaluate((token) => localStorage.setItem('bg.token', token), room.token);
  await host.goto(`${site.base}/r/${room.code}`);
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  await guest.goto(`${site.base}/r/${room.code}`);
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  return room;
}

test('a turn-based game played one move a day, the your-turn list, then a time loss', async () => {
  const host = await site.newPage('turns-host');
  const guest = await site.newPage('turns-guest');
  const room = await seatedTurnBasedRoom(host, guest);
  assert.match(await byId(host, 'options-summary').textContent(), /1 day per move/);
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();

  // No clock: the time left to move, for the side to move.
  await host.waitForSelector('[data-testid="turn-left"]');
  assert.match(await byId(host, 'turn-left').textContent(), /^(1 day|23 h) left to move$/);
  assert.equal(await host.locator('[data-testid^="clock-"]').count(), 0);
  assert.ok(await playIfMyTurn(host), 'Minh moves first');
  await waitPly(guest, 1);
  await until(() => guest.title(), (t) => t.startsWith('● Your turn'), 'the room title says it is your turn');

  // Lan's home page lists the game; Minh's does not.
  const lanHome = await guest.context().newPage();
  let lan = await homeList(lanHome);
  assert.deepEqual([lan.hidden, lan.items], [false, 1]);
  assert.match(lan.title, /^\(1\) /);
  assert.match(await byId(lanHome, `turn-left-${room.code}`).textContent(), /h left to move/);
  assert.match(await byId(lanHome, `turn-link-${room.code}`).textContent(), /Minh – Lan/);
  const minhHome = await host.context().newPage();
  const minh = await homeList(minhHome);
  assert.deepEqual([minh.hidden, minh.items], [true, 0]);
  assert.doesNotMatch(minh.title, /^\(/);

  // A day less an hour later, Lan moves (from the list's link); and so on.
  await advance(host, 23 * HOUR);
  await lanHome.click(`[data-testid="turn-link-${room.code}"]`);
  await waitOnline(lanHome);
  assert.match(await byId(lanHome, 'turn-left').textContent(), /^0 min left to move$|^\d+ min left to move$/);
  assert.ok(await playIfMyTurn(lanHome), 'Lan moves');
  await waitPly(host, 2);
  await advance(host, 20 * HOUR);
  // Minh's list now has it, in Vietnamese too.
  await minhHome.goto(`${site.base}/`);
  await byId(minhHome, 'lang').selectOption('vi');
  await minhHome.waitForSelector('[data-testid="turn-item"]');
  assert.match(await minhHome.title(), /^\(1\) /);
  assert.equal(await minhHome.locator('#turns-title').textContent(), 'Đến lượt bạn');
  assert.match(await byId(minhHome, `turn-left-${room.code}`).textContent(), /^Còn \d+ giờ để đi$/);
  await host.reload();
  await waitOnline(host);
  assert.ok(await playIfMyTurn(host), 'Minh moves, 20 h later');
  await waitPly(lanHome, 3);

  // Lan lets the day pass: she loses on time, with her pages open or not.
  await lanHome.close();
  await guest.close();
  await advance(host, 24 * HOUR + 2_000);
  await host.waitForSelector('[data-testid="result"][data-reason="timeout"]:not([hidden])', { timeout: 15_000 });
  lan = await homeList(await site.newPage('turns-none'));
  assert.equal(lan.items, 0);
  const games = await (await host.request.get(`${site.base}/api/rooms/${room.code}/games`)).json();
  assert.equal(games.games[0].outcome.reason, 'timeout');
  assert.equal(games.games[0].outcome.winner, 0);
  assert.deepEqual(pageErrors, []);
});

test('a live game one plays is listed on the home page of another page of the browser, in both languages', async () => {
  const { room, host, guest } = await hostAndGuest(site, 'jungle', 'playing');
  const lanHome = await guest.context().newPage();
  await homeList(lanHome);
  assert.ok(await byId(lanHome, 'playing-panel').isHidden(), 'no game yet');
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await host.waitForSelector('[data-testid="board"][data-my-turn="true"]');

  await homeList(lanHome);
  assert.ok(await byId(lanHome, 'playing-panel').isVisible());
  assert.match(await byId(lanHome, `playing-link-${room.code}`).textContent(), /^Jungle · Minh – Lan$/);
  await byId(lanHome, 'lang').selectOption('vi');
  assert.equal(await lanHome.locator('#playing-title').textContent(), 'Ván đang chơi');
  await byId(lanHome, `playing-link-${room.code}`).click();
  await waitOnline(lanHome);
  assert.equal(new URL(lanHome.url()).pathname, `/r/${room.code}`);

  // Over: the list no longer has it.
  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  await host.waitForSelector('[data-testid="result"]:not([hidden])');
  const after = await guest.context().newPage();
  await homeList(after);
  assert.ok(await byId(after, 'playing-panel').isHidden(), 'the game is over');
  assert.deepEqual(pageErrors, []);
});

test('the time left to move counts down on the room page, from the event\'s time, as the clocks do', async () => {
  const host = await site.newPage('countdown-host');
  const guest = await site.newPage('countdown-guest');
  // The host's page runs on Playwright's clock: its timers and
  // performance.now() jump when the test says (the server's time does not).
  await host.clock.install();
  await seatedTurnBasedRoom(host, guest);
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await host.waitForSelector('[data-testid="turn-left"]');
  const left = () => byId(host, 'turn-left').textContent();
  assert.match(await left(), /^(1 day|23 h) left to move$/);

  // Two hours later on the page, without any event: it counted down.
  await host.clock.fastForward('02:00:00');
  await until(left, (t) => /^2[12] h left to move$/.test(t), 'two hours less');
  // Near the end, in minutes.
  await host.clock.fastForward('21:30:00');
  await until(left, (t) => t === '30 min left to move', 'half an hour left');
  await host.clock.fastForward('20:00');
  await until(left, (t) => t === '10 min left to move', 'ten minutes left');
  await byId(host, 'lang').selectOption('vi');
  await until(left, (t) => t === 'Còn 10 phút để đi', 'in Vietnamese');
  await byId(host, 'lang').selectOption('en');
  // A move is an event: the guest's turn, a day from the move's time again.
  assert.ok(await playIfMyTurn(host), 'Minh moves');
  await waitPly(host, 1);
  await until(left, (t) => /^(1 day|23 h) left to move$/.test(t), 'a fresh day for Lan');
  for (const p of [host, guest]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

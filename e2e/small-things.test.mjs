// Browser test of small things people hit (issue 26), on a site where
// guests may not host: a returning host types their username and password
// into the create form (a wrong password offers the log-in form, the right
// one logs in and hosts); after a game a guest reads the countdown, not
// "waiting for the host"; an aborted game on the profile; a game against
// the computer has neither auto-start, Rated nor Rematch, only Play again;
// "Offer a draw" disabled while one's offer stands and after a decline,
// until the next move; the sessions named by browser and system; Buy
// disabled without the coins, saying how many are missing.
//
//   SERVER_BIN=../target/debug/server node --test small-things.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  byId, noHorizontalScroll, openAsHost, playPlies, setName, sit, siteForTests, waitOnline, waitPly,
} from './harness.mjs';

const site = siteForTests({ tag: 'small', guestHosts: false, args: ['--bot-ms', '100', '--register-burst', '50'] });
const { pageErrors } = site;

const ROOM_URL = /\/r\/[A-HJ-NP-Z2-9]{6}$/;
const PASSWORD = 'password1';

/** Closes the pages' browsers; no page had an uncaught error (nor a CSP violation). */
async function done(...pages) {
  for (const p of pages) await p.context().close();
  assert.deepEqual(pageErrors, [], 'no uncaught errors (nor CSP violations) in any page');
}

/** Registers `username` from `page` (POST /api/accounts): the page's browser is signed in. */
async function signUp(page, username) {
  await page.goto(`${site.base}/`);
  const status = await page.evaluate(async (u) => (await fetch('/api/accounts', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: u, password: 'password1' }),
  })).status, username);
  assert.equal(status, 201);
}

/** Waits until the element `id` of `page` reads `text` exactly. */
function reads(page, id, text) {
  return page.waitForFunction(([i, s]) => document.querySelector(`[data-testid="${i}"]`)?.textContent === s, [id, text]);
}

/** Resigns (two clicks) and waits for the result. */
async function resign(page) {
  await byId(page, 'resign').click();
  await byId(page, 'resign').click();
  await page.waitForSelector('[data-testid="result"]:not([hidden])');
}

test('a returning host types their username and password into the create form: wrong, then right', { timeout: 120_000 }, async () => {
  const first = await site.newPage('first');
  await signUp(first, 'Hoang_e2e');
  await first.context().close();

  const page = await site.newPage('returning');
  await page.goto(`${site.base}/`);
  await byId(page, 'create-account').waitFor();
  await byId(page, 'host-username').fill('hoang_e2e');
  await byId(page, 'host-password').fill('not my password');
  await byId(page, 'create-room').click();
  await reads(page, 'create-error', 'That username is taken — wrong password?');
  assert.equal(new URL(page.url()).pathname, '/', 'no room made');
  assert.equal(await byId(page, 'host-username').getAttribute('aria-invalid'), 'true');
  assert.equal(await byId(page, 'host-taken').isVisible(), true);
  assert.equal(await byId(page, 'account-out').isVisible(), true, 'not signed in');

  // "Log in": the Account panel's form, with the username, the cursor in the password.
  await byId(page, 'host-taken-login').click();
  assert.equal(await byId(page, 'login-username').inputValue(), 'hoang_e2e');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-password');

  // In Vietnamese the same words.
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'create-room').click();
  await reads(page, 'create-error', 'Tên đăng nhập này đã có người dùng — sai mật khẩu?');
  await reads(page, 'host-taken-login', 'Đăng nhập');
  await byId(page, 'lang').selectOption('en');

  // The right password: logged in, and the room is the account's.
  await byId(page, 'host-password').fill(PASSWORD);
  await byId(page, 'host-password').press('Enter');
  await page.waitForURL(ROOM_URL);
  await waitOnline(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="name-current"]')?.textContent.includes('Hoang_e2e'));
  await page.locator('#members [data-testid^="account-badge-"]').waitFor();
  assert.ok((await page.context().cookies()).some((c) => c.name === 'session'), 'signed in');
  await done(page);
});

test('after a game the guest reads the countdown, not "waiting for the host"; the aborted game is on the profile', { timeout: 120_000 }, async () => {
  const host = await site.newPage('host');
  await signUp(host, 'Minh_e2e');
  const guest = await site.newPage('guest');
  await signUp(guest, 'Lan_e2e');
  /** Both sit in a new `game` room of the host's; the room's code. */
  async function seated(game) {
    const room = await openAsHost(host, site.base, game);
    await waitOnline(host);
    await sit(host, 0, 'Minh_e2e');
    await guest.goto(`${site.base}/r/${room.code}`);
    await waitOnline(guest);
    await sit(guest, 1, 'Lan_e2e');
    await byId(host, 'start-order').selectOption('seats');
    await byId(host, 'start').click();
    await waitPly(guest, 0);
    await host.waitForSelector('[data-testid="resign"]:not([hidden])');
  }

  // A Quoridor game resigned before two moves is aborted; the countdown
  // runs, and the waiting line does not contradict it.
  await seated('quoridor');
  await resign(host);
  await guest.waitForSelector('[data-testid="result"][data-kind="aborted"]');
  await guest.waitForSelector('[data-testid="countdown"]:not([hidden])');
  const seen = await guest.evaluate(() => ({
    countdown: document.querySelector('[data-testid="countdown-text"]').textContent,
    hint: document.querySelector('[data-testid="game-hint"]').textContent,
  }));
  assert.match(seen.countdown, /^Next game in \d+ s$/);
  assert.equal(seen.hint, '', 'no "waiting for the host" beside the countdown');
  // Paused, it still says when; off, the host starts the next game.
  await byId(host, 'countdown-toggle').click();
  await guest.waitForFunction(() => /^Next game paused \(\d+ s left\)$/.test(document.querySelector('[data-testid="countdown-text"]').textContent));
  assert.equal(await byId(guest, 'game-hint').textContent(), '');
  await byId(host, 'autostart').uncheck();
  await guest.waitForSelector('[data-testid="countdown"][hidden]', { state: 'attached' });
  await reads(guest, 'game-hint', 'Waiting for the host to start the game.');

  // A CrossyRay game lost by resigning after two moves.
  await seated('crossyray');
  await playPlies([host, guest], 0, 2);
  await resign(host);
  await guest.waitForSelector('[data-testid="result"][data-kind="win"]');

  // The host's profile: played = won + drawn + lost + aborted, in both languages.
  await guest.goto(`${site.base}/u/Minh_e2e`);
  await guest.waitForFunction(() => document.querySelectorAll('[data-testid="profile-game"]').length === 2);
  const cells = (game) => guest.evaluate((g) => {
    const row = document.querySelector(`[data-testid="profile-game"][data-game="${g}"]`);
    return Object.fromEntries(['played', 'wins', 'draws', 'losses', 'aborted']
      .map((k) => [k, Number(row.querySelector(`[data-testid="${k}"]`).textContent)]));
  }, game);
  assert.deepEqual(await cells('crossyray'), { played: 1, wins: 0, draws: 0, losses: 1, aborted: 0 });
  assert.deepEqual(await cells('quoridor'), { played: 1, wins: 0, draws: 0, losses: 0, aborted: 1 });
  const heads = () => guest.$$eval('#profile-games thead th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(await heads(), ['Game', 'Played', 'Won', 'Drawn', 'Lost', 'Aborted', 'Rating']);
  await guest.setViewportSize({ width: 360, height: 740 });
  await byId(guest, 'lang').selectOption('vi');
  await guest.waitForFunction(() => document.querySelector('#profile-games thead th:nth-child(6)')?.textContent === 'Bị hủy');
  assert.deepEqual(await heads(), ['Trò chơi', 'Đã chơi', 'Thắng', 'Hòa', 'Thua', 'Bị hủy', 'Hệ số']);
  await noHorizontalScroll(guest, 'profile with the aborted games');
  await done(host, guest);
});

test('a game against the computer: no auto-start, no Rated, and one button to play again', { timeout: 120_000 }, async () => {
  const page = await site.newPage('solo');
  await page.goto(`${site.base}/`);
  await byId(page, 'solo-name').fill('Khoa');
  await byId(page, 'solo-play').click();
  await page.waitForURL(ROOM_URL);
  await waitOnline(page);
  await page.waitForSelector('[data-testid="resign"]:not([hidden])');
  const boxes = () => page.evaluate(() => ({
    autostart: document.getElementById('autostart-box').hidden,
    rated: document.getElementById('rated-box').hidden,
  }));
  assert.deepEqual(await boxes(), { autostart: true, rated: true }, 'during the game');
  await resign(page);
  await page.waitForSelector('[data-testid="start"]:not([hidden])');
  assert.equal(await byId(page, 'start').textContent(), 'Play again');
  assert.equal(await byId(page, 'rematch').isHidden(), true, 'no Rematch beside Play again');
  assert.deepEqual(await boxes(), { autostart: true, rated: true }, 'after the game');
  // Play again starts the next game.
  await byId(page, 'start').click();
  await page.waitForSelector('[data-testid="result"][hidden]', { state: 'attached' });
  await page.waitForSelector('[data-testid="resign"]:not([hidden])');
  await done(page);
});

/** The player to move in Jungle clicks an animal that can move, then its first target. */
async function jungleMove(players) {
  for (;;) {
    for (const page of players) {
      const from = page.locator('[data-testid="board"][data-my-turn="true"] [data-movable="true"]').first();
      if (!(await from.count())) continue;
      await from.click();
      await page.locator('[data-testid="board"] [data-target]').first().click();
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('"Offer a draw" waits while one\'s offer stands and after a decline, until the next move', { timeout: 120_000 }, async () => {
  const host = await site.newPage('drawer');
  await signUp(host, 'Tuan_e2e');
  const room = await openAsHost(host, site.base, 'jungle');
  await waitOnline(host);
  await sit(host, 0, 'Tuan_e2e');
  const guest = await site.newPage('decliner');
  await guest.goto(`${site.base}/r/${room.code}`);
  await waitOnline(guest);
  await setName(guest, 'Mai');
  await sit(guest, 1, 'Mai');
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();

  const offer = (page) => page.evaluate(() => {
    const b = document.querySelector('[data-testid="draw-offer"]');
    return { hidden: b.hidden, disabled: b.disabled, title: b.title };
  });
  await host.waitForSelector('[data-testid="draw-offer"]:not([hidden]):not([disabled])');
  await byId(host, 'draw-offer').click();
  await guest.waitForSelector('[data-testid="draw-decline"]:not([hidden])');
  await host.waitForSelector('[data-testid="draw-offer"][disabled]');
  assert.deepEqual(await offer(host), {
    hidden: false, disabled: true, title: 'One offer between two moves: offer again after the next move.',
  }, 'while the offer stands');
  await byId(guest, 'draw-decline').click();
  await host.waitForSelector('[data-testid="draw-box"][hidden]', { state: 'attached' });
  assert.deepEqual(await offer(host), {
    hidden: false, disabled: true, title: 'One offer between two moves: offer again after the next move.',
  }, 'after the decline');
  // The decliner's page hears of its own decline a moment later.
  await guest.waitForSelector('[data-testid="draw-offer"]:not([hidden])', { timeout: 10_000 });
  assert.deepEqual(await offer(guest), { hidden: false, disabled: false, title: '' }, 'the other side may offer');

  // The next move: the offer may be made again.
  await jungleMove([host, guest]);
  await waitPly(host, 1);
  await host.waitForSelector('[data-testid="draw-offer"]:not([hidden]):not([disabled])');
  assert.equal((await offer(host)).title, '');
  await byId(host, 'lang').selectOption('vi');
  await byId(host, 'draw-offer').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="draw-offer"]')?.title === 'Mỗi lượt chỉ cầu hòa một lần: hãy cầu hòa lại sau nước đi tiếp theo.');
  await done(host, guest);
});

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

test('the sessions are named by browser and system, the raw string as a tooltip', { timeout: 120_000 }, async () => {
  const phone = await site.newPage('android', { userAgent: ANDROID_CHROME, viewport: { width: 360, height: 740 } });
  await signUp(phone, 'Vy_agents');
  const desk = await site.newPage('windows', { userAgent: WINDOWS_FIREFOX });
  await desk.goto(`${site.base}/`);
  const status = await desk.evaluate(async () => (await fetch('/api/login', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'vy_agents', password: 'password1' }),
  })).status);
  assert.equal(status, 200);

  await phone.goto(`${site.base}/account`);
  await phone.waitForFunction(() => document.querySelectorAll('[data-testid="session-agent"]').length === 2);
  const agents = () => phone.$$eval('[data-testid="sessions"] li', (lis) => lis.map((li) => {
    const a = li.querySelector('[data-testid="session-agent"]');
    return { current: li.dataset.current, text: a.textContent, title: a.title };
  }).sort((x, y) => x.current.localeCompare(y.current)));
  assert.deepEqual(await agents(), [
    { current: 'false', text: 'Firefox on Windows', title: WINDOWS_FIREFOX },
    { current: 'true', text: 'Chrome on Android', title: ANDROID_CHROME },
  ]);
  await byId(phone, 'lang').selectOption('vi');
  await phone.waitForFunction(() => [...document.querySelectorAll('[data-testid="session-agent"]')].some((a) => a.textContent === 'Chrome trên Android'));
  assert.deepEqual((await agents()).map((a) => a.text), ['Firefox trên Windows', 'Chrome trên Android']);
  await noHorizontalScroll(phone, 'sessions');
  await done(phone, desk);
});

test('Buy is disabled with fewer coins than the price, and says how many are missing', { timeout: 120_000 }, async () => {
  const page = await site.newPage('shopper');
  await signUp(page, 'Thu_e2e');
  await page.goto(`${site.base}/account`);
  await byId(page, 'buy-crossyray-slate').waitFor();
  const buy = () => page.evaluate(() => {
    const b = document.querySelector('[data-testid="buy-crossyray-slate"]');
    const need = document.querySelector('[data-testid="need-crossyray-slate"]');
    return { disabled: b.disabled, need: need?.textContent ?? null, describedBy: b.getAttribute('aria-describedby') };
  });
  assert.deepEqual(await buy(), { disabled: true, need: '10 more coins needed', describedBy: 'need-crossyray-slate' });
  await byId(page, 'lang').selectOption('vi');
  await reads(page, 'need-crossyray-slate', 'cần thêm 10 xu');
  await byId(page, 'lang').selectOption('en');
  // The check-in's 10 coins are enough.
  await byId(page, 'shop-checkin').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="buy-crossyray-slate"]').disabled);
  assert.deepEqual(await buy(), { disabled: false, need: null, describedBy: null });
  await byId(page, 'buy-crossyray-slate').click();
  await page.waitForSelector('[data-testid="item-crossyray-slate"][data-owned="true"]');
  // Spent: the next theme waits for coins again.
  await reads(page, 'need-quoridor-stone', '10 more coins needed');
  assert.equal(await byId(page, 'buy-quoridor-stone').isDisabled(), true);
  await done(page);
});

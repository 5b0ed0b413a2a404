// Browser test of host accounts and sessions, on a site where guests may
// not host (no --guest-hosts): a newcomer registers in the create form's
// two fields and lands in their room, signed in by an HttpOnly cookie that
// page scripts cannot read; a guest joins by the link with only a name;
// a guest plays the computer with no account; the account page lists the
// sessions, logs out everywhere else and changes the password; all in
// Vietnamese too and on a 360 px phone.
//
//   SERVER_BIN=../target/debug/server node --test hosting.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, joinAndSit, logIn, noHorizontalScroll, register, siteForTests, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'hosting', guestHosts: false, args: ['--bot-ms', '100'] });
const { pageErrors } = site;

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors (nor CSP violations) in any page');
}

const ROOM_URL = /\/r\/[A-HJ-NP-Z2-9]{6}$/;

test('a newcomer registers in the create form and hosts; a guest joins by the link', { timeout: 120_000 }, async () => {
  const page = await site.newPage('host');
  await page.goto(`${site.base}/`);
  await byId(page, 'create-account').waitFor();
  assert.equal(await byId(page, 'account-out').isVisible(), true);

  // Without the fields filled in, the server's refusal comes back in words
  // and no room is made.
  await byId(page, 'create-room').click();
  await byId(page, 'create-error').waitFor();
  assert.match(await byId(page, 'create-error').textContent(), /username has 3 to 20/);
  assert.equal(await byId(page, 'host-username').getAttribute('aria-invalid'), 'true');
  assert.equal(new URL(page.url()).pathname, '/');

  // Two fields and the button (the keyboard way: Enter submits the form).
  await byId(page, 'host-username').fill('Hoa_host');
  await byId(page, 'host-password').fill('correct horse');
  await byId(page, 'host-password').press('Enter');
  await page.waitForURL(ROOM_URL);
  await waitOnline(page);
  const code = new URL(page.url()).pathname.slice(3);
  await page.waitForFunction(() => document.querySelector('[data-testid="name-current"]')?.textContent.includes('Hoa_host'));
  await page.locator('#members [data-testid^="account-badge-"]').waitFor();

  // The session is an HttpOnly cookie: the page's scripts cannot read it.
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'session');
  assert.ok(session, 'a session cookie');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  assert.equal(session.secure, false, 'plain http here');
  assert.ok(session.expires * 1000 > Date.now() + 29 * 24 * 3600 * 1000, 'kept for 30 days');
  assert.equal(await page.evaluate(() => document.cookie.includes('session')), false);
  assert.equal(await page.evaluate((secret) => Object.values(localStorage).some((v) => v.includes(secret)), session.value), false);

  // Back home, the form needs no fields any more.
  await page.goto(`${site.base}/`);
  await byId(page, 'account-in').waitFor();
  assert.equal(await byId(page, 'create-account').isVisible(), false);

  // A guest joins by the link with only a name and sits.
  const guest = await site.newPage('guest');
  await joinAndSit(guest, site.base, code, 'Lan', 1);
  // A guest cannot create a room of their own, but sees how to.
  await guest.goto(`${site.base}/`);
  await byId(guest, 'create-account').waitFor();
  const created = await guest.evaluate(async () => (await fetch('/api/rooms', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
  })).status);
  assert.equal(created, 401);
  await guest.context().close();
  await page.context().close();
  assertNoPageErrors();
});

test('a guest plays the computer without an account', { timeout: 120_000 }, async () => {
  const page = await site.newPage('solo');
  await page.goto(`${site.base}/`);
  await byId(page, 'account-out').waitFor();
  await byId(page, 'solo-name').fill('Khoa');
  await byId(page, 'solo-play').click();
  await page.waitForURL(ROOM_URL);
  await waitOnline(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="seat-name-0"]')?.textContent === 'Khoa');
  await page.context().close();
  assertNoPageErrors();
});

test('the account page lists sessions, logs out everywhere else and changes the password', { timeout: 120_000 }, async () => {
  const here = await site.newPage('here');
  await here.goto(`${site.base}/`);
  await register(here, 'Vy_e2e', 'password123');
  await byId(here, 'account-in').waitFor();
  const there = await site.newPage('there');
  await there.goto(`${site.base}/`);
  await logIn(there, 'vy_e2e', 'password123');
  await byId(there, 'account-in').waitFor();

  await byId(here, 'account-page-link').click();
  await here.waitForURL(`${site.base}/account`);
  await byId(here, 'signed-in').waitFor();
  assert.equal(await byId(here, 'who').textContent(), 'Signed in as Vy_e2e');
  await here.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] li').length === 2);
  assert.equal(await byId(here, 'session-current').count(), 1);
  assert.match(await here.locator('[data-testid="sessions"] li').first().textContent(), /Chrome|Mozilla/);

  // Log out everywhere else: the other browser is signed out.
  await byId(here, 'end-others').click();
  await here.waitForFunction(() => document.querySelector('[data-testid="sessions-ok"]')?.textContent === 'Sessions ended: 1.');
  assert.equal(await here.locator('[data-testid="sessions"] li').count(), 1);
  await there.goto(`${site.base}/account`);
  await byId(there, 'signed-out').waitFor();

  // The other browser logs in again; a password change ends that session.
  await there.goto(`${site.base}/`);
  await logIn(there, 'Vy_e2e', 'password123');
  await byId(there, 'account-in').waitFor();
  await here.reload();
  await here.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] li').length === 2);
  await byId(here, 'password-current').fill('not-my-password');
  await byId(here, 'password-new').fill('new-password-1');
  await byId(here, 'password-submit').click();
  await here.waitForFunction(() => document.querySelector('[data-testid="password-error"]')?.textContent === 'That is not your current password.');
  assert.equal(await byId(here, 'password-current').getAttribute('aria-invalid'), 'true');
  await byId(here, 'password-current').fill('password123');
  await byId(here, 'password-submit').click();
  await byId(here, 'password-ok').waitFor();
  await here.waitForFunction(() => document.querySelectorAll('[data-testid="sessions"] li').length === 1);
  await there.goto(`${site.base}/account`);
  await byId(there, 'signed-out').waitFor();

  // In Vietnamese, on a phone.
  await here.setViewportSize({ width: 360, height: 740 });
  await byId(here, 'lang').selectOption('vi');
  await here.waitForFunction(() => document.querySelector('[data-testid="end-others"]')?.textContent === 'Đăng xuất ở mọi nơi khác');
  assert.equal(await byId(here, 'who').textContent(), 'Đã đăng nhập: Vy_e2e');
  await noHorizontalScroll(here, 'account page');

  // Ending this browser's own session signs it out.
  const mine = here.locator('[data-testid="sessions"] li[data-current="true"] button');
  await mine.click();
  await byId(here, 'signed-out').waitFor();
  await here.goto(`${site.base}/`);
  await byId(here, 'account-out').waitFor();
  await here.context().close();
  await there.context().close();
  assertNoPageErrors();
});

test('the daily check-in adds coins once a day and the header shows the balance', { timeout: 60_000 }, async () => {
  const page = await site.newPage('coins', { viewport: { width: 360, height: 740 } });
  await page.goto(`${site.base}/`);
  assert.equal(await byId(page, 'coins').isVisible(), false, 'a guest has no balance');
  await register(page, 'Coin_e2e', 'password123');
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent === '0 coins');
  await byId(page, 'checkin').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="checkin-ok"]')?.textContent === '+10 coins (day 1 of your streak).');
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent === '10 coins');
  await byId(page, 'checkin').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="checkin-ok"]')?.textContent === 'Already checked in today; come back tomorrow.');
  assert.equal(await byId(page, 'coins').textContent(), '10 coins');
  await noHorizontalScroll(page, 'home page with the balance');
  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent === '10 coins');
  await byId(page, 'lang').selectOption('vi');
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent === '10 xu');
  await byId(page, 'coins').click();
  await page.waitForURL(`${site.base}/account`);
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent === '10 xu');
  await page.context().close();
  assertNoPageErrors();
});

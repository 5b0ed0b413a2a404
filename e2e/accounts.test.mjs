// Browser test of accounts: the real server binary, Debian's chromium
// driven by playwright-core, node's built-in test runner.
//
//   SERVER_BIN=../target/debug/server node --test accounts.test.mjs
//
// Someone registers on the home page, sees "Signed in as", reloads (still
// signed in), logs out, fails and then succeeds to log in, creates a room
// that shows their account name and a "registered" badge to everyone; a
// guest who already sits in a room registers and keeps the seat; logging
// out (home page or account page) forgets the name the account played
// under, so the next person at the browser starts with an empty name box;
// the panel reads in Vietnamese and fits a 360 px phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, createRoomByPage, joinAndSit, logIn, noHorizontalScroll, register, sit, siteForTests, waitOnline } from './harness.mjs';

// Six accounts: more than the default registrations from one address at once.
const site = siteForTests({ tag: 'accounts', args: ['--register-burst', '10'] });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

// ---------------------------------------------------------------- tests

const signedIn = (page, name) => page.waitForFunction(
  (n) => {
    const p = document.querySelector('[data-testid="account-signed-in"]');
    return p && !p.closest('[hidden]') && p.textContent.includes(n);
  },
  name,
);

test('register, reload, log out, log in again, and host a room as a registered player', { timeout: 120_000 }, async () => {
  const page = await newPage('minh');
  await page.goto(`${site.base}/`);
  await byId(page, 'account-out').waitFor();
  assert.equal(await byId(page, 'account-in').isVisible(), false);

  // Refusals come back in words, and nothing is signed in.
  await register(page, 'ab', 'password123');
  await page.waitForFunction(() => /3 to 20/.test(document.querySelector('[data-testid="register-error"]')?.textContent ?? ''));
  await register(page, 'Minh_e2e', 'short');
  await page.waitForFunction(() => /8 to 128/.test(document.querySelector('[data-testid="register-error"]')?.textContent ?? ''));

  await register(page, 'Minh_e2e', 'password123', 'minh@example.org');
  await signedIn(page, 'Signed in as Minh_e2e');
  assert.equal(await byId(page, 'account-out').isVisible(), false);
  const token = await page.evaluate(() => localStorage.getItem('bg.token'));
  assert.ok(token && token.length >= 16, 'the session token is kept as bg.token');
  assert.equal(await byId(page, 'register-password').inputValue(), '', 'the password field is cleared');

  await page.reload();
  await signedIn(page, 'Signed in as Minh_e2e');

  await byId(page, 'account-logout').click();
  await byId(page, 'account-out').waitFor();
  // (The home page's lobby may at once say hello as a new guest, and keep that guest's new token.)
  assert.notEqual(await page.evaluate(() => localStorage.getItem('bg.token')), token, 'logging out forgets the token');
  const me = await page.evaluate(async (t) => (await fetch(`/api/me?token=${t}`)).status, token);
  assert.equal(me, 401, 'the old session is over on the server too');
  await page.reload();
  await byId(page, 'account-out').waitFor();

  // Taken in any case.
  await register(page, 'minh_E2E', 'password123');
  await page.waitForFunction(() => /taken/.test(document.querySelector('[data-testid="register-error"]')?.textContent ?? ''));

  await logIn(page, 'Minh_e2e', 'wrong-password');
  await page.waitForFunction(() => document.querySelector('[data-testid="login-error"]')?.textContent === 'Wrong username or password.');
  await logIn(page, 'minh_e2e', 'password123');
  await signedIn(page, 'Signed in as Minh_e2e');

  // A room: the account's name is already there, with the badge.
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(page);
  const code = new URL(page.url()).pathname.slice(3);
  await page.waitForFunction(() => document.querySelector('[data-testid="name-current"]')?.textContent.includes('Minh_e2e'));
  const myBadge = page.locator('#members [data-testid^="account-badge-"]');
  await myBadge.waitFor();
  assert.equal(await myBadge.textContent(), 'registered');
  assert.equal(await myBadge.getAttribute('title'), 'Registered account: Minh_e2e');
  await byId(page, 'sit-0').click();
  await byId(page, 'account-seat-0').waitFor();

  // Another browser sees who is registered, and is not itself.
  const guest = await newPage('guest');
  await guest.goto(`${site.base}/r/${code}`);
  await waitOnline(guest);
  await byId(guest, 'account-seat-0').waitFor();
  assert.equal(await guest.locator('#members [data-testid^="account-badge-"]').count(), 1, 'only the host has the badge');
  await guest.context().close();
  await page.context().close();
  assertNoPageErrors();
});

test('a guest seated in a room registers on the home page and comes back to the same seat, now registered', { timeout: 120_000 }, async () => {
  const host = await newPage('host');
  const code = await createRoomByPage(host, site.base);

  const guest = await newPage('lan');
  await joinAndSit(guest, site.base, code, 'Lan', 1);
  const guestToken = await guest.evaluate(() => localStorage.getItem('bg.token'));
  assert.equal(await host.locator('[data-testid="account-seat-1"]').count(), 0, 'a guest has no badge');

  await guest.goto(`${site.base}/`);
  await register(guest, 'lan_e2e', 'password123');
  await signedIn(guest, 'lan_e2e');
  assert.equal(await guest.evaluate(() => localStorage.getItem('bg.token')), guestToken, 'registering keeps the browser token');

  await guest.goto(`${site.base}/r/${code}`);
  await waitOnline(guest);
  await guest.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.textContent === 'Lan');
  await byId(guest, 'stand').waitFor(); // still the guest's own seat
  await byId(host, 'account-seat-1').waitFor();
  await host.context().close();
  await guest.context().close();
  assertNoPageErrors();
});

test('a guest\'s pages ask who is signed in once; a sign-in and a sign-out set and clear the page\'s hint', { timeout: 120_000 }, async () => {
  const page = await newPage('guest-401s');
  const refused = [];
  page.on('response', (r) => { if (r.status() === 401) refused.push(new URL(r.url()).pathname); });
  const settle = () => page.waitForLoadState('networkidle');
  // The first page asks once; from then on, no page asks what a guest is refused.
  await page.goto(`${site.base}/`);
  await byId(page, 'account-out').waitFor();
  await settle();
  assert.deepEqual(refused, ['/api/me']);
  await page.reload();
  await byId(page, 'account-out').waitFor();
  for (const path of ['/account', '/games', '/rules/jungle', '/u/nobody_here']) {
    await page.goto(`${site.base}${path}`);
    await settle();
  }
  assert.deepEqual(refused, ['/api/me'], 'no more 401s');
  // Registering sets the page's hint beside the session: the next pages ask, and are answered.
  await page.goto(`${site.base}/`);
  await register(page, 'Hint_e2e', 'password123');
  await signedIn(page, 'Signed in as Hint_e2e');
  const hint = async () => (await page.context().cookies()).find((c) => c.name === 'signed_in');
  assert.equal((await hint())?.value, '1');
  assert.equal((await hint())?.httpOnly, false, 'the page may read it');
  await page.reload();
  await signedIn(page, 'Signed in as Hint_e2e');
  // Logging out clears it with the session.
  await byId(page, 'account-logout').click();
  await byId(page, 'account-out').waitFor();
  assert.equal(await hint(), undefined);
  assert.deepEqual(refused, ['/api/me']);
  assertNoPageErrors();
});

test('logging out forgets the account\'s name and token: the next person starts as a new guest', { timeout: 120_000 }, async () => {
  const page = await newPage('shared');
  await page.goto(`${site.base}/`);
  await register(page, 'rival_1', 'password123');
  await signedIn(page, 'Signed in as rival_1');
  const stored = () => page.evaluate(() => Object.fromEntries(['bg.token', 'bg.name', 'bg.cosmetics', 'bg.guest'].map((k) => [k, localStorage.getItem(k)])));
  const before = await stored();
  assert.equal(before['bg.name'], 'rival_1', 'signed in, the account\'s name is the browser\'s');
  assert.equal(await byId(page, 'solo-name').inputValue(), 'rival_1');

  await byId(page, 'account-logout').click();
  await byId(page, 'account-out').waitFor();
  const after = await stored();
  assert.equal(after['bg.name'], null, 'the name is forgotten');
  assert.notEqual(after['bg.token'], before['bg.token'], 'so is the token');
  assert.equal(after['bg.cosmetics'], null);
  assert.equal(after['bg.guest'], '1', 'the browser is a guest\'s again: no page asks who is signed in');
  for (const id of ['seek-name', 'solo-name']) assert.equal(await byId(page, id).inputValue(), '', `${id} is empty`);
  // The next person, later.
  await page.reload();
  await byId(page, 'account-out').waitFor();
  await byId(page, 'seek-name').waitFor();
  for (const id of ['seek-name', 'solo-name']) assert.equal(await byId(page, id).inputValue(), '', `${id} is empty after a reload`);

  // The same from the account page's Log out.
  await logIn(page, 'rival_1', 'password123');
  await signedIn(page, 'Signed in as rival_1');
  assert.equal((await stored())['bg.name'], 'rival_1');
  await page.goto(`${site.base}/account`);
  await byId(page, 'logout').click();
  await byId(page, 'signed-out').waitFor();
  const gone = await stored();
  assert.equal(gone['bg.name'], null);
  assert.equal(gone['bg.token'], null);
  await page.goto(`${site.base}/`);
  await byId(page, 'account-out').waitFor();
  assert.equal(await byId(page, 'seek-name').inputValue(), '');
  await page.context().close();
  assertNoPageErrors();
});

test('the account panel reads in Vietnamese and fits a 360 px phone', { timeout: 60_000 }, async () => {
  const phone = await newPage('phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await phone.goto(`${site.base}/`);
  await byId(phone, 'account-out').waitFor();
  await noHorizontalScroll(phone, 'home page with the account forms');
  await byId(phone, 'lang').selectOption('vi');
  await phone.waitForFunction(() => document.querySelector('#account-title')?.textContent === 'Tài khoản');
  assert.equal(await byId(phone, 'register-submit').textContent(), 'Đăng ký');
  await logIn(phone, 'nobody_here', 'password123');
  await phone.waitForFunction(() => document.querySelector('[data-testid="login-error"]')?.textContent === 'Sai tên đăng nhập hoặc mật khẩu.');
  await register(phone, 'chi_phone', 'password123');
  await signedIn(phone, 'Đã đăng nhập: chi_phone');
  await noHorizontalScroll(phone, 'home page signed in');
  await phone.context().close();
  assertNoPageErrors();
});

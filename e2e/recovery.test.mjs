// Browser test of email recovery on a server with no SMTP server: the
// links are written to the server's log, as a self-hoster would find
// them. Someone registers with an email, confirms it by the logged link,
// forgets the password, asks for a link on the home page, chooses a new
// password on the reset page (signed in there, the old password dead), and
// a second use of the link is refused in words.
//
//   SERVER_BIN=../target/debug/server node --test recovery.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, logIn, register, siteForTests } from './harness.mjs';

const site = siteForTests({ tag: 'recovery' });
const { pageErrors } = site;

/** The newest link the log holds that starts with `prefix` (waits for it). */
async function loggedLink(prefix, seen = 0) {
  for (let i = 0; i < 100; i++) {
    const links = [...site.log().matchAll(/the link: (http\S+)/g)].map((m) => m[1]).filter((l) => l.startsWith(prefix));
    if (links.length > seen) return links.at(-1);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${prefix} link in the log`);
}

test('confirm an email and recover the password through the links in the log', { timeout: 120_000 }, async () => {
  const page = await site.newPage('lan');
  await page.goto(`${site.base}/`);
  await register(page, 'Lan_rec', 'password123', 'lan@example.org');
  await byId(page, 'account-in').waitFor();

  // The confirmation link, from the log, opens the account page.
  const confirm = await loggedLink(`${site.base}/account#confirm=`);
  await page.goto(confirm);
  await byId(page, 'confirm-ok').waitFor();
  assert.equal(await byId(page, 'confirm-ok').textContent(), 'lan@example.org is confirmed.');
  assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
  await page.waitForFunction(() => document.querySelector('[data-testid="email-state"]')?.textContent === 'lan@example.org (confirmed)');
  await byId(page, 'logout').click();
  await byId(page, 'signed-out').waitFor();

  // Forgot: the home page asks for a link; an unknown address gets the same words.
  await page.goto(`${site.base}/`);
  await byId(page, 'forgot').locator('summary').click();
  await byId(page, 'recover-email').fill('nobody@example.org');
  await byId(page, 'recover-submit').click();
  await byId(page, 'recover-ok').waitFor();
  const unknownAnswer = await byId(page, 'recover-ok').textContent();
  await byId(page, 'recover-email').fill('LAN@example.org');
  await byId(page, 'recover-email').press('Enter');
  const reset = await loggedLink(`${site.base}/reset#`);
  await byId(page, 'recover-ok').waitFor();
  assert.equal(await byId(page, 'recover-ok').textContent(), unknownAnswer, 'the same answer for any address');
  assert.match(unknownAnswer, /one hour/);
  assert.equal([...site.log().matchAll(/the link: http\S+\/reset#/g)].length, 1, 'no link for the unknown address');

  // The reset page: a short password is refused, then the new one works.
  await page.goto(reset);
  assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
  await byId(page, 'reset-password').fill('short');
  await byId(page, 'reset-submit').click();
  await page.waitForFunction(() => /8 to 128/.test(document.querySelector('[data-testid="reset-error"]')?.textContent ?? ''));
  await byId(page, 'reset-password').fill('a-new-password');
  await byId(page, 'reset-submit').click();
  await byId(page, 'reset-ok').waitFor();
  assert.match(await byId(page, 'reset-ok').textContent(), /signed in as Lan_rec/);
  await page.goto(`${site.base}/`);
  await page.waitForFunction(() => document.querySelector('[data-testid="account-signed-in"]')?.textContent === 'Signed in as Lan_rec');

  // The link works once.
  const other = await site.newPage('other');
  await other.goto(reset);
  await byId(other, 'reset-password').fill('third-password');
  await byId(other, 'reset-submit').click();
  await other.waitForFunction(() => document.querySelector('[data-testid="reset-error"]')?.textContent === 'This link has expired or was already used; ask for a new one.');
  // The old password is gone, the new one logs in.
  await other.goto(`${site.base}/`);
  await logIn(other, 'lan_rec', 'password123');
  await other.waitForFunction(() => document.querySelector('[data-testid="login-error"]')?.textContent === 'Wrong username or password.');
  await byId(other, 'login-password').fill('a-new-password');
  await byId(other, 'login-submit').click();
  await byId(other, 'account-in').waitFor();

  // Vietnamese on the reset page.
  await other.goto(`${site.base}/reset#nothing`);
  await byId(other, 'lang').selectOption('vi');
  await other.waitForFunction(() => document.querySelector('#reset-title')?.textContent === 'Chọn mật khẩu mới');
  await page.context().close();
  await other.context().close();
  assert.deepEqual(pageErrors, []);
});

// Browser test of the home page's lobby: two browsers pair by quick
// pairing, land in the same room and play a move each; a host lists a
// room publicly, it appears live in another browser's lobby, and one
// click there sits that browser. The lobby's words in both languages.
// Logging in on the home page turns the quick pairing into the account's
// at once (Rated and a range, and a seek the account's), logging out back
// into a guest's.
//
//   SERVER_BIN=../target/debug/server node --test lobby.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, logIn, openAsHost, playOne, setName, signedInPage, siteForTests, sit, waitOnline, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'lobby' });
const { pageErrors } = site;

const visible = (page, id) => page.waitForSelector(`[data-testid="${id}"]:not([hidden])`);

test('two browsers pair by quick pairing and play a move each', async () => {
  const minh = await site.newPage('seek-minh');
  const lan = await site.newPage('seek-lan');
  for (const [page, name] of [[minh, 'Minh'], [lan, 'Lan']]) {
    await page.goto(`${site.base}/`);
    await byId(page, 'seek-game').selectOption('crossyray');
    await byId(page, 'seek-preset').selectOption('5+3');
    await byId(page, 'seek-name').fill(name);
  }
  await byId(minh, 'seek-play').click();
  await visible(minh, 'seek-waiting');
  await visible(minh, 'seek-cancel');
  await byId(lan, 'seek-play').click();
  for (const page of [minh, lan]) {
    await page.waitForURL(/\/r\/[A-Z0-9]{6}$/);
    await waitOnline(page);
  }
  assert.equal(new URL(minh.url()).pathname, new URL(lan.url()).pathname, 'the same room');
  // The game started by itself, both seated: one move each.
  await playOne([minh, lan]);
  for (const page of [minh, lan]) await waitPly(page, 1);
  await playOne([minh, lan]);
  for (const page of [minh, lan]) await waitPly(page, 2);
  assert.deepEqual(pageErrors, []);
});

test('a seek is cancelled, and the lobby speaks Vietnamese', async () => {
  const page = await site.newPage('seek-cancel');
  await page.goto(`${site.base}/`);
  await byId(page, 'seek-game').selectOption('quoridor');
  await byId(page, 'seek-name').fill('Hoa');
  await byId(page, 'seek-play').click();
  await visible(page, 'seek-waiting');
  await byId(page, 'lang').selectOption('vi');
  assert.equal(await byId(page, 'seek-waiting').textContent(), 'Đang tìm đối thủ…');
  assert.equal(await byId(page, 'seek-cancel').textContent(), 'Hủy');
  await byId(page, 'seek-cancel').click();
  await visible(page, 'seek-play');
  assert.equal(await byId(page, 'seek-play').textContent(), 'Chơi');
  assert.equal(await byId(page, 'seek-waiting').isHidden(), true);
  await byId(page, 'lang').selectOption('en');
  assert.deepEqual(pageErrors, []);
});

test('a public room appears live in another lobby and one click sits there', async () => {
  const host = await site.newPage('public-host');
  const room = await openAsHost(host, site.base, 'crossyray');
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  const visitor = await site.newPage('public-visitor');
  await visitor.goto(`${site.base}/`);
  await visible(visitor, 'lobby-empty');
  // The guest's name, typed in "Your name", goes with the Join (an outside
  // check found a guest landing unseated).
  await byId(visitor, 'seek-name').fill('Lan');
  await byId(host, 'public').check();
  const row = visitor.locator(`[data-testid="lobby-room"][data-code="${room.code}"]`);
  await row.waitFor();
  assert.match(await row.locator('[data-testid="lobby-players"]').textContent(), /Minh/);
  assert.match(await row.locator('[data-testid="lobby-seats"]').textContent(), /1 of 2/);
  await byId(visitor, 'lang').selectOption('vi');
  assert.match(await row.locator('[data-testid="lobby-seats"]').textContent(), /Còn 1\/2/);
  await byId(visitor, 'lang').selectOption('en');
  await row.locator('[data-testid="lobby-join"]').click();
  await visitor.waitForURL(new RegExp(`/r/${room.code}$`));
  await visitor.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.textContent === 'Lan');
  // The room is full now: off the host's... and the lobby's list.
  const other = await site.newPage('public-other');
  await other.goto(`${site.base}/`);
  await visible(other, 'lobby-empty');
  assert.equal(await other.locator(`[data-testid="lobby-room"][data-code="${room.code}"]`).count(), 0);
  assert.deepEqual(pageErrors, []);
});

test('logging in on the home page makes the quick pairing the account\'s at once; logging out, a guest\'s', { timeout: 120_000 }, async () => {
  // Two accounts, registered elsewhere (the API).
  const other = await signedInPage(site, 'lobby-other', 'lobby_two');
  const page = await site.newPage('lobby-login');
  const made = await page.request.post(`${site.base}/api/accounts`, { data: { username: 'lobby_one', password: 'correct horse battery' } });
  assert.equal(made.status(), 201);
  await page.context().clearCookies(); // registered, but not signed in here
  await page.goto(`${site.base}/`);
  await byId(page, 'account-out').waitFor();
  await visible(page, 'seek-name');
  assert.equal(await byId(page, 'seek-rated').isVisible(), false, 'a guest has no Rated');

  // Logged in through the Account panel: the form is the account's without a reload.
  await logIn(page, 'lobby_one', 'correct horse battery');
  await visible(page, 'account-in');
  await visible(page, 'seek-rated');
  await visible(page, 'seek-range');
  assert.equal(await byId(page, 'seek-name').isVisible(), false, 'no name box: the account\'s name');
  // A rated seek, which the server takes from a signed-in socket only (a guest's: sign_in_to_rate).
  for (const p of [page, other]) {
    if (p === other) await p.goto(`${site.base}/`);
    await visible(p, 'seek-rated');
    await byId(p, 'seek-game').selectOption('crossyray');
    await byId(p, 'seek-preset').selectOption('10+5');
    await byId(p, 'seek-rated').check();
  }
  await byId(page, 'seek-play').click();
  await visible(page, 'seek-waiting');
  assert.equal(await byId(page, 'seek-error').isVisible(), false);
  await byId(other, 'seek-play').click();
  for (const p of [page, other]) {
    await p.waitForURL(/\/r\/[A-Z0-9]{6}$/);
    await waitOnline(p);
  }
  // Two rated seeks paired (a guest's is refused): both seated as their accounts.
  for (const name of ['lobby_one', 'lobby_two']) {
    await page.waitForFunction((n) => [0, 1].some((s) => document.querySelector(`[data-testid="seat-name-${s}"]`)?.textContent === n), name);
  }
  assert.equal(await page.locator('[data-testid^="account-seat-"]').count(), 2, 'both seats an account\'s');

  // Logged out on the home page: a guest's form again, with an empty name box.
  await page.goto(`${site.base}/`);
  await visible(page, 'account-in');
  await visible(page, 'seek-rated');
  await byId(page, 'account-logout').click();
  await visible(page, 'account-out');
  await visible(page, 'seek-name');
  assert.equal(await byId(page, 'seek-rated').isVisible(), false);
  assert.equal(await byId(page, 'seek-range').isVisible(), false);
  assert.equal(await byId(page, 'seek-name').inputValue(), '');
  await byId(page, 'seek-name').fill('Hoa');
  await byId(page, 'seek-play').click();
  await visible(page, 'seek-waiting');
  await byId(page, 'seek-cancel').click();
  await visible(page, 'seek-play');
  for (const p of [page, other]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

test('a refused name in quick pairing is named at the name box and never saved; the open rooms stay listed, the computer by its name', async () => {
  // A public room whose host seated the computer (Master) and left a seat free.
  const host = await site.newPage('refused-host');
  const room = await openAsHost(host, site.base, 'crossyray');
  await waitOnline(host);
  await setName(host, 'Minh');
  // Listed first: the page offers Public only while no computer sits.
  await byId(host, 'public').check();
  await byId(host, 'computer-level-1').selectOption('master');
  await byId(host, 'computer-add-1').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.dataset.computer === 'master');

  const page = await site.newPage('refused-guest');
  await page.goto(`${site.base}/`);
  const row = page.locator(`[data-testid="lobby-room"][data-code="${room.code}"]`);
  await row.waitFor();
  // The computer is named as everywhere else, not by its level alone.
  assert.equal(await row.locator('[data-testid="lobby-players"]').textContent(), 'Computer (Master)');
  await byId(page, 'lang').selectOption('vi');
  assert.equal(await row.locator('[data-testid="lobby-players"]').textContent(), 'Máy (Bậc thầy)');
  await byId(page, 'lang').selectOption('en');

  const stored = () => page.evaluate(() => localStorage.getItem('bg.name'));
  const nameError = async (words) => {
    await visible(page, 'seek-error');
    assert.equal(await byId(page, 'seek-error').textContent(), words);
    assert.equal(await byId(page, 'seek-name').getAttribute('aria-invalid'), 'true');
    assert.equal(await byId(page, 'seek-waiting').isHidden(), true, 'not seeking');
    assert.equal(await stored(), null, 'a refused name is not saved');
  };
  // The server refuses the name at the lobby socket's hello (bad_name): the
  // page says so at the name box, not "the connection was not ready".
  await byId(page, 'seek-name').fill('A + B');
  await byId(page, 'seek-play').click();
  await nameError('That name cannot be used: 1 to 24 characters, no invisible characters, not the computer\'s name, no "+" standing alone.');
  // A name that looks blank (a Hangul filler, or combining marks alone) too.
  for (const blank of ['\u3164', '\u0301\u0301']) {
    await byId(page, 'seek-name').fill(blank);
    assert.equal(await byId(page, 'seek-name').getAttribute('aria-invalid'), null, 'typing clears the mark');
    await byId(page, 'seek-play').click();
    await nameError('That name cannot be used: 1 to 24 characters, no invisible characters, not the computer\'s name, no "+" standing alone.');
  }
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'seek-name').fill('Computer (Master)');
  assert.equal(await byId(page, 'seek-name').getAttribute('aria-invalid'), null, 'typing clears the mark');
  await byId(page, 'seek-play').click();
  await nameError('Không dùng được tên này: từ 1 đến 24 ký tự, không có ký tự ẩn, không trùng tên của máy, không có dấu "+" đứng riêng.');
  await byId(page, 'lang').selectOption('en');
  // The socket said hello again without the name: the open rooms are still listed.
  assert.equal(await row.count(), 1);

  // A refused name stored by an older page: after a reload the lobby still
  // lists the open rooms, and the name is forgotten.
  await page.evaluate(() => localStorage.setItem('bg.name', 'Computer (Master)'));
  await page.reload();
  await row.waitFor();
  await page.waitForFunction(() => localStorage.getItem('bg.name') === null);

  // A refused name typed before a Join: not saved, the page stays, and the
  // box says why (an outside check found it saved and the room seating a
  // nameless guest).
  await byId(page, 'seek-name').fill('A + B');
  await row.locator('[data-testid="lobby-join"]').click();
  await nameError('That name cannot be used: 1 to 24 characters, no invisible characters, not the computer\'s name, no "+" standing alone.');
  assert.equal(new URL(page.url()).pathname, '/');

  // A good name seeks, and is kept.
  await byId(page, 'seek-name').fill('Hoa');
  await byId(page, 'seek-play').click();
  await visible(page, 'seek-waiting');
  assert.equal(await byId(page, 'seek-error').isHidden(), true);
  assert.equal(await stored(), 'Hoa');
  await byId(page, 'seek-cancel').click();
  await visible(page, 'seek-play');
  for (const p of [host, page]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

// Browser test of challenges: Minh challenges Lan from Lan's profile;
// Lan's home page shows it without reloading and Lan accepts; both land
// in the room, seated, and a move is played. A declined challenge is
// shown to the challenger (in Vietnamese). An accepted challenge links
// to its room, for both sides, on every page that lists challenges, though
// the challenger's page was closed when it was accepted.
//
//   SERVER_BIN=../target/debug/server node --test challenge.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, playPlies, signedInPage, siteForTests, waitOnline } from './harness.mjs';

// Six accounts: more than the default registrations from one address at once.
const site = siteForTests({ tag: 'challenge', args: ['--register-burst', '10'] });
const { pageErrors } = site;

/** A page signed in as a new account `username`. */
const signedIn = (label, username, options) => signedInPage(site, label, username, options);

test('a challenge from a profile is seen live, accepted, and opens the room for both', { timeout: 120_000 }, async () => {
  const minh = await signedIn('minh', 'Minh');
  const lan = await signedIn('lan', 'Lan');
  await lan.goto(`${site.base}/`);
  await byId(lan, 'challenges').waitFor({ state: 'visible' });

  // No Challenge button on one's own profile.
  await minh.goto(`${site.base}/u/Minh`);
  await byId(minh, 'profile-name').filter({ hasText: 'Minh' }).waitFor();
  await minh.waitForTimeout(500);
  assert.equal(await byId(minh, 'challenge-button').isVisible(), false);

  await minh.goto(`${site.base}/u/Lan`);
  await byId(minh, 'challenge-button').click();
  await byId(minh, 'challenge-game').selectOption('crossyray');
  // The game's own options, and days per move (a turn-based game).
  assert.equal(await byId(minh, 'challenge-goal').isVisible(), false, 'Quoridor fields hidden');
  await byId(minh, 'challenge-width').selectOption('7');
  await byId(minh, 'challenge-height').selectOption('5');
  await byId(minh, 'challenge-days').selectOption('1');
  // Rated is a checkbox on one line with its words, at a checkbox's size.
  const rated = await byId(minh, 'challenge-rated').boundingBox();
  const words = await minh.locator('label:has([data-testid="challenge-rated"]) span').boundingBox();
  assert.ok(rated.height < 30, `a checkbox's height: ${rated.height}`);
  assert.ok(Math.abs((rated.y + rated.height / 2) - (words.y + words.height / 2)) < 8, 'beside its words');
  await byId(minh, 'challenge-send').click();
  await byId(minh, 'challenge-sent').filter({ hasText: 'Lan' }).waitFor();

  // Lan sees it without reloading, and accepts.
  const incoming = byId(lan, 'challenge').filter({ hasText: 'Minh' });
  await incoming.waitFor();
  const summary = await incoming.locator('[data-testid="challenge-options"]').textContent();
  assert.match(summary, /7/, summary);
  assert.match(summary, /1 day per move/, summary);
  await incoming.locator('[data-testid="challenge-accept"]').click();
  await lan.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = lan.url().split('/r/')[1];
  // The room plays the options chosen.
  const info = await (await lan.request.get(`${site.base}/api/rooms/${code}`)).json();
  assert.equal(info.options.width, 7);
  assert.equal(info.options.height, 5);
  assert.equal(info.options.days, 1);
  // Minh's profile page sees the acceptance and opens the room too.
  await minh.waitForURL(`${site.base}/r/${code}`, { timeout: 15_000 });
  await waitOnline(lan);
  await waitOnline(minh);
  await playPlies([minh, lan], 0, 1);
  assert.deepEqual(pageErrors, []);
});

test('a declined challenge is shown to the challenger, in Vietnamese', { timeout: 120_000 }, async () => {
  const khoa = await signedIn('khoa', 'Khoa');
  const vy = await signedIn('vy', 'Vyvy');
  await khoa.goto(`${site.base}/`);
  await byId(khoa, 'lang').selectOption('vi');
  await byId(khoa, 'challenges').waitFor({ state: 'visible' });
  await byId(khoa, 'challenge-to').fill('nobody');
  await byId(khoa, 'challenge-send').click();
  await byId(khoa, 'challenge-error').filter({ hasText: 'Không có người chơi' }).waitFor();
  await byId(khoa, 'challenge-to').fill('khoa');
  await byId(khoa, 'challenge-send').click();
  await byId(khoa, 'challenge-error').filter({ hasText: 'chính mình' }).waitFor();
  await byId(khoa, 'challenge-to').fill('Vyvy');
  await byId(khoa, 'challenge-send').click();
  await byId(khoa, 'challenge').filter({ hasText: 'đang chờ' }).waitFor();

  await vy.goto(`${site.base}/account`);
  const incoming = byId(vy, 'challenge').filter({ hasText: 'Khoa' });
  await incoming.locator('[data-testid="challenge-decline"]').click();
  await byId(khoa, 'challenge').filter({ hasText: 'đã từ chối' }).waitFor();
  assert.deepEqual(pageErrors, []);
});

test('an accepted challenge links to its room for both sides, though the challenger was away', { timeout: 120_000 }, async () => {
  const host = await signedIn('host-a', 'hostA');
  const rival = await signedIn('rival', 'rival_1');
  await host.goto(`${site.base}/u/rival_1`);
  await byId(host, 'challenge-button').click();
  await byId(host, 'challenge-game').selectOption('jungle');
  await byId(host, 'challenge-send').click();
  await byId(host, 'challenge-sent').filter({ hasText: 'rival_1' }).waitFor();
  // The challenger's page is closed when the challenge is accepted.
  await host.goto('about:blank');
  await rival.goto(`${site.base}/`);
  await byId(rival, 'challenge').filter({ hasText: 'hostA' }).locator('[data-testid="challenge-accept"]').click();
  await rival.waitForURL(/\/r\/[A-Z0-9]{6}$/);
  const code = rival.url().split('/r/')[1];

  // Wherever the challenger looks later, the accepted challenge links to the room.
  for (const where of ['/', '/account', '/u/hostA']) {
    await host.goto(`${site.base}${where}`);
    const line = byId(host, 'challenge').filter({ hasText: 'rival_1' });
    await line.locator('[data-testid="challenge-status"]', { hasText: 'accepted' }).waitFor();
    const link = line.locator('[data-testid="challenge-room"]');
    assert.equal(await link.textContent(), 'Go to the game', where);
    assert.equal(await link.getAttribute('href'), `/r/${code}`, where);
    assert.equal(host.url(), `${site.base}${where}`, `${where}: the page stays (no jump to the room)`);
  }
  await byId(host, 'lang').selectOption('vi');
  await byId(host, 'challenge-room').filter({ hasText: 'Vào ván đấu' }).waitFor();
  await byId(host, 'lang').selectOption('en');
  // The one accepting sees the same link when back on a page of theirs.
  await rival.goto(`${site.base}/account`);
  const theirs = byId(rival, 'challenge').filter({ hasText: 'hostA' }).locator('[data-testid="challenge-room"]');
  await theirs.waitFor();
  assert.equal(await theirs.getAttribute('href'), `/r/${code}`);

  // The link takes the challenger to the room, seated.
  await byId(host, 'challenge-room').click();
  await host.waitForURL(`${site.base}/r/${code}`);
  await waitOnline(host);
  await host.waitForFunction(() => [0, 1].some((s) => document.querySelector(`[data-testid="seat-name-${s}"]`)?.textContent === 'hostA'));
  assert.deepEqual(pageErrors, []);
});

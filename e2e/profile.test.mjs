// Browser test of profiles and ratings: two people with accounts play a
// CrossyRay game in a room the host marked rated; the seats show both
// ratings before and after (1500 ± 350, then 1662 / 1338 ± 290); the
// winner opens their public profile from the account page: the game's
// line (played, won, rating) and the recent game opening its replay, in
// English and Vietnamese and on a 360 px phone; the leaderboard shows the
// computer's fixed ratings.
//
//   SERVER_BIN=../target/debug/server node --test profile.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, createRoomByPage, noHorizontalScroll, signedInPage, sit, siteForTests, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'profile' });
const { pageErrors } = site;

/** A page signed in as a new account `username`. */
const signedIn = (label, username, options) => signedInPage(site, label, username, options);

const text = (page, id) => byId(page, id).textContent();

test('a rated game moves both ratings in the room, and the profile shows the game and the rating', { timeout: 180_000 }, async () => {
  const host = await signedIn('host', 'Minh');
  const code = await createRoomByPage(host, site.base);
  await sit(host, 0, 'Minh');
  const guest = await signedIn('guest', 'Lan');
  await guest.goto(`${site.base}/r/${code}`);
  await waitOnline(guest);
  await sit(guest, 1, 'Lan');

  // Start ratings beside the names; only the host has the switch.
  await byId(guest, 'rating-seat-0').filter({ hasText: '1500 ± 350' }).waitFor();
  assert.equal(await byId(guest, 'rated').isVisible(), false);
  assert.equal(await byId(host, 'rated').isChecked(), false);
  await byId(host, 'rated').check();
  await host.waitForFunction(() => document.querySelector('[data-testid="rated"]').checked);

  await byId(host, 'start').click();
  await byId(guest, 'resign').waitFor({ state: 'visible' });
  await byId(guest, 'resign').click();
  await byId(guest, 'resign').click();
  await byId(guest, 'result').waitFor({ state: 'visible' });
  for (const page of [host, guest]) {
    await byId(page, 'rating-seat-0').filter({ hasText: '1662 ± 290' }).waitFor();
    await byId(page, 'rating-seat-1').filter({ hasText: '1338 ± 290' }).waitFor();
  }

  // The profile, from the account page.
  await host.goto(`${site.base}/account`);
  await byId(host, 'profile-link').waitFor({ state: 'visible' });
  await byId(host, 'profile-link').click();
  await host.waitForURL(`${site.base}/u/Minh`);
  await byId(host, 'profile-name').filter({ hasText: 'Minh' }).waitFor();
  const row = host.locator('[data-testid="profile-game"][data-game="crossyray"]');
  await row.waitFor();
  assert.equal(await row.locator('[data-testid="played"]').textContent(), '1');
  assert.equal(await row.locator('[data-testid="wins"]').textContent(), '1');
  assert.equal(await row.locator('[data-testid="losses"]').textContent(), '0');
  assert.equal(await row.locator('[data-testid="rating"]').textContent(), '1662 ± 290');
  const entry = host.locator('[data-testid="recent-list"] [data-testid="game-entry"]');
  assert.equal(await entry.count(), 1);
  assert.equal(await entry.getAttribute('data-result'), 'win');
  assert.match(await text(host, 'profile-meta'), /@Minh/);

  // Vietnamese.
  await byId(host, 'lang').selectOption('vi');
  await host.locator('th', { hasText: 'Đã chơi' }).waitFor();
  await host.locator('h2', { hasText: 'Các ván gần đây' }).waitFor();
  await byId(host, 'lang').selectOption('en');

  // The recent game opens its replay.
  await byId(host, 'game-link').click();
  await host.waitForURL(/\/g\/[0-9a-f-]{36}$/);
  await byId(host, 'position').waitFor();

  // Anyone may read a profile; an unknown name says so.
  const stranger = await site.newPage('stranger', { viewport: { width: 360, height: 740 } });
  await stranger.goto(`${site.base}/u/lan`);
  await stranger.locator('[data-testid="profile-game"][data-game="crossyray"] [data-testid="rating"]').filter({ hasText: '1338 ± 290' }).waitFor();
  await noHorizontalScroll(stranger, 'a profile on a phone');
  await stranger.goto(`${site.base}/u/nobody`);
  await byId(stranger, 'profile-status').filter({ hasText: 'There is no player nobody.' }).waitFor();

  // The leaderboard: nobody has five rated games yet; the computer's
  // fixed ratings are published.
  await stranger.goto(`${site.base}/leaderboard?game=quoridor`);
  await byId(stranger, 'leaderboard-status').filter({ hasText: 'Nobody qualifies yet.' }).waitFor();
  const bots = byId(stranger, 'computer-rating');
  await bots.first().waitFor();
  assert.deepEqual(await bots.allTextContents(), [
    'Computer (Beginner): 900', 'Computer (Amateur): 1350', 'Computer (Professional): 1700', 'Computer (Master): 1900',
  ]);
  await noHorizontalScroll(stranger, 'the leaderboard on a phone');
  assert.deepEqual(pageErrors, []);
});

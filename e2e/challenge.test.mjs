// Browser test of challenges: Minh challenges Lan from Lan's profile;
// Lan's home page shows it without reloading and Lan accepts; both land
// in the room, seated, and a move is played. A declined challenge is
// shown to the challenger (in Vietnamese).
//
//   SERVER_BIN=../target/debug/server node --test challenge.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, playPlies, signedInPage, siteForTests, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'challenge' });
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

// Browser test of the rating history: two people with accounts play three
// CrossyRay games in a room the host marked rated (the guest resigns the
// first and the last, the host the second), then one unrated game; the
// winner's profile (/u/Minh) draws the rating graph with one point per
// rated game (captioned "1 rated game" after the first, "3 rated games"
// at the end), each titled with its rating and change, and the recent
// games show "+162" / "−162" beside the players of the rated games only,
// in English and Vietnamese and on a 360 px phone; the replay's header
// shows the change too.
//
//   SERVER_BIN=../target/debug/server node --test rating-graph.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, createRoomByPage, noHorizontalScroll, signedInPage, sit, siteForTests, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'rating-graph' });
const { pageErrors } = site;

/** A page signed in as a new account `username`. */
const signedIn = (label, username, options) => signedInPage(site, label, username, options);

/** One game: the host starts it, `loser` resigns (and confirms). */
async function playOne(host, guest, loser, n) {
  await byId(host, 'start').click();
  await byId(loser, 'resign').waitFor({ state: 'visible' });
  await byId(loser, 'resign').click();
  await byId(loser, 'resign').click();
  await byId(host, 'result').waitFor({ state: 'visible' });
  // The room's past games list the game once it is stored.
  await host.waitForFunction(async (k) => {
    const code = location.pathname.split('/').pop();
    const r = await fetch(`/api/rooms/${code}/games`);
    return r.ok && (await r.json()).total >= k;
  }, n);
}

test('the rating graph drawn: one point per rated game, and the changes in the history', { timeout: 240_000 }, async () => {
  const host = await signedIn('host', 'Minh');
  const code = await createRoomByPage(host, site.base);
  await sit(host, 0, 'Minh');
  const guest = await signedIn('guest', 'Lan');
  await guest.goto(`${site.base}/r/${code}`);
  await waitOnline(guest);
  await sit(guest, 1, 'Lan');
  if (await byId(host, 'autostart').isVisible() && await byId(host, 'autostart').isChecked()) {
    await byId(host, 'autostart').uncheck();
  }
  await byId(host, 'rated').check();
  await host.waitForFunction(() => document.querySelector('[data-testid="rated"]').checked);
  await playOne(host, guest, guest, 1);
  // After one rated game: "1 rated game", not "1 rated games".
  const viewer = await site.newPage('viewer');
  await viewer.goto(`${site.base}/u/Minh`);
  const first = viewer.locator('[data-testid="rating-figure"][data-game="crossyray"]');
  await first.locator('[data-testid="rating-point"]').waitFor();
  assert.equal(await first.locator('figcaption').textContent(), 'CrossyRay: 1 rated game');
  assert.match(await first.locator('[data-testid="rating-graph"]').getAttribute('aria-label'), /^Minh's rating at CrossyRay: 1 rated game, on \S/);
  await byId(viewer, 'lang').selectOption('vi');
  await first.locator('figcaption', { hasText: 'CrossyRay: 1 ván tính hệ số' }).waitFor();
  await viewer.context().close();
  for (const [n, loser] of [[2, host], [3, guest]]) await playOne(host, guest, loser, n);
  await byId(host, 'rated').uncheck();
  await host.waitForFunction(() => !document.querySelector('[data-testid="rated"]').checked);
  await playOne(host, guest, guest, 4);

  const history = await (await host.request.get(`${site.base}/api/players/Minh/ratings/crossyray`)).json();
  assert.equal(history.points.length, 3);

  await host.goto(`${site.base}/u/Minh`);
  const graph = host.locator('[data-testid="rating-graph"][data-game="crossyray"]');
  await graph.waitFor();
  const points = graph.locator('[data-testid="rating-point"]');
  assert.equal(await points.count(), 3);
  assert.deepEqual(await points.evaluateAll((ps) => ps.map((p) => p.dataset.gameId)), history.points.map((p) => p.game_id));
  assert.match(await points.first().locator('title').textContent(), /: 1662 ± 290 \(\+162\)$/);
  assert.match(await graph.getAttribute('aria-label'), /^Minh's rating at CrossyRay: 3 rated games, from /);
  assert.equal(await host.locator('[data-testid="rating-figure"][data-game="crossyray"] figcaption').textContent(), 'CrossyRay: 3 rated games');
  assert.ok(await graph.locator('.rg-tick text').count() >= 2, 'rating ticks');

  // The recent games: a change beside both players of each rated game.
  const entries = host.locator('[data-testid="recent-list"] [data-testid="game-entry"]');
  assert.equal(await entries.count(), 4);
  assert.equal(await entries.nth(0).locator('[data-testid="rating-change"]').count(), 0, 'the unrated game');
  const oldest = entries.nth(3).locator('[data-testid="rating-change"]');
  // Side order is drawn at random: compare the changes as a set.
  assert.deepEqual((await oldest.allTextContents()).sort(), ['+162', '\u2212162'].sort());
  const won = oldest.filter({ hasText: '+162' });
  assert.equal(await won.getAttribute('title'), 'Rating +162: 1500 → 1662');

  // Vietnamese.
  await byId(host, 'lang').selectOption('vi');
  await host.locator('h2', { hasText: 'Lịch sử hệ số' }).waitFor();
  assert.match(await graph.getAttribute('aria-label'), /^Hệ số CrossyRay của Minh: 3 ván tính hệ số/);
  assert.equal(await graph.locator('[data-testid="rating-point"]').count(), 3);
  assert.equal(await won.getAttribute('title'), 'Hệ số +162: 1500 → 1662');
  await byId(host, 'lang').selectOption('en');

  // The replay's header shows the change.
  await entries.nth(3).locator('[data-testid="game-link"]').click();
  await host.waitForURL(/\/g\/[0-9a-f-]{36}$/);
  await byId(host, 'replay-players').locator('[data-testid="rating-change"]').first().waitFor();
  assert.deepEqual((await byId(host, 'replay-players').locator('[data-testid="rating-change"]').allTextContents()).sort(), ['+162', '\u2212162'].sort());

  // The guest's history page shows the changes as well; a phone fits the graph.
  await guest.goto(`${site.base}/games`);
  await guest.locator('[data-testid="game-entry"] [data-testid="rating-change"]').first().waitFor();
  const phone = await site.newPage('phone', { viewport: { width: 360, height: 740 } });
  await phone.goto(`${site.base}/u/Lan`);
  await phone.locator('[data-testid="rating-graph"] [data-testid="rating-point"]').nth(2).waitFor();
  await noHorizontalScroll(phone, 'a profile with its rating graph on a phone');
  assert.deepEqual(pageErrors, []);
});

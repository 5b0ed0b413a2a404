// Browser test of people leaving (issue 26, items 1 and 2): the host who
// closes the tab before the start loses the role to the seated guest
// (whose page gets the host's controls, and who gives it back), and a
// player whose opponent left sees the countdown, then claims the win
// (CrossyRay) or calls it a draw (Jungle), while a spectator sees only
// the countdown. The server runs with one-second hand-over and claim
// times so the test does not wait.
//
//   SERVER_BIN=../target/debug/server node --test leaving.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, hostAndGuest, memberOf, setName, siteForTests, STEP_MS, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'leaving', args: ['--host-handover-secs', '1', '--claim-secs', '1'] });
const { pageErrors } = site;

const visible = (page, id) => page.waitForSelector(`[data-testid="${id}"]:not([hidden])`, { timeout: STEP_MS });

/** A `game` room with the host (Minh) in seat 0 and a guest (Lan) in seat 1, and a spectator (Vy). */
async function seatedRoom(game) {
  const { room, host, guest } = await hostAndGuest(site, game);
  const watcher = await site.newPage(`${game}-watcher`);
  await watcher.goto(`${site.base}/r/${room.code}`);
  await waitOnline(watcher);
  await setName(watcher, 'Vy');
  return { room, host, guest, watcher };
}

test('a host who leaves before the start hands the room to the seated guest, who gives it back', async () => {
  const { room, host, guest } = await seatedRoom('crossyray');
  const minh = await memberOf(host);
  const lan = await memberOf(guest);
  const token = await host.evaluate(() => localStorage.getItem('bg.token'));
  await host.close();
  // The old host stays listed, offline, as the host, until the role passes.
  const members = (page) => page.locator(`[data-testid="member-${minh}"]`);
  await guest.waitForSelector(`[data-testid="member-${minh}"][data-online="false"]`, { timeout: STEP_MS });
  // A second later Lan is the host: told in the room's log, and the host's controls show.
  await guest.waitForSelector(`[data-testid="member-${lan}"] [data-testid="host-badge"]`, { timeout: STEP_MS });
  await guest.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-notice"]')]
    .some((n) => /Lan is the host now/.test(n.textContent)), null, { timeout: STEP_MS });
  assert.equal(await members(guest).locator('[data-testid="host-badge"]').count(), 0, 'Minh is no longer the host');
  await visible(guest, 'start');
  // Minh comes back a member, and Lan gives the role back.
  const again = await site.newPage('crossyray-host-again');
  await again.goto(`${site.base}/`);
  await again.evaluate((t) => localStorage.setItem('bg.token', t), token);
  await again.goto(`${site.base}/r/${room.code}`);
  await waitOnline(again);
  assert.equal(await byId(again, 'start').isHidden(), true, 'not the host on return');
  await byId(guest, `make-host-${minh}`).click();
  await again.waitForSelector(`[data-testid="member-${minh}"] [data-testid="host-badge"]`, { timeout: STEP_MS });
  await visible(again, 'start');
  await guest.waitForSelector('[data-testid="start"][hidden]', { state: 'attached', timeout: STEP_MS });
  assert.deepEqual(pageErrors, []);
});

test('an opponent who leaves: the countdown for everyone, then a claimed win, or a draw in Jungle', async () => {
  for (const [game, claim, result] of [
    ['crossyray', 'claim-win', '[data-kind="win"][data-reason="abandon"]'],
    ['jungle', 'claim-draw', '[data-kind="draw"][data-reason="abandon"]'],
  ]) {
    const { host, guest, watcher } = await seatedRoom(game);
    await byId(host, 'start-order').selectOption('seats');
    await byId(host, 'start').click();
    await host.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });
    await guest.close();
    // Everyone sees how long until the abandon rule ends the game.
    for (const page of [host, watcher]) {
      await visible(page, 'away-box');
      const text = await byId(page, 'away-text').textContent();
      assert.match(text, /Lan left the game/, `${game}: ${text}`);
      const s = Number(await byId(page, 'away-text').getAttribute('data-seconds'));
      assert.ok(s > 40 && s <= 60, `${game}: ${s} s to the abandon`);
    }
    // After the claim time the player (not the spectator) may end it now.
    await visible(host, claim);
    assert.equal(await byId(watcher, 'claim-win').isHidden(), true, 'a spectator has no claim');
    if (game === 'crossyray') assert.equal(await byId(host, 'claim-draw').isHidden(), true, 'no draws in CrossyRay');
    await byId(host, claim).click();
    for (const page of [host, watcher]) {
      await page.waitForSelector(`[data-testid="result"]${result}`, { timeout: STEP_MS });
      await page.waitForSelector('[data-testid="away-box"][hidden]', { state: 'attached', timeout: STEP_MS });
    }
    await host.close();
    await watcher.close();
  }
  assert.deepEqual(pageErrors, []);
});

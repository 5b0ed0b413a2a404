// Browser test of table manners on the room page: a Jungle draw offered
// and accepted, a rematch both players ask for, and the host removing a
// player (whose page says so and stops) and letting them back in.
//
//   SERVER_BIN=../target/debug/server node --test manners.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, hostAndGuest, memberOf, siteForTests, STEP_MS, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'manners' });
const { pageErrors } = site;


const visible = (page, id) => page.waitForSelector(`[data-testid="${id}"]:not([hidden])`, { timeout: STEP_MS });

test('a draw offered and accepted, a rematch, and a removed player let back in', async () => {
  const { host, guest } = await hostAndGuest(site, 'jungle', 'manners');
  const lan = await memberOf(guest);

  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  // Blue (the host) offers a draw; Red is asked.
  await visible(host, 'draw-offer');
  await byId(host, 'draw-offer').click();
  await visible(guest, 'draw-accept');
  assert.match(await byId(guest, 'draw-text').textContent(), /Minh/);
  assert.equal(await byId(host, 'draw-accept').isHidden(), true, 'the offerer is not asked');
  await host.waitForSelector('[data-testid="chat-notice"]');
  await byId(guest, 'draw-accept').click();
  for (const page of [host, guest]) {
    await page.waitForSelector('[data-testid="result"][data-kind="draw"][data-reason="agreement"]');
    assert.equal(await byId(page, 'draw-box').isHidden(), true);
  }

  // Rematch: one asks, the other sees it; both asked, the game starts.
  await visible(guest, 'rematch');
  await byId(guest, 'rematch').click();
  await host.waitForSelector('[data-testid="rematch"][data-asked="1"]');
  await byId(host, 'rematch').click();
  for (const page of [host, guest]) {
    await page.waitForSelector('[data-testid="result"][hidden]', { state: 'attached' });
    await page.waitForSelector('[data-testid="rematch"][hidden]', { state: 'attached' });
  }
  // While Lan plays, the host is offered no Remove for her (the server refuses it).
  assert.equal(await byId(host, `remove-${lan}`).count(), 0);
  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  await host.waitForSelector('[data-testid="result"]:not([hidden])');

  // The host removes Lan (two clicks): Lan's page says so and stops.
  await byId(host, `remove-${lan}`).click();
  await byId(host, `remove-${lan}`).click();
  await visible(guest, 'refused');
  assert.match(await byId(guest, 'refused-text').textContent(), /removed/i);
  await visible(host, `removed-${lan}`);
  assert.equal(await host.locator(`[data-testid="member-${lan}"]`).count(), 0);
  // Coming back is refused until the host lets Lan in again.
  await guest.reload();
  await visible(guest, 'refused');
  await byId(host, `readmit-${lan}`).click();
  await host.waitForSelector('[data-testid="removed-box"][hidden]', { state: 'attached' });
  await guest.reload();
  await waitOnline(guest);
  await guest.waitForFunction(() => document.querySelector('[data-testid="name-current"]')?.textContent.includes('Lan'));
  assert.deepEqual(pageErrors, []);
});

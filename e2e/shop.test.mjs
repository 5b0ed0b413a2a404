// Browser test of the cosmetics shop: the real server binary, Debian's
// chromium driven by playwright-core, node's built-in test runner.
//
//   SERVER_BIN=../target/debug/server node --test shop.test.mjs
//
// Someone checks in on the account page and buys a CrossyRay board theme
// with the coins, chooses it, and hosts a room: their board has the
// theme's colours, a guest's board in the same room has the default ones,
// and the balance is in the room page's header. Someone else buys the
// drawn Jungle pieces, plays the computer and sees drawn pieces (no emoji)
// while a spectator without an account sees the emoji set. The shop in
// Vietnamese on a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, setName, sit, siteForTests, waitOnline } from './harness.mjs';
import { parseColor } from './contrast.mjs';

const site = siteForTests({ tag: 'shop', args: ['--bot-ms', '200'] });
const { pageErrors } = site;

/** Registers through the API (the forms have their own tests) and opens /account. */
async function registered(label, username, options) {
  const page = await site.newPage(label, options);
  await page.goto(`${site.base}/`);
  const status = await page.evaluate(async (u) => {
    const r = await fetch('/api/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: u, password: 'password1' }),
    });
    return r.status;
  }, username);
  assert.equal(status, 201);
  await page.goto(`${site.base}/account`);
  await byId(page, 'shop-slots').locator('li').first().waitFor();
  return page;
}

/** Checks in and buys `item` on the account page, then chooses it. */
async function checkInAndBuy(page, item) {
  await byId(page, 'shop-checkin').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent.startsWith('10'));
  await byId(page, 'shop-ok').waitFor();
  await byId(page, `buy-${item}`).click();
  await page.waitForSelector(`[data-testid="item-${item}"][data-owned="true"]`);
  await page.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent.startsWith('0'));
  assert.equal(await byId(page, `item-${item}`).getAttribute('data-chosen'), 'false', 'bought, not yet chosen');
  await byId(page, `choose-${item}`).click();
  await page.waitForSelector(`[data-testid="item-${item}"][data-chosen="true"]`);
  await byId(page, `in-use-${item}`).waitFor();
}

/** The computed fill of `selector` on the page, and a theme variable's value, as colours. */
async function fillAndVar(page, selector, variable) {
  const [fill, value] = await page.evaluate(([sel, v]) => [
    getComputedStyle(document.querySelector(sel)).fill,
    getComputedStyle(document.documentElement).getPropertyValue(v).trim(),
  ], [selector, variable]);
  return { fill: parseColor(fill), value: parseColor(value) };
}

/** The value of `variable` in `theme` of `game`, read off a probe element. */
function themeValue(page, game, theme, variable) {
  return page.evaluate(([g, th, v]) => {
    const probe = document.createElement('span');
    probe.setAttribute(`data-${g}-board`, th);
    document.body.append(probe);
    const value = getComputedStyle(probe).getPropertyValue(v).trim();
    probe.remove();
    return value;
  }, [game, theme, variable]);
}

test('check in, buy a board theme, see it in a room and not on the other player\'s screen', { timeout: 120_000 }, async () => {
  const host = await registered('host', 'painter');
  assert.equal(await byId(host, 'item-crossyray-classic').getAttribute('data-chosen'), 'true', 'the default is in use');
  // Without coins nothing can be bought: Buy is disabled, and says why.
  assert.equal(await byId(host, 'buy-crossyray-slate').isDisabled(), true);
  assert.equal(await byId(host, 'need-crossyray-slate').textContent(), '10 more coins needed');
  assert.equal(await byId(host, 'item-crossyray-slate').getAttribute('data-owned'), 'false');

  await checkInAndBuy(host, 'crossyray-slate');
  assert.equal(await host.evaluate(() => document.documentElement.dataset.crossyrayBoard), 'crossyray-slate');

  // The host creates a CrossyRay room and sits; the balance is in the room's header.
  await host.goto(`${site.base}/`);
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(host);
  await host.waitForFunction(() => document.querySelector('[data-testid="coins"]')?.textContent.startsWith('0'));
  assert.equal(await byId(host, 'coins').isVisible(), true);
  // An account's name is its username: no name to type.
  await sit(host, 0, 'painter');

  const guest = await site.newPage('guest');
  await guest.goto(host.url());
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await byId(host, 'start').waitFor({ state: 'visible' });
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await host.waitForSelector('[data-testid="board"][data-ply="0"][data-my-turn="true"] [data-legal="true"]');
  await guest.waitForSelector('[data-testid="board"][data-ply="0"]');
  assert.equal(await byId(guest, 'coins').isVisible(), false, 'a guest has no balance');

  const slateLight = parseColor(await themeValue(host, 'crossyray', 'crossyray-slate', '--cr-cell-light'));
  const slateDark = parseColor(await themeValue(host, 'crossyray', 'crossyray-slate', '--cr-cell-dark'));
  const classicLight = parseColor(await themeValue(host, 'crossyray', 'crossyray-classic', '--cr-cell-light'));
  const classicDark = parseColor(await themeValue(host, 'crossyray', 'crossyray-classic', '--cr-cell-dark'));
  assert.notDeepEqual(slateLight, classicLight, 'the themes differ');
  // a1 is dark, b1 light (x + y even: dark).
  const mine = await fillAndVar(host, '[data-testid="cell-a1"] .sq', '--cr-cell-dark');
  assert.deepEqual(mine.fill, slateDark, 'the host sees the slate theme');
  assert.deepEqual(mine.value, slateDark);
  assert.deepEqual((await fillAndVar(host, '[data-testid="cell-b1"] .sq', '--cr-cell-light')).fill, slateLight);
  const theirs = await fillAndVar(guest, '[data-testid="cell-a1"] .sq', '--cr-cell-dark');
  assert.deepEqual(theirs.fill, classicDark, 'the guest sees the default theme in the same room');
  assert.deepEqual((await fillAndVar(guest, '[data-testid="cell-b1"] .sq', '--cr-cell-light')).fill, classicLight);
  assert.equal(await guest.evaluate(() => document.documentElement.dataset.crossyrayBoard ?? null), null);

  // Choosing the default back on another page: the room redraws with it
  // at its next load.
  const again = await host.context().newPage();
  await again.goto(`${site.base}/account`);
  await byId(again, 'choose-crossyray-classic').click();
  await again.waitForSelector('[data-testid="item-crossyray-classic"][data-chosen="true"]');
  await again.close();
  await host.reload();
  await waitOnline(host);
  await host.waitForFunction(() => !document.documentElement.dataset.crossyrayBoard
    || document.documentElement.dataset.crossyrayBoard === 'crossyray-classic');
  assert.deepEqual((await fillAndVar(host, '[data-testid="cell-a1"] .sq', '--cr-cell-dark')).fill, classicDark);

  assert.deepEqual(pageErrors, []);
});

test('the drawn Jungle pieces render without emoji, for their owner only', { timeout: 120_000 }, async () => {
  const player = await registered('drawn', 'sketcher');
  await checkInAndBuy(player, 'jungle-drawn');

  // Play the computer at Jungle from the home page.
  await player.goto(`${site.base}/`);
  await byId(player, 'solo-game').selectOption('jungle');
  await byId(player, 'solo-name').fill('Sketcher');
  await byId(player, 'solo-play').click();
  await player.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await player.waitForSelector('[data-testid="board"][data-game="jungle"][data-pieces="drawn"] [data-testid="piece-a1"]');
  const drawn = await player.evaluate(() => {
    const board = document.querySelector('[data-testid="board"]');
    const pieces = [...board.querySelectorAll('.piece')];
    return {
      count: pieces.length,
      styles: [...new Set(pieces.map((p) => p.dataset.style))],
      glyphs: pieces.map((p) => p.querySelector('.glyph')?.textContent ?? null),
      emoji: /\p{Extended_Pictographic}/u.test(board.querySelector('svg').textContent),
      flags: board.querySelectorAll('.den-flag').length,
      size: (() => {
        const g = board.querySelector('[data-testid="piece-a1"] .glyph').getBBox();
        return { w: g.width, h: g.height };
      })(),
    };
  });
  assert.equal(drawn.count, 16, 'all sixteen animals');
  assert.deepEqual(drawn.styles, ['drawn']);
  assert.ok(drawn.glyphs.every((g) => g && g.length >= 2), `every piece has its short name: ${drawn.glyphs}`);
  assert.ok(drawn.glyphs.includes('Eleph') && drawn.glyphs.includes('Rat'), `${drawn.glyphs}`);
  assert.equal(drawn.emoji, false, 'no emoji on the board');
  assert.equal(drawn.flags, 2, 'the empty dens are drawn flags, not a tent emoji');
  assert.ok(drawn.size.w > 5 && drawn.size.w < 40 && drawn.size.h > 5, `the glyph fits its piece: ${JSON.stringify(drawn.size)}`);

  // Someone watching the same game without an account sees the emoji set.
  const watcher = await site.newPage('watcher');
  await watcher.goto(player.url());
  await watcher.waitForSelector('[data-testid="board"][data-game="jungle"][data-pieces="emoji"] [data-testid="piece-a1"]');
  const emoji = await watcher.evaluate(() => {
    const board = document.querySelector('[data-testid="board"]');
    return { glyphs: board.querySelectorAll('.glyph').length, emoji: /\p{Extended_Pictographic}/u.test(board.querySelector('svg').textContent) };
  });
  assert.deepEqual(emoji, { glyphs: 0, emoji: true });

  // In Vietnamese the drawn pieces carry the Vietnamese names.
  await byId(player, 'lang').selectOption('vi');
  await player.waitForFunction(() => [...document.querySelectorAll('[data-testid="board"] .glyph')].some((g) => g.textContent === 'Voi'));
  assert.deepEqual(pageErrors, []);
});

test('the shop reads in Vietnamese on a 360 px phone', { timeout: 60_000 }, async () => {
  const phone = await registered('phone', 'phoner', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  await byId(phone, 'lang').selectOption('vi');
  await phone.waitForFunction(() => document.querySelector('#shop-title')?.textContent === 'Cửa hàng');
  assert.match(await byId(phone, 'buy-jungle-drawn').textContent(), /Mua với 10 xu/);
  assert.match(await byId(phone, 'item-quoridor-classic').textContent(), /Gỗ cổ điển/);
  await noHorizontalScroll(phone, 'the shop on a phone');
  assert.deepEqual(pageErrors, []);
});

// Browser test of looking back during a game (room/lookback.js), in
// CrossyRay, Quoridor and Jungle: two players play a few moves by clicks
// while a spectator watches; one player steps back with ← (the move list
// focused) and by a click on the move list, and the board shows the
// position of that move (read off the drawn board and compared with what
// the live board showed then), says it is a past position and takes no
// move; the opponent moves meanwhile: the viewer stays where they were and
// the new move is announced; the arrows on the past board step on, End
// (or "Back to the game") returns to the live board and the player moves
// again. The spectator looks back with Home and comes back by stepping
// past the last move. In Vietnamese the banner reads in Vietnamese.
//
//   SERVER_BIN=../target/debug/server node --test lookback.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, openAsHost, setName, sit, siteForTests, until, waitOnline, waitPly } from './harness.mjs';
import { boardShape } from './boards.mjs';

const site = siteForTests({ tag: 'lookback' });
const { pageErrors } = site;

/** Board facts: ply, whose turn, past or live, and how many moves it offers. */
const facts = (page) => page.evaluate(() => {
  const b = document.querySelector('[data-testid="board"]');
  return {
    ply: Number(b.dataset.ply),
    myTurn: b.dataset.myTurn === 'true',
    past: b.dataset.past === 'true',
    offers: b.querySelectorAll('[data-legal="true"], [data-movable="true"], .qcell[data-target]').length,
    moves: document.querySelectorAll('[data-testid="moves"] li').length,
  };
});

/** Plays one move by clicks if it is `page`'s turn on the live board; returns whether it did. */
async function playIfMine(page, game) {
  const f = await facts(page);
  if (!f.myTurn || f.past) return false;
  const board = '[data-testid="board"][data-my-turn="true"]';
  if (game === 'crossyray') await page.locator(`${board} [data-legal="true"]`).first().click();
  else if (game === 'quoridor') await page.locator(`${board} [data-target]`).first().click();
  else {
    await page.locator(`${board} [data-movable="true"]`).first().click();
    await page.locator(`${board} [data-target]`).first().click();
  }
  return true;
}

/** Plays until `n` moves are on every page's board; `shapes[k]` is the board after k moves. */
async function playTo(players, all, game, n, shapes) {
  for (;;) {
    const ply = (await facts(all[0])).ply;
    if (ply >= n) return;
    await until(async () => {
      for (const p of players) if (await playIfMine(p, game)) return true;
      return false;
    }, Boolean, `a move at ply ${ply}`);
    for (const p of all) await waitPly(p, ply + 1);
    shapes[ply + 1] = await boardShape(all[0], game);
  }
}

/** The board of `page` is past, at `ply`, and draws the position it had then. */
async function seesPast(page, game, ply, shape) {
  await page.waitForFunction((n) => {
    const b = document.querySelector('[data-testid="board"]');
    return b.dataset.past === 'true' && b.dataset.ply === String(n);
  }, ply);
  assert.deepEqual(await boardShape(page, game), shape, `the board after ${ply} moves`);
  const f = await facts(page);
  assert.equal(f.myTurn, false, 'a past position is nobody\'s turn');
  assert.equal(f.offers, 0, 'a past position offers no move');
  assert.ok(await byId(page, 'lookback').isVisible(), 'the banner says it is a past position');
  assert.match(await byId(page, 'lookback-text').textContent(), ply === 0 ? /the start of the game/ : new RegExp(`after move ${ply} of`));
  if (ply > 0) assert.equal(await page.locator(`[data-testid="moves"] li[data-ply="${ply}"]`).getAttribute('aria-current'), 'step');
}

async function lookBack(game) {
  const host = await site.newPage(`${game}-host`);
  await openAsHost(host, site.base, game);
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  const guest = await site.newPage(`${game}-guest`);
  await guest.goto(host.url());
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  const watcher = await site.newPage(`${game}-watcher`);
  await watcher.goto(host.url());
  await waitOnline(watcher);
  await byId(host, 'start').click();
  const players = [host, guest];
  const all = [host, guest, watcher];
  for (const p of all) await waitPly(p, 0);
  const shapes = [await boardShape(host, game)];
  await playTo(players, all, game, 4, shapes);
  // The viewer is the player who waits: play one more if it is the host's turn.
  const viewer = (await facts(host)).myTurn ? guest : host;
  const other = viewer === host ? guest : host;
  if ((await facts(viewer)).myTurn) throw new Error('the viewer should wait');
  const total = (await facts(viewer)).ply;
  assert.deepEqual(await boardShape(viewer, game), shapes[total]);

  // ← with the move list focused: one move back, then another.
  await byId(viewer, 'moves').focus();
  await viewer.keyboard.press('ArrowLeft');
  await seesPast(viewer, game, total - 1, shapes[total - 1]);
  await viewer.keyboard.press('ArrowLeft');
  await seesPast(viewer, game, total - 2, shapes[total - 2]);
  // A click on the first move.
  await viewer.locator('[data-testid="moves"] li[data-ply="1"]').click();
  await seesPast(viewer, game, 1, shapes[1]);
  assert.equal(await byId(viewer, 'lookback-new').isVisible(), false, 'no new move yet');

  // The spectator looks back too: Home from the move list, the start.
  await byId(watcher, 'moves').focus();
  await watcher.keyboard.press('Home');
  await seesPast(watcher, game, 0, shapes[0]);

  // The opponent moves: the viewer stays at move 1, the move list grows and the new move is announced.
  assert.ok(await playIfMine(other, game), 'the opponent has the move');
  await waitPly(other, total + 1);
  await viewer.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] li').length === n, total + 1);
  await byId(viewer, 'lookback-new').waitFor({ state: 'visible' });
  assert.match(await byId(viewer, 'lookback-new').textContent(), new RegExp(`move ${total + 1}\\b`));
  await seesPast(viewer, game, 1, shapes[1]);
  assert.match(await byId(viewer, 'lookback-text').textContent(), new RegExp(`after move 1 of ${total + 1}`));
  assert.equal(await viewer.locator('[data-testid="moves"] li.new').count(), 1, 'the new move is marked in the list');
  await watcher.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] li').length === n, total + 1);
  await seesPast(watcher, game, 0, shapes[0]);
  shapes[total + 1] = await boardShape(other, game);

  // On the past board the arrows step through the game (not the cursor).
  await byId(viewer, 'board').focus();
  await viewer.keyboard.press('ArrowRight');
  await seesPast(viewer, game, 2, shapes[2]);
  // The board takes no move: a click on it does nothing but say so.
  await byId(viewer, 'board').click({ position: { x: 30, y: 30 } });
  assert.equal((await facts(viewer)).ply, 2);

  // End: the live board, the viewer's turn, and a move played.
  await viewer.keyboard.press('End');
  await viewer.waitForFunction((n) => {
    const b = document.querySelector('[data-testid="board"]');
    return b.dataset.past === 'false' && b.dataset.ply === String(n) && b.dataset.myTurn === 'true';
  }, total + 1);
  assert.deepEqual(await boardShape(viewer, game), shapes[total + 1]);
  assert.equal(await byId(viewer, 'lookback').isVisible(), false);
  assert.ok(await playIfMine(viewer, game), 'the viewer moves again');
  for (const p of players) await waitPly(p, total + 2);
  await watcher.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] li').length === n, total + 2);

  // The spectator: → steps on from the start; the button returns.
  await watcher.keyboard.press('ArrowRight');
  await seesPast(watcher, game, 1, shapes[1]);
  await byId(watcher, 'lookback-live').click();
  await watcher.waitForFunction((n) => {
    const b = document.querySelector('[data-testid="board"]');
    return b.dataset.past === 'false' && b.dataset.ply === String(n);
  }, total + 2);

  // And once more, with a step past the last move, in Vietnamese.
  await byId(viewer, 'lang').selectOption('vi');
  await byId(viewer, 'moves').focus();
  await viewer.keyboard.press('ArrowLeft');
  await viewer.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.past === 'true');
  assert.match(await byId(viewer, 'lookback-text').textContent(), /Đang xem lại/);
  assert.match(await byId(viewer, 'lookback-live').textContent(), /Về ván đang chơi/);
  await viewer.keyboard.press('ArrowRight');
  await viewer.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.past === 'false');
  await byId(viewer, 'lang').selectOption('en');

  for (const p of all) await p.context().close();
  assert.deepEqual(pageErrors, []);
}

for (const game of ['crossyray', 'quoridor', 'jungle']) {
  test(`${game}: look back during a game, the opponent moves meanwhile, back to the game`, { timeout: 120_000 }, () => lookBack(game));
}

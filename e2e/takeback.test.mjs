// Browser test of takebacks (issue 26, item 3): against the computer
// "Take back" takes the player's move and the computer's answer back at
// once, in every game; between people one asks, the other sees the
// request and accepts (the move list shrinks and the room's log says so)
// or declines (nothing changes, and the asker waits for the next move).
//
//   SERVER_BIN=../target/debug/server node --test takeback.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, hostAndGuest, playComputer, siteForTests, STEP_MS, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'takeback', args: ['--bot-ms', '100'] });
const { pageErrors } = site;

/** Plays a first move of side 0 in `game` by clicks (CrossyRay: f4; Quoridor: e2; Jungle: the elephant, a3 to a4). */
async function firstMove(page, game) {
  if (game === 'crossyray') {
    await page.locator('[data-testid="board"][data-my-turn="true"] [data-legal="true"][data-target="f4"]').click();
    return 'f4';
  }
  if (game === 'quoridor') return byId(page, 'cell-e2').click().then(() => 'e2');
  return clicks(page, ['sq-a3', 'sq-a4']);
}

/** Clicks the board's `ids` in turn, once it is the page's turn. */
async function clicks(page, ids) {
  await page.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });
  for (const id of ids) await byId(page, id).click();
  return ids.join(' ');
}

const visible = (page, id) => page.waitForSelector(`[data-testid="${id}"]:not([hidden])`, { timeout: STEP_MS });

test('against the computer, Take back goes back to before the player\'s move in every game', async () => {
  for (const game of ['crossyray', 'quoridor', 'jungle']) {
    const page = await site.newPage(`solo-${game}`);
    await playComputer(page, site.base, { game });
    assert.equal(await byId(page, 'takeback-ask').isHidden(), true, `${game}: nothing to take back yet`);
    const before = await byId(page, 'board').getAttribute('data-last-move');
    assert.ok(await firstMove(page, game), `${game}: a move`);
    // The computer answers; the player takes both moves back.
    await waitPly(page, 2);
    await page.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });
    await visible(page, 'takeback-ask');
    await byId(page, 'takeback-ask').click();
    await waitPly(page, 0);
    await page.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });
    assert.equal(await byId(page, 'move-count').textContent(), '0', game);
    assert.equal(await byId(page, 'board').getAttribute('data-last-move'), before, `${game}: the start again`);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-notice"]')]
      .some((n) => /taken back/.test(n.textContent)), null, { timeout: STEP_MS });
    // The game goes on.
    assert.ok(await firstMove(page, game), `${game}: a move after the takeback`);
    // (The computer may have answered already.)
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="board"]').dataset.ply) >= 1, null, { timeout: STEP_MS });
    await page.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('between people: asked, declined, asked again after a move, accepted', async () => {
  const { room, host, guest } = await hostAndGuest(site, 'jungle', 'people');
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await firstMove(host, 'jungle');
  await waitPly(guest, 1);
  await visible(host, 'takeback-ask');
  await byId(host, 'takeback-ask').click();
  // Lan sees the request; Minh sees that it stands.
  await visible(guest, 'takeback-accept');
  assert.match(await byId(guest, 'takeback-text').textContent(), /Minh asks to take back/);
  await visible(host, 'takeback-box');
  assert.equal(await byId(host, 'takeback-accept').isHidden(), true, 'the asker is not asked');
  assert.equal(await byId(host, 'takeback-ask').isHidden(), true, 'asked already');
  await byId(guest, 'takeback-decline').click();
  for (const page of [host, guest]) {
    await page.waitForSelector('[data-testid="takeback-box"][hidden]', { state: 'attached', timeout: STEP_MS });
  }
  assert.equal(await byId(host, 'move-count').textContent(), '1', 'declined: nothing changed');
  // Minh may not ask again before the next move: the button says so.
  await host.waitForSelector('[data-testid="takeback-ask"][disabled]', { timeout: STEP_MS });
  // Lan plays on; Minh moves and asks again; Lan accepts.
  await clicks(guest, ['sq-g7', 'sq-g6']);
  await waitPly(host, 2);
  await clicks(host, ['sq-a4', 'sq-a5']);
  await waitPly(guest, 3);
  await host.waitForSelector('[data-testid="takeback-ask"]:not([disabled])', { timeout: STEP_MS });
  await byId(host, 'takeback-ask').click();
  await visible(guest, 'takeback-accept');
  await byId(guest, 'takeback-accept').click();
  for (const page of [host, guest]) await waitPly(page, 2);
  await host.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });
  assert.equal(await byId(guest, 'move-count').textContent(), '2');

  // The finished game's replay marks where the move went back.
  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  await host.waitForSelector('[data-testid="result"]:not([hidden])', { timeout: STEP_MS });
  const games = await (await host.request.get(`${site.base}/api/rooms/${room.code}/games`)).json();
  await host.goto(`${site.base}/g/${games.games[0].id}`);
  await host.waitForSelector('[data-testid="takeback-mark-2"]', { timeout: STEP_MS });
  assert.equal(await byId(host, 'move-count').textContent(), '2', 'the moves that stood');
  await host.locator('[data-testid="moves"] li[data-ply="2"]').click();
  await host.waitForFunction(() => /Taken back here: 8 a4-a5/.test(document.querySelector('[data-testid="position"]').textContent),
    null, { timeout: STEP_MS });
  assert.deepEqual(pageErrors, []);
});

// Browser test of hints (issue 28): against the computer the "Hint"
// button shows the engine's move for the position on the board, a move
// the rules list as legal (GET /api/position) and the server plays; the
// hint goes when the position moves on. In a game between two people
// there is no Hint button. The button's words in Vietnamese too.
//
//   SERVER_BIN=../target/debug/server node --test hint.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, hostAndGuest, playComputer, siteForTests, STEP_MS, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'hint', args: ['--bot-ms', '200'] });
const { pageErrors } = site;

const visible = (page, id) => page.waitForSelector(`[data-testid="${id}"]:not([hidden])`, { timeout: STEP_MS });
const myTurn = (page) => page.waitForSelector('[data-testid="board"][data-my-turn="true"]', { timeout: STEP_MS });

/** Plays `move` (in notation) on `page`'s board by clicks; false if this test cannot click it (a Quoridor wall). */
async function playByClicks(page, game, move) {
  await myTurn(page);
  if (game === 'crossyray') {
    await page.locator(`[data-testid="board"] [data-legal="true"][data-target="${move}"]`).click();
    return true;
  }
  if (game === 'quoridor') {
    if (!/^[a-z]\d+$/.test(move)) return false;
    await byId(page, `cell-${move}`).click();
    return true;
  }
  const squares = /([a-z]\d+)-([a-z]\d+)$/.exec(move);
  assert.ok(squares, `a Jungle move from-to: ${move}`);
  await byId(page, `sq-${squares[1]}`).click();
  await byId(page, `sq-${squares[2]}`).click();
  return true;
}

/** The room code of `page` (/r/CODE). */
const codeOf = (page) => new URL(page.url()).pathname.split('/').pop();

/** Waits until `page`'s board shows at least `n` moves (the computer may already have answered). */
const atLeast = (page, n) => page.waitForFunction((k) => Number(document.querySelector('[data-testid="board"]').dataset.ply) >= k, n, { timeout: STEP_MS });

test('against the computer, Hint shows a legal move that the server then plays, in every game', async () => {
  for (const game of ['crossyray', 'quoridor', 'jungle']) {
    const page = await site.newPage(`solo-${game}`);
    await playComputer(page, site.base, { game });
    await visible(page, 'hint');
    assert.equal(await byId(page, 'hint').textContent(), 'Hint');
    assert.equal(await byId(page, 'hint-box').isHidden(), true, `${game}: no hint before asking`);
    await byId(page, 'hint').click();
    await visible(page, 'hint-box');
    // The move in the players' words, its notation in data-move.
    const move = await byId(page, 'hint-move').getAttribute('data-move');
    if (game === 'jungle') {
      const text = (await byId(page, 'hint-move').textContent()).trim();
      assert.ok(!/^\d/.test(text) && text.length > 0, `jungle: the hint ${text} shows its animal, not its rank`);
    }
    // The rules' legal moves of the room's game at the start.
    const room = await (await fetch(`${site.base}/api/rooms/${codeOf(page)}`)).json();
    const q = new URLSearchParams({ game, options: JSON.stringify(room.options), moves: '' });
    const res = await fetch(`${site.base}/api/position?${q}`);
    const position = await res.json();
    assert.equal(res.status, 200, JSON.stringify(position));
    assert.ok(position.legal.includes(move), `${game}: the hint ${move} is one of the legal moves`);
    if (await playByClicks(page, game, move)) {
      await atLeast(page, 1);
      // The position moved on: the hint is gone.
      await page.waitForSelector('[data-testid="hint-box"][hidden]', { state: 'attached', timeout: STEP_MS });
      // The computer answers; on the player's turn again a new hint may be asked (after the 2 s between hints).
      await waitPly(page, 2);
      await myTurn(page);
      await page.waitForTimeout(2_000);
      await page.waitForSelector('[data-testid="hint"]:not([disabled])', { timeout: STEP_MS });
      await byId(page, 'hint').click();
      await visible(page, 'hint-box');
      const next = await byId(page, 'hint-move').getAttribute('data-move');
      assert.ok(next.length > 0, `${game}: a second hint`);
      if (await playByClicks(page, game, next)) await atLeast(page, 3);
    }
    await page.close();
  }
  assert.deepEqual(pageErrors, []);
});

test('in Vietnamese the button reads Gợi ý and the hint is said in Vietnamese', async () => {
  const page = await site.newPage('solo-vi');
  await playComputer(page, site.base, { game: 'jungle' });
  await byId(page, 'lang').selectOption('vi');
  await visible(page, 'hint');
  assert.equal(await byId(page, 'hint').textContent(), 'Gợi ý');
  await byId(page, 'hint').click();
  await visible(page, 'hint-box');
  assert.match(await byId(page, 'hint-box').textContent(), /Máy gợi ý nước/);
  await page.close();
  assert.deepEqual(pageErrors, []);
});

test('between two people there is no Hint button', async () => {
  const { host, guest } = await hostAndGuest(site, 'jungle', 'people');
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await myTurn(host);
  await guest.waitForSelector('[data-testid="resign"]:not([hidden])', { timeout: STEP_MS });
  for (const page of [host, guest]) {
    assert.equal(await byId(page, 'hint').isHidden(), true, `${page.label}: no hint against a person`);
  }
  assert.deepEqual(pageErrors, []);
});

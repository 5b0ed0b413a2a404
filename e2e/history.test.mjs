// Browser test of the game history: two people finish a short CrossyRay
// game (two moves, then a resignation), one opens it from the games page
// (/games), steps through the replay (/g/ID) to the end with the keyboard
// and sees every move, the board at each move as the server's position
// string for that move, and the result; the room's "Past games" lists it.
//
//   SERVER_BIN=../target/debug/server node --test history.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, joinAndSit, mover, noHorizontalScroll, setName, sit, siteForTests, waitOnline, waitPly } from './harness.mjs';
import { boardShape, serverShape } from './boards.mjs';

const site = siteForTests({ tag: 'history' });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

function boardInfo(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid="board"]');
    return {
      myTurn: b.dataset.myTurn === 'true',
      mySide: b.dataset.mySide === '' ? null : Number(b.dataset.mySide),
      legal: [...b.querySelectorAll('[data-legal="true"]')].map((e) => ({ testid: e.dataset.testid, move: e.dataset.target })),
    };
  });
}

const listedMoves = (page) => page.$$eval('[data-testid="moves"] [data-testid="move"]', (lis) => lis.map((li) => li.dataset.move));

// ---------------------------------------------------------------- test

test('a finished game is listed on the games page, replays to its end with the keyboard, and shows in the room', { timeout: 180_000 }, async () => {
  const host = await site.newPage('host');
  await host.goto(`${site.base}/`);
  assert.equal(await byId(host, 'games-link').getAttribute('href'), '/games', 'the home page links to the games page');
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  const code = new URL(host.url()).pathname.slice(3);
  await waitOnline(host);
  assert.equal(await byId(host, 'games-link').getAttribute('href'), '/games', 'the room page links to the games page');
  await byId(host, 'past-empty').waitFor();
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');

  const guest = await site.newPage('guest');
  await joinAndSit(guest, site.base, code, 'Lan', 1);

  await byId(host, 'start').click();
  const players = [host, guest];
  const played = [];
  for (let n = 0; n < 2; n++) {
    const { page, info } = await mover(players, boardInfo);
    const target = info.legal.find((l) => !l.move.startsWith('goal:')) ?? info.legal[0];
    await byId(page, target.testid).click();
    played.push(target.move);
    for (const p of players) await waitPly(p, played.length);
  }
  const { page: loser } = await mover(players, boardInfo);
  const loserName = loser === host ? 'Minh' : 'Lan';
  const winnerName = loser === host ? 'Lan' : 'Minh';
  await byId(loser, 'resign').click();
  await byId(loser, 'resign').click();
  await byId(loser, 'result').waitFor({ state: 'visible' });

  // The room's past games list the game at once (both pages).
  for (const p of players) {
    await p.locator('[data-testid="past-games"] [data-testid="game-entry"]').first().waitFor();
    assert.equal(await byId(p, 'past-empty').isVisible(), false);
  }
  const pastHref = await host.locator('[data-testid="past-games"] [data-testid="game-link"]').first().getAttribute('href');
  assert.match(pastHref, /^\/g\/[0-9a-f-]{36}$/);

  // The games page: the host's one game, with both names, the result and the room.
  await host.goto(`${site.base}/games`);
  const entry = host.locator('[data-testid="history-list"] [data-testid="game-entry"]');
  await entry.first().waitFor();
  assert.equal(await entry.count(), 1);
  assert.equal(await entry.getAttribute('data-game'), 'crossyray');
  assert.equal(await entry.getAttribute('data-result'), loser === host ? 'loss' : 'win');
  // Names per side; who got side 0 depends on the start order.
  assert.deepEqual((await byId(host, 'game-players').textContent()).split(' – ').sort(), ['Lan', 'Minh']);
  assert.match(await byId(host, 'game-outcome').textContent(), new RegExp(`${winnerName} wins`));
  assert.equal(await byId(host, 'game-room').textContent(), `Room ${code}`);
  // Filters: another game has none; back to all.
  await byId(host, 'filter-game').selectOption('jungle');
  await byId(host, 'history-status').filter({ hasText: 'No finished games yet.' }).waitFor();
  assert.equal(await entry.count(), 0);
  assert.match(host.url(), /\/games\?game=jungle$/);
  await byId(host, 'filter-game').selectOption('');
  await entry.first().waitFor();
  assert.equal(await byId(host, 'game-link').getAttribute('href'), pastHref, 'the room and the games page link the same game');

  // The replay: starts before the first move; the arrow keys step to the
  // end, and the board at each move is the server's position for it.
  await byId(host, 'game-link').click();
  await host.waitForURL(/\/g\/[0-9a-f-]{36}$/);
  await byId(host, 'position').waitFor();
  assert.equal(await byId(host, 'position').getAttribute('data-ply'), '0');
  assert.deepEqual(await listedMoves(host), played, 'the move list is the game\'s moves');
  assert.equal(await byId(host, 'move-count').textContent(), String(played.length));
  const gameId = new URL(host.url()).pathname.slice(3);
  const { positions } = await (await fetch(`${site.base}/api/games/${gameId}`)).json();
  assert.equal(positions.length, played.length + 1, 'a position for the start and each move');
  const boardIsPosition = async (n) => {
    await host.waitForFunction((k) => document.querySelector('[data-testid="board"]').dataset.ply === String(k), n);
    assert.deepEqual(await boardShape(host, 'crossyray'), serverShape('crossyray', positions[n]), `the board at move ${n}`);
    assert.equal(await byId(host, 'position-string').textContent(), positions[n].position);
  };
  await boardIsPosition(0);
  assert.equal(Object.keys((await boardShape(host, 'crossyray')).cells).length, 1, 'the start: the 1 alone');
  for (let n = 1; n <= played.length; n++) {
    await host.keyboard.press('ArrowRight');
    await host.waitForFunction((k) => document.querySelector('[data-testid="position"]').dataset.ply === String(k), n);
    assert.equal(await host.locator('[data-testid="moves"] li.current').getAttribute('data-move'), played[n - 1]);
    await boardIsPosition(n);
    assert.equal(await byId(host, 'board').getAttribute('data-last-move'), played[n - 1]);
  }
  assert.equal(await byId(host, 'board').getAttribute('data-over'), 'true', 'the end shows the game over');
  assert.equal(await byId(host, 'board-stops').isVisible(), false);
  await byId(host, 'copy-position').click();
  await byId(host, 'copy-status').filter({ hasText: 'Position copied' }).waitFor();
  await host.keyboard.press('ArrowRight');
  assert.equal(await byId(host, 'position').getAttribute('data-ply'), String(played.length), 'no step past the end');
  assert.equal(await byId(host, 'position').getAttribute('data-at-end'), 'true');
  assert.equal(await byId(host, 'step-forward').isDisabled(), true);
  await host.keyboard.press('ArrowLeft');
  await host.waitForFunction(() => document.querySelector('[data-testid="position"]').dataset.ply === '1');
  await host.keyboard.press('End');
  await host.waitForFunction((k) => document.querySelector('[data-testid="position"]').dataset.ply === String(k), played.length);
  assert.equal(await byId(host, 'result').getAttribute('data-kind'), 'win');
  assert.equal(await byId(host, 'result').getAttribute('data-reason'), 'resign');
  assert.equal(await byId(host, 'result-head').textContent(), `${winnerName} wins`);
  assert.deepEqual((await byId(host, 'replay-players').textContent()).trim().split(/\s+/).sort(), ['Lan', 'Minh']);
  assert.notEqual(loserName, winnerName);

  // A click on a move jumps there; Home goes back to the start.
  await host.locator('[data-testid="moves"] li[data-ply="1"]').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="position"]').dataset.ply === '1');
  await host.keyboard.press('Home');
  await host.waitForFunction(() => document.querySelector('[data-testid="position"]').dataset.ply === '0');

  // Autoplay at the fastest speed runs to the end by itself.
  await byId(host, 'speed').selectOption('0.5');
  await byId(host, 'autoplay').click();
  await host.waitForFunction((k) => document.querySelector('[data-testid="position"]').dataset.ply === String(k), played.length);
  await host.waitForFunction(() => document.querySelector('[data-testid="autoplay"]').dataset.playing === 'false');

  // Export: the text of the game.
  const href = await byId(host, 'export').getAttribute('href');
  const text = await host.evaluate(async (u) => (await fetch(u)).text(), href);
  assert.match(text, /\[Game "crossyray"\]/);
  assert.match(text, new RegExp(`^1\\. ${played[0]}$`, 'm'));
  const download = host.waitForEvent('download');
  await byId(host, 'export').click();
  assert.match((await download).suggestedFilename(), /^crossyray-1\.txt$/);

  // Vietnamese, and a phone's width.
  await byId(host, 'lang').selectOption('vi');
  await host.waitForFunction(() => document.querySelector('[data-testid="to-end"]').textContent === 'Cuối');
  await host.setViewportSize({ width: 360, height: 800 });
  await noHorizontalScroll(host, 'replay page');

  // An unknown game says so.
  const stranger = await site.newPage('stranger');
  await stranger.goto(`${site.base}/g/00000000-0000-0000-0000-000000000000`);
  await byId(stranger, 'not-found').waitFor();
  await stranger.goto(`${site.base}/games`);
  await byId(stranger, 'history-status').filter({ hasText: 'create or join a room first' }).waitFor();

  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
});

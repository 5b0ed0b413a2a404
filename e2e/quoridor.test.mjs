// Browser test of Quoridor rooms: the real server binary, Debian's
// chromium driven by playwright-core, node's built-in test runner.
//
//   SERVER_BIN=../target/debug/server node --test quoridor.test.mjs
//
// A host creates a Quoridor room from the home page, a guest joins by the
// link, a spectator watches; both players move their pawn by clicking a
// marked cell and place a wall by hovering a groove crossing and clicking
// it (one of them after turning it with H/V); the spectator sees the walls,
// the last one highlighted. After the game the host pauses the auto-start
// countdown. A host alone adds two computers to a 3-player room (never in
// the last free seat) and plays them. Then a 360 px phone: no horizontal
// scroll on a 13×13 board (its crossings 32 px apart or more, the drawing
// scrolling inside its box), and tapping moves and places a wall (tap a
// crossing, tap again).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardFacts, byId, createRoomByPage, joinAndSit, noHorizontalScroll, setName, sit, siteForTests, until } from './harness.mjs';

// The computer's Master thinks 0.3 s at most (Amateur 15% of it).
const site = siteForTests({ tag: 'quoridor', args: ['--bot-ms', '300'] });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);

async function waitOnline(page) {
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector('[data-testid="board"][data-game="quoridor"] [data-testid="cell-a1"]');
}

/** From the home page: a Quoridor room with these options; lands in the room. */
async function createQuoridorRoom(page, { size = '9', turn = '90', players = '2' } = {}) {
  await page.goto(`${site.base}/`);
  await byId(page, 'create-game').selectOption('quoridor');
  await byId(page, 'create-qsize').waitFor({ state: 'visible' });
  assert.equal(await byId(page, 'create-width').isVisible(), false, 'CrossyRay fields are hidden');
  await byId(page, 'create-qsize').selectOption(size);
  await byId(page, 'create-players').selectOption(players);
  await byId(page, 'create-turn').selectOption(turn);
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(page);
  return new URL(page.url()).pathname.slice(3);
}

/** Board facts as the page shows them. */
function boardInfo(page) {
  return boardFacts(page, (b) => ({
    targets: [...b.querySelectorAll('[data-target]')].map((e) => e.dataset.target),
    walls: [...b.querySelectorAll('[data-testid^="wall-"]')].map((e) => e.dataset.wall),
    lastWall: b.querySelector('.wall[data-last="true"]')?.dataset.wall ?? null,
    ghost: b.querySelector('[data-testid="ghost"]') ? {
      wall: b.querySelector('[data-testid="ghost"]').dataset.wall,
      legal: b.querySelector('[data-testid="ghost"]').dataset.legal === 'true',
    } : null,
    pawns: Object.fromEntries([...b.querySelectorAll('[data-pawn]')].map((e) => [e.dataset.pawn, e.dataset.cell])),
  }));
}

/** Reads the board of `page` until `fn` holds for it. */
const waitFor = (page, fn, what) => until(() => boardInfo(page), fn, what);

const atPly = (page, ply) => waitFor(page, (i) => i.ply === ply, `ply ${ply}`);

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

// ---------------------------------------------------------------- tests

test('two players move pawns and place walls by clicking; a spectator sees the walls; the host pauses the next game', { timeout: 120_000 }, async () => {
  const host = await newPage('host');
  const code = await createQuoridorRoom(host);
  assert.match(await byId(host, 'options-summary').textContent(), /9 × 9/);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');

  const guest = await newPage('guest');
  await joinAndSit(guest, site.base, code, 'Lan', 1);

  const spectator = await newPage('spectator');
  await spectator.goto(`${site.base}/r/${code}`);
  await waitOnline(spectator);

  // Seat 1 plays Red (side 0, from e1) and moves first.
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  let info = await waitFor(host, (i) => i.myTurn, 'the host to move');
  assert.equal(info.mySide, 0);
  assert.deepEqual(info.pawns, { 0: 'e1', 1: 'e9' });
  assert.deepEqual(info.targets.sort(), ['d1', 'e2', 'f1'], 'the pawn\'s targets are marked');
  assert.equal((await boardInfo(guest)).targets.length, 0, 'the waiting player sees no targets');
  // The per-move timer is on the player cards.
  await byId(spectator, 'clock-0').waitFor();
  assert.match(await byId(spectator, 'clock-0').textContent(), /^1:\d\d$|^0:\d\d/);
  assert.match(await byId(spectator, 'player-sub-0').textContent(), /Red/);

  // 1. Red steps up.
  await byId(host, 'cell-e2').click();
  await atPly(spectator, 1);
  assert.equal((await boardInfo(spectator)).pawns[0], 'e2');

  // 2. Yellow places a horizontal wall: hover a groove crossing, click.
  await waitFor(guest, (i) => i.myTurn, 'the guest to move');
  await byId(guest, 'x-c3').hover();
  info = await waitFor(guest, (i) => i.ghost?.wall === 'c3h', 'a ghost wall at c3h');
  assert.equal(info.ghost.legal, true);
  await byId(guest, 'x-c3').click();
  info = await waitFor(spectator, (i) => i.ply === 2, 'the wall on the spectator\'s board');
  assert.deepEqual(info.walls, ['c3h']);
  assert.equal(info.lastWall, 'c3h');
  assert.match(await byId(spectator, 'player-sub-1').textContent(), /9/);

  // 3. Red: an overlapping ghost is not placeable; turned vertical, f5v is.
  await waitFor(host, (i) => i.myTurn, 'the host to move');
  await byId(host, 'x-d3').hover();
  info = await waitFor(host, (i) => i.ghost?.wall === 'd3h', 'a ghost wall at d3h');
  assert.equal(info.ghost.legal, false, 'd3h overlaps c3h');
  await byId(host, 'x-d3').click();
  await byId(host, 'toast').first().waitFor();
  assert.equal((await boardInfo(host)).ply, 2, 'nothing was sent');
  await byId(host, 'q-orient').click();
  await host.waitForSelector('[data-testid="board"][data-orient="v"]');
  await byId(host, 'x-f5').click();
  info = await waitFor(spectator, (i) => i.ply === 3, 'the second wall');
  assert.deepEqual(info.walls.sort(), ['c3h', 'f5v']);
  assert.equal(info.lastWall, 'f5v', 'the last wall is highlighted');

  // 4. Yellow steps down.
  await waitFor(guest, (i) => i.myTurn && i.targets.includes('e8'), 'the guest to move');
  await byId(guest, 'cell-e8').click();
  info = await waitFor(spectator, (i) => i.ply === 4, 'the fourth move');
  assert.deepEqual(info.pawns, { 0: 'e2', 1: 'e8' });
  assert.equal(info.lastWall, 'f5v');
  assert.equal(await byId(spectator, 'move').count(), 4);

  // 5. Red with the keyboard: W turns on walls (a ghost at the pawn's
  // crossing, e2h), the arrows move it, Enter places it.
  await waitFor(host, (i) => i.myTurn, 'the host to move');
  await byId(host, 'board').focus();
  await host.keyboard.press('w');
  info = await waitFor(host, (i) => i.ghost?.wall === 'e2h', 'the keyboard ghost at e2h');
  await host.keyboard.press('ArrowLeft');
  info = await waitFor(host, (i) => i.ghost?.wall === 'd2h', 'the ghost moved left');
  assert.equal(info.ghost.legal, true);
  await host.keyboard.press('Enter');
  info = await waitFor(spectator, (i) => i.ply === 5, 'the keyboard wall');
  assert.deepEqual(info.walls.sort(), ['c3h', 'd2h', 'f5v']);
  assert.equal(info.lastWall, 'd2h');

  // The game ends; the host sees the countdown to the next and pauses it.
  await byId(guest, 'resign').click();
  await byId(guest, 'resign').click();
  await byId(spectator, 'result').waitFor({ state: 'visible' });
  await byId(host, 'countdown').waitFor({ state: 'visible' });
  assert.match(await byId(host, 'countdown-text').textContent(), /Next game in \d+ s/);
  await byId(spectator, 'countdown').waitFor({ state: 'visible' });
  assert.equal(await byId(spectator, 'countdown-toggle').isVisible(), false, 'only the host pauses');
  await byId(host, 'countdown-toggle').click();
  await spectator.waitForSelector('[data-testid="countdown"][data-paused="true"]');
  // Each page redraws on its own next animation frame: the host's button
  // is waited for, not read at the moment the spectator's page changed.
  await host.waitForSelector('[data-testid="countdown"][data-paused="true"]');
  await host.waitForFunction(() => /Resume/.test(document.querySelector('[data-testid="countdown-toggle"]')?.textContent ?? ''));
  assert.match(await byId(host, 'countdown-toggle').textContent(), /Resume/);
  // The scoreboard has Quoridor points: 10 for a win by default.
  await spectator.waitForFunction(() => /Minh\s*10/.test(document.querySelector('[data-testid="scores"]')?.innerText ?? ''));

  for (const p of [host, guest, spectator]) await p.context().close();
  assertNoPageErrors();
});

test('a host adds two computers to a 3-player Quoridor room and plays them', { timeout: 120_000 }, async () => {
  const host = await newPage('solo');
  await createQuoridorRoom(host, { players: '3' });
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  for (const [seat, level] of [[1, 'beginner'], [2, 'amateur']]) {
    await byId(host, `computer-level-${seat}`).selectOption(level);
    await byId(host, `computer-add-${seat}`).click();
    await host.waitForFunction(
      ([s, l]) => document.querySelector(`[data-testid="seat-name-${s}"]`)?.dataset.computer === l,
      [seat, level],
    );
  }
  // The last seat a person could take is never offered to the computer.
  await byId(host, 'stand').click();
  await byId(host, 'sit-0').waitFor();
  assert.equal(await byId(host, 'computer-add-0').count(), 0, 'no computer in the last free seat');
  await sit(host, 0, 'Minh');

  // Seat 1 plays Red and moves first; the two computers answer in turn.
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  let info = await waitFor(host, (i) => i.myTurn, 'the host to move');
  assert.deepEqual(info.pawns, { 0: 'e1', 1: 'a5', 2: 'e9' });
  await byId(host, 'cell-e2').click();
  info = await waitFor(host, (i) => i.myTurn && i.ply === 3, 'both computers to answer');
  assert.equal(info.pawns[0], 'e2');
  assert.equal(await byId(host, 'move').count(), 3, 'three moves in the list');
  // Wherever their walls left the pawn a way: its first marked target.
  const target = info.targets[0];
  await byId(host, `cell-${target}`).click();
  info = await waitFor(host, (i) => i.myTurn && i.ply === 6, 'the computers\' second answers');
  assert.equal(info.pawns[0], target);
  await host.context().close();
  assertNoPageErrors();
});

test('a 360 px phone: a 13×13 board fits, tapping moves the pawn and places a wall', { timeout: 120_000 }, async () => {
  const phone = await newPage('phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await phone.goto(`${site.base}/`);
  await noHorizontalScroll(phone, 'home page');
  const code = await createQuoridorRoom(phone, { size: '13' });
  await noHorizontalScroll(phone, 'room page');
  await setName(phone, 'Chi');
  await sit(phone, 0, 'Chi', { tap: true });

  const desk = await newPage('desk');
  await joinAndSit(desk, site.base, code, 'Dung', 1);

  await byId(phone, 'start-order').selectOption('seats');
  await byId(phone, 'start').tap();
  await waitFor(phone, (i) => i.myTurn, 'the phone to move');
  await noHorizontalScroll(phone, 'a 13×13 game');
  const box = await byId(phone, 'board').boundingBox();
  assert.ok(box.width <= 360 && box.width >= 300, `the board scales to the phone's width (${box.width}px)`);
  // A tap picks the nearest groove crossing, so each crossing's hit square
  // is the distance between crossings: 32 px or more (the 13×13 drawing
  // scrolls sideways inside the board's box, never the page).
  const [b5, c5] = [await byId(phone, 'x-b5').boundingBox(), await byId(phone, 'x-c5').boundingBox()];
  assert.ok(c5.x - b5.x >= 32, `crossings ${(c5.x - b5.x).toFixed(1)} px apart`);

  await byId(phone, 'cell-g2').tap();
  await atPly(desk, 1);
  await waitFor(desk, (i) => i.myTurn, 'the desk to move');
  await byId(desk, 'cell-g12').click();
  await waitFor(phone, (i) => i.myTurn && i.ply === 2, 'the phone to move again');
  // A tap on a crossing shows the ghost; a second tap places it.
  await byId(phone, 'x-b5').tap();
  const info = await waitFor(phone, (i) => i.ghost?.wall === 'b5h', 'a ghost wall');
  assert.equal(info.ply, 2, 'the first tap only shows the wall');
  await byId(phone, 'x-b5').tap();
  const after = await waitFor(desk, (i) => i.ply === 3, 'the wall on the other board');
  assert.deepEqual(after.walls, ['b5h']);
  await noHorizontalScroll(phone, 'after a wall');

  for (const p of [phone, desk]) await p.context().close();
  assertNoPageErrors();
});

test('a host switches a room to Quoridor teams in the options: eight seats in two teams for everyone, and the game starts', { timeout: 120_000 }, async () => {
  const host = await newPage('host');
  const code = await createRoomByPage(host, site.base);
  await setName(host, 'Minh');
  const guest = await newPage('guest');
  await guest.goto(`${site.base}/r/${code}`);
  await guest.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await setName(guest, 'Lan');

  await byId(host, 'opt-game').selectOption('quoridor');
  await byId(host, 'opt-mode').waitFor({ state: 'visible' });
  assert.equal(await byId(host, 'opt-width').isVisible(), false);
  await byId(host, 'opt-mode').selectOption('teams');
  assert.equal(await byId(host, 'opt-players').isDisabled(), true, 'teams always have two pawns');
  await byId(host, 'opt-goal').selectOption('centre');
  await byId(host, 'options-save').click();
  await waitOnline(guest);
  await byId(guest, 'team-1').waitFor();
  // The seats name each team as the player bar does, by its colour.
  assert.equal(await byId(guest, 'team-0').textContent(), 'Red team');
  assert.equal(await byId(guest, 'team-1').textContent(), 'Yellow team');
  assert.equal(await guest.locator('[data-testid^="seat-"]:not([data-testid^="seat-name"])').count(), 8);
  assert.match(await byId(guest, 'options-summary').textContent(), /Teams/);

  await sit(host, 0, 'Minh');
  assert.equal(await byId(host, 'start').isVisible(), false, 'one team is still empty');
  await sit(guest, 4, 'Lan');
  await byId(host, 'start').waitFor({ state: 'visible' });
  await byId(host, 'start').click();
  // The preview before the start already shows two pawns: wait for the
  // started game, where the guest plays a side.
  const info = await waitFor(guest, (i) => Object.keys(i.pawns).length === 2 && i.mySide !== null, 'the team game');
  assert.ok(info.mySide === 0 || info.mySide === 1);
  // Centre race: the centre cell is the goal.
  assert.equal(await guest.locator('[data-testid="cell-e5"].centre').count(), 1);

  for (const p of [host, guest]) await p.context().close();
  assertNoPageErrors();
});

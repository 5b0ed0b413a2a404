// Browser test of Jungle against the computer: the real server binary
// (with a short bot budget), Debian's chromium driven by playwright-core,
// node's built-in test runner.
//
//   SERVER_BIN=../target/debug/server node --test jungle.test.mjs
//
// A player opens the home page, plays the computer (Beginner) by clicking
// an animal and then one of its marked targets, and sees the computer
// answer every move; a move made with the keyboard as Red (board turned
// round); and a 360 px phone without horizontal scroll.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, createRoomByPage, noHorizontalScroll, playOne, siteForTests, until, waitOnline, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'jungle', args: ['--bot-ms', '200'] });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);

/** From the home page: play the computer with these choices; lands in the room. */
async function playComputer(page, { name, level = 'beginner', side = 'blue' }) {
  await page.goto(`${site.base}/`);
  await byId(page, 'solo-name').fill(name);
  await byId(page, 'solo-level').selectOption(level);
  await byId(page, 'solo-side').selectOption(side);
  await byId(page, 'solo-play').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector('[data-testid="board"][data-game="jungle"] [data-testid="sq-d1"]');
}

/** Board facts as the page shows them. */
function boardInfo(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid="board"]');
    const squares = (sel) => [...b.querySelectorAll(sel)].map((e) => e.dataset.square);
    return {
      ply: Number(b.dataset.ply),
      myTurn: b.dataset.myTurn === 'true',
      mySide: b.dataset.mySide === '' ? null : Number(b.dataset.mySide),
      flipped: b.dataset.flipped === 'true',
      over: b.dataset.over === 'true',
      lastMove: b.dataset.lastMove,
      selected: b.dataset.selected,
      movable: squares('[data-movable="true"]'),
      targets: [...b.querySelectorAll('[data-target]')].map((e) => ({ square: e.dataset.square, move: e.dataset.target, mark: e.dataset.mark })),
      moves: [...document.querySelectorAll('[data-testid="moves"] li')].map((li) => li.dataset.move),
    };
  });
}

/** Reads the board of `page` until `fn` holds for it. */
const waitFor = (page, fn, what) => until(() => boardInfo(page), fn, what);

/** The computer answered: it is our move again, one ply further. */
function computerAnswered(page, ply) {
  return waitFor(page, (i) => i.ply === ply && (i.myTurn || i.over), `the computer's answer at ply ${ply}`);
}

const MOVE_RE = /^[1-8] [a-g][1-9][-x][a-g][1-9]$/;

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

/** Select an animal that can move and return the targets the board marks for it. */
async function selectSomething(page, info, act) {
  for (const from of info.movable) {
    await act(from);
    const now = await waitFor(page, (i) => i.selected === from, `selection of ${from}`);
    if (now.targets.length) return { from, targets: now.targets };
  }
  throw new Error('no animal shows a target');
}

// ---------------------------------------------------------------- tests

test('a player plays the computer (Beginner) from the home page by clicking animals and targets', { timeout: 120_000 }, async () => {
  const page = await newPage('solo');
  await playComputer(page, { name: 'Lan', side: 'blue' });
  let info = await waitFor(page, (i) => i.myTurn, 'our first turn');
  assert.equal(info.mySide, 0, 'Blue is side 0');
  assert.equal(info.ply, 0, 'Blue moves first: the computer waits');
  assert.equal(info.flipped, false, 'Blue sees rank 1 at the bottom');
  const d1 = await byId(page, 'sq-d1').boundingBox();
  const d9 = await byId(page, 'sq-d9').boundingBox();
  assert.ok(d1.y > d9.y, 'Blue\'s den is at the bottom');
  // The board draws the terrain distinctly.
  assert.equal(await byId(page, 'sq-b4').getAttribute('data-kind'), 'water');
  assert.equal(await byId(page, 'sq-c1').getAttribute('data-kind'), 'trap');
  assert.equal(await byId(page, 'sq-d9').getAttribute('data-kind'), 'den');
  assert.equal(await byId(page, 'sq-a3').getAttribute('data-piece'), '0:8', 'Blue elephant on a3');
  // Players: the computer's card and seat name it by its level.
  assert.match(await byId(page, 'player-1').textContent(), /Computer \(Beginner\)/);

  for (let round = 0; round < 3; round++) {
    info = await boardInfo(page);
    if (info.over) break;
    const { from, targets } = await selectSomething(page, info, (sq) => byId(page, `sq-${sq}`).click());
    for (const t of targets) {
      assert.ok(['dot', 'capture', 'den'].includes(t.mark), `target ${t.square} is marked (${t.mark})`);
      assert.match(t.move, MOVE_RE);
      assert.ok(t.move.includes(` ${from}`), `${t.move} starts on ${from}`);
    }
    const pick = targets.find((t) => t.mark === 'dot') ?? targets[0];
    await byId(page, `sq-${pick.square}`).click();
    const mine = await waitFor(page, (i) => i.ply === info.ply + 1 || i.ply === info.ply + 2, `our move ${pick.move}`);
    assert.ok(mine.moves.includes(pick.move), `the move list shows ${pick.move}`);
    const answered = await computerAnswered(page, info.ply + 2);
    const reply = answered.moves[answered.moves.length - 1];
    assert.match(reply, MOVE_RE, 'the computer\'s move is in notation');
    assert.equal(answered.lastMove, reply, 'the last move is highlighted on the board');
    assert.equal(answered.moves.length, info.ply + 2);
    const lastTo = reply.slice(-2);
    assert.equal(await byId(page, `sq-${lastTo}`).getAttribute('data-last'), 'true');
    // People read each move as the animal's picture with its squares, the picture named for screen readers.
    const shown = await page.$$eval('[data-testid="moves"] li', (lis) => lis.map((li) => {
      const icon = li.querySelector('.mv-icon');
      return { move: li.dataset.move, text: li.querySelector('[data-testid="move-text"]').textContent, icon: icon?.textContent, name: icon?.getAttribute('aria-label') };
    }));
    const EMOJI = { 1: '🐀', 2: '🐈', 3: '🐕', 4: '🐺', 5: '🐆', 6: '🐅', 7: '🦁', 8: '🐘' };
    const NAMES = { 1: 'rat', 2: 'cat', 3: 'dog', 4: 'wolf', 5: 'leopard', 6: 'tiger', 7: 'lion', 8: 'elephant' };
    for (const e of shown) {
      const [rank, squares] = e.move.split(' ');
      assert.deepEqual(e, { move: e.move, text: `${EMOJI[rank]} ${squares.replace('x', '×')}`, icon: EMOJI[rank], name: NAMES[rank] }, `the list shows ${e.move}`);
    }
  }
  // Each animal shows its rank in the top-right corner of its piece.
  const corners = await page.$$eval('[data-testid="board"] [data-testid^="piece-"]', (gs) => gs.map((g) => {
    const disc = g.querySelector('.disc').getBBox();
    const rank = g.querySelector('.rank').getBBox();
    return rank.x + rank.width / 2 > disc.x + disc.width / 2 && rank.y + rank.height / 2 < disc.y + disc.height / 2;
  }));
  assert.ok(corners.length >= 8 && corners.every(Boolean), 'every rank number sits top-right');

  // The tab says whose turn it is.
  await waitFor(page, (i) => i.myTurn, 'our turn');
  assert.match(await page.title(), /^● Your turn · /, 'the tab title shows our turn');

  // Resign: the banner says who won and why.
  await byId(page, 'resign').click();
  await byId(page, 'resign').click();
  await byId(page, 'result').waitFor({ state: 'visible' });
  assert.equal(await byId(page, 'result').getAttribute('data-reason'), 'resign');
  assert.match(await byId(page, 'result-head').textContent(), /Computer \(Beginner\) wins/);
  assert.doesNotMatch(await page.title(), /●/, 'no turn once the game is over');
  // No countdown against the computer: "Play again" starts the next game.
  const again = byId(page, 'start');
  await again.waitFor({ state: 'visible' });
  assert.equal((await again.textContent()).trim(), 'Play again');
  await page.waitForTimeout(1_500);
  assert.equal(await byId(page, 'countdown').isVisible(), false, 'no auto-start countdown');
  await again.click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="result"]')?.checkVisibility?.());
  await waitPly(page, 0);
  await page.context().close();
  assertNoPageErrors();
});

test('playing Red: the computer moves first, the board is turned round, and a move is made with the keyboard', { timeout: 120_000 }, async () => {
  const page = await newPage('keys');
  await playComputer(page, { name: 'Minh', level: 'beginner', side: 'red' });
  const info = await waitFor(page, (i) => i.myTurn && i.ply === 1, 'the computer\'s first move');
  assert.equal(info.mySide, 1);
  assert.equal(info.flipped, true);
  const d1 = await byId(page, 'sq-d1').boundingBox();
  const d9 = await byId(page, 'sq-d9').boundingBox();
  assert.ok(d9.y > d1.y, 'Red sees its own den at the bottom');

  await byId(page, 'board').focus();
  // The first arrow shows the cursor on an animal that can move.
  await page.keyboard.press('ArrowUp');
  const cursor = await page.evaluate(() => document.querySelector('[data-testid="board"]').dataset.cursor);
  assert.ok(info.movable.includes(cursor), `the cursor starts on a movable animal (${cursor})`);
  await page.keyboard.press('Enter');
  let now = await waitFor(page, (i) => i.selected === cursor, 'keyboard selection');
  assert.ok(now.targets.length > 0);
  // Esc deselects; Space selects again.
  await page.keyboard.press('Escape');
  now = await waitFor(page, (i) => i.selected === '', 'deselection');
  await page.keyboard.press(' ');
  now = await waitFor(page, (i) => i.selected === cursor, 'selection again');

  // Walk the cursor to a target one square away, as the screen shows it.
  const from = await byId(page, `sq-${cursor}`).boundingBox();
  let key = null;
  let target = null;
  for (const t of now.targets) {
    const box = await byId(page, `sq-${t.square}`).boundingBox();
    const dx = Math.round((box.x - from.x) / from.width);
    const dy = Math.round((box.y - from.y) / from.height);
    if (Math.abs(dx) + Math.abs(dy) !== 1) continue;
    key = dx === 1 ? 'ArrowRight' : dx === -1 ? 'ArrowLeft' : dy === 1 ? 'ArrowDown' : 'ArrowUp';
    target = t;
    break;
  }
  assert.ok(target, 'a target next to the selected animal');
  await page.keyboard.press(key);
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid="board"]').dataset.cursor), target.square);
  await page.keyboard.press('Enter');
  const after = await computerAnswered(page, 3);
  assert.equal(after.moves[1], target.move, 'the keyboard move was played');
  assert.match(after.moves[2], MOVE_RE, 'and the computer answered');
  await page.context().close();
  assertNoPageErrors();
});

test('a 360 px phone: no horizontal scroll, the board fits, tapping plays against the computer', { timeout: 120_000 }, async () => {
  const phone = await newPage('phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await phone.goto(`${site.base}/`);
  await noHorizontalScroll(phone, 'home page');
  // The Jungle options on the home page's create form hide the board size.
  await byId(phone, 'create-game').selectOption('jungle');
  assert.equal(await byId(phone, 'create-width').isVisible(), false);
  await noHorizontalScroll(phone, 'home page, Jungle chosen');
  await playComputer(phone, { name: 'Chi', side: 'blue' });
  await noHorizontalScroll(phone, 'room page');
  const box = await byId(phone, 'board').boundingBox();
  assert.ok(box.width <= 360 && box.width >= 280, `the board fits the phone's width (${box.width}px)`);

  const info = await waitFor(phone, (i) => i.myTurn, 'our turn');
  const { targets } = await selectSomething(phone, info, (sq) => byId(phone, `sq-${sq}`).tap());
  await byId(phone, `sq-${targets[0].square}`).tap();
  await computerAnswered(phone, 2);
  await noHorizontalScroll(phone, 'room page after moves');

  // Vietnamese: the same board, the panel in Vietnamese.
  await byId(phone, 'lang').selectOption('vi');
  await phone.waitForFunction(() => /Máy/.test(document.querySelector('[data-testid="player-1"]')?.textContent ?? ''));
  await noHorizontalScroll(phone, 'room page in Vietnamese');
  await phone.context().close();
  assertNoPageErrors();
});

test('a host switches a CrossyRay room to Jungle, seats the computer in the room and starts with seat 1 first', { timeout: 120_000 }, async () => {
  const host = await newPage('switch');
  await createRoomByPage(host, site.base);
  await host.waitForSelector('[data-testid="board"] [data-testid="cell-e4"]');
  await byId(host, 'name-input').fill('Bao');
  await byId(host, 'name-save').click();
  await byId(host, 'sit-0').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-0"]')?.textContent === 'Bao');
  // CrossyRay has a computer player too: the free seat offers it.
  assert.equal(await byId(host, 'computer-add-1').count(), 1);

  // Switch the game: the size fields go, the board becomes a Jungle board.
  await byId(host, 'opt-game').selectOption('jungle');
  assert.equal(await byId(host, 'opt-width').isVisible(), false);
  await byId(host, 'opt-clock').selectOption('5+3');
  await byId(host, 'options-save').click();
  await host.waitForSelector('[data-testid="board"][data-game="jungle"] [data-testid="sq-d9"]');
  assert.match(await byId(host, 'options-summary').textContent(), /Jungle: 5 min \+ 3 s/);

  // Seat the computer at Amateur, then take it out and put it back.
  await byId(host, 'computer-level-1').selectOption('amateur');
  await byId(host, 'computer-add-1').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.dataset.computer === 'amateur');
  await byId(host, 'computer-remove-1').click();
  await byId(host, 'computer-add-1').waitFor();
  // The level picked before is kept.
  assert.equal(await byId(host, 'computer-level-1').inputValue(), 'amateur');
  await byId(host, 'computer-add-1').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.dataset.computer === 'amateur');
  assert.equal(await byId(host, 'start-order').inputValue(), 'seats', 'against the computer the seats decide by default');
  await byId(host, 'start').click();

  // Seat 1 plays Blue and moves first; the computer answers; both clocks show.
  const info = await waitFor(host, (i) => i.myTurn, 'our first turn');
  assert.equal(info.mySide, 0);
  await byId(host, 'clock-1').waitFor();
  const { targets } = await selectSomething(host, info, (sq) => byId(host, `sq-${sq}`).click());
  await byId(host, `sq-${targets[0].square}`).click();
  await computerAnswered(host, 2);
  await host.context().close();
  assertNoPageErrors();
});

test('the home page\'s computer plays CrossyRay and Quoridor too', { timeout: 120_000 }, async () => {
  for (const game of ['crossyray', 'quoridor']) {
    const page = await newPage(`solo-${game}`);
    await page.goto(`${site.base}/`);
    await byId(page, 'solo-game').selectOption(game);
    assert.equal(await page.locator('#solo-clock-field').isVisible(), game !== 'quoridor', 'a chess clock only where the game has one');
    const first = await byId(page, 'solo-side').locator('option[value="blue"]').textContent();
    assert.match(first, /First/, 'sides are named by turn');
    await byId(page, 'solo-name').fill('Lan');
    await byId(page, 'solo-level').selectOption('beginner');
    await byId(page, 'solo-side').selectOption('blue');
    await byId(page, 'solo-play').click();
    await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
    await waitOnline(page);
    assert.match(await byId(page, 'player-1').textContent(), /Computer \(Beginner\)/);
    // We move first (a marked target: CrossyRay's legal cells, Quoridor's
    // pawn steps); the computer answers.
    if (game === 'quoridor') {
      await page.locator('[data-testid="board"][data-my-turn="true"] [data-target]').first().click();
    } else {
      await playOne([page]);
    }
    await waitPly(page, 2);
    await page.context().close();
  }
});

test('sounds: a move, the computer\'s answer and our turn are heard; muting is remembered', { timeout: 120_000 }, async () => {
  const page = await newPage('sounds');
  await playComputer(page, { name: 'Hoa', side: 'blue' });
  const sounds = () => page.evaluate(() => ({
    last: document.documentElement.dataset.sound ?? null,
    count: Number(document.documentElement.dataset.sounds ?? 0),
  }));
  assert.equal(await byId(page, 'mute').getAttribute('aria-pressed'), 'false');
  let info = await waitFor(page, (i) => i.myTurn, 'our first turn');
  const before = await sounds();
  const { targets } = await selectSomething(page, info, (sq) => byId(page, `sq-${sq}`).click());
  await byId(page, `sq-${targets[0].square}`).click();
  info = await waitFor(page, (i) => i.myTurn && i.ply === 2, 'the computer\'s answer');
  const after = await sounds();
  assert.ok(after.count >= before.count + 3, `our move, its move and our turn: ${JSON.stringify(after)}`);
  assert.equal(after.last, 'turn', 'the last sound says it is our turn');

  // Mute: kept across a reload, and nothing more is played.
  await byId(page, 'mute').click();
  assert.equal(await byId(page, 'mute').getAttribute('aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  assert.equal(await byId(page, 'mute').getAttribute('aria-pressed'), 'true', 'muting is remembered');
  info = await waitFor(page, (i) => i.myTurn, 'our turn after the reload');
  const quiet = await sounds();
  const again = await selectSomething(page, info, (sq) => byId(page, `sq-${sq}`).click());
  await byId(page, `sq-${again.targets[0].square}`).click();
  await waitFor(page, (i) => i.myTurn && i.ply === 4, 'the computer\'s next answer');
  assert.deepEqual(await sounds(), quiet, 'no sound while muted');
  await page.context().close();
  assertNoPageErrors();
});

test('a solo room\'s host is offered nothing the server refuses there: no Make host, no knockout, no days per move, not rated nor listed', { timeout: 120_000 }, async () => {
  const page = await newPage('solo-host');
  await playComputer(page, { name: 'Lan' });
  const code = new URL(page.url()).pathname.slice(3);
  // A watcher comes by the link.
  const watcher = await newPage('solo-watcher');
  await watcher.goto(`${site.base}/r/${code}`);
  await waitOnline(watcher);
  await byId(watcher, 'name-input').fill('Vy');
  await byId(watcher, 'name-save').click();
  const vy = await watcher.evaluate(async () => {
    for (;;) {
      const li = document.querySelector('#members .badge.you')?.closest('li');
      if (li) return li.dataset.testid.slice('member-'.length);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  await page.waitForSelector(`[data-testid="member-${vy}"]`);
  await byId(page, `remove-${vy}`).waitFor();
  assert.equal(await byId(page, `make-host-${vy}`).count(), 0, 'the host role never moves in a solo room');

  // Between games (resigned), the options form: Jungle's only other mode is
  // a knockout tournament, so no mode at all; no days per move.
  await byId(page, 'resign').click();
  await byId(page, 'resign').click();
  await byId(page, 'result').waitFor({ state: 'visible' });
  await byId(page, 'options-form').waitFor({ state: 'visible' });
  const modes = () => byId(page, 'opt-mode').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(await modes(), ['single']);
  assert.equal(await byId(page, 'opt-mode').isVisible(), false);
  assert.equal(await byId(page, 'opt-days').isVisible(), false);
  // Quoridor's modes, less the tournament.
  await byId(page, 'opt-game').selectOption('quoridor');
  assert.deepEqual(await modes(), ['ffa', 'teams']);
  assert.equal(await byId(page, 'opt-mode').isVisible(), true);
  await byId(page, 'lang').selectOption('vi');
  assert.deepEqual(await modes(), ['ffa', 'teams'], 'the words change, not the choices');
  assert.equal(await byId(page, 'opt-days').isVisible(), false);
  await byId(page, 'lang').selectOption('en');
  await byId(page, 'opt-game').selectOption('jungle');
  assert.deepEqual(await modes(), ['single']);
  // The computer taken out, the room is still solo: never rated nor listed.
  await byId(page, 'computer-remove-1').click();
  await byId(page, 'computer-add-1').waitFor();
  assert.equal(await byId(page, 'rated-box').isVisible(), false);
  assert.equal(await byId(page, 'public-box').isVisible(), false);
  assert.equal(await byId(page, `make-host-${vy}`).count(), 0);
  // A watcher may be removed from a solo room: the server takes it.
  await byId(page, `remove-${vy}`).click();
  await byId(page, `remove-${vy}`).click();
  await watcher.waitForSelector('[data-testid="refused"]:not([hidden])');
  await page.waitForSelector(`[data-testid="removed-${vy}"]`);
  assert.equal(await page.locator(`[data-testid="member-${vy}"]`).count(), 0);
  assert.equal(await page.locator('[data-testid="toast"][data-code="solo_room"]').count(), 0, 'nothing refused');
  for (const p of [page, watcher]) await p.context().close();
  assertNoPageErrors();
});

// Browser test of the walking skeleton: the real server binary, Debian's
// chromium driven by playwright-core, node's built-in test runner.
//
//   SERVER_BIN=../target/debug/server node --test
//
// A host creates a room on the home page, a guest joins through the invite
// link, a spectator watches; the players play a whole CrossyRay game by
// clicking the marked legal targets, and every screen must show every move
// and the result. Then: keyboard play, joining by code, and a 360 px phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardFacts, byId, joinAndSit, mover, noHorizontalScroll, setName, sit, siteForTests, STEP_MS, waitOnline, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'room' });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);

async function createRoom(page, { width, height } = {}) {
  await page.goto(`${site.base}/`);
  assert.equal(await byId(page, 'create-width').inputValue(), '9', 'default width is 9');
  assert.equal(await byId(page, 'create-height').inputValue(), '7', 'default height is 7');
  if (width) await byId(page, 'create-width').selectOption(String(width));
  if (height) await byId(page, 'create-height').selectOption(String(height));
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  const token = await page.evaluate(() => localStorage.getItem('bg.token'));
  assert.ok(token && token.length >= 16, 'the token from POST /api/rooms is kept in localStorage');
  await waitOnline(page);
  return new URL(page.url()).pathname.slice(3);
}

/** Board facts as the page shows them. */
function boardInfo(page) {
  return boardFacts(page, (b) => ({
    origin: b.dataset.origin,
    width: Number(b.dataset.width),
    height: Number(b.dataset.height),
    legal: [...b.querySelectorAll('[data-legal="true"]')].map((e) => ({ testid: e.dataset.testid, move: e.dataset.target, defender: e.dataset.defender ?? null })),
  }));
}

/** Aim for the opponent's goal when it is marked, else the first marked target. */
function pickTarget(info) {
  assert.ok(info.legal.length > 0, 'the player to move sees marked legal targets');
  const attack = info.legal.find((l) => l.move.startsWith('goal:') && l.defender !== null && Number(l.defender) !== info.mySide);
  if (attack) return attack;
  const cell = info.legal.find((l) => !l.move.startsWith('goal:'));
  return cell ?? info.legal[0];
}

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

// ---------------------------------------------------------------- tests

test('host creates a room, a guest joins by the invite link, a spectator watches a whole game played by clicking', { timeout: 240_000 }, async (t) => {
  const host = await newPage('host', { permissions: ['clipboard-read', 'clipboard-write'] });
  const code = await createRoom(host);
  assert.match(code, /^[A-HJ-NP-Z2-9]{6}$/);
  assert.equal(await byId(host, 'room-code').textContent(), code);

  // The host names themselves and sits.
  await byId(host, 'name-form').waitFor();
  await setName(host, 'Minh');
  await host.waitForSelector('[data-testid="members"] [data-testid="host-badge"]');
  await sit(host, 0, 'Minh');
  assert.equal(await byId(host, 'start').isVisible(), false, 'no start button while a seat is free');

  // The invite link and its QR code.
  const link = (await byId(host, 'invite-link').textContent()).trim();
  assert.ok(link.endsWith(`/r/${code}`), `invite link ${link} ends with /r/${code}`);
  await host.waitForFunction(() => {
    const img = document.querySelector('[data-testid="qr"]');
    return img && !img.hidden && img.complete && img.naturalWidth > 0;
  });
  assert.match(await byId(host, 'qr').getAttribute('src'), new RegExp(`/api/rooms/${code}/qr\\.svg`));
  await byId(host, 'copy-link').click();
  await host.waitForSelector('[data-testid="toast"]');
  assert.equal(await host.evaluate(() => navigator.clipboard.readText()), link, 'Copy puts the invite link on the clipboard');

  // The guest opens the link, types a name, sits.
  const guest = await newPage('guest');
  await guest.goto(new URL(new URL(link).pathname, site.base).href);
  await waitOnline(guest);
  assert.equal(await byId(guest, 'sit-1').isDisabled(), true, 'no seat before a name');
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-name-1"]')?.textContent === 'Lan');
  assert.equal(await byId(guest, 'start').isVisible(), false, 'only the host may start');

  // A third browser opens the link and only watches.
  const spectator = await newPage('spectator');
  // The spectator's socket goes through the test, which can cut it.
  const specSockets = [];
  await spectator.routeWebSocket(/\/ws\//, (ws) => {
    const upstream = ws.connectToServer();
    specSockets.push({ ws, upstream });
  });
  await spectator.goto(link.replace(/^https?:\/\/[^/]+/, site.base));
  await waitOnline(spectator);
  for (const p of [spectator, host, guest]) {
    await p.waitForFunction(() => document.querySelector('[data-testid="spectator-count"]')?.textContent === '1');
  }
  assert.equal(await spectator.locator('[data-testid^="sit-"]').count(), 0, 'no free seat for the spectator');

  // Chat reaches everyone.
  await byId(host, 'chat-input').fill('chào cả nhà');
  await byId(host, 'chat-send').click();
  for (const p of [guest, spectator]) {
    await p.waitForFunction(() => document.querySelector('[data-testid="chat-log"]')?.textContent.includes('chào cả nhà'));
  }
  assert.equal(await byId(spectator, 'chat-input').isDisabled(), true, 'a nameless spectator cannot chat');

  // The host starts.
  await byId(host, 'start').click();
  for (const p of [host, guest, spectator]) {
    await waitPly(p, 0);
    await p.waitForSelector('[data-testid="board"][data-over="false"] [data-origin="true"]');
    assert.equal(await byId(p, 'result').isVisible(), false);
  }
  assert.equal(await byId(host, 'start').isVisible(), false, 'no start during a game');
  assert.equal(await byId(spectator, 'resign').isVisible(), false, 'spectators cannot resign');
  assert.equal(await byId(spectator, 'watching').isVisible(), true, 'the spectator is told they are watching');
  assert.equal(await byId(host, 'watching').isVisible(), false, 'a player is not');
  assert.equal(await byId(guest, 'resign').isVisible(), true, 'players can resign');
  const specInfo = await boardInfo(spectator);
  assert.equal(specInfo.legal.length, 0, 'a spectator sees no legal targets');
  assert.equal(specInfo.origin, 'e4', 'the 1 stands on the centre of 9×7');

  // Play by clicking marked targets until the game ends.
  const players = [host, guest];
  const everyone = [host, guest, spectator];
  const played = [];
  let last = null;
  let guestReloaded = false;
  let specReconnected = false;
  for (let n = 0; n < 9 * 7 + 2; n++) {
    if (await byId(spectator, 'result').isVisible()) break;
    const { page, info } = await mover(players, boardInfo);
    const other = players.find((p) => p !== page);
    assert.equal((await boardInfo(other)).legal.length, 0, 'the waiting player sees no legal targets');
    const target = pickTarget(info);
    if (played.length === 4) {
      // The spectator loses the connection just as a move is played: it
      // must reconnect by itself and catch up from the fresh snapshot.
      const before = specSockets.length;
      const { ws, upstream } = specSockets.at(-1);
      await ws.close({ code: 4000, reason: 'e2e: connection lost' });
      await upstream.close({ code: 4000, reason: 'e2e: connection lost' });
      await spectator.waitForSelector('[data-testid="conn-status"][data-state="offline"]');
      await byId(page, target.testid).click();
      await spectator.waitForSelector('[data-testid="conn-status"][data-state="online"]');
      assert.ok(specSockets.length > before, 'the spectator reconnected');
      specReconnected = true;
    } else {
      await byId(page, target.testid).click();
    }
    played.push(target.move);
    last = { mover: page, target, side: info.mySide };
    for (const p of everyone) await waitPly(p, played.length);
    const seen = await boardInfo(spectator);
    assert.equal(seen.lastMove, target.move, `the spectator sees move ${played.length}`);
    assert.equal(await byId(spectator, 'move-count').textContent(), String(played.length));
    if (!target.move.startsWith('goal:')) {
      assert.equal(seen.origin, target.move, 'the ray origin moves to the placed number');
      await spectator.waitForSelector(`[data-testid="cell-${target.move}"][data-last="true"]`);
    }

    // Mid-game the guest reloads: same seat, same state.
    if (played.length === 3 && !(await byId(guest, 'result').isVisible())) {
      await guest.reload();
      await waitOnline(guest);
      await waitPly(guest, 3);
      assert.equal(await byId(guest, 'seat-name-1').textContent(), 'Lan', 'the guest gets the seat back');
      assert.equal(await byId(guest, 'resign').isVisible(), true);
      assert.match(await byId(guest, 'chat-log').textContent(), /chào cả nhà/, 'chat history comes with the snapshot');
      guestReloaded = true;
    }
  }
  assert.ok(guestReloaded || played.length < 3, 'the reload check ran');
  assert.ok(specReconnected || played.length < 5, 'the reconnect check ran');

  // Everyone sees the same result banner.
  const results = [];
  for (const p of everyone) {
    await byId(p, 'result').waitFor({ state: 'visible' });
    results.push({
      head: await byId(p, 'result-head').textContent(),
      reason: await byId(p, 'result').getAttribute('data-reason'),
      text: await byId(p, 'result-reason').textContent(),
    });
    assert.equal(await byId(p, 'move-count').textContent(), String(played.length));
  }
  assert.deepEqual(results[1], results[0]);
  assert.deepEqual(results[2], results[0]);
  assert.ok(['goal', 'own_goal', 'lock'].includes(results[0].reason), `a clicked game ends by goal, own goal or lock, not ${results[0].reason}`);
  assert.match(results[0].head, /^(Minh|Lan) wins$/);
  assert.ok(results[0].text.length > 5, 'the result type is said in words');
  if (last.target.move.startsWith('goal:') && Number(last.target.defender) !== last.side) {
    assert.equal(results[0].reason, 'goal');
    const winner = last.mover === host ? 'Minh' : 'Lan';
    assert.equal(results[0].head, `${winner} wins`);
  }
  t.diagnostic(`game: ${played.join(' ')} -> ${results[0].head}, ${results[0].reason}`);
  assert.equal(host.sockets, 1, 'the host never had to resync (event versions have no gaps)');
  // The spectator saw every move, in order.
  const specMoves = await spectator.locator('[data-testid="moves"] li').evaluateAll((els) => els.map((e) => e.dataset.move));
  assert.deepEqual(specMoves, played, 'the spectator saw every move');

  // After the game: scoreboard, the host may start again, no resign.
  await host.waitForFunction(() => /Minh|Lan/.test(document.querySelector('[data-testid="scores"]')?.textContent ?? ''));
  await byId(host, 'start').waitFor({ state: 'visible' });
  assert.equal(await byId(guest, 'resign').isVisible(), false);

  // The language switch: Vietnamese, remembered in localStorage.
  await byId(spectator, 'lang').selectOption('vi');
  assert.match(await byId(spectator, 'result-head').textContent(), /^(Minh|Lan) thắng$/);
  assert.equal(await spectator.evaluate(() => localStorage.getItem('bg.lang')), 'vi');
  await spectator.reload();
  await waitOnline(spectator);
  assert.match(await byId(spectator, 'result-head').textContent(), /thắng/);
  assert.equal(await byId(spectator, 'spectator-count').textContent(), '1');

  for (const p of everyone) await p.context().close();
  assertNoPageErrors();
});

test('join by code on the home page (case-insensitive), host changes options, keyboard play, a refused move', { timeout: 120_000 }, async (t) => {
  const host = await newPage('kb-host');
  const code = await createRoom(host);
  await setName(host, 'Ana');
  await sit(host, 0, 'Ana');

  const guest = await newPage('kb-guest');
  await guest.goto(`${site.base}/`);
  // An unknown code is refused with a clear message.
  const unknown = code === 'ABCDEF' ? 'ABCDEG' : 'ABCDEF';
  await byId(guest, 'join-code').fill(unknown);
  await byId(guest, 'join-room').click();
  await byId(guest, 'join-error').waitFor({ state: 'visible' });
  assert.match(await byId(guest, 'join-error').textContent(), new RegExp(unknown));
  assert.equal(new URL(guest.url()).pathname, '/');
  // An unknown room's page says so instead of connecting.
  const lost = await newPage('lost');
  await lost.goto(`${site.base}/r/${unknown}`);
  await byId(lost, 'not-found').waitFor({ state: 'visible' });
  assert.match(await byId(lost, 'not-found').textContent(), new RegExp(unknown));
  assert.equal(lost.sockets, 0);
  await lost.context().close();
  // The real code, typed in lower case.
  await byId(guest, 'join-code').fill(code.toLowerCase());
  await byId(guest, 'join-room').click();
  await guest.waitForURL(new RegExp(`/r/${code}$`));
  await waitOnline(guest);
  await setName(guest, 'Bao');
  await sit(guest, 1, 'Bao');
  // Standing up frees the seat for everyone; sitting again takes it back.
  await byId(guest, 'stand').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="seat-1"]')?.classList.contains('free'));
  assert.equal(await byId(host, 'start').isVisible(), false);
  await sit(guest, 1, 'Bao');
  await byId(host, 'start').waitFor({ state: 'visible' });

  // Options: only the host edits them; everyone's board follows.
  assert.equal(await byId(guest, 'options-form').isVisible(), false);
  await byId(host, 'opt-width').selectOption('11');
  await byId(host, 'options-save').click();
  for (const p of [host, guest]) {
    await p.waitForSelector('[data-testid="board"][data-width="11"][data-height="7"]');
  }

  await byId(host, 'start').click();
  for (const p of [host, guest]) await waitPly(p, 0);
  const { page, info } = await mover([host, guest], boardInfo);
  assert.equal(info.width, 11);
  assert.equal(info.origin, 'f4', 'the 1 stands on the centre of 11×7');

  const boardEl = byId(page, 'board');
  await boardEl.focus();
  // Esc clears the cursor.
  await page.keyboard.press('ArrowUp');
  assert.notEqual(await boardEl.getAttribute('data-cursor'), '');
  await byId(page, 'cursor').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await boardEl.getAttribute('data-cursor'), '');
  assert.equal(await byId(page, 'cursor').count(), 0);

  // The cursor walks over cells into the goal slots outside the short
  // sides, and stops at any other edge: 11×7 from f4, six steps left reach
  // the left goal; its slots cover ranks 3-5.
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(await boardEl.getAttribute('data-cursor'), 'goal:left');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await boardEl.getAttribute('data-cursor'), 'goal:left', 'nothing left of a goal');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await boardEl.getAttribute('data-cursor'), 'goal:left', 'the goal spans ranks 3-5 only');
  await page.keyboard.press('ArrowRight');
  assert.equal(await boardEl.getAttribute('data-cursor'), 'a5');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await boardEl.getAttribute('data-cursor'), 'a6', 'no leaving the board beside a goal');
  await page.keyboard.press('Enter');
  assert.equal((await boardInfo(page)).ply, 0, 'Enter on a target that is not legal plays nothing');
  await page.keyboard.press('Escape');
  assert.equal(await boardEl.getAttribute('data-cursor'), '');

  // From the origin, one arrow press steps one cell along the ray; Enter plays it.
  const x = info.origin.charCodeAt(0) - 97;
  const y = Number(info.origin.slice(1)) - 1;
  const cell = (cx, cy) => `${String.fromCharCode(97 + cx)}${cy + 1}`;
  const options = [['ArrowRight', cell(x + 1, y)], ['ArrowLeft', cell(x - 1, y)], ['ArrowUp', cell(x, y + 1)], ['ArrowDown', cell(x, y - 1)]];
  const legal = new Set(info.legal.map((l) => l.move));
  const [key, target] = options.find(([, c]) => legal.has(c));
  await page.keyboard.press(key);
  assert.equal(await boardEl.getAttribute('data-cursor'), target);
  await page.keyboard.press('Enter');
  for (const p of [host, guest]) {
    await waitPly(p, 1);
    assert.equal((await boardInfo(p)).lastMove, target);
  }

  // The other player answers with Space.
  const next = await mover([host, guest], boardInfo);
  assert.notEqual(next.page, page);
  const nb = byId(next.page, 'board');
  await nb.focus();
  const nx = next.info.origin.charCodeAt(0) - 97;
  const ny = Number(next.info.origin.slice(1)) - 1;
  const legal2 = new Set(next.info.legal.map((l) => l.move));
  const opts2 = [['ArrowRight', cell(nx + 1, ny)], ['ArrowLeft', cell(nx - 1, ny)], ['ArrowUp', cell(nx, ny + 1)], ['ArrowDown', cell(nx, ny - 1)]];
  const [key2, target2] = opts2.find(([, c]) => legal2.has(c));
  await next.page.keyboard.press(key2);
  await next.page.keyboard.press(' ');
  for (const p of [host, guest]) {
    await waitPly(p, 2);
    assert.equal((await boardInfo(p)).lastMove, target2);
  }

  // A second tab of the player to move whose socket is held back: its
  // board still offers a move the first tab already played, the server
  // refuses it, and the tab shows the server's reason as a toast.
  const third = await mover([host, guest], boardInfo);
  const tab2 = await third.page.context().newPage();
  tab2.setDefaultTimeout(STEP_MS);
  tab2.on('pageerror', (err) => pageErrors.push(`[tab2] ${err.message}`));
  let frozen = false;
  const held = [];
  await tab2.routeWebSocket(/\/ws\//, (ws) => {
    const upstream = ws.connectToServer();
    upstream.onMessage((msg) => (frozen ? held.push(() => ws.send(msg)) : ws.send(msg)));
  });
  await tab2.goto(third.page.url());
  await waitOnline(tab2);
  await waitPly(tab2, 2);
  const stale = pickTarget(third.info);
  frozen = true;
  await byId(third.page, stale.testid).click();
  for (const p of [host, guest]) await waitPly(p, 3);
  assert.equal((await boardInfo(tab2)).ply, 2, 'the held-back tab has not seen the move');
  await byId(tab2, stale.testid).click();
  await new Promise((r) => setTimeout(r, 300)); // let the refusal reach the proxy
  frozen = false;
  for (const send of held.splice(0)) send();
  const toast = byId(tab2, 'toast');
  await toast.first().waitFor({ state: 'visible' });
  const toastText = (await toast.first().locator('.toast-text').textContent()).trim();
  assert.ok(toastText.length > 3, `the refusal is shown as a toast (${toastText})`);
  assert.match(await toast.first().getAttribute('data-code'), /^(not_your_turn|illegal_move)$/, 'the toast carries the server\'s error');
  t.diagnostic(`toast: ${toastText}`);
  await waitPly(tab2, 3);
  for (const p of [host, guest]) assert.equal((await boardInfo(p)).ply, 3, 'the refused move changed nothing');
  await tab2.close();

  // Resign ends the game for both, in words.
  await byId(guest, 'resign').click();
  await byId(guest, 'resign').click();
  for (const p of [host, guest]) {
    await byId(p, 'result').waitFor({ state: 'visible' });
    assert.equal(await byId(p, 'result').getAttribute('data-reason'), 'resign');
    assert.match(await byId(p, 'result-head').textContent(), /^Ana wins$/);
  }

  for (const p of [host, guest]) await p.context().close();
  assertNoPageErrors();
});

test('a 360 px wide phone: no horizontal scroll, the board fits, tapping plays', { timeout: 120_000 }, async () => {
  const phone = await newPage('phone', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await phone.goto(`${site.base}/`);
  await noHorizontalScroll(phone, 'home page');
  const code = await createRoom(phone);
  await noHorizontalScroll(phone, 'room page');
  await setName(phone, 'Chi');
  await sit(phone, 0, 'Chi');

  const desk = await newPage('desk');
  await joinAndSit(desk, site.base, code, 'Dung', 1);

  // The widest and the tallest boards must fit as well.
  for (const [w, h] of [[25, 5], [5, 25], [9, 7]]) {
    await byId(phone, 'opt-width').selectOption(String(w));
    await byId(phone, 'opt-height').selectOption(String(h));
    await byId(phone, 'options-save').tap();
    await phone.waitForSelector(`[data-testid="board"][data-width="${w}"][data-height="${h}"]`);
    await noHorizontalScroll(phone, `a ${w}×${h} board`);
  }
  // With a clock: 3 minutes + 2 seconds.
  await byId(phone, 'opt-clock').selectOption('3+2');
  await byId(phone, 'options-save').tap();
  await desk.waitForFunction(() => /3/.test(document.querySelector('[data-testid="options-summary"]')?.textContent ?? ''));

  await byId(phone, 'start').tap();
  await waitPly(phone, 0);
  await noHorizontalScroll(phone, 'room page during a game');

  // The clock of the side to move counts down locally, the other stands.
  await byId(desk, 'clock-0').waitFor();
  const c0 = await byId(desk, 'clock-0').textContent();
  const c1 = await byId(desk, 'clock-1').textContent();
  assert.match(c0, /^[23]:\d\d$/);
  await desk.waitForFunction((before) => document.querySelector('[data-testid="clock-0"]').textContent !== before, c0, { timeout: 3000 });
  assert.equal(await byId(desk, 'clock-1').textContent(), c1, 'the waiting side\'s clock stands still');

  const box = await byId(phone, 'board').boundingBox();
  assert.ok(box.width <= 360 && box.width >= 300, `the board scales to the phone's width (${box.width}px)`);

  // Play two moves; the phone taps.
  for (let ply = 0; ply < 2; ply++) {
    const { page, info } = await mover([phone, desk], boardInfo);
    const target = pickTarget(info);
    if (page === phone) await byId(phone, target.testid).tap();
    else await byId(desk, target.testid).click();
    await waitPly(phone, ply + 1);
    await waitPly(desk, ply + 1);
  }
  await noHorizontalScroll(phone, 'room page after moves');

  await byId(phone, 'resign').tap();
  await byId(phone, 'resign').tap();
  await byId(phone, 'result').waitFor({ state: 'visible' });
  await byId(desk, 'result').waitFor({ state: 'visible' });
  await noHorizontalScroll(phone, 'room page with the result');

  // The other player closes the browser: the phone shows them offline.
  const deskSide = (await boardInfo(desk)).mySide;
  assert.equal(await byId(phone, `offline-${deskSide}`).count(), 0);
  await desk.context().close();
  await byId(phone, `offline-${deskSide}`).waitFor({ state: 'visible' });

  await phone.context().close();
  assertNoPageErrors();
});

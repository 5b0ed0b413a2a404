// Browser test: the site names players and pages in the reader's language.
// A Quoridor team game that the other team resigns reads "Khoa và Vy
// thắng" for a Vietnamese reader and "Khoa and Vy win" for an English one,
// in the room and in the games' history; a game against the computer shows
// the computer by its Vietnamese name in the history and the replay (the
// server stores and sends "Computer (Beginner)"); every page's title
// is in the reader's language; and two people of a room named alike are
// told apart ("Minh", "Minh (2)") in a takeback request, on CrossyRay's
// goals, in the host's notices and in the list of removed members.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, memberOf, openAsHost, ply, playIfMyTurn, setName, sit, siteForTests, until, waitOnline, waitPly } from './harness.mjs';
import vi from '../web/js/i18n/vi.json' with { type: 'json' };

const site = siteForTests({ tag: 'names', args: ['--bot-ms', '100'] });
const { pageErrors } = site;
const VI = { locale: 'vi-VN' };
const EN = { locale: 'en-US' };

/** Clicks Pass on whichever page has the move until `n` moves are played (seen on `pages[0]`). */
async function passUntil(pages, n) {
  while ((await ply(pages[0])) < n) {
    for (const p of pages) {
      const pass = p.locator('[data-testid="board"][data-my-turn="true"] [data-testid="q-pass"]:visible');
      if (await pass.count()) {
        const before = await ply(p);
        await pass.click();
        await until(() => ply(pages[0]), (k) => k > before, 'the pass');
        break;
      }
    }
  }
}

test('a Quoridor team\'s win reads "Khoa và Vy thắng" in Vietnamese and "Khoa and Vy win" in English', { timeout: 120_000 }, async () => {
  const khoa = await site.newPage('khoa', VI);
  await khoa.goto(`${site.base}/`);
  await byId(khoa, 'create-game').selectOption('quoridor');
  await byId(khoa, 'create-room').click();
  await khoa.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(khoa);
  const code = new URL(khoa.url()).pathname.slice(3);
  await byId(khoa, 'opt-mode').selectOption('teams');
  await byId(khoa, 'options-save').click();
  await byId(khoa, 'team-1').waitFor();
  await setName(khoa, 'Khoa');
  await sit(khoa, 0, 'Khoa');
  const vy = await site.newPage('vy', EN);
  const lan = await site.newPage('lan', VI);
  for (const [p, name, seat] of [[vy, 'Vy', 1], [lan, 'Lan', 4]]) {
    await p.goto(`${site.base}/r/${code}`);
    await waitOnline(p);
    await byId(p, 'team-1').waitFor();
    await setName(p, name);
    await sit(p, seat, name);
  }
  assert.equal(await byId(lan, 'team-1').textContent(), 'Đội Vàng');
  await byId(khoa, 'start').waitFor({ state: 'visible' });
  await byId(khoa, 'start').click();
  // Two moves (a team that resigns before two moves aborts the game), then Lan's team resigns.
  await passUntil([khoa, vy, lan], 2);
  await byId(lan, 'resign').click();
  await byId(lan, 'resign').click();
  for (const [p, words] of [[khoa, 'Khoa và Vy thắng'], [vy, 'Khoa and Vy win'], [lan, 'Khoa và Vy thắng']]) {
    await byId(p, 'result-head').waitFor();
    assert.equal(await byId(p, 'result-head').textContent(), words, p.label);
  }
  // The room's past games and the history say it the same way.
  await lan.waitForFunction(() => document.querySelector('[data-testid="game-outcome"]'));
  assert.match(await byId(lan, 'game-outcome').first().textContent(), /^Khoa và Vy thắng/);
  await vy.goto(`${site.base}/games`);
  await byId(vy, 'game-outcome').first().waitFor();
  assert.match(await byId(vy, 'game-outcome').first().textContent(), /^Khoa and Vy win/);
  for (const p of [khoa, vy, lan]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

test('the history and the replay name the computer in Vietnamese', { timeout: 120_000 }, async () => {
  const page = await site.newPage('solo', VI);
  await page.goto(`${site.base}/`);
  await byId(page, 'solo-game').selectOption('crossyray');
  await byId(page, 'solo-level').selectOption('beginner');
  await byId(page, 'solo-side').selectOption('blue');
  await byId(page, 'solo-name').fill('Khoa');
  await byId(page, 'solo-play').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await waitOnline(page);
  // One move each, then resign: the computer wins.
  let played = false;
  await until(async () => {
    if (!played && await playIfMyTurn(page)) played = true;
    return ply(page);
  }, (n) => n >= 2, 'a move each');
  await byId(page, 'resign').click();
  await byId(page, 'resign').click();
  const computer = `Máy (${vi['level.beginner']})`;
  await byId(page, 'result-head').filter({ hasText: `${computer} thắng` }).waitFor();

  await page.goto(`${site.base}/games`);
  await byId(page, 'game-entry').first().waitFor();
  const entry = byId(page, 'game-entry').first();
  assert.equal(await entry.getByTestId('game-players').textContent(), `Khoa – ${computer}`);
  assert.match(await entry.getByTestId('game-outcome').textContent(), new RegExp(`^${computer.replace(/[()]/g, '\\$&')} thắng`));
  assert.doesNotMatch(await entry.textContent(), /Computer|Beginner/);

  await entry.getByTestId('game-link').click();
  await page.waitForURL(/\/g\//);
  await byId(page, 'result-head').waitFor();
  assert.equal(await byId(page, 'result-head').textContent(), `${computer} thắng`);
  assert.deepEqual((await byId(page, 'replay-player').allTextContents()).map((s) => s.trim()), ['Khoa', computer]);
  assert.doesNotMatch(await page.locator('#replay-main').innerText(), /Computer|Beginner/);
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});

test('every page\'s title is in the reader\'s language', { timeout: 90_000 }, async () => {
  const page = await site.newPage('titles', VI);
  const pages = [
    ['/', vi['site.title']],
    ['/games', vi['history.title']],
    ['/account', vi['accountpage.title']],
    ['/leaderboard', vi['leaderboard.title']],
    ['/reset', vi['reset.title']],
    ['/rules', vi['site.rules']],
    ['/rules/quoridor', vi['rules.page_title'].replace('{game}', 'Rào chắn')],
    ['/g/999999', vi['replay.page_title']],
    ['/import', vi['import.title']],
    ['/u/nobody_here', vi['profile.page_title']],
    ['/r/ABCDEF', `${vi['room.title'].replace('{code}', 'ABCDEF')} · ${vi['site.title']}`],
  ];
  for (const [path, title] of pages) {
    await page.goto(`${site.base}${path}`);
    await page.waitForFunction((want) => document.title === want, title).catch(() => {});
    assert.equal(await page.title(), title, path);
  }
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});

test('namesakes are told apart in a takeback request, on CrossyRay\'s goals and among the removed', { timeout: 120_000 }, async () => {
  const host = await site.newPage('twin-host');
  const room = await openAsHost(host, site.base, 'crossyray');
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  const guest = await site.newPage('twin-guest');
  await guest.goto(`${site.base}/r/${room.code}`);
  await waitOnline(guest);
  await setName(guest, 'Minh');
  // The later one is "Minh (2)" to everyone.
  await sit(guest, 1, 'Minh (2)');
  const twin = await memberOf(guest);
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await host.waitForSelector('[data-testid="board"][data-my-turn="true"]');

  // Each goal is named by its defender, as the room names them.
  const goals = (page) => page.locator('[data-testid="board"] [data-testid^="goal-"][data-defender]').evaluateAll((gs) =>
    gs.map((g) => ({ defender: g.dataset.defender, text: g.querySelector('.goal-label').textContent, label: g.getAttribute('aria-label') })));
  for (const page of [host, guest]) {
    const named = await until(() => goals(page), (gs) => gs.length >= 2 && gs.some((g) => g.defender === '1'), 'goals with defenders');
    for (const g of named) {
      const name = g.defender === '1' ? 'Minh (2)' : 'Minh';
      assert.equal(g.text, name, `${page.label}: the goal of side ${g.defender}`);
      assert.match(g.label, new RegExp(` goal of ${name.replace(/[()]/g, '\\$&')}(,|$)`), g.label);
    }
  }

  // Minh (2) asks to take their move back: the host reads which Minh asks.
  await host.locator('[data-testid="board"][data-my-turn="true"] [data-legal="true"][data-target="f4"]').click();
  await waitPly(guest, 1);
  await guest.locator('[data-testid="board"][data-my-turn="true"] [data-legal="true"][data-testid^="cell-"]').first().click();
  await waitPly(host, 2);
  await byId(guest, 'takeback-ask').waitFor({ state: 'visible' });
  await byId(guest, 'takeback-ask').click();
  await byId(host, 'takeback-accept').waitFor({ state: 'visible' });
  assert.equal(await byId(host, 'takeback-text').textContent(), 'Minh (2) asks to take back their last move.');
  await byId(host, 'takeback-decline').click();

  // The game over, the host removes Minh (2): the notice and the removed list name them apart.
  await byId(host, 'resign').click();
  await byId(host, 'resign').click();
  await byId(host, 'result').waitFor({ state: 'visible' });
  await byId(host, `remove-${twin}`).click();
  await byId(host, `remove-${twin}`).click();
  await byId(host, `removed-${twin}`).waitFor();
  assert.equal(await byId(host, `removed-${twin}`).locator('.member-name').textContent(), 'Minh (2)');
  await host.locator('[data-testid="chat-notice"]', { hasText: 'The host removed Minh (2) from the room.' }).waitFor({ state: 'attached' });
  for (const p of [host, guest]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

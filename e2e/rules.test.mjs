// Browser test: the rules travel with the site. The home page and the room
// page link to /rules (docs/RULES.md, served by the server), in English and
// Vietnamese; the home page links the illustrated rules pages
// (/rules/GAME), whose walkthrough draws at each step the position the
// server plays for it; a player opens the page in a dialog in the middle
// of a game, and the game is unchanged afterwards.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, setName, sit, startSite, waitOnline, waitPly } from './harness.mjs';
import { boardShape, serverShape } from './boards.mjs';

let site;
const pageErrors = [];

before(async () => {
  site = await startSite({ tag: 'rules', pageErrors });
});

after(() => site?.stop());

test('the home and room pages link to the rules of the three games', async () => {
  const page = await site.newPage('rules');
  await page.goto(`${site.base}/`);
  const link = byId(page, 'rules-link');
  assert.equal(await link.getAttribute('href'), '/rules');
  assert.equal((await link.textContent()).trim(), 'Rules');
  await byId(page, 'lang').selectOption('vi');
  assert.equal((await link.textContent()).trim(), 'Luật chơi');
  const res = await page.request.get(`${site.base}/rules`);
  assert.equal(res.status(), 200);
  const text = await res.text();
  for (const game of ['CrossyRay', 'Quoridor', 'Jungle']) assert.ok(text.includes(game), game);
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  assert.equal(await byId(page, 'rules-link').getAttribute('href'), '/rules');
  assert.deepEqual(pageErrors, []);
});

test('the CrossyRay rules page walks through its steps, each a position the server plays', { timeout: 60_000 }, async () => {
  const page = await site.newPage('walkthrough');
  await page.goto(`${site.base}/`);
  await byId(page, 'rules-page-crossyray').click();
  await page.waitForURL(/\/rules\/crossyray$/);
  await byId(page, 'rules-title').filter({ hasText: 'CrossyRay' }).waitFor();
  const steps = await page.$$eval('[data-testid^="walk-step-"]', (bs) => bs.map((b) => b.dataset.testid.slice(10)));
  assert.deepEqual(steps, ['ray', 'range', 'blocks', 'cycle', 'goal', 'own_goal', 'lock', 'clock']);
  const content = (await import('../web/js/rules/crossyray.js')).default;
  for (const [i, step] of content.steps.entries()) {
    await byId(page, `walk-step-${step.id}`).click();
    await page.waitForFunction((id) => document.querySelector('[data-testid="board"]').dataset.step === id, step.id);
    assert.equal(await byId(page, `walk-step-${step.id}`).getAttribute('aria-pressed'), 'true');
    assert.equal(await byId(page, 'walk-caption').textContent(), content.text.en.steps[step.id][1]);
    const q = new URLSearchParams({ game: 'crossyray', moves: step.moves.join(',') });
    if (step.options) q.set('options', JSON.stringify(step.options));
    const served = await (await fetch(`${site.base}/api/position?${q}`)).json();
    assert.deepEqual(await boardShape(page, 'crossyray'), serverShape('crossyray', served.state), `step ${i + 1}: the server's position`);
    const marked = await page.$$eval('[data-testid="board"] [data-legal="true"]', (els) => els.map((e) => e.dataset.target));
    assert.deepEqual(marked.sort(), [...served.legal].sort(), `step ${i + 1}: the legal moves are marked`);
  }
  // The own-goal step marks the viewer's own goal with the red ring; the lock ends the game.
  await byId(page, 'walk-step-own_goal').click();
  await page.locator('[data-testid="ring-right"].own').waitFor();
  await byId(page, 'walk-step-lock').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="board"]').dataset.over === 'true');
  // Back and Forward step too; Vietnamese; a phone.
  await byId(page, 'walk-prev').click();
  await byId(page, 'walk-step-own_goal').and(page.locator('[aria-pressed="true"]')).waitFor();
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'walk-caption').filter({ hasText: 'vòng đỏ' }).waitFor();
  assert.equal(await byId(page, 'walk-step-ray').textContent(), '1. Tia');
  await page.setViewportSize({ width: 360, height: 800 });
  await noHorizontalScroll(page, 'rules page');
  assert.deepEqual(pageErrors, []);
});

test('the rules open in a dialog in the middle of a game, and the game is unchanged after', { timeout: 90_000 }, async () => {
  const host = await site.newPage('host');
  await host.goto(`${site.base}/`);
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  const code = new URL(host.url()).pathname.slice(3);
  await waitOnline(host);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  const guest = await site.newPage('guest');
  await guest.goto(`${site.base}/r/${code}`);
  await waitOnline(guest);
  await setName(guest, 'Lan');
  await sit(guest, 1, 'Lan');
  await byId(host, 'start').click();
  // Two moves: whoever has the move clicks its first marked cell.
  for (let n = 1; n <= 2; n++) {
    const players = [host, guest];
    let moved = false;
    while (!moved) {
      for (const p of players) {
        const target = p.locator('[data-testid="board"][data-my-turn="true"] [data-legal="true"]:not([data-target^="goal:"])').first();
        if (await target.count()) { await target.click(); moved = true; break; }
      }
    }
    for (const p of players) await waitPly(p, n);
  }
  const before = async (p) => ({
    board: await boardShape(p, 'crossyray'),
    ply: await byId(p, 'board').getAttribute('data-ply'),
    myTurn: await byId(p, 'board').getAttribute('data-my-turn'),
    moves: await p.$$eval('[data-testid="moves"] [data-testid="move"]', (lis) => lis.map((li) => li.dataset.move)),
    url: p.url(),
  });
  const was = await before(host);
  const sockets = host.sockets;

  // Open the dialog, walk a step inside it, close it with Escape.
  await byId(host, 'rules-open').click();
  const dialog = byId(host, 'rules-dialog');
  await dialog.waitFor({ state: 'visible' });
  const frame = host.frameLocator('[data-testid="rules-frame"]');
  await frame.locator('[data-testid="rules-title"]').filter({ hasText: 'CrossyRay' }).waitFor();
  assert.equal(await frame.locator('.topbar').isVisible(), false, 'the page in the dialog has no header');
  await frame.locator('[data-testid="walk-step-goal"]').click();
  await frame.locator('[data-testid="board"][data-step="goal"]').waitFor();
  // Meanwhile the guest's view of the game is the same.
  assert.equal(await byId(guest, 'board').getAttribute('data-ply'), '2');
  await host.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.deepEqual(await before(host), was, 'the game is unchanged after the dialog');
  assert.equal(host.sockets, sockets, 'the page kept its socket');
  // It opens again, by the Close button this time, and the game goes on.
  await byId(host, 'rules-open').click();
  await dialog.waitFor({ state: 'visible' });
  await byId(host, 'rules-close').click();
  await dialog.waitFor({ state: 'hidden' });
  const mover = was.myTurn === 'true' ? host : guest;
  await mover.locator('[data-testid="board"] [data-legal="true"]:not([data-target^="goal:"])').first().click();
  await waitPly(host, 3);
  assert.deepEqual(pageErrors, []);
});

// Browser test: the rules travel with the site. The header's "Rules" link
// (home page, room page, rules pages) opens /rules, the index of the three
// games' illustrated rules pages, in the reader's language (a Vietnamese
// reader's browser gets it in Vietnamese, an English one in English); the
// developers' text (docs/RULES.md) is at /rules.md. Each game's page shows
// its diagram right after its first paragraph, before the rules' second
// section. The home page links the pages (/rules/GAME), whose walkthrough
// draws at each step the position the server plays for it; a player opens
// the page in a dialog in the middle of a game, and the game is unchanged
// afterwards.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, createRoomByPage, joinAndSit, noHorizontalScroll, setName, sit, siteForTests, waitOnline, waitPly } from './harness.mjs';
import { boardShape, serverShape } from './boards.mjs';
import en from '../web/js/i18n/en.json' with { type: 'json' };
import vi from '../web/js/i18n/vi.json' with { type: 'json' };

const site = siteForTests({ tag: 'rules' });
const { pageErrors } = site;

test('the home and room pages link to the rules of the three games', async () => {
  const page = await site.newPage('rules');
  await page.goto(`${site.base}/`);
  const link = byId(page, 'rules-link');
  assert.equal(await link.getAttribute('href'), '/rules');
  assert.equal((await link.textContent()).trim(), 'Rules');
  await byId(page, 'lang').selectOption('vi');
  assert.equal((await link.textContent()).trim(), 'Luật chơi');
  const res = await page.request.get(`${site.base}/rules.md`);
  assert.equal(res.status(), 200);
  const text = await res.text();
  for (const game of ['CrossyRay', 'Quoridor', 'Jungle']) assert.ok(text.includes(game), game);
  await byId(page, 'create-room').click();
  await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  assert.equal(await byId(page, 'rules-link').getAttribute('href'), '/rules');
  assert.deepEqual(pageErrors, []);
});

const GAMES = ['crossyray', 'jungle', 'quoridor'];
const READERS = [['vi', 'vi-VN', vi], ['en', 'en-US', en]];
const contentOf = async (game) => (await import(`../web/js/rules/${game}.js`)).default;

test('the header\'s "Rules" link opens the index of the three games in the reader\'s language', { timeout: 60_000 }, async () => {
  for (const [lang, locale, dict] of READERS) {
    const page = await site.newPage(`index-${lang}`, { locale });
    await page.goto(`${site.base}/`);
    const link = byId(page, 'rules-link');
    assert.equal((await link.textContent()).trim(), dict['site.rules'], `${lang}: the header link`);
    const [index] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    index.on('pageerror', (err) => pageErrors.push(`[index-${lang}] ${err.message}`));
    await index.waitForURL(new RegExp('/rules$'));
    await byId(index, 'rules-index').waitFor({ state: 'visible' });
    assert.equal(await index.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await index.title(), dict['site.rules'], `${lang}: the page title`);
    assert.equal(await index.locator('#rules-index-title').textContent(), dict['rules.index_title']);
    assert.equal(await byId(index, 'rules-article').isVisible(), false);
    // One entry per game, in the reader's words, linking its page.
    const entries = await index.$$eval('[data-testid^="rules-index-link-"]', (as) => as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent })));
    const wanted = [];
    for (const g of GAMES) wanted.push({ href: `/rules/${g}`, text: (await contentOf(g)).text[lang].title });
    assert.deepEqual(entries, wanted, `${lang}: the three games`);
    for (const g of GAMES) {
      const intro = (await contentOf(g)).text[lang].intro;
      assert.equal(await byId(index, `rules-index-${g}`).locator('p').textContent(), intro, `${lang}: ${g}'s first paragraph`);
    }
    // The developers' text is one link away, and is not what the header opens.
    assert.equal(await byId(index, 'rules-text-link').getAttribute('href'), '/rules.md');
    assert.equal(await byId(index, 'rules-text-link').textContent(), dict['rules.full_text']);
    // Each entry opens its game's page, still in the reader's language.
    await byId(index, 'rules-index-link-quoridor').click();
    await index.waitForURL(new RegExp('/rules/quoridor$'));
    await byId(index, 'rules-title').filter({ hasText: (await contentOf('quoridor')).text[lang].title }).waitFor();
    assert.equal(await byId(index, 'rules-link').getAttribute('href'), '/rules', 'the rules page\'s header links the index too');
    await page.context().close();
  }
  assert.deepEqual(pageErrors, []);
});

test('each game\'s rules page shows its diagram after its first paragraph, before the rules\' second section', { timeout: 60_000 }, async () => {
  for (const [lang, locale] of READERS) {
    const page = await site.newPage(`diagram-${lang}`, { locale });
    for (const game of GAMES) {
      await page.goto(`${site.base}/rules/${game}`);
      await page.locator('[data-testid="board"][data-step] svg').first().waitFor();
      const at = await page.evaluate(() => {
        const top = (e) => e.getBoundingClientRect().top + scrollY;
        const board = document.querySelector('[data-testid="board"]');
        const sections = [...document.querySelectorAll('.rules-section')];
        return {
          intro: document.getElementById('rules-intro').getBoundingClientRect().bottom + scrollY,
          board: top(board),
          height: board.getBoundingClientRect().height,
          second: sections[1] ? top(sections[1]) : null,
          sections: sections.length,
        };
      });
      assert.ok(at.sections >= 2 && at.height > 100, `${lang} ${game}: a drawn diagram and the rules' sections (${JSON.stringify(at)})`);
      assert.ok(at.intro <= at.board, `${lang} ${game}: the diagram comes after the first paragraph (${JSON.stringify(at)})`);
      assert.ok(at.board < at.second, `${lang} ${game}: the diagram comes before the second section (${JSON.stringify(at)})`);
    }
    await page.context().close();
  }
  assert.deepEqual(pageErrors, []);
});

/**
 * What the drawn board marks, and what it should mark by the server's
 * answer for `step`: CrossyRay every legal move; Jungle the moves of the
 * animal on `step.show`; Quoridor the pawn's targets, for the side to move.
 */
async function marks(page, game, step, served) {
  if (game === 'crossyray') {
    const drawn = await page.$$eval('[data-testid="board"] [data-legal="true"]', (els) => els.map((e) => e.dataset.target));
    return { drawn: drawn.sort(), wanted: [...served.legal].sort() };
  }
  const drawn = await page.$$eval('[data-testid="board"] [data-target]', (els) => els.map((e) => e.dataset.target));
  if (game === 'jungle') {
    const wanted = step.show ? served.legal.filter((m) => m.split(' ')[1].startsWith(`${step.show}`)) : [];
    return { drawn: drawn.sort(), wanted: wanted.sort() };
  }
  const wanted = served.state.to_move === step.as ? served.legal.filter((m) => /^[a-m]\d+$/.test(m)) : [];
  return { drawn: drawn.sort(), wanted: wanted.sort() };
}

const STEP_IDS = {
  crossyray: ['ray', 'range', 'blocks', 'cycle', 'goal', 'own_goal', 'lock', 'clock'],
  jungle: ['ranks', 'capture', 'rat_elephant', 'water', 'jump', 'jump_blocked', 'traps', 'den', 'shuttle', 'repetition', 'no_capture', 'rat_faq'],
  quoridor: ['steps', 'jump', 'diagonal', 'walls', 'never_shut', 'blocking', 'centre', 'modes', 'scoring', 'draws'],
};

for (const game of ['crossyray', 'jungle', 'quoridor']) {
  test(`the ${game} rules page walks through its steps, each a position the server plays`, { timeout: 90_000 }, async () => {
    const content = (await import(`../web/js/rules/${game}.js`)).default;
    const page = await site.newPage(`walkthrough-${game}`);
    await page.goto(`${site.base}/`);
    await byId(page, `rules-page-${game}`).click();
    await page.waitForURL(new RegExp(`/rules/${game}$`));
    await byId(page, 'rules-title').filter({ hasText: content.text.en.title }).waitFor();
    const steps = await page.$$eval('[data-testid^="walk-step-"]', (bs) => bs.map((b) => b.dataset.testid.slice(10)));
    assert.deepEqual(steps, STEP_IDS[game], 'the walkthrough covers the topics of issue 11');
    // The nav links every game's page.
    assert.deepEqual(await page.$$eval('[data-testid^="rules-nav-"]', (as) => as.map((a) => a.getAttribute('href'))),
      ['/rules/crossyray', '/rules/jungle', '/rules/quoridor']);
    for (const [i, step] of content.steps.entries()) {
      await byId(page, `walk-step-${step.id}`).click();
      await page.waitForFunction((id) => document.querySelector('[data-testid="board"]').dataset.step === id, step.id);
      assert.equal(await byId(page, `walk-step-${step.id}`).getAttribute('aria-pressed'), 'true');
      assert.equal(await byId(page, 'walk-caption').textContent(), content.text.en.steps[step.id][1]);
      const q = new URLSearchParams({ game, moves: step.moves.join(',') });
      if (step.options) q.set('options', JSON.stringify(step.options));
      const res = await fetch(`${site.base}/api/position?${q}`);
      const served = await res.json();
      assert.equal(res.status, 200, `step ${step.id}: ${JSON.stringify(served)}`);
      assert.deepEqual(await boardShape(page, game), serverShape(game, served.state), `step ${step.id}: the server's position`);
      const { drawn, wanted } = await marks(page, game, step, served);
      assert.deepEqual(drawn, wanted, `step ${step.id}: the legal moves are marked`);
      if (step.show) assert.ok(wanted.length > 0 || game === 'quoridor', `step ${step.id}: the shown animal can move`);
      // The line under the board: who moves, or how the game ended.
      const status = await byId(page, 'walk-status').textContent();
      const names = content.text.en.sides;
      if (served.state.outcome) {
        const o = served.state.outcome;
        assert.ok(status.startsWith(o.kind === 'win' ? `${names[o.winner]} wins` : 'Draw'), `step ${step.id}: ${status}`);
      } else {
        assert.equal(status, `${names[served.state.to_move]} to move`, `step ${step.id}`);
      }
      if (step.points) {
        const each = served.points.map((n, side) => `${names[side]} ${n}`).join(' · ');
        assert.ok(status.endsWith(`Points: ${each}`), `step ${step.id}: the server's points (${status})`);
      }
      if (i === 0) assert.equal(await page.locator('[data-testid="board"] .q-tools:visible').count(), 0, 'no play tools on a diagram');
    }
    assert.deepEqual(pageErrors, []);
  });
}

test('the walkthroughs show what their captions say', { timeout: 90_000 }, async () => {
  const page = await site.newPage('walkthrough-details');
  // CrossyRay: the own-goal step marks the viewer's own goal with the red ring; the lock ends the game.
  await page.goto(`${site.base}/rules/crossyray`);
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
  await noHorizontalScroll(page, 'CrossyRay rules page');

  // Jungle, still in Vietnamese on a phone: the rank sits in each piece's
  // top-right corner; the trap step rings the trapped elephant; the
  // river jump is gone once a rat swims in its way; the den is a gold ring.
  await byId(page, 'rules-nav-jungle').click();
  await page.waitForURL(/\/rules\/jungle$/);
  await byId(page, 'rules-title').filter({ hasText: 'Cờ thú' }).waitFor();
  await byId(page, 'walk-step-ranks').filter({ hasText: 'Cấp' }).waitFor();
  await page.locator('[data-testid="board"][data-step="ranks"]').waitFor();
  const corner = await page.evaluate(() => {
    const g = document.querySelector('[data-testid="piece-a3"]');
    const disc = g.querySelector('.disc').getBBox();
    const rank = g.querySelector('.rank').getBBox();
    return { text: g.querySelector('.rank').textContent, right: rank.x + rank.width / 2 > disc.x + disc.width / 2, top: rank.y + rank.height / 2 < disc.y + disc.height / 2 };
  });
  assert.deepEqual(corner, { text: '8', right: true, top: true }, 'the rank number sits top-right');
  await byId(page, 'walk-step-traps').click();
  await byId(page, 'trap-ring-d2').waitFor();
  assert.equal(await byId(page, 'sq-d2').getAttribute('data-target'), '2 d3xd2');
  await byId(page, 'walk-step-jump').click();
  await page.locator('[data-testid="board"][data-step="jump"]').waitFor();
  assert.equal(await byId(page, 'sq-a5').getAttribute('data-target'), '7 d5-a5');
  await byId(page, 'walk-step-jump_blocked').click();
  await page.locator('[data-testid="board"][data-step="jump_blocked"]').waitFor();
  assert.equal(await byId(page, 'sq-a5').getAttribute('data-target'), null, 'a rat in the water blocks the jump');
  assert.equal(await byId(page, 'sq-g5').getAttribute('data-mark'), 'capture');
  await byId(page, 'walk-step-den').click();
  await page.locator('[data-testid="board"][data-step="den"]').waitFor();
  assert.equal(await byId(page, 'sq-d9').getAttribute('data-mark'), 'den');
  await byId(page, 'walk-step-repetition').click();
  await byId(page, 'walk-status').filter({ hasText: 'Hòa' }).waitFor();
  await noHorizontalScroll(page, 'Jungle rules page');

  // Quoridor: the shown walls are green when legal and red when not (the
  // crossing wall, the wall that would shut pawns in); the blocking pawn
  // may not pass; the scoring step shows the mirror rule's points.
  await byId(page, 'rules-nav-quoridor').click();
  await page.waitForURL(/\/rules\/quoridor$/);
  await byId(page, 'rules-title').filter({ hasText: 'Rào chắn' }).waitFor();
  await byId(page, 'walk-step-walls').click();
  await page.locator('[data-testid="board"][data-step="walls"]').waitFor();
  assert.equal(await byId(page, 'ghost').getAttribute('data-wall'), 'e2v');
  assert.equal(await byId(page, 'ghost').getAttribute('data-legal'), 'false');
  await byId(page, 'wall-e2h').waitFor();
  await byId(page, 'walk-step-never_shut').click();
  await page.locator('[data-testid="board"][data-step="never_shut"]').waitFor();
  assert.equal(await byId(page, 'ghost').getAttribute('data-wall'), 'a8v');
  assert.equal(await byId(page, 'ghost').getAttribute('data-legal'), 'false');
  // The server refuses it for shutting the pawns in, not for touching a wall.
  const shut = await fetch(`${site.base}/api/position?game=quoridor&moves=b8h,d8h,f8h,h8h,a7h,pass,a8v`);
  assert.equal(shut.status, 400);
  assert.match((await shut.json()).message, /move 7: illegal move "a8v": wall a8v would cut side \d's pawn off from its goal/);
  await byId(page, 'walk-step-blocking').click();
  await page.locator('[data-testid="board"][data-step="blocking"]').waitFor();
  assert.deepEqual(await page.$$eval('[data-testid="board"] [data-target]', (els) => els.map((e) => e.dataset.target)), ['e4']);
  await byId(page, 'walk-step-scoring').click();
  await byId(page, 'walk-status').filter({ hasText: 'Điểm: Đỏ 16 · Vàng 12 · Xanh dương 10 · Xanh lá 0' }).waitFor();
  await noHorizontalScroll(page, 'Quoridor rules page');
  assert.deepEqual(pageErrors, []);
});

test('the rules open in a dialog in the middle of a game, and the game is unchanged after', { timeout: 90_000 }, async () => {
  const host = await site.newPage('host');
  const code = await createRoomByPage(host, site.base);
  await setName(host, 'Minh');
  await sit(host, 0, 'Minh');
  const guest = await site.newPage('guest');
  await joinAndSit(guest, site.base, code, 'Lan', 1);
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

test('"How to play" opens the rules of the room\'s game', { timeout: 60_000 }, async () => {
  const page = await site.newPage('how-to-play');
  for (const [game, title] of [['jungle', 'Jungle'], ['quoridor', 'Quoridor']]) {
    await page.goto(`${site.base}/`);
    await byId(page, 'create-game').selectOption(game);
    await byId(page, 'create-room').click();
    await page.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
    await waitOnline(page);
    await byId(page, 'rules-open').click();
    await byId(page, 'rules-dialog').waitFor({ state: 'visible' });
    const frame = page.frameLocator('[data-testid="rules-frame"]');
    await frame.locator('[data-testid="rules-title"]').filter({ hasText: title }).waitFor();
    assert.equal(await frame.locator('[data-testid="rules-nav"] [aria-current="page"]').getAttribute('href'), `/rules/${game}?embed`);
    await frame.locator('[data-testid="board"][data-step]').waitFor();
    await page.keyboard.press('Escape');
    await byId(page, 'rules-dialog').waitFor({ state: 'hidden' });
  }
  assert.deepEqual(pageErrors, []);
});

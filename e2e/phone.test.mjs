// A room on a 360 px phone (touch): a Quoridor wall placed by two taps 12
// px from its groove crossing, each crossing's hit square at least 32 px;
// player cards that show every fact (walls left, goal defended, the
// computer's level) on two lines instead of cutting them, in English and
// Vietnamese; the result banner in view when a game ends; the chat
// opened in one tap. No page scrolls sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, playComputer as playComputerAt, setName, sit, siteForTests, waitPly } from './harness.mjs';

const site = siteForTests({ tag: 'phone', args: ['--bot-ms', '200'] });
const { pageErrors } = site;
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, locale: 'en-US' };

/** From the home page: play the computer (we move first); lands in the room with the board drawn. */
const playComputer = (page, game, level) => playComputerAt(page, site.base, { game, level });

/** Every fact of every player card is shown whole: nothing overflows its box or the card. */
async function cardsWhole(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid^="player-"].player')].map((card) => {
    const c = card.getBoundingClientRect();
    const parts = [...card.querySelectorAll('.player-name, .player-sub')].map((e) => {
      const r = e.getBoundingClientRect();
      return {
        text: e.textContent,
        cut: e.scrollWidth > e.clientWidth + 1 || r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.bottom > c.bottom + 0.5,
        top: r.top,
      };
    });
    return { text: card.textContent, parts, twoLines: parts.length === 2 && parts[1].top > parts[0].top };
  }));
}

test('Quoridor at 360 px: a wall placed by taps 12 px from its crossing; the cards show walls left and the level', { timeout: 120_000 }, async () => {
  const page = await site.newPage('q-phone', PHONE);
  await playComputer(page, 'quoridor', 'professional');
  await noHorizontalScroll(page, 'Quoridor room');

  // Each crossing's hit square: the distance between neighbouring crossings.
  const box = async (id) => {
    const b = await byId(page, id).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  await byId(page, 'board').scrollIntoViewIfNeeded();
  const c4 = await box('x-c4');
  const d4 = await box('x-d4');
  const c5 = await box('x-c5');
  const step = Math.min(d4.x - c4.x, c4.y - c5.y);
  assert.ok(step >= 32, `a crossing's hit square is ${step.toFixed(1)} px`);
  // The small circle alone would be far less.
  const circle = await byId(page, 'x-c4').boundingBox();
  assert.ok(circle.width < 20, `the circle is ${circle.width.toFixed(1)} px`);

  // First tap 12 px right of crossing c4: the ghost wall there. Second tap
  // 12 px below it: placed.
  await page.touchscreen.tap(c4.x + 12, c4.y);
  await page.waitForSelector('[data-testid="ghost"][data-wall="c4h"][data-legal="true"]');
  await page.touchscreen.tap(c4.x, c4.y + 12);
  await page.waitForSelector('[data-testid="wall-c4h"]');
  await waitPly(page, 2); // the computer answered
  assert.equal(await page.locator('[data-testid="wall-c4h"]').count(), 1);
  // A marked cell still moves the pawn by a tap.
  await page.waitForSelector('[data-testid="board"][data-my-turn="true"]');
  const target = page.locator('[data-testid="board"] [data-target]').first();
  const cell = await target.getAttribute('data-target');
  await target.tap();
  await page.waitForSelector(`[data-testid="board"] [data-pawn="0"][data-cell="${cell}"]`);

  // The cards: name on one line, the facts (colour, walls left) on the next, whole.
  for (const lang of ['en', 'vi']) {
    await byId(page, 'lang').selectOption(lang);
    const cards = await cardsWhole(page);
    assert.equal(cards.length, 2);
    for (const card of cards) {
      assert.ok(card.twoLines, `${lang}: facts under the name: ${card.text}`);
      for (const p of card.parts) assert.ok(!p.cut, `${lang}: "${p.text}" is cut`);
    }
    assert.match(cards[0].text, lang === 'en' ? /9 walls/ : /9 tường/);
    assert.match(cards[1].text, lang === 'en' ? /Computer \(Professional\)/ : /Chuyên nghiệp/);
    await noHorizontalScroll(page, `cards in ${lang}`);
  }
  await byId(page, 'lang').selectOption('en');
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});

test('CrossyRay at 360 px: the goal defended shown whole; the result stays in view at the end', { timeout: 120_000 }, async () => {
  // A phone whose browser bars leave 600 px of page.
  const page = await site.newPage('c-phone', { ...PHONE, viewport: { width: 360, height: 600 } });
  await playComputer(page, 'crossyray', 'master');
  for (const lang of ['vi', 'en']) {
    await byId(page, 'lang').selectOption(lang);
    const cards = await cardsWhole(page);
    for (const card of cards) {
      assert.ok(card.twoLines, card.text);
      for (const p of card.parts) assert.ok(!p.cut, `${lang}: "${p.text}" is cut`);
    }
    assert.match(cards[0].text, lang === 'en' ? /defends the (left|right) goal/ : /giữ gôn/);
    assert.match(cards[1].text, lang === 'en' ? /Computer \(Master\)/ : /Máy/);
  }
  await noHorizontalScroll(page, 'CrossyRay cards');
  // Resign: the result shows, and stays in the window wherever the page
  // was scrolled to within the game's area.
  await page.evaluate(() => window.scrollTo(0, 0));
  await byId(page, 'resign').tap();
  await byId(page, 'resign').tap(); // the second tap confirms
  await byId(page, 'result').waitFor({ state: 'visible' });
  const inView = () => page.evaluate(() => {
    const r = document.querySelector('[data-testid="result"]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
  // Where the banner would be if it did not stay in view.
  const natural = () => page.evaluate(() => {
    const box = document.querySelector('[data-testid="result"]');
    box.style.position = 'static';
    const r = box.getBoundingClientRect();
    box.style.position = '';
    return { top: r.top, bottom: r.bottom, height: window.innerHeight };
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  const below = await natural();
  assert.ok(below.bottom > below.height, `the result's place is below the fold: ${JSON.stringify(below)}`);
  for (const at of ['top', 'board']) {
    if (at === 'top') await page.evaluate(() => window.scrollTo(0, 0));
    else await page.evaluate(() => document.querySelector('[data-testid="board"]').scrollIntoView({ block: 'start' }));
    assert.ok(await inView(), `the result is in view with the page at the ${at}`);
  }
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});

test('chat at 360 px: one tap opens it from anywhere in the room; new messages are counted while it is closed', { timeout: 120_000 }, async () => {
  const host = await site.newPage('chat-host', PHONE);
  await host.goto(`${site.base}/`);
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await host.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await setName(host, 'Ana');
  await sit(host, 0, 'Ana', { tap: true });
  const friend = await site.newPage('chat-friend');
  await friend.goto(host.url());
  await friend.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await setName(friend, 'Bao');

  // The chat panel is far below the board on a phone.
  const chatTop = await host.evaluate(() => document.querySelector('.panel.chat').getBoundingClientRect().top);
  assert.ok(chatTop > 740, `the chat starts ${chatTop}px down`);
  const fab = byId(host, 'chat-fab');
  assert.ok(await fab.isVisible(), 'the chat button is on screen');
  // A message while it is closed is counted on the button.
  await byId(friend, 'chat-input').fill('xin chào');
  await byId(friend, 'chat-send').click();
  await host.waitForFunction(() => document.querySelector('[data-testid="chat-unread"]')?.textContent === '1');
  await fab.tap();
  const input = byId(host, 'chat-input');
  await input.waitFor({ state: 'visible' });
  const seen = await host.evaluate(() => {
    const r = document.querySelector('[data-testid="chat-input"]').getBoundingClientRect();
    return { inView: r.top >= 0 && r.bottom <= window.innerHeight, focused: document.activeElement?.dataset.testid };
  });
  assert.deepEqual(seen, { inView: true, focused: 'chat-input' });
  assert.match(await byId(host, 'chat-log').textContent(), /xin chào/);
  await input.fill('chào Bao');
  await byId(host, 'chat-send').tap();
  await friend.waitForFunction(() => document.querySelector('[data-testid="chat-log"]').textContent.includes('chào Bao'));
  await noHorizontalScroll(host, 'chat drawer');
  await byId(host, 'chat-close').tap();
  assert.equal(await host.evaluate(() => document.body.classList.contains('chat-open')), false);
  assert.equal(await byId(host, 'chat-unread').isVisible(), false);
  // On a wide screen the chat is in the side column: no button.
  assert.equal(await byId(friend, 'chat-fab').isVisible(), false);
  await host.context().close();
  await friend.context().close();
  assert.deepEqual(pageErrors, []);
});

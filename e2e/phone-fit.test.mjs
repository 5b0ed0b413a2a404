// The room on a 360 × 740 phone (touch), measured with the real layout:
// player names never broken in the middle of a word (each word of a name
// on one line: Range.getClientRects on its text), cut whole with an
// ellipsis when one word is wider than the card; every cell a Quoridor
// pawn may move to hit on a square of at least 32 px (elementFromPoint
// 15 px from its centre finds it); 11×11 and 13×13 Quoridor boards that
// scroll sideways inside their frame, its edge shaded and a line saying
// so, every column reachable by scrolling, while a 9×9 board and a
// 9-column CrossyRay board fit (the largest CrossyRay board keeps 32 px a
// cell and scrolls likewise); the floating chat button clear of the
// board, the player cards and the walls-left row at every scroll
// position, in all three games; CrossyRay's goal rings clear of the goal
// names; "Ask before playing into my own goal" beside its box, for the
// players only. English and Vietnamese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, playComputer as playComputerAt, seatedPair, siteForTests, startBySeats, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'phone-fit', args: ['--bot-ms', '200'] });
const { pageErrors } = site;
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, locale: 'en-US' };

/** From the home page, `name` plays the computer (Beginner, moving first); lands in the room, its turn. */
const playComputer = (page, game, name) => playComputerAt(page, site.base, { game, name });

/** A room of `game` with `options`, the phone host seated 0 as `hostName`, a guest seated 1. */
const twoPlayers = (game, options, hostName = 'minhhost', guestName = 'Lan') => seatedPair(site, { tag: game, game, options, hostName, guestName, host: PHONE });


/**
 * Each name on the player cards: its text, whether some word of it lies
 * on two lines (a break in the middle of the word), whether it is cut
 * (an ellipsis), and its text-overflow.
 */
function namesOf(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid^="player-name-"]')].map((e) => {
    // The name's text nodes (the first word is with the online dot, the rest after it).
    const text = e.textContent;
    const broken = [];
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    const box = e.closest('.player-name');
    return { text, broken, cut: box.scrollWidth > box.clientWidth + 1, overflow: getComputedStyle(box).textOverflow };
  }));
}

/** The rectangles of what the chat button must never cover, and the button's. */
function fabAndCovered(page) {
  return page.evaluate(() => {
    const fab = document.querySelector('[data-testid="chat-fab"]').getBoundingClientRect();
    const parts = [...document.querySelectorAll('[data-testid^="player-"].player, [data-testid="board-frame"], .q-walls')]
      .map((e) => ({ what: e.dataset.testid ?? e.className, r: e.getBoundingClientRect() }));
    const hit = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
    const walls = document.querySelector('.q-walls');
    let wallsAt = null;
    if (walls) {
      const r = walls.getBoundingClientRect();
      const y = r.top + r.height / 2;
      if (y > 0 && y < innerHeight) {
        // Every point along the walls-left row is the row itself, not the button.
        wallsAt = [0.1, 0.5, 0.9].map((f) => walls.contains(document.elementFromPoint(r.left + f * r.width, y)));
      }
    }
    return {
      fab: { left: fab.left, top: fab.top, right: fab.right, bottom: fab.bottom, inView: fab.top >= 0 && fab.bottom <= innerHeight },
      covered: parts.filter((p) => hit(fab, p.r)).map((p) => p.what),
      wallsAt,
    };
  });
}

/** Scrolls the page from its top to its bottom in 120 px steps; at each the button covers nothing. */
async function fabNeverCovers(page, what) {
  const end = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  let checked = 0;
  for (let y = 0; y <= end + 120; y += 120) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const seen = await fabAndCovered(page);
    assert.ok(seen.fab.inView, `${what} at ${y}px: the chat button is on screen`);
    assert.deepEqual(seen.covered, [], `${what} at ${y}px: the chat button (${JSON.stringify(seen.fab)}) covers nothing`);
    if (seen.wallsAt) assert.deepEqual(seen.wallsAt, [true, true, true], `${what} at ${y}px: the walls-left row is uncovered`);
    checked += 1;
  }
  assert.ok(checked >= 3, `${what}: checked at ${checked} scroll positions`);
}

/** The board's scroll as the page shows it: its overflow, the frame's shaded edges, the hint. */
function scrollFacts(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid="board"]');
    const frame = document.querySelector('[data-testid="board-frame"]');
    const hint = document.querySelector('[data-testid="board-scroll-hint"]');
    const shade = (pseudo) => getComputedStyle(frame, pseudo).opacity;
    return {
      over: b.scrollWidth - b.clientWidth,
      scrolls: frame.dataset.scrolls === 'true',
      left: shade('::before') === '1',
      right: shade('::after') === '1',
      hint: hint.checkVisibility() ? hint.textContent : null,
      svgRight: b.querySelector('svg').getBoundingClientRect().right,
    };
  });
}

// ---------------------------------------------------------------- tests

test('names on the cards wrap at spaces only: never broken in a word, a too long word cut whole', { timeout: 120_000 }, async () => {
  const page = await site.newPage('names', PHONE);
  await playComputer(page, 'quoridor', 'minhhost');
  for (const lang of ['en', 'vi']) {
    await byId(page, 'lang').selectOption(lang);
    const names = await namesOf(page);
    assert.equal(names.length, 2);
    for (const n of names) {
      assert.deepEqual(n.broken, [], `${lang}: no word of "${n.text}" is broken`);
      assert.equal(n.cut, false, `${lang}: "${n.text}" is shown whole`);
    }
    assert.match(names[1].text, lang === 'en' ? /Computer \(Beginner\)/ : /Máy/);
  }
  await byId(page, 'lang').selectOption('en');
  await page.context().close();

  // One word wider than the card: cut whole with an ellipsis, never broken.
  const { host, guest } = await twoPlayers('jungle', {}, 'Nguyễn Văn Minh', 'Abcdefghijklmnopqrstuvwx');
  await startBySeats(host);
  const names = await namesOf(host);
  for (const n of names) assert.deepEqual(n.broken, [], `no word of "${n.text}" is broken`);
  const long = names.find((n) => n.text.startsWith('Abc'));
  assert.equal(long.overflow, 'ellipsis');
  assert.equal(names.find((n) => n.text.startsWith('Nguyễn')).cut, false, 'a name of short words wraps, whole');
  await noHorizontalScroll(host, 'long names');
  await host.context().close();
  await guest.context().close();
  assert.deepEqual(pageErrors, []);
});

test('Quoridor: each cell the pawn may reach is hit on 32 px or more; 11×11 and 13×13 scroll in a shaded frame with a hint, every column reachable', { timeout: 180_000 }, async () => {
  for (const size of [9, 11, 13]) {
    const { host, guest } = await twoPlayers('quoridor', { size });
    await startBySeats(host);
    await byId(host, 'board-frame').scrollIntoViewIfNeeded();
    const hits = await host.evaluate(() => [...document.querySelectorAll('[data-testid="board"] .qcell[data-target]')].map((g) => {
      const r = g.querySelector('.hit').getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      const at = (x, y) => document.elementFromPoint(x, y)?.closest('[data-cell]')?.dataset.cell ?? null;
      return { cell: g.dataset.cell, w: r.width, h: r.height, around: [at(cx, cy), at(cx - 15, cy), at(cx + 15, cy), at(cx, cy - 15), at(cx, cy + 15)] };
    }));
    assert.ok(hits.length >= 2, `${size}: the pawn has cells to go to`);
    for (const h of hits) {
      assert.ok(h.w >= 32 && h.h >= 32, `${size}×${size}: ${h.cell} is hit on ${h.w.toFixed(1)} × ${h.h.toFixed(1)} px`);
      assert.deepEqual(h.around, Array(5).fill(h.cell), `${size}×${size}: a tap 15 px from ${h.cell}'s centre finds it`);
    }
    // A tap on a marked cell's edge (in the groove) moves the pawn.
    const target = hits[0];
    const box = await host.evaluate((cell) => {
      const r = document.querySelector(`[data-testid="hit-${cell}"]`).getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + 2 };
    }, target.cell);
    await host.touchscreen.tap(box.x, box.y);
    await host.waitForSelector(`[data-testid="board"] [data-pawn="0"][data-cell="${target.cell}"]`);

    const facts = await scrollFacts(host);
    await noHorizontalScroll(host, `${size}×${size} Quoridor`);
    if (size === 9) {
      assert.equal(facts.scrolls, false, '9×9 fits');
      assert.equal(facts.hint, null, 'no hint when the board fits');
      assert.ok(facts.svgRight <= 360, '9×9 is inside the screen');
    } else {
      assert.ok(facts.over > 0 && facts.scrolls, `${size}×${size} scrolls in its frame (${facts.over} px more)`);
      assert.deepEqual([facts.left, facts.right], [false, true], 'the right edge is shaded: more board there');
      assert.match(facts.hint ?? '', /swipe it sideways/);
      await byId(host, 'lang').selectOption('vi');
      assert.match((await scrollFacts(host)).hint ?? '', /vuốt sang ngang/);
      await byId(host, 'lang').selectOption('en');
      // Scrolled to its right end: the last column is on screen and hit there, the left edge shaded.
      await host.evaluate(() => { const b = document.querySelector('[data-testid="board"]'); b.scrollLeft = b.scrollWidth; });
      await host.waitForFunction(() => document.querySelector('[data-testid="board-frame"]').classList.contains('more-left'));
      const end = await scrollFacts(host);
      assert.deepEqual([end.left, end.right], [true, false]);
      const last = String.fromCharCode(96 + size);
      const reach = await host.evaluate((name) => {
        const r = document.querySelector(`[data-testid="cell-${name}"]`).getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        return { x, inView: r.left >= 0 && r.right <= innerWidth, hit: document.elementFromPoint(x, y)?.closest('[data-cell]')?.dataset.cell };
      }, `${last}${Math.ceil(size / 2)}`);
      assert.ok(reach.inView, `${last}: the last column can be scrolled into view`);
      assert.equal(reach.hit, `${last}${Math.ceil(size / 2)}`);
    }
    await host.context().close();
    await guest.context().close();
  }
  assert.deepEqual(pageErrors, []);
});

test('CrossyRay on the phone: a 9-column board fits; the largest keeps 32 px a cell and scrolls in a shaded frame with the hint', { timeout: 120_000 }, async () => {
  const small = await twoPlayers('crossyray', { width: 9, height: 7 });
  await startBySeats(small.host);
  const fits = await scrollFacts(small.host);
  assert.equal(fits.scrolls, false, '9 columns fit');
  assert.equal(fits.hint, null);
  await small.host.context().close();
  await small.guest.context().close();
  const { host, guest } = await twoPlayers('crossyray', { width: 25, height: 23 });
  await startBySeats(host);
  await byId(host, 'board-frame').scrollIntoViewIfNeeded();
  const facts = await scrollFacts(host);
  assert.ok(facts.scrolls && facts.over > 0, '25 columns scroll in the frame');
  assert.deepEqual([facts.left, facts.right], [false, true], 'the right edge is shaded');
  assert.match(facts.hint ?? '', /swipe it sideways/);
  const cell = await host.evaluate(() => document.querySelector('[data-testid="cell-y23"]').getBoundingClientRect().toJSON());
  assert.ok(cell.width >= 32 && cell.height >= 32, `a cell is ${cell.width} × ${cell.height} px`);
  await noHorizontalScroll(host, '25×23 CrossyRay');
  await host.context().close();
  await guest.context().close();
  assert.deepEqual(pageErrors, []);
});

test('the chat button covers no part of the board, the player cards or the walls-left row, at any scroll, in the three games', { timeout: 180_000 }, async () => {
  for (const game of ['quoridor', 'jungle', 'crossyray']) {
    const page = await site.newPage(`fab-${game}`, PHONE);
    await playComputer(page, game, 'minhhost');
    await fabNeverCovers(page, game);
    await page.context().close();
  }
  // A 13×13 board, taller than half the screen.
  const { host, guest } = await twoPlayers('quoridor', { size: 13 });
  await startBySeats(host);
  await fabNeverCovers(host, '13×13 Quoridor');
  // And the chat still opens in one tap.
  await byId(host, 'chat-fab').tap();
  await byId(host, 'chat-input').waitFor({ state: 'visible' });
  await host.context().close();
  await guest.context().close();
  assert.deepEqual(pageErrors, []);
});

test('CrossyRay: a legal goal\'s ring is clear of its name; "Ask before playing into my own goal" is beside its box, for players only', { timeout: 120_000 }, async () => {
  const { host, guest, code } = await twoPlayers('crossyray', { width: 9, height: 7 });
  const watcher = await site.newPage('watcher', PHONE);
  await watcher.goto(`${site.base}/r/${code}`);
  await waitOnline(watcher);
  await startBySeats(host);
  // d4 by the host, b4 by the guest: both goals become the host's to play.
  await byId(host, 'cell-d4').tap();
  await guest.waitForSelector('[data-testid="board"][data-my-turn="true"]');
  await byId(guest, 'cell-b4').click();
  await host.waitForSelector('[data-testid="goal-left"][data-legal="true"]');
  for (const lang of ['en', 'vi']) {
    await byId(host, 'lang').selectOption(lang);
    const rings = await host.evaluate(() => [...document.querySelectorAll('[data-testid^="ring-"]')].map((ring) => {
      const goal = ring.closest('[data-testid^="goal-"]');
      const label = goal.querySelector('.goal-label').getBoundingClientRect();
      const r = ring.getBoundingClientRect();
      const svg = ring.ownerSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const half = (parseFloat(getComputedStyle(ring).strokeWidth) * scale) / 2;
      // The ring's stroke is a band round its rectangle: the name lies inside the band.
      const inner = { left: r.left + half, top: r.top + half, right: r.right - half, bottom: r.bottom - half };
      return {
        goal: goal.dataset.testid,
        text: goal.querySelector('.goal-label').textContent,
        clear: label.left >= inner.left && label.right <= inner.right && label.top >= inner.top && label.bottom <= inner.bottom,
        label: [label.left, label.top, label.right, label.bottom].map(Math.round),
        inner: [inner.left, inner.top, inner.right, inner.bottom].map(Math.round),
      };
    }));
    assert.ok(rings.length >= 1, 'a legal goal is ringed');
    for (const r of rings) assert.ok(r.clear, `${lang}: ${r.goal}'s ring clear of "${r.text}": ${JSON.stringify(r)}`);
  }
  await byId(host, 'lang').selectOption('en');

  // The setting: the box and its words on one line, side by side, for the player.
  const setting = await host.evaluate(() => {
    const box = document.querySelector('[data-testid="ask-own-goal"]').getBoundingClientRect();
    const words = document.querySelector('#ask-own-goal-box span').getBoundingClientRect();
    return { gap: words.left - box.right, middle: Math.abs((words.top + words.bottom) / 2 - (box.top + box.bottom) / 2), boxW: box.width };
  });
  assert.ok(setting.gap >= 0 && setting.gap <= 16, `the words follow the box (${setting.gap.toFixed(1)} px)`);
  assert.ok(setting.middle <= 6, `on the same line (${setting.middle.toFixed(1)} px apart)`);
  assert.ok(setting.boxW <= 32, 'the box is a box, not a field');
  assert.equal(await byId(host, 'ask-own-goal').isVisible(), true, 'a player has the setting');
  assert.equal(await byId(watcher, 'ask-own-goal').isVisible(), false, 'a spectator does not');
  assert.equal(await byId(watcher, 'board').isVisible(), true);
  for (const p of [host, guest, watcher]) await p.context().close();
  assert.deepEqual(pageErrors, []);
});

// Browser test of the board aids: the CrossyRay own goal (a red ring, a
// question before playing it, a setting that turns the question off), the
// Jungle trap ring (a room started from a position), and a move list that
// stays readable on a 360 px phone.
//
//   SERVER_BIN=../target/debug/server node --test board-aids.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, joinAndSit, siteForTests, waitOnline } from './harness.mjs';

const site = siteForTests({ tag: 'aids' });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const ply = (page) => page.evaluate(() => Number(document.querySelector('[data-testid="board"]').dataset.ply));

async function waitPly(page, n) {
  await page.waitForFunction((k) => document.querySelector('[data-testid="board"]')?.dataset.ply === String(k) && document.querySelector('[data-testid="board"]')?.dataset.over === 'false', n);
}

/** Start a game with seat i playing side i (the host sits on 0). */
async function startBySeats(host) {
  await byId(host, 'start').waitFor({ state: 'visible' });
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
}

/** Every `move` command a page sends. */
function recordMoves(page) {
  const sent = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => {
    try {
      const m = JSON.parse(f.payload);
      if (m?.type === 'move') sent.push(m.move);
    } catch { /* not JSON */ }
  }));
  return sent;
}

/** Two people in a new room of `game` (options as POST /api/rooms takes them), seated 0 and 1. */
async function twoPlayers(game, options, hostOpts = {}) {
  const host = await site.newPage('host', hostOpts);
  const guest = await site.newPage('guest');
  const sent = recordMoves(host);
  await host.goto(`${site.base}/`);
  const code = await host.evaluate(async ([g, o]) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: g, options: o, token: localStorage.getItem('bg.token') ?? undefined }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(JSON.stringify(body));
    localStorage.setItem('bg.token', body.token);
    return body.code;
  }, [game, options]);
  await joinAndSit(host, site.base, code, 'Minh', 0);
  await joinAndSit(guest, site.base, code, 'Lan', 1);
  return { host, guest, sent, code };
}

/** d4 by side 0, b4 by side 1: side 0 may now play goal:left, its own goal. */
async function reachOwnGoal(host, guest, base0) {
  await waitPly(host, base0);
  await byId(host, 'cell-d4').click();
  await waitPly(guest, base0 + 1);
  await byId(guest, 'cell-b4').click();
  await waitPly(host, base0 + 2);
  await host.waitForSelector('[data-testid="goal-left"][data-legal="true"]');
}

// ---------------------------------------------------------------- tests

test('CrossyRay: your own goal has a red ring, asks before it plays, Cancel plays nothing, OK loses by own goal; the setting turns the question off', { timeout: 120_000 }, async () => {
  const { host, guest, sent } = await twoPlayers('crossyray', { width: 9, height: 7 });
  assert.equal(await byId(host, 'ask-own-goal').isVisible(), true, 'the setting is shown near a CrossyRay board');
  assert.equal(await byId(host, 'ask-own-goal').isChecked(), true, 'the question is on by default');
  await startBySeats(host);
  await reachOwnGoal(host, guest, 0);

  // The own goal's ring: a class of its own, and red rather than gold.
  const ring = await host.evaluate(() => {
    const r = document.querySelector('[data-testid="ring-left"]');
    const goal = r.closest('[data-testid="goal-left"]');
    const gold = getComputedStyle(document.documentElement).getPropertyValue('--gold').trim();
    return { cls: r.getAttribute('class'), own: goal.dataset.own, stroke: getComputedStyle(r).stroke, gold };
  });
  assert.equal(ring.cls, 'ring own');
  assert.equal(ring.own, 'true');
  assert.equal(ring.stroke, 'rgb(212, 0, 0)', 'the own-goal ring is red');
  // The opponent's goal, when it is a target, keeps the gold ring (drawn as the room test plays it).
  const goldStroke = await host.evaluate(() => {
    const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    c.setAttribute('class', 'ring');
    document.querySelector('[data-testid="board"] svg').append(c);
    const s = getComputedStyle(c).stroke;
    c.remove();
    return s;
  });
  assert.notEqual(goldStroke, ring.stroke, 'an ordinary goal ring has another colour');

  // Cancel: nothing is played.
  let asked = null;
  host.onDialog = async (d) => { asked = d.message(); await d.dismiss(); };
  await byId(host, 'goal-left').click();
  for (let i = 0; i < 20 && asked == null; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(asked, 'This is your own goal: you will lose. Play it?');
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(sent, ['d4'], 'Cancel sent no move');
  assert.equal(await ply(host), 2);
  assert.equal(await byId(guest, 'move-count').textContent(), '2', 'the server has no third move');

  // OK: the own goal is played and loses.
  asked = null;
  host.onDialog = async (d) => { asked = d.message(); await d.accept(); };
  await byId(host, 'goal-left').click();
  await host.waitForSelector('[data-testid="result"][data-reason="own_goal"]');
  assert.ok(asked, 'the question was asked');
  assert.deepEqual(sent, ['d4', 'goal:left']);
  // The move list reads the goal in words.
  assert.equal(await host.locator('[data-testid="move-text"]').last().textContent(), '→ left goal');

  // The setting off: no question, the move is played at once (and kept).
  await byId(host, 'ask-own-goal').uncheck();
  assert.equal(await host.evaluate(() => localStorage.getItem('bg.askOwnGoal')), 'off');
  await startBySeats(host);
  await host.waitForSelector('[data-testid="result"][hidden]', { state: 'attached' });
  await reachOwnGoal(host, guest, 0);
  asked = null;
  host.onDialog = async (d) => { asked = d.message(); await d.dismiss(); };
  await byId(host, 'goal-left').click();
  await host.waitForSelector('[data-testid="result"][data-reason="own_goal"]');
  assert.equal(asked, null, 'no question with the setting off');
  await host.reload();
  await waitOnline(host);
  assert.equal(await byId(host, 'ask-own-goal').isChecked(), false, 'the setting is remembered');

  // Vietnamese: the question and the notation.
  await host.evaluate(() => localStorage.setItem('bg.lang', 'vi'));
  await host.reload();
  await waitOnline(host);
  assert.equal(await host.locator('[data-testid="move-text"]').last().textContent(), '→ gôn trái');
  assert.deepEqual(pageErrors, []);
});

test('Jungle: an enemy animal on your trap gets a red ring (a room started from a position)', { timeout: 90_000 }, async () => {
  // The red rat (a7 at the start) stands on c1, one of Blue's traps; Blue to move.
  const start = 'l5t/1d3c1/2p1w1e/7/7/7/E1W1P1R/1C3D1/T1r3L b 0 1';
  const { host, guest } = await twoPlayers('jungle', { start });
  await startBySeats(host);
  await host.waitForSelector('[data-testid="board"][data-my-side="0"]');
  await host.waitForSelector('[data-testid="sq-c1"][data-piece="1:1"]');
  const seen = await host.evaluate(() => ({
    trapped: [...document.querySelectorAll('[data-trapped="true"]')].map((e) => e.dataset.square),
    stroke: getComputedStyle(document.querySelector('[data-testid="trap-ring-c1"]')).stroke,
    label: document.querySelector('[data-testid="sq-c1"]').getAttribute('aria-label'),
  }));
  assert.deepEqual(seen.trapped, ['c1']);
  assert.equal(seen.stroke, 'rgb(224, 0, 0)');
  assert.match(seen.label, /on your trap/);
  // Red's own animal is not marked for Red.
  await guest.waitForSelector('[data-testid="board"][data-my-side="1"]');
  assert.equal(await guest.locator('[data-trapped="true"]').count(), 0);

  // The move list at 360 px: 120 Jungle moves (built with the page's own code), no overlapping entries, whole numbers.
  const phone = await site.newPage('phone', { viewport: { width: 360, height: 740 } });
  await phone.goto(host.url());
  await waitOnline(phone);
  for (const game of ['jungle', 'crossyray', 'quoridor']) {
    const r = await phone.evaluate(async (g) => {
      const { moveListView, moveListItems } = await import('/js/move-list.js');
      const { t } = await import('/js/i18n.js');
      const sample = { jungle: ['8 a3-a4', '7 a4xd4', '1 g3-g4'], crossyray: ['e4', 'goal:left', 'y25'], quoridor: ['e2', 'e3h', 'pass'] }[g];
      const moves = Array.from({ length: 120 }, (_, i) => sample[i % 3]);
      const list = document.querySelector('[data-testid="moves"]');
      list.replaceChildren(...moveListItems(moveListView(moves, { game: g, t }), (s) => `side-${s}`));
      list.style.maxHeight = 'none';
      const box = list.getBoundingClientRect();
      const items = [...list.querySelectorAll('li')].map((li) => {
        const r = li.getBoundingClientRect();
        const n = li.querySelector('.mv-n');
        const nr = n.getBoundingClientRect();
        return { l: r.left, r: r.right, t: r.top, b: r.bottom, n: n.textContent, nWhole: n.scrollWidth <= n.clientWidth + 0.5 && nr.left >= r.left - 0.5 && nr.right <= r.right + 0.5 };
      });
      return { box: { l: box.left, r: box.right }, items, docW: document.documentElement.scrollWidth };
    }, game);
    assert.equal(r.items.length, 120);
    assert.ok(r.docW <= 360, `${game}: no horizontal scroll (${r.docW})`);
    for (let i = 0; i < r.items.length; i++) {
      const a = r.items[i];
      assert.ok(a.l >= r.box.l - 0.5 && a.r <= r.box.r + 0.5, `${game}: entry ${a.n} inside the list`);
      assert.ok(a.nWhole, `${game}: number ${a.n} shows whole`);
      for (let j = i + 1; j < r.items.length; j++) {
        const b = r.items[j];
        const overlap = a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5;
        assert.ok(!overlap, `${game}: entries ${a.n} and ${b.n} overlap`);
      }
    }
    assert.equal(r.items[99].n, '100.');
    assert.equal(r.items[119].n, '120.');
  }
  assert.deepEqual(pageErrors, []);
});

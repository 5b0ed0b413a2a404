// Turn cues in a Quoridor room with a 15 s turn timer, two players on
// their own pages: the low-time sound once a turn, under 10 s on the
// player's own timer (never on the other's), and the opt-in "your turn"
// notification while the tab is hidden, which asks the browser's
// permission only when the switch is clicked and is remembered.
//
// The notifying page runs with a stand-in for the browser's
// `Notification` (headless chromium shows none) and a `visibilityState`
// the test sets: what is checked is what the page asks of the browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, setName, sit, siteForTests } from './harness.mjs';

const site = siteForTests({ tag: 'cues' });
const { pageErrors } = site;

/** A Notification that records what it is asked (permission kept across reloads, as a browser does). */
function fakeNotifications() {
  const perm = () => localStorage.getItem('test.perm') ?? 'default';
  window.__notes = [];
  class FakeNotification {
    constructor(title, options = {}) { window.__notes.push({ title, body: options.body, tag: options.tag }); }
    addEventListener() {}
    close() {}
    static get permission() { return perm(); }
    static async requestPermission() {
      localStorage.setItem('test.asked', String(Number(localStorage.getItem('test.asked') ?? 0) + 1));
      localStorage.setItem('test.perm', 'granted');
      return 'granted';
    }
  }
  window.Notification = FakeNotification;
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get() { return window.__hidden ? 'hidden' : 'visible'; },
  });
}

const asked = (page) => page.evaluate(() => Number(localStorage.getItem('test.asked') ?? 0));
const notes = (page) => page.evaluate(() => window.__notes);
const sounds = (page) => page.evaluate(() => ({
  last: document.documentElement.dataset.sound ?? null,
  count: Number(document.documentElement.dataset.sounds ?? 0),
}));

async function online(page) {
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector('[data-testid="board"][data-game="quoridor"] [data-testid="cell-a1"]');
}

/** The player whose turn it is moves a pawn by clicking its first marked cell. */
async function movePawn(page) {
  await page.waitForSelector('[data-testid="board"][data-my-turn="true"]');
  const ply = await page.evaluate(() => Number(document.querySelector('[data-testid="board"]').dataset.ply));
  await page.locator('[data-testid="board"] [data-target]').first().click();
  await page.waitForFunction((p) => Number(document.querySelector('[data-testid="board"]').dataset.ply) > p, ply);
}

test('low time once a turn on the own timer; "your turn" notified while hidden, after an opt-in', { timeout: 120_000 }, async () => {
  const host = await site.newPage('host');
  await host.goto(`${site.base}/`);
  await byId(host, 'create-game').selectOption('quoridor');
  await byId(host, 'create-turn').selectOption('15');
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  await online(host);
  const code = new URL(host.url()).pathname.slice(3);
  await setName(host, 'Ana');
  await sit(host, 0, 'Ana');

  const guest = await site.newPage('guest');
  await guest.addInitScript(fakeNotifications);
  await guest.goto(`${site.base}/r/${code}`);
  await online(guest);
  await setName(guest, 'Bao');
  await sit(guest, 1, 'Bao');

  // The switch: off, and nothing asked of the browser until it is clicked.
  const sw = byId(guest, 'notify');
  assert.equal(await sw.getAttribute('aria-pressed'), 'false');
  assert.match(await sw.getAttribute('aria-label'), /Notifications off/);
  assert.equal(await asked(guest), 0, 'no permission asked by itself');
  await sw.click();
  await guest.waitForSelector('[data-testid="notify"][aria-pressed="true"]');
  assert.equal(await asked(guest), 1, 'asked once, on the click');
  // Remembered: on after a reload, without asking again.
  await guest.reload();
  await online(guest);
  assert.equal(await sw.getAttribute('aria-pressed'), 'true');
  assert.equal(await asked(guest), 1);
  await byId(guest, 'lang').selectOption('vi');
  assert.match(await sw.getAttribute('aria-label'), /Đang bật thông báo/);
  await byId(guest, 'lang').selectOption('en');

  // The guest's tab is hidden; Ana moves first.
  await guest.evaluate(() => { window.__hidden = true; });
  await byId(host, 'start-order').selectOption('seats');
  await byId(host, 'start').click();
  await online(host);
  await movePawn(host);
  await guest.waitForFunction(() => window.__notes.length === 1);
  const [note] = await notes(guest);
  assert.equal(note.title, 'Your turn');
  assert.equal(note.body, `It is your turn in room ${code}.`);

  // Bao's turn timer runs: under 10 s, the low-time sound, once.
  await guest.waitForFunction(() => document.documentElement.dataset.sound === 'low_time', null, { timeout: 12_000 });
  const first = await sounds(guest);
  await guest.waitForTimeout(1500);
  assert.deepEqual(await sounds(guest), first, 'once a turn');
  assert.notEqual((await sounds(host)).last, 'low_time', 'not on the other player\'s timer');

  // Back in view, Bao moves; Ana's turn, then Bao's again: seen, so no notification.
  await guest.evaluate(() => { window.__hidden = false; });
  await movePawn(guest);
  await movePawn(host);
  await guest.waitForSelector('[data-testid="board"][data-my-turn="true"]');
  assert.equal((await notes(guest)).length, 1, 'no notification while the tab is seen');

  // Off again: hidden, and still no notification.
  await sw.click();
  await guest.waitForSelector('[data-testid="notify"][aria-pressed="false"]');
  await guest.evaluate(() => { window.__hidden = true; });
  await movePawn(guest);
  await movePawn(host);
  await guest.waitForSelector('[data-testid="board"][data-my-turn="true"]');
  assert.equal((await notes(guest)).length, 1, 'none once switched off');
  assert.deepEqual(pageErrors, []);
});

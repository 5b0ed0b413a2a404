// Browser test of the replay viewer's board for Jungle and Quoridor (the
// CrossyRay game, played by clicks, is history.test.mjs): two people
// finish a game over the room's own protocol (two sockets in a page:
// hello, sit, start, the first legal moves, a resignation); the replay
// (/g/ID), stepped to the end with the keyboard, draws at each move the
// position the server gives for it (Jungle: its position string;
// Quoridor: the state's pawns and walls).
//
//   SERVER_BIN=../target/debug/server node --test replay.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, siteForTests } from './harness.mjs';
import { boardShape, serverShape } from './boards.mjs';
import { playOverOn } from './play-over.mjs';

const site = siteForTests({ tag: 'replay' });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

/** Two people finish a game over the room protocol (play-over.mjs), on this file's site. */
const playOver = (page, ...rest) => playOverOn(site.base, page, ...rest);

const plyShown = (page, n) =>
  page.waitForFunction((k) => document.querySelector('[data-testid="board"]')?.dataset.ply === String(k), n);

/** Opens game `id`'s replay and steps it to the end with the arrow key, checking the board at each move. */
async function replayMatchesServer(page, game, id) {
  const stored = await (await fetch(`${site.base}/api/games/${id}`)).json();
  assert.equal(stored.positions.length, stored.moves.length + 1, `${game}: a position for the start and each move`);
  await page.goto(`${site.base}/g/${id}`);
  await plyShown(page, 0);
  for (let n = 0; n <= stored.moves.length; n++) {
    if (n > 0) {
      await page.keyboard.press('ArrowRight');
      await plyShown(page, n);
      assert.equal(await byId(page, 'board').getAttribute('data-last-move'), stored.moves[n - 1]);
    }
    assert.deepEqual(await boardShape(page, game), serverShape(game, stored.positions[n]), `${game}: the board at move ${n}`);
    const text = stored.positions[n].position ?? '';
    assert.equal(await byId(page, 'position-string-box').isVisible(), text !== '', `${game}: a position string only where the game has one`);
    if (text) assert.equal(await byId(page, 'position-string').textContent(), text);
  }
  assert.equal(await byId(page, 'board').getAttribute('data-over'), 'true');
  return stored;
}

// ---------------------------------------------------------------- tests

test('a Jungle replay draws the server\'s position string at every move', { timeout: 120_000 }, async () => {
  const page = await site.newPage('jungle');
  // Elephants and rats walk forward: pieces move, the last move is marked.
  const { id } = await playOver(page, 'jungle', 6, (legal, ply) => legal[ply % legal.length]);
  const stored = await replayMatchesServer(page, 'jungle', id);
  assert.equal(Object.keys((await boardShape(page, 'jungle')).pieces).length, 16);
  assert.notDeepEqual(serverShape('jungle', stored.positions[0]), serverShape('jungle', stored.positions[6]), 'the pieces moved');
  // Back to the start with Home: the usual start.
  await page.keyboard.press('Home');
  await plyShown(page, 0);
  assert.equal(await byId(page, 'position-string').textContent(), 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1');
  // Red's marks are red here as in the room (site.css), not the orange of another game's second side.
  const red = await page.locator('.swatch.side-1').first().evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(red, 'rgb(198, 40, 40)');
  assert.deepEqual(pageErrors, []);
});

test('a Quoridor replay draws the server\'s pawns and walls at every move', { timeout: 120_000 }, async () => {
  const page = await site.newPage('quoridor');
  // Pawn steps and walls in turn.
  const { id } = await playOver(page, 'quoridor', 6, (legal, ply) =>
    (ply % 3 === 2 ? legal.find((m) => /[hv]$/.test(m)) : legal[0]));
  const stored = await replayMatchesServer(page, 'quoridor', id);
  assert.equal(stored.positions[6].walls.length, 2, 'two walls were placed');
  assert.equal((await boardShape(page, 'quoridor')).walls.length, 2);
  assert.deepEqual(pageErrors, []);
});

test('a Quoridor game of three in which a player resigned replays past the leave to its end', { timeout: 120_000 }, async () => {
  const page = await site.newPage('quoridor-leave');
  await page.goto(`${site.base}/games`);
  // Three people over the room protocol: Lan (side 1) resigns after three
  // moves, Minh and Khoa play on, then Minh resigns and Khoa wins.
  const id = await page.evaluate(async () => {
    const res = await fetch('/api/rooms', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'quoridor', options: { players: 3 } }),
    });
    const { code, token } = await res.json();
    const connect = (tok, name) => new Promise((resolve, reject) => {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/${code}`);
      const answers = new Map();
      let last = null;
      let id = 0;
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === 'ack' || msg.type === 'error') answers.get(msg.id)?.(msg);
        if (msg.type === 'match') last = msg.match;
      };
      ws.onerror = () => reject(new Error('socket failed'));
      const send = (cmd) => new Promise((ok, fail) => {
        id += 1;
        answers.set(id, (m) => (m.type === 'ack' ? ok(m) : fail(new Error(`${cmd.type}: ${m.message}`))));
        ws.send(JSON.stringify({ id, ...cmd }));
      });
      ws.onopen = async () => {
        await send({ type: 'hello', token: tok, name });
        resolve({ send, last: () => last, close: () => ws.close() });
      };
    });
    const people = [await connect(token, 'Minh'), await connect(`lan-${crypto.randomUUID()}`, 'Lan'), await connect(`khoa-${crypto.randomUUID()}`, 'Khoa')];
    await people[0].send({ type: 'autostart', enabled: false });
    for (const [seat, p] of people.entries()) await p.send({ type: 'sit', seat });
    await people[0].send({ type: 'start', order: 'seats' });
    const script = [[0, 'e2'], [1, 'b5'], [2, 'e8'], [1, null], [0, 'e3'], [2, 'e7'], [0, 'e4'], [2, 'e6'], [0, null]];
    for (const [seat, move] of script) await people[seat].send(move ? { type: 'move', move } : { type: 'resign' });
    while (!people[2].last()?.outcome) await new Promise((r) => setTimeout(r, 20));
    const gameId = people[2].last().id;
    for (const p of people) p.close();
    return gameId;
  });
  const stored = await replayMatchesServer(page, 'quoridor', id);
  assert.deepEqual(stored.leaves, [{ ply: 3, sides: [1], reason: 'resign' }, { ply: 7, sides: [0], reason: 'resign' }]);
  assert.deepEqual(stored.outcome, { kind: 'win', winner: 2, reason: 'default' });
  assert.equal(await byId(page, 'board-stops').isVisible(), false, 'the board goes to the end');
  assert.equal(await byId(page, 'position').textContent(), 'Move 7 of 7: e6. Minh resigned.');
  // Back at move 3: Lan's pawn is gone, and the line says why.
  for (let n = 7; n > 3; n--) await page.keyboard.press('ArrowLeft');
  await plyShown(page, 3);
  assert.equal(await byId(page, 'position').textContent(), 'Move 3 of 7: e8. Lan resigned.');
  assert.equal(await byId(page, 'pawn-1').count(), 0, 'side 1 left');
  // Each move carries the colour of the side that played it, Lan's turn skipped.
  assert.deepEqual(await page.$$eval('[data-testid="moves"] li', (lis) => lis.map((li) => li.className.split(' ')[0])),
    ['qc-red', 'qc-yellow', 'qc-blue', 'qc-red', 'qc-blue', 'qc-red', 'qc-blue']);
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'position').filter({ hasText: 'Lan xin thua.' }).waitFor();
  // The export carries the leaves, and the import page opens it to the same end.
  const text = await (await fetch(`${site.base}/api/games/${id}/export`)).text();
  assert.match(text, /\n3\. e8\nside 1 leaves \(resign\)\n4\. e3\n/);
  await page.goto(`${site.base}/import`);
  await byId(page, 'import-text').fill(text);
  await byId(page, 'import-open').click();
  await plyShown(page, 0);
  await page.keyboard.press('End');
  await plyShown(page, 7);
  assert.deepEqual(await boardShape(page, 'quoridor'), serverShape('quoridor', stored.positions[7]));
  assert.deepEqual(pageErrors, []);
});

test('the import page opens a game from its text, and a bad text names its first bad line', { timeout: 120_000 }, async () => {
  const page = await site.newPage('import');
  const { id } = await playOver(page, 'crossyray', 4, (legal) => legal.find((m) => !m.startsWith('goal:')));
  const text = await (await fetch(`${site.base}/api/games/${id}/export`)).text();
  const stored = await (await fetch(`${site.base}/api/games/${id}`)).json();

  // From the games page, by its link; the text pasted; opened.
  await page.goto(`${site.base}/games`);
  await byId(page, 'import-link').click();
  await page.waitForURL(/\/import$/);
  await byId(page, 'import-text').fill(text);
  await byId(page, 'import-open').click();
  await byId(page, 'replay-title').filter({ hasText: 'CrossyRay, opened from text' }).waitFor();
  assert.equal(await byId(page, 'import-error').isVisible(), false);
  assert.equal(await byId(page, 'export').isVisible(), false, 'an imported game is not stored: no export link');
  assert.equal(await byId(page, 'replay-room').isVisible(), false);
  assert.equal(await byId(page, 'result').getAttribute('data-reason'), 'resign');
  // Its board, stepped by keyboard, is the stored game's at every move.
  await byId(page, 'step-forward').focus();
  for (let n = 0; n <= stored.moves.length; n++) {
    if (n > 0) await page.keyboard.press('ArrowRight');
    await plyShown(page, n);
    assert.deepEqual(await boardShape(page, 'crossyray'), serverShape('crossyray', stored.positions[n]), `imported, move ${n}`);
  }

  // A bad third move: our words, then the server's line and reason; the line is selected.
  const lines = text.split('\n');
  const bad = lines.findIndex((l) => l.startsWith('3. '));
  lines[bad] = '3. a1';
  await byId(page, 'import-text').fill(lines.join('\n'));
  await byId(page, 'import-open').click();
  const error = byId(page, 'import-error');
  await error.filter({ hasText: `That text is not a game that can be opened. (line ${bad + 1}: illegal move "a1"` }).waitFor();
  assert.equal(await byId(page, 'replay-main').isVisible(), false, 'the last game is no longer shown');
  assert.equal(await byId(page, 'import-text').getAttribute('aria-invalid'), 'true');
  const selected = await page.evaluate(() => {
    const a = document.querySelector('[data-testid="import-text"]');
    return a.value.slice(a.selectionStart, a.selectionEnd);
  });
  assert.equal(selected, '3. a1', 'the bad line is selected');

  // Not a game at all; then nothing pasted; in Vietnamese.
  await byId(page, 'import-text').fill('hello');
  await byId(page, 'import-open').click();
  await error.filter({ hasText: /^That text is not a game that can be opened\. \(line 1: / }).waitFor();
  // The words follow the language at once.
  await byId(page, 'lang').selectOption('vi');
  // The server's reason is English: the Vietnamese page names the line and its text instead.
  await error.filter({ hasText: 'Văn bản này không phải một ván mở được. (dòng 1: “hello”)' }).waitFor();
  await byId(page, 'import-text').fill('');
  await byId(page, 'import-open').click();
  await error.filter({ hasText: 'Hãy dán văn bản của một ván trước.' }).waitFor();
  await page.setViewportSize({ width: 360, height: 800 });
  await noHorizontalScroll(page, 'import page');
  assert.deepEqual(pageErrors, []);
});

test('a room\'s past games are paged, 20 a page, and follow a game that ends meanwhile', { timeout: 120_000 }, async () => {
  const page = await site.newPage('pages');
  const first = await playOver(page, 'crossyray', 0, (legal) => legal[0], { games: 21 });
  await page.goto(`${site.base}/r/${first.room.code}`);
  const entries = page.locator('[data-testid="past-games"] [data-testid="game-entry"]');
  await byId(page, 'past-page-info').filter({ hasText: 'Page 1 of 2' }).waitFor();
  assert.equal(await entries.count(), 20);
  assert.equal(await entries.first().getAttribute('data-id'), first.ids[20], 'newest first');
  assert.equal(await byId(page, 'past-prev').isDisabled(), true);
  // Older: the oldest game alone; Newer goes back.
  await byId(page, 'past-next').click();
  await byId(page, 'past-page-info').filter({ hasText: 'Page 2 of 2' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="past-games"] [data-testid="game-entry"]').length === 1);
  assert.equal(await entries.first().getAttribute('data-id'), first.ids[0]);
  assert.equal(await byId(page, 'past-next').isDisabled(), true);
  assert.equal(await byId(page, 'past-empty').isVisible(), false);
  await byId(page, 'past-prev').click();
  await byId(page, 'past-page-info').filter({ hasText: 'Page 1 of 2' }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="past-games"] [data-testid="game-entry"]').length === 20);
  // A game that ends while page 2 is shown: page 2 now holds the two oldest.
  await byId(page, 'past-next').click();
  await byId(page, 'past-page-info').filter({ hasText: 'Page 2 of 2' }).waitFor();
  const other = await site.newPage('players');
  await playOver(other, 'crossyray', 0, (legal) => legal[0], { room: first.room });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="past-games"] [data-testid="game-entry"]').length === 2);
  assert.deepEqual(await entries.evaluateAll((lis) => lis.map((li) => li.dataset.id)), [first.ids[1], first.ids[0]]);
  await page.setViewportSize({ width: 360, height: 800 });
  await noHorizontalScroll(page, 'room page with the past games pager');
  assert.deepEqual(pageErrors, []);
});

// Last in this file: it spends the address's imports (429 rate_limited).
test('the import page gives its own words for a refusal of no line and for a missing header, in both languages', { timeout: 120_000 }, async () => {
  const page = await site.newPage('import-words');
  await page.goto(`${site.base}/import`);
  const error = byId(page, 'import-error');
  const refused = async (text, words) => {
    await byId(page, 'import-text').fill(text);
    await byId(page, 'import-open').click();
    await error.filter({ hasText: words }).waitFor();
    assert.equal(await byId(page, 'import-text').getAttribute('aria-invalid'), 'true');
  };
  const notAGame = { en: 'That text is not a game that can be opened.', vi: 'Văn bản này không phải một ván mở được.' };
  // No [Game] header: reported on the blank line after the headers, which
  // says nothing by itself; the page says which header is missing.
  const noGame = '[Side0 "Minh"]\n[Side1 "Lan"]\n\n1. 8 a3-a4\n';
  const noResult = '[Game "jungle"]\n\n1. 8 a3-a4\n';
  await refused(noGame, `${notAGame.en} (line 3: the headers end here without a [Game "…"] header)`);
  await refused(noResult, `${notAGame.en} (line 2: the game is not over and the headers have no [Result "…"])`);
  await byId(page, 'lang').selectOption('vi');
  await error.filter({ hasText: `${notAGame.vi} (dòng 2: ván chưa kết thúc mà phần tiêu đề không có [Result "…"])` }).waitFor();
  await refused(noGame, `${notAGame.vi} (dòng 3: phần tiêu đề kết thúc ở đây mà không có tiêu đề [Game "…"])`);

  // 413 too_large (more than 1000 moves), a refusal of no line: in
  // Vietnamese our words alone, never the server's English message.
  const tooLong = `[Game "jungle"]\n\n${Array.from({ length: 1001 }, (_, i) => `${i + 1}. 8 a3-a4`).join('\n')}\n`;
  assert.ok(tooLong.length < 16 * 1024, 'under the body limit: refused for its moves');
  const tooLarge = { en: 'That was too large for the server; nothing changed.', vi: 'Yêu cầu quá lớn đối với máy chủ; chưa có gì thay đổi.' };
  await byId(page, 'import-text').fill(tooLong);
  await byId(page, 'import-open').click();
  await error.filter({ hasText: tooLarge.vi }).waitFor();
  assert.equal(await error.textContent(), tooLarge.vi);
  await byId(page, 'lang').selectOption('en');
  await error.filter({ hasText: `${tooLarge.en} (An import has at most 1000 moves` }).waitFor();

  // 429 rate_limited once the address's imports are spent.
  for (let i = 0; i < 40; i++) {
    const r = await page.request.post(`${site.base}/api/games/import`, { headers: { 'Content-Type': 'text/plain' }, data: noResult });
    if (r.status() === 429) break;
  }
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'import-text').fill(noResult);
  await byId(page, 'import-open').click();
  const limited = 'Bạn thao tác quá nhanh; hãy đợi một lát rồi thử lại.';
  await error.filter({ hasText: limited }).waitFor();
  assert.equal(await error.textContent(), limited);
  await byId(page, 'lang').selectOption('en');
  assert.deepEqual(pageErrors, []);
});

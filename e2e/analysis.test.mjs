// Browser test of the analysis of a finished game (issue 28): for each
// game, two people finish a short game over the room protocol
// (play-over.mjs); its replay (/g/ID) asks for the analysis by its
// button and follows the server's events to the end; the graph has a
// point per position, the move list the marks of the graded moves, the
// summary a row per player; a point jumps the replay to its ply; the
// engine's move of the shown position, drawn on the board, is one of its
// legal moves (GET /api/position). An imported game is analysed from its
// text (a four-pawn Quoridor game: a line per pawn); the room's end-of-game link opens /g/ID#analysis, which asks at
// once; a refusal is shown in words; one check in Vietnamese. The server
// spends 30 ms a position (--analysis-ms).
//
//   SERVER_BIN=../target/debug/server node --test analysis.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, noHorizontalScroll, siteForTests } from './harness.mjs';
import { playOverOn } from './play-over.mjs';

const site = siteForTests({ tag: 'analysis', args: ['--analysis-ms', '30'] });
const { pageErrors } = site;

const LONG = 60_000; // an analysis's end, at most
const api = async (path) => (await fetch(`${site.base}${path}`)).json();
const plyShown = (page, n) =>
  page.waitForFunction((k) => document.querySelector('[data-testid="position"]')?.dataset.ply === String(k), n);

/** Waits until the page's progress line says the analysis of all `total` moves is done. */
async function waitDone(page, total) {
  await page.waitForFunction((n) => {
    const p = document.querySelector('[data-testid="analysis-progress"]');
    return p && !p.hidden && p.dataset.status === 'done' && p.dataset.analysed === String(n) && p.dataset.total === String(n);
  }, total, { timeout: LONG });
}

/** The marks of the move list: {ply: grade}, with each mark's class and its item's data-grade checked. */
function marksOf(page) {
  return page.$$eval('[data-testid="moves"] li', (lis) => Object.fromEntries(lis.flatMap((li) => {
    const mark = li.querySelector('[data-testid^="grade-mark-"]');
    if (!mark) return li.dataset.grade ? [[li.dataset.ply, 'no mark but data-grade']] : [];
    const grade = li.dataset.grade;
    const ok = mark.dataset.testid === `grade-mark-${li.dataset.ply}` && mark.classList.contains(grade) && mark.title.length > 0;
    return [[li.dataset.ply, ok ? grade : `bad mark ${mark.outerHTML}`]];
  })));
}

/** What the server graded: {ply: grade} of the moves with a grade. */
const gradedBy = (a) => Object.fromEntries(a.moves.filter((m) => m.grade).map((m) => [String(m.ply), m.grade]));

/**
 * On `page`, showing game `stored` analysed as `a`: a click on the graph's
 * point `n` shows ply `n`; with the hint on, the board's ghost is the
 * engine's move there, one of the position's legal moves; it follows the
 * replay to the next ply and goes with the toggle.
 */
async function checkPointAndHint(page, stored, a, n) {
  await byId(page, `graph-point-${n}`).click();
  await plyShown(page, n);
  assert.equal(await byId(page, 'board').getAttribute('data-ply'), String(n));
  assert.match(await byId(page, `graph-point-${n}`).getAttribute('class'), /\bcurrent\b/);
  await byId(page, 'hint').check();
  const best = a.positions[n].best;
  assert.ok(best, `a best move at ply ${n}`);
  const ghost = page.locator('[data-testid="board"] [data-testid="hint-ghost"]');
  await ghost.waitFor();
  assert.equal(await ghost.getAttribute('data-move'), best);
  const query = new URLSearchParams({ game: stored.game, options: JSON.stringify(stored.options ?? {}), moves: stored.moves.slice(0, n).join(',') });
  const position = await api(`/api/position?${query}`);
  assert.ok(position.legal.includes(best), `${stored.game}: the hint ${best} is legal at ply ${n} (${position.legal.slice(0, 12)})`);
  assert.equal(await byId(page, 'hint-move').getAttribute('data-move'), best);
  // Drawn as the move is: a ghost wall or pawn (Quoridor), the squares
  // framed (Jungle), the ray's target (CrossyRay), with an arrow but for a wall.
  const shape = { crossyray: '.hint-target', jungle: '.hint-from', quoridor: /[hv]$/.test(best) ? '.hint-wall' : best === 'pass' ? '.hint-ring' : '.hint-pawn' }[stored.game];
  assert.equal(await ghost.locator(shape).count(), 1, `${stored.game}: ${best} drawn as ${shape}`);
  assert.equal(await ghost.locator('.hint-head').count(), shape === '.hint-wall' || shape === '.hint-ring' ? 0 : 1);
  // One move on (the board drawn again): the ghost is that position's move.
  await page.keyboard.press('ArrowRight');
  await plyShown(page, n + 1);
  const next = a.positions[n + 1]?.best ?? null;
  if (next) await page.waitForFunction((m) => document.querySelector('[data-testid="hint-ghost"]')?.dataset.move === m, next);
  else await ghost.waitFor({ state: 'detached' });
  await byId(page, 'hint').uncheck();
  await ghost.waitFor({ state: 'detached' });
}

/** Analyses finished game `id` from its replay page's button, and checks what the page shows. */
async function analyseReplay(page, id, { graded = false } = {}) {
  const stored = await api(`/api/games/${id}`);
  assert.equal(stored.analysis, null, 'nobody asked yet');
  // A game nobody had analysed: the page asks nothing of the analysis API (no 404 in the console).
  const reads = [];
  const heard = (r) => { if (r.url().includes('/api/analysis/')) reads.push(r.url()); };
  page.on('request', heard);
  await page.goto(`${site.base}/g/${id}`);
  await plyShown(page, 0);
  assert.equal(await byId(page, 'analysis-graph').isVisible(), false, 'no graph before the analysis');
  page.off('request', heard);
  assert.deepEqual(reads, []);
  await byId(page, 'analyse').click();
  await waitDone(page, stored.moves.length);
  const a = await api(`/api/analysis/${id}`);
  assert.equal(a.status, 'done');
  assert.equal(a.positions.length, stored.positions.length, 'a position analysed per position of the game');
  // The graph: a point per position, in ply order.
  const points = await page.$$eval('[data-testid="analysis-graph"] [data-testid^="graph-point-"]', (ps) => ps.map((p) => p.dataset.testid));
  assert.deepEqual(points, stored.positions.map((_, n) => `graph-point-${n}`));
  // The marks: the server's grades, move by move.
  assert.deepEqual(await marksOf(page), gradedBy(a));
  if (graded) assert.ok(Object.keys(gradedBy(a)).length > 0, `${stored.game}: a move of this game is graded`);
  // The summary: a row per side, in the page's names, with the server's figures.
  const rows = byId(page, 'summary-row');
  assert.equal(await rows.count(), a.players.length);
  for (const p of a.players) {
    const row = page.locator(`[data-testid="summary-row"][data-side="${p.side}"]`);
    assert.equal(await row.locator('td').first().textContent(), ['Minh', 'Lan'][p.side]);
    assert.equal(await row.locator('[data-testid="summary-blunders"]').textContent(), String(p.blunders));
    assert.equal(await row.locator('[data-testid="summary-mistakes"]').textContent(), String(p.mistakes));
    assert.equal(await row.locator('[data-testid="summary-inaccuracies"]').textContent(), String(p.inaccuracies));
    assert.equal(await row.locator('[data-testid="summary-accuracy"]').textContent(), p.accuracy == null ? '–' : `${p.accuracy}\u00a0%`);
  }
  await checkPointAndHint(page, stored, a, Math.floor(stored.moves.length / 2));
  return { stored, a };
}

test('a CrossyRay game: the own goal is marked, the graph jumps, the hint is a legal move; the room links to it', { timeout: 120_000 }, async () => {
  const page = await site.newPage('crossyray');
  // Numbers placed away from the goals until a side may send the ray
  // into its own goal, and does: a lost game, a graded move.
  const { id, room } = await playOverOn(site.base, page, 'crossyray', 40, (legal, ply) => {
    const own = ply % 2 ? 'goal:right' : 'goal:left';
    return ply >= 2 && legal.includes(own) ? own : legal.find((m) => !m.startsWith('goal:'));
  });
  const { stored, a } = await analyseReplay(page, id, { graded: true });
  assert.equal(stored.outcome.reason, 'own_goal', 'the game ended in an own goal');
  assert.ok(a.moves[a.moves.length - 1].grade, 'the own goal is graded');
  assert.equal(a.positions[a.positions.length - 1].best, null, 'no move after the end');
  // The room's result links to the analysis.
  await page.goto(`${site.base}/`);
  await page.evaluate((token) => localStorage.setItem('bg.token', token), room.tokens[0]);
  await page.goto(`${site.base}/r/${room.code}`);
  const link = byId(page, 'analyse-game');
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), `/g/${id}#analysis`);
  await link.click();
  await page.waitForURL(new RegExp(`/g/${id}#analysis$`));
  await waitDone(page, stored.moves.length);
  assert.equal(await byId(page, 'analyse').isVisible(), false, 'the done analysis is shown, no button');
  assert.deepEqual(pageErrors, []);
});

test('a Jungle game, analysed from its room\'s link at once, in Vietnamese, and at 360 px', { timeout: 120_000 }, async () => {
  const page = await site.newPage('jungle');
  const { id, room } = await playOverOn(site.base, page, 'jungle', 8, (legal, ply) => legal[ply % legal.length]);
  const stored = await api(`/api/games/${id}`);
  // The room's end-of-game link: the replay asks for the analysis itself.
  await page.goto(`${site.base}/`);
  await page.evaluate((token) => localStorage.setItem('bg.token', token), room.tokens[1]);
  await page.goto(`${site.base}/r/${room.code}`);
  await byId(page, 'analyse-game').click();
  await page.waitForURL(/#analysis$/);
  await waitDone(page, stored.moves.length);
  const a = await api(`/api/analysis/${id}`);
  assert.deepEqual(await marksOf(page), gradedBy(a));
  assert.equal(await page.locator('[data-testid^="graph-point-"]').count(), stored.positions.length);
  await checkPointAndHint(page, stored, a, 3);
  // In Vietnamese: the progress, the summary's heads, a mark's words.
  await byId(page, 'lang').selectOption('vi');
  await byId(page, 'analysis-progress').filter({ hasText: `Đã phân tích ${stored.moves.length}/${stored.moves.length} nước: xong.` }).waitFor();
  assert.match(await byId(page, 'analysis-summary').textContent(), /Độ chính xác.*Thiếu chính xác.*Sai lầm.*Sai lầm nghiêm trọng/s);
  await byId(page, 'hint').check();
  await byId(page, 'hint-move').filter({ hasText: /^Gợi ý của máy: / }).waitFor();
  await page.setViewportSize({ width: 360, height: 800 });
  await noHorizontalScroll(page, 'replay page with its analysis');
  // The graph is reached by the keyboard: the shown ply's point takes the focus.
  await page.locator('[data-testid="analysis-graph"] .ag-point.current').focus();
  await page.keyboard.press('ArrowRight');
  await plyShown(page, 5);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'graph-point-5');
  assert.deepEqual(pageErrors, []);
});

test('a Quoridor game is analysed from its replay; the graph and the hint\'s ghost wall or pawn', { timeout: 120_000 }, async () => {
  const page = await site.newPage('quoridor');
  const { id } = await playOverOn(site.base, page, 'quoridor', 8, (legal, ply) =>
    (ply % 3 === 2 ? legal.find((m) => /[hv]$/.test(m)) : legal[0]));
  await analyseReplay(page, id);
  assert.deepEqual(pageErrors, []);
});

test('a four-pawn Quoridor game, imported: a line per pawn in its colour, a summary row per player', { timeout: 120_000 }, async () => {
  const page = await site.newPage('four');
  // Lan resigns after eight moves, Khoa and Mai after eleven: Minh wins.
  const moves = ['e2', 'b5', 'e8', 'h5', 'e3', 'c5', 'e7', 'g5', 'e4', 'e6', 'f5'];
  const lines = moves.map((m, i) => `${i + 1}. ${m}`);
  lines.splice(8, 0, 'side 1 leaves (resign)');
  const text = ['[Game "quoridor"]', '[Options "{\\"players\\":4}"]', '[Side0 "Minh"]', '[Side1 "Lan"]', '[Side2 "Khoa"]', '[Side3 "Mai"]', '',
    ...lines, 'side 2 leaves (resign)', 'side 3 leaves (resign)', ''].join('\n');
  await page.goto(`${site.base}/import`);
  await byId(page, 'import-text').fill(text);
  await byId(page, 'import-open').click();
  await plyShown(page, 0);
  await byId(page, 'analyse').click();
  await waitDone(page, moves.length);
  const colours = await page.$$eval('[data-testid="analysis-graph"] .ag-line', (ls) => ls.map((l) => `${l.dataset.side} ${l.getAttribute('class')}`));
  assert.deepEqual(colours, ['0 ag-line qc-red', '1 ag-line qc-yellow', '2 ag-line qc-blue', '3 ag-line qc-green']);
  assert.equal(await page.locator('[data-testid^="graph-point-"]').count(), moves.length + 1);
  const names = await page.$$eval('[data-testid="summary-row"] td.who', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names, ['Minh', 'Lan', 'Khoa', 'Mai']);
  // At move 9 Lan's pawn is gone: her chance there is 0.
  await byId(page, 'graph-point-9').click();
  await plyShown(page, 9);
  await byId(page, 'analysis-eval').filter({ hasText: /Lan 0\u00a0%/ }).waitFor();
  assert.deepEqual(pageErrors, []);
});

test('an imported game is analysed from its text; a refusal is shown in words', { timeout: 120_000 }, async () => {
  const page = await site.newPage('import');
  const { id } = await playOverOn(site.base, page, 'quoridor', 6, (legal) => legal[0]);
  const text = await (await fetch(`${site.base}/api/games/${id}/export`)).text();
  await page.goto(`${site.base}/import`);
  await byId(page, 'import-text').fill(text);
  await byId(page, 'import-open').click();
  await plyShown(page, 0);
  await byId(page, 'analyse').click();
  await waitDone(page, 6);
  assert.equal(await page.locator('[data-testid^="graph-point-"]').count(), 7);
  assert.equal(await byId(page, 'summary-row').count(), 2);
  await byId(page, 'graph-point-4').click();
  await plyShown(page, 4);
  await byId(page, 'hint').check();
  const move = await page.locator('[data-testid="board"] [data-testid="hint-ghost"]').getAttribute('data-move');
  const stored = await api(`/api/games/${id}`);
  const position = await api(`/api/position?${new URLSearchParams({ game: 'quoridor', moves: stored.moves.slice(0, 4).join(',') })}`);
  assert.ok(position.legal.includes(move), `the imported game's hint ${move} is legal`);

  // Two analyses of this address under way: a third is refused, in words
  // (the file's last test: those two run on after it).
  const long = [];
  for (let k = 0; k < 3; k++) long.push((await playOverOn(site.base, page, 'jungle', 40, (legal, ply) => legal[ply % legal.length])).id);
  await page.goto(`${site.base}/g/${long[2]}`);
  await plyShown(page, 0);
  const codes = await page.evaluate(async (ids) => Promise.all(ids.map(async (x) => (await fetch(`/api/games/${x}/analysis`, { method: 'POST' })).status)), long.slice(0, 2));
  assert.deepEqual(codes, [200, 200]);
  await byId(page, 'analyse').click();
  await byId(page, 'analysis-error').filter({ hasText: 'You already have two analyses waiting or running' }).waitFor();
  assert.equal(await byId(page, 'analyse').isVisible(), true, 'the button stays, to ask again');
  assert.deepEqual(pageErrors, []);
});

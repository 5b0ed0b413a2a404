// Browser test of knockout tournaments: the real server binary (with
// `--autostart-secs 4`: the next round starts 4 s after the last match of
// a round), Debian's chromium driven by playwright-core.
//
//   SERVER_BIN=../target/debug/server node --test knockout.test.mjs
//
// 1. Four people play a CrossyRay tournament: the host switches the room
//    to knockout, everyone sits (the seats grow), the host starts; the
//    bracket shows two semi-finals, each player their own board; a match
//    ends and the bracket says so; the knocked-out player opens the other
//    match from the bracket (click, then keyboard) and sees its moves as
//    they are played (a player of that match reloads and is back on
//    their board); the final starts by itself; the champion is shown
//    to everyone and the scoreboard has 3 a match won and 10 for the
//    champion. A 360 px phone watches without horizontal scroll.
// 2. In the same room three players, one with a bye; between rounds the
//    host stops the tournament.
// 3. A Quoridor tournament with a one-move limit (every game is drawn):
//    the replay, then the coin toss that everyone sees; the host pauses
//    the countdown and starts the final; a second coin toss, the champion.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardFacts, byId, mover, noHorizontalScroll, setName, sit, siteForTests, STEP_MS, until } from './harness.mjs';

const site = siteForTests({ tag: 'knockout', args: ['--autostart-secs', '4'] });
const { pageErrors } = site;

// ---------------------------------------------------------------- helpers

const newPage = (label, options) => site.newPage(label, options);
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** Online, the room drawn (the board may be hidden behind the bracket). */
async function waitOnline(page) {
  await page.waitForSelector('[data-testid="conn-status"][data-state="online"]');
  await page.waitForSelector('#room-main:not([hidden])');
}

async function join(label, code, name, options) {
  const page = await newPage(label, options);
  await page.goto(`${site.base}/r/${code}`);
  await waitOnline(page);
  if (name) await setName(page, name);
  page.who = name;
  return page;
}

const optionValues = (page, id) => page.$$eval(`[data-testid="${id}"] option`, (os) => os.map((o) => o.value));

/** The seats the page lists, by number. */
const seatList = (page) => page.$$eval('#seats > li.seat', (ls) => ls.map((l) => Number(l.dataset.testid.slice(5))));

/** The bracket as the page draws it. */
function bracketInfo(page) {
  return page.evaluate(() => {
    const box = document.querySelector('[data-testid="bracket"]');
    const rounds = [...box.querySelectorAll('[data-testid="bracket-round"]')].map((r) => ({
      number: Number(r.dataset.round),
      current: r.dataset.current === 'true',
      planned: r.dataset.planned === 'true',
      title: r.querySelector('h3').textContent,
      bye: r.querySelector('[data-testid="bracket-bye"]')?.textContent ?? null,
      matches: [...r.querySelectorAll('[data-testid="bracket-match"]')].map((m) => ({
        table: m.dataset.table,
        state: m.dataset.state,
        mine: m.dataset.mine === 'true',
        text: m.querySelector('[data-testid="bm-state"]').textContent,
        spectators: m.querySelector('[data-testid="bm-spectators"]')?.dataset.n ?? null,
        watch: m.querySelector('[data-testid="watch"]')?.textContent ?? null,
        players: [...m.querySelectorAll('[data-testid="bm-player"]')].map((p) => ({
          name: p.querySelector('.bm-name').textContent,
          score: Number(p.querySelector('[data-testid="bm-score"]').textContent),
          winner: p.dataset.winner === 'true',
        })),
      })),
    }));
    return {
      shown: !document.querySelector('[data-testid="bracket-panel"]').hidden,
      status: box.dataset.status,
      statusText: document.querySelector('[data-testid="bracket-status"]').textContent,
      champion: document.querySelector('[data-testid="bracket-champion"]')?.textContent ?? null,
      rounds,
    };
  });
}

/** Polls `bracketInfo` until `ok(info)`. */
const waitBracket = (page, ok, what) => until(() => bracketInfo(page), ok, `${page.label}: ${what}`);

const currentRound = (info) => info.rounds.find((r) => r.current);
const matchWith = (info, name) => info.rounds.flatMap((r) => r.matches).find((m) => m.players.some((p) => p.name === name));

/** Board facts as the page shows them. */
function boardInfo(page) {
  return boardFacts(page, (b) => ({
    visible: b.offsetParent !== null,
    legal: [...b.querySelectorAll('[data-legal="true"]')].map((e) => ({ testid: e.dataset.testid, move: e.dataset.target })),
    targets: [...b.querySelectorAll('[data-target]')].map((e) => e.dataset.target),
    moves: document.querySelectorAll('[data-testid="move"]').length,
  }));
}

/** Polls `boardInfo` until `ok(info)`. */
const waitBoard = (page, ok, what) => until(() => boardInfo(page), ok, `${page.label}: ${what}`);

/** A CrossyRay move by clicking a marked cell (never a goal: the game goes on). */
async function playCrossyRay(players, watchers = []) {
  const { page, info } = await mover(players, boardInfo);
  const target = info.legal.find((l) => !l.move.startsWith('goal:'));
  assert.ok(target, 'a marked cell to play');
  await byId(page, target.testid).click();
  for (const p of [...players, ...watchers]) await waitBoard(p, (i) => i.ply === info.ply + 1, `ply ${info.ply + 1}`);
  return target.move;
}

/** A Quoridor pawn step by clicking a marked cell. */
async function playQuoridor(players) {
  const { page, info } = await mover(players, boardInfo);
  assert.ok(info.targets.length > 0, 'the pawn has marked targets');
  await byId(page, `cell-${info.targets[0]}`).click();
  // The move that draws a game is followed at once by the replay (ply 0 again).
  await waitBoard(page, (i) => i.ply !== info.ply || !i.myTurn, 'the move played');
}

/** Resign (two clicks); the result shows, or the bracket when that ended the tournament. */
async function resign(page) {
  await byId(page, 'resign').click();
  await byId(page, 'resign').click();
  await page.locator('[data-testid="result"]:not([hidden]), [data-testid="bracket-panel"]:not([hidden])').first().waitFor();
}

/** "Your match, Semi-finals: An vs Bình" → ['An', 'Bình'] (waits for it). */
async function ownMatch(page, round) {
  await page.waitForFunction(
    (r) => new RegExp(`^Your match, ${r}: `).test(document.querySelector('[data-testid="watch-title"]')?.textContent ?? ''),
    round,
  );
  assert.equal(await byId(page, 'bracket-panel').isVisible(), false, `${page.label}: the board, not the bracket`);
  assert.equal(await byId(page, 'board').isVisible(), true);
  const text = await byId(page, 'watch-title').textContent();
  return text.replace(/^[^:]*: /, '').split(' vs ');
}

/** The scoreboard: name → [points, wins, draws, losses]. */
function scores(page) {
  return page.$$eval('[data-testid="score-row"]', (rows) => Object.fromEntries(rows.map((r) => {
    const cells = [...r.querySelectorAll('td')].map((td) => td.textContent.trim());
    return [cells[0], cells.slice(1).map(Number)];
  })));
}

async function waitScores(page, want) {
  await page.waitForFunction((w) => {
    const rows = [...document.querySelectorAll('[data-testid="score-row"]')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent.trim()));
    const got = Object.fromEntries(rows.map((c) => [c[0], c.slice(1).map(Number)]));
    return Object.entries(w).every(([n, v]) => JSON.stringify(got[n]) === JSON.stringify(v));
  }, want).catch(async () => {
    const got = await scores(page);
    for (const [name, row] of Object.entries(want)) assert.deepEqual(got[name], row, `${name}'s row on the scoreboard`);
  });
}

function assertNoPageErrors() {
  assert.deepEqual(pageErrors, [], 'no uncaught errors in any page');
}

// ---------------------------------------------------------------- tests

let room; // what the second test goes on with

test('four players: a CrossyRay knockout tournament from the switch to the champion, watched on a phone', { timeout: 300_000 }, async () => {
  const host = await newPage('host');
  await host.goto(`${site.base}/`);
  // The home page offers the modes of each game.
  assert.deepEqual(await optionValues(host, 'create-mode'), ['single', 'knockout']);
  assert.deepEqual(await host.$$eval('[data-testid="create-mode"] option', (os) => os.map((o) => o.textContent)), ['Single game', 'Knockout tournament']);
  await byId(host, 'create-game').selectOption('quoridor');
  assert.deepEqual(await optionValues(host, 'create-mode'), ['ffa', 'teams', 'knockout']);
  await byId(host, 'create-mode').selectOption('knockout');
  assert.equal(await byId(host, 'create-players').isDisabled(), true, 'a tournament match is a two-pawn game');
  await byId(host, 'create-game').selectOption('jungle');
  assert.equal(await byId(host, 'create-mode').inputValue(), 'knockout', 'knockout stays chosen across games');
  await byId(host, 'create-game').selectOption('crossyray');
  await byId(host, 'create-mode').selectOption('single');
  await byId(host, 'create-room').click();
  await host.waitForURL(/\/r\/[A-HJ-NP-Z2-9]{6}$/);
  const code = new URL(host.url()).pathname.slice(3);
  await waitOnline(host);
  await setName(host, 'An');
  host.who = 'An';
  assert.deepEqual(await seatList(host), [0, 1], 'a single game has two seats');
  assert.equal(await byId(host, 'bracket-panel').isVisible(), false);

  // The host switches the room to a knockout tournament.
  assert.deepEqual(await optionValues(host, 'opt-mode'), ['single', 'knockout']);
  await byId(host, 'opt-mode').selectOption('knockout');
  await byId(host, 'options-save').click();
  await host.waitForFunction(() => /^CrossyRay: Knockout tournament, 9 × 7/.test(document.querySelector('[data-testid="options-summary"]')?.textContent ?? ''));
  assert.deepEqual(await seatList(host), [0], 'seats grow with the room: one free seat');
  assert.match(await byId(host, 'seats-hint').textContent(), /3 to 32 players/);
  await byId(host, 'bracket-panel').waitFor();
  assert.match(await byId(host, 'bracket-status').textContent(), /Everyone seated when the host starts enters/);
  assert.equal(await byId(host, 'board').isVisible(), false, 'no board before the tournament');

  await sit(host, 0, 'An');
  assert.deepEqual(await seatList(host), [0, 1]);
  const guests = [];
  for (const [i, name] of ['Bình', 'Chi', 'Dũng'].entries()) {
    const g = await join(`guest${i + 1}`, code, name);
    assert.match(await byId(g, 'options-summary').textContent(), /Knockout tournament/);
    await sit(g, i + 1, name);
    guests.push(g);
    if (i === 0) {
      assert.equal(await byId(host, 'start').isVisible(), false, 'two players are not a tournament');
      assert.match(await byId(host, 'game-hint').textContent(), /at least 3 seated players/);
    }
  }
  await host.waitForFunction(() => document.querySelectorAll('#seats > li.seat').length === 5);
  assert.deepEqual(await seatList(host), [0, 1, 2, 3, 4]);
  const phone = await join('phone', code, null, PHONE);
  const players = [host, ...guests];
  const everyone = [...players, phone];
  const byName = (name) => players.find((p) => p.who === name);

  // The host starts: two semi-finals at once, each player on their own board.
  await byId(host, 'start').waitFor();
  assert.equal(await byId(host, 'start').textContent(), 'Start the tournament');
  assert.equal(await byId(host, 'start-order-box').isVisible(), false, 'the pairings say who moves first');
  assert.equal(await byId(guests[0], 'start').isVisible(), false, 'only the host starts');
  await byId(host, 'start').click();
  const pairs = new Map();
  for (const p of players) {
    const [a, b] = await ownMatch(p, 'Semi-finals');
    assert.ok([a, b].includes(p.who), `${p.who} plays in ${a} vs ${b}`);
    assert.notEqual((await boardInfo(p)).mySide, null);
    pairs.set(p.who, a === p.who ? b : a);
  }
  const opponent = (page) => byName(pairs.get(page.who));
  const hostOpp = opponent(host);
  const [b1, b2] = players.filter((p) => p !== host && p !== hostOpp);
  assert.equal(pairs.get(b1.who), b2.who);

  // Everyone else sees the bracket: two matches playing, a final to come.
  let info = await waitBracket(phone, (i) => i.shown && currentRound(i)?.matches.length === 2 && currentRound(i).matches.every((m) => m.state === 'playing'), 'two semi-finals playing');
  assert.deepEqual(info.rounds.map((r) => [r.title, r.current, r.planned]), [['Semi-finals', true, false], ['Final', false, true]]);
  assert.match(info.statusText, /Now playing: Semi-finals \(4 players entered\)/);
  assert.deepEqual(currentRound(info).matches.map((m) => m.spectators), ['3', '3'], 'per table: the other two players and the phone');
  assert.ok(currentRound(info).matches.every((m) => m.watch === 'Watch'));
  assert.equal(await byId(phone, 'board').isVisible(), false, 'a spectator sees the bracket first');
  await noHorizontalScroll(phone, 'the bracket on a phone');
  const columns = await phone.$$eval('[data-testid="bracket-round"]', (rs) => rs.map((r) => r.getBoundingClientRect()).map((b) => ({ x: Math.round(b.x), right: b.right })));
  assert.equal(new Set(columns.map((c) => c.x)).size, 1, 'the rounds are stacked on a phone');
  assert.ok(columns.every((c) => c.right <= 360), 'and fit its width');

  // A player can look at the bracket too: their own match first.
  await byId(host, 'bracket-back').click();
  info = await waitBracket(host, (i) => i.shown, 'the host\'s bracket');
  assert.equal(currentRound(info).matches[0].mine, true, 'the host\'s own match first');
  assert.equal(currentRound(info).matches[0].watch, 'Your match');
  await host.locator(`[data-testid="watch"][data-table="${currentRound(info).matches[0].table}"]`).click();
  await ownMatch(host, 'Semi-finals');

  // Semi-final A: two moves, then the host's opponent resigns.
  await playCrossyRay([host, hostOpp]);
  await playCrossyRay([host, hostOpp]);
  await resign(hostOpp);
  assert.match(await byId(host, 'result').textContent(), /You win!/);
  assert.match(await byId(hostOpp, 'result').textContent(), /You lose\./);
  info = await waitBracket(phone, (i) => matchWith(i, host.who)?.state === 'won', 'semi-final A won on the phone');
  let a = matchWith(info, host.who);
  assert.equal(a.text, 'An wins');
  assert.deepEqual(a.players.map((p) => [p.name, p.score, p.winner]).sort(), [['An', 1, true], [hostOpp.who, 0, false]].sort());
  assert.equal(matchWith(info, b1.who).state, 'playing', 'the other semi-final goes on');

  // The knocked-out player goes to the bracket and opens the other match.
  await byId(hostOpp, 'bracket-back').click();
  info = await waitBracket(hostOpp, (i) => i.shown, 'the loser\'s bracket');
  assert.equal(await byId(hostOpp, 'bracket-note').textContent(), 'You are out of the tournament: open any match to watch it.');
  a = matchWith(info, host.who);
  assert.equal(a.mine, true);
  assert.equal(a.watch, 'Show the board', 'a finished board can be shown again');
  const other = matchWith(info, b1.who);
  await hostOpp.locator(`[data-testid="watch"][data-table="${other.table}"]`).click();
  await hostOpp.waitForFunction(() => /^Watching Semi-finals: /.test(document.querySelector('[data-testid="watch-title"]')?.textContent ?? ''));
  assert.match(await byId(hostOpp, 'watch-title').textContent(), new RegExp(`${b1.who}|${b2.who}`));
  let seen = await boardInfo(hostOpp);
  assert.equal(seen.visible, true);
  assert.equal(seen.mySide, null, 'watching, not playing');
  assert.equal(seen.ply, 0);
  assert.equal(await byId(hostOpp, 'resign').isVisible(), false);
  assert.equal(await byId(hostOpp, 'result').isVisible(), false, 'the result of the loser\'s own match is not on this board');

  // A player of semi-final B reloads: back on their own board.
  await b1.reload();
  await waitOnline(b1);
  await ownMatch(b1, 'Semi-finals');

  // Semi-final B is played move by move under the watcher's eyes.
  for (let n = 1; n <= 3; n++) {
    const move = await playCrossyRay([b1, b2], [hostOpp]);
    seen = await boardInfo(hostOpp);
    assert.equal(seen.lastMove, move, `the watcher sees move ${n}`);
    assert.equal(seen.moves, n, 'and the move list');
  }
  // Back to the bracket, and in again with the keyboard.
  await byId(hostOpp, 'bracket-back').click();
  info = await waitBracket(hostOpp, (i) => i.shown, 'back on the bracket');
  assert.equal(matchWith(info, b1.who).text, 'Playing · moves: 3');
  assert.equal(await hostOpp.evaluate(() => document.activeElement?.dataset.testid), 'watch', 'the focus is back on the match\'s button');
  await hostOpp.locator(`[data-testid="watch"][data-table="${other.table}"]`).focus();
  await hostOpp.keyboard.press('Enter');
  await byId(hostOpp, 'watch-bar').waitFor();
  await waitBoard(hostOpp, (i) => i.visible && i.ply === 3, 'the watched board');
  assert.equal(await hostOpp.evaluate(() => document.activeElement?.dataset.testid), 'bracket-back');
  await playCrossyRay([b1, b2], [hostOpp]);

  // Semi-final B ends; between rounds the countdown runs, then the final starts by itself.
  const winnerB = b1;
  const loserB = b2;
  await resign(loserB);
  await waitBoard(hostOpp, (i) => i.ply === 4, 'the last move');
  await byId(hostOpp, 'result').waitFor({ state: 'visible' });
  await byId(phone, 'countdown').waitFor({ state: 'visible' });
  assert.match(await byId(phone, 'countdown-text').textContent(), /Next round in \d+ s/);
  const [fa, fb] = await ownMatch(host, 'Final');
  assert.deepEqual([fa, fb].sort(), [host.who, winnerB.who].sort());
  await ownMatch(winnerB, 'Final');
  // The watched table is gone: the watcher is back on the bracket, where the final plays.
  for (const p of [hostOpp, loserB, phone]) {
    info = await waitBracket(p, (i) => i.shown && currentRound(i)?.number === 2 && currentRound(i).matches[0]?.state === 'playing', 'the final playing');
    assert.equal(currentRound(info).title, 'Final');
    assert.equal(info.rounds[0].matches.every((m) => m.state === 'won'), true);
    assert.equal(info.rounds[0].matches.every((m) => m.spectators === null && m.watch === null), true, 'the semi-finals\' tables are gone');
  }
  assert.equal(await byId(phone, 'countdown').isVisible(), false);

  // The final: a move each, then the host resigns; everyone sees the champion.
  await playCrossyRay([host, winnerB]);
  await playCrossyRay([host, winnerB]);
  await resign(host);
  for (const p of everyone) {
    info = await waitBracket(p, (i) => i.shown && i.status === 'finished', 'the champion');
    assert.equal(info.champion, `Champion${winnerB.who}`);
    assert.equal(info.statusText, `The tournament is over. Champion: ${winnerB.who}`);
    assert.equal(info.rounds.length, 2);
  }
  info = await bracketInfo(winnerB);
  assert.equal(info.rounds[1].matches[0].watch, 'Show the board', 'the final\'s board stays open');
  await waitScores(host, {
    [winnerB.who]: [16, 2, 0, 0],
    An: [3, 1, 0, 1],
    [hostOpp.who]: [0, 0, 0, 1],
    [loserB.who]: [0, 0, 0, 1],
  });
  await noHorizontalScroll(phone, 'the finished bracket on a phone');
  // In Vietnamese.
  await byId(phone, 'lang').selectOption('vi');
  info = await waitBracket(phone, (i) => /^Giải đấu đã kết thúc/.test(i.statusText), 'the bracket in Vietnamese');
  assert.equal(info.statusText, `Giải đấu đã kết thúc. Vô địch: ${winnerB.who}`);
  assert.deepEqual(info.rounds.map((r) => r.title), ['Bán kết', 'Chung kết']);
  assert.match(await byId(phone, 'options-summary').textContent(), /Giải đấu loại trực tiếp/);
  await byId(phone, 'lang').selectOption('en');
  assert.equal(await byId(host, 'start').textContent(), 'Start the tournament', 'a new tournament can start');
  assert.equal(await byId(host, 'options-form').isVisible(), true, 'options are open again');
  room = { code, host, guests, phone, players, winnerB, loserB, hostOpp };
  assertNoPageErrors();
});

test('three players: a bye, and the host stops the tournament between rounds', { timeout: 120_000 }, async () => {
  assert.ok(room, 'the first test left its room');
  const { host, players, loserB, phone } = room;
  const three = players.filter((p) => p !== loserB);
  // The next round should wait for the host: no countdown.
  await byId(host, 'autostart').uncheck();
  await host.waitForFunction(() => !document.querySelector('[data-testid="autostart"]').checked);
  await byId(loserB, 'stand').click();
  await host.waitForFunction(() => document.querySelectorAll('#seats > li.seat [data-testid^="seat-name-"]').length === 3);
  await byId(host, 'start').click();

  // Two play, the third has a bye and sees the bracket.
  let info = await waitBracket(phone, (i) => i.status === 'playing' && i.rounds[0]?.bye, 'a bye');
  const byePage = three.find((p) => info.rounds[0].bye.startsWith(`${p.who}:`));
  assert.ok(byePage, info.rounds[0].bye);
  info = await waitBracket(byePage, (i) => i.shown && i.status === 'playing', 'the bye player\'s bracket');
  assert.equal(info.rounds[0].bye, `${byePage.who}: a bye, goes on without playing`);
  assert.equal(info.rounds[0].matches.length, 1);
  assert.deepEqual(info.rounds.map((r) => [r.title, r.planned]), [['Semi-finals', false], ['Final', true]]);
  const [x, y] = three.filter((p) => p !== byePage);
  await ownMatch(x, 'Semi-finals');
  await ownMatch(y, 'Semi-finals');
  assert.equal(await byId(host, 'options-form').isVisible(), false, 'no options while a tournament is under way');
  assert.equal(await byId(host, 'stop').isVisible(), false, 'no stop while a round is played');

  await resign(x);
  info = await waitBracket(byePage, (i) => i.status === 'between_rounds', 'between rounds');
  assert.match(info.statusText, /Just finished: Semi-finals/);
  await byId(host, 'stop').waitFor();
  assert.equal(await byId(host, 'start').textContent(), 'Start the next round');
  assert.equal(await byId(host, 'countdown').isVisible(), false, 'no countdown: the host turned it off');
  if (host !== byePage) assert.equal(await byId(byePage, 'game-hint').textContent(), 'Waiting for the next round.');
  assert.equal(await byId(y, 'stop').isVisible(), false, 'only the host stops');
  await byId(host, 'stop').click();
  assert.equal(await byId(host, 'stop').textContent(), 'Click again to stop the tournament');
  await byId(host, 'stop').click();
  for (const p of [...three, loserB, phone]) {
    info = await waitBracket(p, (i) => i.shown && i.status === 'stopped', 'stopped');
    assert.equal(info.statusText, 'The host stopped the tournament after Semi-finals.');
    assert.equal(info.rounds.length, 1, 'no round to come');
  }
  assert.equal(await byId(host, 'stop').isVisible(), false);
  assert.equal(await byId(host, 'start').textContent(), 'Start the tournament');
  const sc = await scores(host);
  assert.equal(sc[y.who][0] - (y === room.winnerB ? 16 : y === host ? 3 : 0), 3, 'the match won scores 3');
  assertNoPageErrors();
});

test('Quoridor, every game drawn: a replay, then a coin toss everyone sees, up to the champion', { timeout: 180_000 }, async () => {
  const host = await newPage('q-host');
  await host.goto(`${site.base}/`);
  // A one-move limit is not offered on the page: the room is made through the API.
  const code = await host.evaluate(async () => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ game: 'quoridor', options: { mode: 'knockout', move_limit: 1 } }),
    });
    const data = await res.json();
    localStorage.setItem('bg.token', data.token);
    return data.code;
  });
  await host.goto(`${site.base}/r/${code}`);
  await waitOnline(host);
  await setName(host, 'Hà');
  host.who = 'Hà';
  assert.match(await byId(host, 'options-summary').textContent(), /^Quoridor: Knockout tournament, 9 × 9/);
  assert.equal(await byId(host, 'opt-mode').inputValue(), 'knockout');
  await sit(host, 0, 'Hà');
  const g1 = await join('q-guest1', code, 'Khoa');
  await sit(g1, 1, 'Khoa');
  const g2 = await join('q-guest2', code, 'Linh');
  await sit(g2, 2, 'Linh');
  const all = [host, g1, g2];
  await byId(host, 'start').click();

  let info;
  let playing = [];
  let byePage = null;
  const deadline = Date.now() + STEP_MS;
  while (playing.length !== 2) {
    playing = [];
    for (const p of all) {
      if (await byId(p, 'watch-bar').isVisible()) playing.push(p);
      else byePage = p;
    }
    if (Date.now() > deadline) throw new Error('no match started');
    await new Promise((r) => setTimeout(r, 50));
  }
  // Game 1: one move each, drawn by the move limit; the replay starts at once.
  await playQuoridor(playing);
  await playQuoridor(playing);
  info = await waitBracket(byePage, (i) => /Drawn, replayed/.test(currentRound(i)?.matches[0]?.text ?? ''), 'the replay');
  assert.equal(currentRound(info).matches[0].state, 'playing');
  for (const p of playing) await waitBoard(p, (i) => i.visible && i.ply === 0 && i.mySide != null, 'the replay on the player\'s board');
  // Game 2 drawn too: the server tosses its coin, and everyone is told.
  await playQuoridor(playing);
  await playQuoridor(playing);
  // The host pauses the countdown to the final.
  await byId(host, 'countdown-toggle').click();
  await host.waitForFunction(() => /^Next round paused \(\d+ s left\)$/.test(document.querySelector('[data-testid="countdown-text"]')?.textContent ?? ''));
  const toasts = [];
  for (const p of all) {
    const toast = p.locator('[data-testid="toast"][data-code="coin_toss"]').first();
    await toast.waitFor();
    toasts.push(await toast.textContent());
  }
  const m = /Coin toss: (\S+) advances/.exec(toasts[0]);
  assert.ok(m, `a coin toss toast: ${toasts[0]}`);
  const coinWinner = m[1];
  assert.ok(playing.some((p) => p.who === coinWinner));
  info = await waitBracket(byePage, (i) => i.rounds[0].matches[0].state === 'coin_toss', 'the coin toss in the bracket');
  assert.equal(info.rounds[0].matches[0].text, `Drawn twice · coin toss: ${coinWinner} advances`);
  assert.deepEqual(info.rounds[0].matches[0].players.map((p) => p.score), [0, 0], 'no game won');

  // The host starts the final; it goes the same way; the coin crowns the champion.
  assert.equal(await byId(host, 'start').textContent(), 'Start the next round');
  await byId(host, 'start').click();
  const finalists = [byePage, all.find((p) => p.who === coinWinner)];
  for (const p of finalists) await ownMatch(p, 'Final');
  for (let n = 0; n < 4; n++) {
    await playQuoridor(finalists);
    if (n === 1) for (const p of finalists) await waitBoard(p, (i) => i.ply === 0, 'the final\'s replay');
  }
  for (const p of all) {
    info = await waitBracket(p, (i) => i.shown && i.status === 'finished', 'the champion');
    assert.equal(info.rounds[1].matches[0].state, 'coin_toss');
  }
  const champion = /Champion: (\S+)$/.exec(info.statusText)[1];
  assert.ok(finalists.some((p) => p.who === champion));
  // A coin toss is a drawn match for both: only the champion's 10 (who had the bye drew once).
  const draws = champion === byePage.who ? 1 : 2;
  await waitScores(host, { [champion]: [10, 0, draws, 0] });
  assertNoPageErrors();
});

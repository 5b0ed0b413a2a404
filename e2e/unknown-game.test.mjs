// A game the page does not know is an error the page shows, never another
// game drawn in its place (web/js/games/facts.js: UnknownGame). The
// server only knows the page's games, so the test renames the room's game
// in the frames on their way to the page (playwright's routeWebSocket).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, byId } from './harness.mjs';

let site;
before(async () => { site = await startSite({ tag: 'unknown-game' }); });
after(async () => { await site?.stop(); });

test('a room whose game the page does not know says so, on the board and in a toast, and draws no board', async () => {
  const res = await fetch(`${site.base}/api/rooms`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'crossyray', options: {} }),
  });
  const { code } = await res.json();
  const page = await site.newPage('viewer');
  await page.routeWebSocket(/\/ws\//, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      const msg = JSON.parse(String(message));
      if (msg.type === 'snapshot') msg.room.game = 'chess';
      ws.send(JSON.stringify(msg));
    });
  });
  await page.goto(`${site.base}/r/${code}`);
  const said = byId(page, 'unknown-game');
  await said.waitFor();
  assert.match(await said.textContent(), /chess/);
  const toast = page.locator('[data-testid="toast"][data-code="unknown_game"]');
  await toast.waitFor();
  assert.match(await toast.textContent(), /chess/);
  assert.equal(await page.locator('[data-testid="board"] svg').count(), 0, 'no board of another game');
  await page.context().close();
});

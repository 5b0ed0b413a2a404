// Browser test: the rules travel with the site. The home page and the room
// page link to /rules (docs/RULES.md, served by the server), in English and
// Vietnamese.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { byId, startSite } from './harness.mjs';

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

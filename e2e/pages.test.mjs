// The pages as a browser gets them: scripts and styles under the client's
// version, kept in the browser's cache from one page to the next, sent
// compressed; the favicon and the manifest; and a room that does not
// exist, which says so (in English and Vietnamese, with the way home)
// whether the page learns it from `GET /api/rooms/CODE` or from its
// refused WebSocket.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byId, siteForTests } from './harness.mjs';

const site = siteForTests({ tag: 'pages' });
const { pageErrors } = site;

test('scripts come under the version, compressed, and the next page takes them from the cache', { timeout: 60_000 }, async () => {
  const page = await site.newPage('cache');
  const encodings = new Map();
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (url.pathname.endsWith('/js/i18n.js')) encodings.set(url.pathname, (await res.allHeaders())['content-encoding'] ?? null);
  });
  await page.goto(`${site.base}/`);
  await byId(page, 'create-form').waitFor();
  const scripts = await page.evaluate(() => [...document.querySelectorAll('script[src], link[rel=stylesheet]')].map((e) => e.getAttribute('src') ?? e.getAttribute('href')));
  const version = /^\/v\/([0-9a-f]{12})\/js\/home\.js$/.exec(scripts.find((s) => s.endsWith('home.js')))?.[1];
  assert.ok(version, `home.js under /v/VERSION/: ${scripts}`);
  assert.ok(scripts.includes(`/v/${version}/css/site.css`), scripts.join(' '));
  // The modules a script imports come from under the same version.
  const modules = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js')));
  assert.ok(modules.length > 3, modules.join(' '));
  for (const m of modules) assert.ok(m.startsWith(`/v/${version}/js/`), m);
  assert.match(String(encodings.get(`/v/${version}/js/i18n.js`)), /^(br|gzip)$/, 'sent compressed');
  // The favicon and the manifest are linked and served.
  const links = await page.evaluate(() => ({
    icon: document.querySelector('link[rel=icon]').href,
    manifest: document.querySelector('link[rel=manifest]').href,
  }));
  for (const url of Object.values(links)) assert.equal((await page.request.get(url)).status(), 200, url);

  // Another page: the shared modules are not fetched again.
  await page.goto(`${site.base}/games`);
  await page.waitForLoadState('load');
  const shared = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => /\/js\/i18n\.js$|\/css\/site\.css$/.test(e.name))
    .map((e) => ({ name: new URL(e.name).pathname, transferSize: e.transferSize })));
  assert.equal(shared.length, 2, JSON.stringify(shared));
  for (const e of shared) assert.equal(e.transferSize, 0, `${e.name} from the cache`);
  await page.context().close();
  assert.deepEqual(pageErrors, []);
});

test('a room that does not exist says so, in both languages, with the way home', { timeout: 60_000 }, async () => {
  const page = await site.newPage('lost');
  await page.goto(`${site.base}/r/ABCDEF`);
  await byId(page, 'not-found').waitFor({ state: 'visible' });
  assert.match(await byId(page, 'not-found').textContent(), /There is no room ABCDEF\./);
  assert.equal(await byId(page, 'conn-status').textContent(), 'No such room');
  assert.equal(await page.locator('[data-testid="not-found"] a').getAttribute('href'), '/');
  assert.equal(await page.locator('#room-main').isVisible(), false);
  await byId(page, 'lang').selectOption('vi');
  assert.match(await byId(page, 'not-found').textContent(), /Không có phòng ABCDEF\./);
  assert.equal(await byId(page, 'conn-status').textContent(), 'Không có phòng này');
  assert.equal(page.sockets, 0, 'no socket to a room that does not exist');
  await page.context().close();

  // The room is not known to be missing before the socket tries (its
  // first look-up was lost): the refused socket asks again and stops.
  const late = await site.newPage('late', { locale: 'en-US' });
  let lookups = 0;
  await late.route('**/api/rooms/ABCDEF', (route) => {
    lookups += 1;
    return lookups === 1 ? route.abort('connectionreset') : route.continue();
  });
  await late.goto(`${site.base}/r/ABCDEF`);
  await byId(late, 'not-found').waitFor({ state: 'visible' });
  assert.match(await byId(late, 'not-found').textContent(), /There is no room ABCDEF\./);
  assert.equal(await byId(late, 'conn-status').textContent(), 'No such room');
  assert.ok(late.sockets >= 1, 'the page tried its socket');
  const tried = late.sockets;
  await late.waitForTimeout(2500);
  assert.equal(late.sockets, tried, 'and stopped retrying');
  assert.equal(lookups, 2);
  await late.context().close();
  assert.deepEqual(pageErrors, []);
});

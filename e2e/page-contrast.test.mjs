// Every text on the site's pages passes WCAG AA contrast (4.5:1, or 3:1
// for large text), as axe-core's color-contrast rule computes it from the
// rendered page: the home page, a room with a game (board, cards,
// members, chat) and its result banner, in English and Vietnamese, and
// the account, games, rules and leaderboard pages. The board themes'
// graphics are checked by contrast.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { byId, openAsHost, playOne, setName, sit, siteForTests, waitOnline, waitPly } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const site = siteForTests({ tag: 'page-contrast' });
const { pageErrors } = site;

/** axe's color-contrast violations on the page as it is now. */
async function contrastProblems(page, what) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    return r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.any.map((a) => a.message).join('; ')}`));
  });
  return result.map((line) => `${what}: ${line}`);
}

/** A page of its own; axe is injected, so the page's CSP is bypassed for the test only. */
const newPage = (label, lang = 'en') => site.newPage(label, { bypassCSP: true, locale: lang === 'vi' ? 'vi-VN' : 'en-US' });

for (const lang of ['en', 'vi']) {
  test(`every text passes AA contrast on the home page, in a room with a game and its result, and the other pages (${lang})`, { timeout: 120_000 }, async () => {
    const problems = [];
    const host = await newPage(`host-${lang}`, lang);
    await host.addInitScript((l) => localStorage.setItem('bg.lang', l), lang);
    await host.goto(`${site.base}/`);
    await host.waitForLoadState('networkidle');
    problems.push(...await contrastProblems(host, 'home'));

    const room = await openAsHost(host, site.base, 'crossyray');
    await waitOnline(host);
    await setName(host, 'Minh');
    await sit(host, 0, 'Minh');
    const guest = await newPage(`guest-${lang}`, lang);
    await guest.addInitScript((l) => localStorage.setItem('bg.lang', l), lang);
    await guest.goto(`${site.base}/r/${room.code}`);
    await waitOnline(guest);
    await setName(guest, 'Lan');
    await sit(guest, 1, 'Lan');
    await byId(host, 'chat-input').fill('chào');
    await byId(host, 'chat-input').press('Enter');
    await byId(host, 'start').click();
    for (let n = 1; n <= 2; n += 1) {
      await playOne([host, guest]);
      for (const p of [host, guest]) await waitPly(p, n);
    }
    problems.push(...await contrastProblems(host, 'room during a game'));
    // Resign asks once more (a second click confirms).
    await byId(host, 'resign').click();
    await byId(host, 'resign').click();
    await byId(host, 'result').waitFor({ state: 'visible' });
    problems.push(...await contrastProblems(host, 'room with the result'));

    for (const path of ['/account', '/games', '/rules/quoridor', '/leaderboard']) {
      await host.goto(`${site.base}${path}`);
      await host.waitForLoadState('networkidle');
      problems.push(...await contrastProblems(host, path));
    }
    assert.deepEqual(problems, [], `contrast below AA:\n${problems.join('\n')}`);
    for (const p of [host, guest]) await p.context().close();
    assert.deepEqual(pageErrors.filter((e) => !/Content Security Policy/.test(e)), []);
  });
}

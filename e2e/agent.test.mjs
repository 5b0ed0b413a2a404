// Unit tests of web/js/agent.js: the sessions list's User-Agent strings in
// a few words, with real strings of the main browsers. Pure, no browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAgent, agentLabel } from '../web/js/agent.js';

const AGENTS = [
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36', 'Chrome', 'Android'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome', 'Windows'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome', 'macOS'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome', 'Linux'],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 'Chrome', 'ChromeOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1', 'Chrome', 'iPhone'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.224 Safari/537.36', 'Chrome', 'Linux'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox', 'Windows'],
  ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox', 'Linux'],
  ['Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0', 'Firefox', 'Android'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15', 'Firefox', 'iPhone'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1', 'Safari', 'iPhone'],
  ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'Safari', 'iPad'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15', 'Safari', 'macOS'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67', 'Edge', 'Windows'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.2478.64', 'Edge', 'Android'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0', 'Opera', 'Windows'],
  ['Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36', 'Samsung Internet', 'Android'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) coc_coc_browser/123.0.184 Chrome/117.0.5938.184 Safari/537.36', 'Cốc Cốc', 'Windows'],
];

test('the main browsers and systems are named from real User-Agent strings', () => {
  for (const [ua, browser, os] of AGENTS) assert.deepEqual(parseAgent(ua), { browser, os }, ua);
});

test('what is not a known browser says what it can', () => {
  assert.deepEqual(parseAgent('curl/8.5.0'), { browser: null, os: null });
  assert.deepEqual(parseAgent(''), { browser: null, os: null });
  assert.deepEqual(parseAgent(null), { browser: null, os: null });
  assert.deepEqual(parseAgent('Mozilla/5.0 (X11; Linux x86_64) SomeBot/1.0'), { browser: null, os: 'Linux' });
});

test('the label, in English and Vietnamese', () => {
  const words = (lang) => JSON.parse(readFileSync(new URL(`../web/js/i18n/${lang}.json`, import.meta.url)));
  for (const [lang, want] of [
    ['en', ['Chrome on Android', 'Firefox on Windows', 'Safari on iPhone', 'A browser on Linux', 'Unknown browser']],
    ['vi', ['Chrome trên Android', 'Firefox trên Windows', 'Safari trên iPhone', 'Một trình duyệt trên Linux', 'Trình duyệt không rõ']],
  ]) {
    const dict = words(lang);
    const t = (key, params = {}) => dict[key].replace(/\{(\w+)\}/g, (_, k) => params[k]);
    assert.deepEqual([AGENTS[0][0], AGENTS[7][0], AGENTS[11][0], 'Mozilla/5.0 (X11; Linux x86_64) SomeBot/1.0', 'curl/8.5.0']
      .map((ua) => agentLabel(ua, t)), want, lang);
  }
});

// The contrast test: every board theme of every game (the shop's list) and
// the page's text colours pass WCAG AA, 3:1 for the graphics a player must
// tell apart and 4.5:1 for text (the pairs are in contrast.mjs). The
// colours are read from the real page (computed custom properties of
// web/css/site.css with each theme applied), and the boards are checked to
// take their colours from those properties and nowhere else.
//
//   SERVER_BIN=../target/debug/server node --test contrast.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { siteForTests } from './harness.mjs';
import { failures, parseColor, variablesOf } from './contrast.mjs';

const CSS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'css', 'site.css');
const GAMES = ['crossyray', 'jungle', 'quoridor'];

const site = siteForTests({ tag: 'contrast' });
const { pageErrors } = site;

/** The shop's items, as a signed-in page reads them. */
async function catalogue(page) {
  return page.evaluate(async () => {
    await fetch('/api/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'palette', password: 'password1' }),
    });
    return (await (await fetch('/api/shop')).json()).items;
  });
}

/** `names` as computed on <html> with `theme` of `game` applied. */
function readVars(page, game, theme, names) {
  return page.evaluate(([g, th, list]) => {
    const root = document.documentElement;
    for (const x of ['crossyray', 'jungle', 'quoridor']) root.removeAttribute(`data-${x}-board`);
    if (th) root.setAttribute(`data-${g}-board`, th);
    const cs = getComputedStyle(root);
    return Object.fromEntries(list.map((n) => [n, cs.getPropertyValue(n).trim()]).filter(([, v]) => v));
  }, [game, theme, names]);
}

test('every board theme of every game and the page text pass WCAG AA contrast', { timeout: 60_000 }, async () => {
  const page = await site.newPage('contrast');
  await page.goto(`${site.base}/rules/crossyray`);
  const items = await catalogue(page);
  const report = [];
  for (const game of GAMES) {
    const themes = items.filter((i) => i.slot === `${game}_board`).map((i) => i.id);
    assert.ok(themes.length >= 3, `${game} has at least three themes: ${themes}`);
    const names = variablesOf(game);
    const seen = new Set();
    for (const theme of themes) {
      const vars = await readVars(page, game, theme, names);
      for (const f of failures(game, vars)) {
        report.push(`${theme}: ${f.what}: ${f.fg} ${vars[f.fg] ?? '(missing)'} on ${f.bg} ${vars[f.bg] ?? '(missing)'} = ${f.ratio}:1 < ${f.min}:1`);
      }
      // Each theme is its own set of colours.
      const key = JSON.stringify(vars);
      assert.ok(!seen.has(key), `${theme} has colours of its own`);
      seen.add(key);
    }
  }
  const pageVars = await readVars(page, null, null, variablesOf('page'));
  for (const f of failures('page', pageVars)) {
    report.push(`page: ${f.what}: ${f.fg} ${pageVars[f.fg]} on ${f.bg} ${pageVars[f.bg]} = ${f.ratio}:1 < ${f.min}:1`);
  }
  assert.deepEqual(report, [], `pairs below WCAG AA:\n${report.join('\n')}`);
  assert.deepEqual(pageErrors, []);
});

test('the boards draw with the theme\'s properties: a cell, the water and a groove follow the theme', { timeout: 60_000 }, async () => {
  const page = await site.newPage('drawn');
  const cases = [
    ['crossyray', 'crossyray-meadow', '[data-testid="board"] .cell.light .sq', '--cr-cell-light'],
    ['jungle', 'jungle-glacier', '[data-testid="board"] .jsq.water .ground', '--jg-water'],
    ['quoridor', 'quoridor-sea', '[data-testid="board"] .frame', '--qd-groove'],
  ];
  for (const [game, theme, selector, variable] of cases) {
    await page.goto(`${site.base}/rules/${game}`);
    await page.waitForSelector(selector);
    for (const th of [null, theme]) {
      const [fill, value] = await page.evaluate(([g, t, sel, v]) => {
        const root = document.documentElement;
        if (t) root.setAttribute(`data-${g}-board`, t);
        else root.removeAttribute(`data-${g}-board`);
        return [getComputedStyle(document.querySelector(sel)).fill, getComputedStyle(root).getPropertyValue(v).trim()];
      }, [game, th, selector, variable]);
      assert.deepEqual(parseColor(fill), parseColor(value), `${game} ${th ?? 'default'}: ${selector} is ${variable}`);
    }
  }
  assert.deepEqual(pageErrors, []);
});

test('no board rule in site.css names a colour of its own: every one is a theme property', () => {
  const css = readFileSync(CSS, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const bad = [];
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = m[1].trim();
    if (!/(^|[\s,])\.(cr|jg|qd)\b/.test(selector)) continue;
    for (const decl of m[2].split(';')) {
      const [prop, value] = decl.split(':').map((x) => x?.trim());
      if (!prop || prop.startsWith('--') || !value) continue;
      const literal = value.replace(/var\(--[\w-]+\)/g, '');
      if (/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(|\b(white|black|red|gold|blue|green|yellow|orange|gr[ae]y)\b/i.test(literal)
        && /^(fill|stroke|color|background|background-color|border-color|outline-color)$/.test(prop)) {
        bad.push(`${selector} { ${prop}: ${value} }`);
      }
      if (prop === 'opacity' && /\.(mark|last|ring|dot|wall|pawn|piece)/.test(selector)) {
        bad.push(`${selector} { opacity: ${value} } (a mark's colour must be its property's)`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

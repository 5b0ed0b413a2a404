// The dictionary test (pure, no browser): every text a person reads is in
// both dictionaries, English and Vietnamese, and every error code the
// server can answer has words in both.
//
// - The two dictionaries have the same keys, no empty text, and the same
//   {placeholders} in each pair.
// - Every key the client names exists in both: `data-i18n` and
//   `data-i18n-attr` in the pages, `t('key')` in the scripts; a key built
//   at run time (`t(\`level.${x}\`)`) must have at least one key under its
//   prefix.
// - No page has text outside a `data-i18n` element (the language switch
//   replaces those; any other text would stay in English).
// - No script writes a literal sentence into the page (`text: 'Hello'`,
//   `textContent = 'Hello'`, a `title`, `placeholder` or `aria-label`, a
//   toast) instead of going through t().
// - Every error code in `server/src` (`json_error(…, "code", …)`, the
//   WebSocket `Code`s) and in docs/PROTOCOL.md (`404 no_room`,
//   `{"error":"…"}`) has `error.CODE` in both dictionaries: the pages show
//   a refusal through `errorText(code)` (i18n.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const WEB = path.join(ROOT, 'web');

// i18n.js reads localStorage and navigator when loaded: give it both.
globalThis.navigator ??= { language: 'en' };
globalThis.localStorage ??= { getItem: () => null, setItem() {} };
const { dictionaries } = await import('../web/js/i18n.js');
const { en, vi } = dictionaries;

const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : [p];
});
const rel = (p) => path.relative(ROOT, p);
// The pages and the pieces of them the server puts in (web/partials/).
const pages = [WEB, path.join(WEB, 'partials')]
  .flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.html')).map((f) => path.join(dir, f)));
const scripts = walk(path.join(WEB, 'js')).filter((f) => f.endsWith('.js'));

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

test('English and Vietnamese have the same keys, none empty, with the same placeholders', () => {
  const onlyEn = Object.keys(en).filter((k) => !(k in vi));
  const onlyVi = Object.keys(vi).filter((k) => !(k in en));
  assert.deepEqual(onlyEn, [], 'keys missing from the Vietnamese dictionary');
  assert.deepEqual(onlyVi, [], 'keys missing from the English dictionary');
  for (const [k, v] of Object.entries(en)) {
    assert.ok(typeof v === 'string' && v.trim(), `en ${k} is empty`);
    assert.ok(typeof vi[k] === 'string' && vi[k].trim(), `vi ${k} is empty`);
    assert.equal(placeholders(vi[k]), placeholders(v), `${k}: the same placeholders in both`);
  }
});

/** Every key the client names: [key, where], and the prefixes of keys built at run time. */
function namedKeys() {
  const keys = [];
  const prefixes = [];
  for (const file of pages) {
    const html = readFileSync(file, 'utf8');
    for (const m of html.matchAll(/data-i18n="([^"]+)"/g)) keys.push([m[1], rel(file)]);
    for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
      for (const pair of m[1].split(';')) keys.push([pair.split(':')[1].trim(), rel(file)]);
    }
  }
  for (const file of scripts) {
    const js = readFileSync(file, 'utf8');
    for (const m of js.matchAll(/\bt\(\s*'([a-z0-9_.-]+)'/gi)) keys.push([m[1], rel(file)]);
    for (const m of js.matchAll(/\bt\(\s*"([a-z0-9_.-]+)"/gi)) keys.push([m[1], rel(file)]);
    for (const m of js.matchAll(/\bt\(\s*`([a-z0-9_.-]+)\$\{/gi)) prefixes.push([m[1], rel(file)]);
    // Keys chosen by a ternary: t(cond ? 'a' : 'b').
    for (const m of js.matchAll(/\bt\(\s*[^'"`()]+\?\s*'([a-z0-9_.-]+)'\s*:\s*'([a-z0-9_.-]+)'/gi)) {
      keys.push([m[1], rel(file)], [m[2], rel(file)]);
    }
    // Keys in data-i18n attributes written by scripts.
    for (const m of js.matchAll(/'data-i18n':\s*'([a-z0-9_.-]+)'/gi)) keys.push([m[1], rel(file)]);
  }
  return { keys, prefixes };
}

test('every key the pages and scripts name is in both dictionaries', () => {
  const { keys, prefixes } = namedKeys();
  assert.ok(keys.length > 300, `found ${keys.length} keys`);
  const missing = keys.filter(([k]) => !(k in en) || !(k in vi)).map(([k, f]) => `${k} (${f})`);
  assert.deepEqual([...new Set(missing)], [], 'keys named but not in both dictionaries');
  const noPrefix = prefixes.filter(([p]) => !Object.keys(en).some((k) => k.startsWith(p))).map(([p, f]) => `${p}… (${f})`);
  assert.deepEqual(noPrefix, [], 'run-time keys with no dictionary entry under their prefix');
});

/** Whether the page's own script (NAME.js, or its modules in js/NAME/) sets the title (in the page's language, through t()). */
function titleByScript(html) {
  const name = /<script type="module" src="\/js\/([a-z-]+)\.js"/.exec(html)?.[1];
  if (!name) return false;
  const own = [path.join(WEB, 'js', `${name}.js`), ...scripts.filter((f) => f.startsWith(path.join(WEB, 'js', name) + path.sep))];
  return own.some((f) => /document\.title = /.test(readFileSync(f, 'utf8')));
}

/** Text of the page outside any element marked data-i18n (markup only, scripts and styles left out). */
function untranslatedText(html) {
  const found = [];
  const stack = [];
  const VOID = new Set(['meta', 'link', 'input', 'img', 'br', 'hr', 'source', 'area', 'base', 'col', 'embed', 'track', 'wbr']);
  const tokens = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .split(/(<[^>]+>)/);
  for (const tok of tokens) {
    if (tok.startsWith('</')) {
      const name = tok.slice(2, -1).trim().toLowerCase();
      while (stack.length && stack.pop().name !== name) { /* unclosed tags */ }
    } else if (tok.startsWith('<!')) {
      // doctype
    } else if (tok.startsWith('<')) {
      const name = /^<\s*([a-z0-9-]+)/i.exec(tok)?.[1].toLowerCase();
      if (!name) continue;
      const marked = /\sdata-i18n=/.test(tok);
      const attrKeys = /\sdata-i18n-attr="([^"]*)"/.exec(tok)?.[1] ?? '';
      for (const m of tok.matchAll(/\s(title|aria-label|placeholder|alt)="([^"]*)"/g)) {
        if (/\p{L}{2,}/u.test(m[2]) && !new RegExp(`(^|;)\\s*${m[1]}:`).test(attrKeys)) found.push(`<${name} ${m[1]}="${m[2]}">`);
      }
      if (!VOID.has(name) && !tok.endsWith('/>')) stack.push({ name, marked });
    } else {
      const text = tok.replace(/&[a-z]+;|&#\d+;/gi, ' ').trim();
      if (!/\p{L}{2,}/u.test(text)) continue; // punctuation, emoji, single letters
      if (stack.some((e) => e.marked)) continue;
      const inner = stack.at(-1)?.name;
      // A title the page's script sets (document.title) is translated
      // there; a language's own name is not translated.
      if (inner === 'title' && titleByScript(html) || inner === 'option' && /^(English|Tiếng Việt)$/.test(text)) continue;
      found.push(`<${inner}> ${text}`);
    }
  }
  return found;
}

test('no page has text outside a translated element', () => {
  for (const file of pages) {
    assert.deepEqual(untranslatedText(readFileSync(file, 'utf8')), [], `${rel(file)}: text not marked data-i18n`);
  }
  // The check itself finds such text.
  assert.deepEqual(untranslatedText('<p data-i18n="a.b">Hi</p><p>Hello <b>there</b></p>'), ['<p> Hello', '<b> there']);
  assert.deepEqual(untranslatedText('<i title="Rules"></i><i title="x" data-i18n-attr="title:a.b"></i><i title="Rules" data-i18n-attr="title:a.b"></i>'), ['<i title="Rules">']);
});

test('no script writes a literal sentence into the page', () => {
  const visible = /(?:\btext:\s*|\.textContent\s*=\s*|\.title\s*=\s*|\.placeholder\s*=\s*|'aria-label',\s*|'aria-label':\s*|\btoast\(\s*|\balert\(\s*|\bconfirm\(\s*)(['"])((?:(?!\1).)*\p{L}{2,}(?:(?!\1).)*)\1/gu;
  const found = [];
  for (const file of scripts) {
    const js = readFileSync(file, 'utf8');
    for (const m of js.matchAll(visible)) found.push(`${rel(file)}: ${m[0]}`);
  }
  assert.deepEqual(found, []);
});

test('no page shows the server\'s English message in place of its code\'s words', () => {
  const found = [];
  for (const file of scripts) {
    const js = readFileSync(file, 'utf8');
    for (const m of js.matchAll(/(?<!answer\.)\b(?:data|x|err|body|res)\??\.message\b/g)) found.push(`${rel(file)}: ${m[0]}`);
  }
  // The import page quotes the server's line and reason after its own
  // words (answer.data.message): that detail names the bad line.
  assert.deepEqual(found, []);
});

/** Error codes the server answers, from its source and from PROTOCOL.md. */
function serverCodes() {
  const codes = new Map();
  for (const file of walk(path.join(ROOT, 'server', 'src')).filter((f) => f.endsWith('.rs'))) {
    const src = readFileSync(file, 'utf8');
    for (const re of [/json_error\(\s*StatusCode::\w+,\s*"([a-z_]+)"/g, /Code::\w+\s*=>\s*"([a-z_]+)"/g, /"error":\s*"([a-z_]+)"/g]) {
      for (const m of src.matchAll(re)) codes.set(m[1], rel(file));
    }
  }
  // The room's codes: the variants of `enum Code`, named by serde's
  // snake_case.
  const codeRs = path.join(ROOT, 'server', 'src', 'protocol', 'code.rs');
  const body = /pub enum Code \{([^}]*)\}/.exec(readFileSync(codeRs, 'utf8'))?.[1] ?? '';
  for (const m of body.matchAll(/^\s*([A-Z]\w*),/gm)) {
    codes.set(m[1].replace(/(?<!^)[A-Z]/g, (c) => `_${c}`).toLowerCase(), rel(codeRs));
  }
  const doc = readFileSync(path.join(ROOT, 'docs', 'PROTOCOL.md'), 'utf8');
  for (const m of doc.matchAll(/`[45]\d\d ([a-z_]+)`/g)) codes.set(m[1], 'docs/PROTOCOL.md');
  for (const m of doc.matchAll(/"error":\s*"([a-z_]+)"/g)) codes.set(m[1], 'docs/PROTOCOL.md');
  return codes;
}

test('every error code of the server has words in both languages', () => {
  const codes = serverCodes();
  for (const known of ['no_room', 'not_your_turn', 'illegal_move', 'rate_limited', 'account_needed']) {
    assert.ok(codes.has(known), `the scan finds ${known}`);
  }
  const missing = [...codes].filter(([c]) => !(`error.${c}` in en) || !(`error.${c}` in vi)).map(([c, f]) => `error.${c} (${f})`);
  assert.deepEqual(missing, [], 'server error codes without words');
});

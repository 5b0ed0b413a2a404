// Every string the user reads goes through t(key, params).
//
// Two dictionaries, English and Vietnamese, one JSON file each
// (i18n/en.json, i18n/vi.json: translators edit them without touching
// code; the server serves them as application/json, which JSON modules
// need). The chosen language is kept in localStorage under `bg.lang`; the
// default comes from navigator.language. Static markup marks translatable
// text with data-i18n="key" (text) and data-i18n-attr="attr:key;attr2:key2"
// (attributes); applyI18n() fills them. Pages that draw dynamically
// register a callback with onLangChange() and redraw through t().

import en from './i18n/en.json' with { type: 'json' };
import vi from './i18n/vi.json' with { type: 'json' };

export const dictionaries = { en, vi };
export const languages = [
  { code: 'en', label: 'English' },
  { code: 'vi', label: 'Tiếng Việt' },
];

const STORAGE_KEY = 'bg.lang';
const listeners = new Set();

function initialLang() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && dictionaries[stored]) return stored;
  } catch { /* storage may be blocked */ }
  const nav = (navigator.language || 'en').toLowerCase();
  return nav.startsWith('vi') ? 'vi' : 'en';
}

let current = initialLang();

export function lang() {
  return current;
}

export function setLang(code) {
  if (!dictionaries[code] || code === current) return;
  current = code;
  try { localStorage.setItem(STORAGE_KEY, code); } catch { /* ignore */ }
  document.documentElement.lang = code;
  applyI18n(document);
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate `key`, replacing `{name}` placeholders from `params`. */
export function t(key, params = {}) {
  const text = dictionaries[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, p) => (p in params ? String(params[p]) : m));
}

/**
 * A percentage in the page's language, "62 %" (`digits` decimals at most),
 * its number and sign joined by a no-break space (U+00A0): a narrow line
 * never puts the "%" on a line of its own.
 */
export function percentText(n, digits = 0) {
  return `${Number(n).toLocaleString(current, { maximumFractionDigits: digits })}\u00a0%`;
}

/**
 * A refusal from the server (its `error` code, or a WebSocket error's
 * `code`) in the page's language: a page's own words first (`prefix` +
 * code, e.g. `account.error.`), else `error.CODE`; never the server's
 * English `message`. A code the client does not know yet (or an HTTP
 * status with no JSON body) is named in a general sentence. Every code
 * the server answers has its `error.` words (e2e/i18n.test.mjs checks).
 */
export function errorText(code, prefix = null) {
  for (const key of [prefix && `${prefix}${code}`, `error.${code}`]) {
    if (key && code != null && key in dictionaries[current]) return t(key);
  }
  return t('error.unknown', { code: code ?? '?' });
}

/** Fill every [data-i18n] and [data-i18n-attr] under `root`. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** Wire a <select> as the language switch and translate the page. */
export function initI18n(select) {
  document.documentElement.lang = current;
  if (select) {
    select.replaceChildren(
      ...languages.map(({ code, label }) => {
        const o = document.createElement('option');
        o.value = code;
        o.textContent = label;
        return o;
      }),
    );
    select.value = current;
    select.addEventListener('change', () => setLang(select.value));
  }
  applyI18n(document);
}

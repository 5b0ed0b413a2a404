// Home page: create a room (POST /api/rooms) or join one by its code
// (checked with GET /api/rooms/CODE before going there).

import { t, initI18n, onLangChange } from './i18n.js';
import { storedToken, storeToken } from './socket.js';
import { fillOptionSelects, readOptionSelects, DEFAULT_OPTIONS } from './options.js';

const CODE_RE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
const $ = (id) => document.getElementById(id);

const selects = { width: $('create-width'), height: $('create-height'), clock: $('create-clock') };

function showError(el, text) {
  el.textContent = text ?? '';
  el.hidden = !text;
}

function checkSquare() {
  const r = readOptionSelects(selects);
  showError($('create-error'), r.error);
  $('create-room').disabled = !!r.error;
  return r;
}

/** A code typed or pasted: the code itself, or an invite link ending in /r/CODE. */
export function extractCode(text) {
  const s = String(text).trim();
  const m = /\/r\/([A-Za-z0-9]{6})\b/.exec(s);
  return (m ? m[1] : s).toUpperCase();
}

async function createRoom(e) {
  e.preventDefault();
  const r = checkSquare();
  if (r.error) return;
  const button = $('create-room');
  button.disabled = true;
  button.textContent = t('home.creating');
  try {
    const body = { game: $('create-game').value, options: r.options };
    const token = storedToken();
    if (token) body.token = token;
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      showError($('create-error'), data.message || `${res.status} ${res.statusText}`);
      return;
    }
    storeToken(data.token);
    location.assign(`/r/${encodeURIComponent(data.code)}`);
  } catch {
    showError($('create-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('home.create_button');
  }
}

async function joinRoom(e) {
  e.preventDefault();
  const input = $('join-code');
  const code = extractCode(input.value);
  input.value = code;
  const err = $('join-error');
  if (!CODE_RE.test(code)) {
    showError(err, t('home.bad_code'));
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  const button = $('join-room');
  button.disabled = true;
  button.textContent = t('home.checking');
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (res.status === 404) {
      showError(err, t('home.no_room', { code }));
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      showError(err, data.message || `${res.status} ${res.statusText}`);
      return;
    }
    input.removeAttribute('aria-invalid');
    location.assign(`/r/${encodeURIComponent(code)}`);
  } catch {
    showError(err, t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('home.join_button');
  }
}

function init() {
  initI18n($('lang'));
  fillOptionSelects(selects, DEFAULT_OPTIONS);
  for (const s of Object.values(selects)) s.addEventListener('change', checkSquare);
  checkSquare();
  $('create-form').addEventListener('submit', createRoom);
  $('join-form').addEventListener('submit', joinRoom);
  const input = $('join-code');
  input.addEventListener('paste', (e) => {
    const text = e.clipboardData?.getData('text');
    if (text && /\/r\//.test(text)) {
      e.preventDefault();
      input.value = extractCode(text).slice(0, 6);
    }
  });
  input.addEventListener('input', () => {
    const pos = input.selectionStart;
    input.value = input.value.toUpperCase();
    input.setSelectionRange(pos, pos);
    input.removeAttribute('aria-invalid');
    showError($('join-error'), '');
  });
  onLangChange(() => {
    fillOptionSelects(selects);
    const r = readOptionSelects(selects);
    if (!$('create-error').hidden) showError($('create-error'), r.error);
  });
}

init();

// Account page (/account): who is signed in (GET /api/me), the email
// for recovery (POST /api/email; a link sent to it confirms it, opened
// here as /account#confirm=TOKEN: POST /api/email/confirm), the open
// sessions (GET /api/sessions) with a button to end each one (DELETE
// /api/sessions/ID) or all the others (DELETE /api/sessions), a password
// change (POST /api/password, which ends the other sessions), and log out.
// The shop (shop.js) sells and sets the board themes and piece styles.
// The session itself is an HttpOnly cookie this script never sees.

import './home/challenges-page.js';
import { t, initI18n, onLangChange, lang, errorText as serverErrorText } from './i18n.js';
import { forgetPerson } from './socket.js';
import { fetchMe, announceAccount } from './http.js';
import { $, el, showMessage as show } from './dom.js';
import { showCoins } from './coins.js';
import { applyCosmetics } from './cosmetics.js';
import { initShop, loadShop } from './shop.js';
import { agentLabel } from './agent.js';
import { initTurns, initTurnMail } from './turns.js';

/** {username} once loaded, null when signed out. */
let me = null;
/** The sessions as last listed. */
let sessions = [];

/** A refusal in the page's language (our words when we have them). */
function errorText(data, res) {
  return serverErrorText(data?.error ?? res.status, 'account.error.');
}

/** A JSON request; resolves to {ok, status, data, res}. */
async function call(method, path, body) {
  const init = { method };
  if (body) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, data, res };
}

function when(ms) {
  return new Date(ms).toLocaleString(lang() === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function signedOut() {
  me = null;
  showCoins(null);
  applyCosmetics(null);
  $('account-loading').hidden = true;
  $('signed-in').hidden = true;
  $('signed-out').hidden = false;
}

function renderSessions() {
  $('sessions').replaceChildren(...sessions.map((s) => {
    const label = agentLabel(s.agent, t);
    const end = el('button', {
      type: 'button',
      'data-testid': `end-session-${s.id}`,
      'aria-label': t('sessions.end_label', { what: label }),
      text: s.current ? t('account.logout') : t('sessions.end'),
      onclick: () => endSession(s),
    });
    return el('li', { 'data-testid': `session-${s.id}`, dataset: { current: String(s.current) } },
      el('span', { class: 'session-agent', 'data-testid': 'session-agent', title: s.agent || null, text: label }),
      s.current ? el('strong', { 'data-testid': 'session-current', text: t('sessions.this_browser') }) : null,
      el('span', { class: 'session-when', text: t('sessions.last_used', { when: when(s.last_seen) }) }),
      end);
  }));
  $('end-others').disabled = sessions.length < 2;
}

async function loadSessions() {
  const r = await call('GET', '/api/sessions');
  if (r.status === 401) return signedOut();
  if (!r.ok) return show($('sessions-error'), errorText(r.data, r.res));
  sessions = r.data.sessions;
  renderSessions();
}

function renderEmail() {
  if (!me) return;
  $('email-state').textContent = !me.email
    ? t('email.none')
    : t(me.email_confirmed ? 'email.confirmed' : 'email.pending', { email: me.email });
  $('email-remove').hidden = !me.email;
}

/** `#confirm=TOKEN` from a confirmation mail: confirm, then forget it. */
async function confirmFromLink() {
  const m = /^#confirm=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname);
  try {
    const r = await call('POST', '/api/email/confirm', { token: m[1] });
    if (r.ok) show($('confirm-ok'), t('email.confirmed_now', { email: r.data.email }));
    else show($('confirm-error'), errorText(r.data, r.res));
  } catch {
    show($('confirm-error'), t('home.network_error'));
  }
}

async function saveEmail(e, remove = false) {
  e.preventDefault();
  const input = $('email-input');
  show($('email-error'), '');
  show($('email-ok'), '');
  try {
    const r = await call('POST', '/api/email', { email: remove ? '' : input.value.trim() });
    if (r.status === 401 && r.data?.error === 'not_signed_in') return signedOut();
    if (!r.ok) {
      input.setAttribute('aria-invalid', 'true');
      return show($('email-error'), errorText(r.data, r.res));
    }
    input.removeAttribute('aria-invalid');
    input.value = '';
    me.email = r.data.email;
    me.email_confirmed = r.data.email_confirmed;
    renderEmail();
    show($('email-ok'), remove ? t('email.removed') : t('email.sent', { email: r.data.email }));
  } catch {
    show($('email-error'), t('home.network_error'));
  }
}

async function load() {
  await confirmFromLink();
  try {
    const r = await fetchMe();
    if (!r.ok) return signedOut();
    me = await r.json();
    $('who').textContent = t('account.signed_in', { name: me.username });
    $('profile-link').href = `/u/${encodeURIComponent(me.username)}`;
    $('profile-link').hidden = false;
    showCoins(me.coins);
    applyCosmetics(me.cosmetics);
    renderEmail();
    $('account-loading').hidden = true;
    $('signed-out').hidden = true;
    $('signed-in').hidden = false;
    await Promise.all([loadSessions(), loadShop()]);
  } catch {
    $('account-loading').textContent = t('home.network_error');
  }
}

/**
 * The browser forgets its guest identity too when it signs out: its token,
 * the name it played under, and that it was signed in (socket.js,
 * http.js); the challenges section hides.
 */
function forgetBrowser() {
  forgetPerson();
  announceAccount(null);
}

async function endSession(s) {
  show($('sessions-error'), '');
  show($('sessions-ok'), '');
  try {
    const r = await call('DELETE', `/api/sessions/${encodeURIComponent(s.id)}`);
    if (r.status === 401) return signedOut();
    if (!r.ok && r.status !== 404) return show($('sessions-error'), errorText(r.data, r.res));
    if (s.current) {
      forgetBrowser();
      return signedOut();
    }
    await loadSessions();
    show($('sessions-ok'), t('sessions.ended', { n: 1 }));
  } catch {
    show($('sessions-error'), t('home.network_error'));
  }
}

async function endOthers() {
  show($('sessions-error'), '');
  show($('sessions-ok'), '');
  const button = $('end-others');
  button.disabled = true;
  try {
    const r = await call('DELETE', '/api/sessions');
    if (r.status === 401) return signedOut();
    if (!r.ok) return show($('sessions-error'), errorText(r.data, r.res));
    await loadSessions();
    show($('sessions-ok'), t('sessions.ended', { n: r.data.ended }));
  } catch {
    show($('sessions-error'), t('home.network_error'));
  } finally {
    button.disabled = sessions.length < 2;
  }
}

async function changePassword(e) {
  e.preventDefault();
  const current = $('password-current');
  const next = $('password-new');
  show($('password-error'), '');
  show($('password-ok'), '');
  const button = $('password-submit');
  button.disabled = true;
  button.textContent = t('account.working');
  try {
    const r = await call('POST', '/api/password', { current: current.value, new: next.value });
    if (r.status === 401 && r.data?.error === 'not_signed_in') return signedOut();
    if (!r.ok) {
      const bad = r.data?.error === 'wrong_password' ? current : next;
      bad.setAttribute('aria-invalid', 'true');
      bad.focus();
      return show($('password-error'), errorText(r.data, r.res));
    }
    current.removeAttribute('aria-invalid');
    next.removeAttribute('aria-invalid');
    current.value = '';
    next.value = '';
    show($('password-ok'), t('password.changed'));
    await loadSessions();
  } catch {
    show($('password-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('password.submit');
  }
}

async function logout() {
  try { await fetch('/api/logout', { method: 'POST' }); } catch { /* forgotten below anyway */ }
  forgetBrowser();
  signedOut();
}

function init() {
  initI18n($('lang'));
  $('end-others').addEventListener('click', endOthers);
  $('password-form').addEventListener('submit', changePassword);
  $('email-form').addEventListener('submit', (e) => saveEmail(e));
  $('email-remove').addEventListener('click', (e) => saveEmail(e, true));
  $('logout').addEventListener('click', logout);
  initShop({ call, errorText });
  onLangChange(() => {
    if (me) $('who').textContent = t('account.signed_in', { name: me.username });
    renderEmail();
    renderSessions();
  });
  load();
  initTurns();
  initTurnMail();
}

init();

// The home page's Account panel: register, log in and out (POST
// /api/accounts, /api/login, /api/logout; GET /api/me), the daily coins,
// and "Forgot your password?". The session travels in an HttpOnly cookie
// that this script never sees; the browser token (bg.token) stays, so
// seats and host rights carry over. Hosting a room needs an account unless
// the server runs with --guest-hosts: the create form then shows two
// fields of its own (hostFieldsShown, registerHost), which also log a
// returning host in. Logging out forgets the browser's token and the name
// it played under (socket.js: forgetPerson). Either way the page's other
// parts hear of it (http.js: announceAccount): the quick pairing turns to
// the account's (or the guest's) form and says hello again.

import { t, errorText } from '../i18n.js';
import { storedToken, storeToken, storeName, forgetPerson } from '../socket.js';
import { $, showMessage as showError } from '../dom.js';
import { fetchMe, postJson, announceAccount } from '../http.js';
import { showCoins, checkIn } from '../coins.js';
import { applyCosmetics } from '../cosmetics.js';

/** The account signed in on this browser ({username}), or null. */
let account = null;

/** A refusal from the account API in the page's language. */
function accountError(data, res) {
  return errorText(data?.error ?? res.status, 'account.error.');
}

export function showAccount() {
  $('account-in').hidden = !account;
  $('account-out').hidden = !!account;
  $('account-signed-in').textContent = account ? t('account.signed_in', { name: account.username }) : '';
  showCoins(account ? account.coins ?? 0 : null);
  // Until /api/me says (just after a login), keep what the page has.
  if (!account || account.cosmetics) applyCosmetics(account?.cosmetics ?? null);
  showHostFields();
}

/** Asks the server who the session cookie signs in, and whether guests may host. */
async function loadAccount() {
  let who = null;
  try {
    const [me, site] = await Promise.all([fetchMe(), fetch('/api/site')]);
    if (me.ok) who = await me.json();
    if (site.ok) guestHosts = !!(await site.json()).guest_hosts;
  } catch { /* offline: show the forms */ }
  account = who;
  showAccount();
}

/**
 * POSTs a registration or login with this browser's token. On success the
 * server has set the session cookie and the answer's token is this
 * browser's. Returns {} or {error, code}.
 */
async function postAccount(path, body) {
  const token = storedToken();
  if (token) body.token = token;
  try {
    const { res, data } = await postJson(path, body);
    if (!res.ok) return { error: accountError(data, res), code: data?.error };
    storeToken(data.token);
    // The account's name from now on on this browser, as on every other
    // it signs in on (not the name it had as a guest).
    if (data.username) storeName(data.username);
    account = { username: data.username, coins: 0 };
    showAccount();
    // "Play the computer" takes the account's name too, as after a reload.
    if (data.username && $('solo-name')) $('solo-name').value = data.username;
    announceAccount(data.username ?? '');
    loadAccount(); // the coins an account that logged in has
    return {};
  } catch {
    return { error: t('home.network_error') };
  }
}

/** A register/login form of the Account panel. */
async function submitAccount(e, { path, fields, errorEl, button, label }) {
  e.preventDefault();
  const body = {};
  for (const [key, input] of Object.entries(fields)) {
    const value = key === 'password' ? input.value : input.value.trim();
    if (value !== '' || key !== 'email') body[key] = value;
  }
  showError(errorEl, '');
  button.disabled = true;
  button.textContent = t('account.working');
  try {
    const result = await postAccount(path, body);
    if (result.error) {
      showError(errorEl, result.error);
      return;
    }
    for (const input of Object.values(fields)) input.value = '';
  } finally {
    button.disabled = false;
    button.textContent = t(label);
  }
}

async function logout() {
  const button = $('account-logout');
  button.disabled = true;
  try {
    await fetch('/api/logout', { method: 'POST' });
  } catch { /* the token is forgotten below anyway */ }
  // A fresh guest identity from now on: the next person at this browser
  // must not take over the account's seats, nor play under its name.
  forgetPerson();
  for (const id of ['solo-name', 'seek-name']) if ($(id)) $(id).value = '';
  button.disabled = false;
  account = null;
  showAccount();
  announceAccount(null);
}

/** "Forgot your password?": POST /api/recover; the answer is the same for any address. */
async function requestRecovery() {
  const input = $('recover-email');
  const button = $('recover-submit');
  showError($('recover-error'), '');
  showError($('recover-ok'), '');
  button.disabled = true;
  try {
    const { res, data } = await postJson('/api/recover', { email: input.value.trim() });
    if (!res.ok) {
      input.setAttribute('aria-invalid', 'true');
      showError($('recover-error'), accountError(data, res));
      return;
    }
    input.removeAttribute('aria-invalid');
    showError($('recover-ok'), t('recover.sent'));
  } catch {
    showError($('recover-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
  }
}

export function initAccount() {
  $('recover-submit').addEventListener('click', requestRecovery);
  $('checkin').addEventListener('click', async () => {
    const button = $('checkin');
    button.disabled = true;
    try {
      const r = await checkIn();
      showError($('checkin-ok'), r.error ?? r.text);
    } catch {
      showError($('checkin-ok'), t('home.network_error'));
    } finally {
      button.disabled = false;
    }
  });
  $('recover-email').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      requestRecovery();
    }
  });
  $('login-form').addEventListener('submit', (e) => submitAccount(e, {
    path: '/api/login',
    fields: { username: $('login-username'), password: $('login-password') },
    errorEl: $('login-error'),
    button: $('login-submit'),
    label: 'account.login',
  }));
  $('register-form').addEventListener('submit', (e) => submitAccount(e, {
    path: '/api/accounts',
    fields: { username: $('register-username'), password: $('register-password'), email: $('register-email') },
    errorEl: $('register-error'),
    button: $('register-submit'),
    label: 'account.register',
  }));
  $('account-logout').addEventListener('click', logout);
  $('host-login-link').addEventListener('click', toLogin);
  $('host-taken-login').addEventListener('click', toLogin);
  loadAccount();
}

/** Whether this server lets guests create rooms (GET /api/site). */
let guestHosts = false;

/** Shows the two registration fields while a newcomer must register to host. */
function showHostFields() {
  $('create-account').hidden = !!account || guestHosts;
  if (account) $('host-taken').hidden = true;
}

/**
 * Registers from the create form's two fields (POST /api/accounts). A
 * username that is taken may be the returning host's own: the same two
 * fields then log in (POST /api/login); a wrong password offers the log-in
 * form instead. Returns an error text, or null once the browser is signed in.
 */
export async function registerHost() {
  const user = $('host-username');
  const pass = $('host-password');
  const body = { username: user.value.trim(), password: pass.value };
  $('host-taken').hidden = true;
  let result = await postAccount('/api/accounts', { ...body });
  if (result.code === 'username_taken') {
    result = await postAccount('/api/login', { ...body });
    if (result.code === 'bad_login') {
      result = { error: t('host.taken_wrong_password'), code: 'username_taken' };
      $('host-taken').hidden = false;
    }
  }
  if (result.error) {
    (result.code === 'bad_password' ? pass : user).setAttribute('aria-invalid', 'true');
    return result.error;
  }
  user.removeAttribute('aria-invalid');
  pass.removeAttribute('aria-invalid');
  pass.value = '';
  return null;
}

/** To the Account panel's log-in form, with the username the create form has (if any). */
function toLogin(e) {
  e.preventDefault();
  const name = $('host-username').value.trim();
  if (name) $('login-username').value = name;
  const field = name ? $('login-password') : $('login-username');
  field.focus();
  field.scrollIntoView({ block: 'center' });
}

/** Whether the create form asks for the two registration fields. */
export function hostFieldsShown() {
  return !$('create-account').hidden;
}

/** The server said hosting needs an account (signed out meanwhile, or the session expired): offer the fields. */
export function signedOut() {
  account = null;
  showAccount();
}

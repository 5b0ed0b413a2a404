// Unsubscribe page (/unsubscribe#t=TOKEN, the link of a "your turn" mail):
// turns that email off without signing in (POST /api/unsubscribe). The
// token stays in the fragment, out of server logs; the page takes it out
// of the address bar.

import { t, initI18n, errorText } from './i18n.js';
import { loadMe } from './coins.js';
import { $, showMessage as show } from './dom.js';
import { postJson } from './http.js';

const token = new URLSearchParams(location.hash.slice(1)).get('t') ?? '';
history.replaceState(null, '', location.pathname);

async function submit() {
  const button = $('unsub-submit');
  show($('unsub-error'), '');
  button.disabled = true;
  try {
    const { res, data } = await postJson('/api/unsubscribe', { token });
    if (!res.ok) {
      show($('unsub-error'), errorText(data?.error ?? res.status, 'account.error.'));
      return;
    }
    button.hidden = true;
    show($('unsub-ok'), t('unsubscribe.done'));
  } catch {
    show($('unsub-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
  }
}

initI18n($('lang'));
loadMe();
$('unsub-submit').addEventListener('click', submit);
if (!token) show($('unsub-error'), t('account.error.bad_link'));

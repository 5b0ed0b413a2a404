// Reset page (/reset#TOKEN, the link of a recovery mail): a new password
// (POST /api/reset). The token stays in the fragment, which never reaches
// a server log or a Referer; the page takes it out of the address bar.

import { t, initI18n, errorText } from './i18n.js';
import { loadMe } from './coins.js';
import { $, showMessage as show } from './dom.js';
import { postJson } from './http.js';

const token = location.hash.slice(1);
history.replaceState(null, '', location.pathname);

async function submit(e) {
  e.preventDefault();
  const input = $('reset-password');
  const button = $('reset-submit');
  show($('reset-error'), '');
  button.disabled = true;
  try {
    const { res, data } = await postJson('/api/reset', { token, password: input.value });
    if (!res.ok) {
      input.setAttribute('aria-invalid', 'true');
      show($('reset-error'), errorText(data?.error ?? res.status, 'account.error.'));
      return;
    }
    input.value = '';
    $('reset-form').hidden = true;
    show($('reset-ok'), t('reset.done', { name: data.username }));
  } catch {
    show($('reset-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
  }
}

initI18n($('lang'));
loadMe();
$('reset-form').addEventListener('submit', submit);
if (!token) show($('reset-error'), t('account.error.bad_link'));

// Reset page (/reset#TOKEN, the link of a recovery mail): a new password
// (POST /api/reset). The token stays in the fragment, which never reaches
// a server log or a Referer; the page takes it out of the address bar.

import { t, initI18n, errorText } from './i18n.js';
import { loadMe } from './coins.js';
import { $ } from './dom.js';

const token = location.hash.slice(1);
history.replaceState(null, '', location.pathname);

function show(node, text) {
  node.textContent = text ?? '';
  node.hidden = !text;
}

async function submit(e) {
  e.preventDefault();
  const input = $('reset-password');
  const button = $('reset-submit');
  show($('reset-error'), '');
  button.disabled = true;
  try {
    const res = await fetch('/api/reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: input.value }),
    });
    const data = await res.json().catch(() => ({}));
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

// The coin balance in the page header (`[data-testid="coins"]`, a link to
// the account page), from GET /api/me, and the daily check-in (POST
// /api/checkin). Games never cost or award coins.

import { t, onLangChange, errorText } from './i18n.js';
import { $ } from './dom.js';

let balance = null;

function render() {
  const node = $('coins');
  if (!node) return;
  node.hidden = balance == null;
  node.textContent = balance == null ? '' : t('coins.balance', { n: balance });
}

/** Shows `n` coins in the header (null hides it: signed out). */
export function showCoins(n) {
  balance = n ?? null;
  render();
}

/** Checks in; resolves to the text to show. */
export async function checkIn() {
  const res = await fetch('/api/checkin', { method: 'POST' });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) return { error: errorText(data?.error ?? res.status, 'account.error.') };
  showCoins(data.coins);
  return {
    text: data.added > 0
      ? t('coins.added', { n: data.added, streak: data.streak })
      : t('coins.already'),
  };
}

onLangChange(render);

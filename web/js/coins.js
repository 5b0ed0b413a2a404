// The coin balance in every page's header (`[data-testid="coins"]`, a
// link to the account page), from GET /api/me, and the daily check-in
// (POST /api/checkin). Games never cost or award coins.

import { t, onLangChange, errorText } from './i18n.js';
import { $ } from './dom.js';
import { applyCosmetics } from './cosmetics.js';
import { fetchMe } from './http.js';

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

/**
 * The pages without an account panel of their own (room, games, replay,
 * rules, reset): asks GET /api/me, shows the balance and draws the boards
 * with the account's cosmetics (signed out: no balance, the defaults).
 */
export async function loadMe() {
  try {
    const res = await fetchMe();
    if (res.status === 401) {
      showCoins(null);
      applyCosmetics(null);
      return null;
    }
    if (!res.ok) return null;
    const me = await res.json();
    showCoins(me.coins ?? 0);
    applyCosmetics(me.cosmetics);
    return me;
  } catch {
    return null; // offline: keep what the page had
  }
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

// The shop on the account page: the daily check-in, then every board theme
// and Jungle piece style with a preview, its price, and Buy (POST
// /api/shop/buy) or Use (POST /api/shop/choose). The list is GET
// /api/shop. Choosing applies at once to this page and, through
// /api/me, to every board this account's browsers draw.

import { t, onLangChange } from './i18n.js';
import { $, el } from './dom.js';
import { showCoins, checkIn } from './coins.js';
import { applyCosmetics } from './cosmetics.js';
import { drawPiece } from './jungle/render.js';

const SLOTS = ['crossyray_board', 'quoridor_board', 'jungle_board', 'jungle_pieces'];

/** {coins, items, chosen} as last loaded. */
let shop = null;
let call = null;
let errorText = null;
let busy = false;

function say(ok, error) {
  const okNode = $('shop-ok');
  const errNode = $('shop-error');
  okNode.textContent = ok ?? '';
  okNode.hidden = !ok;
  errNode.textContent = error ?? '';
  errNode.hidden = !error;
}

const name = (item) => t(`shop.item.${item.id}`);

/** A small picture of an item: the theme's colours, or two pieces. */
function preview(item) {
  if (item.slot === 'jungle_pieces') {
    const style = item.id === 'jungle-drawn' ? 'drawn' : 'emoji';
    const svg = el('span', { class: 'shop-preview pieces', 'aria-hidden': 'true' });
    svg.innerHTML = `<svg class="jg" viewBox="0 0 92 46" xmlns="http://www.w3.org/2000/svg">`
      + drawPiece({ side: 0, rank: 8 }, 'p0', 1, 1, style)
      + drawPiece({ side: 1, rank: 1 }, 'p1', 47, 1, style)
      + '</svg>';
    return svg;
  }
  const game = item.slot.split('_')[0];
  return el('span', {
    class: `shop-preview theme ${game}`,
    'aria-hidden': 'true',
    [`data-${game}-board`]: item.id,
  }, ...[1, 2, 3, 4, 5].map((n) => el('span', { class: `sw sw-${n}` })));
}

function itemRow(item) {
  const chosen = shop.chosen[item.slot] === item.id;
  let action;
  let need = null;
  if (chosen) {
    action = el('span', { class: 'badge in-use', 'data-testid': `in-use-${item.id}`, text: t('shop.in_use') });
  } else if (item.owned) {
    action = el('button', {
      type: 'button', class: 'small', 'data-testid': `choose-${item.id}`,
      'aria-label': t('shop.choose_label', { item: name(item) }),
      text: t('shop.choose'), onclick: () => choose(item),
    });
  } else {
    // Too few coins: Buy is disabled, and the price line says how many are missing.
    const short = Math.max(0, item.price - shop.coins);
    need = short ? el('span', { class: 'shop-need', id: `need-${item.id}`, 'data-testid': `need-${item.id}`, text: t('shop.need_coins', { n: short }) }) : null;
    action = el('button', {
      type: 'button', class: 'small primary', 'data-testid': `buy-${item.id}`,
      'aria-label': t('shop.buy_label', { item: name(item), n: item.price }),
      'aria-describedby': need ? need.id : null, disabled: !!need,
      text: t('shop.buy', { n: item.price }), onclick: () => buy(item),
    });
  }
  const price = item.price === 0 ? t('shop.free') : item.owned ? t('shop.owned') : t('shop.price', { n: item.price });
  return el('li', {
    class: `shop-item${chosen ? ' chosen' : ''}`,
    'data-testid': `item-${item.id}`,
    'data-owned': String(item.owned),
    'data-chosen': String(chosen),
  }, preview(item), el('span', { class: 'shop-name', text: name(item) }),
  el('span', { class: 'shop-price' }, price, need ? ' · ' : null, need), action);
}

function render() {
  const box = $('shop-slots');
  if (!shop) {
    box.replaceChildren();
    return;
  }
  $('shop-coins').textContent = t('shop.coins', { n: shop.coins });
  box.replaceChildren(...SLOTS.map((slot) => el('div', { class: 'shop-slot', 'data-testid': `slot-${slot}` },
    el('h3', { text: t(`shop.slot.${slot}`) }),
    el('ul', { class: 'shop-items' }, ...shop.items.filter((i) => i.slot === slot).map(itemRow)))));
}

/** Loads the shop (signed in only). */
export async function loadShop() {
  const r = await call('GET', '/api/shop');
  if (!r.ok) {
    shop = null;
    render();
    return;
  }
  shop = r.data;
  showCoins(shop.coins);
  applyCosmetics(shop.chosen);
  render();
}

async function act(path, item, done) {
  if (busy) return;
  busy = true;
  say();
  try {
    const r = await call('POST', path, { item: item.id });
    if (!r.ok) return say(null, errorText(r.data, r.res));
    await loadShop();
    say(done(r.data));
  } catch {
    say(null, t('home.network_error'));
  } finally {
    busy = false;
  }
}

function buy(item) {
  return act('/api/shop/buy', item, () => t('shop.bought', { item: name(item) }));
}

function choose(item) {
  return act('/api/shop/choose', item, () => t('shop.chosen', { item: name(item) }));
}

/** Wires the shop section; `deps` are the account page's request helpers. */
export function initShop(deps) {
  ({ call, errorText } = deps);
  $('shop-checkin').addEventListener('click', async () => {
    say();
    const r = await checkIn();
    if (r.error) return say(null, r.error);
    await loadShop();
    say(r.text);
  });
  onLangChange(render);
}

// The games page (/games): this browser's finished games from
// GET /api/games with Authorization: Bearer TOKEN (the token socket.js
// keeps, never in the URL; with a session cookie the account's games
// come too), newest first, 20 a page, filtered by
// game and by the caller's result. Filters and page live in the address
// (?game=&result=&page=) so a list can be reloaded or shared as it is.

import { t, initI18n, onLangChange } from './i18n.js';
import { storedToken } from './socket.js';
import { loadMe } from './coins.js';
import { $, el } from './dom.js';
import { GAMES, RESULTS, pageLoader, gameEntry, renderPager } from './history.js';

const params = new URLSearchParams(location.search);
const filters = {
  game: GAMES.includes(params.get('game')) ? params.get('game') : '',
  result: RESULTS.includes(params.get('result')) ? params.get('result') : '',
  page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
};
let last = null; // the last answer: {games, page, pages, total}, or {error}
const ask = pageLoader('history-list', { 401: 'history.no_token' }, (answer) => { last = answer; render(); });

function fillFilters() {
  $('filter-game').replaceChildren(
    el('option', { value: '', text: t('history.all_games') }),
    ...GAMES.map((g) => el('option', { value: g, text: t(`game.${g}`) })));
  $('filter-result').replaceChildren(
    el('option', { value: '', text: t('history.all_results') }),
    ...RESULTS.map((r) => el('option', { value: r, text: t(`history.res.${r}`) })));
  $('filter-game').value = filters.game;
  $('filter-result').value = filters.result;
}

function render() {
  const status = $('history-status');
  const list = $('history-list');
  const pager = $('pager');
  if (!last) {
    status.textContent = '…';
    return;
  }
  if (last.error) {
    status.textContent = t(last.error);
    list.replaceChildren();
    pager.hidden = true;
    return;
  }
  status.textContent = last.games.length ? '' : t('history.empty');
  list.replaceChildren(...last.games.map((g) => gameEntry(g)));
  renderPager(pager, last);
}

async function load() {
  const token = storedToken();
  if (!token) {
    last = { error: 'history.no_token' };
    render();
    return;
  }
  const q = new URLSearchParams();
  if (filters.game) q.set('game', filters.game);
  if (filters.result) q.set('result', filters.result);
  if (filters.page > 1) q.set('page', String(filters.page));
  const shown = new URLSearchParams();
  for (const k of ['game', 'result']) if (filters[k]) shown.set(k, filters[k]);
  if (filters.page > 1) shown.set('page', String(filters.page));
  history.replaceState(null, '', `/games${shown.size ? `?${shown}` : ''}`);
  await ask(`/api/games${q.size ? `?${q}` : ''}`, { Authorization: `Bearer ${token}` });
}

function init() {
  initI18n($('lang'));
  loadMe();
  fillFilters();
  $('filter-game').addEventListener('change', () => { filters.game = $('filter-game').value; filters.page = 1; load(); });
  $('filter-result').addEventListener('change', () => { filters.result = $('filter-result').value; filters.page = 1; load(); });
  $('page-prev').addEventListener('click', () => { filters.page = Math.max(1, filters.page - 1); load(); });
  $('page-next').addEventListener('click', () => { filters.page += 1; load(); });
  onLangChange(() => { fillFilters(); render(); });
  load();
}

init();

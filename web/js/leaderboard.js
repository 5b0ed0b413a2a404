// The leaderboard (/leaderboard?game=G), from GET /api/leaderboard/G
// (docs/PROTOCOL.md, "Profiles and ratings"): the best-rated active
// players of a game, each linking to their profile, and the computer
// levels' fixed ratings. The game lives in the address.

import { t, initI18n, onLangChange } from './i18n.js';
import { $, el } from './dom.js';
import { GAMES, pageLoader } from './history.js';
import { computerName } from './names.js';
import { loadMe } from './coins.js';

const params = new URLSearchParams(location.search);
let game = GAMES.includes(params.get('game')) ? params.get('game') : 'quoridor';
let last = null;
const ask = pageLoader('leaderboard-rows', {}, (answer) => { last = answer; render(); });

function fillGames() {
  $('leaderboard-game').replaceChildren(...GAMES.map((g) => el('option', { value: g, text: t(`game.${g}`) })));
  $('leaderboard-game').value = game;
}

function render() {
  const status = $('leaderboard-status');
  if (!last) { status.textContent = '…'; return; }
  if (last.error) {
    status.textContent = t(last.error);
    $('leaderboard').hidden = true;
    return;
  }
  $('leaderboard-intro').textContent = t('leaderboard.intro', { n: last.min_games });
  status.textContent = last.players.length ? '' : t('leaderboard.empty');
  $('leaderboard').hidden = last.players.length === 0;
  $('leaderboard-rows').replaceChildren(...last.players.map((p, i) => el('tr', { 'data-testid': 'leader' },
    el('td', { text: String(i + 1) }),
    el('td', {}, el('a', { href: `/u/${encodeURIComponent(p.username)}`, text: p.name })),
    el('td', { 'data-testid': 'leader-rating', text: t('profile.rating_value', { rating: p.rating, deviation: p.deviation }) }),
    el('td', { text: String(p.games) }))));
  $('computer-ratings').replaceChildren(...last.computers.map((c) => el('li', { 'data-testid': 'computer-rating' },
    `${computerName(c.level)}: ${c.rating}`)));
}

async function load() {
  history.replaceState(null, '', `/leaderboard?game=${game}`);
  await ask(`/api/leaderboard/${game}`);
}

function init() {
  initI18n($('lang'));
  loadMe();
  fillGames();
  $('leaderboard-game').addEventListener('change', () => { game = $('leaderboard-game').value; load(); });
  onLangChange(() => { fillGames(); render(); });
  load();
}

init();

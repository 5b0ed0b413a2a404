// A player's public profile (/u/NAME), from GET /api/players/NAME
// (docs/PROTOCOL.md, "Profiles and ratings"): the display name, a line
// per game (played, won, drawn, lost, aborted, which is a game that ended
// without a result, so the four add up to played; and the rating with its
// deviation once the player has one), and the recent games, each linking
// to its replay. The page of recent games lives in the address (?page=N).

import { tokenHeaders } from './socket.js';
import './home/challenges-page.js';
import { t, initI18n, onLangChange, lang } from './i18n.js';
import { $, el } from './dom.js';
import { pageLoader, gameEntry, renderPager, dateText, getJson } from './history.js';
import { ratingGraph } from './rating-graph.js';
import { loadMe } from './coins.js';

const username = decodeURIComponent(location.pathname.replace(/^\/u\//, ''));
const params = new URLSearchParams(location.search);
let page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
let last = null; // the last answer, or {error}
let graphs = []; // the rating histories of the games played rated
const ask = pageLoader('recent-list', { 404: 'profile.no_player' }, (answer) => { last = answer; render(); loadGraphs(); });

/** Fetches the rating history of each game the player has a rating at. */
async function loadGraphs() {
  const rated = (last?.games ?? []).filter((g) => g.rating);
  const answers = await Promise.all(rated.map((g) =>
    getJson(`/api/players/${encodeURIComponent(username)}/ratings/${encodeURIComponent(g.game)}`)));
  graphs = answers.filter((r) => r.ok && r.data.points.length).map((r) => r.data);
  renderGraphs();
}

/** One SVG line graph per game played rated (rating-graph.js). */
function renderGraphs() {
  const box = $('rating-graphs');
  box.hidden = graphs.length === 0;
  $('graph-list').replaceChildren(...graphs.map((h) => el('figure', { class: 'rating-figure', 'data-testid': 'rating-figure', 'data-game': h.game },
    el('figcaption', { text: t(h.points.length === 1 ? 'rating.graph_caption_1' : 'rating.graph_caption', { game: t(`game.${h.game}`), count: h.points.length }) }),
    ratingGraph({ game: h.game, name: h.name, points: h.points, date: (ms) => (ms == null ? '' : dateOnly(ms)) }))));
  $('graph-list').dataset.loaded = String(graphs.length);
}

function dateOnly(ms) {
  return new Date(ms).toLocaleDateString(lang() === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'medium' });
}

/** "1 662 ± 290" for a rating view `{rating, deviation}`, else "–". */
export function ratingText(r) {
  if (!r) return '–';
  return t('profile.rating_value', { rating: Math.round(r.rating), deviation: Math.round(r.deviation) });
}

function render() {
  const status = $('profile-status');
  if (!last) {
    status.textContent = '…';
    return;
  }
  if (last.error) {
    $('profile-name').textContent = username;
    status.textContent = t(last.error, { name: username });
    $('profile-games').hidden = true;
    $('recent-list').replaceChildren();
    $('pager').hidden = true;
    // Nobody to challenge, no games to list.
    $('challenge-button')?.remove();
    $('challenge-form-box')?.remove();
    $('recent-title').closest('section').hidden = true;
    return;
  }
  document.title = t('profile.title', { name: last.name });
  $('profile-name').textContent = last.name;
  $('profile-meta').textContent = t('profile.meta', { username: last.username, date: dateText(last.since) });
  status.textContent = last.games.length ? '' : t('profile.no_games');
  $('profile-games').hidden = last.games.length === 0;
  $('profile-rows').replaceChildren(...last.games.map((g) => el('tr', { 'data-testid': 'profile-game', 'data-game': g.game },
    el('th', { scope: 'row', text: t(`game.${g.game}`) }),
    // Each figure with its column's words (data-label): a phone shows them stacked (site.css).
    el('td', { 'data-testid': 'played', 'data-label': t('profile.played'), text: String(g.played) }),
    el('td', { 'data-testid': 'wins', 'data-label': t('profile.wins'), text: String(g.wins) }),
    el('td', { 'data-testid': 'draws', 'data-label': t('profile.draws'), text: String(g.draws) }),
    el('td', { 'data-testid': 'losses', 'data-label': t('profile.losses'), text: String(g.losses) }),
    el('td', { 'data-testid': 'aborted', 'data-label': t('profile.aborted'), text: String(g.aborted ?? 0) }),
    el('td', { 'data-testid': 'rating', 'data-label': t('profile.rating'), text: ratingText(g.rating) }))));
  $('recent-status').textContent = last.recent.length ? '' : t('history.empty');
  $('recent-list').replaceChildren(...last.recent.map((g) => gameEntry(g)));
  renderPager($('pager'), last);
}

async function load() {
  history.replaceState(null, '', `/u/${encodeURIComponent(username)}${page > 1 ? `?page=${page}` : ''}`);
  // The browser's token: a private room's code is shown to its members only.
  await ask(`/api/players/${encodeURIComponent(username)}${page > 1 ? `?page=${page}` : ''}`, tokenHeaders());
}

function init() {
  initI18n($('lang'));
  loadMe();
  $('page-prev').addEventListener('click', () => { page = Math.max(1, page - 1); load(); });
  $('page-next').addEventListener('click', () => { page += 1; load(); });
  onLangChange(() => { render(); renderGraphs(); });
  load();
}

if (typeof document !== 'undefined' && document.getElementById('profile-name')) init();

// The "Past games" panel: one page of the room's finished games (GET
// /api/rooms/CODE/games), asked again when a game ends there. The server
// may list a game a moment after its end: the first page is asked again
// a few times until the games that just ended are in it.

import { $ } from '../dom.js';
import { getJson, gameEntry, renderPager } from '../history.js';
import { page } from './page.js';

let games = null; // the page shown: {games, page, pages, total}, newest first
let pageNo = 1;
const seen = new Set(); // ids of finished matches already asked about
let seq = 0;

export const pastGamesPanel = {
  name: 'past-games',
  slice: (m) => [m.room.tables],
  draw: (model) => checkPastGames(model),
};

/**
 * Fetch the page shown again; on the first page, when `want` (ids of
 * matches that just ended) are not listed yet, ask again a little later.
 */
async function load(want = [], tries = 6) {
  const mine = ++seq;
  const r = await getJson(`/api/rooms/${encodeURIComponent(page.code)}/games?page=${pageNo}`);
  if (mine !== seq) return;
  if (r.ok) {
    games = r.data;
    drawPastGames();
  }
  const missing = pageNo === 1 ? want.filter((id) => !games?.games.some((g) => g.id === id)) : [];
  if ((missing.length || !r.ok) && tries > 1) {
    setTimeout(() => { if (mine === seq) load(missing, tries - 1); }, 700);
  }
}

/** A match that just ended (or one the page has not asked about) refreshes the list. */
function checkPastGames(model) {
  const fresh = [];
  for (const table of model.room.tables ?? []) {
    const m = table.match;
    if (m?.outcome && m.id && !seen.has(m.id)) {
      seen.add(m.id);
      fresh.push(m.id);
    }
  }
  if (fresh.length || games === null) load(fresh);
}

export function drawPastGames() {
  const list = games?.games ?? [];
  $('past-games').replaceChildren(...list.map((g) => gameEntry(g, { showRoom: false })));
  $('past-empty').hidden = list.length > 0 || pageNo > 1;
  if (games) renderPager($('past-pager'), games);
}

export function wirePastGames() {
  const show = (n) => {
    pageNo = Math.max(1, n);
    load();
  };
  $('past-prev').addEventListener('click', () => show(pageNo - 1));
  $('past-next').addEventListener('click', () => show(pageNo + 1));
}

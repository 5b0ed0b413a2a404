// Finished games as the history API gives them (docs/PROTOCOL.md, "History
// and export"): a game's outcome and date as people read them, and the
// list entry the games page and the room's "Past games" both draw. The
// replay page (replay.js) and the games page (games.js) share these.

import { t, lang } from './i18n.js';
import { el } from './dom.js';
import { gameOf, GAME_NAMES } from './games/registry.js';

import { getJson } from './http.js';
import { sideNames, winLine } from './names.js';
import { changeText } from './rating-graph.js';

export { getJson };

/**
 * A page's loader of its one API answer: `load(url, headers)` GETs `url`,
 * and the answer of the newest call only (filters and pages change faster
 * than answers come) goes to `show`: its data, or `{error}` with the code
 * `errors` has for its status, else 'history.error'. The list `listId`
 * then carries the call's number in `data-loaded`, for tests.
 */
export function pageLoader(listId, errors, show) {
  let seq = 0;
  return async (url, headers) => {
    const mine = ++seq;
    const r = await getJson(url, headers);
    if (mine !== seq) return;
    show(r.ok ? r.data : { error: errors[r.status] ?? 'history.error' });
    document.getElementById(listId).dataset.loaded = String(mine);
  };
}

/** The games the lists filter by (games/facts.js). */
export const GAMES = GAME_NAMES;
export const RESULTS = ['win', 'loss', 'draw', 'aborted'];

/** The reason of an outcome in words (Quoridor's goal reads its own way). */
export function reasonText(game, reason) {
  return gameOf(game).reasonText(reason);
}

/** `{head, reason}` for a finished game's `outcome` with its `players` (names per side). */
export function outcomeText(g) {
  const o = g.outcome ?? {};
  const reason = o.reason ? reasonText(g.game, o.reason) : '';
  if (o.kind === 'win') return { head: winLine(sideNames(g.game, g.players?.[o.winner] ?? '?')), reason };
  if (o.kind === 'draw') return { head: t('result.draw'), reason };
  return { head: t('result.aborted'), reason };
}

/** The outcome in one line: "Lan wins, by resignation". */
export function outcomeLine(g) {
  const { head, reason } = outcomeText(g);
  return reason ? `${head}, ${t('result.by', { reason })}` : head;
}

/** Unix milliseconds as a local date and time in the page's language. */
export function dateText(ms) {
  if (ms == null) return '';
  const locale = lang() === 'vi' ? 'vi-VN' : 'en-GB';
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Shows a paged list's pager for `{page, pages}` (the API's answer): a
 * `nav` holding `.page-prev`, `.page-info` and `.page-next`; hidden while
 * there is only one page.
 */
export function renderPager(nav, { page, pages }) {
  nav.hidden = pages <= 1 && page <= 1;
  nav.querySelector('.page-info').textContent = t('history.page', { page, pages });
  nav.querySelector('.page-prev').disabled = page <= 1;
  nav.querySelector('.page-next').disabled = page >= pages;
}

/**
 * The rating change of side `side` in a rated game `g` (its
 * `rating_changes`), as a span "+12" / "−8" titled with the ratings
 * before and after; null when the game was not rated.
 */
export function ratingChange(g, side) {
  const c = (g.rating_changes ?? []).find((x) => x.side === side);
  if (!c) return null;
  const sign = c.change > 0 ? 'up' : c.change < 0 ? 'down' : 'same';
  const words = t('rating.change', { change: changeText(c.change), before: c.before, after: c.after });
  return el('span', { class: `rating-change rc-${sign}`, 'data-testid': 'rating-change', 'data-side': String(side), title: words, 'aria-label': words, text: changeText(c.change) });
}

/**
 * One list entry for a game summary `g`: game, players, the outcome (and
 * the caller's `result` when the list has it), date and room; the entry
 * links to the replay at /g/ID.
 */
export function gameEntry(g, { showRoom = true } = {}) {
  const players = (g.players ?? []).flatMap((name, side) => {
    const change = ratingChange(g, side);
    return [side ? ' – ' : null, sideNames(g.game, name).join(' + '), change ? ' ' : null, change];
  }).filter((x) => x != null);
  return el('li', { class: 'game-entry', 'data-testid': 'game-entry', 'data-id': g.id, 'data-game': g.game, 'data-result': g.result ?? null },
    el('a', { class: 'game-link', href: `/g/${encodeURIComponent(g.id)}`, 'data-testid': 'game-link' },
      el('span', { class: 'ge-game', text: `${t(`game.${g.game}`)} #${g.number}` }),
      ' ',
      el('span', { class: 'ge-players', 'data-testid': 'game-players' }, ...players)),
    el('span', { class: 'ge-meta' },
      g.result ? el('span', { class: `badge res-${g.result}`, 'data-testid': 'game-result', text: t(`history.res.${g.result}`) }) : null,
      g.result ? ' ' : null,
      el('span', { class: 'ge-outcome', 'data-testid': 'game-outcome', text: outcomeLine(g) }),
      ' · ',
      el('time', { class: 'ge-date', datetime: new Date(g.ended_at ?? 0).toISOString(), text: dateText(g.ended_at) }),
      showRoom && g.room ? ' · ' : null,
      showRoom && g.room ? el('a', { class: 'ge-room', href: `/r/${encodeURIComponent(g.room)}`, 'data-testid': 'game-room', text: t('room.title', { code: g.room }) }) : null));
}

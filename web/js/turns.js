// "Your turn": the turn-based games waiting for this person's move
// (GET /api/turns: the signed-in account's and this browser's, read from
// the store), as a list with links and the time left, on the home and the
// account pages; the tab title starts with their count, "(2) …". Beside
// it, "Playing now": the live games this person plays (the same answer's
// `playing`), so a game started on the phone is one tap away on the desktop.

import { t, onLangChange } from './i18n.js';
import { el, $ } from './dom.js';
import { getJson, signedInLikely } from './http.js';
import { storedToken, tokenHeaders } from './socket.js';
import { shownName } from './names.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** "2 days left to move", "5 h left to move", "12 min left to move". */
export function leftText(ms) {
  if (ms >= 2 * DAY) return t('turns.left_days', { n: Math.floor(ms / DAY) });
  if (ms >= DAY) return t('turns.left_day');
  if (ms >= HOUR) return t('turns.left_hours', { n: Math.floor(ms / HOUR) });
  return t('turns.left_minutes', { n: Math.max(0, Math.ceil(ms / 60_000)) });
}

/** The tab title with the count of games waiting first: "(2) Board games". */
export function countedTitle(title, n) {
  const plain = title.replace(/^\(\d+\) /, '');
  return n > 0 ? `(${n}) ${plain}` : plain;
}

let shown = [];
let playing = [];

/** A game's line: its name and players, a link to its room. */
const gameLink = (g, testid) => el('a', { href: `/r/${g.room}`, 'data-testid': testid, text: `${t(`game.${g.game}`)} · ${g.players.map(shownName).join(' – ')}` });

function render() {
  const box = $('turns-panel');
  if (!box) return;
  box.hidden = shown.length === 0;
  $('turns-list').replaceChildren(...shown.map((g) =>
    el('li', { 'data-testid': 'turn-item' },
      gameLink(g, `turn-link-${g.room}`),
      ' ', el('span', { class: 'hint', 'data-testid': `turn-left-${g.room}`, text: leftText(g.left_ms) }))));
  document.title = countedTitle(document.title, shown.length);
  // The live games this person plays now, wherever they started them.
  const live = $('playing-panel');
  if (!live) return;
  live.hidden = playing.length === 0;
  $('playing-list').replaceChildren(...playing.map((g) =>
    el('li', { 'data-testid': 'playing-item' }, gameLink(g, `playing-link-${g.room}`))));
}

/** Fetches the list and shows it; again every minute and on a language change. */
export async function showTurns() {
  // Neither a browser token nor an account: no turns to ask for (401).
  const answer = storedToken() || (await signedInLikely()) ? await getJson('/api/turns', tokenHeaders()) : { ok: false };
  shown = answer.ok ? answer.data.turns ?? [] : [];
  playing = answer.ok ? answer.data.playing ?? [] : [];
  render();
}

export function initTurns() {
  showTurns();
  setInterval(showTurns, 60_000);
  onLangChange(() => { document.title = countedTitle(document.title, shown.length); render(); });
}

/** The account page's "your turn" email switch (GET/POST /api/turn-mail). */
export async function initTurnMail() {
  const box = $('turn-mail');
  if (!box || !(await signedInLikely())) return;
  const answer = await getJson('/api/turn-mail');
  if (!answer.ok) return;
  box.checked = !!answer.data.turn_mail;
  box.addEventListener('change', async () => {
    const error = $('turn-mail-error');
    error.hidden = true;
    try {
      const res = await fetch('/api/turn-mail', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ turn_mail: box.checked }),
      });
      if (!res.ok) throw new Error(String(res.status));
    } catch {
      box.checked = !box.checked;
      error.textContent = t('home.network_error');
      error.hidden = false;
    }
  });
}

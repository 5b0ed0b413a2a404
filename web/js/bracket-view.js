// Draws a knockout tournament's bracket (the view model of bracket.js):
// rounds as columns (stacked on a phone, the round under way first), each
// match with its players, games won, where it stands and its spectators,
// a button to watch its table; the bye, the rounds still to be drawn, the
// champion. Every word goes through t().

import { t } from './i18n.js';
import { el } from './dom.js';
import { MIN_PLAYERS, MAX_PLAYERS } from './bracket.js';

// Small icons drawn here (emoji fonts are not everywhere).
const EYE = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"/><circle cx="12" cy="12" r="3" fill="currentColor"/></svg>';
const CUP = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M7 3h10v2h4v3a5 5 0 0 1-4.6 5A5 5 0 0 1 13 15.9V18h3v3H8v-3h3v-2.1A5 5 0 0 1 7.6 13 5 5 0 0 1 3 8V5h4V3zm0 4H5v1a3 3 0 0 0 2 2.8V7zm10 0v3.8A3 3 0 0 0 19 8V7h-2z"/></svg>';

/** `html` (one of the icons above) in a span. */
function icon(html) {
  const span = el('span', { class: 'icon', 'aria-hidden': 'true' });
  span.innerHTML = html;
  return span;
}

/** A round's name: the final, the semi-finals, or round n. */
export function roundName(label) {
  if (label.kind === 'final') return t('ko.final');
  if (label.kind === 'semi') return t('ko.semi');
  return t('ko.round', { n: label.number });
}

/** One line saying where the tournament stands (`view` null: none yet). */
export function statusText(view, { seated = 0, nameOf = (p) => p.name } = {}) {
  if (!view) return t('ko.intro', { min: MIN_PLAYERS, max: MAX_PLAYERS, n: seated });
  const current = view.rounds.find((r) => r.number === view.round);
  const round = current ? roundName(current.label) : t('ko.round', { n: view.round });
  switch (view.status) {
    case 'between_rounds': return t('ko.status.between', { round });
    case 'finished': return t('ko.status.finished', { name: view.champion ? nameOf(view.champion) : '?' });
    case 'stopped': return t('ko.status.stopped', { round });
    default: return t('ko.status.playing', { round, n: view.entrants });
  }
}

/** Where one match stands, in words. */
export function matchStateText(m, nameOf) {
  const winner = m.players.find((p) => p.winner);
  switch (m.state) {
    case 'won': return t(m.draws ? 'ko.state.won_replay' : 'ko.state.won', { name: nameOf(winner) });
    case 'coin_toss': return t('ko.state.coin', { name: nameOf(winner) });
    case 'playing': return t(m.draws ? 'ko.state.replay_moves' : 'ko.state.playing_moves', { n: m.moves ?? 0 });
    default: return t(m.draws ? 'ko.state.replay_next' : 'ko.state.waiting');
  }
}

function playerRow(p, nameOf) {
  const cls = ['bm-player', p.winner ? 'winner' : '', p.loser ? 'loser' : '', p.you ? 'you' : ''].filter(Boolean).join(' ');
  return el('div', { class: cls, 'data-testid': 'bm-player', dataset: { member: p.member, winner: String(p.winner) } },
    el('span', { class: 'bm-name', text: nameOf(p) }),
    p.you ? el('span', { class: 'badge you', text: t('members.you') }) : null,
    p.winner ? el('span', { class: 'bm-advances', 'aria-label': t('ko.advances'), title: t('ko.advances'), text: '✓' }) : null,
    el('span', { class: 'bm-score', 'data-testid': 'bm-score', title: t('ko.games_won'), text: String(p.wins) }));
}

function watchLabel(m) {
  if (m.mine && m.running) return t('ko.your_match');
  return m.running ? t('ko.watch') : t('ko.show_board');
}

function matchItem(m, { nameOf, onWatch, shown }) {
  const [a, b] = m.players;
  const foot = [el('span', { class: 'bm-state', 'data-testid': 'bm-state', text: matchStateText(m, nameOf) })];
  if (m.spectators != null) {
    foot.push(el('span', {
      class: 'bm-spectators', 'data-testid': 'bm-spectators', dataset: { n: String(m.spectators) },
      title: t('ko.spectators', { n: m.spectators }),
    }, icon(EYE), el('span', { class: 'sr-only', text: t('ko.spectators', { n: '' }) }), String(m.spectators)));
  }
  if (m.watchable) {
    foot.push(el('button', {
      type: 'button', class: `small ${m.running ? 'primary' : ''}`, 'data-testid': 'watch', dataset: { table: m.table },
      'aria-label': t('ko.watch_label', { a: nameOf(a), b: nameOf(b) }), 'aria-current': shown === m.table ? 'true' : null,
      text: watchLabel(m), onclick: () => onWatch(m.table),
    }));
  }
  const cls = ['bm', m.mine ? 'mine' : '', m.running ? 'running' : ''].filter(Boolean).join(' ');
  return el('li', {
    class: cls, 'data-testid': 'bracket-match',
    dataset: { table: m.table, state: m.state, mine: String(m.mine), winner: m.winner ?? '', draws: String(m.draws) },
  }, el('div', { class: 'bm-players' }, playerRow(a, nameOf), playerRow(b, nameOf)), el('div', { class: 'bm-foot' }, ...foot));
}

function roundColumn(r, opts) {
  const head = el('h3', { text: roundName(r.label) });
  const cls = ['bracket-round', r.current ? 'current' : '', r.planned ? 'planned' : ''].filter(Boolean).join(' ');
  const attrs = { class: cls, 'data-testid': 'bracket-round', dataset: { round: String(r.number), current: String(r.current), planned: String(r.planned) } };
  if (r.planned) {
    return el('section', attrs, head, el('p', { class: 'hint', text: t('ko.planned', { n: r.players }) }));
  }
  const bye = r.bye
    ? el('p', { class: `bracket-bye ${r.bye.you ? 'you' : ''}`, 'data-testid': 'bracket-bye', dataset: { member: r.bye.member }, text: t('ko.bye', { name: opts.nameOf(r.bye) }) })
    : null;
  return el('section', attrs, head, el('ol', { class: 'bm-list' }, ...r.matches.map((m) => matchItem(m, opts))), bye);
}

/**
 * Draws `view` (bracket.js's bracketView, or null before the first
 * tournament) into `box`. `nameOf(person)` names a player;
 * `onWatch(table)` opens a table; `shown` is the table the page shows.
 */
export function renderBracket(box, view, { nameOf, onWatch, shown = null, seated = 0 }) {
  box.dataset.status = view?.status ?? 'none';
  if (!view) {
    box.replaceChildren(el('p', { class: 'hint', 'data-testid': 'bracket-seated', text: t('ko.seated', { n: seated, min: MIN_PLAYERS }) }));
    return;
  }
  // A redraw (every move at any table) keeps the focus on the button it was on.
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.table : null;
  const opts = { nameOf, onWatch, shown };
  const columns = view.rounds.map((r) => roundColumn(r, opts));
  if (view.champion) {
    columns.push(el('section', { class: 'bracket-round champion', 'data-testid': 'bracket-champion', dataset: { member: view.champion.member } },
      el('h3', { text: t('ko.champion_title') }),
      el('p', { class: 'bm-champion' }, icon(CUP), el('span', { text: nameOf(view.champion) }))));
  }
  box.replaceChildren(...columns);
  if (focused) box.querySelector(`[data-testid="watch"][data-table="${focused}"]`)?.focus();
}

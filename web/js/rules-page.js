// A game's rules page (/rules/GAME; web/rules.html): the rules from
// docs/RULES.md in the page's language, and an illustrated walkthrough
// ("pick a step to see the change"). Each step's diagram is a position
// the server plays with the rules crate (GET /api/position), drawn by the
// game's own board renderer, read-only; the page computes no rule. Under
// the board a line says who is to move or how the game ended, and, for a
// step that asks for them, the server's scoreboard points.
// The walkthrough comes right after the game's first paragraph, before the
// rules' sections. /rules (the header's "Rules" link) is the index of the
// three games' pages, each with its first paragraph, in the page's
// language; it links the developers' text (/rules.md, docs/RULES.md).
// `?embed` drops the page's header: the room shows the page in a dialog,
// and Escape inside the page asks the room to close it.

import { t, initI18n, onLangChange, lang } from './i18n.js';
import { loadMe } from './coins.js';
import { $, el } from './dom.js';
import { getJson, outcomeLine } from './history.js';
import { gameOf } from './games/registry.js';
import { RULES_GAMES } from './rules/index.js';

const game = (() => {
  const m = /^\/rules\/([a-z]+)\/?$/.exec(location.pathname);
  return m && RULES_GAMES.includes(m[1]) ? m[1] : null;
})();
const isIndex = /^\/rules\/?$/.test(location.pathname);
const embedded = new URLSearchParams(location.search).has('embed');

let content = null;
let board = null;
let step = 0;
const positions = new Map(); // step index -> the server's answer (or its error)

const wordsOf = (c) => c.text[lang()] ?? c.text.en;
const words = () => wordsOf(content);

function renderNav() {
  $('rules-nav').replaceChildren(...RULES_GAMES.map((g) =>
    el('a', {
      href: `/rules/${g}${embedded ? '?embed' : ''}`,
      'data-testid': `rules-nav-${g}`,
      'aria-current': g === game ? 'page' : null,
      text: t(`game.${g}`),
    })));
}

function renderText() {
  const w = words();
  document.title = t('rules.page_title', { game: w.title });
  $('rules-title').textContent = w.title;
  $('rules-intro').textContent = w.intro;
  $('rules-sections').replaceChildren(...w.sections.map((s) =>
    el('section', { class: 'rules-section' },
      el('h2', { text: s.h }),
      ...s.ps.map((p) => el('p', { text: p })))));
  $('walk-title').textContent = w.walkthrough;
  $('walk-steps').replaceChildren(...content.steps.map((s, i) =>
    el('li', {},
      el('button', {
        type: 'button',
        class: 'walk-step',
        'data-testid': `walk-step-${s.id}`,
        'aria-pressed': String(i === step),
        onclick: () => show(i),
        text: `${i + 1}. ${w.steps[s.id][0]}`,
      }))));
}

/** The step's position from the server, asked once. */
async function positionOf(i) {
  if (!positions.has(i)) {
    const s = content.steps[i];
    const q = new URLSearchParams({ game, moves: s.moves.join(',') });
    if (s.options) q.set('options', JSON.stringify(s.options));
    positions.set(i, getJson(`/api/position?${q}`));
  }
  return positions.get(i);
}

async function show(i) {
  step = Math.max(0, Math.min(content.steps.length - 1, i));
  const shown = step;
  for (const [k, b] of [...$('walk-steps').querySelectorAll('button')].entries()) b.setAttribute('aria-pressed', String(k === step));
  const s = content.steps[step];
  const w = words();
  $('walk-caption').textContent = w.steps[s.id][1];
  $('walk-prev').disabled = step === 0;
  $('walk-next').disabled = step === content.steps.length - 1;
  const r = await positionOf(step);
  if (shown !== step) return;
  if (!r.ok) {
    $('walk-caption').textContent = t('rules.diagram_failed');
    return;
  }
  const state = r.data.state;
  const names = w.sides.slice(0, state.pawns?.length ?? 2);
  const players = names.map((name, side) => ({ member: `side-${side}`, name }));
  board.set({ players, state, legal: r.data.legal, moves: r.data.moves },
    { member: `side-${s.as}` }, r.data.options);
  if (s.show) board.show(s.show);
  $('walk-status').textContent = statusLine(s, r.data, names);
  $('walk-board').dataset.step = s.id;
}

/** Who is to move, or how the game ended (with the points if the step shows them). */
function statusLine(s, position, names) {
  const { state, points } = position;
  if (!state.outcome) return t('game.to_move', { name: names[state.to_move] ?? '?' });
  const line = outcomeLine({ game, outcome: state.outcome, players: names });
  if (!s.points || !points) return line;
  const each = names.map((name, side) => t('rules.points_of', { name, n: points[side] })).join(' · ');
  return `${line}. ${t('rules.points', { points: each })}`;
}

/** The index (/rules, or under an unknown game's message): each game's page with its first paragraph. */
async function renderIndex() {
  const all = await Promise.all(RULES_GAMES.map(async (g) => [g, (await import(`./rules/${g}.js`)).default]));
  const draw = () => $('rules-index-list').replaceChildren(...all.map(([g, c]) =>
    el('li', { class: 'rules-index-game', 'data-testid': `rules-index-${g}` },
      el('h2', {}, el('a', { href: `/rules/${g}${embedded ? '?embed' : ''}`, 'data-testid': `rules-index-link-${g}`, text: wordsOf(c).title })),
      el('p', { text: wordsOf(c).intro }))));
  draw();
  onLangChange(draw);
  $('rules-index').hidden = false;
  $('rules-nav').hidden = isIndex;
}

async function init() {
  initI18n($('lang'));
  loadMe();
  document.body.classList.toggle('embedded', embedded);
  if (embedded) {
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') parent.postMessage({ type: 'rules-close' }, location.origin);
    });
  }
  renderNav();
  onLangChange(renderNav);
  if (!game) {
    if (!isIndex) {
      $('rules-missing').hidden = false;
      $('rules-missing').textContent = t('rules.missing');
      onLangChange(() => { $('rules-missing').textContent = t('rules.missing'); });
    }
    await renderIndex();
    return;
  }
  content = (await import(`./rules/${game}.js`)).default;
  board = gameOf(game).createBoard($('walk-board'), { readOnly: true });
  renderText();
  $('rules-article').hidden = false;
  $('walk-prev').addEventListener('click', () => show(step - 1));
  $('walk-next').addEventListener('click', () => show(step + 1));
  onLangChange(() => { renderText(); show(step); });
  await show(0);
}

init();

// The replay page's analysis (issue 28): the button that asks for it, the
// progress pushed while the server grades the moves ("Analysed 23 of 61
// moves"), the win-chance graph whose points jump to their ply, the marks
// in the move list (?! inaccuracy, ? mistake, ?? blunder), the engine's
// move for the shown position (in words, and on the board with
// board.showHint when the toggle is on) and each player's summary.
//
// A stored game's analysis is read when its page opens (and followed
// while it runs); `/g/ID#analysis` asks for it at once. An imported game
// is analysed from the text the import took.

import { t, lang, onLangChange, errorText, percentText } from '../i18n.js';
import { $, el } from '../dom.js';
import { moveListView } from '../move-list.js';
import { graphMarkup, W, H } from './graph.js';
import { askAnalysis, followAnalysis, readAnalysis } from './source.js';

const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * @param {object} page
 *   go(n)              show the replay at `n` moves played
 *   sideName(side)     a side's players as the page names them
 *   swatchOf(side)     a side's colour class
 */
export function analysisPanel(page) {
  let game = null; // the game shown (as the replay holds it)
  let target = null; // {id} or {text}: what to ask the server for
  let current = null; // the analysis object, as last heard
  let error = null; // a refusal's code, or null
  let reading = false; // a stored game's analysis is being read: no button yet
  let stopFollow = () => {};
  let seq = 0; // the game opened: answers for an earlier one are dropped
  let shown = { ply: 0, at: 0, board: null }; // the ply shown, the position drawn and the board

  const number = (n, digits = 0) => Number(n).toLocaleString(lang(), { maximumFractionDigits: digits });
  const percent = (c) => percentText(Math.round(c * 100));
  const moveWords = (move) => moveListView([move], { game: game.game, t })[0].text;
  const sideCount = () => Math.max(2, game.players?.length ?? 2, current?.players?.length ?? 0);

  function apply(mine, a) {
    if (mine !== seq || !a) return;
    current = a;
    error = null;
    render();
  }

  function fail(mine, code) {
    if (mine !== seq) return;
    error = code;
    render();
  }

  function follow(mine) {
    stopFollow();
    if (!current || current.status === 'done') return;
    stopFollow = followAnalysis(current.id, (a) => apply(mine, a), (code) => fail(mine, code));
  }

  async function start() {
    const mine = seq;
    $('analyse').disabled = true;
    const r = await askAnalysis(target);
    if (mine !== seq) return;
    $('analyse').disabled = false;
    if (!r.ok) return fail(mine, r.error);
    apply(mine, r.data);
    follow(mine);
  }

  /** Opens the panel for `g` (the replay's game); `importText` for an imported one. */
  async function open(g, { importText = null } = {}) {
    seq += 1;
    const mine = seq;
    stopFollow();
    game = g;
    target = g.imported ? { text: importText ?? '' } : { id: g.id };
    current = null;
    error = null;
    reading = !g.imported;
    render();
    if (!g.imported) {
      // A game nobody had analysed says so (`analysis: null`): nothing to read.
      const r = g.analysis === null ? { ok: false, status: 404 } : await readAnalysis(g.id);
      if (mine !== seq) return;
      reading = false;
      if (r.ok) {
        apply(mine, r.data);
        follow(mine);
      } else if (r.status !== 404) {
        fail(mine, r.error);
      } else {
        render();
      }
      if (location.hash === '#analysis' && !current) {
        $('analysis').scrollIntoView?.({ block: 'start' });
        await start();
      }
    }
  }

  // ------------------------------------------------------------ drawing

  function render() {
    const box = $('analysis');
    // A game without a move has nothing to analyse.
    box.hidden = !game?.moves.length;
    if (box.hidden) return;
    // Asked again after a lost stream: the server answers the same analysis.
    $('analyse').hidden = reading || (!!current && !error);
    const err = $('analysis-error');
    err.hidden = !error;
    err.textContent = error ? (error === 'failed' ? t('analysis.failed') : errorText(error)) : '';
    renderProgress();
    $('analysis-body').hidden = !current;
    if (!current) {
      shown.board?.showHint(null);
      markMoves();
      return;
    }
    renderGraph();
    renderSummary();
    markMoves();
    renderHere();
  }

  function renderProgress() {
    const p = $('analysis-progress');
    p.hidden = !current;
    if (!current) return;
    const n = current.analysed ?? 0;
    const total = current.total ?? game.moves.length;
    const key = { queued: 'analysis.queued', done: 'analysis.done' }[current.status] ?? 'analysis.progress';
    p.textContent = t(key, { n: number(n), total: number(total) });
    p.dataset.analysed = String(n);
    p.dataset.total = String(total);
    p.dataset.status = current.status ?? '';
  }

  /** "Minh 62 %, Lan 38 %": the chances of a position, side by side. */
  function chancesText(position) {
    return (position.chances ?? []).map((c, side) => `${page.sideName(side)} ${percent(c)}`).join(', ');
  }

  function renderGraph() {
    const svg = $('analysis-graph');
    const focused = svg.contains(document.activeElement);
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('aria-label', t(sideCount() > 2 ? 'analysis.graph_many' : 'analysis.graph', { name: page.sideName(0) }));
    svg.innerHTML = graphMarkup(current, {
      total: game.moves.length,
      sides: sideCount(),
      swatch: page.swatchOf,
      shown: shown.ply,
      label: (p) => `${p.ply === 0 ? t('analysis.point_start') : t('analysis.point', { n: p.ply })}: ${chancesText(p)}`,
    });
    if (focused) svg.querySelector('.ag-point.current')?.focus();
  }

  function renderSummary() {
    const rows = (current.players ?? []).map((p) => el('tr', { 'data-testid': 'summary-row', 'data-side': String(p.side) },
      el('td', { class: 'who' }, el('span', { class: `swatch ${page.swatchOf(p.side)}`, 'aria-hidden': 'true' }), page.sideName(p.side)),
      // Each figure's words beside it too, for a phone's narrow rows (coach.css).
      el('td', { class: 'num', 'data-testid': 'summary-accuracy', 'data-label': t('analysis.accuracy'), text: p.accuracy == null ? '–' : percentText(p.accuracy, 1) }),
      el('td', { class: 'num', 'data-testid': 'summary-inaccuracies', 'data-label': t('analysis.inaccuracies'), text: number(p.inaccuracies ?? 0) }),
      el('td', { class: 'num', 'data-testid': 'summary-mistakes', 'data-label': t('analysis.mistakes'), text: number(p.mistakes ?? 0) }),
      el('td', { class: 'num', 'data-testid': 'summary-blunders', 'data-label': t('analysis.blunders'), text: number(p.blunders ?? 0) })));
    $('analysis-summary-rows').replaceChildren(...rows);
  }

  /** The marks of the graded moves in the move list (drawn again whenever the list is). */
  function markMoves() {
    const items = $('moves').children;
    for (const li of items) {
      li.querySelector('.grade-mark')?.remove();
      delete li.dataset.grade;
    }
    for (const m of current?.moves ?? []) {
      const li = items[m.ply - 1];
      if (!li || !MARKS[m.grade]) continue;
      const grade = t(`analysis.grade.${m.grade}`);
      const drop = number(Math.round((m.drop ?? 0) * 100));
      const title = m.best
        ? t('analysis.mark_title', { grade, drop, best: moveWords(m.best) })
        : t('analysis.mark_title_plain', { grade, drop });
      li.dataset.grade = m.grade;
      li.append(el('span', { class: `grade-mark ${m.grade}`, 'data-testid': `grade-mark-${m.ply}`, role: 'img', title, 'aria-label': title, text: MARKS[m.grade] }));
    }
  }

  /** The shown position: its chances, and the engine's move (in words, and on the board when asked). */
  function renderHere() {
    const position = current?.positions?.find((p) => p.ply === shown.at);
    $('analysis-eval').textContent = position ? t('analysis.chances', { list: chancesText(position) }) : t('analysis.not_yet');
    const on = $('hint').checked;
    const line = $('hint-move');
    line.hidden = !on;
    const best = on && position?.best ? position.best : null;
    shown.board?.showHint(best);
    line.dataset.move = best ?? '';
    if (!on) line.textContent = '';
    else if (best) line.textContent = t('analysis.best', { move: moveWords(best) });
    else line.textContent = position ? t('analysis.no_best') : t('analysis.not_yet');
  }

  /**
   * The replay shows `ply` moves played, its board (`board`) the position
   * after `at` of them (fewer where the board stops at a leave).
   */
  function showPly(ply, at, board) {
    shown = { ply, at, board };
    if (!current) return;
    renderGraph();
    renderHere();
  }

  function wire() {
    $('analyse').addEventListener('click', start);
    $('hint').addEventListener('change', () => { if (current) renderHere(); });
    const svg = $('analysis-graph');
    const pointOf = (e) => e.target instanceof Element ? e.target.closest('.ag-point') : null;
    svg.addEventListener('click', (e) => {
      const point = pointOf(e);
      if (point) page.go(Number(point.dataset.ply));
    });
    svg.addEventListener('keydown', (e) => {
      const point = pointOf(e);
      if (!point || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      page.go(Number(point.dataset.ply));
    });
    onLangChange(() => { if (game) render(); });
  }

  wire();
  return { open, showPly, markMoves, close: () => { seq += 1; stopFollow(); } };
}

// The replay page (/g/ID): one finished game from GET /api/games/ID, its
// players, options, dates and how it ended, and its moves to step through
// (buttons, the arrow keys, Home/End, a click on a move, or autoplay at a
// chosen speed). The board at each move is the server's: the API gives
// every ply's state (`positions`, replayed by the rules crate), drawn by
// the game's own board renderer, read-only; the client applies no move.
// A CrossyRay or Jungle position string copies to the clipboard. Export
// downloads /api/games/ID/export.
//
// The same page at /import opens a game from its text: pasted or read
// from a file, sent to POST /api/games/import, which replays every move;
// the answer (the same game with its positions) opens in the viewer, and
// a refusal shows the server's message, which names the first bad line,
// and selects that line in the text.
//
// Either game can be analysed by the server's engine (analysis/panel.js):
// its graph, the marks in the move list, the engine's move on the board.

import { tokenHeaders } from './socket.js';
import { t, initI18n, onLangChange, lang, errorText } from './i18n.js';
import { moveListView, moveListItems } from './move-list.js';
import { optionsSummary } from './options.js';
import { loadMe } from './coins.js';
import { $, el, copyText } from './dom.js';
import { getJson, outcomeText, dateText, ratingChange } from './history.js';
import { gameOf } from './games/registry.js';
import { sideNames } from './names.js';
import { analysisPanel } from './analysis/panel.js';

/** Seconds between moves when autoplaying. */
const SPEEDS = [0.5, 1, 2, 4];
const DEFAULT_SPEED = 1;

const id = (() => {
  const m = /^\/g\/([^/?#]+)/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]) : '';
})();
const importing = location.pathname === '/import';

let game = null;
let board = null;
let ply = 0; // moves shown as played: 0 = the start, game.moves.length = the end
let timer = null;
const analysis = analysisPanel({
  go: (n) => { stop(); go(n); },
  sideName: (side) => sideName(game, side) ?? gameOf(game.game).sideLabel(side),
  swatchOf: (side) => swatchOf(side),
});

/**
 * The side of each move: the side to move in the server's position before
 * it (turns skip a Quoridor pawn whose player left); in turn order where
 * a position is missing.
 */
function sidesOf(g) {
  const n = Math.max(2, g.players?.length ?? 2);
  return g.moves.map((_, i) => g.positions?.[i]?.to_move ?? i % n);
}

/** Who left right after `n` moves ("Lan resigned."), from the game's `leaves`. */
function leavesAfter(n) {
  return (game.leaves ?? [])
    .filter((l) => l.ply === n)
    .flatMap((l) => l.sides.map((side) =>
      t(l.reason === 'resign' ? 'replay.resigned' : 'replay.left', { name: sideName(game, side) ?? `${side + 1}` })))
    .join(' ');
}

/** The moves taken back right after `n` moves ("Taken back here: 8 a3-a4, 8 g7-g6."), from the game's `takebacks`. */
function takebacksAfter(n) {
  return (game.takebacks ?? [])
    .filter((x) => x.ply === n)
    .map((x) => t('replay.taken_back', { moves: x.moves.join(', ') }))
    .join(' ');
}

/** Side `side`'s players as the page names them (the computer in its words, a team with " + "). */
function sideName(g, side) {
  const name = g.players?.[side];
  return name == null ? null : sideNames(g.game, name).join(' + ');
}

function swatchOf(side) {
  return gameOf(game.game).swatch(side);
}

function renderInfo() {
  const g = game;
  document.title = g.imported
    ? t('import.game_title', { game: t(`game.${g.game}`) })
    : g.room
      ? t('replay.title', { game: t(`game.${g.game}`), n: g.number, code: g.room })
      : t('replay.title_private', { game: t(`game.${g.game}`), n: g.number });
  $('replay-title').textContent = document.title;
  for (const node of document.querySelectorAll('.stored')) node.hidden = !!g.imported;
  $('replay-players').replaceChildren(...(g.players ?? []).map((_, side) =>
    el('span', { class: 'replay-player', 'data-side': String(side), 'data-testid': 'replay-player' },
      el('span', { class: `swatch ${swatchOf(side)}`, 'aria-hidden': 'true' }), ' ', sideName(g, side),
      ratingChange(g, side) ? ' ' : null, ratingChange(g, side))));
  $('replay-options').textContent = optionsSummary(g.options, g.game);
  // A private room's code only for its members (the server leaves it out).
  for (const node of document.querySelectorAll('.stored-room')) node.hidden = !!g.imported || !g.room;
  $('replay-room').textContent = g.room ?? '';
  $('replay-room').href = g.room ? `/r/${encodeURIComponent(g.room)}` : '#';
  $('replay-started').textContent = dateText(g.started_at);
  $('replay-ended').textContent = dateText(g.ended_at);
  const { head, reason } = outcomeText(g);
  const box = $('result');
  box.replaceChildren(el('strong', { 'data-testid': 'result-head', text: head }), ' ',
    reason ? el('span', { class: 'reason', 'data-testid': 'result-reason', text: t('result.by', { reason }) }) : null);
  box.dataset.kind = g.outcome?.kind ?? '';
  box.dataset.reason = g.outcome?.reason ?? '';
  if (g.outcome?.kind === 'win') box.dataset.winner = String(g.outcome.winner);
  $('move-count').textContent = String(g.moves.length);
  if (!g.imported) {
    $('export').href = `/api/games/${encodeURIComponent(g.id)}/export`;
    $('export').setAttribute('download', `${g.game}-${g.number}.txt`);
  }

  const view = moveListView(g.moves, { game: g.game, sides: sidesOf(g), t });
  const items = moveListItems(view, swatchOf);
  items.forEach((li, i) => {
    li.tabIndex = -1;
    li.dataset.ply = String(i + 1);
    li.addEventListener('click', () => { stop(); go(i + 1); });
  });
  // A takeback is marked on the move after which it went back.
  for (const x of g.takebacks ?? []) {
    const li = items[x.ply - 1];
    if (!li) continue;
    li.dataset.takeback = String(x.moves.length);
    li.append(el('span', { class: 'takeback-mark', 'data-testid': `takeback-mark-${x.ply}`, title: x.moves.join(', '), text: ' ↶' }));
  }
  $('moves').replaceChildren(...items);
  analysis.markMoves();
  fillSpeed();
}

function fillSpeed() {
  const sel = $('speed');
  const value = sel.value || String(DEFAULT_SPEED);
  sel.replaceChildren(...SPEEDS.map((s) => el('option', { value: String(s), text: t('replay.every', { s: s.toLocaleString(lang()) }) })));
  sel.value = value;
}

/**
 * The match the board draws at `n` moves played: the server's state after
 * them (or the last one that replayed), the game's outcome at the end.
 */
function matchAt(n) {
  const positions = game.positions ?? [];
  const shown = Math.min(n, positions.length - 1);
  return {
    shown,
    match: shown < 0 ? null : {
      players: (game.players ?? []).map((_, side) => ({ name: sideName(game, side) })),
      state: positions[shown],
      moves: game.moves.slice(0, shown),
      legal: [],
      outcome: shown === game.moves.length ? game.outcome : null,
    },
  };
}

function renderBoard() {
  const { shown, match } = matchAt(ply);
  board.set(match, null, game.options);
  const stops = $('board-stops');
  stops.hidden = shown >= ply;
  stops.textContent = stops.hidden ? '' : t('replay.board_stops', { n: Math.max(shown, 0) });
  const text = match?.state?.position ?? '';
  $('position-string-box').hidden = !text;
  $('position-string').textContent = text;
  $('copy-status').textContent = '';
  analysis.showPly(ply, Math.max(shown, 0), board);
}

function renderPosition() {
  const total = game.moves.length;
  renderBoard();
  const items = $('moves').children;
  for (let i = 0; i < items.length; i += 1) {
    const li = items[i];
    li.classList.toggle('played', i < ply);
    li.classList.toggle('current', i === ply - 1);
    if (i === ply - 1) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
  items[ply - 1]?.scrollIntoView?.({ block: 'nearest' });
  const text = ply === 0
    ? t('replay.at_start', { total })
    : t('replay.at_move', { n: ply, total, move: items[ply - 1]?.querySelector('.mv-text')?.textContent ?? game.moves[ply - 1] });
  const pos = $('position');
  const after = [leavesAfter(ply), takebacksAfter(ply)].filter(Boolean).join(' ');
  pos.textContent = after ? `${text}. ${after}` : text;
  pos.dataset.ply = String(ply);
  pos.dataset.atEnd = String(ply === total);
  $('to-start').disabled = ply === 0;
  $('step-back').disabled = ply === 0;
  $('step-forward').disabled = ply === total;
  $('to-end').disabled = ply === total;
  $('autoplay').textContent = timer ? t('replay.pause') : t('replay.play');
  $('autoplay').dataset.playing = String(!!timer);
}

function go(n) {
  ply = Math.max(0, Math.min(game.moves.length, n));
  if (timer && ply === game.moves.length) stop();
  renderPosition();
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
}

function play() {
  stop();
  if (ply === game.moves.length) ply = 0;
  timer = setInterval(() => go(ply + 1), Number($('speed').value || DEFAULT_SPEED) * 1000);
  renderPosition();
}

function wire() {
  $('to-start').addEventListener('click', () => { stop(); go(0); });
  $('step-back').addEventListener('click', () => { stop(); go(ply - 1); });
  $('step-forward').addEventListener('click', () => { stop(); go(ply + 1); });
  $('to-end').addEventListener('click', () => { stop(); go(game.moves.length); });
  $('autoplay').addEventListener('click', () => (timer ? (stop(), renderPosition()) : play()));
  $('speed').addEventListener('change', () => { if (timer) play(); });
  $('copy-position').addEventListener('click', async () => {
    const ok = await copyText($('position-string').textContent);
    $('copy-status').textContent = ok ? t('position.copied') : t('position.copy_failed');
    if (!ok) getSelection().selectAllChildren($('position-string'));
  });
  document.addEventListener('keydown', (e) => {
    if (!game || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target instanceof HTMLElement && e.target.matches('input:not([type="checkbox"]), select, textarea')) return;
    const to = { ArrowRight: ply + 1, ArrowDown: ply + 1, ArrowLeft: ply - 1, ArrowUp: ply - 1, Home: 0, End: game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    stop();
    go(to);
  });
}

function showNotFound() {
  $('loading').hidden = true;
  $('not-found').hidden = false;
  $('not-found-text').textContent = t('replay.not_found', { id });
}

/** Opens `data` (a game with its moves and positions) in the viewer; `importText`, the text an imported one came from. */
function show(data, importText = null) {
  stop();
  game = { ...data, moves: data.moves ?? [] };
  // The page's colours per game (site.css: Jungle's second side is red).
  document.body.dataset.game = game.game;
  board?.destroy();
  board = gameOf(game.game).createBoard($('board'), { readOnly: true });
  renderInfo();
  $('replay-main').hidden = false;
  go(0);
  analysis.open(game, { importText });
}

// ---------------------------------------------------------------- import

/** Selects line `n` (from 1) of the textarea, so the bad line is the one in view. */
function selectLine(area, n) {
  const lines = area.value.split('\n');
  const start = lines.slice(0, n - 1).reduce((sum, line) => sum + line.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[n - 1]?.length ?? 0));
}

/** The import's error as a function of the page's language (redrawn when it changes), or null. */
let importError = null;

function showImportError(words) {
  importError = words;
  const message = words?.() ?? null;
  const box = $('import-error');
  box.hidden = !message;
  box.textContent = message ?? '';
  $('import-text').setAttribute('aria-invalid', String(!!message));
}

/**
 * Whether the headers of `text` (its lines up to the first blank one, as
 * the server reads them) name the game: a missing `[Game "…"]` and a
 * missing `[Result "…"]` are both reported on the blank line after them.
 */
function hasGameHeader(text) {
  const lines = text.replace(/^\uFEFF/, '').split('\n').map((l) => l.trim());
  const end = lines.findIndex((l) => !l);
  return lines.slice(0, end < 0 ? lines.length : end).some((l) => /^\[Game /.test(l));
}

async function openImport(e) {
  e.preventDefault();
  const area = $('import-text');
  if (!area.value.trim()) {
    showImportError(() => t('import.empty'));
    area.focus();
    return;
  }
  $('import-open').disabled = true;
  const text = area.value;
  let answer;
  try {
    const res = await fetch('/api/games/import', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: text });
    answer = { ok: res.ok, data: await res.json().catch(() => null) };
  } catch {
    answer = { ok: false, data: null };
  } finally {
    $('import-open').disabled = false;
  }
  if (!answer.ok) {
    // Our words for the refusal (PROTOCOL: a page shows its own words for
    // each `code`), then where: in English the server's own line and
    // reason (the first bad line, named by the rules); in another
    // language, whose words the server does not have, the line's number
    // and its text. A refusal of no line (too large, too many imports, …)
    // is our words alone in another language. A missing header is reported
    // on the blank line after the headers, which says nothing by itself:
    // our words say which header is missing, in every language.
    const { error, message } = answer.data ?? {};
    const line = /^line (\d+):/.exec(message ?? '');
    const where = () => {
      if (!line) return lang() === 'en' ? message ?? '' : '';
      const n = Number(line[1]);
      const bad = text.split('\n')[n - 1]?.trim() ?? '';
      if (!bad) return t(hasGameHeader(text) ? 'import.no_result' : 'import.no_game', { n });
      if (lang() === 'en') return message;
      return t('import.bad_line', { n, text: bad.length > 60 ? `${bad.slice(0, 59)}…` : bad });
    };
    const words = () => {
      const w = where();
      return w ? `${errorText(error)} (${w})` : errorText(error);
    };
    showImportError(error ? words : () => t('import.failed'));
    $('replay-main').hidden = true;
    analysis.close();
    if (line) selectLine(area, Number(line[1]));
    return;
  }
  showImportError(null);
  show({ ...answer.data, imported: true }, text);
  $('replay-main').scrollIntoView?.({ block: 'start' });
}

function wireImport() {
  $('import-form').addEventListener('submit', openImport);
  $('import-file').addEventListener('change', async () => {
    const file = $('import-file').files?.[0];
    if (!file) return;
    $('import-text').value = await file.text();
    showImportError(null);
  });
}

async function init() {
  initI18n($('lang'));
  loadMe();
  wire();
  onLangChange(() => { if (game) { renderInfo(); renderPosition(); } });
  if (importing) {
    const title = () => { if (!game) document.title = t('import.title'); };
    title();
    onLangChange(title);
    wireImport();
    onLangChange(() => { if (importError) showImportError(importError); });
    $('loading').hidden = true;
    $('import-main').hidden = false;
    return;
  }
  if (!id) {
    showNotFound();
    return;
  }
  const r = await getJson(`/api/games/${encodeURIComponent(id)}`, tokenHeaders());
  $('loading').hidden = true;
  if (!r.ok || !r.data) {
    showNotFound();
    return;
  }
  show(r.data);
}

init();

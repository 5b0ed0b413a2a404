// Looking back during a game: the shown table's board steps back and
// forth through the moves played so far while the game goes on (the ←
// and → keys, a click on the move list, Home and End), for players and
// spectators alike. The model's `lookback` ({match, ply, seen, state,
// failed}) is the move count shown, null on the live board. Moves that
// come meanwhile grow the move list and are announced above the board,
// and never pull the viewer back; "Back to the game" (or End, or a step
// past the last move) does. A past position is drawn from the server's
// `GET /api/position` (the rules replay the first `ply` moves on the
// game's own options), fetched once per move count and kept; while one
// is shown the board takes no move. (The replay knows no leaves: after a
// Quoridor pawn of 3 or more left, a position it cannot give is said so.)
//
// Keys: on the board, the arrows are the board's own (its cursor, see
// board-keys.js) while it shows the live game, and step through the
// game while it shows a past position; anywhere else on the page (not in
// a form field) ← and → step; Home and End jump to the start and back to
// the game from the board or the move list, or while looking back.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { isMatchOf } from '../games/registry.js';
import { moveListView } from '../move-list.js';
import { page, update } from './page.js';
import { shownMatch } from './model.js';

/** The shown match's look-back, or null on the live board. */
export function lookbackOf(model) {
  const lb = model.lookback;
  const m = shownMatch(model);
  if (!lb || !m || lb.match !== m.id || lb.ply >= (m.moves?.length ?? 0)) return null;
  return lb;
}

/**
 * The match the board draws while looking back: the live match with the
 * state after `ply` moves (the last one fetched until that one comes),
 * its first `ply` moves, nothing legal and `past`, so no side has the
 * move on it (board-turn.js).
 */
export function pastMatch(model) {
  const lb = lookbackOf(model);
  const m = shownMatch(model);
  if (!lb) return m;
  const state = lb.state ?? m.state;
  const n = lb.state ? (lb.state.ply ?? lb.ply) : m.moves.length;
  return {
    ...m,
    state,
    moves: m.moves.slice(0, n),
    move_sides: (m.move_sides ?? []).slice(0, n),
    legal: [],
    to_play: null,
    draw_offer: null,
    outcome: state.outcome ?? null,
    past: true,
  };
}

// ---------------------------------------------------------------- positions

const positions = new Map(); // `${match id}|${ply}` -> the state after ply moves, or 'failed'

function positionKey(m, n) {
  // The moves themselves: a takeback may put other moves at the same ply.
  return `${m.id}|${JSON.stringify(m.moves.slice(0, n))}`;
}

/** Fetches the position after `n` moves of `m` (once), then redraws if it is still the one asked for. */
async function fetchPosition(game, m, n) {
  const key = positionKey(m, n);
  if (positions.has(key)) return;
  positions.set(key, null);
  const query = new URLSearchParams({ game, options: JSON.stringify(m.state?.options ?? {}), moves: m.moves.slice(0, n).join(',') });
  let state = 'failed';
  try {
    const res = await fetch(`/api/position?${query}`);
    if (res.ok) state = (await res.json()).state ?? 'failed';
  } catch { /* said on the banner */ }
  // The replay knows nothing of a Quoridor pawn that left (its turns were
  // skipped): a position whose side to move is not the one that played
  // the next move is not this game's, and is not shown.
  const next = m.move_sides?.[n];
  if (state !== 'failed' && next != null && state.to_move !== next) state = 'failed';
  positions.set(key, state);
  update((model) => withPosition(model));
}

/** The look-back with its position filled in when it has come. */
function withPosition(model) {
  const lb = lookbackOf(model);
  if (!lb) return model;
  const got = positions.get(positionKey(shownMatch(model), lb.ply));
  if (!got) return model;
  if (got === 'failed') return lb.failed ? model : { ...model, lookback: { ...lb, failed: true } };
  if (lb.state === got && !lb.failed) return model;
  return { ...model, lookback: { ...lb, state: got, failed: false } };
}

// ---------------------------------------------------------------- moving

/** Shows the position after `n` moves of the shown game (the live board at the last move). */
export function goTo(n) {
  const m = shownMatch(page.model);
  if (!m || !isMatchOf(page.model.room.game, m)) return;
  const total = m.moves?.length ?? 0;
  const ply = Math.max(0, Math.min(total, n));
  if (ply >= total) {
    update((model) => ({ ...model, lookback: null }));
    return;
  }
  const before = lookbackOf(page.model);
  update((model) => withPosition({
    ...model,
    lookback: { match: m.id, ply, seen: before?.seen ?? total, state: before?.state ?? null, failed: false },
  }));
  fetchPosition(page.model.room.game, m, ply);
}

/** The move count shown: the look-back's, or every move. */
function shownPly(model) {
  return lookbackOf(model)?.ply ?? shownMatch(model)?.moves?.length ?? 0;
}

export const backToGame = () => goTo(Infinity);

// ---------------------------------------------------------------- the banner

export const lookbackPanel = {
  name: 'lookback',
  slice: (m) => [shownMatch(m), m.lookback, m.room.game],
  draw,
};

function draw(model) {
  const lb = lookbackOf(model);
  const box = $('lookback');
  box.hidden = !lb;
  $('board').classList.toggle('past', !!lb);
  $('board').dataset.past = String(!!lb);
  if (!lb) return;
  const m = shownMatch(model);
  const total = m.moves.length;
  $('lookback-text').textContent = lb.ply === 0
    ? t('lookback.at_start', { total })
    : t('lookback.at_move', { n: lb.ply, total });
  const fresh = total - lb.seen;
  const news = $('lookback-new');
  news.hidden = fresh <= 0;
  box.dataset.new = String(Math.max(0, fresh));
  if (fresh > 0) {
    const [last] = moveListView([m.moves[total - 1]], { game: model.room.game, t });
    news.textContent = t('lookback.new_moves', { n: total, move: last.text });
  }
  $('lookback-failed').hidden = !lb.failed;
}

// ---------------------------------------------------------------- input

function inField(target) {
  return target instanceof HTMLElement && !!target.closest('input, select, textarea, [contenteditable], dialog, .panel.chat');
}

/** What a key does to the shown move count, or undefined: see the keys at the top. */
function keyTarget(e) {
  const model = page.model;
  if (!model.room || !shownMatch(model) || e.altKey || e.ctrlKey || e.metaKey || inField(e.target)) return undefined;
  const looking = !!lookbackOf(model);
  const onBoard = e.target instanceof Node && $('board').contains(e.target);
  const onList = e.target instanceof Node && $('moves').contains(e.target);
  const ply = shownPly(model);
  if (e.key === 'ArrowLeft' && (looking || !onBoard)) return ply - 1;
  if (e.key === 'ArrowRight' && (looking || !onBoard)) return ply + 1;
  if (e.key === 'Home' && (looking || onBoard || onList)) return 0;
  if (e.key === 'End' && (looking || onBoard || onList)) return Infinity;
  return undefined;
}

/** The keys (capturing: a past position's board never sees them), the move list's clicks and the button. */
export function wireLookback() {
  document.addEventListener('keydown', (e) => {
    const to = keyTarget(e);
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    goTo(to);
  }, true);
  $('moves').addEventListener('click', (e) => {
    const li = e.target instanceof Element ? e.target.closest('li[data-ply]') : null;
    if (li) goTo(Number(li.dataset.ply));
  });
  $('lookback-live').addEventListener('click', () => {
    backToGame();
    $('board').focus({ preventScroll: true });
  });
}

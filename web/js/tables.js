// A room's tables (docs/PROTOCOL.md): a room owns one or more tables, each
// a board with its own match; the snapshot's `room.tables` is
// [{id, match, spectators}] and every `match` event names its `table`.
// A room page shows one table: these pure functions choose it and keep
// the tables up to date from the events, no DOM.

import { sideOf } from './quoridor/state.js';

/** The table `id` of `tables`, or null. */
export function tableById(tables, id) {
  return (tables ?? []).find((x) => x.id === id) ?? null;
}

/**
 * The id of the table a page shows: where `you` play a running game, else
 * the one shown so far (`current`) while it exists, else where you played
 * last, else the first; null without tables.
 */
export function shownTableId(tables, you, current = null) {
  const list = tables ?? [];
  const plays = (x) => sideOf(x.match, you) != null;
  const pick = list.find((x) => plays(x) && !x.match.outcome)
    ?? tableById(list, current)
    ?? list.find(plays)
    ?? list[0];
  return pick?.id ?? null;
}

/**
 * A `match` event: its match replaces the one of its table (a table not
 * seen before is added); a `move` event carries only what the move
 * changed, applied to the match held (see applyMove). Changes `tables`;
 * returns the table, or null when a move does not follow the match held
 * (the caller resyncs from a snapshot).
 */
export function applyMatchEvent(tables, ev) {
  if (ev.kind === 'move') return applyMove(tables, ev);
  let table = tableById(tables, ev.table);
  if (!table) {
    table = { id: ev.table, match: null, spectators: 0 };
    tables.push(table);
  }
  table.match = withServerAsked(ev.kind === 'takeback' ? withAskedKept(table.match, ev.match) : ev.match);
  return table;
}

/** The page's own fields of a match: per side, the number of moves when it last offered a draw or asked for a takeback (room/model.js's requests). */
export const ASKED_AT = { draw: 'draw_offered_at', takeback: 'takeback_asked_at' };

/**
 * A whole match as the server sends it (snapshot, `start`, `takeback`…),
 * with its `draw_asked` and `takeback_asked` (the sides that may not ask
 * again before the next move, docs/PROTOCOL.md) kept in the page's own
 * fields, which moves and requests then keep up to date.
 */
export function withServerAsked(match) {
  if (!match || !(match.draw_asked?.length || match.takeback_asked?.length)) return match;
  const next = { ...match };
  for (const [type, field] of Object.entries(ASKED_AT)) {
    for (const side of match[`${type}_asked`] ?? []) {
      next[field] = { ...next[field], [side]: match.moves.length };
    }
  }
  return next;
}

/**
 * The match after a takeback: a side that asked (a draw, a takeback)
 * since the last move still has, as the server counts moves taken back
 * too and takes another request only after the next move.
 */
function withAskedKept(held, next) {
  if (!held || held.id !== next.id) return next;
  const kept = { ...next };
  for (const field of Object.values(ASKED_AT)) {
    const asked = Object.entries(held[field] ?? {}).filter(([, at]) => at === held.moves.length);
    if (asked.length) kept[field] = Object.fromEntries(asked.map(([side]) => [side, next.moves.length]));
  }
  return kept;
}

/** A Quoridor wall's place in the server's order: horizontal ones first, then by row and column. */
function wallKey(wall) {
  const [, col, row, dir] = /^([a-z])(\d+)([hv])$/.exec(wall) ?? [, '', '0', ''];
  return [dir, Number(row), col];
}

function byWallKey(a, b) {
  const [x, y] = [wallKey(a), wallKey(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/**
 * The state after a move from the one held and the move event's: a
 * Quoridor state there has no `walls` (they grow with the game), so the
 * held walls are kept and the move added when it is a wall (`e3h`), in
 * the order a full state lists them.
 */
function changedState(held, state, move) {
  if (!Array.isArray(held?.walls) || state?.walls) return state;
  if (!/^[a-z]\d+[hv]$/.test(move ?? '')) return { ...state, walls: held.walls };
  return { ...state, walls: [...held.walls, move].sort(byWallKey) };
}

/**
 * A move (docs/PROTOCOL.md, "match" events): `ev.move` and `ev.side` are
 * appended to the match's `moves` and `move_sides`, and the rest of
 * `ev.match` (state, players, to_play, legal, clock, outcome, draw_offer) replaces
 * what the match had; a takeback request ends (`takeback_offer` null). The move must be the next one of the same game
 * (`ev.match.ply` = moves held + 1), else nothing changes and null is
 * returned.
 */
export function applyMove(tables, ev) {
  const table = tableById(tables, ev.table);
  const m = table?.match;
  const d = ev.match;
  if (!m || m.id !== d.id || m.moves.length + 1 !== d.ply) return null;
  table.match = {
    ...m,
    moves: [...m.moves, ev.move],
    move_sides: [...m.move_sides, ev.side],
    players: d.players,
    to_play: d.to_play,
    state: changedState(m.state, d.state, ev.move),
    legal: d.legal ?? [],
    clock: d.clock,
    outcome: d.outcome,
    draw_offer: d.draw_offer ?? null,
    // A move ends any takeback request.
    takeback_offer: null,
  };
  // A turn-based game's time left to move comes with each move; a live
  // game has none (the snapshot leaves the field out).
  if (d.turn_left_ms != null) table.match.turn_left_ms = d.turn_left_ms;
  else delete table.match.turn_left_ms;
  return table;
}

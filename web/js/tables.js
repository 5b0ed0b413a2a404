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
 * seen before is added). Changes `tables`; returns the table.
 */
export function applyMatchEvent(tables, ev) {
  let table = tableById(tables, ev.table);
  if (!table) {
    table = { id: ev.table, match: null, spectators: 0 };
    tables.push(table);
  }
  table.match = ev.match;
  return table;
}

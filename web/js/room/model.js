// The room page's model and its pure transitions (as chessground's
// state.ts and board.ts): apply(model, message) → a new model, for the
// snapshot and every room event of docs/PROTOCOL.md, and a few page
// actions (open a table, back to the bracket, edit the name). No DOM, no
// words, no time of its own: the caller passes `at` (performance.now())
// for the clock and countdown bases, so node tests replay recorded frames
// and compare models. A transition never changes the model it is given:
// the render modules redraw a panel only when the parts of the model it
// reads are new objects (scheduler.js).
//
// What the page does beyond the model (a sound, a toast, a resync) it
// reads from the model's `effects`, the list the last transition left.

import { tableById, shownTableId, applyMatchEvent, withServerAsked, ASKED_AT } from '../tables.js';
import { isKnockoutRoom, isActive, syncTables, nextView } from '../bracket.js';
import { sideOf } from '../quoridor/state.js';

/** The chat lines the page keeps (the snapshot may carry more). */
export const CHAT_KEEP = 200;

/** The model before the snapshot: nothing to draw yet. */
export function initialModel() {
  return {
    you: null,
    room: null,
    view: null, // knockout rooms: {kind:'bracket'} or {kind:'table', id} (bracket.js: nextView)
    tableId: null, // the table the page shows (tables.js: shownTableId), null for the bracket
    clock: null, // {remaining: [ms…], running: side|null, at}
    turn: null, // a turn-based game's {left: ms to move, at}
    countdown: null, // {remaining: ms, paused, at} while an auto-start countdown runs
    awayAt: {}, // table id -> when (performance.now()) its `away` countdowns were as sent
    chatUnread: 0, // chat lines that came while the drawer was closed (phones)
    editingName: false,
    effects: [],
  };
}

// ---------------------------------------------------------------- reading

/** The viewer's member, or null. */
export function me(model) {
  return model.room?.members.find((m) => m.id === model.you?.member) ?? null;
}

/** The table the page shows, or null. */
export function shownTable(model) {
  return tableById(model.room?.tables, model.tableId);
}

/** The shown table's match, or null. */
export function shownMatch(model) {
  return shownTable(model)?.match ?? null;
}

/** The side the viewer plays at the shown table (as a member of a team too), or null. */
export function mySide(model) {
  return sideOf(shownMatch(model), model.you);
}

export function isHost(model) {
  return !!(me(model)?.host ?? model.you?.host);
}

/**
 * Whether the room is a solo room (a guest against the computer:
 * PROTOCOL "Hosts"), where the host role never moves and the games are
 * never a knockout tournament, turn-based, rated or listed: the
 * snapshot's `room.solo`.
 */
export function isSolo(model) {
  return model.room?.solo === true;
}

/** Whether a game runs at the shown table. */
export function gameRunning(model) {
  const m = shownMatch(model);
  return !!m && !m.outcome;
}

/** Whether a game runs at any of the room's tables. */
export function anyRunning(model) {
  return (model.room?.tables ?? []).some((x) => x.match && !x.match.outcome);
}

/** Whether seats and options are locked: a game runs, or a tournament is under way. */
export function locked(model) {
  return anyRunning(model) || isActive(model.room?.tournament);
}

/** The `table` field of a command about the shown table's game. */
export function atTable(model) {
  return model.tableId ? { table: model.tableId } : {};
}

/** Milliseconds left on side `side`'s clock at time `now`, or null without a clock. */
export function clockLeft(model, side, now) {
  const c = model.clock;
  if (!c) return null;
  let ms = c.remaining[side];
  if (c.running === side && !shownMatch(model)?.outcome) ms -= now - c.at;
  return ms;
}

/** Milliseconds left to move in the shown turn-based game at time `now`, or null. */
export function turnLeft(model, now) {
  const x = model.turn;
  return x ? x.left - (now - x.at) : null;
}

/** Milliseconds left of the auto-start countdown at time `now` (null without one). */
export function countdownLeft(model, now) {
  const c = model.countdown;
  if (!c) return null;
  return c.paused ? c.remaining : c.remaining - (now - c.at);
}

/**
 * The shown running game's away sides as they stand at `now`: each
 * `{side, abandon, claim}` in milliseconds left (0: a claim may be made).
 */
export function awayLeft(model, now) {
  const x = shownTable(model);
  if (!x?.match || x.match.outcome) return [];
  const gone = now - (model.awayAt?.[x.id] ?? now);
  return (x.away ?? []).map((a) => ({
    side: a.side,
    abandon: Math.max(0, a.abandon_ms - gone),
    claim: Math.max(0, a.claim_ms - gone),
  }));
}

/** A member of the room or an entrant of its tournament, by id (for names), or null. */
export function person(model, id) {
  return model.room?.members.find((x) => x.id === id)
    ?? model.room?.tournament?.entrants?.find((x) => x.member === id)
    ?? null;
}

// ---------------------------------------------------------------- transitions

/** A turn-based game's time left to move, as of `at`: {left: ms, at}, or null (no such game, or over). */
function turnOf(m, at) {
  return m && !m.outcome && m.turn_left_ms != null ? { left: m.turn_left_ms, at } : null;
}

/** The shown match's clock and turn-based time left, both counted from `at`. */
function timesOf(m, at) {
  return { clock: clockOf(m, at), turn: turnOf(m, at) };
}

function clockOf(m, at) {
  if (!m?.clock) return null;
  return { remaining: [...m.clock.remaining_ms], running: m.outcome ? null : (m.clock.running ?? null), at };
}

function countdownOf(a, at) {
  return a && a.remaining_ms != null ? { remaining: a.remaining_ms, paused: !!a.paused, at } : null;
}

/** Which table the page shows (and, in a knockout room, whether it shows the bracket instead). */
function withView(model, started = null) {
  const { room } = model;
  if (isKnockoutRoom(room)) {
    const view = nextView(model.view, room.tables, model.you, started);
    return { ...model, view, tableId: view.kind === 'table' ? view.id : null };
  }
  return { ...model, view: null, tableId: shownTableId(room.tables, model.you, model.tableId) };
}

/** The model with the clock of the table shown now, when that table changed (or `always`). */
function withClock(before, after, at, always = false) {
  if (!always && after.tableId === before.tableId) return after;
  return { ...after, ...timesOf(shownMatch(after), at) };
}

/**
 * The requests one player makes to the other, by event type: the match's
 * field for the side whose request stands, the page's own field for side
 * -> the number of moves when that side last asked (a side asks at most
 * once between two moves), and the room log's words.
 */
const REQUESTS = {
  draw: { standing: 'draw_offer', at: ASKED_AT.draw, asked: 'draw.offered', declined: 'draw.declined' },
  takeback: { standing: 'takeback_offer', at: ASKED_AT.takeback, asked: 'takeback.asked', declined: 'takeback.declined' },
};

/** The match after a `draw` or `takeback` event of kind `offer` or `decline`. */
function withRequest(match, ev) {
  const r = REQUESTS[ev.type];
  const next = { ...match, [r.standing]: ev.kind === 'offer' ? ev.side : null };
  if (ev.kind === 'offer') next[r.at] = { ...match[r.at], [ev.side]: match.moves.length };
  return next;
}

/** Whether `side` has asked for `type` (`draw`, `takeback`) since the last move of match `m` (the server would refuse another). */
export function askedSinceMove(m, side, type) {
  return m?.[REQUESTS[type].at]?.[side] === m?.moves.length;
}

/** Whether `side` has offered a draw since the last move of match `m` (the server would refuse another: `draw_offered`). */
export function offeredSinceMove(m, side) {
  return askedSinceMove(m, side, 'draw');
}

/** A `draw` or `takeback` event: the table's match, the room's log, and a toast when it is the opponent's. */
function requestEvent(model, ev) {
  const tables = model.room.tables.map((x) => (x.id === ev.table && x.match ? { ...x, match: withRequest(x.match, ev) } : x));
  // The room's own line in the log, named as the member was when it came.
  const r = REQUESTS[ev.type];
  const line = { key: ev.kind === 'offer' ? r.asked : r.declined, who: person(model, ev.member) };
  const effects = ev.member !== model.you?.member && ev.table === model.tableId
    ? [{ kind: 'toast', ...line, code: `${ev.type}_${ev.kind}` }]
    : [];
  return { ...model, room: withChat({ ...model.room, tables }, { notice: line }), effects };
}

function withChat(room, line) {
  return { ...room, chat: [...(room.chat ?? []), line].slice(-CHAT_KEEP) };
}

/**
 * The model after `msg`: a `snapshot` (replaces everything) or a room
 * event. `env.at` is the time (performance.now()) clocks count from;
 * `env.drawerClosed` whether a chat line counts as unread. The result's
 * `effects` say what the page must do besides drawing:
 *   {kind:'cue', ev, match}   a match event of the shown table (sounds, notification)
 *   {kind:'resync'}           a move that does not follow the match held
 *   {kind:'toast', key, params, code, ms, who}   a line for a toast
 *   {kind:'snapshot'}         a snapshot came (voice rejoins)
 */
export function apply(model, msg, env = {}) {
  const at = env.at ?? 0;
  const next = { ...model, effects: [] };
  if (msg.type === 'snapshot') {
    const tables = (msg.room.tables ?? []).map((x) => ({ ...x, match: withServerAsked(x.match) }));
    const room = { ...msg.room, chat: (msg.room.chat ?? []).slice(-CHAT_KEEP), tables };
    // Each table's `away` countdowns count from `at`, as the clocks do.
    const awayAt = Object.fromEntries(room.tables.map((x) => [x.id, at]));
    const viewed = withView({ ...next, you: msg.you, room });
    return { ...viewed, awayAt, ...timesOf(shownMatch(viewed), at), countdown: countdownOf(room.autostart, at), effects: [{ kind: 'snapshot' }] };
  }
  const fn = model.room ? EVENTS[msg.type] : null;
  // An event this page has nothing to do with changes nothing, and leaves nothing to do.
  if (!fn) return model.effects.length ? next : model;
  return fn(next, msg, { ...env, at });
}

const EVENTS = {
  members(model, ev) {
    const room = { ...model.room, members: ev.members };
    if (typeof ev.spectators === 'number') room.spectators = ev.spectators;
    if (typeof ev.unlisted === 'number') room.unlisted = ev.unlisted;
    const next = { ...model, room };
    const mine = me(next);
    return mine ? { ...next, you: { ...next.you, name: mine.name, host: mine.host } } : next;
  },

  match(model, ev, { at }) {
    // The tables are copied, one level down, so the model given stays as it was.
    const tables = model.room.tables.map((x) => ({ ...x }));
    const applied = applyMatchEvent(tables, ev);
    if (!applied) {
      // A move for a match this page does not hold as it was: start again from a fresh snapshot.
      return { ...model, effects: [{ kind: 'resync' }] };
    }
    const effects = ev.table === model.tableId ? [{ kind: 'cue', ev, match: applied.match }] : [];
    let room = { ...model.room, tables };
    if (ev.kind === 'start') {
      // A new game (a tournament's round) ends any countdown, and the rematch asked for;
      // its players are all here.
      room = { ...room, autostart: { ...(room.autostart ?? {}), remaining_ms: null, paused: false }, rematch: [] };
      const x = tables.find((y) => y.id === ev.table);
      if (x?.away?.length) x.away = [];
    }
    if (ev.kind === 'takeback') {
      // Shown in the room's log: how many moves went, and where the game stands.
      room = withChat(room, { notice: { key: 'takeback.done', name: String(applied.match.moves.length) } });
    }
    let next = withView({ ...model, room, effects }, ev.kind === 'start' ? ev.table : null);
    // Another table's game is kept in the model (and the bracket), not on the board.
    next = withClock(model, next, at, ev.table === next.tableId);
    if (ev.kind === 'start') next.countdown = null;
    return next;
  },

  tournament(model, ev, { at }) {
    // The end of a tournament (the champion, or stopped) is shown to everyone.
    const ended = isActive(model.room.tournament) && ev.tournament && !isActive(ev.tournament);
    const room = { ...model.room, tournament: ev.tournament, tables: syncTables(model.room.tables, ev.tournament) };
    const next = withView({ ...model, room, view: ended ? { kind: 'bracket' } : model.view });
    return withClock(model, next, at);
  },

  spectators(model, ev) {
    // Watchers came or went (coalesced, at most one a second).
    return { ...model, room: { ...model.room, spectators: ev.spectators, unlisted: ev.unlisted } };
  },

  coin_toss(model, ev) {
    return { ...model, effects: [{ kind: 'toast', key: 'ko.coin_toss', who: person(model, ev.winner), code: 'coin_toss', ms: 12000 }] };
  },

  autostart(model, ev, { at }) {
    return { ...model, room: { ...model.room, autostart: ev.autostart }, countdown: countdownOf(ev.autostart, at) };
  },

  rated(model, ev) {
    return { ...model, room: { ...model.room, rated: ev.rated } };
  },

  public(model, ev) {
    return { ...model, room: { ...model.room, public: ev.public } };
  },

  options(model, ev) {
    const room = { ...model.room, options: ev.options };
    if (ev.game) room.game = ev.game;
    // The seats follow the options (Quoridor: players, or 8 for teams).
    if (typeof ev.seats === 'number') room.seats = ev.seats;
    if ('team_seats' in ev) room.team_seats = ev.team_seats;
    // Knockout on or off: the bracket comes or goes.
    return withView({ ...model, room });
  },

  scores(model, ev) {
    return { ...model, room: { ...model.room, scores: ev.scores } };
  },

  chat(model, ev, { drawerClosed }) {
    return { ...model, room: withChat(model.room, ev.message), chatUnread: model.chatUnread + (drawerClosed ? 1 : 0) };
  },

  // A draw offered or declined; a takeback asked for or declined (an
  // accepted one is a `match` event of kind `end` or `takeback`).
  draw: requestEvent,
  takeback: requestEvent,

  away(model, ev, { at }) {
    // The sides whose players all left a running game, with their countdowns (as of `at`).
    const tables = model.room.tables.map((x) => (x.id === ev.table ? { ...x, away: ev.away ?? [] } : x));
    return { ...model, room: { ...model.room, tables }, awayAt: { ...model.awayAt, [ev.table]: at } };
  },

  rematch(model, ev) {
    return { ...model, room: { ...model.room, rematch: ev.rematch } };
  },

  notice(model, ev) {
    return { ...model, room: withChat(model.room, { notice: { key: `notice.${ev.kind}`, name: ev.name ?? null, member: ev.member ?? null } }) };
  },

  removed(model, ev) {
    return { ...model, room: { ...model.room, removed: ev.removed } };
  },

  voice(model, ev) {
    // One member's change (their state, or null: they left); the
    // snapshot carries the whole list, in order of joining.
    const old = model.room.voice ?? [];
    const list = old.filter((v) => v.member !== ev.member);
    const at = old.findIndex((v) => v.member === ev.member);
    if (ev.voice) list.splice(at < 0 ? list.length : at, 0, ev.voice);
    return { ...model, room: { ...model.room, voice: list } };
  },
};

// ---------------------------------------------------------------- page actions

/** Open table `id` from the bracket. */
export function watchTable(model, id, at = 0) {
  const next = { ...model, view: { kind: 'table', id }, tableId: id, effects: [] };
  return { ...next, ...timesOf(shownMatch(next), at) };
}

/** Back from a table to the bracket. */
export function showBracket(model) {
  return { ...model, view: { kind: 'bracket' }, tableId: null, effects: [] };
}

/** The name form open (or closed) for a change of name. */
export function editName(model, editing) {
  return { ...model, editingName: editing, effects: [] };
}

/** The name this page just set, shown until the members event that follows brings it. */
export function namedLocally(model, name) {
  const members = model.room?.members.map((m) => (m.id === model.you?.member ? { ...m, name } : m));
  return {
    ...model,
    you: model.you ? { ...model.you, name } : model.you,
    room: model.room ? { ...model.room, members } : model.room,
    editingName: false,
    effects: [],
  };
}

/** The chat drawer opened: nothing is unread any more. */
export function chatRead(model) {
  return { ...model, chatUnread: 0, effects: [] };
}

// ---------------------------------------------------------------- names told apart

/** Member-id order ("m2" before "m10"); an account's row without a member (`@name`) after every member. */
function idOrder(a, b) {
  const n = (id) => (/^m(\d+)$/.exec(id) ? Number(id.slice(1)) : Infinity);
  return n(a) - n(b) || (a < b ? -1 : a > b ? 1 : 0);
}

const apartMemo = new WeakMap();

/**
 * Whose scoreboard row `r` is, as an id sameNames numbers: a guest's by its
 * member, an account's by the member signed in as it, else `@username`.
 */
export function scoreRowId(members, r) {
  return r.account ? ((members ?? []).find((m) => m.account === r.account)?.id ?? `@${r.account}`) : r.member;
}

/**
 * The numbers that tell apart different people of `room` shown under one
 * name (two guests both "Minh"): the room's members, the players of its
 * tables and tournament, its scoreboard rows (a guest's by member, an
 * account's by the member signed in as it, else by the account), its
 * chat lines (the name they were written under) and the members the host
 * removed. Each name two or more
 * people share numbers them in member-id order: the first keeps the name
 * (null), the next are 2, 3, …. The computers are left out (the server
 * numbers them). Returns `number(id, name)`, with `key`, a string that
 * changes only when some number does (for the panels' slices).
 */
export function sameNames(room) {
  if (room && apartMemo.has(room)) return apartMemo.get(room);
  const byName = new Map(); // name -> Set of ids
  const add = (id, name, computer) => {
    if (id == null || name == null || name === '' || computer) return;
    if (!byName.has(name)) byName.set(name, new Set());
    byName.get(name).add(id);
  };
  const members = room?.members ?? [];
  for (const m of members) add(m.id, m.name, m.computer);
  for (const x of room?.tables ?? []) {
    const m = x.match;
    for (const p of [...(m?.players ?? []), ...(m?.teams ?? []).flat()]) add(p.member, p.name, p.computer);
  }
  for (const e of room?.tournament?.entrants ?? []) add(e.member, e.name, e.computer);
  for (const r of room?.scores ?? []) add(scoreRowId(members, r), r.name, false);
  for (const c of room?.chat ?? []) if (!c.notice) add(c.member, c.from, false);
  for (const r of room?.removed ?? []) add(r.member, r.name, false);
  const order = new Map();
  for (const [name, ids] of byName) if (ids.size > 1) order.set(name, [...ids].sort(idOrder));
  const number = (id, name) => {
    const i = order.get(name)?.indexOf(id) ?? -1;
    return i > 0 ? i + 1 : null;
  };
  number.key = JSON.stringify([...order]);
  if (room) apartMemo.set(room, number);
  return number;
}

// Knockout tournaments (docs/PROTOCOL.md, RULES.md §2 "Modes") as pure
// data, no DOM: the bracket's view model from the server's bracket, the
// room's members and tables; which part of the room page shows (the
// bracket or one table); the tables of the round under way; and the seats
// a knockout room shows. bracket-view.js draws the view model.
//
// The server's bracket: {entrants:[{member,name}], rounds:[{number,
// pairings:[{table, players:[a,b], games:[{kind:'draw'}|{kind:'win',
// winner}], state:{kind:'playing'|'won'|'coin_toss', winner?}}], bye}],
// byes:[…], status:{kind:'playing'|'between_rounds'|'finished'|'stopped',
// champion?}}. A pairing's players[0] moves first in game 1; the replay
// after a draw swaps them.

import { sideOf } from './quoridor/state.js';
import { tableById } from './tables.js';

/** Fewest and most players in a tournament (its seats). */
export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 32;

/** Whether the room is set to knockout, or still shows its last tournament. */
export function isKnockoutRoom(room) {
  return room?.options?.mode === 'knockout' || !!room?.tournament;
}

/** Whether the room's options are the knockout mode. */
export function isKnockoutMode(room) {
  return room?.options?.mode === 'knockout';
}

/** The bracket's status: 'playing', 'between_rounds', 'finished', 'stopped' (null without one). */
export function statusOf(tournament) {
  return tournament ? (tournament.status?.kind ?? 'playing') : null;
}

/** Whether a tournament is under way (a round being played, or between rounds). */
export function isActive(tournament) {
  const s = statusOf(tournament);
  return s === 'playing' || s === 'between_rounds';
}

/** How a round with `players` players is named: the final, the semi-finals, or round `number`. */
export function roundLabel(number, players) {
  if (players === 2) return { kind: 'final', number };
  if (players === 3 || players === 4) return { kind: 'semi', number };
  return { kind: 'round', number };
}

/** Players in a round: two a pairing, plus the bye. */
function playersIn(round) {
  return 2 * (round.pairings?.length ?? 0) + (round.bye ? 1 : 0);
}

/** Who goes on from a round of `n` players: the winners and the bye. */
export function advancing(n) {
  return Math.ceil(n / 2);
}

/**
 * Online people at `table` who do not play there (the server's count of a
 * table's spectators, kept live from the members): the listed ones, and
 * the `unlisted` watchers the room only counts (they never play).
 */
export function tableSpectators(table, members, unlisted = 0) {
  return (members ?? []).filter((m) => m.online && !m.computer && sideOf(table?.match, { member: m.id }) == null).length + unlisted;
}

/**
 * The view model of `tournament` as `you` see it, or null without one.
 * Rounds in order, each with its matches (yours first) and its bye; the
 * rounds still to be drawn; the champion; your own match.
 */
export function bracketView(tournament, { members = [], tables = [], you = null, unlisted = 0 } = {}) {
  if (!tournament) return null;
  const me = you?.member ?? null;
  const status = statusOf(tournament);
  const active = isActive(tournament);
  const entrants = tournament.entrants ?? [];
  const person = (id) => {
    const m = members.find((x) => x.id === id);
    const e = entrants.find((x) => x.member === id);
    return { member: id, name: m?.name ?? e?.name ?? '?', computer: m?.computer ?? null, you: id != null && id === me };
  };
  const list = tournament.rounds ?? [];
  const rounds = list.map((round, i) => {
    // The room keeps the last round's tables (their boards stay open after the final).
    const latest = i === list.length - 1;
    const current = active && latest;
    const matches = (round.pairings ?? []).map((p) => matchView(p, { current, latest, table: tableById(tables, p.table), members, person, me, unlisted }));
    // Yours first; the others in the server's order.
    matches.sort((a, b) => Number(b.mine) - Number(a.mine));
    const players = playersIn(round);
    return {
      number: round.number,
      players,
      label: roundLabel(round.number, players),
      current,
      matches,
      bye: round.bye ? person(round.bye) : null,
      planned: false,
    };
  });
  // The rounds still to come, while the tournament goes on: their size is known, not their pairs.
  if (active && rounds.length) {
    let n = advancing(rounds[rounds.length - 1].players);
    let number = rounds[rounds.length - 1].number;
    while (n > 1) {
      number += 1;
      rounds.push({ number, players: n, label: roundLabel(number, n), current: false, matches: [], bye: null, planned: true });
      n = advancing(n);
    }
  }
  const currentRound = list.length ? list[list.length - 1] : null;
  const all = rounds.flatMap((r) => r.matches);
  const mine = rounds.find((r) => r.current)?.matches.find((m) => m.mine) ?? null;
  const entered = entrants.some((e) => e.member === me);
  return {
    status,
    active,
    round: currentRound?.number ?? 0,
    entrants: entrants.length,
    champion: status === 'finished' && tournament.status.champion ? person(tournament.status.champion) : null,
    rounds,
    mine,
    entered,
    out: entered && all.some((m) => m.mine && m.winner != null && m.winner !== me),
  };
}

/** One pairing as shown: players with their games won, where it stands, and its table. */
function matchView(p, { current, latest, table, members, person, me, unlisted }) {
  const games = p.games ?? [];
  const kind = p.state?.kind ?? 'playing';
  const winner = kind === 'won' || kind === 'coin_toss' ? p.state.winner : null;
  const draws = games.filter((g) => g.kind === 'draw').length;
  const m = table?.match ?? null;
  const running = current && kind === 'playing' && !!m && !m.outcome;
  let state = 'waiting';
  if (kind === 'won') state = 'won';
  else if (kind === 'coin_toss') state = 'coin_toss';
  else if (running) state = 'playing';
  const players = p.players.map((id) => ({
    ...person(id),
    wins: games.filter((g) => g.kind === 'win' && g.winner === id).length,
    winner: winner != null && winner === id,
    loser: winner != null && winner !== id,
  }));
  return {
    table: p.table,
    state,
    players,
    draws,
    winner,
    // Who moves first in the game being played (the replay swaps them).
    first: draws % 2 === 0 ? p.players[0] : p.players[1],
    mine: me != null && p.players.includes(me),
    current,
    running,
    watchable: latest && !!m,
    moves: running ? (m.moves?.length ?? 0) : null,
    spectators: latest ? tableSpectators(table, members, unlisted) : null,
  };
}

/** The pairing of the current round played at `table`, or null. */
export function pairingAt(tournament, table) {
  const rounds = tournament?.rounds ?? [];
  const round = rounds[rounds.length - 1];
  const pairing = round?.pairings?.find((p) => p.table === table);
  return pairing ? { round, pairing } : null;
}

/**
 * The room's tables after a `tournament` event: the current round's
 * tables in pairing order (each keeps the match the page already has; a
 * new one has none until its `match` start event); none when the
 * tournament is gone (the room's own table comes back with its next game).
 */
export function syncTables(tables, tournament) {
  if (!tournament) return [];
  const rounds = tournament.rounds ?? [];
  const round = rounds[rounds.length - 1];
  if (!round) return tables ?? [];
  return round.pairings.map((p) => tableById(tables, p.table) ?? { id: p.table, match: null, spectators: 0 });
}

/**
 * What a knockout room page shows: `{kind:'bracket'}` or
 * `{kind:'table', id}`. A game that just `started` where `you` play is
 * shown; else the page keeps what it shows while that table exists; a
 * fresh page (`view` null), or one whose table went away, shows the
 * table of your running game, else the bracket.
 */
export function nextView(view, tables, you, started = null) {
  const list = tables ?? [];
  const plays = (x) => sideOf(x?.match, you) != null;
  const running = (x) => !!x?.match && !x.match.outcome;
  if (started) {
    const x = tableById(list, started);
    if (plays(x) && running(x)) return { kind: 'table', id: started };
  }
  if (view?.kind === 'bracket') return view;
  if (view?.kind === 'table' && tableById(list, view.id)) return view;
  const mine = list.find((x) => plays(x) && running(x));
  return mine ? { kind: 'table', id: mine.id } : { kind: 'bracket' };
}

/**
 * The seats a room page lists. A knockout room has 32; it shows the
 * occupied ones and the lowest free one (the seats grow with the room).
 */
export function visibleSeats(seats, members, knockout) {
  const all = Array.from({ length: seats }, (_, i) => i);
  if (!knockout) return all;
  const taken = new Set((members ?? []).map((m) => m.seat).filter((s) => s != null && s < seats));
  const free = all.find((i) => !taken.has(i));
  return all.filter((i) => taken.has(i) || i === free);
}

// Jungle board state, derived from the server's match object alone.
//
// Pure functions, no DOM: the fixed board (rivers, traps, dens), the
// pieces, the viewer's legal moves grouped by the square they start from,
// and the last move. render.js draws from this; input.js reads it.
//
// Coordinates: x = file (0 = 'a', from the left as Blue sees it),
// y = rank - 1 (0 = rank 1, Blue's home row). Moves come as notation
// strings from `match.legal` (`8 a3-a4`, `7 a4xd4`; docs/PROTOCOL.md,
// "Jungle state"); no rule is computed here.

import { seatAndTurn } from '../board-turn.js';

export const FILES = 7;
export const RANKS = 9;

/** Rank number -> animal key (for i18n and the emoji). */
export const ANIMALS = { 1: 'rat', 2: 'cat', 3: 'dog', 4: 'wolf', 5: 'leopard', 6: 'tiger', 7: 'lion', 8: 'elephant' };
export const EMOJI = { 1: '🐀', 2: '🐈', 3: '🐕', 4: '🐺', 5: '🐆', 6: '🐅', 7: '🦁', 8: '🐘' };

/** Traps and dens per side (RULES.md §3): side 0 Blue, side 1 Red. */
export const TRAPS = [['c1', 'e1', 'd2'], ['c9', 'e9', 'd8']];
export const DENS = ['d1', 'd9'];

/** The usual start, for a room whose first game has not started. */
export const START_PIECES = [
  [0, 6, 'a1'], [0, 7, 'g1'], [0, 2, 'b2'], [0, 3, 'f2'], [0, 8, 'a3'], [0, 4, 'c3'], [0, 5, 'e3'], [0, 1, 'g3'],
  [1, 6, 'g9'], [1, 7, 'a9'], [1, 2, 'f8'], [1, 3, 'b8'], [1, 8, 'g7'], [1, 4, 'e7'], [1, 5, 'c7'], [1, 1, 'a7'],
].map(([side, rank, square]) => ({ side, rank, square }));

export function squareName(x, y) {
  return `${String.fromCharCode(97 + x)}${y + 1}`;
}

/** 'a3' -> {x: 0, y: 2}; null if it is not a square of the board. */
export function parseSquare(name) {
  const m = /^([a-g])([1-9])$/.exec(name ?? '');
  if (!m) return null;
  return { x: m[1].charCodeAt(0) - 97, y: Number(m[2]) - 1 };
}

/** '7 a4xd4' -> {rank: 7, from: 'a4', to: 'd4', capture: true}; null otherwise. */
export function parseMove(text) {
  const m = /^\s*([1-8])\s+([a-g][1-9])([-x])([a-g][1-9])\s*$/.exec(text ?? '');
  if (!m) return null;
  return { rank: Number(m[1]), from: m[2], to: m[4], capture: m[3] === 'x' };
}

/** Water: b4-c6 and e4-f6. */
export function isWater(x, y) {
  return y >= 3 && y <= 5 && (x === 1 || x === 2 || x === 4 || x === 5);
}

/** What the square is: 'water', 'trap', 'den' or 'land', and whose (trap, den). */
export function terrain(name) {
  const sq = parseSquare(name);
  if (!sq) return null;
  if (isWater(sq.x, sq.y)) return { kind: 'water', owner: null };
  for (const side of [0, 1]) {
    if (DENS[side] === name) return { kind: 'den', owner: side };
    if (TRAPS[side].includes(name)) return { kind: 'trap', owner: side };
  }
  return { kind: 'land', owner: null };
}

/**
 * Whether `piece`, on a square of terrain `ter`, is an enemy animal in one
 * of the viewer's traps (any animal may take it there: RULES.md §3). A
 * spectator (`mySide` null) sees every animal in an opposing trap.
 */
export function isTrapped(piece, ter, mySide) {
  if (!piece || ter?.kind !== 'trap' || ter.owner === piece.side) return false;
  return mySide == null || ter.owner === mySide;
}

/** A match-shaped object for a room with no game yet: the usual start. */
export function previewMatch() {
  return {
    preview: true,
    players: [],
    state: { pieces: START_PIECES, to_move: null, ply: 0, outcome: null, last_move: null },
    legal: [],
    moves: [],
    clock: null,
    outcome: null,
  };
}

/**
 * Everything the board needs, from `match` (as sent by the server) and
 * `you` (the snapshot's `you`: {member, ...}).
 */
export function deriveState(match, you) {
  const s = match.state ?? {};
  const { outcome, players, mySide, toMove, myTurn, lastMove } = seatAndTurn(match, you);
  const last = parseMove(lastMove);

  // Legal moves of the viewer, by the square they start from.
  const movesFrom = new Map();
  if (myTurn) {
    for (const text of match.legal ?? []) {
      const mv = parseMove(text);
      if (!mv) continue;
      const target = { move: text, to: mv.to, capture: mv.capture, den: terrain(mv.to)?.kind === 'den' };
      if (!movesFrom.has(mv.from)) movesFrom.set(mv.from, []);
      movesFrom.get(mv.from).push(target);
    }
  }

  const pieceAt = new Map();
  for (const p of s.pieces ?? []) pieceAt.set(p.square, { side: Number(p.side), rank: Number(p.rank) });

  const squares = [];
  for (let y = 0; y < RANKS; y++) {
    for (let x = 0; x < FILES; x++) {
      const name = squareName(x, y);
      const ter = terrain(name);
      const piece = pieceAt.get(name) ?? null;
      squares.push({
        x, y, name,
        kind: ter.kind,
        owner: ter.owner,
        piece,
        trapped: isTrapped(piece, ter, mySide),
        movable: movesFrom.has(name),
        lastFrom: !!last && last.from === name,
        lastTo: !!last && last.to === name,
      });
    }
  }

  return {
    preview: !!match.preview,
    squares,
    players,
    mySide,
    myTurn,
    toMove,
    // Red sees the board from its side: rank 9 at the bottom.
    flipped: mySide === 1,
    outcome,
    over: !!outcome,
    lastMove,
    last,
    movesFrom,
    ply: s.ply ?? (match.moves?.length ?? 0),
    moves: match.moves ?? [],
  };
}

export function squareAt(state, name) {
  const sq = parseSquare(name);
  return sq ? state.squares[sq.y * FILES + sq.x] : null;
}

/** The targets of the piece on `from` that the viewer may move now. */
export function targetsFrom(state, from) {
  return (state && from && state.movesFrom.get(from)) || [];
}

/** The move from `from` to `to`, if the viewer may play it now. */
export function moveBetween(state, from, to) {
  return targetsFrom(state, from).find((t) => t.to === to)?.move ?? null;
}

/**
 * Screen position of a square: column and row from the top-left, as the
 * viewer sees the board (flipped for Red).
 */
export function toScreen(x, y, flipped) {
  return flipped ? { col: FILES - 1 - x, row: y } : { col: x, row: RANKS - 1 - y };
}

export function fromScreen(col, row, flipped) {
  return flipped ? { x: FILES - 1 - col, y: row } : { x: col, y: RANKS - 1 - row };
}

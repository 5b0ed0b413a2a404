// Quoridor board state, derived from the server's match object alone.
//
// Pure functions, no DOM: the cells, the pawns and their goals, the walls
// on the board, the viewer's legal pawn targets and placeable walls (from
// `match.legal`; no rule is computed here), the last move and the last
// wall. render.js draws from this; input.js reads it.
//
// Coordinates: x = file (0 = 'a', from the left), y = rank - 1 (0 = rank
// 1, at the bottom). A wall `e3h` is named by the cell whose top-right
// corner is the wall's centre (docs/PROTOCOL.md, "Quoridor state"); its
// intersection is {x: 4, y: 2}, and intersections run 0..size-2 both ways.

/** Pawn colours by side (two sides: Red and Yellow, RULES.md §2). */
export const COLORS = ['red', 'yellow', 'blue', 'green', 'purple', 'orange', 'teal', 'pink'];

export function cellName(x, y) {
  return `${String.fromCharCode(97 + x)}${y + 1}`;
}

/** 'e3' -> {x: 4, y: 2}; null if it is not a cell of a board of `size`. */
export function parseCell(name, size = 13) {
  const m = /^([a-m])([1-9]|1[0-3])$/.exec(name ?? '');
  if (!m) return null;
  const x = m[1].charCodeAt(0) - 97;
  const y = Number(m[2]) - 1;
  return x < size && y < size ? { x, y } : null;
}

/** 'e3h' -> {x: 4, y: 2, o: 'h', name}; null if it is not a wall. */
export function parseWall(text, size = 13) {
  const m = /^([a-m](?:[1-9]|1[0-3]))([hv])$/.exec(text ?? '');
  if (!m) return null;
  const c = parseCell(m[1], size);
  if (!c || c.x > size - 2 || c.y > size - 2) return null;
  return { x: c.x, y: c.y, o: m[2], name: text };
}

export function wallName(x, y, o) {
  return `${cellName(x, y)}${o}`;
}

/** A match-shaped object for a room with no game yet: an empty board. */
export function previewMatch(options) {
  const size = Number(options?.size) || 9;
  const mid = cellName((size - 1) / 2, 0)[0];
  return {
    preview: true,
    players: [],
    state: {
      size,
      goal: 'edge',
      pawns: [`${mid}1`, `${mid}${size}`],
      goals: ['top', 'bottom'],
      walls: [],
      walls_left: [0, 0],
      to_move: null,
      ply: 0,
      outcome: null,
      last_move: null,
    },
    legal: [],
    moves: [],
    clock: null,
    outcome: null,
  };
}

/** The side `you` plays in `match` (a team member's side too), or null. */
export function sideOf(match, you) {
  if (!match || !you) return null;
  const teams = match.teams ?? (match.players ?? []).map((p) => [p]);
  const i = teams.findIndex((team) => (team ?? []).some((p) => p && p.member === you.member));
  return i >= 0 ? i : null;
}

/**
 * Everything the board needs, from `match` (as sent by the server) and
 * `you` (the snapshot's `you`: {member, ...}).
 */
export function deriveState(match, you) {
  const s = match.state ?? {};
  const size = Number(s.size) || 9;
  const outcome = match.outcome ?? s.outcome ?? null;
  const players = match.players ?? [];
  const mySide = sideOf(match, you);
  const toMove = outcome ? null : (s.to_move ?? null);
  const toPlay = match.to_play ?? players[toMove]?.member ?? null;
  const myTurn = !match.preview && !match.past && toMove != null && mySide === toMove && !!you && toPlay === you.member;
  const moves = match.moves ?? [];
  const lastMove = s.last_move ?? (moves.length ? moves[moves.length - 1] : null);

  const pawnTargets = new Set();
  const legalWalls = new Set();
  let canPass = false;
  if (myTurn) {
    for (const text of match.legal ?? []) {
      if (text === 'pass') canPass = true;
      else if (parseWall(text, size)) legalWalls.add(text);
      else if (parseCell(text, size)) pawnTargets.add(text);
    }
  }

  const walls = (s.walls ?? []).map((w) => parseWall(w, size)).filter(Boolean);
  // The last wall placed, from the move list (the last move may be a step).
  let lastWall = null;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (parseWall(moves[i], size)) {
      lastWall = moves[i];
      break;
    }
  }
  const pawns = (s.pawns ?? []).map((cell, side) => {
    const c = parseCell(cell, size);
    return c ? { side, cell, ...c, color: colorOf(side) } : null;
  });
  const lastCell = parseCell(lastMove, size) ? lastMove : null;

  return {
    preview: !!match.preview,
    size,
    goalMode: s.goal ?? 'edge',
    goals: s.goals ?? [],
    pawns,
    walls,
    lastWall,
    lastCell,
    lastMove,
    players,
    teams: match.teams ?? null,
    wallsLeft: s.walls_left ?? [],
    mySide,
    myTurn,
    toMove,
    outcome,
    over: !!outcome,
    pawnTargets,
    legalWalls,
    canPass,
    myWallsLeft: mySide != null ? (s.walls_left?.[mySide] ?? 0) : 0,
    ply: s.ply ?? moves.length,
    moves,
  };
}

export function colorOf(side) {
  return COLORS[side % COLORS.length];
}

/** The cell at the centre (centre race). */
export function centreCell(size) {
  const m = (size - 1) / 2;
  return cellName(m, m);
}

export function isWallLegal(state, x, y, o) {
  return !!state && state.legalWalls.has(wallName(x, y, o));
}

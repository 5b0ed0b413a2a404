// CrossyRay board state, derived from the server's match object alone.
//
// Pure functions, no DOM: what is on the board (numbers, blocks, the ray's
// origin, the goals and who defends them), which targets are legal for the
// viewer, and the last move. render.js draws from this; input.js reads it.
//
// Coordinates: x = file (0 = 'a', from the left), y = rank - 1 (0 = rank 1,
// at the bottom). Cells are row-major from the bottom rank:
// index = y * width + x (docs/PROTOCOL.md, "CrossyRay state").

import { seatAndTurn } from '../board-turn.js';

export const GOALS = ['left', 'right', 'top', 'bottom'];

export function fileLetter(x) {
  return String.fromCharCode(97 + x);
}

export function cellName(x, y) {
  return `${fileLetter(x)}${y + 1}`;
}

/** 'e4' -> {x: 4, y: 3}; null if it is not a cell. */
export function parseCell(name) {
  const m = /^([a-z])(\d{1,2})$/.exec(name ?? '');
  if (!m) return null;
  return { x: m[1].charCodeAt(0) - 97, y: Number(m[2]) - 1 };
}

/** 'goal:left' -> 'left'; null otherwise. */
export function parseGoal(move) {
  const m = /^goal:(left|right|top|bottom)$/.exec(move ?? '');
  return m ? m[1] : null;
}

/** Goals sit on the short sides: left/right on a wide board, top/bottom on a tall one. */
export function goalSides(width, height) {
  return width > height ? ['left', 'right'] : ['top', 'bottom'];
}

/** The three positions of a goal: rows (left/right) or files (top/bottom). */
export function goalSpan(side, width, height) {
  const n = side === 'left' || side === 'right' ? height : width;
  const mid = (n - 1) / 2;
  return [mid - 1, mid, mid + 1];
}

/**
 * Off-board slot (x, y) in front of a goal position, e.g. x = -1 for the
 * left goal. Returns the goal side or null if (x, y) is not a goal slot.
 */
export function goalAt(x, y, width, height) {
  // A wide board has its goals left and right, over middle rows; a tall
  // one bottom and top, over middle files: `along` runs towards them.
  const wide = width > height;
  const [along, across, length, span] = wide ? [x, y, width, height] : [y, x, height, width];
  const [before, after] = wide ? ['left', 'right'] : ['bottom', 'top'];
  if (across < 0 || across >= span) return null;
  if (!goalSpan(wide ? 'left' : 'top', width, height).includes(across)) return null;
  if (along === -1) return before;
  if (along === length) return after;
  return null;
}

/** The move under board position (x, y), a cell or a goal slot; null if neither. */
export function moveAt(x, y, width, height) {
  if (x >= 0 && x < width && y >= 0 && y < height) return cellName(x, y);
  const g = goalAt(x, y, width, height);
  return g ? `goal:${g}` : null;
}

/** A match-shaped object for a room with no game yet: the 1 on the centre. */
export function previewMatch(options) {
  const width = options?.width ?? 9;
  const height = options?.height ?? 7;
  const cells = new Array(width * height).fill(0);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  cells[cy * width + cx] = 1;
  return {
    preview: true,
    players: [],
    state: {
      width, height, cells,
      origin: cellName(cx, cy),
      current: 1, to_move: null, ply: 0, outcome: null, last_move: null,
      defends: width > height ? ['left', 'right'] : ['top', 'bottom'],
    },
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
export function deriveState(match, you, nameOf = (p) => p?.name) {
  const s = match.state;
  const { width, height } = s;
  const { outcome, players, mySide, toMove, myTurn, lastMove } = seatAndTurn(match, you);
  const legal = new Set(myTurn ? match.legal ?? [] : []);

  // Who placed each number: side 0 moves first, so move i is side i % 2.
  const placer = new Map();
  (match.moves ?? []).forEach((m, i) => {
    if (!parseGoal(m)) placer.set(m, i % 2);
  });

  const cells = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const name = cellName(x, y);
      const value = s.cells[y * width + x] ?? 0;
      cells.push({
        x, y, name, value,
        blocked: value !== 0,
        origin: name === s.origin,
        placer: placer.has(name) ? placer.get(name) : null,
        legal: legal.has(name),
        last: name === lastMove,
      });
    }
  }

  const defends = s.defends ?? (width > height ? ['left', 'right'] : ['top', 'bottom']);
  const goals = goalSides(width, height).map((side) => {
    const d = defends.indexOf(side);
    const defender = d >= 0 ? d : null;
    return {
      side,
      move: `goal:${side}`,
      span: goalSpan(side, width, height),
      defender,
      defenderName: defender != null && players[defender] ? nameOf(players[defender]) ?? null : null,
      mine: defender != null && defender === mySide,
      legal: legal.has(`goal:${side}`),
      last: lastMove === `goal:${side}`,
    };
  });

  const origin = parseCell(s.origin);
  return {
    width, height,
    wide: width > height,
    preview: !!match.preview,
    cells,
    origin: s.origin,
    originXY: origin,
    current: s.current,
    toMove,
    ply: s.ply ?? (match.moves?.length ?? 0),
    outcome,
    over: !!outcome,
    lastMove,
    goals,
    players,
    mySide,
    myTurn,
    legal,
    moves: match.moves ?? [],
  };
}

/** Whether `move` sends the ray into the viewer's own goal (a loss: RULES.md §1). */
export function isOwnGoal(state, move) {
  const side = parseGoal(move);
  if (!state || side == null || state.mySide == null) return false;
  return state.goals.some((g) => g.side === side && g.mine);
}

/** A move as people read it: `goal:left` -> "→ left goal"; cells as they are. */
export function moveText(move, t) {
  const side = parseGoal(move);
  return side ? t('move.goal', { side: t(`side.${side}`) }) : move;
}

/** Whether `move` is a move the viewer may play now. */
export function canPlay(state, move) {
  return !!state && state.myTurn && state.legal.has(move);
}

// The board renderer of each game, all with the same small surface
// (crossyray/board.js, jungle/board.js, quoridor/board.js):
// createBoard(el, {onMove, onNotice, readOnly}) → {set(match, you, options),
// redraw(), state(), destroy()}. The room plays on them; the replay and
// the rules pages draw on them read-only.

import { createBoard as createCrossyRayBoard } from './crossyray/board.js';
import { createBoard as createJungleBoard } from './jungle/board.js';
import { createBoard as createQuoridorBoard } from './quoridor/board.js';

const RENDERERS = { crossyray: createCrossyRayBoard, jungle: createJungleBoard, quoridor: createQuoridorBoard };

/** `game`'s board on `el` (CrossyRay's for an unknown game). */
export function createBoardFor(game, el, opts = {}) {
  return (RENDERERS[game] ?? createCrossyRayBoard)(el, opts);
}

/** Whether `match` is one of `game`'s (a room may switch games between them). */
export function isMatchOf(game, match) {
  const shape = { jungle: 'pieces', quoridor: 'pawns' }[game] ?? 'cells';
  return !!match && Array.isArray(match.state?.[shape]);
}

// The small surface the room page uses to show a Jungle board (as
// chessground's api.ts, and the same surface as crossyray/board.js):
// create it on a container, feed it the latest match object, and it calls
// onMove(notation) when the viewer plays.

import { deriveState, previewMatch, squareAt } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';
import { boardController } from '../board-kit.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, square)    a keyboard action that did nothing, and why
 *   readOnly                  draw only: no input (board-kit.js)
 */
export function createBoard(el, opts = {}) {
  const board = boardController(el, { ...opts, mount: mountBoard, render, attachInput, ui: { selected: null, cursor: null }, className: 'jg' });
  return {
    /** Show `match` (or, when null, the usual start) as seen by `you`. */
    set(match, you) {
      const before = board.state();
      const state = deriveState(match ?? previewMatch(), you);
      board.setState(state);
      // A selection only survives while that animal can still move.
      const { selected } = board.ui();
      if (selected && !squareAt(state, selected)?.movable) board.patchUi({ selected: null });
      if (before && before.ply !== state.ply && !state.myTurn) board.patchUi({ selected: null });
      board.redraw();
    },
    /** Select the animal on `square` (a rules diagram): its moves are marked. */
    show(square) {
      board.patchUi({ selected: square });
      board.redraw();
    },
    /** Draw `move` (the game's notation) over the board as the engine's hint; null takes it away. */
    showHint: board.showHint,
    redraw: board.redraw,
    state: board.state,
    destroy: board.destroy,
  };
}

// The small surface the room page uses to show a CrossyRay board
// (as chessground's api.ts): create it on a container, feed it the latest
// match object, and it calls onMove(notation) when the viewer plays.

import { deriveState, previewMatch, moveAt } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';
import { boardController } from '../board-kit.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, move)      a keyboard action that did nothing, and why
 *   readOnly                  draw only: no input (board-kit.js)
 *   nameOf(player)            a player's name as the page shows it (the room's
 *                             names told apart); else the name as it is
 */
export function createBoard(el, opts = {}) {
  const board = boardController(el, { ...opts, mount: mountBoard, render, attachInput, ui: { cursor: null, cursorMove: null } });
  return {
    /** Show `match` (or, when null, an empty board for `options`) as seen by `you`. */
    set(match, you, options) {
      const state = deriveState(match ?? previewMatch(options), you, opts.nameOf);
      board.setState(state);
      // A new board size may strand the cursor: drop it if it is no longer a position.
      const { cursor } = board.ui();
      if (cursor && !moveAt(cursor.x, cursor.y, state.width, state.height)) {
        board.patchUi({ cursor: null, cursorMove: null });
      } else if (cursor) {
        board.patchUi({ cursorMove: moveAt(cursor.x, cursor.y, state.width, state.height) });
      }
      board.redraw();
    },
    /** Draw `move` (the game's notation) over the board as the engine's hint; null takes it away. */
    showHint: board.showHint,
    redraw: board.redraw,
    state: board.state,
    destroy: board.destroy,
  };
}

// The small surface the room page uses to show a Quoridor board (as
// chessground's api.ts, and the same surface as crossyray/board.js and
// jungle/board.js): create it on a container, feed it the latest match
// object, and it calls onMove(notation) when the viewer plays.

import { deriveState, previewMatch, parseWall } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';
import { boardController } from '../board-kit.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, where)     an action that did nothing, and why
 *   readOnly                  draw only: no input (board-kit.js)
 */
export function createBoard(el, opts = {}) {
  const ui = { mode: 'pawn', orient: 'h', ghost: null, cursor: null };
  const board = boardController(el, { ...opts, mount: mountBoard, render, attachInput, ui, className: 'qd' });
  return {
    /** Show `match` (or, when null, an empty board of the room's size) as seen by `you`. */
    set(match, you, options) {
      const before = board.state();
      const state = deriveState(match ?? previewMatch(options), you);
      board.setState(state);
      // A new turn drops a ghost wall left over from the last one.
      if (before && before.ply !== state.ply) {
        const { mode, cursor } = board.ui();
        board.patchUi({ ghost: mode === 'wall' && cursor ? cursor : null });
      }
      board.redraw();
    },
    /**
     * Draw the wall `name` (`e3h`) as the wall the viewer is about to place
     * (a rules diagram): green when the server lists it as legal, red when not.
     */
    show(name) {
      const w = parseWall(name, board.state()?.size);
      if (!w) return;
      board.patchUi({ mode: 'wall', orient: w.o, ghost: { x: w.x, y: w.y } });
      board.redraw();
    },
    /** Draw `move` (the game's notation) over the board as the engine's hint; null takes it away. */
    showHint: board.showHint,
    redraw: board.redraw,
    state: board.state,
    destroy: board.destroy,
  };
}

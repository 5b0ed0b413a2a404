// The small surface the room page uses to show a CrossyRay board
// (as chessground's api.ts): create it on a container, feed it the latest
// match object, and it calls onMove(notation) when the viewer plays.

import { deriveState, previewMatch, moveAt } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, move)      a keyboard action that did nothing, and why
 */
export function createBoard(el, { onMove, onNotice } = {}) {
  let state = null;
  let ui = { cursor: null, cursorMove: null, pending: false };

  mountBoard(el);
  const redraw = () => render(el, state, ui);

  const detach = attachInput(el, {
    getState: () => state,
    getUi: () => ui,
    setUi(patch) {
      ui = { ...ui, ...patch };
      redraw();
    },
    play(move) {
      ui = { ...ui, pending: true };
      redraw();
      return Promise.resolve(onMove?.(move))
        .catch(() => {})
        .finally(() => {
          ui = { ...ui, pending: false };
          redraw();
        });
    },
    notice: onNotice,
  });

  return {
    /** Show `match` (or, when null, an empty board for `options`) as seen by `you`. */
    set(match, you, options) {
      state = deriveState(match ?? previewMatch(options), you);
      // A new board size may strand the cursor: drop it if it is no longer a position.
      if (ui.cursor && !moveAt(ui.cursor.x, ui.cursor.y, state.width, state.height)) {
        ui = { ...ui, cursor: null, cursorMove: null };
      } else if (ui.cursor) {
        ui = { ...ui, cursorMove: moveAt(ui.cursor.x, ui.cursor.y, state.width, state.height) };
      }
      redraw();
    },
    redraw,
    state: () => state,
    destroy() {
      detach();
      el.innerHTML = '';
    },
  };
}

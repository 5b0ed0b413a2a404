// The small surface the room page uses to show a Jungle board (as
// chessground's api.ts, and the same surface as crossyray/board.js):
// create it on a container, feed it the latest match object, and it calls
// onMove(notation) when the viewer plays.

import { deriveState, previewMatch, squareAt } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, square)    a keyboard action that did nothing, and why
 */
export function createBoard(el, { onMove, onNotice } = {}) {
  let state = null;
  let ui = { selected: null, cursor: null, pending: false };

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
    /** Show `match` (or, when null, the usual start) as seen by `you`. */
    set(match, you) {
      const before = state;
      state = deriveState(match ?? previewMatch(), you);
      // A selection only survives while that animal can still move.
      if (ui.selected && !squareAt(state, ui.selected)?.movable) ui = { ...ui, selected: null };
      if (before && before.ply !== state.ply && !state.myTurn) ui = { ...ui, selected: null };
      redraw();
    },
    redraw,
    state: () => state,
    destroy() {
      detach();
      el.innerHTML = '';
      el.classList.remove('jg');
    },
  };
}

// The small surface the room page uses to show a Quoridor board (as
// chessground's api.ts, and the same surface as crossyray/board.js and
// jungle/board.js): create it on a container, feed it the latest match
// object, and it calls onMove(notation) when the viewer plays.

import { deriveState, previewMatch } from './state.js';
import { render, mountBoard } from './render.js';
import { attachInput } from './input.js';

/**
 * @param {HTMLElement} el
 * @param {object} opts
 *   onMove(move) -> Promise   send the move; settles on the server's answer
 *   onNotice(kind, where)     an action that did nothing, and why
 */
export function createBoard(el, { onMove, onNotice } = {}) {
  let state = null;
  let ui = { mode: 'pawn', orient: 'h', ghost: null, cursor: null, pending: false };

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
    /** Show `match` (or, when null, an empty board of the room's size) as seen by `you`. */
    set(match, you, options) {
      const before = state;
      state = deriveState(match ?? previewMatch(options), you);
      // A new turn drops a ghost wall left over from the last one.
      if (before && before.ply !== state.ply) ui = { ...ui, ghost: ui.mode === 'wall' && ui.cursor ? ui.cursor : null };
      redraw();
    },
    redraw,
    state: () => state,
    destroy() {
      detach();
      el.innerHTML = '';
      el.classList.remove('qd');
    },
  };
}

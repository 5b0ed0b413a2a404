// Jungle input: mouse, touch and keyboard.
//
// Input never draws. It reads the derived state, updates the view state
// (selected square, cursor) through setUi(), and proposes moves through
// play(); the server decides, and the board is redrawn from the next
// match object.
//
// - Click or tap one of your animals that can move: its targets are marked
//   (dot = empty square, dashed ring = capture, gold ring = den). Click a
//   target to move there; click elsewhere to deselect.
// - Arrow keys move a cursor over the squares (as the board is shown, so
//   Up is always towards the top of the screen); Enter or Space selects
//   the animal under the cursor, then plays the move to the square under
//   it; Esc deselects (a second Esc hides the cursor).

import { FILES, RANKS, parseSquare, squareName, squareAt, targetsFrom, toScreen, fromScreen } from './state.js';
import { boardKeys, listen } from '../board-keys.js';

/**
 * What acting on `square` does, given the state and the selection:
 * {play: move} | {select: square} | {deselect: true} | {notice: kind}.
 * Pure, so it is tested without a browser.
 */
export function actionAt(state, selected, square) {
  if (!state || !square) return { none: true };
  if (!state.myTurn) return { notice: 'not_your_turn' };
  const target = targetsFrom(state, selected).find((x) => x.to === square);
  if (target) return { play: target.move };
  if (square === selected) return { deselect: true };
  const sq = squareAt(state, square);
  if (sq?.movable) return { select: square };
  return selected ? { deselect: true } : { notice: 'not_legal' };
}

/**
 * @param {HTMLElement} el the board container (focusable)
 * @param {object} api
 *   getState()         derived state or null
 *   getUi()            view state {selected, cursor, pending}
 *   setUi(patch)       update view state and redraw
 *   play(move)         propose a move; returns a promise
 *   notice(kind, square) tell the user why nothing happened
 */
export function attachInput(el, api) {
  function act(square, fromKeyboard) {
    const state = api.getState();
    const ui = api.getUi();
    if (ui.pending) return;
    const what = actionAt(state, ui.selected, square);
    if (what.play) {
      api.setUi({ selected: null });
      api.play(what.play);
    } else if (what.select) {
      api.setUi({ selected: what.select });
    } else if (what.deselect) {
      api.setUi({ selected: null });
    } else if (what.notice && fromKeyboard) {
      api.notice?.(what.notice, square);
    }
  }

  function onClick(e) {
    const node = e.target.closest?.('[data-square]');
    if (!node || !el.contains(node)) return;
    // A click ends keyboard navigation; drop the cursor.
    if (api.getUi().cursor) api.setUi({ cursor: null });
    act(node.dataset.square, false);
  }

  function startCursor(state, ui) {
    if (ui.selected) return ui.selected;
    const first = state.squares.find((s) => s.movable);
    if (first) return first.name;
    return squareName(3, state.flipped ? RANKS - 1 : 0);
  }

  const onKey = boardKeys(api, {
    step(state, ui, [dc, up]) {
      if (!ui.cursor) {
        api.setUi({ cursor: startCursor(state, ui) });
        return;
      }
      const sq = parseSquare(ui.cursor);
      const { col, row } = toScreen(sq.x, sq.y, state.flipped);
      const nc = Math.min(FILES - 1, Math.max(0, col + dc));
      const nr = Math.min(RANKS - 1, Math.max(0, row - up)); // screen rows run down
      const next = fromScreen(nc, nr, state.flipped);
      api.setUi({ cursor: squareName(next.x, next.y) });
    },
    play(state, ui) {
      if (!ui.cursor) return false;
      act(ui.cursor, true);
      return true;
    },
    escape(state, ui) {
      if (ui.selected) api.setUi({ selected: null });
      else if (ui.cursor) api.setUi({ cursor: null });
      else return false;
      return true;
    },
  });

  return listen(el, { click: onClick, keydown: onKey });
}

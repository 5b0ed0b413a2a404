// CrossyRay input: mouse, touch and keyboard.
//
// Input never draws. It reads the derived state, updates the view state
// (the cursor) through setUi(), and proposes moves through play(); the
// server decides, and the board is redrawn from the next match object.
//
// - Click or tap a marked target (a dot on a cell, a gold ring on a goal;
//   a red ring on your own goal, which asks before it plays: it loses).
// - Arrow keys move a cursor over the cells and the goal slots outside the
//   board; Enter or Space plays the move under the cursor; Esc clears it.

import { canPlay, moveAt, isOwnGoal } from './state.js';
import { askOwnGoal } from '../settings.js';
import { t } from '../i18n.js';
import { boardKeys, listen } from '../board-keys.js';

/**
 * @param {HTMLElement} el the board container (focusable)
 * @param {object} api
 *   getState()         derived state or null
 *   getUi()            view state {cursor, cursorMove, pending}
 *   setUi(patch)       update view state and redraw
 *   play(move)         propose a move; returns a promise
 *   notice(text)       tell the user why nothing happened
 */
export function attachInput(el, api) {
  function tryPlay(move) {
    const state = api.getState();
    if (!state || api.getUi().pending) return;
    if (!canPlay(state, move)) return false;
    // An own goal loses at once: ask first, unless the player turned that off.
    if (isOwnGoal(state, move) && askOwnGoal() && !window.confirm(t('board.own_goal_confirm'))) return true;
    api.play(move);
    return true;
  }

  function onClick(e) {
    const target = e.target.closest?.('[data-target]');
    if (!target || !el.contains(target)) return;
    const move = target.dataset.target;
    const state = api.getState();
    if (!state || !state.myTurn) return;
    if (canPlay(state, move)) {
      // A click ends keyboard navigation; drop the cursor.
      api.setUi({ cursor: null, cursorMove: null });
      tryPlay(move);
    }
  }

  const onKey = boardKeys(api, {
    step(state, ui, [dx, dy]) {
      // The cursor starts at the ray's origin, so the first press already
      // steps along a ray: from the origin, Right then Enter plays one step right.
      let cur = ui.cursor ?? state.originXY ?? { x: (state.width - 1) / 2, y: (state.height - 1) / 2 };
      const nx = cur.x + dx;
      const ny = cur.y + dy;
      // Stay put when the step leaves the board anywhere but a goal slot.
      if (moveAt(nx, ny, state.width, state.height)) cur = { x: nx, y: ny };
      api.setUi({ cursor: cur, cursorMove: moveAt(cur.x, cur.y, state.width, state.height) });
    },
    play(state, ui) {
      if (!ui.cursor) return false;
      const move = ui.cursorMove;
      if (!state.myTurn) api.notice?.('not_your_turn', move);
      else if (!tryPlay(move) && !ui.pending) api.notice?.('not_legal', move);
      return true;
    },
    escape(state, ui) {
      if (!ui.cursor) return false;
      api.setUi({ cursor: null, cursorMove: null });
      return true;
    },
  });

  return listen(el, { click: onClick, keydown: onKey });
}

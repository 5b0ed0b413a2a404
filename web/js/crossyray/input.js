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

const DIRS = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

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

  function onKey(e) {
    const state = api.getState();
    if (!state) return;
    const ui = api.getUi();
    if (e.key in DIRS) {
      e.preventDefault();
      const [dx, dy] = DIRS[e.key];
      // The cursor starts at the ray's origin, so the first press already
      // steps along a ray: from the origin, Right then Enter plays one step right.
      let cur = ui.cursor ?? state.originXY ?? { x: (state.width - 1) / 2, y: (state.height - 1) / 2 };
      const nx = cur.x + dx;
      const ny = cur.y + dy;
      // Stay put when the step leaves the board anywhere but a goal slot.
      if (moveAt(nx, ny, state.width, state.height)) cur = { x: nx, y: ny };
      api.setUi({ cursor: cur, cursorMove: moveAt(cur.x, cur.y, state.width, state.height) });
      return;
    }
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'Spacebar') {
      if (!ui.cursor) return;
      e.preventDefault();
      const move = ui.cursorMove;
      if (!state.myTurn) {
        api.notice?.('not_your_turn', move);
        return;
      }
      if (!tryPlay(move) && !ui.pending) api.notice?.('not_legal', move);
      return;
    }
    if (e.key === 'Escape' || e.key === 'Esc') {
      if (ui.cursor) {
        e.preventDefault();
        api.setUi({ cursor: null, cursorMove: null });
      }
    }
  }

  el.addEventListener('click', onClick);
  el.addEventListener('keydown', onKey);
  return () => {
    el.removeEventListener('click', onClick);
    el.removeEventListener('keydown', onKey);
  };
}

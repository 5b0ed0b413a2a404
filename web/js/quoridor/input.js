// Quoridor input: mouse, touch and keyboard.
//
// Input never draws. It reads the derived state, updates the view state
// (mode, wall orientation, ghost wall, cursor) through setUi(), and
// proposes moves through play(); the server decides, and the board is
// redrawn from the next match object.
//
// - On your turn the cells your pawn may reach carry a dot: click one to
//   move there.
// - Walls: hover (mouse) a groove intersection, or tap (touch) anywhere
//   on the board but a marked cell or your pawn, to see a ghost wall at the nearest
//   intersection in the chosen orientation (the H/V button toggles it); it
//   is drawn solid only when it may be placed. Click or tap it again (with
//   a mouse, the hover already put it there: one click) to place it. A tap
//   picks the intersection nearest to it, so each one has a whole
//   cell-and-groove square (at least 32 px on a phone, see geometry.js
//   minBoardWidth) to be hit in, not only its small circle.
// - Pass: the Pass button, shown when passing is legal.
// - Keyboard: arrows move a cursor (over cells, or over intersections in
//   wall mode); `w` switches to wall mode and then toggles the orientation
//   (h, then v, then back to pawn mode); `h`/`v` pick an orientation;
//   Enter or Space moves or places; Esc leaves wall mode, then hides the
//   cursor.

import { cellName, isWallLegal, wallName } from './state.js';
import { nearestCrossing } from './geometry.js';
import { listen } from '../board-keys.js';

const DIRS = {
  ArrowUp: [0, 1],
  ArrowDown: [0, -1],
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
};

/**
 * What acting on an intersection does, given the state and the ghost:
 * {play: wall} | {ghost: {x, y}} | {notice: kind}. Pure, so it is tested
 * without a browser.
 */
export function wallActionAt(state, ui, x, y) {
  if (!state) return { none: true };
  if (!state.myTurn) return { notice: 'not_your_turn' };
  const same = ui.ghost && ui.ghost.x === x && ui.ghost.y === y;
  if (!same) return { ghost: { x, y } };
  if (isWallLegal(state, x, y, ui.orient)) return { play: wallName(x, y, ui.orient) };
  return { notice: 'not_legal' };
}

/** What acting on a cell does: {play: cell} | {notice: kind} | {none}. */
export function cellActionAt(state, name) {
  if (!state) return { none: true };
  if (!state.myTurn) return { notice: 'not_your_turn' };
  if (state.pawnTargets.has(name)) return { play: name };
  return { notice: 'not_legal' };
}

/**
 * @param {HTMLElement} el the board container (focusable)
 * @param {object} api
 *   getState()         derived state or null
 *   getUi()            view state {mode, orient, ghost, cursor, pending}
 *   setUi(patch)       update view state and redraw
 *   play(move)         propose a move; returns a promise
 *   notice(kind, where) tell the user why nothing happened
 */
export function attachInput(el, api) {
  // The kind of pointer of the last press: a touch (or pen) tap picks the
  // nearest groove crossing; a mouse clicks what it hovers.
  let pointer = 'mouse';
  function onPointerDown(e) {
    pointer = e.pointerType || 'mouse';
  }

  /** The crossing nearest to a tap, when the viewer may place a wall there. */
  function tappedCrossing(e, state) {
    if (pointer === 'mouse' || !state?.myTurn || !(state.myWallsLeft > 0)) return null;
    const svg = el.querySelector('svg');
    const ctm = svg?.getScreenCTM?.();
    if (!ctm || !svg.contains(e.target)) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return nearestCrossing(state.size, p.x, p.y);
  }

  function perform(what, where, fromKeyboard) {
    if (what.play) {
      api.setUi({ ghost: null, mode: 'pawn' });
      api.play(what.play);
    } else if (what.ghost) {
      api.setUi({ ghost: what.ghost, mode: 'wall' });
    } else if (what.notice && (fromKeyboard || what.notice === 'not_legal')) {
      api.notice?.(what.notice, where);
    }
  }

  function onClick(e) {
    const ui = api.getUi();
    const state = api.getState();
    const button = e.target.closest?.('[data-action]');
    if (button && el.contains(button)) {
      if (button.dataset.action === 'orient') {
        const orient = ui.mode === 'wall' ? (ui.orient === 'h' ? 'v' : 'h') : ui.orient;
        api.setUi({ orient, mode: 'wall' });
      } else if (button.dataset.action === 'pass' && !ui.pending && state?.canPass) {
        api.setUi({ ghost: null, mode: 'pawn' });
        api.play('pass');
      }
      return;
    }
    if (ui.pending) return;
    if (ui.cursor) api.setUi({ cursor: null });
    const tappedCell = e.target.closest?.('[data-cell]')?.dataset.cell;
    // A marked cell moves the pawn, the pawn itself drops the ghost; any
    // other tap on a touch screen is about a wall.
    const pawnCell = state?.pawns[state.mySide]?.cell;
    const near = state?.pawnTargets.has(tappedCell) || (tappedCell && tappedCell === pawnCell)
      ? null : tappedCrossing(e, state);
    if (near) {
      perform(wallActionAt(state, api.getUi(), near.x, near.y), wallName(near.x, near.y, ui.orient), false);
      return;
    }
    const x = e.target.closest?.('.qx');
    if (x && el.contains(x)) {
      const cx = Number(x.dataset.x);
      const cy = Number(x.dataset.y);
      perform(wallActionAt(state, api.getUi(), cx, cy), wallName(cx, cy, ui.orient), false);
      return;
    }
    const cell = e.target.closest?.('[data-cell]');
    if (!cell || !el.contains(cell)) return;
    const name = cell.dataset.cell;
    if (state?.pawns[state.mySide]?.cell === name || !state?.pawnTargets.has(name)) {
      // Your pawn, or an empty cell: back to showing the pawn's targets.
      api.setUi({ mode: 'pawn', ghost: null });
      return;
    }
    perform(cellActionAt(state, name), name, false);
  }

  function onPointerMove(e) {
    if (e.pointerType !== 'mouse') return;
    const x = e.target.closest?.('.qx');
    const ui = api.getUi();
    if (!x || !el.contains(x)) return;
    const g = { x: Number(x.dataset.x), y: Number(x.dataset.y) };
    if (!ui.ghost || ui.ghost.x !== g.x || ui.ghost.y !== g.y) api.setUi({ ghost: g, mode: 'wall' });
  }

  function onPointerLeave(e) {
    if (e.pointerType !== 'mouse') return;
    const ui = api.getUi();
    if (ui.ghost && !ui.cursor) api.setUi({ ghost: null, mode: 'pawn' });
  }

  function startCursor(state, mode) {
    const mine = state.pawns[state.mySide];
    const mid = Math.floor((state.size - 1) / 2);
    if (mode === 'wall') {
      const x = Math.min(state.size - 2, mine ? mine.x : mid);
      const y = Math.min(state.size - 2, mine ? mine.y : mid);
      return { x, y };
    }
    return mine ? { x: mine.x, y: mine.y } : { x: mid, y: mid };
  }

  function onKey(e) {
    const state = api.getState();
    if (!state || e.altKey || e.ctrlKey || e.metaKey) return;
    const ui = api.getUi();
    const key = e.key;
    if (key in DIRS) {
      e.preventDefault();
      const max = ui.mode === 'wall' ? state.size - 2 : state.size - 1;
      let cursor;
      if (!ui.cursor) cursor = startCursor(state, ui.mode);
      else {
        const [dx, dy] = DIRS[key];
        cursor = {
          x: Math.min(max, Math.max(0, ui.cursor.x + dx)),
          y: Math.min(max, Math.max(0, ui.cursor.y + dy)),
        };
      }
      api.setUi(ui.mode === 'wall' ? { cursor, ghost: cursor } : { cursor });
      return;
    }
    if (key === 'w' || key === 'W' || key === 'h' || key === 'H' || key === 'v' || key === 'V') {
      e.preventDefault();
      const k = key.toLowerCase();
      let mode = 'wall';
      let orient = ui.orient;
      if (k === 'h' || k === 'v') orient = k;
      else if (ui.mode !== 'wall') orient = 'h';
      else if (ui.orient === 'h') orient = 'v';
      else mode = 'pawn';
      if (mode === 'pawn') {
        api.setUi({ mode, ghost: null, cursor: ui.cursor ? startCursor(state, 'pawn') : null });
        return;
      }
      const cursor = ui.mode === 'wall' && ui.cursor ? ui.cursor : startCursor(state, 'wall');
      api.setUi({ mode, orient, cursor, ghost: cursor });
      return;
    }
    if (key === 'Enter' || key === ' ' || key === 'Spacebar') {
      if (!ui.cursor || ui.pending) return;
      e.preventDefault();
      if (ui.mode === 'wall') {
        const what = wallActionAt(state, { ...ui, ghost: ui.cursor }, ui.cursor.x, ui.cursor.y);
        perform(what, wallName(ui.cursor.x, ui.cursor.y, ui.orient), true);
      } else {
        const name = cellName(ui.cursor.x, ui.cursor.y);
        perform(cellActionAt(state, name), name, true);
      }
      return;
    }
    if (key === 'Escape' || key === 'Esc') {
      if (ui.mode === 'wall' || ui.ghost) {
        e.preventDefault();
        api.setUi({ mode: 'pawn', ghost: null, cursor: ui.cursor ? startCursor(state, 'pawn') : null });
      } else if (ui.cursor) {
        e.preventDefault();
        api.setUi({ cursor: null });
      }
    }
  }

  return listen(el, {
    pointerdown: onPointerDown,
    click: onClick,
    pointermove: onPointerMove,
    pointerleave: onPointerLeave,
    keydown: onKey,
  });
}

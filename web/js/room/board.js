// The board panel: the room's game's renderer (games/registry.js) fed
// the shown table's match, rebuilt when the host switches the room to
// another game; the moves it makes go to the server. A game this page
// does not know is said on the board, and nothing is drawn there. While
// the viewer looks back (lookback.js) the board draws that past position
// and takes no move.

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { gameOf, isMatchOf } from '../games/registry.js';
import { page, command, toast } from './page.js';
import { shownMatch, atTable, mySide, gameRunning, me, sameNames } from './model.js';
import { whoName } from './people.js';
import { lookbackOf, pastMatch } from './lookback.js';
import { markBoardScroll } from './board-scroll.js';

let board = null;
let boardGame = null;

export const boardPanel = {
  name: 'board',
  slice: (m) => [m.room.game, shownMatch(m), m.you, m.room.options, m.lookback, sameNames(m.room).key],
  draw,
};

function notice(kind, where) {
  if (lookbackOf(page.model)) {
    toast(t('lookback.no_moves'), 'info', 'past_position');
    return;
  }
  toast(kind === 'not_your_turn' ? t('board.not_your_turn') : t('board.not_legal', { cell: where }), 'info');
}

function draw(model) {
  const name = model.room.game;
  const container = $('board');
  if (!board || boardGame !== name) {
    board?.destroy();
    board = null;
    boardGame = name;
    container.className = 'board';
    let game;
    try {
      game = gameOf(name);
    } catch (err) {
      container.replaceChildren(el('p', { class: 'form-error', 'data-testid': 'unknown-game', role: 'alert', text: t('room.unknown_game', { game: String(name) }) }));
      throw err;
    }
    container.replaceChildren();
    board = game.createBoard(container, {
      onMove: (move) => command('move', { move, ...atTable(page.model) }),
      onNotice: notice,
      // Players named as everywhere in the room: namesakes told apart.
      nameOf: (p) => whoName(page.model, p),
    });
  }
  // A match of another game (the host just switched) is not drawn.
  const m = pastMatch(model);
  board.set(isMatchOf(name, m) ? m : null, model.you, model.room.options);
  markBoardScroll();
}

/** Shows the engine's `move` on the board (null: none), where the renderer can (`showHint`). */
export function showBoardHint(move) {
  board?.showHint?.(move);
}

/**
 * "Ask before playing into my own goal" (a game with own goals), shown to
 * the players only: those of the shown game, or, between games, the
 * seated members.
 */
export const ownGoalPanel = {
  name: 'own-goal',
  slice: (m) => [m.room.game, shownMatch(m), m.you, m.room.members],
  draw(model) {
    let ownGoal = false;
    try {
      ownGoal = !!gameOf(model.room.game).ownGoal;
    } catch { /* an unknown game: the board says so */ }
    const player = mySide(model) != null || (!gameRunning(model) && me(model)?.seat != null);
    $('ask-own-goal-box').hidden = !ownGoal || !player;
  },
};

// The move list as people read it (pure, no DOM): one entry per move with
// its whole number, the side that played it, and the move in readable
// notation (CrossyRay's `goal:left` reads "→ left goal", Jungle's
// `7 a4xd4` "🦁 a4×d4", the picture named for screen readers).

import { moveText } from './crossyray/state.js';
import { ANIMALS, EMOJI, parseMove } from './jungle/state.js';
import { el } from './dom.js';
import { factsOf } from './games/facts.js';

/**
 * @param {string[]} moves     the match's moves, in wire notation
 * @param {object} opts
 *   game                      'crossyray' | 'jungle' | 'quoridor'
 *   sides                     the side of each move (match.move_sides); else alternating
 *   t                         the i18n function
 * @returns {{n: string, side: number, text: string, icon?: string, animal?: string, squares?: string, move: string}[]}
 */
export function moveListView(moves, { game, sides, t }) {
  return (moves ?? []).map((move, i) => ({
    n: `${i + 1}.`,
    side: sides?.[i] ?? i % 2,
    ...readable(game, move, t),
    move,
  }));
}

/**
 * `{text}`: the move as shown; a Jungle move also gives its `icon` (the
 * animal's picture), the `animal` in words and its `squares`.
 */
function readable(game, move, t) {
  return READABLE[factsOf(game).name](move, t);
}

/** Each game's notation as read: CrossyRay's words, Jungle's animals, Quoridor's as sent. */
const READABLE = {
  crossyray: (move, t) => ({ text: moveText(move, t) }),
  jungle: jungleMove,
  quoridor: (move) => ({ text: move }),
};

function jungleMove(move, t) {
  const jungle = parseMove(move);
  if (!jungle) return { text: move };
  const squares = `${jungle.from}${jungle.capture ? '×' : '-'}${jungle.to}`;
  const icon = EMOJI[jungle.rank];
  return { text: `${icon} ${squares}`, icon, animal: t(`animal.${ANIMALS[jungle.rank]}`), squares };
}

/**
 * The list's items for `view` (from moveListView): each entry a box that
 * holds its number and its move, so entries never overlap and a number
 * past 99 stays whole. `swatchOf(side)` is the entry's colour class.
 */
export function moveListItems(view, swatchOf) {
  return view.map((e) =>
    el('li', { class: swatchOf(e.side), 'data-testid': 'move', 'data-side': String(e.side), 'data-move': e.move },
      el('span', { class: 'mv-n', 'aria-hidden': 'true', text: e.n }),
      e.icon
        ? el('span', { class: 'mv-text', 'data-testid': 'move-text' },
          el('span', { class: 'mv-icon', role: 'img', 'aria-label': e.animal, title: e.animal, text: e.icon }),
          ` ${e.squares}`)
        : el('span', { class: 'mv-text', 'data-testid': 'move-text', text: e.text })));
}

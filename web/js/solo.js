// "Play the computer": the choices of the home page's panel, and what they
// mean for the room (pure, so it is tested without a browser).

import { factsOf } from './games/facts.js';

export const LEVELS = ['beginner', 'amateur', 'professional', 'master'];
export const SIDES = ['blue', 'red', 'random'];

/**
 * The i18n key naming side `side` (a SIDES value) in `game`: Jungle's
 * sides are Blue and Red; in the other games they are who moves first and
 * second.
 */
export function sideLabel(game, side) {
  if (factsOf(game).soloSides === 'colors' || side === 'random') return `solo.side_${side}`;
  return side === 'blue' ? 'solo.side_first' : 'solo.side_second';
}

/**
 * The options of a room against the computer: a chess clock in CrossyRay
 * and Jungle (`clock`, null for none); Quoridor keeps its turn timer and
 * two pawns.
 */
export function soloOptions(game, clock) {
  return factsOf(game).clock ? { clock } : {};
}

/**
 * Where the player and the computer sit, and the start order, for the
 * chosen side: Blue is side 0 and moves first; with order "seats", seat i
 * plays side i. Random lets the server draw who plays Blue.
 */
export function soloSeats(side) {
  if (side === 'red') return { me: 1, computer: 0, order: 'seats' };
  if (side === 'random') return { me: 0, computer: 1, order: 'random' };
  return { me: 0, computer: 1, order: 'seats' };
}

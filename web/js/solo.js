// "Play the computer": the choices of the home page's panel, and what they
// mean for the room (pure, so it is tested without a browser).

export const LEVELS = ['beginner', 'amateur', 'professional', 'master'];
export const SIDES = ['blue', 'red', 'random'];

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

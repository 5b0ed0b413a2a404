// The games with an illustrated rules page (/rules/GAME), in the order
// the pages list them; each has its content module here (GAME.js).

export const RULES_GAMES = ['crossyray', 'jungle', 'quoridor'];

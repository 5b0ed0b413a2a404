// The games with an illustrated rules page (/rules/GAME), in the order
// the pages list them; each has its content module here (GAME.js).

export { GAME_NAMES as RULES_GAMES } from '../games/facts.js';

// The closed list of games the client knows, with what each one is in
// plain data (no DOM, no words): node tests and pure modules read it, and
// registry.js adds the board and the words for the pages. A name that is
// not here is an error (UnknownGame), never quietly another game.

/** The games, in the order the lists and the rules pages show them. */
export const GAME_NAMES = ['crossyray', 'jungle', 'quoridor'];
/** The order of the game select of the create and options forms. */
export const FORM_ORDER = ['crossyray', 'quoridor', 'jungle'];

/** A game name the client does not know (a newer server, a typo in a link). */
export class UnknownGame extends Error {
  constructor(name) {
    super(`unknown game ${JSON.stringify(name)}: this page knows ${GAME_NAMES.join(', ')}`);
    this.name = 'UnknownGame';
    this.game = name;
  }
}

/*
 * Per game:
 *   shape        the array a match's state holds its position in (a match
 *                of another game, as when the host switches, is not drawn)
 *   modes        the room modes, the default first
 *   swatch       'side' (side-N colour classes) or 'colors' (Quoridor's qc-*)
 *   soloSides    'colors': the solo panel names Blue and Red; 'order':
 *                who moves first and second
 *   clock        whether the game has a chess clock (else a turn timer)
 *   draws        whether players may offer draws (two people, RULES.md §3)
 *   ownGoal      whether the board asks before a move into one's own goal
 *   seatsFill    'all': a game starts with every seat taken; 'ffa': a
 *                free-for-all starts with two or more seated
 */
const FACTS = {
  crossyray: {
    shape: 'cells', modes: ['single', 'knockout'], swatch: 'side', soloSides: 'order',
    clock: true, draws: false, ownGoal: true, seatsFill: 'all',
  },
  jungle: {
    shape: 'pieces', modes: ['single', 'knockout'], swatch: 'side', soloSides: 'colors',
    clock: true, draws: true, ownGoal: false, seatsFill: 'all',
  },
  quoridor: {
    shape: 'pawns', modes: ['ffa', 'teams', 'knockout'], swatch: 'colors', soloSides: 'order',
    clock: false, draws: false, ownGoal: false, seatsFill: 'ffa',
  },
};

/** Whether `name` is one of the games. */
export function isGame(name) {
  return Object.hasOwn(FACTS, name);
}

/** The facts of game `name`; throws UnknownGame for any other name. */
export function factsOf(name) {
  if (!isGame(name)) throw new UnknownGame(name);
  return { name, ...FACTS[name] };
}

/** Whether `match` is one of `game`'s (its state holds that game's position). */
export function isMatchOf(game, match) {
  return !!match && Array.isArray(match.state?.[factsOf(game).shape]);
}

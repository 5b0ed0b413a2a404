// Quoridor's rules page (RULES.md §2) in English and Vietnamese, with the
// tips and tactics of the product text, and its walkthrough. Each step is
// a position the server plays from `moves` with `options` (GET
// /api/position), seen as side `as` (its pawn moves marked); `show` draws
// a wall as the one about to be placed, green if the server lists it as
// legal, red if not; `points` shows the server's scoreboard points.
// The text, in each language, is in text/quoridor.json (translators edit it
// without touching code).

import text from './text/quoridor.json' with { type: 'json' };

// Three pawns: side 1 walks from a5 to e2 and side 2 from e9 to e3, then
// side 0 boxes the file in with d1v and e1v (RULES.md §2, the blocking
// example).
const BLOCKING = [
  'pass', 'a4', 'e8', 'pass', 'a3', 'e7', 'pass', 'a2', 'e6', 'pass', 'b2', 'e5',
  'pass', 'c2', 'e4', 'pass', 'd2', 'pass', 'pass', 'e2', 'e3', 'd1v', 'pass', 'pass', 'e1v',
];

// Four pawns: Red walks up file e and wins while the others stop at
// distances 5, 6 and 8.
const SCORING = [
  'e2', 'b5', 'd9', 'pass', 'e3', 'c5', 'd8', 'pass', 'e4', 'd5', 'd7', 'pass',
  'e5', 'pass', 'pass', 'pass', 'e6', 'pass', 'pass', 'pass', 'e7', 'pass', 'pass', 'pass',
  'e8', 'pass', 'pass', 'pass', 'e9',
];

export default {
  game: 'quoridor',
  steps: [
    { id: 'steps', moves: [], as: 0 },
    { id: 'jump', moves: ['e2', 'e8', 'e3', 'e7', 'e4', 'e6', 'e5'], as: 1 },
    { id: 'diagonal', moves: ['e2', 'e8', 'e3', 'e7', 'e4', 'e6', 'e5', 'pass', 'e4h'], as: 1 },
    { id: 'walls', moves: ['e2', 'e2h'], as: 0, show: 'e2v' },
    { id: 'never_shut', moves: ['b8h', 'd8h', 'f8h', 'h8h', 'a7h', 'pass'], as: 0, show: 'a8v' },
    { id: 'blocking', moves: BLOCKING, as: 1, options: { players: 3 } },
    { id: 'centre', moves: [], as: 0, options: { players: 4, goal: 'centre' } },
    { id: 'modes', moves: [], as: 0, options: { players: 6 } },
    { id: 'scoring', moves: SCORING, as: 0, options: { players: 4 }, points: true },
    { id: 'draws', moves: ['e2', 'e8', 'e3', 'e7'], as: 0, options: { move_limit: 2 } },
  ],
  text,
};

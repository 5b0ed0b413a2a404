// CrossyRay's rules page (RULES.md §1) in English and Vietnamese, and its
// walkthrough. Each step is a position the server plays from `moves`
// (GET /api/position), seen as side `as` (its legal targets marked).
// The text, in each language, is in text/crossyray.json (translators edit it
// without touching code).

import text from './text/crossyray.json' with { type: 'json' };

export default {
  game: 'crossyray',
  steps: [
    { id: 'ray', moves: [], as: 0 },
    { id: 'range', moves: ['f4'], as: 1 },
    { id: 'blocks', moves: ['e5', 'e6', 'd6', 'd5'], as: 0 },
    { id: 'cycle', moves: ['f4', 'f6', 'c6', 'a6', 'a1', 'c1', 'h1', 'h2', 'a2', 'd2', 'g2', 'g6', 'h6', 'h7', 'd7', 'd6', 'e6', 'e7'], as: 0 },
    { id: 'goal', moves: ['f4', 'h4'], as: 0 },
    { id: 'own_goal', moves: ['f4', 'h4', 'i4'], as: 1 },
    { id: 'lock', moves: ['e5', 'e6', 'd6', 'd7', 'f7', 'e7'], as: 0 },
    { id: 'clock', moves: [], as: 0, options: { clock: { minutes: 3, increment: 2 } } },
  ],
  text,
};

// Jungle's rules page (RULES.md §3) in English and Vietnamese, and its
// walkthrough. Each step is a position the server plays (GET
// /api/position): `moves` from the start, or from the position string
// `options.start`; seen as side `as`, with the moves of the animal on
// `show` marked.
// The text, in each language, is in text/jungle.json (translators edit it
// without touching code).

import text from './text/jungle.json' with { type: 'json' };

// Positions set up for a step (RULES.md §3, "Position string"): only the
// animals the step is about.
const START = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L';

export default {
  game: 'jungle',
  steps: [
    { id: 'ranks', moves: [], as: 0, show: 'a3' },
    { id: 'capture', moves: [], as: 0, show: 'c7', options: { start: '7/2p4/1wPt3/7/7/7/7/7/7 b 0 1' } },
    { id: 'rat_elephant', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/3e2r/3R2E/7/7/7/7 b 0 1' } },
    { id: 'water', moves: [], as: 0, show: 'c5', options: { start: '7/7/7/7/2Re3/7/7/7/7 b 0 1' } },
    { id: 'jump', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/7/3L2t/7/7/7/7 b 0 1' } },
    { id: 'jump_blocked', moves: [], as: 0, show: 'd5', options: { start: '7/7/7/7/2rL2t/7/7/7/7 b 0 1' } },
    { id: 'traps', moves: [], as: 0, show: 'd3', options: { start: '7/7/7/7/7/7/3C3/3e3/7 b 0 1' } },
    { id: 'den', moves: [], as: 0, show: 'd8', options: { start: '2d4/3R3/7/7/7/7/7/7/l6 b 0 1' } },
    { id: 'shuttle', moves: ['8 a3-a4', '8 g7-g6', '8 a4-a3', '8 g6-g7', '8 a3-a4', '8 g7-g6'], as: 0, show: 'a4' },
    { id: 'repetition', moves: ['8 a3-a4', '8 g7-g6', '8 a4-a3', '8 g6-g7', '6 a1-b1', '6 g9-f9', '6 b1-a1', '6 f9-g9'], as: 0 },
    { id: 'no_capture', moves: ['8 a3-a4', '8 g7-g6'], as: 0, options: { start: `${START} b 98 50` } },
    { id: 'rat_faq', moves: [], as: 0, show: 'd5', options: { start: '7/7/3C3/3r3/3E3/7/7/7/7 b 0 1' } },
  ],
  text,
};

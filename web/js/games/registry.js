// The games as the pages use them: each game's facts (facts.js) with its
// board renderer (the same small surface for all: createBoard(el, {onMove,
// onNotice, readOnly}) → {set(match, you, options), showHint(move | null),
// redraw(), state(), destroy()}; showHint draws a move over the position
// as the engine's hint, data-testid "hint-ghost"), its words (a side's name, the hint under the board, an
// outcome's reason) and its options form (options.js). Pages ask
// gameOf(room.game) instead of comparing names; an unknown name throws.

import { t } from '../i18n.js';
import { createBoard as crossyRayBoard } from '../crossyray/board.js';
import { createBoard as jungleBoard } from '../jungle/board.js';
import { createBoard as quoridorBoard } from '../quoridor/board.js';
import { colorOf } from '../quoridor/state.js';
import { optionForm } from '../options.js';
import { factsOf, isMatchOf } from './facts.js';

export { GAME_NAMES, FORM_ORDER, UnknownGame, isGame, isMatchOf } from './facts.js';

const sideSwatch = (side) => `side-${side}`;
const reasonWords = (reason) => t(`reason.${reason}`);

/** A side's name, and the goal it defends where the game has goals (CrossyRay). */
function defenceLine(sideLabel) {
  return (m, side) => {
    const defends = m.state.defends?.[side];
    return defends ? `${sideLabel(side)}, ${t('game.defends', { side: t(`side.${defends}`) })}` : sideLabel(side);
  };
}

const crossyRaySide = (side) => (side === 0 ? t('game.side0') : t('game.side1'));
const jungleSide = (side) => (side === 0 ? t('jungle.blue_first') : t('jungle.red'));
const quoridorSide = (side) => t(`quoridor.color.${colorOf(side)}`);

/** Quoridor's player line: the colour (and team), and the walls left. */
function quoridorLine(m, side, team, nameOf) {
  if (!isMatchOf('quoridor', m)) return defenceLine(quoridorSide)(m, side);
  const who = team.length > 1
    ? `${t('quoridor.team', { color: quoridorSide(side) })}: ${team.map((x) => nameOf(x)).join(', ')}`
    : `${quoridorSide(side)} ${side + 1}`;
  return `${who} · ${t('quoridor.walls_short', { n: m.state.walls_left?.[side] ?? 0 })}`;
}

/*
 * Per game, beside its facts:
 *   createBoard(el, opts)   the board renderer
 *   sideLabel(side)         a side's name ("Blue (moves first)", "Red", …)
 *   swatch(side)            the colour class of a side's marks
 *   playerLine(match, side, team, nameOf)   the line under a player's name
 *   hint(match, playing)    the line under the board while a game runs
 *   reasonText(reason)      an outcome's reason in words
 *   options                 the options form: summary, set, read (options.js)
 */
const PAGES = {
  crossyray: {
    createBoard: crossyRayBoard,
    sideLabel: crossyRaySide,
    playerLine: defenceLine(crossyRaySide),
    swatch: sideSwatch,
    hint: (m) => t('game.current', { k: m.state.current }),
    reasonText: reasonWords,
  },
  jungle: {
    createBoard: jungleBoard,
    sideLabel: jungleSide,
    playerLine: defenceLine(jungleSide),
    swatch: sideSwatch,
    hint: (m, playing) => (playing ? t('jungle.hint') : ''),
    reasonText: reasonWords,
  },
  quoridor: {
    createBoard: quoridorBoard,
    sideLabel: quoridorSide,
    playerLine: quoridorLine,
    swatch: (side) => `qc-${colorOf(side)}`,
    hint: (m, playing) => (playing ? t('quoridor.hint') : ''),
    reasonText: (reason) => (reason === 'goal' ? t('quoridor.reason.goal') : reasonWords(reason)),
  },
};

/** Game `name` as the pages use it; throws UnknownGame for any other name. */
export function gameOf(name) {
  const facts = factsOf(name);
  return { ...facts, ...PAGES[name], options: optionForm(name) };
}

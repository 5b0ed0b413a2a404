// Hints on the room page (docs/PROTOCOL.md, "Hints"): in a game against
// the computer alone, the player asks for the engine's move ("Hint") on
// their turn; the server's answer, for this page alone, names the ply it
// is for and is shown as text and on the board (its renderer's optional
// showHint) until the ply changes; while the player looks back at a past
// position (lookback.js) the board shows none. Never in a game with
// another person.

import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { moveListView } from '../move-list.js';
import { page, command } from './page.js';
import { shownMatch, mySide } from './model.js';
import { showBoardHint } from './board.js';
import { lookbackOf } from './lookback.js';

/** The hint shown ({match, ply, move}), or null; and the position one was asked for ({match, ply}), or null. */
let shown = null;
let asking = null;
/** The move last given to the board (null: none). */
let onBoard = null;

// After the board panel (room.js lists it later), with what redraws the board.
export const hintPanel = {
  name: 'hint',
  slice: (m) => [shownMatch(m), m.you, m.lookback, m.room.game, m.room.options],
  draw,
};

/** Whether the viewer plays the shown game and every other seat of it is the computer. */
function allowed(model, m) {
  if (!m || m.outcome || mySide(model) == null) return false;
  const everyone = (m.teams ?? m.players.map((p) => [p])).flat().filter(Boolean);
  return everyone.every((p) => p.member === model.you?.member || p.computer);
}

/** The ply of match `m`: the moves played. */
const plyOf = (m) => (m.moves ?? []).length;

function myTurn(model, m) {
  const toPlay = m.to_play ?? m.players[m.state?.to_move]?.member;
  return toPlay != null && toPlay === model.you?.member;
}

function draw(model) {
  const m = shownMatch(model);
  const ok = allowed(model, m);
  const here = (x) => ok && m.id === x.match && plyOf(m) === x.ply;
  // The position moved on (or the game is another, or over): the hint goes.
  if (shown && !here(shown)) shown = null;
  if (asking && !here(asking)) asking = null;
  // Given again after every redraw of the board, which may have drawn it afresh.
  const move = shown && !lookbackOf(model) ? shown.move : null;
  if (move != null || onBoard != null) showBoardHint(move);
  onBoard = move;
  const button = $('hint');
  button.hidden = !ok;
  button.disabled = !ok || !!asking || !myTurn(model, m);
  $('hint-box').hidden = !shown;
  // In the players' words (a Jungle move with its animal), as the move list reads.
  $('hint-move').textContent = shown ? moveListView([shown.move], { game: model.room.game, t })[0].text : '';
  $('hint-move').dataset.move = shown?.move ?? '';
}

/** A `hint` message from the server: shown if it is for the position on the board. */
export function onHint(msg) {
  asking = null;
  const m = shownMatch(page.model);
  if (m && !m.outcome && typeof msg.move === 'string' && msg.ply === plyOf(m)) {
    shown = { match: m.id, ply: msg.ply, move: msg.move };
  }
  draw(page.model);
}

/** The button's clicks, once. */
export function wireHint() {
  $('hint').addEventListener('click', () => {
    const m = shownMatch(page.model);
    if (!m) return;
    const mine = { match: m.id, ply: plyOf(m) };
    asking = mine;
    draw(page.model);
    // An answer that never comes (the room restarted meanwhile) does not hold the button for ever.
    setTimeout(() => {
      if (asking !== mine) return;
      asking = null;
      draw(page.model);
    }, 5_000);
    // Refused (the toast says why): the button comes back.
    command('hint').catch(() => {
      asking = null;
      draw(page.model);
    });
  });
}

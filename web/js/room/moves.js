// The move list of the shown game (move-list.js as people read it), its
// count, and the position string of a Jungle or CrossyRay game with its
// Copy button.

import { lang, t } from '../i18n.js';
import { $ } from '../dom.js';
import { moveListView, moveListItems } from '../move-list.js';
import { gameOf, isMatchOf } from '../games/registry.js';
import { shownMatch } from './model.js';

export const movesPanel = {
  name: 'moves',
  slice: (m) => [shownMatch(m), m.room.game],
  draw,
};

function draw(model) {
  const m = shownMatch(model);
  const game = model.room.game;
  drawPosition(game, m);
  const moves = m?.moves ?? [];
  $('move-count').textContent = String(moves.length);
  const list = $('moves');
  if (list.children.length === moves.length && list.dataset.match === (m?.id ?? '') && list.dataset.lang === lang() && list.dataset.game === game) return;
  list.dataset.match = m?.id ?? '';
  list.dataset.lang = lang();
  list.dataset.game = game ?? '';
  const { swatch } = gameOf(game);
  list.replaceChildren(...moveListItems(moveListView(moves, { game, sides: m?.move_sides, t }), swatch));
  list.scrollTop = list.scrollHeight;
}

function drawPosition(game, m) {
  const text = isMatchOf(game, m) ? m.state.position ?? '' : '';
  $('position-string-box').hidden = !text;
  $('position-string').textContent = text;
}

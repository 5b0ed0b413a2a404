// The move list of the shown game (move-list.js as people read it), its
// count, and the position string of a Jungle or CrossyRay game with its
// Copy button. A move in the list is a step to look back to (lookback.js):
// the move shown is marked, those after it are dimmed, and those that
// came while looking back are marked new.

import { lang, t } from '../i18n.js';
import { $ } from '../dom.js';
import { moveListView, moveListItems } from '../move-list.js';
import { gameOf, isMatchOf } from '../games/registry.js';
import { shownMatch } from './model.js';
import { lookbackOf, pastMatch } from './lookback.js';

export const movesPanel = {
  name: 'moves',
  slice: (m) => [shownMatch(m), m.room.game, m.lookback],
  draw,
};

function draw(model) {
  const m = shownMatch(model);
  const game = model.room.game;
  const lb = lookbackOf(model);
  drawPosition(game, lb ? pastMatch(model) : m);
  const moves = m?.moves ?? [];
  $('move-count').textContent = String(moves.length);
  const list = $('moves');
  const same = list.children.length === moves.length && list.dataset.match === (m?.id ?? '') && list.dataset.lang === lang() && list.dataset.game === game;
  if (!same) {
    list.dataset.match = m?.id ?? '';
    list.dataset.lang = lang();
    list.dataset.game = game ?? '';
    const { swatch } = gameOf(game);
    const items = moveListItems(moveListView(moves, { game, sides: m?.move_sides, t }), swatch);
    items.forEach((li, i) => {
      li.dataset.ply = String(i + 1);
      li.title = t('lookback.click_move');
    });
    list.replaceChildren(...items);
  }
  mark(list, lb, moves.length);
}

/** The move shown marked (`aria-current`), the later ones dimmed, the new ones marked; scrolled to it. */
function mark(list, lb, total) {
  const ply = lb ? lb.ply : total;
  const items = list.children;
  for (let i = 0; i < items.length; i += 1) {
    const li = items[i];
    li.classList.toggle('current', !!lb && i === ply - 1);
    li.classList.toggle('later', i >= ply);
    li.classList.toggle('new', !!lb && i >= lb.seen);
    if (lb && i === ply - 1) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
  list.dataset.ply = String(ply);
  const at = items[ply - 1];
  if (!lb || !at) list.scrollTop = lb ? 0 : list.scrollHeight;
  else if (at.offsetTop < list.scrollTop || at.offsetTop + at.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = at.offsetTop - list.clientHeight / 2;
  }
}

function drawPosition(game, m) {
  const text = isMatchOf(game, m) ? m.state.position ?? '' : '';
  $('position-string-box').hidden = !text;
  $('position-string').textContent = text;
}

// The lines about the shown game: whose turn it is (or that there is no
// game), "You are watching" for someone who does not play it, and the
// game's hint under the board.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { gameOf } from '../games/registry.js';
import { shownMatch, mySide, sameNames } from './model.js';
import { whoName } from './people.js';

export const turnPanel = {
  name: 'turn',
  slice: (m) => [shownMatch(m), m.you, m.room.game, sameNames(m.room).key],
  draw,
};

function draw(model) {
  const m = shownMatch(model);
  const node = $('turn');
  const playing = mySide(model) != null;
  $('watching').hidden = !m || !!m.outcome || playing;
  if (!m) {
    node.textContent = t('game.no_game');
    node.className = 'turn';
    $('rule-hint').textContent = '';
    return;
  }
  if (m.outcome) {
    node.textContent = '';
    node.className = 'turn';
  } else {
    const tm = m.state.to_move;
    const toPlay = m.to_play ?? m.players[tm]?.member;
    const mine = tm != null && toPlay === model.you.member;
    const mover = m.players[tm];
    node.textContent = mine
      ? t('game.your_turn')
      : mover?.computer ? t('computer.thinking', { name: whoName(model, mover) }) : t('game.to_move', { name: whoName(model, mover) ?? '?' });
    node.className = `turn ${mine ? 'mine' : ''}`;
  }
  $('rule-hint').textContent = m.outcome ? '' : gameOf(model.room.game).hint(m, playing);
}

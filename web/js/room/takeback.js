// Takebacks on the room page (docs/PROTOCOL.md, "Table manners"): a
// player asks to take back their last move ("Take back"); the opponent
// sees the request with Accept and Decline; the computer grants it at
// once. Shown only where the server takes one: two players, and not a
// rated or tournament game unless the opponent is the computer.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { page, command } from './page.js';
import { shownMatch, mySide, atTable, askedSinceMove, sameNames } from './model.js';
import { whoName } from './people.js';

export const takebackPanel = {
  name: 'takeback',
  slice: (m) => [shownMatch(m), m.you, m.room.rated, m.room.options, m.room.members, sameNames(m.room).key],
  draw,
};

/** Whether the shown game takes a takeback from `side`'s player. */
function allowed(model, m, side) {
  if (!m || m.outcome || side == null || m.players.length !== 2) return false;
  if ((m.teams ?? []).some((team) => team.length !== 1)) return false;
  const computer = m.players.some((p) => p.computer);
  const knockout = (model.room.options?.mode ?? 'single') === 'knockout';
  return computer || (!model.room.rated && !knockout);
}

function draw(model) {
  const m = shownMatch(model);
  const side = mySide(model);
  const ok = allowed(model, m, side);
  const offer = ok ? (m.takeback_offer ?? null) : null;
  const ask = $('takeback-ask');
  // Something of one's own to take back, and no request of one's own standing;
  // declined, it waits for the next move (the server would refuse it).
  ask.hidden = !ok || !m.move_sides.includes(side) || offer === side;
  const wait = ok && askedSinceMove(m, side, 'takeback');
  ask.disabled = wait;
  ask.title = wait ? t('takeback.wait') : '';
  const box = $('takeback-box');
  box.hidden = offer == null;
  box.dataset.side = offer == null ? '' : String(offer);
  if (offer == null) return;
  const mine = offer === side;
  $('takeback-text').textContent = mine
    ? t('takeback.you_asked')
    : t('takeback.asks', { name: whoName(model, m.players[offer]) ?? '?' });
  $('takeback-accept').hidden = mine;
  $('takeback-decline').hidden = mine;
}

/** The buttons' clicks, once. */
export function wireTakeback() {
  const send = (action) => () => command('takeback', { action, ...atTable(page.model) }).catch(() => {});
  $('takeback-ask').addEventListener('click', send('offer'));
  $('takeback-accept').addEventListener('click', send('accept'));
  $('takeback-decline').addEventListener('click', send('decline'));
}

// When the opponents leave a running game: everyone sees how long until
// the away side forfeits by itself (the abandon rule), and once the claim
// time has passed the players who stayed may claim the win or, where the
// rules have draws, call it a draw — or keep waiting (docs/PROTOCOL.md,
// "Table manners": `away`, `claim`).

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { factsOf } from '../games/facts.js';
import { page, command } from './page.js';
import { shownTable, shownMatch, mySide, awayLeft, atTable } from './model.js';
import { whoName } from './people.js';
import { nameList } from '../names.js';

export const awayPanel = {
  name: 'away',
  slice: (m) => [shownTable(m), m.awayAt, m.you, m.room.game],
  draw: (model) => tickAway(model, performance.now()),
};

/** The away line and the claim buttons as they stand at `now` (a timer calls this ten times a second). */
export function tickAway(model, now) {
  const box = $('away-box');
  const away = model.room ? awayLeft(model, now) : [];
  const m = shownMatch(model);
  const side = mySide(model);
  const others = away.filter((a) => a.side !== side);
  box.hidden = others.length === 0;
  if (box.hidden) return;
  const first = others[0];
  const name = nameList((m.teams?.[first.side] ?? [m.players[first.side]]).map((p) => whoName(model, p) ?? '?'));
  const s = Math.ceil(first.abandon / 1000);
  const playing = side != null;
  const claimable = playing && first.claim === 0;
  const key = !playing ? 'away.left' : claimable ? 'away.claim_now' : 'away.wait';
  const text = t(key, { name, s, claim: Math.ceil(first.claim / 1000) });
  const node = $('away-text');
  if (node.textContent !== text) node.textContent = text;
  node.dataset.seconds = String(s);
  box.dataset.side = String(first.side);
  $('claim-win').hidden = !claimable;
  const draws = factsOf(model.room.game).draws && m.players.length === 2;
  $('claim-draw').hidden = !(claimable && draws);
}

/** The buttons' clicks, once. */
export function wireAway() {
  $('claim-win').addEventListener('click', () => command('claim', { action: 'win', ...atTable(page.model) }).catch(() => {}));
  $('claim-draw').addEventListener('click', () => command('claim', { action: 'draw', ...atTable(page.model) }).catch(() => {}));
}

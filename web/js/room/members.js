// The "In the room" panel: every member listed with their badges (and
// the host's buttons on them, manners.js), the watchers counted, and a
// big room's unlisted watchers as "and N more".

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { memberActions } from '../manners.js';
import { isHost, isSolo, locked, sameNames } from './model.js';
import { whoName, dotted, accountBadge, ratingBadge } from './people.js';

export const membersPanel = {
  name: 'members',
  slice: (m) => [m.room.members, m.room.spectators, m.room.unlisted, m.you, isHost(m), isSolo(m), locked(m), sameNames(m.room).key],
  draw,
};

function draw(model) {
  const { room } = model;
  $('spectator-count').textContent = String(room.spectators ?? 0);
  const items = room.members.map((m) => {
    const bits = [dotted(m.online, el('span', { class: 'member-name', text: whoName(model, m) ?? t('members.guest') }))];
    if (m.computer) bits.push(el('span', { class: 'badge computer', text: t('computer.badge') }));
    if (m.account) bits.push(accountBadge(m, `account-badge-${m.id}`));
    if (m.rating) bits.push(ratingBadge(m, `rating-${m.id}`));
    if (m.host) bits.push(el('span', { class: 'badge host', 'data-testid': 'host-badge', text: t('members.host') }));
    if (m.id === model.you.member) bits.push(el('span', { class: 'badge you', text: t('members.you') }));
    if (m.seat != null) bits.push(el('span', { class: 'badge seat', text: t('members.seat', { n: m.seat + 1 }) }));
    bits.push(...memberActions(m));
    return el('li', { 'data-testid': `member-${m.id}`, class: m.online ? 'online' : 'offline', dataset: { online: String(!!m.online) } }, ...bits);
  });
  // A big room names only some of its watchers and counts the rest.
  if (room.unlisted > 0) {
    items.push(el('li', { class: 'more', 'data-testid': 'members-more', text: t('members.more', { n: room.unlisted }) }));
  }
  $('members').replaceChildren(...items);
}

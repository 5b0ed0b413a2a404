// The "Invite friends" panel: the room's link and its QR code.

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { page } from './page.js';

export const invitePanel = {
  name: 'invite',
  slice: (m) => [m.room.link, m.room.qr],
  draw,
};

function draw(model) {
  const { room } = model;
  const { code } = page;
  const link = room.link || `${location.origin}/r/${code}`;
  const a = $('invite-link');
  a.href = link;
  a.textContent = link;
  const qr = $('qr');
  const src = room.qr || `/api/rooms/${code}/qr.svg`;
  if (qr.getAttribute('src') !== src) qr.setAttribute('src', src);
  qr.alt = t('invite.qr_alt');
  qr.hidden = false;
}

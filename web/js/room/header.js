// The room page's top bar: the room code, the tab's title ("● Your turn"
// while it is the viewer's turn, so a player who looked at another tab
// sees it there), the connection status, and the sound and notification
// switches (drawn from their settings, not from the model).

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { muted } from '../sounds.js';
import { notifyOn, notifySupported } from '../notify.js';
import { page } from './page.js';
import { shownMatch } from './model.js';

function yourTurn(model) {
  const m = shownMatch(model);
  return !!m && !m.outcome && m.to_play != null && m.to_play === model.you?.member;
}

export const headerPanel = {
  name: 'header',
  slice: (model) => [yourTurn(model)],
  draw: (model) => drawHeader(model),
};

export function drawHeader(model) {
  const { code } = page;
  $('room-code').textContent = code;
  const room = `${t('room.title', { code })} · ${t('site.title')}`;
  document.title = yourTurn(model) ? `● ${t('game.your_turn_tab')} · ${room}` : room;
}

/** conn: {state: 'connecting'|'online'|'offline'|'refused'|'gone', at: when the next try is (offline)}. */
export function drawConn(conn) {
  const s = $('conn-status');
  s.dataset.state = conn.state;
  if (conn.state === 'online') s.textContent = t('conn.online');
  else if (conn.state === 'refused') s.textContent = t('conn.refused');
  else if (conn.state === 'gone') s.textContent = t('conn.gone');
  else if (conn.state === 'offline') {
    const secs = Math.max(0, Math.ceil((conn.at - Date.now()) / 1000));
    s.textContent = secs > 0 ? t('conn.offline', { s: secs }) : t('conn.reconnecting');
  } else s.textContent = t('conn.connecting');
}

/** A switch of the top bar: its icon, pressed state and words. */
function drawSwitch(button, pressed, icon, words) {
  button.setAttribute('aria-pressed', String(pressed));
  button.textContent = icon;
  button.title = words;
  button.setAttribute('aria-label', words);
}

export function drawNotify() {
  const button = $('notify');
  button.hidden = !notifySupported();
  const on = notifyOn();
  drawSwitch(button, on, on ? '🔔' : '🔕', t(on ? 'notify.on' : 'notify.off'));
}

export function drawMute() {
  const off = muted();
  drawSwitch($('mute'), off, off ? '🔇' : '🔊', t(off ? 'sound.unmute' : 'sound.mute'));
}

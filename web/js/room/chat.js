// The chat panel: the room's log (people's lines and the room's own
// notices), the send form's state, and below 900 px the drawer with its
// button counting unread lines (placed clear of the board: fab-spot.js).

import { t, lang } from '../i18n.js';
import { $, el } from '../dom.js';
import { page, update } from './page.js';
import { me, chatRead, sameNames } from './model.js';
import { noticeLine, apartName } from './people.js';
import { watchFab } from './fab-spot.js';

export const chatPanel = {
  name: 'chat',
  slice: (m) => [m.room.chat, m.chatUnread, me(m)?.name, sameNames(m.room).key],
  draw,
};

/** Below 900 px the chat is a drawer opened by a button: the page's own breakpoint (site.css). */
export function chatDrawerClosed() {
  return window.matchMedia('(max-width: 899px)').matches && !document.body.classList.contains('chat-open');
}

export function openChat(open) {
  document.body.classList.toggle('chat-open', open);
  if (open) {
    const log = $('chat-log');
    log.scrollTop = log.scrollHeight;
    const input = $('chat-input');
    (input.disabled ? $('chat-close') : input).focus();
  } else {
    $('chat-fab').focus();
  }
  // Drawn at once: the button's aria-expanded follows the drawer.
  update(chatRead);
  if (page.model.room) draw(page.model);
}

function lineOf(model, m) {
  // What the host did, a draw offered: the room's own lines.
  if (m.notice) return el('li', { class: 'chat-notice', 'data-testid': 'chat-notice', text: noticeLine(m.notice, model) });
  const at = m.at ? new Date(m.at) : null;
  return el('li', { 'data-testid': 'chat-message' },
    at ? el('time', { datetime: at.toISOString(), text: at.toLocaleTimeString(lang() === 'vi' ? 'vi-VN' : 'en-GB', { hour: '2-digit', minute: '2-digit' }) }) : null,
    el('b', { text: apartName(model, m.member, m.from) ?? '?' }), ' ', el('span', { class: 'chat-text', text: m.text }));
}

function draw(model) {
  const log = $('chat-log');
  const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const msgs = model.room.chat ?? [];
  if (!msgs.length) log.replaceChildren(el('li', { class: 'hint', text: t('chat.empty') }));
  else log.replaceChildren(...msgs.map((m) => lineOf(model, m)));
  if (nearBottom) log.scrollTop = log.scrollHeight;
  const unreadCount = model.chatUnread;
  const fab = $('chat-fab');
  if (fab.hidden) watchFab();
  fab.hidden = false;
  const unread = $('chat-unread');
  unread.hidden = !unreadCount;
  unread.textContent = unreadCount ? String(unreadCount) : '';
  fab.setAttribute('aria-label', unreadCount ? `${t('chat.title')}, ${t('chat.unread', { n: unreadCount })}` : t('chat.title'));
  fab.setAttribute('aria-expanded', String(document.body.classList.contains('chat-open')));
  const named = !!me(model)?.name;
  const input = $('chat-input');
  input.disabled = !named;
  $('chat-send').disabled = !named;
  input.placeholder = named ? t('chat.placeholder') : t('chat.need_name');
}

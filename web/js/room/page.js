// What every part of the room page shares: the room's code, the current
// model (model.js; replaced, never changed, by each transition), the
// socket, and the two ways to talk back: command() sends, toast() tells.
// The panels read the model from here and draw; only room.js and the
// forms replace it, through update().

import { t, errorText as serverErrorText } from '../i18n.js';
import { $, el } from '../dom.js';
import { initialModel } from './model.js';

/** Code from /r/CODE (case-insensitive on input). */
function roomCode() {
  const m = /^\/r\/([^/?#]+)/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]).toUpperCase() : '';
}

export const page = {
  code: roomCode(),
  model: initialModel(),
  socket: null,
  /** Called after each update() (room.js: schedules the redraw). */
  changed: () => {},
};

/** Replace the model by `fn(model)` and redraw what changed. */
export function update(fn) {
  page.model = fn(page.model);
  page.changed();
}

export function toast(text, kind = 'error', code = null, ms = null) {
  const box = $('toasts');
  const close = el('button', { type: 'button', class: 'toast-close', 'aria-label': t('toast.close'), text: '×' });
  const node = el('div', { class: `toast ${kind}`, 'data-testid': 'toast', 'data-code': code, role: kind === 'error' ? 'alert' : 'status' },
    el('span', { class: 'toast-text', text }), close);
  const remove = () => node.remove();
  close.addEventListener('click', remove);
  box.append(node);
  setTimeout(remove, ms ?? (kind === 'error' ? 7000 : 3000));
  while (box.children.length > 4) box.firstChild.remove();
}

/** An error in the page's language (i18n.js errorText), for a server refusal or a local one. */
export function errorText(err) {
  return serverErrorText(err?.code);
}

/** Send a command; errors from the server become toasts. */
export async function command(type, fields) {
  try {
    return await page.socket.send(type, fields);
  } catch (err) {
    toast(errorText(err), 'error', err.code ?? null);
    throw err;
  }
}

/** Send a command whose refusal the toast already tells. */
export function send(type, fields) {
  command(type, fields).catch(() => {});
}

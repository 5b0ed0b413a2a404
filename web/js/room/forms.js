// The room page's forms: the name (sit down and chat under it), the
// host's game options, and the chat line. Each checks what it can before
// sending; the server's refusals become toasts (page.js).

import { t } from '../i18n.js';
import { $ } from '../dom.js';
import { storeName } from '../socket.js';
import { fillOptionSelects, readOptionSelects, showGameFields } from '../options.js';
import { page, command, toast, update } from './page.js';
import { me, editName, namedLocally } from './model.js';
import { optionSelects } from './options-panel.js';

function validName(name) {
  const n = [...name].length;
  // eslint-disable-next-line no-control-regex
  return n >= 1 && n <= 24 && !/[\u0000-\u001f\u007f-\u009f]/.test(name);
}

/** The name panel: the form while there is no name (or while changing it), else the name. */
export const namePanel = {
  name: 'name',
  slice: (m) => [(me(m) ?? m.you)?.name, m.editingName],
  draw(model) {
    const name = (me(model) ?? model.you)?.name ?? null;
    $('name-form').hidden = !(!name || model.editingName);
    $('name-current').hidden = !name;
    $('name-current').textContent = name ? t('name.you_are', { name }) : '';
    $('name-change').hidden = !name || model.editingName;
    $('room-main').classList.toggle('needs-name', !name);
  },
};

function wireName(redraw) {
  $('name-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('name-input');
    const name = input.value.trim();
    const err = $('name-error');
    if (!validName(name)) {
      err.textContent = t('name.bad');
      err.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    err.hidden = true;
    input.removeAttribute('aria-invalid');
    try {
      await command('name', { name });
      storeName(name);
      // The members event that follows brings the name; show it meanwhile.
      update((m) => namedLocally(m, name));
    } catch { /* toast shown */ }
  });
  $('name-change').addEventListener('click', () => {
    update((m) => editName(m, true));
    $('name-input').value = me(page.model)?.name ?? '';
    redraw();
    $('name-input').focus();
  });
}

function wireOptions() {
  const sel = optionSelects();
  fillOptionSelects(sel);
  const check = () => {
    const r = readOptionSelects(sel);
    $('options-error').textContent = r.error ?? '';
    $('options-error').hidden = !r.error;
    $('options-save').disabled = !!r.error;
    return r;
  };
  for (const s of Object.values(sel)) s.addEventListener('change', check);
  sel.game.addEventListener('change', () => showGameFields($('options-form'), sel.game.value));
  $('options-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = check();
    if (r.error) return;
    try {
      await command('options', { game: r.game, options: r.options });
      toast(t('options.saved'), 'info');
    } catch { /* toast shown */ }
  });
}

function wireChat() {
  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('chat-input');
    const text = input.value.trim();
    if (!text || [...text].length > 300) return;
    try {
      await command('chat', { text });
      input.value = '';
    } catch { /* toast shown */ }
  });
}

/** The forms' submits, once; `redraw()` draws what changed at once (the name form before its focus). */
export function wireForms(redraw) {
  wireName(redraw);
  wireOptions();
  wireChat();
}

// Home page: create a room (POST /api/rooms), play the computer (create a
// room, then over one WebSocket: sit, seat the computer, start with fixed
// order), or join a room by its code (checked with GET /api/rooms/CODE
// before going there).

import { t, initI18n, onLangChange } from './i18n.js';
import { storedToken, storeToken, storedName, storeName, RoomSocket } from './socket.js';
import {
  fillOptionSelects, readOptionSelects, showGameFields, clockText, clockKey, CLOCKS, DEFAULT_OPTIONS,
} from './options.js';
import { LEVELS, SIDES, soloSeats } from './solo.js';

const CODE_RE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;
const $ = (id) => document.getElementById(id);

const selects = {
  game: $('create-game'), width: $('create-width'), height: $('create-height'), clock: $('create-clock'),
  mode: $('create-mode'), goal: $('create-goal'), qsize: $('create-qsize'), players: $('create-players'),
  walls: $('create-walls'), turn: $('create-turn'),
};

function showError(el, text) {
  el.textContent = text ?? '';
  el.hidden = !text;
}

function checkSquare() {
  showGameFields($('create-form'), selects.game.value);
  const r = readOptionSelects(selects);
  showError($('create-error'), r.error);
  $('create-room').disabled = !!r.error;
  return r;
}

/** A code typed or pasted: the code itself, or an invite link ending in /r/CODE. */
export function extractCode(text) {
  const s = String(text).trim();
  const m = /\/r\/([A-Za-z0-9]{6})\b/.exec(s);
  return (m ? m[1] : s).toUpperCase();
}

async function createRoom(e) {
  e.preventDefault();
  const r = checkSquare();
  if (r.error) return;
  const button = $('create-room');
  button.disabled = true;
  button.textContent = t('home.creating');
  try {
    const data = await postRoom(r.game, r.options);
    if (data.error) {
      showError($('create-error'), data.error);
      return;
    }
    location.assign(`/r/${encodeURIComponent(data.code)}`);
  } catch {
    showError($('create-error'), t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('home.create_button');
  }
}

/** POST /api/rooms; keeps the token. Returns {code} or {error}. */
async function postRoom(game, options) {
  const body = { game, options };
  const token = storedToken();
  if (token) body.token = token;
  const res = await fetch('/api/rooms', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) return { error: data.message || `${res.status} ${res.statusText}` };
  storeToken(data.token);
  return data;
}

function fillSoloSelects() {
  const level = $('solo-level');
  const side = $('solo-side');
  const clock = $('solo-clock');
  const keep = [level.value || 'beginner', side.value || 'blue', clock.value || 'off'];
  level.replaceChildren(...LEVELS.map((l) => new Option(t(`level.${l}`), l)));
  side.replaceChildren(...SIDES.map((s) => new Option(t(`solo.side_${s}`), s)));
  clock.replaceChildren(...CLOCKS.map((p) => new Option(clockText(p), clockKey(p))));
  [level.value, side.value, clock.value] = keep;
}

/** Open the room's socket, wait for the snapshot, run `steps`, close. */
function withRoomSocket(code, steps) {
  return new Promise((resolve, reject) => {
    let done = false;
    const socket = new RoomSocket(code, {
      messages: { disconnected: t('error.disconnected'), timeout: t('error.timeout') },
      async onSnapshot(msg) {
        if (done) return;
        done = true;
        try {
          await steps(socket, msg);
          resolve();
        } catch (err) {
          reject(err);
        } finally {
          socket.close();
        }
      },
      onStatus(state) {
        if (state === 'offline' && !done) {
          done = true;
          socket.close();
          reject(new Error(t('home.network_error')));
        }
      },
    });
    socket.connect();
  });
}

async function playComputer(e) {
  e.preventDefault();
  const err = $('solo-error');
  const nameInput = $('solo-name');
  const name = nameInput.value.trim();
  // eslint-disable-next-line no-control-regex
  if ([...name].length < 1 || [...name].length > 24 || /[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    showError(err, t('name.bad'));
    nameInput.setAttribute('aria-invalid', 'true');
    nameInput.focus();
    return;
  }
  nameInput.removeAttribute('aria-invalid');
  showError(err, '');
  const button = $('solo-play');
  button.disabled = true;
  button.textContent = t('home.creating');
  try {
    const clock = $('solo-clock').value === 'off' ? null : $('solo-clock').value.split('+').map(Number);
    const data = await postRoom($('solo-game').value, { clock });
    if (data.error) {
      showError(err, data.error);
      return;
    }
    storeName(name);
    const seats = soloSeats($('solo-side').value);
    const level = $('solo-level').value;
    await withRoomSocket(data.code, async (socket, snapshot) => {
      if (snapshot.you?.name !== name) await socket.send('name', { name });
      await socket.send('sit', { seat: seats.me });
      await socket.send('computer', { seat: seats.computer, level });
      await socket.send('start', { order: seats.order });
    });
    location.assign(`/r/${encodeURIComponent(data.code)}`);
  } catch (x) {
    showError(err, x?.message || t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('solo.play');
  }
}

async function joinRoom(e) {
  e.preventDefault();
  const input = $('join-code');
  const code = extractCode(input.value);
  input.value = code;
  const err = $('join-error');
  if (!CODE_RE.test(code)) {
    showError(err, t('home.bad_code'));
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return;
  }
  const button = $('join-room');
  button.disabled = true;
  button.textContent = t('home.checking');
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (res.status === 404) {
      showError(err, t('home.no_room', { code }));
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    if (!res.ok) {
      const data = await res.json().catch(() => ({}));
      showError(err, data.message || `${res.status} ${res.statusText}`);
      return;
    }
    input.removeAttribute('aria-invalid');
    location.assign(`/r/${encodeURIComponent(code)}`);
  } catch {
    showError(err, t('home.network_error'));
  } finally {
    button.disabled = false;
    button.textContent = t('home.join_button');
  }
}

function init() {
  initI18n($('lang'));
  fillOptionSelects(selects, DEFAULT_OPTIONS);
  for (const s of Object.values(selects)) s.addEventListener('change', checkSquare);
  checkSquare();
  $('create-form').addEventListener('submit', createRoom);
  fillSoloSelects();
  $('solo-name').value = storedName() ?? '';
  $('solo-form').addEventListener('submit', playComputer);
  $('join-form').addEventListener('submit', joinRoom);
  const input = $('join-code');
  input.addEventListener('paste', (e) => {
    const text = e.clipboardData?.getData('text');
    if (text && /\/r\//.test(text)) {
      e.preventDefault();
      input.value = extractCode(text).slice(0, 6);
    }
  });
  input.addEventListener('input', () => {
    const pos = input.selectionStart;
    input.value = input.value.toUpperCase();
    input.setSelectionRange(pos, pos);
    input.removeAttribute('aria-invalid');
    showError($('join-error'), '');
  });
  onLangChange(() => {
    fillOptionSelects(selects);
    fillSoloSelects();
    const r = readOptionSelects(selects);
    if (!$('create-error').hidden) showError($('create-error'), r.error);
  });
}

init();

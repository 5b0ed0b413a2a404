// Home page: create a room (POST /api/rooms; hosting needs an account
// unless the server runs with --guest-hosts, so a newcomer registers in two
// fields of the same form), play the computer (a solo room, which needs no
// account, then over one WebSocket: sit, seat the computer, start with
// fixed order), or join a room by its code (checked with GET
// /api/rooms/CODE before going there). The Account panel is home/account.js.

import './home/challenges-page.js';
import { initTurns } from './turns.js';
import { t, initI18n, onLangChange, errorText } from './i18n.js';
import { RULES_GAMES } from './rules/index.js';
import { storedToken, storeToken, storedName, storeName, RoomSocket } from './socket.js';
import {
  fillOptionSelects, readOptionSelects, showGameFields, clockText, clockKey, clockSetting, CLOCKS, DEFAULT_OPTIONS,
} from './options.js';
import { LEVELS, SIDES, sideLabel, soloOptions, soloSeats } from './solo.js';
import { $, el, showMessage as showError } from './dom.js';
import { postJson } from './http.js';
import { initAccount, showAccount, registerHost, hostFieldsShown, signedOut } from './home/account.js';
import { factsOf } from './games/facts.js';
import { initLobby } from './home/lobby.js';

const CODE_RE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;

const selects = {
  game: $('create-game'), width: $('create-width'), height: $('create-height'), clock: $('create-clock'),
  mode: $('create-mode'), goal: $('create-goal'), qsize: $('create-qsize'), players: $('create-players'),
  walls: $('create-walls'), turn: $('create-turn'), days: $('create-days'),
};

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
    if (hostFieldsShown()) {
      const error = await registerHost();
      if (error) {
        showError($('create-error'), error);
        return;
      }
    }
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

/**
 * A refusal of POST /api/rooms in the page's language: `429 rate_limited`
 * (too many rooms from this address; Retry-After says when to come back)
 * and `413 too_large` in our words, anything else in the server's.
 */
function roomError(data, res) {
  if (data?.error === 'account_needed') {
    signedOut();
    return t('host.needed');
  }
  if (data?.error === 'rate_limited') {
    const s = Number(res.headers.get('Retry-After'));
    return s > 0 ? t('home.error.rate_limited', { s }) : t('account.error.rate_limited');
  }
  if (data?.error === 'too_large' || res.status === 413) return t('home.error.too_large');
  return errorText(data?.error ?? res.status);
}

/** POST /api/rooms (`solo`: a game against the computer); keeps the token. Returns {code} or {error}. */
async function postRoom(game, options, solo = false) {
  const body = { game, options };
  if (solo) body.solo = true;
  const token = storedToken();
  if (token) body.token = token;
  const { res, data } = await postJson('/api/rooms', body);
  if (!res.ok) return { error: roomError(data, res) };
  storeToken(data.token);
  return data;
}

function fillSoloSelects() {
  const level = $('solo-level');
  const side = $('solo-side');
  const clock = $('solo-clock');
  const keep = [level.value || 'beginner', side.value || 'blue', clock.value || 'off'];
  level.replaceChildren(...LEVELS.map((l) => new Option(t(`level.${l}`), l)));
  const game = $('solo-game').value;
  side.replaceChildren(...SIDES.map((s) => new Option(t(sideLabel(game, s)), s)));
  clock.replaceChildren(...CLOCKS.map((p) => new Option(clockText(p), clockKey(p))));
  [level.value, side.value, clock.value] = keep;
  // Quoridor has a turn timer, not a chess clock.
  $('solo-clock-field').hidden = !factsOf(game).clock;
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
    const game = $('solo-game').value;
    const data = await postRoom(game, soloOptions(game, clockSetting($('solo-clock').value)), true);
    if (data.error) {
      showError(err, data.error);
      return;
    }
    const seats = soloSeats($('solo-side').value);
    const level = $('solo-level').value;
    await withRoomSocket(data.code, async (socket, snapshot) => {
      if (snapshot.you?.name !== name) await socket.send('name', { name });
      // Kept once the room took it: a refused name is not saved.
      storeName(name);
      await socket.send('sit', { seat: seats.me });
      await socket.send('computer', { seat: seats.computer, level });
      await socket.send('start', { order: seats.order });
    });
    location.assign(`/r/${encodeURIComponent(data.code)}`);
  } catch (x) {
    showError(err, x?.code ? errorText(x.code) : t('home.network_error'));
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
      showError(err, errorText(data.error ?? res.status));
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

/** The home page's links to the games' rules pages. */
function renderRulesLinks() {
  $('rules-links').replaceChildren(...RULES_GAMES.map((g) =>
    el('a', { href: `/rules/${g}`, 'data-testid': `rules-page-${g}`, text: t(`game.${g}`) })));
}

function init() {
  initI18n($('lang'));
  renderRulesLinks();
  fillOptionSelects(selects, DEFAULT_OPTIONS);
  for (const s of Object.values(selects)) s.addEventListener('change', checkSquare);
  checkSquare();
  $('create-form').addEventListener('submit', createRoom);
  fillSoloSelects();
  $('solo-game').addEventListener('change', fillSoloSelects);
  $('solo-name').value = storedName() ?? '';
  $('solo-form').addEventListener('submit', playComputer);
  $('join-form').addEventListener('submit', joinRoom);
  initAccount();
  initLobby();
  initTurns();
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
    renderRulesLinks();
    showAccount();
    fillOptionSelects(selects);
    fillSoloSelects();
    const r = readOptionSelects(selects);
    if (!$('create-error').hidden) showError($('create-error'), r.error);
  });
}

init();

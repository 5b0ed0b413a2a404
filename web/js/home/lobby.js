// The home page's lobby: one WebSocket (/ws/lobby) that lists the open
// public rooms live (`rooms`: the whole list each time it changes; each
// row's Join goes to /r/CODE?sit=1, which sits at once) and carries this
// browser's quick-pairing seek (`seek`, `cancel`; `paired` names the
// room, and the page goes there: the game starts when both are in).
// The socket's hello says whether the session is an account's (the form
// then offers Rated and a range instead of a name); logging in or out on
// the page (home/account.js) opens a new socket, whose hello is the
// account's or a new guest's.

import { t, errorText, onLangChange } from '../i18n.js';
import { $, el, showMessage } from '../dom.js';
import { storedToken, storeToken, storedName, storeName, forgetName } from '../socket.js';
import { optionsSummary } from '../options.js';
import { onAccountChange } from '../http.js';
import { computerName, computerNumber } from '../names.js';

/**
 * A guest's name typed in "Your name" goes with a Join, so the room seats
 * them at once: the lobby socket says hello with it first, as a seek does,
 * and it is kept only once taken; a refused name stays in the box, marked,
 * and the page stays (a plain link when no new name was typed, or the
 * click opens another tab).
 */
async function joinWithTypedName(e) {
  const name = $('seek-name')?.value.trim();
  if (state.signedIn || !name || name === storedName()) return;
  if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  const href = e.currentTarget.href;
  nameError('');
  if (state.name !== name && await reconnect(name)) {
    nameError(errorText('bad_name'));
    return;
  }
  storeName(name);
  location.assign(href);
}

/** The named time controls a seek offers, per game (as the server's lobby/presets.rs). */
export const PRESETS = {
  jungle: ['3+2', '5+3', '10+5', '15+10', 'none'],
  crossyray: ['3+2', '5+3', '10+5', '15+10', 'none'],
  quoridor: ['15s', '30s', '60s', '90s'],
};

/** A preset's label in the page's language. */
export function presetText(preset) {
  if (preset === 'none') return t('clock.off');
  const turn = /^(\d+)s$/.exec(preset);
  if (turn) return t('lobby.turn', { s: Number(turn[1]) });
  const [m, i] = preset.split('+').map(Number);
  return t('clock.preset', { m, i });
}

const state = { ws: null, ready: null, name: null, token: null, id: 0, pending: new Map(), rooms: [], signedIn: false, seeking: false, retry: 500 };

function fillPresets() {
  const sel = $('seek-preset');
  const keep = sel.value;
  sel.replaceChildren(...PRESETS[$('seek-game').value].map((p) => new Option(presetText(p), p)));
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
}

function send(type, fields = {}) {
  const id = ++state.id;
  return new Promise((resolve, reject) => {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) {
      reject(Object.assign(new Error('closed'), { code: 'not_connected' }));
      return;
    }
    state.pending.set(id, { resolve, reject, ws: state.ws });
    state.ws.send(JSON.stringify({ id, type, ...fields }));
  });
}

function playerText(p) {
  // The computer by its name, as everywhere else ("Computer (Master)"), not its level alone.
  if (p.computer) return computerName(p.computer, computerNumber(p.name));
  const name = p.name ?? '?';
  return p.rating != null ? `${name} (${p.rating})` : name;
}

function drawRooms() {
  const list = $('lobby-rooms');
  $('lobby-empty').hidden = state.rooms.length > 0;
  list.replaceChildren(...state.rooms.map((r) => el('li', { class: 'lobby-room', 'data-testid': 'lobby-room', 'data-code': r.code },
    el('span', { class: 'lobby-game', text: t(`game.${r.game}`) }),
    el('span', { class: 'lobby-options', text: optionsSummary(r.options, r.game) }),
    el('span', { class: 'lobby-seats', 'data-testid': 'lobby-seats', text: t('lobby.seats_free', { free: r.free, seats: r.seats }) }),
    el('span', { class: 'lobby-players', 'data-testid': 'lobby-players', text: r.players.map(playerText).join(', ') }),
    el('a', { class: 'button', href: `/r/${r.code}?sit=1`, 'data-testid': 'lobby-join', text: t('lobby.join'), onclick: joinWithTypedName }))));
}

function drawSeek() {
  $('seek-play').hidden = state.seeking;
  $('seek-cancel').hidden = !state.seeking;
  $('seek-waiting').hidden = !state.seeking;
  for (const id of ['seek-game', 'seek-preset', 'seek-name', 'seek-rated', 'seek-range']) $(id).disabled = state.seeking;
  $('seek-name-field').hidden = state.signedIn;
  $('seek-rated-field').hidden = !state.signedIn;
  $('seek-range-field').hidden = !state.signedIn;
}

function onMessage(msg) {
  if (msg.type === 'error' && msg.id == null) {
    // The pairing failed on the server's side: seek again.
    state.seeking = false;
    drawSeek();
    showMessage($('seek-error'), errorText(msg.code));
  } else if (msg.type === 'ack' || msg.type === 'error') {
    const p = state.pending.get(msg.id);
    if (!p) return;
    state.pending.delete(msg.id);
    if (msg.type === 'ack') p.resolve(msg);
    else p.reject(Object.assign(new Error(msg.message), { code: msg.code }));
  } else if (msg.type === 'rooms') {
    state.rooms = msg.rooms;
    drawRooms();
  } else if (msg.type === 'paired') {
    state.seeking = false;
    location.assign(`/r/${msg.code}`);
  }
}

/**
 * Opens the socket and says hello, as a guest under `name` (the stored
 * one unless given); resolves once the hello is answered, with the name
 * the server refused (`bad_name`) or null. A refused name is never kept:
 * the socket says hello again without one, which lists the open rooms
 * (a guest needs a name only to seek), and a stored name refused so
 * (saved by an older page) is forgotten.
 */
function connect(name = storedName()) {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
  state.ws = ws;
  state.ready = new Promise((resolve) => {
    ws.addEventListener('open', async () => {
      state.retry = 500;
      let refused = null;
      try {
        let ack;
        try {
          ack = await send('hello', { token: storedToken(), name: name || undefined });
          state.name = name || null;
        } catch (err) {
          if (err.code !== 'bad_name' || !name) throw err;
          refused = name;
          if (storedName() === name) forgetName();
          ack = await send('hello', { token: storedToken() });
          state.name = null;
        }
        // Never over a token stored meanwhile (another tab, a room made).
        if (!storedToken()) storeToken(ack.token);
        state.token = ack.token;
        state.signedIn = !!ack.signed_in;
        drawSeek();
      } catch { /* the socket closed: it opens again */ }
      resolve(refused);
    });
  });
  ws.addEventListener('message', (e) => onMessage(JSON.parse(e.data)));
  ws.addEventListener('close', () => {
    // Only this socket's questions: a replacing socket's hello is on its way.
    for (const [id, p] of state.pending) {
      if (p.ws !== ws) continue;
      state.pending.delete(id);
      p.reject(Object.assign(new Error('closed'), { code: 'not_connected' }));
    }
    if (state.ws !== ws) return; // replaced on purpose (a new name)
    state.seeking = false;
    drawSeek();
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 15000);
  });
  return state.ready;
}

/** The name box marked refused with `message` (or cleared with ''). */
function nameError(message) {
  const input = $('seek-name');
  showMessage($('seek-error'), message);
  if (message) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  } else {
    input.removeAttribute('aria-invalid');
  }
}

async function play(e) {
  e.preventDefault();
  nameError('');
  let name = null;
  if (!state.signedIn) {
    name = $('seek-name').value.trim();
    if (!name) {
      nameError(t('error.bad_name'));
      return;
    }
  }
  if ((name != null && state.name !== name) || state.token !== storedToken()) {
    // The socket said hello with another name or token: say it again.
    const refused = await reconnect(name ?? undefined);
    if (refused) {
      nameError(errorText('bad_name'));
      return;
    }
  }
  // Kept once the server took it (a refused name would be refused again
  // by every socket that says hello with it).
  if (name != null && name !== storedName()) storeName(name);
  const range = $('seek-range').value;
  const fields = { game: $('seek-game').value, preset: $('seek-preset').value };
  if (state.signedIn) {
    fields.rated = $('seek-rated').checked;
    if (range) fields.range = Number(range);
  }
  try {
    await send('seek', fields);
    state.seeking = true;
  } catch (err) {
    showMessage($('seek-error'), errorText(err.code));
  }
  drawSeek();
}

/** A new socket in place of the open one (a seek on the old one ends with it); resolves once its hello is answered. */
function reconnect(name) {
  const old = state.ws;
  const ready = connect(name);
  old?.close();
  return ready;
}

/**
 * The page signed in (`username`) or out (null): the form at once (a
 * seek under way ends), then a new socket whose hello carries the
 * session cookie or none, and the browser's token as it is now.
 */
function accountChanged(username) {
  state.signedIn = !!username;
  state.seeking = false;
  if (!username) $('seek-name').value = storedName() ?? '';
  drawSeek();
  reconnect();
}

async function cancel() {
  try { await send('cancel'); } catch { /* gone with the socket anyway */ }
  state.seeking = false;
  drawSeek();
}

/** Wires the lobby section and opens its socket. */
export function initLobby() {
  $('seek-name').value = storedName() ?? '';
  $('seek-name').addEventListener('input', () => {
    if ($('seek-name').hasAttribute('aria-invalid')) nameError('');
  });
  fillPresets();
  $('seek-game').addEventListener('change', fillPresets);
  $('seek-form').addEventListener('submit', play);
  $('seek-cancel').addEventListener('click', cancel);
  onLangChange(() => { fillPresets(); drawRooms(); });
  onAccountChange(accountChanged);
  drawSeek();
  connect();
}

// Challenges (docs/PROTOCOL.md, "Challenges"): the signed-in player's
// incoming and outgoing challenges, polled every few seconds with the
// last ETag (a 304 costs nothing), with Accept / Decline / Cancel; a form
// to challenge a player by username (home page) or the player of a
// profile. Accepting, or seeing one's challenge accepted, opens the room;
// an accepted challenge's line links to its room (`code`) for both sides,
// so the challenger who was away when it was accepted finds it there.

import { t, errorText, onLangChange } from '../i18n.js';
import { el } from '../dom.js';
import { signedInLikely, postJson, onAccountChange } from '../http.js';
import { storedToken, storeToken } from '../socket.js';
import { fillOptionSelects, readOptionSelects, showGameFields, optionsSummary } from '../options.js';

const POLL_MS = 3000;

/** This browser's token (made now if it has none): it seats us in the room. */
export function browserToken() {
  let token = storedToken();
  if (!token) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    storeToken(token);
  }
  return token;
}

function openRoom(code) {
  window.location.assign(`/r/${code}`);
}

/**
 * A small challenge form in `node`: a username field unless `to` is
 * given, the game and its options (one player a side: no mode or pawn
 * count), days per move, and a rated box. `onSent` runs after a
 * challenge went.
 */
export function challengeForm(node, { to = null, onSent = () => {} } = {}) {
  const user = el('input', { 'data-testid': 'challenge-to', autocomplete: 'off', maxlength: '20', size: '14' });
  const select = (name) => el('select', { 'data-testid': `challenge-${name}` });
  const selects = {
    game: select('game'), width: select('width'), height: select('height'), clock: select('clock'),
    goal: select('goal'), qsize: select('qsize'), walls: select('walls'), turn: select('turn'), days: select('days'),
  };
  const field = (games, key, sel) => el('label', games ? { 'data-game': games } : {}, el('span', {}, t(key)), sel);
  const rated = el('input', { type: 'checkbox', 'data-testid': 'challenge-rated' });
  const msg = el('p', { class: 'form-error', role: 'alert', 'data-testid': 'challenge-error', hidden: '' });
  const ok = el('p', { class: 'form-ok', role: 'status', 'data-testid': 'challenge-sent', hidden: '' });
  const send = el('button', { type: 'submit', class: 'primary', 'data-testid': 'challenge-send' }, t('challenge.send'));
  const form = el('form', { 'data-testid': 'challenge-form', novalidate: '' },
    ...(to ? [] : [el('label', {}, el('span', {}, t('challenge.username')), user)]),
    field(null, 'challenge.game', selects.game),
    field('quoridor', 'quoridor.goal', selects.goal),
    field('quoridor', 'quoridor.size', selects.qsize),
    field('quoridor', 'quoridor.walls', selects.walls),
    field('quoridor', 'quoridor.turn', selects.turn),
    field('crossyray', 'home.width', selects.width),
    field('crossyray', 'home.height', selects.height),
    field('crossyray jungle', 'home.clock', selects.clock),
    field(null, 'turns.days', selects.days),
    el('label', {}, rated, el('span', {}, t('challenge.rated'))),
    send, msg, ok);
  fillOptionSelects(selects);
  const shown = () => showGameFields(form, selects.game.value);
  selects.game.addEventListener('change', shown);
  shown();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    msg.hidden = true;
    ok.hidden = true;
    const name = to || user.value.trim();
    const picked = readOptionSelects(selects);
    if (picked.error) {
      msg.textContent = picked.error;
      msg.hidden = false;
      return;
    }
    try {
      const { res, data } = await postJson('/api/challenges', {
        to: name, game: picked.game, options: picked.options, rated: rated.checked, token: browserToken(),
      });
      if (res.ok) {
        ok.textContent = t('challenge.sent', { name });
        ok.hidden = false;
        onSent();
      } else {
        msg.textContent = errorText(data.error);
        msg.hidden = false;
      }
    } catch {
      msg.textContent = errorText(null);
      msg.hidden = false;
    }
  });
  node.replaceChildren(form);
  return form;
}

/**
 * The challenge list in `node` (and the by-name form when `byName`),
 * kept up to date by polling. Hides `section` when signed out, and
 * shows it (polling again) once the page's Account panel signs in.
 */
export function mountChallenges(node, { section = node, byName = false } = {}) {
  let etag = null;
  let last = null;
  let seen = new Set();
  const list = el('ul', { class: 'challenge-list', 'data-testid': 'challenge-list' });
  const formBox = el('div');
  const parts = [list];
  if (byName) parts.unshift(el('h3', { 'data-i18n': 'challenge.by_name' }, t('challenge.by_name')), formBox);
  node.replaceChildren(...parts);
  if (byName) challengeForm(formBox, { onSent: () => poll(true) });

  async function act(id, what) {
    try {
      const { res, data } = await postJson(`/api/challenges/${id}/${what}`, { token: browserToken() });
      if (res.ok && data.code) return openRoom(data.code);
    } catch { /* polled again below */ }
    poll(true);
  }

  function line(c, incoming) {
    const other = incoming ? c.from : c.to;
    const text = t(incoming ? 'challenge.incoming' : 'challenge.outgoing',
      { name: other.name, game: t(`game.${c.game}`) });
    const buttons = [];
    if (c.status === 'open' && incoming) {
      buttons.push(el('button', { type: 'button', class: 'primary', 'data-testid': 'challenge-accept', onclick: () => act(c.id, 'accept') }, t('challenge.accept')));
      buttons.push(el('button', { type: 'button', 'data-testid': 'challenge-decline', onclick: () => act(c.id, 'decline') }, t('challenge.decline')));
    } else if (c.status === 'open') {
      buttons.push(el('button', { type: 'button', 'data-testid': 'challenge-cancel', onclick: () => act(c.id, 'cancel') }, t('challenge.cancel')));
    } else if (c.status === 'accepted' && c.code) {
      // The room where both sit, for either side, whenever they come back to it.
      buttons.push(el('a', { class: 'button', href: `/r/${encodeURIComponent(c.code)}`, 'data-testid': 'challenge-room' }, t('challenge.go')));
    }
    return el('li', { 'data-testid': 'challenge', 'data-status': c.status, 'data-id': String(c.id) },
      el('span', {}, text, c.rated ? ` (${t('challenge.rated')})` : ''), ' ',
      el('span', { class: 'hint', 'data-testid': 'challenge-options' }, optionsSummary(c.options, c.game)), ' ',
      el('span', { class: 'hint', 'data-testid': 'challenge-status' }, t(`challenge.status.${c.status}`)), ' ',
      ...buttons);
  }

  function render() {
    if (!last) return;
    const items = [...last.incoming.map((c) => line(c, true)), ...last.outgoing.map((c) => line(c, false))];
    list.replaceChildren(...(items.length ? items : [el('li', { class: 'hint' }, t('challenge.none'))]));
  }

  // Bumped when the page signs in or out: an answer to an earlier poll is dropped.
  let generation = 0;

  async function poll(fresh = false) {
    let res;
    const asked = generation;
    // A guest's browser has no challenges to ask for (401).
    if (!(await signedInLikely())) { section.hidden = true; clearInterval(timer); return; }
    try {
      res = await fetch('/api/challenges', { headers: fresh || !etag ? {} : { 'If-None-Match': etag } });
    } catch { return; }
    if (asked !== generation) return;
    if (res.status === 401) { section.hidden = true; clearInterval(timer); return; }
    if (res.status === 304 || !res.ok) return;
    etag = res.headers.get('etag');
    const answer = await res.json().catch(() => null);
    if (!answer || asked !== generation) return;
    last = answer;
    section.hidden = false;
    // A challenge of ours accepted since the page opened: go to the room.
    for (const c of last.outgoing) {
      if (c.status === 'accepted' && c.code && seen.has(c.id)) return openRoom(c.code);
    }
    seen = new Set(last.outgoing.filter((c) => c.status === 'open').map((c) => c.id));
    render();
  }

  onLangChange(() => {
    if (byName) challengeForm(formBox, { onSent: () => poll(true) });
    render();
  });
  let timer = null;
  const start = () => {
    clearInterval(timer);
    timer = setInterval(() => { if (!document.hidden) poll(); }, POLL_MS);
    poll(true);
  };
  onAccountChange((username) => {
    generation += 1;
    etag = null;
    last = null;
    seen = new Set();
    if (username) return start();
    clearInterval(timer);
    section.hidden = true;
  });
  start();
  return { poll };
}

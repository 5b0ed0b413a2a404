// The room page (/r/CODE): one WebSocket to the room (socket.js), a model
// that is replaced by every snapshot and patched by every event, and a
// render() that draws the whole page from that model. A room owns one or
// more tables, each with its own match; the page shows one of them (see
// tables.js: where the viewer plays, else the first) and keeps the others
// up to date in the model only. The board is the renderer of the room's
// game (crossyray/board.js or jungle/board.js, the same small surface), fed
// the shown table's latest match object; it is rebuilt when the host
// switches the room to another game.
//
// A knockout room (bracket.js) plays a round's matches at once, one table
// each: the page shows either the bracket (bracket-view.js) or one table,
// a player's own running match by default; anyone can open a table from
// the bracket and come back.

import { t, initI18n, onLangChange, lang, errorText as serverErrorText } from './i18n.js';
import { moveListView, moveListItems } from './move-list.js';
import { askOwnGoal, setAskOwnGoal } from './settings.js';
import { moveSound, muted, play, setMuted } from './sounds.js';
import { notifyHidden, notifyOn, notifySupported, toggleNotify } from './notify.js';
import { RoomSocket, storeName } from './socket.js';
import { fillOptionSelects, setOptionSelects, readOptionSelects, optionsSummary, showGameFields } from './options.js';
import { createBoardFor, isMatchOf } from './boards.js';
import { RULES_GAMES } from './rules/index.js';
import { colorOf, sideOf } from './quoridor/state.js';
import { LEVELS } from './solo.js';
import { tableById, shownTableId, applyMatchEvent } from './tables.js';
import { loadMe } from './coins.js';
import { $, el, copyText } from './dom.js';
import {
  isKnockoutRoom, isKnockoutMode, isActive, statusOf, bracketView, syncTables, nextView, visibleSeats,
  MIN_PLAYERS, MAX_PLAYERS,
} from './bracket.js';
import { renderBracket, statusText, roundName } from './bracket-view.js';
import { getJson, gameEntry, renderPager } from './history.js';
import { initManners, renderManners, memberActions, noticeText, drawText } from './manners.js';
import { initVoice, renderVoice, onVoiceSignal, voiceSnapshot } from './voice.js';



const CHAT_KEEP = 200;

/** Code from /r/CODE (case-insensitive on input). */
function roomCode() {
  const m = /^\/r\/([^/?#]+)/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]).toUpperCase() : '';
}

const code = roomCode();
const model = { you: null, room: null };
let tableId = null; // the table this page shows (tables.js: shownTableId), null for the bracket
let view = null; // knockout rooms: {kind:'bracket'} or {kind:'table', id} (bracket.js: nextView)
let socket = null;
let board = null;
let boardGame = null;
const seatLevels = {}; // seat -> level the host picked for the computer
/** Under this much time left on one's own clock, the low-time sound plays (once a turn). */
const LOW_TIME_MS = 10_000;
let chatUnread = 0; // chat messages that came while the drawer was closed (phones)
let lowTimeTurn = null; // the turn (match id and ply) the low-time sound was played for
let notifiedTurn = null; // the turn a "your turn" notification was shown for
let clockBase = null; // {remaining: [ms, ms], running: side|null, at: performance.now()}
let countdownBase = null; // {remaining: ms, paused, at: performance.now()} while an auto-start countdown runs
let resignArmed = null;
let stopArmed = null;
let conn = { state: 'connecting', at: 0 };
let refusal = null; // the room refused the hello (room_full): the socket stopped
let editingName = false;

// ---------------------------------------------------------------- helpers

function me() {
  return model.room?.members.find((m) => m.id === model.you?.member) ?? null;
}

/** The table this page shows, or null. */
function table() {
  return tableById(model.room?.tables, tableId);
}

function match() {
  return table()?.match ?? null;
}

/** The `table` field of a command about the shown table's game. */
function atTable() {
  return tableId ? { table: tableId } : {};
}

function gameRunning() {
  const m = match();
  return !!m && !m.outcome;
}

/** Whether a game runs at any of the room's tables. */
function anyRunning() {
  return (model.room?.tables ?? []).some((x) => x.match && !x.match.outcome);
}

/** Whether seats and options are locked: a game runs, or a tournament is under way. */
function locked() {
  return anyRunning() || isActive(model.room?.tournament);
}

/** Which table the page shows (and, in a knockout room, whether it shows the bracket instead). */
function refreshView(started = null) {
  const { room } = model;
  if (isKnockoutRoom(room)) {
    view = nextView(view, room.tables, model.you, started);
    tableId = view.kind === 'table' ? view.id : null;
  } else {
    view = null;
    tableId = shownTableId(room.tables, model.you, tableId);
  }
}

/** Open table `id` from the bracket. */
function watchTable(id) {
  view = { kind: 'table', id };
  tableId = id;
  setClockFrom(match());
  render();
  $('bracket-back').focus();
}

/** Back from a table to the bracket. */
function showBracket() {
  const from = tableId;
  view = { kind: 'bracket' };
  tableId = null;
  render();
  const button = document.querySelector(`[data-testid="watch"][data-table="${from}"]`);
  (button ?? $('bracket-title')).focus();
}

/** The side the viewer plays (as a member of a team too), or null. */
function mySide() {
  return sideOf(match(), model.you);
}

/** Quoridor team rooms: seats per team (seats 0-3 first team, 4-7 second), else null. */
function teamSeats() {
  return model.room?.team_seats ?? null;
}

function isHost() {
  return !!(me()?.host ?? model.you?.host);
}

function validName(name) {
  const n = [...name].length;
  // eslint-disable-next-line no-control-regex
  return n >= 1 && n <= 24 && !/[\u0000-\u001f\u007f-\u009f]/.test(name);
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
function errorText(err) {
  return serverErrorText(err?.code);
}

/** Send a command; errors from the server become toasts. */
async function command(type, fields) {
  try {
    return await socket.send(type, fields);
  } catch (err) {
    toast(errorText(err), 'error', err.code ?? null);
    throw err;
  }
}

function formatClock(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) {
    const s = Math.floor(v / 1000);
    const tenths = Math.floor((v % 1000) / 100);
    return `0:${String(s).padStart(2, '0')}.${tenths}`;
  }
  const total = Math.ceil(v / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

function clockNow(side) {
  if (!clockBase) return null;
  let ms = clockBase.remaining[side];
  if (clockBase.running === side && !match()?.outcome) ms -= performance.now() - clockBase.at;
  return ms;
}

function colorName(side) {
  if (model.room?.game === 'jungle') return side === 0 ? t('jungle.blue_first') : t('jungle.red');
  if (model.room?.game === 'quoridor') return t(`quoridor.color.${colorOf(side)}`);
  return side === 0 ? t('game.side0') : t('game.side1');
}

/** How a member or player is shown: the computer by its level, in the page's language. */
function displayName(who) {
  if (who?.computer) return t('computer.name', { level: t(`level.${who.computer}`) });
  return who?.name ?? null;
}

// ---------------------------------------------------------------- render

/**
 * The sound of a `match` event on the shown table, and for a player the
 * board brought into view when their game starts.
 */
function cue(ev, m) {
  const me = model.you?.member;
  if (ev.kind === 'start') {
    play('start');
    if (m.players.some((p) => p.member === me)) $('board')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    return;
  }
  if (ev.move) play(moveSound(ev.move));
  if (m.outcome) play('end');
  else if (m.to_play != null && m.to_play === me && ev.move) play('turn');
}

/** A notification when this person's turn comes while the tab is hidden (if they turned it on). */
function notifyTurn(m) {
  if (m.outcome || m.to_play == null || m.to_play !== model.you?.member) return;
  const turn = `${m.id}:${m.ply ?? m.state?.ply}`;
  if (notifiedTurn === turn) return;
  notifiedTurn = turn;
  notifyHidden(t('notify.title'), t('notify.body', { code }), `bg-turn-${code}`);
}

/** The low-time sound, once a turn: under 10 s left on this person's own running clock or turn timer. */
function lowTimeCue(m) {
  if (!clockBase || m.outcome || clockBase.running == null) return;
  if (m.to_play == null || m.to_play !== model.you?.member) return;
  const ms = clockNow(clockBase.running);
  const turn = `${m.id}:${m.ply ?? m.state?.ply}`;
  if (ms > 0 && ms < LOW_TIME_MS && lowTimeTurn !== turn) {
    lowTimeTurn = turn;
    play('low_time');
  }
}

function renderNotify() {
  const button = $('notify');
  button.hidden = !notifySupported();
  const on = notifyOn();
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? '🔔' : '🔕';
  button.title = t(on ? 'notify.on' : 'notify.off');
  button.setAttribute('aria-label', button.title);
}

function renderMute() {
  const off = muted();
  const button = $('mute');
  button.setAttribute('aria-pressed', String(off));
  button.textContent = off ? '🔇' : '🔊';
  button.title = t(off ? 'sound.unmute' : 'sound.mute');
  button.setAttribute('aria-label', button.title);
}

function renderHeader() {
  $('room-code').textContent = code;
  // "● Your turn" in the tab while it is this page's person's turn, so a
  // player who looked at another tab sees it there.
  const m = match();
  const mine = !!m && !m.outcome && m.to_play != null && m.to_play === model.you?.member;
  const room = `${t('room.title', { code })} · ${t('site.title')}`;
  document.title = mine ? `● ${t('game.your_turn_tab')} · ${room}` : room;
}

function renderConn() {
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

function renderName() {
  const you = me() ?? model.you;
  const name = you?.name ?? null;
  const form = $('name-form');
  const showForm = !name || editingName;
  form.hidden = !showForm;
  $('name-current').hidden = !name;
  $('name-current').textContent = name ? t('name.you_are', { name }) : '';
  $('name-change').hidden = !name || editingName;
  $('room-main').classList.toggle('needs-name', !name);
}

function renderSeats() {
  const { room } = model;
  const list = $('seats');
  const running = locked();
  const mine = me();
  const named = !!mine?.name;
  const items = [];
  const perTeam = teamSeats();
  const knockout = isKnockoutMode(room);
  const hint = $('seats-hint');
  hint.hidden = !knockout;
  hint.textContent = knockout ? t('seats.grow', { min: MIN_PLAYERS, max: MAX_PLAYERS }) : '';
  for (const i of visibleSeats(room.seats, room.members, knockout)) {
    if (perTeam && i % perTeam === 0) {
      items.push(el('li', { class: 'seat-team', 'data-testid': `team-${i / perTeam}`, text: t('quoridor.team_n', { n: i / perTeam + 1 }) }));
    }
    const m = room.members.find((x) => x.seat === i);
    const side = m ? (sideOf(match(), { member: m.id }) ?? -1) : -1;
    const swatch = side < 0 ? '' : room.game === 'quoridor' ? `qc-${colorOf(side)}` : `side-${side}`;
    const children = [
      el('span', { class: `swatch ${swatch}`, 'aria-hidden': 'true' }),
      el('span', { class: 'seat-label', text: t('seats.seat', { n: i + 1 }) }),
    ];
    if (m) {
      children.push(el('span', { role: 'img', class: `dot ${m.online ? 'on' : 'off'}`, title: t(m.online ? 'members.online' : 'members.offline'), 'aria-label': t(m.online ? 'members.online' : 'members.offline') }));
      children.push(el('span', { class: 'seat-name', 'data-testid': `seat-name-${i}`, dataset: { computer: m.computer ?? '' }, text: displayName(m) ?? t('members.guest') }));
      if (m.account) children.push(accountBadge(m, `account-seat-${i}`));
      if (m.rating) children.push(ratingBadge(m, `rating-seat-${i}`));
      if (m.id === model.you.member && !running) {
        children.push(el('button', { type: 'button', 'data-testid': 'stand', class: 'small', text: t('seats.stand'), onclick: () => command('stand').catch(() => {}) }));
      }
      if (m.computer && isHost() && !running) {
        children.push(el('button', {
          type: 'button', class: 'small', 'data-testid': `computer-remove-${i}`, text: t('computer.remove'),
          onclick: () => command('computer', { seat: i, level: null }).catch(() => {}),
        }));
      }
    } else {
      children.push(el('span', { class: 'seat-name empty', text: t('seats.empty') }));
      if (!running && mine && mine.seat == null) {
        children.push(el('button', {
          type: 'button', class: 'small primary', 'data-testid': `sit-${i}`,
          disabled: !named, title: named ? null : t('seats.need_name'),
          text: t('seats.sit'),
          onclick: () => command('sit', { seat: i }).catch(() => {}),
        }));
      }
      // Every game has a computer player, but it never takes the last
      // seat a person could have (the server refuses it with no_seat).
      const computers = room.members.filter((x) => x.computer && x.seat != null).length;
      if (!running && isHost() && computers + 1 < room.seats) {
        // The choice survives redraws (any event redraws the seats).
        const level = el('select', {
          class: 'small', 'data-testid': `computer-level-${i}`, 'aria-label': t('solo.level'),
          onchange: (e) => { seatLevels[i] = e.target.value; },
        }, ...LEVELS.map((l) => el('option', { value: l, text: t(`level.${l}`) })));
        level.value = seatLevels[i] ?? 'beginner';
        children.push(level, el('button', {
          type: 'button', class: 'small', 'data-testid': `computer-add-${i}`, text: t('computer.add'),
          onclick: () => command('computer', { seat: i, level: level.value }).catch(() => {}),
        }));
      }
    }
    items.push(el('li', { class: `seat ${m ? 'taken' : 'free'}`, 'data-testid': `seat-${i}`, dataset: { member: m?.id ?? '' } }, ...children));
  }
  list.replaceChildren(...items);
}

/** A member's rating at the room's game, "1 662 ± 290" (the computer's fixed one, ± 0). */
function ratingBadge(m, testid) {
  return el('span', {
    class: 'player-rating', 'data-testid': testid, title: t('profile.rating'),
    text: t('room.rating', { rating: m.rating.rating, deviation: m.rating.deviation }),
  });
}

/** The small "registered" badge of a member with an account; its title names the account. */
function accountBadge(m, testid) {
  return el('span', {
    class: 'badge account', 'data-testid': testid, title: t('members.account_title', { name: m.account }),
    text: t('members.account'),
  });
}

function renderMembers() {
  const { room } = model;
  $('spectator-count').textContent = String(room.spectators ?? 0);
  const items = room.members.map((m) => {
    const bits = [
      el('span', { role: 'img', class: `dot ${m.online ? 'on' : 'off'}`, 'aria-label': t(m.online ? 'members.online' : 'members.offline'), title: t(m.online ? 'members.online' : 'members.offline') }),
      el('span', { class: 'member-name', text: displayName(m) ?? t('members.guest') }),
    ];
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

function renderInvite() {
  const { room } = model;
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

function renderOptions() {
  const { room } = model;
  const opts = room.options ?? {};
  $('options-summary').textContent = `${t(`game.${room.game}`)}: ${optionsSummary(opts, room.game)}`;
  const editable = isHost() && !locked();
  const form = $('options-form');
  const wasHidden = form.hidden;
  form.hidden = !editable;
  if (editable && wasHidden) {
    setOptionSelects(optionSelects(), opts, room.game);
    showGameFields(form, room.game);
  }
}

function optionSelects() {
  return {
    game: $('opt-game'), width: $('opt-width'), height: $('opt-height'), clock: $('opt-clock'),
    mode: $('opt-mode'), goal: $('opt-goal'), qsize: $('opt-qsize'), players: $('opt-players'),
    walls: $('opt-walls'), turn: $('opt-turn'),
  };
}

function renderScores() {
  const rows = model.room.scores ?? [];
  const box = $('scores');
  if (!rows.length) {
    box.replaceChildren(el('p', { class: 'hint', text: t('scores.none') }));
    return;
  }
  const head = el('tr', {}, ...['scores.name', 'scores.points', 'scores.wins', 'scores.draws', 'scores.losses'].map((k) => el('th', { scope: 'col', text: t(k) })));
  // A row is a person's (their account, else their member): two guests
  // with the same name have a row each.
  const body = rows.map((r) => {
    const who = el('td', {}, r.name);
    if (r.account) who.append(' ', accountBadge(r, null));
    const attrs = { 'data-testid': 'score-row', class: isMine(r) ? 'you' : null, dataset: { account: r.account ?? '', member: r.member ?? '' } };
    return el('tr', attrs, who, el('td', { text: String(r.points) }),
      el('td', { text: String(r.wins) }), el('td', { text: String(r.draws) }), el('td', { text: String(r.losses) }));
  });
  box.replaceChildren(el('table', { class: 'scores' }, el('thead', {}, head), el('tbody', {}, ...body)));
}

/** Whether a scoreboard row is the viewer's: by account when it has one, else by member. */
function isMine(row) {
  return row.account ? row.account === model.you?.account : row.member === model.you?.member;
}

/** Below 900 px the chat is a drawer opened by a button: the page's own breakpoint (site.css). */
function chatDrawer() {
  return window.matchMedia('(max-width: 899px)').matches;
}

function openChat(open) {
  document.body.classList.toggle('chat-open', open);
  if (open) {
    chatUnread = 0;
    const log = $('chat-log');
    log.scrollTop = log.scrollHeight;
    const input = $('chat-input');
    (input.disabled ? $('chat-close') : input).focus();
  } else {
    $('chat-fab').focus();
  }
  renderChat();
}

function renderChat() {
  const log = $('chat-log');
  const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const msgs = model.room.chat ?? [];
  if (!msgs.length) {
    log.replaceChildren(el('li', { class: 'hint', text: t('chat.empty') }));
  } else {
    log.replaceChildren(...msgs.map((m) => {
      const at = m.at ? new Date(m.at) : null;
      // What the host did, a draw offered: the room's own lines.
      if (m.notice) return el('li', { class: 'chat-notice', 'data-testid': 'chat-notice', text: m.notice });
      return el('li', { 'data-testid': 'chat-message' },
        at ? el('time', { datetime: at.toISOString(), text: at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) }) : null,
        el('b', { text: m.from ?? '?' }), ' ', el('span', { class: 'chat-text', text: m.text }));
    }));
  }
  if (nearBottom) log.scrollTop = log.scrollHeight;
  const fab = $('chat-fab');
  fab.hidden = false;
  const unread = $('chat-unread');
  unread.hidden = !chatUnread;
  unread.textContent = chatUnread ? String(chatUnread) : '';
  fab.setAttribute('aria-label', chatUnread ? `${t('chat.title')}, ${t('chat.unread', { n: chatUnread })}` : t('chat.title'));
  fab.setAttribute('aria-expanded', String(document.body.classList.contains('chat-open')));
  const named = !!me()?.name;
  const input = $('chat-input');
  input.disabled = !named;
  $('chat-send').disabled = !named;
  input.placeholder = named ? t('chat.placeholder') : t('chat.need_name');
}

function renderPlayers() {
  const m = match();
  const box = $('players');
  if (!m) {
    box.replaceChildren();
    return;
  }
  const toMove = m.outcome ? null : m.state.to_move;
  const quoridor = model.room.game === 'quoridor' && Array.isArray(m.state?.pawns);
  const cards = m.players.map((p, side) => {
    const member = model.room.members.find((x) => x.id === p.member);
    const online = member ? member.online : false;
    const defends = m.state.defends?.[side];
    const team = m.teams?.[side] ?? [p];
    const gone = quoridor && m.state.pawns[side] == null;
    let sub = defends ? `${colorName(side)}, ${t('game.defends', { side: t(`side.${defends}`) })}` : colorName(side);
    if (quoridor) {
      sub = team.length > 1 ? `${t('quoridor.team', { color: colorName(side) })}: ${team.map((x) => displayName(x)).join(', ')}` : `${colorName(side)} ${side + 1}`;
      sub += ` · ${t('quoridor.walls_short', { n: m.state.walls_left?.[side] ?? 0 })}`;
    }
    const children = [
      el('span', { class: `swatch ${quoridor ? `qc-${colorOf(side)}` : `side-${side}`}`, 'aria-hidden': 'true' }),
      el('span', { class: 'player-name' },
        el('span', { role: 'img', class: `dot ${online ? 'on' : 'off'}`, title: t(online ? 'members.online' : 'members.offline'), 'aria-label': t(online ? 'members.online' : 'members.offline') }),
        ' ', displayName(p) ?? member?.name ?? '?',
        online ? null : el('span', { class: 'badge off', 'data-testid': `offline-${side}`, text: t('members.offline') }),
        gone && !m.outcome ? el('span', { class: 'badge off', 'data-testid': `gone-${side}`, text: t('quoridor.out') }) : null),
      el('span', { class: 'player-sub', 'data-testid': `player-sub-${side}`, text: sub }),
    ];
    if (m.clock) {
      children.push(el('span', { class: 'clock', 'data-testid': `clock-${side}`, dataset: { side: String(side) } }));
    }
    return el('div', {
      class: `player side-${side} ${toMove === side ? 'to-move' : ''} ${team.some((x) => x.member === model.you.member) ? 'me' : ''}`,
      'data-testid': `player-${side}`,
    }, ...children);
  });
  box.replaceChildren(...cards);
  tickClocks();
}

function tickClocks() {
  const m = match();
  if (!m?.clock || !clockBase) return;
  for (const node of document.querySelectorAll('.clock[data-side]')) {
    const side = Number(node.dataset.side);
    const ms = clockNow(side);
    node.textContent = formatClock(ms);
    node.classList.toggle('running', clockBase.running === side && !m.outcome);
    node.classList.toggle('low', ms < 20000);
  }
  lowTimeCue(m);
}

function outcomeText(m) {
  const o = m.outcome;
  const reason = model.room.game === 'quoridor' && o.reason === 'goal' ? t('quoridor.reason.goal') : t(`reason.${o.reason}`);
  if (o.kind === 'win') {
    const team = m.teams?.[o.winner];
    const name = team && team.length > 1
      ? team.map((x) => displayName(x)).join(', ')
      : displayName(m.players[o.winner]) ?? '?';
    return { head: t('result.win', { name }), reason };
  }
  if (o.kind === 'draw') return { head: t('result.draw'), reason };
  return { head: t('result.aborted'), reason };
}

function renderResult() {
  const m = match();
  const box = $('result');
  if (!m?.outcome) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.reason;
    delete box.dataset.winner;
    return;
  }
  const { head, reason } = outcomeText(m);
  const side = mySide();
  const parts = [];
  if (side != null && m.outcome.kind === 'win') {
    parts.push(el('strong', { class: 'you', text: side === m.outcome.winner ? t('result.you_win') : t('result.you_lose') }), ' ');
  }
  parts.push(el('strong', { class: 'head', 'data-testid': 'result-head', text: head }), ' — ',
    el('span', { class: 'reason', 'data-testid': 'result-reason', text: t('result.by', { reason }) }));
  box.replaceChildren(...parts);
  box.dataset.reason = m.outcome.reason;
  box.dataset.kind = m.outcome.kind;
  if (m.outcome.kind === 'win') box.dataset.winner = String(m.outcome.winner);
  box.className = `result ${m.outcome.kind} ${side != null && m.outcome.kind === 'win' ? (side === m.outcome.winner ? 'won' : 'lost') : ''}`;
  box.hidden = false;
}

function renderActions() {
  const { room } = model;
  const running = anyRunning();
  const seated = room.members.filter((x) => x.seat != null);
  const perTeam = teamSeats();
  const knockout = isKnockoutMode(room);
  const between = statusOf(room.tournament) === 'between_rounds';
  const active = isActive(room.tournament);
  let full;
  if (knockout) full = between || (!active && seated.length >= MIN_PLAYERS);
  else if (perTeam) full = [0, 1].every((team) => seated.some((x) => Math.floor(x.seat / perTeam) === team));
  // Free-for-all Quoridor starts with whoever is seated, two or more.
  else if (room.game === 'quoridor' && (room.options?.mode ?? 'ffa') === 'ffa') full = seated.length >= 2;
  else full = seated.length >= room.seats;
  const host = isHost();
  const start = $('start');
  start.hidden = !(host && full && !running);
  // After a game against the computer (which does not start again by
  // itself): "Play again".
  const last = match();
  const againstComputer = !!last?.outcome && last.players.some((p) => p.computer);
  start.textContent = knockout
    ? t(between ? 'ko.start_next' : 'ko.start')
    : t(againstComputer ? 'game.play_again' : 'game.start');
  // A tournament's pairings say who moves first.
  $('start-order-box').hidden = start.hidden || knockout;
  // Against the computer the seats usually say who plays which side.
  const order = $('start-order');
  if (!order.dataset.touched) {
    order.value = room.members.some((x) => x.computer && x.seat != null) ? 'seats' : 'random';
  }
  const canResign = gameRunning() && mySide() != null;
  const resign = $('resign');
  resign.hidden = !canResign;
  if (!canResign) disarmResign();
  const canStop = host && between;
  $('stop').hidden = !canStop;
  if (!canStop) disarmStop();
  $('game-hint').textContent = knockout ? knockoutHint({ running, between, active, host, seated: seated.length }) : seatsHint({ running, full, host, perTeam });
  renderCountdown();
}

function seatsHint({ running, full, host, perTeam }) {
  if (running) return '';
  if (!full) return perTeam ? t('game.waiting_teams') : t('game.waiting_seats');
  return host ? '' : t('game.waiting_host');
}

function knockoutHint({ running, between, active, host, seated }) {
  if (running) return '';
  if (between) return host ? '' : t('ko.waiting_next');
  if (active) return '';
  if (seated < MIN_PLAYERS) return t('ko.need_players', { min: MIN_PLAYERS });
  return host ? '' : t('ko.waiting_host');
}

/** The auto-start countdown between games, with Pause/Resume and the setting for the host. */
function renderCountdown() {
  const a = model.room.autostart ?? null;
  const host = isHost();
  const box = $('countdown');
  const show = !!countdownBase && !anyRunning();
  box.hidden = !show;
  const toggle = $('countdown-toggle');
  toggle.hidden = !(show && host);
  if (show) {
    toggle.textContent = t(countdownBase.paused ? 'countdown.resume' : 'countdown.pause');
    toggle.dataset.paused = String(countdownBase.paused);
  }
  box.dataset.paused = String(!!countdownBase?.paused);
  $('autostart-box').hidden = !(host && a);
  $('autostart').checked = !!a?.enabled;
  $('rated-box').hidden = !host;
  $('rated').checked = !!model.room.rated;
  $('rated').disabled = anyRunning();
  $('autostart-label').textContent = t(isKnockoutMode(model.room) ? 'countdown.autostart_round' : 'countdown.autostart');
  tickCountdown();
}

function tickCountdown() {
  if (!countdownBase || $('countdown').hidden) return;
  let ms = countdownBase.remaining;
  if (!countdownBase.paused) ms -= performance.now() - countdownBase.at;
  const s = Math.max(0, Math.ceil(ms / 1000));
  const round = isKnockoutMode(model.room);
  const key = countdownBase.paused ? (round ? 'countdown.paused_round' : 'countdown.paused') : (round ? 'countdown.next_round' : 'countdown.next');
  const text = t(key, { s });
  const node = $('countdown-text');
  if (node.textContent !== text) node.textContent = text;
  node.dataset.seconds = String(s);
}

function setCountdownFrom(a) {
  countdownBase = a && a.remaining_ms != null
    ? { remaining: a.remaining_ms, paused: !!a.paused, at: performance.now() }
    : null;
}

function fillStartOrder() {
  const sel = $('start-order');
  const keep = sel.value || 'random';
  sel.replaceChildren(el('option', { value: 'random', text: t('start.random') }), el('option', { value: 'seats', text: t('start.seats') }));
  sel.value = keep;
}

function disarmStop() {
  if (stopArmed) clearTimeout(stopArmed);
  stopArmed = null;
  $('stop').textContent = t('ko.stop');
  $('stop').classList.remove('armed');
}

function disarmResign() {
  if (resignArmed) clearTimeout(resignArmed);
  resignArmed = null;
  $('resign').textContent = t('game.resign');
  $('resign').classList.remove('armed');
}

function renderTurn() {
  const m = match();
  const node = $('turn');
  // Someone who does not play this game is told they are watching it.
  $('watching').hidden = !m || !!m.outcome || mySide() != null;
  if (!m) {
    node.textContent = t('game.no_game');
    node.className = 'turn';
    $('rule-hint').textContent = '';
    return;
  }
  if (m.outcome) {
    node.textContent = '';
    node.className = 'turn';
  } else {
    const tm = m.state.to_move;
    const toPlay = m.to_play ?? m.players[tm]?.member;
    const mine = tm != null && toPlay === model.you.member;
    const mover = m.players[tm];
    node.textContent = mine
      ? t('game.your_turn')
      : mover?.computer ? t('computer.thinking', { name: displayName(mover) }) : t('game.to_move', { name: displayName(mover) ?? '?' });
    node.className = `turn ${mine ? 'mine' : ''}`;
  }
  let hint = '';
  if (!m.outcome) {
    if (model.room.game === 'jungle') hint = mySide() != null ? t('jungle.hint') : '';
    else if (model.room.game === 'quoridor') hint = mySide() != null ? t('quoridor.hint') : '';
    else hint = t('game.current', { k: m.state.current });
  }
  $('rule-hint').textContent = hint;
}

function renderMoves() {
  const m = match();
  const moves = m?.moves ?? [];
  $('move-count').textContent = String(moves.length);
  const list = $('moves');
  const game = model.room?.game;
  if (list.children.length === moves.length && list.dataset.match === (m?.id ?? '') && list.dataset.lang === lang() && list.dataset.game === game) return;
  list.dataset.match = m?.id ?? '';
  list.dataset.lang = lang();
  list.dataset.game = game ?? '';
  const swatchOf = (side) => (game === 'quoridor' ? `qc-${colorOf(side)}` : `side-${side}`);
  list.replaceChildren(...moveListItems(moveListView(moves, { game, sides: m?.move_sides, t }), swatchOf));
  list.scrollTop = list.scrollHeight;
}

/** "How to play" opens the game's rules page in a dialog, over the game. */
function renderRulesButton() {
  $('rules-open').hidden = !RULES_GAMES.includes(model.room?.game);
}

function openRules() {
  const frame = $('rules-frame');
  const src = `/rules/${model.room.game}?embed`;
  if (frame.getAttribute('src') !== src) frame.setAttribute('src', src);
  $('rules-dialog').showModal();
}

/** A Jungle or CrossyRay game's position string, with its Copy button. */
function renderPositionString() {
  const m = match();
  const text = isMatchOf(model.room?.game, m) ? m.state.position ?? '' : '';
  $('position-string-box').hidden = !text;
  $('position-string').textContent = text;
}

function renderBoard() {
  const game = model.room.game;
  $('ask-own-goal-box').hidden = game !== 'crossyray';
  if (!board || boardGame !== game) {
    board?.destroy();
    const container = $('board');
    container.className = 'board';
    board = createBoardFor(game, container, {
      onMove: (move) => command('move', { move, ...atTable() }),
      onNotice: (kind, where) => toast(kind === 'not_your_turn' ? t('board.not_your_turn') : t('board.not_legal', { cell: where }), 'info'),
    });
    boardGame = game;
  }
  // A match of another game (the host just switched) is not drawn.
  const m = match();
  board.set(isMatchOf(game, m) ? m : null, model.you, model.room.options);
}

/** A player of the tournament by member id, named as the page names people. */
function personName(id) {
  const m = model.room?.members.find((x) => x.id === id);
  const e = model.room?.tournament?.entrants?.find((x) => x.member === id);
  return displayName(m ?? e ?? null) ?? e?.name ?? '?';
}

/** Knockout rooms: the bracket, or the bar above the table the page shows. */
function renderTournament() {
  const { room } = model;
  const knockout = isKnockoutRoom(room);
  const onBracket = knockout && view?.kind === 'bracket';
  $('play').dataset.view = onBracket ? 'bracket' : 'table';
  $('bracket-panel').hidden = !onBracket;
  $('watch-bar').hidden = !(knockout && view?.kind === 'table');
  if (!knockout) return;
  const bv = bracketView(room.tournament, { members: room.members, tables: room.tables, you: model.you, unlisted: room.unlisted ?? 0 });
  const seated = room.members.filter((x) => x.seat != null).length;
  if (onBracket) {
    $('bracket-status').textContent = statusText(bv, { seated, nameOf: displayName });
    const note = $('bracket-note');
    note.hidden = !(bv?.out && bv.active);
    note.textContent = note.hidden ? '' : t('ko.out');
    renderBracket($('bracket'), bv, { nameOf: displayName, onWatch: watchTable, shown: tableId, seated });
    return;
  }
  $('watch-title').textContent = watchTitle(bv);
  $('watch-title').dataset.table = tableId ?? '';
}

/** "Watching Round 1: A vs B" (or "Your match, …") for the table shown. */
function watchTitle(bv) {
  const round = bv?.rounds.find((r) => r.matches.some((x) => x.table === tableId));
  const m = round?.matches.find((x) => x.table === tableId);
  if (!m) return '';
  const [a, b] = m.players;
  return t(m.mine ? 'ko.mine' : 'ko.watching', { round: roundName(round.label), a: displayName(a), b: displayName(b) });
}

// ---------------------------------------------------------------- past games

let pastGames = null; // one page of the room's finished games (GET /api/rooms/CODE/games), newest first
let pastPage = 1; // the page shown
const pastSeen = new Set(); // ids of finished matches already asked about
let pastSeq = 0;

/**
 * Fetch the page shown of the room's finished games again; on the first
 * page, when `want` (ids of matches that just ended) are not listed yet,
 * ask again a little later, a few times.
 */
async function loadPastGames(want = [], tries = 6) {
  const mine = ++pastSeq;
  const r = await getJson(`/api/rooms/${encodeURIComponent(code)}/games?page=${pastPage}`);
  if (mine !== pastSeq) return;
  if (r.ok) {
    pastGames = r.data;
    renderPastGames();
  }
  const missing = pastPage === 1 ? want.filter((id) => !pastGames?.games.some((g) => g.id === id)) : [];
  if ((missing.length || !r.ok) && tries > 1) {
    setTimeout(() => { if (mine === pastSeq) loadPastGames(missing, tries - 1); }, 700);
  }
}

/** A match that just ended (or one the page has not asked about) refreshes the list. */
function checkPastGames() {
  const fresh = [];
  for (const table of model.room?.tables ?? []) {
    const m = table.match;
    if (m?.outcome && m.id && !pastSeen.has(m.id)) {
      pastSeen.add(m.id);
      fresh.push(m.id);
    }
  }
  if (fresh.length || pastGames === null) loadPastGames(fresh);
}

function renderPastGames() {
  const list = pastGames?.games ?? [];
  $('past-games').replaceChildren(...list.map((g) => gameEntry(g, { showRoom: false })));
  $('past-empty').hidden = list.length > 0 || pastPage > 1;
  if (pastGames) renderPager($('past-pager'), pastGames);
}

function showPastPage(page) {
  pastPage = Math.max(1, page);
  loadPastGames();
}

function render() {
  if (!model.room) return;
  checkPastGames();
  document.body.dataset.game = model.room.game;
  renderHeader();
  renderMute();
  renderNotify();
  renderTournament();
  renderName();
  renderSeats();
  renderMembers();
  renderInvite();
  renderOptions();
  renderScores();
  renderChat();
  renderPlayers();
  renderTurn();
  renderBoard();
  renderResult();
  renderActions();
  renderMoves();
  renderPositionString();
  renderRulesButton();
  renderManners();
  renderVoice();
}

// ---------------------------------------------------------------- model updates

function setClockFrom(m) {
  if (m?.clock) {
    clockBase = {
      remaining: [...m.clock.remaining_ms],
      running: m.outcome ? null : (m.clock.running ?? null),
      at: performance.now(),
    };
  } else {
    clockBase = null;
  }
}

function onSnapshot(msg) {
  model.you = msg.you;
  model.room = msg.room;
  model.room.chat = (model.room.chat ?? []).slice(-CHAT_KEEP);
  model.room.tables ??= [];
  refreshView();
  setClockFrom(match());
  setCountdownFrom(model.room.autostart);
  $('loading').hidden = true;
  $('room-main').hidden = false;
  voiceSnapshot();
  render();
}

/** A line of the room's own in the chat log (a host's action, a draw offer). */
function notice(text) {
  const { room } = model;
  room.chat = [...(room.chat ?? []), { notice: text, at: Date.now() }].slice(-CHAT_KEEP);
}

function onEvent(ev) {
  const { room } = model;
  if (!room) return;
  switch (ev.type) {
    case 'members': {
      room.members = ev.members;
      if (typeof ev.spectators === 'number') room.spectators = ev.spectators;
      if (typeof ev.unlisted === 'number') room.unlisted = ev.unlisted;
      const mine = me();
      if (mine) model.you = { ...model.you, name: mine.name, host: mine.host };
      break;
    }
    case 'match': {
      const applied = applyMatchEvent(room.tables, ev);
      if (applied && ev.table === tableId) {
        cue(ev, applied.match);
        notifyTurn(applied.match);
      }
      if (!applied) {
        // A move for a match this page does not hold as it was: start
        // again from a fresh snapshot.
        socket.resync();
        return;
      }
      const shown = tableId;
      refreshView(ev.kind === 'start' ? ev.table : null);
      // Another table's game is kept in the model (and the bracket), not on the board.
      if (ev.table === tableId || tableId !== shown) setClockFrom(match());
      if (ev.kind === 'start') {
        // A new game (a tournament's round) ends any countdown, and the rematch asked for.
        room.autostart = { ...(room.autostart ?? {}), remaining_ms: null, paused: false };
        setCountdownFrom(null);
        room.rematch = [];
      }
      break;
    }
    case 'tournament': {
      // The end of a tournament (the champion, or stopped) is shown to everyone.
      if (isActive(room.tournament) && ev.tournament && !isActive(ev.tournament)) view = { kind: 'bracket' };
      room.tournament = ev.tournament;
      room.tables = syncTables(room.tables, ev.tournament);
      const shown = tableId;
      refreshView();
      if (tableId !== shown) setClockFrom(match());
      break;
    }
    case 'spectators':
      // Watchers came or went (coalesced, at most one a second).
      room.spectators = ev.spectators;
      room.unlisted = ev.unlisted;
      break;
    case 'coin_toss':
      toast(t('ko.coin_toss', { name: personName(ev.winner) }), 'info', 'coin_toss', 12000);
      return;
    case 'autostart':
      room.autostart = ev.autostart;
      setCountdownFrom(ev.autostart);
      break;
    case 'rated':
      room.rated = ev.rated;
      break;
    case 'options':
      if (ev.game) room.game = ev.game;
      room.options = ev.options;
      // The seats follow the options (Quoridor: players, or 8 for teams).
      if (typeof ev.seats === 'number') room.seats = ev.seats;
      if ('team_seats' in ev) room.team_seats = ev.team_seats;
      // Knockout on or off: the bracket comes or goes.
      refreshView();
      if (!$('options-form').hidden) {
        setOptionSelects(optionSelects(), ev.options, room.game);
        showGameFields($('options-form'), room.game);
      }
      break;
    case 'scores':
      room.scores = ev.scores;
      break;
    case 'chat':
      room.chat = [...(room.chat ?? []), ev.message].slice(-CHAT_KEEP);
      if (chatDrawer() && !document.body.classList.contains('chat-open')) chatUnread += 1;
      break;
    case 'draw': {
      const at = tableById(room.tables, ev.table);
      if (at?.match) at.match.draw_offer = ev.kind === 'offer' ? ev.side : null;
      const text = drawText(ev);
      notice(text);
      if (ev.member !== model.you?.member && ev.table === tableId) toast(text, 'info', `draw_${ev.kind}`);
      break;
    }
    case 'rematch':
      room.rematch = ev.rematch;
      break;
    case 'notice':
      notice(noticeText(ev));
      break;
    case 'removed':
      room.removed = ev.removed;
      break;
    case 'voice': {
      // One member's change (their state, or null: they left); the
      // snapshot carries the whole list, in order of joining.
      const list = (room.voice ?? []).filter((v) => v.member !== ev.member);
      const at = (room.voice ?? []).findIndex((v) => v.member === ev.member);
      if (ev.voice) list.splice(at < 0 ? list.length : at, 0, ev.voice);
      room.voice = list;
      break;
    }
    default:
      return;
  }
  render();
}

// ---------------------------------------------------------------- wiring

function wireForms() {
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
      editingName = false;
      // The members event that follows brings the name; show it meanwhile.
      if (model.you) model.you = { ...model.you, name };
      const mine = me();
      if (mine) mine.name = name;
      render();
    } catch { /* toast shown */ }
  });
  $('name-change').addEventListener('click', () => {
    editingName = true;
    $('name-input').value = me()?.name ?? '';
    renderName();
    $('name-input').focus();
  });

  fillStartOrder();
  initManners({
    model, match, mySide, isHost, anyRunning, locked, command, atTable,
    name: (id) => personName(id),
  });
  initVoice({ model, command, isHost, toast, name: (id) => personName(id) });
  $('ask-own-goal').checked = askOwnGoal();
  $('ask-own-goal').addEventListener('change', (e) => setAskOwnGoal(e.target.checked));
  $('start-order').addEventListener('change', (e) => { e.target.dataset.touched = 'true'; });
  $('start').addEventListener('click', () => command('start', { order: $('start-order').value }).catch(() => {}));
  $('mute').addEventListener('click', () => {
    setMuted(!muted());
    renderMute();
  });
  $('chat-fab').addEventListener('click', () => openChat(true));
  $('chat-close').addEventListener('click', () => openChat(false));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && document.body.classList.contains('chat-open')) openChat(false);
  });
  $('notify').addEventListener('click', async () => {
    const was = notifyOn();
    const now = await toggleNotify();
    renderNotify();
    if (now === 'denied') toast(t('notify.denied'), 'error');
    else if (now === 'on' && !was) toast(t('notify.enabled'), 'info');
  });
  $('countdown-toggle').addEventListener('click', () => {
    command('countdown', { paused: !countdownBase?.paused }).catch(() => {});
  });
  $('rated').addEventListener('change', (e) => {
    command('rated', { rated: e.target.checked }).catch(() => { e.target.checked = !e.target.checked; });
  });
  $('autostart').addEventListener('change', (e) => {
    command('autostart', { enabled: e.target.checked }).catch(() => { e.target.checked = !e.target.checked; });
  });
  $('resign').addEventListener('click', () => {
    const b = $('resign');
    if (!resignArmed) {
      b.textContent = t('game.resign_confirm');
      b.classList.add('armed');
      resignArmed = setTimeout(disarmResign, 4000);
      return;
    }
    disarmResign();
    command('resign', atTable()).catch(() => {});
  });
  $('stop').addEventListener('click', () => {
    const b = $('stop');
    if (!stopArmed) {
      b.textContent = t('ko.stop_confirm');
      b.classList.add('armed');
      stopArmed = setTimeout(disarmStop, 4000);
      return;
    }
    disarmStop();
    command('stop').catch(() => {});
  });
  $('bracket-back').addEventListener('click', showBracket);

  $('rules-open').addEventListener('click', openRules);
  $('rules-close').addEventListener('click', () => $('rules-dialog').close());
  // Escape pressed inside the rules page (an iframe) closes its dialog too.
  window.addEventListener('message', (e) => {
    if (e.origin === location.origin && e.data?.type === 'rules-close') $('rules-dialog').close();
  });
  $('past-prev').addEventListener('click', () => showPastPage(pastPage - 1));
  $('past-next').addEventListener('click', () => showPastPage(pastPage + 1));
  $('copy-position').addEventListener('click', async () => {
    if (await copyText($('position-string').textContent)) toast(t('position.copied'), 'info');
    else {
      toast(t('position.copy_failed'));
      getSelection().selectAllChildren($('position-string'));
    }
  });
  $('copy-link').addEventListener('click', async () => {
    if (await copyText($('invite-link').href)) toast(t('invite.copied'), 'info');
    else {
      toast(t('invite.copy_failed'));
      const range = document.createRange();
      range.selectNodeContents($('invite-link'));
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
  });

  const sel = optionSelects();
  fillOptionSelects(sel);
  const checkOptions = () => {
    const r = readOptionSelects(sel);
    $('options-error').textContent = r.error ?? '';
    $('options-error').hidden = !r.error;
    $('options-save').disabled = !!r.error;
    return r;
  };
  for (const s of Object.values(sel)) s.addEventListener('change', checkOptions);
  sel.game.addEventListener('change', () => showGameFields($('options-form'), sel.game.value));
  $('options-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = checkOptions();
    if (r.error) return;
    try {
      await command('options', { game: r.game, options: r.options });
      toast(t('options.saved'), 'info');
    } catch { /* toast shown */ }
  });

  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('chat-input');
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > 300) return;
    try {
      await command('chat', { text });
      input.value = '';
    } catch { /* toast shown */ }
  });
}

async function init() {
  initI18n($('lang'));
  loadMe();
  renderHeader();
  renderMute();
  renderNotify();
  renderConn();
  if (!/^[A-Z0-9]{6}$/.test(code)) {
    showNotFound();
    return;
  }
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (res.status === 404) {
      showNotFound();
      return;
    }
  } catch { /* the socket will retry */ }

  wireForms();

  socket = new RoomSocket(code, {
    messages: { disconnected: t('error.disconnected'), timeout: t('error.timeout') },
    onStatus(state, info) {
      conn = { state, at: info?.at ?? 0 };
      renderConn();
    },
    onSnapshot,
    onEvent,
    onDirect(msg) {
      if (msg.type === 'signal') onVoiceSignal(msg);
    },
    onError(err) {
      toast(errorText(err), 'error', err.code ?? null);
    },
    onNoRoom: showNotFound,
    onRefused(err) {
      refusal = err;
      conn = { state: 'refused', at: 0 };
      renderConn();
      renderRefused();
    },
  });
  socket.connect();

  setInterval(() => {
    tickClocks();
    tickCountdown();
    if (conn.state === 'offline') renderConn();
  }, 100);
  $('refused-retry').addEventListener('click', () => {
    refusal = null;
    renderRefused();
    $('loading').hidden = false;
    socket.reopen();
  });
  window.addEventListener('online', () => socket.reconnectNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') socket.reconnectNow();
  });
  onLangChange(() => {
    fillOptionSelects(optionSelects());
    fillStartOrder();
    renderConn();
    renderRefused();
    render();
    renderPastGames();
  });
}

/** The room refused this browser (it is full): say so instead of retrying forever. */
function renderRefused() {
  $('refused').hidden = !refusal;
  $('refused-text').textContent = refusal ? errorText(refusal) : '';
  if (refusal) {
    $('loading').hidden = true;
    $('room-main').hidden = true;
  }
}

/** The room does not exist (or no longer does): say so, with the way home, in the page's language. */
function showNotFound() {
  $('loading').hidden = true;
  $('room-main').hidden = true;
  $('chat-fab').hidden = true;
  $('not-found').hidden = false;
  conn = { state: 'gone', at: 0 };
  const draw = () => {
    renderConn();
    $('not-found-text').textContent = t('room.not_found', { code });
  };
  draw();
  onLangChange(draw);
}

init();

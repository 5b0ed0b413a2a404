// The buttons under the board: Start (or Play again, or the tournament's
// next round) with who moves first, Resign and Stop (each asks to be
// clicked again), the hint saying what the room waits for, and the
// auto-start countdown with its Pause/Resume and the host's settings.

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { isKnockoutMode, isActive, statusOf, MIN_PLAYERS } from '../bracket.js';
import { factsOf } from '../games/facts.js';
import { page, command, send } from './page.js';
import { isHost, isSolo, anyRunning, gameRunning, mySide, shownMatch, countdownLeft, atTable } from './model.js';

export const actionsPanel = {
  name: 'actions',
  slice: (m) => [m.room.members, m.room.tables, m.room.tournament, m.room.options, m.room.game, m.room.seats,
    m.room.team_seats, m.room.autostart, m.room.rated, m.room.public, m.countdown, m.tableId, m.you, isSolo(m)],
  draw,
};

/** Whether the room has the players its next game needs. */
function ready(room, seated) {
  const perTeam = room.team_seats ?? null;
  if (isKnockoutMode(room)) {
    const between = statusOf(room.tournament) === 'between_rounds';
    return between || (!isActive(room.tournament) && seated.length >= MIN_PLAYERS);
  }
  if (perTeam) return [0, 1].every((team) => seated.some((x) => Math.floor(x.seat / perTeam) === team));
  // Free-for-all Quoridor starts with whoever is seated, two or more.
  if (factsOf(room.game).seatsFill === 'ffa' && (room.options?.mode ?? 'ffa') === 'ffa') return seated.length >= 2;
  return seated.length >= room.seats;
}

function draw(model) {
  const { room } = model;
  const running = anyRunning(model);
  const seated = room.members.filter((x) => x.seat != null);
  const knockout = isKnockoutMode(room);
  const between = statusOf(room.tournament) === 'between_rounds';
  const active = isActive(room.tournament);
  const full = ready(room, seated);
  const host = isHost(model);
  const start = $('start');
  start.hidden = !(host && full && !running);
  // After a game against the computer (which does not start again by itself): "Play again".
  const last = shownMatch(model);
  const againstComputer = !!last?.outcome && (last.teams ?? last.players.map((p) => [p])).flat().some((p) => p?.computer);
  start.textContent = knockout ? t(between ? 'ko.start_next' : 'ko.start') : t(againstComputer ? 'game.play_again' : 'game.start');
  // A tournament's pairings say who moves first.
  $('start-order-box').hidden = start.hidden || knockout;
  // Against the computer the seats usually say who plays which side.
  const computer = room.members.some((x) => x.computer && x.seat != null);
  const order = $('start-order');
  if (!order.dataset.touched) order.value = computer ? 'seats' : 'random';
  resign.show(gameRunning(model) && mySide(model) != null);
  stop.show(host && between);
  // While a countdown runs, it says when the next game starts (not "waiting for the host").
  const counting = !!model.countdown && !running;
  $('game-hint').textContent = knockout
    ? knockoutHint({ running, between, active, host, seated: seated.length, counting })
    : seatsHint({ running, full, host, perTeam: room.team_seats ?? null, counting });
  drawCountdown(model, host, running, computer);
}

function seatsHint({ running, full, host, perTeam, counting }) {
  if (running) return '';
  if (!full) return perTeam ? t('game.waiting_teams') : t('game.waiting_seats');
  return host || counting ? '' : t('game.waiting_host');
}

function knockoutHint({ running, between, active, host, seated, counting }) {
  if (running) return '';
  if (between) return host || counting ? '' : t('ko.waiting_next');
  if (active) return '';
  if (seated < MIN_PLAYERS) return t('ko.need_players', { min: MIN_PLAYERS });
  return host ? '' : t('ko.waiting_host');
}

/** The countdown, and the host's switches; a game with the computer is never rated nor started by itself. */
function drawCountdown(model, host, running, computer) {
  const { room, countdown } = model;
  const a = room.autostart ?? null;
  const box = $('countdown');
  const show = !!countdown && !running;
  box.hidden = !show;
  const toggle = $('countdown-toggle');
  toggle.hidden = !(show && host);
  if (show) {
    toggle.textContent = t(countdown.paused ? 'countdown.resume' : 'countdown.pause');
    toggle.dataset.paused = String(countdown.paused);
  }
  box.dataset.paused = String(!!countdown?.paused);
  $('autostart-box').hidden = !(host && a) || computer;
  $('autostart').checked = !!a?.enabled;
  // A solo room is never rated nor listed (`solo_room`), the computer seated or not.
  const solo = isSolo(model);
  $('rated-box').hidden = !host || computer || solo;
  $('rated').checked = !!room.rated;
  $('rated').disabled = running;
  $('public-box').hidden = !host || computer || solo;
  $('public').checked = !!room.public;
  $('autostart-label').textContent = t(isKnockoutMode(room) ? 'countdown.autostart_round' : 'countdown.autostart');
  tickCountdown(model, performance.now());
}

/** The countdown's seconds as they read at `now` (a timer calls this ten times a second). */
export function tickCountdown(model, now) {
  if (!model.countdown || $('countdown').hidden) return;
  const s = Math.max(0, Math.ceil(countdownLeft(model, now) / 1000));
  const round = isKnockoutMode(model.room);
  const key = model.countdown.paused ? (round ? 'countdown.paused_round' : 'countdown.paused') : (round ? 'countdown.next_round' : 'countdown.next');
  const text = t(key, { s });
  const node = $('countdown-text');
  if (node.textContent !== text) node.textContent = text;
  node.dataset.seconds = String(s);
}

/**
 * A button that asks to be clicked again within four seconds (Resign,
 * Stop the tournament): the first click arms it, the second sends.
 */
function armedButton(id, words, confirmWords, act) {
  let timer = null;
  const disarm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    $(id).textContent = t(words);
    $(id).classList.remove('armed');
  };
  return {
    show(visible) {
      $(id).hidden = !visible;
      if (!visible) disarm();
    },
    wire() {
      $(id).addEventListener('click', () => {
        if (!timer) {
          $(id).textContent = t(confirmWords);
          $(id).classList.add('armed');
          timer = setTimeout(disarm, 4000);
          return;
        }
        disarm();
        act();
      });
    },
  };
}

const resign = armedButton('resign', 'game.resign', 'game.resign_confirm', () => send('resign', atTable(page.model)));
const stop = armedButton('stop', 'ko.stop', 'ko.stop_confirm', () => send('stop'));

/** Who moves first, in the page's language (kept when it changes). */
export function fillStartOrder() {
  const sel = $('start-order');
  const keep = sel.value || 'random';
  sel.replaceChildren(el('option', { value: 'random', text: t('start.random') }), el('option', { value: 'seats', text: t('start.seats') }));
  sel.value = keep;
}

/** The buttons' clicks, once. */
export function wireActions() {
  fillStartOrder();
  resign.wire();
  stop.wire();
  $('start-order').addEventListener('change', (e) => { e.target.dataset.touched = 'true'; });
  $('start').addEventListener('click', () => send('start', { order: $('start-order').value }));
  $('countdown-toggle').addEventListener('click', () => send('countdown', { paused: !page.model.countdown?.paused }));
  // A refused switch goes back to where it was.
  for (const [id, type, field] of [['rated', 'rated', 'rated'], ['autostart', 'autostart', 'enabled'], ['public', 'public', 'on']]) {
    $(id).addEventListener('change', (e) => {
      command(type, { [field]: e.target.checked }).catch(() => { e.target.checked = !e.target.checked; });
    });
  }
}

// The Seats panel: each seat with who sits there (or Sit, or a computer
// to add for the host), grouped by team in Quoridor team rooms; a
// knockout room lists the occupied seats and the lowest free one.

import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { sideOf } from '../quoridor/state.js';
import { colorName } from '../quoridor/render.js';
import { LEVELS } from '../solo.js';
import { isKnockoutMode, visibleSeats, MIN_PLAYERS, MAX_PLAYERS } from '../bracket.js';
import { gameOf } from '../games/registry.js';
import { send } from './page.js';
import { me, isHost, locked, shownMatch, sameNames } from './model.js';
import { whoName, dotted, accountBadge, ratingBadge } from './people.js';

const seatLevels = {}; // seat -> level the host picked for the computer (survives redraws)

export const seatsPanel = {
  name: 'seats',
  slice: (m) => [m.room.seats, m.room.members, m.room.team_seats, m.room.options, m.room.game, shownMatch(m), locked(m), isHost(m), m.you, sameNames(m.room).key],
  draw,
};

function draw(model) {
  const { room } = model;
  const running = locked(model);
  const mine = me(model);
  const named = !!mine?.name;
  const host = isHost(model);
  const items = [];
  const perTeam = room.team_seats ?? null;
  const knockout = isKnockoutMode(room);
  const hint = $('seats-hint');
  hint.hidden = !knockout;
  hint.textContent = knockout ? t('seats.grow', { min: MIN_PLAYERS, max: MAX_PLAYERS }) : '';
  const game = gameOf(room.game);
  const match = shownMatch(model);
  // Every game has a computer player, but it never takes the last
  // seat a person could have (the server refuses it with no_seat).
  const computers = room.members.filter((x) => x.computer && x.seat != null).length;
  const canAddComputer = !running && host && computers + 1 < room.seats;
  for (const i of visibleSeats(room.seats, room.members, knockout)) {
    if (perTeam && i % perTeam === 0) {
      items.push(el('li', { class: 'seat-team', 'data-testid': `team-${i / perTeam}`, text: t('quoridor.team', { color: colorName(i / perTeam) }) }));
    }
    const m = room.members.find((x) => x.seat === i);
    const side = m ? (sideOf(match, { member: m.id }) ?? -1) : -1;
    const children = [
      el('span', { class: `swatch ${side < 0 ? '' : game.swatch(side)}`, 'aria-hidden': 'true' }),
      el('span', { class: 'seat-label', text: t('seats.seat', { n: i + 1 }) }),
    ];
    if (m) children.push(...taken(model, m, i, { running, host }));
    else {
      children.push(el('span', { class: 'seat-name empty', text: t('seats.empty') }));
      if (!running && mine && mine.seat == null) {
        children.push(el('button', {
          type: 'button', class: 'small primary', 'data-testid': `sit-${i}`,
          disabled: !named, title: named ? null : t('seats.need_name'),
          text: t('seats.sit'),
          onclick: () => send('sit', { seat: i }),
        }));
      }
      if (canAddComputer) children.push(...computerChoice(i));
    }
    items.push(el('li', { class: `seat ${m ? 'taken' : 'free'}`, 'data-testid': `seat-${i}`, dataset: { member: m?.id ?? '' } }, ...children));
  }
  $('seats').replaceChildren(...items);
}

/** A taken seat: who sits there, and Stand (theirs) or Remove (the host's computer). */
function taken(model, m, i, { running, host }) {
  const out = [
    dotted(m.online, el('span', { class: 'seat-name', 'data-testid': `seat-name-${i}`, dataset: { computer: m.computer ?? '' }, text: whoName(model, m) ?? t('members.guest') })),
  ];
  if (m.account) out.push(accountBadge(m, `account-seat-${i}`));
  if (m.rating) out.push(ratingBadge(m, `rating-seat-${i}`));
  if (m.id === model.you.member && !running) {
    out.push(el('button', { type: 'button', 'data-testid': 'stand', class: 'small', text: t('seats.stand'), onclick: () => send('stand') }));
  }
  if (m.computer && host && !running) {
    out.push(el('button', {
      type: 'button', class: 'small', 'data-testid': `computer-remove-${i}`, text: t('computer.remove'),
      onclick: () => send('computer', { seat: i, level: null }),
    }));
  }
  return out;
}

/** The host's level select and Add button for the computer on free seat `i`. */
function computerChoice(i) {
  const level = el('select', {
    class: 'small', 'data-testid': `computer-level-${i}`, 'aria-label': t('solo.level'),
    onchange: (e) => { seatLevels[i] = e.target.value; },
  }, ...LEVELS.map((l) => el('option', { value: l, text: t(`level.${l}`) })));
  level.value = seatLevels[i] ?? 'beginner';
  return [level, el('button', {
    type: 'button', class: 'small', 'data-testid': `computer-add-${i}`, text: t('computer.add'),
    onclick: () => send('computer', { seat: i, level: level.value }),
  })];
}

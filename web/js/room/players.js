// The players above the board: a card a side with its colour, name,
// online state and (CrossyRay, Jungle) the side it defends or (Quoridor)
// its team and walls; with a chess clock, the clocks, which tickClocks()
// counts down between events from the model's clock base; in a
// turn-based game, the time left to move, counted down the same way from
// the `turn_left_ms` of the last event (model.turn).

import { leftText } from '../turns.js';
import { t } from '../i18n.js';
import { $, el } from '../dom.js';
import { gameOf } from '../games/registry.js';
import { shownMatch, clockLeft, turnLeft, sameNames } from './model.js';
import { whoName, onlineDot } from './people.js';

export const playersPanel = {
  name: 'players',
  slice: (m) => [shownMatch(m), m.room.members, m.room.game, m.you, m.clock, m.turn, sameNames(m.room).key],
  draw,
};

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


/**
 * The online dot and the name, the dot kept on the line of the name's
 * first word (one unbreakable piece), the rest wrapping at its spaces
 * over the card's whole width.
 */
function dotAndName(online, name) {
  const [, first, rest] = /^(\S*)([\s\S]*)$/.exec(name);
  return [el('span', { class: 'name-lead' }, onlineDot(online), first), rest || null];
}

function draw(model) {
  const m = shownMatch(model);
  const box = $('players');
  if (!m) {
    box.replaceChildren();
    return;
  }
  const toMove = m.outcome ? null : m.state.to_move;
  const pawns = Array.isArray(m.state?.pawns);
  const cards = m.players.map((p, side) => {
    const member = model.room.members.find((x) => x.id === p.member);
    const online = member ? member.online : false;
    const team = m.teams?.[side] ?? [p];
    const gone = pawns && m.state.pawns[side] == null;
    const name = whoName(model, p) ?? whoName(model, member) ?? '?';
    const children = [
      el('span', { class: `swatch ${gameOf(model.room.game).swatch(side)}`, 'aria-hidden': 'true' }),
      el('span', { class: 'player-name' },
        el('span', { class: 'player-label', 'data-testid': `player-name-${side}`, title: name }, ...dotAndName(online, name)),
        online ? null : el('span', { class: 'badge off', 'data-testid': `offline-${side}`, text: t('members.offline') }),
        gone && !m.outcome ? el('span', { class: 'badge off', 'data-testid': `gone-${side}`, text: t('quoridor.out') }) : null),
      el('span', { class: 'player-sub', 'data-testid': `player-sub-${side}`, text: gameOf(model.room.game).playerLine(m, side, team, (who) => whoName(model, who)) }),
    ];
    if (m.clock) children.push(el('span', { class: 'clock', 'data-testid': `clock-${side}`, dataset: { side: String(side) } }));
    // A turn-based game: the time left to move instead of a clock.
    if (model.turn && toMove === side && !m.outcome) {
      children.push(el('span', { class: 'clock turn-left', 'data-testid': 'turn-left' }));
    }
    return el('div', {
      class: `player side-${side} ${toMove === side ? 'to-move' : ''} ${team.some((x) => x.member === model.you.member) ? 'me' : ''}`,
      'data-testid': `player-${side}`,
    }, ...children);
  });
  box.replaceChildren(...cards);
  tickClocks(model, performance.now());
}

/**
 * The clocks, and a turn-based game's time left to move, as they read at
 * `now` (a timer calls this ten times a second: the time left changes
 * its words at most once a minute, in hours, then minutes near the end).
 */
export function tickClocks(model, now) {
  const left = turnLeft(model, now);
  const turn = document.querySelector('[data-testid="turn-left"]');
  if (turn && left != null) {
    const text = leftText(left);
    if (turn.textContent !== text) turn.textContent = text;
  }
  const m = shownMatch(model);
  if (!m?.clock || !model.clock) return;
  for (const node of document.querySelectorAll('.clock[data-side]')) {
    const side = Number(node.dataset.side);
    const ms = clockLeft(model, side, now);
    node.textContent = formatClock(ms);
    node.classList.toggle('running', model.clock.running === side && !m.outcome);
    node.classList.toggle('low', ms < 20000);
  }
}
